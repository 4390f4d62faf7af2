//! What every trial of a run shares, and the one place reports are collected.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Mutex, RwLock};

use reqwest::Client;

use crate::outcome::CaseReport;
use crate::report;
use crate::runner::{self, Endpoint};

/// Where cases run.
pub enum Mode {
    /// A fresh in-process reference server per case.
    /// `quirks`: those of the plugin it reproduces (`--like`, `--quirk`; none by default).
    Embedded { namespace: String, language_param: String, without: Vec<String>, quirks: reference_server::Quirks },
    /// An outside implementation.
    Outside { endpoint: Endpoint, reset_command: Option<String> },
}

/// What every trial shares.
pub struct Shared {
    pub runtime: tokio::runtime::Runtime,
    pub client: Client,
    pub mode: Mode,
    pub run_id: String,
    pub case_ids: BTreeMap<String, String>,
    pub expectations: BTreeSet<String>,
    pub expectations_file: String,
    pub without: Vec<String>,
    pub color: bool,
    pub settings: runner::Settings,
    pub secrets: report::secrets::Secrets,
    /// Keep the bodies of passing cases (`--json-full`).
    pub keep_bodies: bool,
    /// `--repro DIR`.
    pub repro: Option<PathBuf>,
    pub repro_target: report::repro::Target,
    /// Fresh-store cases take it exclusively against an outside server; others share it.
    pub store: RwLock<()>,
    pub reports: Mutex<Vec<CaseReport>>,
    /// `--fail-fast`: the name of the first case that failed, once one has.
    pub fail_fast: Option<std::sync::OnceLock<String>>,
}

/// Keeps the report of a case for the summary and the report files.
pub fn record(shared: &Shared, report: CaseReport) {
    if let Ok(mut reports) = shared.reports.lock() {
        reports.push(report);
    }
}
