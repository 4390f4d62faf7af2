//! The reference server of the events-calendar REST interface.
//!
//! It keeps everything in memory and answers every route of the interface as a real site
//! running the calendar plugin does, with the decisions of the reference profile where the
//! plugin is ambiguous, buggy or lax.
//!
//! # Layout
//! - [`config`]: what the command line sets (addresses, names, users, clock, features).
//! - [`quirks`]: the plugin's twin: the named ways a real site answers otherwise (`--quirk`,
//!   `--like`).
//! - [`interface`]: the interface as data: routes, methods, arguments. Routing, validation,
//!   the namespace index, `/doc` and the conformance runner's coverage all read it.
//! - `server`: binding, the connection limit, the request pipeline entry point, shutdown.
//! - `conn`, `body`: one connection's timeouts and envelopes for the HTTP layer's refusals;
//!   reading request bodies within their size, time and memory bounds.
//! - `request_log`: the request log line, secrets taken out.
//! - `http`: base addresses, route matching, bodies, `_fields`, CORS and standard headers.
//! - `validate`: the argument rules every route shares.
//! - `auth`: users, HTTP Basic, and what each role may do.
//! - `access`: who may read what, however it is reached (read, embed, link, filter).
//! - `store` and `model`: the in-memory records and their indexes.
//! - `views`, `cache`: how each record becomes JSON; rendered fragments kept by revision.
//! - `api`: one handler module per resource family.
//! - `dates`, `text`, `cost`: parsing dates, rendering text, reading costs.
//! - `json_limit`: parsing JSON the server did not write within a bound on its values.
//! - `doc`: the OpenAPI document of `/doc`.
//! - `demo`: the demo calendar of `--demo`; `seed`: the benchmark calendar of `--seed-events`
//!   (and of the admin API's seed).
//! - `bench` (hidden): a seeded site and request/rendering hooks for `cargo bench`.
//!
//! Around the interface, for client developers (`devtools` ties them into the pipeline):
//! - `state`: durable state of `--state`: a journal of applied writes, `fsync`ed before the
//!   answer, compacted in the background; `store`'s `WriteHook` feeds it.
//! - `journal`: the request journal, and near-miss hints for paths that matched no route;
//!   `reasons`: refusals in words (which check said no, and why).
//! - `faults`: fault and latency rules (`--fault`, the admin API).
//! - `stubs`: stubbed answers (`--stub FILE`, the admin API): a fixed answer, or the server's
//!   own changed by a JSON merge patch, for the requests a stub matches.
//! - `fixtures`: a calendar as data (`--fixtures FILE`): loaded through the API's write path,
//!   written back by the admin API's export.
//! - `admin`: the admin API under `/__admin` (`--admin`), with its OpenAPI document.
//! - `pages`: the calendar page at `/` and the journal page, plain HTML, CSS and JavaScript.
//! - `proxy`: the checking proxy (`--proxy-to URL`): forwards the interface's requests to a real
//!   site, checks each exchange against the interface table and `/doc`, notes findings in the
//!   journal, and with `--record DIR` writes the exchanges as a case file.
//!
//! # Floors
//! The modules stand on floors: each uses only modules on lower floors, and no two modules of
//! one folder use each other (CI runs `python3 scripts/check-layers.py`, which fails on a circle;
//! `--floors` prints the floors). From the ground up: dates, text and the interface table;
//! errors and costs; faults and connections; configuration; authentication; the model; the
//! render cache; the store; the app state and the durable state; access rules, `/doc`, refusal
//! reasons and seeding; validation; HTTP helpers and views; the API handlers and the journal;
//! fixtures, then stubs (which read their files as fixtures are read); the developer tools and
//! the checking proxy; the pages; the admin API; the server. A piece that two modules share
//! belongs one floor below both.
//!
//! The library's entry point is [`serve`]: it binds, starts answering in the background and
//! returns a [`RunningServer`] with the bound address and a shutdown handle, so tests and the
//! conformance runner can start fresh servers in-process.

mod access;
mod admin;
mod api;
mod app;
mod auth;
#[doc(hidden)]
pub mod bench;
mod body;
mod cache;
mod clock_range;
mod command_line;
pub mod config;
mod conn;
mod cost;
mod dates;
mod demo;
mod devtools;
mod doc;
mod error;
mod faults;
mod fixtures;
mod http;
pub mod interface;
mod journal;
pub mod json_limit;
mod model;
mod pages;
mod proxy;
pub mod quirks;
mod reasons;
mod request_log;
mod seed;
mod server;
mod state;
mod store;
mod stubs;
mod text;
mod validate;
mod views;

pub use config::{
    feature_name, Config, FaultRule, Feature, Features, Limits, Role, UserSpec, FEATURES, FEATURE_ALIASES,
};
/// Checks answers against the `/doc` document (for tests of this server and of the suite).
pub use doc::check as openapi_check;
pub use fixtures::{FixtureErrors, LISTS as FIXTURE_LISTS};
pub use quirks::{Quirk, Quirks, QUIRKS};
pub use server::{serve, RunningServer};
pub use stubs::StubErrors;

// For the tests of the admin API's OpenAPI document and of the fixtures' published schema (a
// fixture's text as the server reads it, and the fields an item of each list may have): not
// part of the server's interface. Re-exported, so that the code stays with its module.
#[doc(hidden)]
pub use admin::routes as admin_routes;
#[doc(hidden)]
pub use fixtures::{list_fields as fixture_fields, parse as fixture_value};
