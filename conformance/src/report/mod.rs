//! Reports: each format is its own module, reading [`CaseReport`](crate::outcome::CaseReport)s.
//!
//! - [`terminal`]: the message of a failing case (request as `curl`, mismatches, diff).
//! - [`summary`]: the per-level counts and the verdict printed after libtest's lines.
//! - [`junit`]: JUnit XML (`--junit FILE`).
//! - [`json`]: a JSON document of every case (`--json FILE`).
//! - [`coverage`]: the coverage matrix of `conformance coverage` (text and JSON).

pub mod coverage;
pub mod json;
pub mod junit;
pub mod summary;
pub mod terminal;
