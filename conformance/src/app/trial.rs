//! One case's trial: decide whether it can run here, run it against its server (a fresh
//! embedded reference server, or the outside implementation), and turn its report into the
//! harness's verdict.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::Client;

use super::{record, Mode, Shared};
use crate::features::Place;
use crate::harness::Verdict;
use crate::model::Case;
use crate::outcome::{CaseReport, Outcome, StepRecord};
use crate::report;
use crate::runner::{self, CaseContext, Endpoint};

/// Why a case does not run here.
pub enum Skip {
    /// A feature it requires is absent (or present when it requires its absence).
    Feature(String),
    /// Against an outside server, no credentials for these roles.
    Credentials(Vec<&'static str>),
}

impl Skip {
    fn reason(&self) -> String {
        match self {
            Skip::Feature(reason) => reason.clone(),
            Skip::Credentials(roles) => crate::credentials::skip_reason(roles),
        }
    }
}

/// Why a case cannot run here, if it cannot; decided before anything of it is sent.
pub fn skip(shared: &Shared, case: &Case) -> Option<Skip> {
    let place = match &shared.mode {
        Mode::Embedded { .. } => Place::Embedded { without: &shared.without },
        Mode::Outside { reset_command, .. } => {
            Place::Outside { without: &shared.without, reset_command: reset_command.is_some() }
        }
    };
    if let Some(reason) = crate::features::unavailable(&case.requires, place) {
        return Some(Skip::Feature(reason));
    }
    // The embedded server has a user of every role.
    if let Mode::Outside { endpoint, .. } = &shared.mode {
        let missing = crate::credentials::missing(case, |role| endpoint.credentials.contains_key(role));
        if !missing.is_empty() {
            return Some(Skip::Credentials(missing));
        }
    }
    None
}

fn skipped_report(case: &Case, reason: &str) -> CaseReport {
    CaseReport {
        name: case.name.clone(),
        file: case.file.clone(),
        level: Some(case.level),
        spec: case.spec.clone(),
        tags: case.tags.clone(),
        outcome: Outcome::Skipped(reason.to_string()),
        duration: Duration::ZERO,
        steps: Vec::new(),
        cleanup: Vec::new(),
        expected_failure: false,
    }
}

pub fn run(shared: &Shared, case: Case, skip: Option<Skip>) -> Verdict {
    if let Some(skip) = skip {
        let reason = skip.reason();
        record(shared, skipped_report(&case, &reason));
        return Verdict::Ignored(reason);
    }
    let ctx = CaseContext {
        run_id: shared.run_id.clone(),
        case_id: shared.case_ids.get(&case.name).cloned().unwrap_or_else(|| "c0000000000".into()),
    };
    let mut report = match &shared.mode {
        Mode::Embedded { namespace, language_param, without } => {
            let mut without = without.clone();
            without.extend(case.requires.iter().filter_map(|feature| feature.strip_prefix('!')).map(str::to_string));
            shared.runtime.block_on(run_embedded(&case, &shared.client, &ctx, namespace, language_param, &without))
        }
        Mode::Outside { endpoint, reset_command } => {
            let fresh = case.requires.iter().any(|r| r == "fresh-store");
            if fresh {
                let _guard = shared.store.write().unwrap_or_else(|e| e.into_inner());
                match reset(reset_command.as_deref()) {
                    Ok(()) => shared.runtime.block_on(runner::run_case(&case, endpoint, &shared.client, &ctx)),
                    Err(e) => error_report(&case, e),
                }
            } else {
                let _guard = shared.store.read().unwrap_or_else(|e| e.into_inner());
                shared.runtime.block_on(runner::run_case(&case, endpoint, &shared.client, &ctx))
            }
        }
    };
    report.expected_failure = shared.expectations.contains(&case.name);
    let message = report::terminal::failure_message(&report, shared.color);
    let warning = report::terminal::cleanup_warning(&report);
    let outcome = report.outcome.clone();
    let expected = report.expected_failure;
    record(shared, report);
    match (outcome.is_success(), expected) {
        (true, false) => {
            if let Some(warning) = warning {
                eprintln!("{warning}");
            }
            Verdict::Passed
        }
        (true, true) => Verdict::Failed(format!(
            "unexpected pass: {} is listed in {} as an expected failure, and it passed: remove it from the list",
            case.name, shared.expectations_file
        )),
        (false, true) => Verdict::Passed,
        (false, false) => Verdict::Failed(message),
    }
}

fn error_report(case: &Case, message: String) -> CaseReport {
    let mut report = skipped_report(case, "");
    report.outcome = Outcome::Error(message.clone());
    report.steps.push(StepRecord { label: "reset".into(), error: Some(message), ..StepRecord::default() });
    report
}

fn reset(command: Option<&str>) -> Result<(), String> {
    let Some(command) = command else {
        return Ok(());
    };
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .output()
        .map_err(|e| format!("cannot run the reset command {command:?}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "the reset command {command:?} failed ({}): {}",
            output.status,
            crate::show::excerpt(&String::from_utf8_lossy(&output.stderr))
        ))
    }
}

async fn run_embedded(
    case: &Case,
    client: &Client,
    ctx: &CaseContext,
    namespace: &str,
    language_param: &str,
    without: &[String],
) -> CaseReport {
    let started = Instant::now();
    let mut config = reference_server::Config::ephemeral();
    config.namespace = namespace.to_string();
    config.language_param = language_param.to_string();
    for feature in without {
        match feature.as_str() {
            "geoloc" => config.features.geoloc = false,
            "tickets" => config.features.tickets = false,
            _ => {}
        }
    }
    let server = match reference_server::serve(config).await {
        Ok(server) => server,
        Err(e) => {
            let mut report = error_report(case, format!("cannot start the embedded reference server: {e}"));
            report.duration = started.elapsed();
            return report;
        }
    };
    let mut credentials = BTreeMap::new();
    for user in server.users() {
        credentials.entry(user.role.name().to_string()).or_insert((user.name.clone(), user.password.clone()));
    }
    let endpoint = Endpoint {
        base_url: server.base_url().trim_end_matches('/').to_string(),
        namespace: namespace.to_string(),
        language_param: language_param.to_string(),
        credentials,
    };
    let report = runner::run_case(case, &endpoint, client, ctx).await;
    server.shutdown().await;
    report
}
