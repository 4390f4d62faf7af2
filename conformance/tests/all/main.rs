//! Every integration test of `conformance` in one test binary: one link instead of 15,
//! which took a large share of the first `cargo test`. Each module is one former test file;
//! run one with `cargo test -p conformance --test all MODULE::`.

mod common;

mod browser;
mod ci_recipe;
mod diff;
mod e2e;
mod embedded;
mod explore;
mod freedoms;
mod gate;
mod hostile;
mod no_false_pass;
mod proxy_record;
mod renamed;
mod repro;
mod schema;
mod spec_refs;
mod sweep;
mod yaml_reader;
