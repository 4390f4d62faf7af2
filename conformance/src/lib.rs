#![recursion_limit = "256"] // the json! literal of the case schema is deep
//! The conformance runner of the events-calendar REST interface.
//!
//! # Layout
//! - [`yaml`]: reads a case file's YAML once into a tree whose values know their line and
//!   column (bounded in depth and size).
//! - [`node`]: the values of a case file with their templates parsed (request data, patterns).
//! - [`show`]: short renderings of values and texts for messages (compact JSON, excerpts).
//! - [`template`]: the `{{...}}` syntax: variables, built-ins, dates, filters.
//! - [`env`]: evaluating templates and nodes against a running case's variables.
//! - [`pattern`]: turns expectation nodes into patterns (matchers included) and checks them.
//! - [`matcher`]: compares a pattern with a value, listing each mismatch with its JSON path.
//! - [`diff`]: the bounded diff of a failing `json` expectation.
//! - [`model`]: the validated suite (files, cases, steps) the loader produces.
//! - [`loader`]: finds case files, parses and validates them.
//! - [`outcome`]: what running a case produced (plain data for the reports).
//! - [`runner`]: runs one case against one endpoint: requests, matching, captures, cleanup.
//! - [`preflight`]: before the first case against an outside server, the namespace index and
//!   each credential set are checked once.
//! - [`report`]: one module per format: terminal messages, the summary, JUnit XML, JSON.
//! - [`features`]: the table of optional features (`requires`, `--without`) and whether a case
//!   can run where it is about to.
//! - [`credentials`]: the credential names (the five roles) and which of them a case needs.
//! - [`expectations`]: lists of test names known to fail.
//! - [`ids`]: `run_id` and the per-case `case_id`.
//! - [`schema`]: the JSON Schema of case files, for editors.
//! - [`coverage`]: which routes, methods, parameters, write fields and error codes of the
//!   interface the cases touch (`conformance coverage`; printed by [`report::coverage`]).
//! - [`cli`]: the command-line options (the runner's and libtest's).
//! - [`app`]: the program: load, build one libtest-mimic trial per case, run, report.
//!
//! The binary `conformance` and the `cargo test` gate (`tests/suite.rs`) both call
//! [`app::run`].

pub mod app;
pub mod cli;
pub mod coverage;
pub mod credentials;
pub mod diff;
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
