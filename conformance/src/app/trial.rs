//! One case's trial: decide whether it can run here, run it against its server (a fresh
//! embedded reference server, or the outside implementation), and turn its report into the
//! harness's verdict.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{DurationRound, SecondsFormat, Utc};
use reqwest::Client;

use super::shared::{record, Mode, Shared};
use crate::features::Place;
use crate::harness::Verdict;
use crate::model::Case;
use crate::outcome::{CaseReport, Outcome, ServerRecord, StepError, StepRecord};
use crate::report;
use crate::runner::{self, CaseContext, Endpoint, Settings};

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
        server: None,
    }
}

pub fn run(shared: &Shared, case: Case, skip: Option<Skip>) -> Verdict {
    if let Some(skip) = skip {
        let reason = skip.reason();
        record(shared, skipped_report(&case, &reason));
        return Verdict::Ignored(reason);
    }
    // The implementation stopped answering: one case said so, the others are not run.
    if let Some(reason) = shared.settings.liveness.as_ref().and_then(|l| l.stopped()) {
        record(shared, skipped_report(&case, &reason));
        return Verdict::Ignored(reason);
    }
    if let Some(first) = shared.fail_fast.as_ref().and_then(|first| first.get()) {
        let reason = format!("not run: --fail-fast stopped the run after {first} failed");
        record(shared, skipped_report(&case, &reason));
        return Verdict::Ignored(reason);
    }
    let ctx = CaseContext {
        run_id: shared.run_id.clone(),
        case_id: shared.case_ids.get(&case.name).cloned().unwrap_or_else(|| "c0000000000".into()),
        // Whole seconds: an embedded server's `--clock` is given as written in a repro script.
        now: Utc::now().duration_trunc(chrono::TimeDelta::seconds(1)).unwrap_or_else(|_| Utc::now()),
    };
    let mut report = case_report(shared, &case, &ctx);
    report.expected_failure = shared.expectations.contains(&case.name);
    let style = report::message::Style { color: shared.color };
    let message = report::message::failure_message(&report, style, &shared.secrets);
    let warning = report::terminal::cleanup_warning(&report, &shared.secrets);
    let outcome = report.outcome.clone();
    let expected = report.expected_failure;
    if !outcome.is_success() {
        if let Some(dir) = &shared.repro {
            if let Err(e) = write_repro(dir, &report, shared) {
                eprintln!("warning: {e}");
            }
        }
    }
    // A passing case keeps no bodies unless a report wants them all.
    if outcome.is_success() && !shared.keep_bodies {
        for step in report.steps.iter_mut().chain(report.cleanup.iter_mut()) {
            step.body = None;
        }
    }
    record(shared, report);
    let verdict = verdict(shared, &case.name, outcome.is_success(), expected, message, warning);
    if let (Verdict::Failed(_), Some(first)) = (&verdict, &shared.fail_fast) {
        let _ = first.set(case.name.clone());
    }
    verdict
}

/// Runs the case where the mode says: on an embedded server of its own, or against the
/// outside implementation (its store reset first for a case that needs it fresh).
fn case_report(shared: &Shared, case: &Case, ctx: &CaseContext) -> CaseReport {
    let settings = &shared.settings;
    match &shared.mode {
        Mode::Embedded { namespace, language_param, without, quirks } => {
            let mut without = without.clone();
            without.extend(case.requires.iter().filter_map(|feature| feature.strip_prefix('!')).map(str::to_string));
            let names = Names { namespace, language_param, without: &without, quirks: *quirks };
            // The case's server runs on threads of its own: a server that hangs (an endless
            // loop under the store's lock, say) then stalls only them, and the case fails on
            // its request timeout instead of stopping the runner's threads with it.
            match tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build() {
                Ok(server_runtime) => {
                    let report = shared.runtime.block_on(run_embedded(
                        case,
                        &shared.client,
                        ctx,
                        settings,
                        names,
                        server_runtime.handle(),
                    ));
                    // Without waiting for threads that may never finish.
                    server_runtime.shutdown_background();
                    report
                }
                Err(e) => error_report(
                    case,
                    StepError::Setup(format!("cannot start the embedded reference server's threads: {e}")),
                    "server",
                ),
            }
        }
        Mode::Outside { endpoint, reset_command } => {
            let fresh = case.requires.iter().any(|r| r == "fresh-store");
            if fresh {
                let _guard = shared.store.write().unwrap_or_else(|e| e.into_inner());
                super::late_sweep(shared, false);
                match reset(reset_command.as_deref()) {
                    Ok(()) => shared.runtime.block_on(runner::run_case(case, endpoint, &shared.client, ctx, settings)),
                    Err(e) => error_report(case, StepError::Setup(e), "reset"),
                }
            } else {
                let _guard = shared.store.read().unwrap_or_else(|e| e.into_inner());
                shared.runtime.block_on(runner::run_case(case, endpoint, &shared.client, ctx, settings))
            }
        }
    }
}

