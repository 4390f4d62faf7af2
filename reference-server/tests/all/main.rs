//! Every integration test of `reference-server` in one test binary: one link instead of 24,
//! which took a large share of the first `cargo test`. Each module is one former test file;
//! run one with `cargo test -p reference-server --test all MODULE::`.

mod common;
mod doc_support;

mod access;
mod admin;
mod auth;
mod binary;
mod client_flow;
mod demo;
mod doc_openapi;
mod doc_responses;
mod event_lists;
mod events;
mod faults;
mod fidelity;
mod fixtures;
mod hostile;
mod integrity;
mod journal;
mod languages;
mod pages;
mod protocol;
mod proxy;
mod robustness;
mod state;
mod stubs;
mod terms;
mod timezones;
mod tools;
mod transport;
mod venues_organizers;
