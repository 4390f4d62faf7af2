//! The program: reads the options, loads the cases, turns each into a libtest-mimic trial,
//! runs them (embedded reference servers or an outside implementation), then writes the
//! summary and the requested reports. Both the binary and the `cargo test` gate call [`run`].

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use clap::Parser;
use libtest_mimic::{Completion, Failed, Trial};
use reqwest::Client;

use crate::cli::Cli;
use crate::features::Place;
use crate::ids::Ids;
use crate::model::{Case, FileError, Loaded};
use crate::outcome::{CaseReport, Outcome, StepRecord};
use crate::report;
use crate::runner::{self, CaseContext, Endpoint};

/// Exit status when options or case files are wrong.
pub const EXIT_USAGE: i32 = 2;

/// Where cases run.
enum Mode {
    /// A fresh in-process reference server per case.
    Embedded { namespace: String, language_param: String, without: Vec<String> },
    /// An outside implementation.
    Outside { endpoint: Endpoint, reset_command: Option<String> },
}

/// What every trial shares.
struct Shared {
    runtime: tokio::runtime::Runtime,
    client: Client,
    mode: Mode,
    run_id: String,
    case_ids: BTreeMap<String, String>,
    expectations: BTreeSet<String>,
    expectations_file: String,
    without: Vec<String>,
    color: bool,
    /// Fresh-store cases take it exclusively against an outside server; others share it.
    store: RwLock<()>,
    reports: Mutex<Vec<CaseReport>>,
}

/// What a run whose selection (filter, `--exact`, `--skip`, `--level`, `--ignored`) matches no
/// case means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptySelection {
    /// An error, exit status 2: a gate that ran nothing must not pass. The binary's way.
    Error,
    /// Success, libtest's convention: `cargo test -- FILTER` passes the filter to every test
    /// binary, and the ones with no matching test pass. The `cargo test` gate's way.
    Pass,
}

/// Runs the program with `args` (the first is the program name). `default_cases` is the
/// folder used without `--cases`. Returns the exit status. A selection that matches no case is
/// an error; see [`run_with`].
pub fn run(args: Vec<OsString>, default_cases: PathBuf) -> i32 {
    run_with(args, default_cases, EmptySelection::Error)
}

/// [`run`], saying what a selection that matches no case means.
pub fn run_with(args: Vec<OsString>, default_cases: PathBuf, empty: EmptySelection) -> i32 {
    if args.get(1).is_some_and(|a| a == "schema") {
        print!("{}", crate::schema::text());
        return 0;
    }
    if args.get(1).is_some_and(|a| a == "coverage") {
        return run_coverage(&args[2..], default_cases);
    }
    let cli = match crate::cli::parse(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    match run_cli(cli, default_cases, empty) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_USAGE
        }
    }
}