/// A trial's verdict: its outcome against the expected failures (`--expectations`).
fn verdict(
    shared: &Shared,
    name: &str,
    success: bool,
    expected: bool,
    message: String,
    warning: Option<String>,
) -> Verdict {
    match (success, expected) {
        (true, false) => {
            if let Some(warning) = warning {
                eprintln!("{warning}");
            }
            Verdict::Passed
        }
        (true, true) => Verdict::Failed(format!(
            "unexpected pass: {} is listed in {} as an expected failure, and it passed: remove it from the list",
            crate::escape::terminal(name),
            shared.expectations_file
        )),
        (false, true) => Verdict::Passed,
        (false, false) => Verdict::Failed(message),
    }
}

/// Writes the `--repro` script of a failing case (its name made unique in the folder). The file
/// is created, never opened: an entry already there (a file, or a symbolic link someone planted,
/// dangling or not) is left alone and the next name is tried, and only the file created is
/// made executable.
fn write_repro(dir: &Path, report: &CaseReport, shared: &Shared) -> Result<(), String> {
    let script = report::repro::script(report, &shared.repro_target, &shared.secrets);
    let name = report::repro::file_name(&report.name);
    let (path, mut file) = crate::files::create_new_in(dir, name.trim_end_matches(".sh"), "sh", 0o700)?;
    write_script(&mut file, &path, &script)
}

/// Writes the script into the file just created and makes it executable (on the open file,
/// so nothing else can be changed through its name).
fn write_script(file: &mut std::fs::File, path: &Path, script: &str) -> Result<(), String> {
    use std::io::Write;
    file.write_all(script.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o755));
    }
    Ok(())
}

fn error_report(case: &Case, error: StepError, label: &str) -> CaseReport {
    let mut report = skipped_report(case, "");
    report.outcome = Outcome::Error(error.to_string());
    report.steps.push(StepRecord { label: label.into(), error: Some(error), ..StepRecord::default() });
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

/// The names and features an embedded server is started with.
struct Names<'a> {
    namespace: &'a str,
    language_param: &'a str,
    without: &'a [String],
    quirks: reference_server::Quirks,
}

async fn run_embedded(
    case: &Case,
    client: &Client,
    ctx: &CaseContext,
    settings: &Settings,
    names: Names<'_>,
    server_runtime: &tokio::runtime::Handle,
) -> CaseReport {
    let Names { namespace, language_param, without, quirks } = names;
    let started = Instant::now();
    let mut config = reference_server::Config::ephemeral();
    config.quirks = quirks;
    config.namespace = namespace.to_string();
    config.language_param = language_param.to_string();
    config.clock = Some(ctx.now);
    let mut switched_off = Vec::new();
    for feature in without {
        if config.features.switch_off(feature) {
            switched_off.push(feature.clone());
        }
    }
    let users = config.users.iter().map(|u| (u.name.clone(), u.password.clone(), u.role.name().to_string())).collect();
    let started_server = server_runtime.spawn(reference_server::serve(config)).await;
    let server = match started_server.map_err(|e| e.to_string()).and_then(|r| r.map_err(|e| e.to_string())) {
        Ok(server) => server,
        Err(e) => {
            let error = StepError::Setup(format!("cannot start the embedded reference server: {e}"));
            let mut report = error_report(case, error, "server");
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
    let mut report = runner::run_case(case, &endpoint, client, ctx, settings).await;
    report.server = Some(ServerRecord {
        listen: server.addr().to_string(),
        namespace: namespace.to_string(),
        language_param: language_param.to_string(),
        without: switched_off,
        quirks: quirks.specs().map(|spec| spec.name.to_string()).collect(),
        clock: ctx.now.to_rfc3339_opts(SecondsFormat::Secs, true),
        users,
    });
    // A server that does not stop (a request still running) is left to its threads.
    let _ = tokio::time::timeout(SERVER_STOP_GRACE, server.shutdown()).await;
    report
}

/// How long an embedded server may take to stop once its case has ended.
const SERVER_STOP_GRACE: Duration = Duration::from_secs(5);
