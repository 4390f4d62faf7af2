//! The reference server of the events-calendar REST interface.
//!
//! It keeps everything in memory and answers every route of the interface as a real site
//! running the calendar plugin does (see `docs/` for the decisions it follows).
//!
//! # Layout
//! - [`config`]: what the command line sets.
//! - [`server`]: binding, the request pipeline entry point, shutdown.
//!
//! The library's entry point is [`serve`]: it binds, starts answering in the background and
//! returns a [`RunningServer`] with the bound address and a shutdown handle, so tests and the
//! conformance runner can start fresh servers in-process.

pub mod config;
mod server;

pub use config::{Config, Features, Role, UserSpec};
pub use server::{serve, RunningServer};
