//! The conformance runner of the events-calendar REST interface.
//!
//! # Layout
//! - [`yaml`]: the located value tree `serde_yaml_ng` reads case files into (node ids that
//!   let the loader put `file:line:column` on any error).
//! - [`template`]: `{{...}}` parsing and evaluation: variables, built-ins, dates, filters.
//! - [`pattern`]: turns expectation nodes into patterns (matchers included) and checks them.
//! - [`matcher`]: compares a pattern with a value, listing each mismatch with its JSON path.
//! - [`model`]: the validated suite (files, cases, steps) the loader produces.
//! - [`loader`]: finds case files, parses and validates them.

pub mod loader;
pub mod matcher;
pub mod model;
pub mod pattern;
pub mod template;
pub mod yaml;
