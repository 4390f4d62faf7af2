#![recursion_limit = "256"] // the json! literal of the case schema is deep
//! The conformance runner of the events-calendar REST interface, and the suite it carries.
//!
//! # The suite in your `cargo test`
//! A Rust implementation of the interface can gate on the suite in its own `cargo test`:
//! [`Gate`] turns the suite built into this crate and the implementation's base URL (plus the
//! runner's usual options: credentials, namespace, language parameter, absent features,
//! expected failures…) into [libtest-mimic](libtest_mimic) trials, one per case, for a test
//! with `harness = false`. A whole `tests/conformance.rs`, with the reference server standing
//! in for the implementation (this file is `conformance/tests/library_example.rs`, which this
//! crate's `cargo test` builds and runs):
//!
//! ```rust,ignore
#![doc = include_str!("../tests/library_example.rs")]
//! ```
//!
//! Use the [`libtest_mimic`] this crate re-exports, so that its trials and `run` agree. A
//! failing case prints what the runner prints (the request as `curl`, the mismatches with the
//! line of the case file, a diff); `cargo test -- FILTER`, `--exact`, `--skip`, `--list` and
//! `--test-threads` work as for any test.
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
//! - [`escape`]: the two doors of every text written out: a word for the shell, a text for the
//!   terminal (control characters made visible).
//! - [`source`]: where a run's cases come from (the embedded suite or a folder) and loading them.
//! - [`schema`]: the JSON Schema of case files, for editors.
//! - [`coverage`]: which routes, methods, parameters, write fields and error codes of the
//!   interface the cases touch (`conformance coverage`; printed by [`report::coverage`]).
//! - [`differential`]: `conformance diff`: the cases' requests sent to two implementations in
//!   step, their answers compared after normalising what legitimately differs.
//! - [`explore`]: `conformance explore`: generated request sequences sent in lockstep to an
//!   implementation and an embedded reference server, differences judged and shrunk to a case.
//! - [`suite`]: the case files embedded at build time (`build.rs`), the default suite; their
//!   digest for `--version`, and `conformance cases export`.
//! - [`cli`]: the command-line options (the runner's and a test harness's).
//! - [`harness`]: runs the trials on threads and prints libtest's output formats.
//! - [`app`]: the program: load, build one trial per case, run, report; [`app::gate`], the
//!   same trials for libtest-mimic.
//!
//! # Floors
//! The modules stand on floors: each uses only modules on lower floors (CI runs
//! `python3 scripts/check-layers.py`, which fails on a circle; `--floors` prints the floors).
//! From the ground up: text helpers, features, YAML and templates; case nodes and the
//! environment; the case model and patterns; the matcher, credentials and coverage; the loader,
//! the command line and outcomes; the runner and the suite; reports and the pre-flight; `diff`;
//! `app/`, the commands. Parse, load, run, report, in that order: a change to how a case file
//! is read belongs low, a new report format high.
//!
//! The binary `conformance` calls [`app::run_embedded`], the `cargo test` gate
//! (`tests/suite.rs`) [`app::run_with`] on the `cases/` folder.

pub mod app;
pub mod cli;
pub mod coverage;
pub mod credentials;
pub mod diff;
pub mod differential;
pub mod env;
pub mod escape;
pub mod expectations;
pub mod explore;
pub mod features;
pub mod files;
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
pub mod source;
pub mod suite;
pub mod template;
pub mod yaml;

pub use app::gate::Gate;
pub use libtest_mimic;