fn color_wanted(cli: &Cli) -> bool {
    use libtest_mimic::ColorSetting;
    match cli.libtest.color {
        Some(ColorSetting::Always) => true,
        Some(ColorSetting::Never) => false,
        _ => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

fn run_cli(cli: Cli, default_cases: PathBuf, empty: EmptySelection) -> Result<i32, String> {
    if !(cli.timeout > 0.0 && cli.timeout.is_finite()) {
        return Err("--timeout must be a positive number of seconds".into());
    }
    let (dir, loaded) = load_cases(cli.cases.clone(), default_cases)?;
    let loaded_cases = count_cases(&dir, &loaded)?;
    let (expectations, expectations_file) = match &cli.expectations {
        Some(path) => (crate::expectations::load(path)?, path.display().to_string()),
        None => (BTreeSet::new(), String::new()),
    };
    let without = crate::features::without(&cli.without)?;
    for (name, _, _) in &cli.auth {
        crate::credentials::check_given(name)?;
    }
    let mode = mode_of(&cli, &without)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let client = runner::client(Duration::from_secs_f64(cli.timeout))?;
    let ids = Ids::new();
    let case_names: Vec<&str> = loaded
        .iter()
        .flat_map(|l| match l {
            Loaded::File(f) => f.cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            Loaded::Error(_) => Vec::new(),
        })
        .collect();
    let case_ids = ids.case_ids(case_names);
    let shared = Arc::new(Shared {
        runtime,
        client,
        mode,
        run_id: ids.run_id.clone(),
        case_ids,
        expectations,
        expectations_file,
        without,
        color: color_wanted(&cli),
        store: RwLock::new(()),
        reports: Mutex::new(Vec::new()),
    });

    let mut trials = Vec::new();
    let mut known_names = BTreeSet::new();
    // The roles selected cases need and --auth did not give, and how many cases that skips.
    let mut lacking: BTreeSet<&'static str> = BTreeSet::new();
    let mut skipped_for_credentials = 0usize;
    for item in loaded {
        match item {
            Loaded::Error(error) => {
                known_names.insert(error.name.clone());
                trials.push(file_error_trial(shared.clone(), error));
            }
            Loaded::File(file) => {
                for case in file.cases {
                    if !cli.level.is_empty() && !cli.level.contains(&case.level) {
                        continue;
                    }
                    known_names.insert(case.name.clone());
                    let skip = skip(&shared, &case);
                    let shared = shared.clone();
                    let name = case.name.clone();
                    let level = case.level;
                    let roles = match &skip {
                        Some(Skip::Credentials(roles)) => roles.clone(),
                        _ => Vec::new(),
                    };
                    let trial =
                        Trial::ignorable_test(name, move || run_trial(&shared, case, skip)).with_kind(level.name());
                    if !roles.is_empty() && !cli.libtest.is_filtered_out(&trial) {
                        lacking.extend(roles);
                        skipped_for_credentials += 1;
                    }
                    trials.push(trial);
                }
            }
        }
    }
    for name in shared.expectations.difference(&known_names) {
        eprintln!("note: {name:?} in {} names no loaded case", shared.expectations_file);
    }

    let selected = trials.iter().filter(|t| !cli.libtest.is_filtered_out(t)).count();
    if selected == 0 && empty == EmptySelection::Error {
        return Err(format!(
            "{} matches none of the {loaded_cases} cases in {}: nothing to run",
            cli.selection_text(),
            dir.display()
        ));
    }
    // One look at the outside server before any case: a wrong address or a server that is down
    // would otherwise fail every case one by one.
    if let (Mode::Outside { endpoint, .. }, false) = (&shared.mode, cli.libtest.list) {
        shared.runtime.block_on(crate::preflight::check(&shared.client, endpoint))?;
    }
    if skipped_for_credentials > 0 && !cli.libtest.list {
        eprintln!("{}", crate::credentials::note(&lacking, skipped_for_credentials));
    }
    let conclusion = libtest_mimic::run(&cli.libtest, trials);
    if cli.libtest.list {
        return Ok(0);
    }
    let mut reports = shared.reports.lock().map(|r| r.clone()).unwrap_or_default();
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    let tally = report::summary::Tally::of(&reports);
    let summary = report::summary::render(&tally);
    if matches!(cli.libtest.format, Some(libtest_mimic::FormatSetting::Json)) {
        // Keep stdout a clean stream of libtest's JSON events.
        eprint!("{summary}");
    } else {
        println!();
        print!("{summary}");
    }
    if let Some(path) = &cli.junit {
        write_file(path, &report::junit::render(&reports))?;
    }
    if let Some(path) = &cli.json {
        let doc = report::json::render(&shared.run_id, &reports);
        write_file(path, &serde_json::to_string_pretty(&doc).unwrap_or_default())?;
    }
    Ok(if tally.file_errors > 0 {
        EXIT_USAGE
    } else if conclusion.has_failed() {
        101
    } else {
        0
    })
}

/// The number of cases loaded (a file that did not load counts as one), or why there is
/// nothing to run.
fn count_cases(dir: &Path, loaded: &[Loaded]) -> Result<usize, String> {
    if loaded.is_empty() {
        return Err(format!(
            "no case file in {} (files ending in .{}): nothing to run",
            dir.display(),
            crate::loader::EXTENSIONS.join(", .")
        ));
    }
    let count = loaded
        .iter()
        .map(|l| match l {
            Loaded::File(f) => f.cases.len(),
            Loaded::Error(_) => 1,
        })
        .sum();
    if count == 0 {
        return Err(format!("the case files in {} hold no case: nothing to run", dir.display()));
    }
    Ok(count)
}

/// Where the cases run, from the options.
fn mode_of(cli: &Cli, without: &[String]) -> Result<Mode, String> {
    let namespace = cli.namespace.trim_matches('/').to_string();
    let Some(url) = &cli.base_url else {
        if !cli.auth.is_empty() || cli.reset_command.is_some() {
            return Err("--auth and --reset-command go with --base-url (the embedded server has its own users and a fresh store per case)".into());
        }
        return Ok(Mode::Embedded { namespace, language_param: cli.language_param.clone(), without: without.to_vec() });
    };
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("--base-url {url:?} is not a URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("--base-url {url:?} must be an http:// or https:// URL"));
    }
    if parsed.scheme() == "https" && !cfg!(feature = "tls") {
        return Err(format!(
            "--base-url {url:?} is https://, and this runner is built without TLS: build it with `cargo build -p conformance --features tls`"
        ));
    }
    let credentials =
        cli.auth.iter().map(|(name, user, password)| (name.clone(), (user.clone(), password.clone()))).collect();
    Ok(Mode::Outside {
        endpoint: Endpoint {
            base_url: url.trim_end_matches('/').to_string(),
            namespace,
            language_param: cli.language_param.clone(),
            credentials,
        },
        reset_command: cli.reset_command.clone(),
    })
}

/// The failed test that stands for a file that could not be loaded.
fn file_error_trial(shared: Arc<Shared>, error: FileError) -> Trial {
    let name = error.name.clone();
    Trial::test(name, move || {
        let message = error.to_string();
        record(
            &shared,
            CaseReport {
                name: error.name.clone(),
                file: error.path.clone(),
                level: None,
                spec: Vec::new(),
                tags: Vec::new(),
                outcome: Outcome::Error(message.clone()),
                duration: Duration::ZERO,
                steps: Vec::new(),
                cleanup: Vec::new(),
                expected_failure: false,
            },
        );
        Err(Failed::from(format!("this case file could not be loaded:\n{message}")))
    })
}

/// Loads the `--cases` folder, or the default one.
fn load_cases(cases: Option<PathBuf>, default_cases: PathBuf) -> Result<(PathBuf, Vec<Loaded>), String> {
    let explicit = cases.is_some();
    let dir = cases.unwrap_or(default_cases);
    if dir.is_dir() {
        let loaded = crate::loader::load_dir(&dir)?;
        Ok((dir, loaded))
    } else if explicit {
        Err(format!("no cases folder at {}", dir.display()))
    } else {
        Err(format!("no cases folder at {}: run from the repository's root, or give --cases DIR", dir.display()))
    }
}

/// `conformance coverage [OPTIONS]` (`args` are the options): prints the coverage matrix and
/// returns 0 when every item of the interface has a case, 1 when one has none, 2 on errors.
fn run_coverage(args: &[OsString], default_cases: PathBuf) -> i32 {
    let cli = match crate::cli::CoverageCli::try_parse_from(
        std::iter::once(OsString::from("conformance coverage")).chain(args.iter().cloned()),
    ) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    let (dir, loaded) = match load_cases(cli.cases.clone(), default_cases) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let mut files = Vec::new();
    let mut errors = 0;
    for item in loaded {
        match item {
            Loaded::File(file) => files.push(file),
            Loaded::Error(error) => {
                eprintln!("{error}");
                errors += 1;
            }
        }
    }
    if errors > 0 {
        eprintln!("error: {errors} case file(s) could not be loaded: fix them, then measure the coverage again");
        return EXIT_USAGE;
    }
    let options = crate::coverage::Options {
        namespace: cli.namespace.trim_matches('/').to_string(),
        language_param: cli.language_param.clone(),
    };
    let coverage = crate::coverage::compute(&files, &options);
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    print!("{}", report::coverage::render(&coverage, &dir.display().to_string(), color));
    if let Some(path) = &cli.json {
        let doc = report::coverage::json(&coverage);
        if let Err(message) = write_file(path, &serde_json::to_string_pretty(&doc).unwrap_or_default()) {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    }
    crate::coverage::exit_status(&coverage)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn record(shared: &Shared, report: CaseReport) {
    if let Ok(mut reports) = shared.reports.lock() {
        reports.push(report);
    }
}

/// Why a case does not run here.
enum Skip {
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
fn skip(shared: &Shared, case: &Case) -> Option<Skip> {
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

fn run_trial(shared: &Shared, case: Case, skip: Option<Skip>) -> Result<Completion, Failed> {
    if let Some(skip) = skip {
        let reason = skip.reason();
        record(shared, skipped_report(&case, &reason));
        return Ok(Completion::ignored_with(reason));
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
            Ok(Completion::Completed)
        }
        (true, true) => Err(Failed::from(format!(
            "unexpected pass: {} is listed in {} as an expected failure, and it passed: remove it from the list",
            case.name, shared.expectations_file
        ))),
        (false, true) => Ok(Completion::Completed),
        (false, false) => Err(Failed::from(message)),
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
