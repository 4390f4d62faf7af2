#![recursion_limit = "256"] // the json! literal of the case schema is deep
//! The conformance runner of the events-calendar REST interface.
//!
//! # Layout
//! Reading case files, from the bottom up:
//! - [`yaml`]: reads a case file's YAML once into a tree whose values know their line and
//!   column (bounded in depth and size).
//! - [`template`]: the `{{...}}` syntax: variables, built-ins, dates, filters.
//! - [`node`]: the values of a case file with their templates parsed (request data, patterns).
//! - [`loader`]: finds case files, reads their shape, checks their meaning, reports every error.
//! - [`model`]: the validated suite (files, cases, steps) the loader produces.
//!
//! Running them:
//! - [`env`]: evaluating templates and nodes against a running case's variables (bounded).
//! - [`pattern`]: turns expectation nodes into patterns (matchers included).
//! - [`matcher`]: compares a pattern with a value, listing each mismatch with its JSON path.
//! - [`diff`]: the bounded diff of a failing `json` expectation.
//! - [`runner`]: runs one case, step by step in phases: request, send, assert, capture (and
//!   the `/doc` check).
//! - [`outcome`]: what running a case produced (plain data for the reports), typed step errors.
//! - [`preflight`]: before the first case against an outside server, the namespace index and
//!   each credential set are checked once.
//! - [`features`]: the table of optional features (`requires`, `--without`) and whether a case
//!   can run where it is about to.
//! - [`credentials`]: the credential names (the five roles) and which of them a case needs.
//! - [`expectations`]: lists of test names known to fail.
//! - [`ids`]: `run_id` and the per-case `case_id`.
//!
//! Around them:
//! - [`report`]: one module per format (terminal message, summary, JUnit, JSON, HTML, repro
//!   scripts, curl, coverage) and the secrets they mask.
//! - [`show`]: short renderings of values and texts for messages (compact JSON, excerpts).
//! - [`schema`]: the JSON Schema of case files, for editors.
//! - [`coverage`]: which routes, methods, parameters, write fields and error codes of the
//!   interface the cases touch (`conformance coverage`; printed by [`report::coverage`]).
//! - [`differential`]: `conformance diff`: the cases' requests sent to two implementations in
//!   step, their answers compared after normalising what legitimately differs.
//! - [`cli`]: the command-line options (the runner's and a test harness's).
//! - [`harness`]: runs the trials on threads and prints libtest's output formats.
//! - [`app`]: the program: load, build one trial per case, run, report.
//!
//! The binary `conformance` and the `cargo test` gate (`tests/suite.rs`) both call
//! [`app::run`].

pub mod app;
pub mod cli;
pub mod coverage;
pub mod credentials;
pub mod diff;
pub mod differential;
pub mod env;
pub mod expectations;
pub mod features;
pub mod harness;
pub mod ids;
pub mod loader;
pub mod matcher;
pub mod model;
pub mod node;
pub mod outcome;
pub mod pattern;
pub mod preflight;
pub mod report;
pub mod runner;
pub mod schema;
pub mod show;
pub mod template;
pub mod yaml;
