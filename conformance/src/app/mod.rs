//! The program: reads the options, loads the cases, turns each into a trial of the
//! [`harness`](crate::harness), runs them (embedded reference servers or an outside
//! implementation), then writes the summary, the final line and the requested reports. Both
//! the binary and the `cargo test` gate call [`run`].
//!
//! - [`shared`]: what every trial shares (the mode, the client, the settings, the reports).
//! - [`trial`]: what one case's trial does: skip it, or run it where it runs and report.
//! - [`cases`]: `conformance cases export DIR`.
//! - [`gate`]: the suite as libtest-mimic trials, for another crate's `cargo test`.

mod cases;
pub mod gate;
mod shared;
mod trial;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use clap::Parser;
use reqwest::Client;

use self::shared::{record, Mode, Shared};
use crate::cli::Cli;
use crate::harness::{self, Trial, Verdict};
use crate::ids::Ids;
use crate::model::{FileError, Level, Loaded};
use crate::outcome::{CaseReport, Outcome};
use crate::report;
use crate::runner::{self, Endpoint};
use crate::source::load_cases;
pub use crate::source::Source;

/// How many cases run at once against an outside implementation without `--test-threads`: the
/// cases then mostly wait on the network, and the suite sends some 12,000 requests, so at 50 ms a
/// request 16 at once could not take less than about 40 s (docs/runner.md).
const OUTSIDE_THREADS: usize = 64;

/// Exit status when options or case files are wrong.
pub const EXIT_USAGE: i32 = 2;

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

/// The binary: runs the program with `args` (the first is the program name) on the embedded
/// suite unless `--cases` names a folder, and returns the exit status.
pub fn run_embedded(args: Vec<OsString>) -> i32 {
    run_source(args, Source::Embedded, EmptySelection::Error)
}

/// Runs the program with `args` (the first is the program name). `default_cases` is the
/// folder used without `--cases`. Returns the exit status. A selection that matches no case is
/// an error; see [`run_with`].
pub fn run(args: Vec<OsString>, default_cases: PathBuf) -> i32 {
    run_with(args, default_cases, EmptySelection::Error)
}

/// [`run`], saying what a selection that matches no case means.
pub fn run_with(args: Vec<OsString>, default_cases: PathBuf, empty: EmptySelection) -> i32 {
    run_source(args, Source::Dir(default_cases), empty)
}

/// [`run_with`], with the suite used without `--cases`: the embedded one or a folder.
pub fn run_source(args: Vec<OsString>, default_cases: Source, empty: EmptySelection) -> i32 {
    if args.get(1).is_some_and(|a| a == "schema") {
        return run_schema(&args[2..]);
    }
    if args.get(1).is_some_and(|a| a == "coverage") {
        return run_coverage(&args[2..], &default_cases);
    }
    if args.get(1).is_some_and(|a| a == "cases") {
        return cases::run(&args[2..]);
    }
    if args.get(1).is_some_and(|a| a == "explore") {
        return crate::explore::run(&args[2..]);
    }
    if args.get(1).is_some_and(|a| a == "diff") {
        return crate::differential::run(&args[2..], &default_cases);
    }
    let cli = match crate::cli::parse(&args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    match run_cli(cli, &default_cases, empty) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {}", crate::escape::lines(&message));
            EXIT_USAGE
        }
    }
}

/// Prints a clap error (or the help or version it stands for) and gives the exit status.
fn clap_exit(e: &clap::Error) -> i32 {
    if e.kind() == clap::error::ErrorKind::DisplayVersion {
        // The version names the suite the runner carries.
        println!("{}", crate::suite::version_line());
        return 0;
    }
    let _ = e.print();
    if e.use_stderr() {
        EXIT_USAGE
    } else {
        0
    }
}

/// `conformance schema [--help]`.
fn run_schema(args: &[OsString]) -> i32 {
    let args = std::iter::once(OsString::from("conformance schema")).chain(args.iter().cloned());
    match crate::cli::SchemaCli::try_parse_from(args) {
        Ok(_) => {
            print!("{}", crate::schema::text());
            0
        }
        Err(e) => clap_exit(&e),
    }
}

fn run_cli(cli: Cli, default_cases: &Source, empty: EmptySelection) -> Result<i32, String> {
    let (source, loaded) = load_cases(cli.cases.clone(), default_cases)?;
    let loaded_cases = count_cases(&source, &loaded)?;
    let coverage = (cli.html.is_some()).then(|| coverage_of(&loaded, &cli));
    let shared = Arc::new(shared_of(&cli, &loaded)?);
    let rerun = cli.rerun_failed.as_deref().map(crate::expectations::failed_in_report).transpose()?;
    let selection = select(&cli, &shared, loaded, rerun.as_ref());
    if selection.trials.is_empty() && empty == EmptySelection::Error {
        return Err(format!(
            "{} matches none of the {loaded_cases} cases in {source}: nothing to run",
            cli.selection_text()
        ));
    }
    let format = cli.harness.format();
    if cli.harness.list {
        let names: Vec<(&str, &str)> = selection.trials.iter().map(|t| (t.name.as_str(), t.kind)).collect();
        harness::list(&names, format, &mut std::io::stdout());
        return Ok(0);
    }
    // One look at the outside server before any case: a wrong address or a server that is down
    // would otherwise fail every case one by one.
    if let Mode::Outside { endpoint, .. } = &shared.mode {
        shared.runtime.block_on(crate::preflight::check(&shared.client, endpoint))?;
    }
    if selection.skipped_for_credentials > 0 {
        eprintln!("{}", crate::credentials::note(&selection.lacking, selection.skipped_for_credentials));
    }
    let threads = cli.harness.test_threads.map(usize::from).unwrap_or_else(|| match shared.mode {
        // An outside implementation: the cases mostly wait on the network.
        Mode::Outside { .. } => OUTSIDE_THREADS,
        Mode::Embedded { .. } => std::thread::available_parallelism().map(usize::from).unwrap_or(1),
    });
    let options = harness::Options { format, color: shared.color, threads, width: harness::terminal_width() };
    let must_left_out = selection.must_left_out;
    let scope = report::summary::Scope {
        options: cli.selection_options(),
        selected: selection.trials.len(),
        left_out: selection.left_out,
    };
    let conclusion = harness::run(&options, selection.trials, selection.filtered_out);
    late_sweep(&shared, true);
    let mut reports = shared.reports.lock().map(|r| r.clone()).unwrap_or_default();
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    let mut tally = report::summary::Tally::of(&reports);
    tally.must_left_out = must_left_out;
    tally.scope = scope;
    let causes = shared.secrets.redact(&report::causes::render_text(&report::causes::of(&reports)));
    let mut summary = report::summary::render(&tally, &shared.expectations_file);
    if let Some(doc) = &shared.settings.doc {
        summary.push_str(&format!(
            "/doc: {} answers of documented operations checked against the implementation's document\n",
            doc.checked()
        ));
        DOC_CHECKED.store(doc.checked(), std::sync::atomic::Ordering::Relaxed);
    }
    if format == harness::Format::Json {
        // Keep stdout a clean stream of libtest's JSON events.
        eprint!("{summary}");
    } else {
        print!("\n{causes}{}{summary}", if causes.is_empty() { "" } else { "\n" });
    }
    let run = report::summary::Run { tally: &tally, expectations_file: &shared.expectations_file };
    write_reports(&cli, &shared, &reports, coverage.as_ref(), (conclusion.elapsed, run), &source)?;
    write_expectations(&cli, &reports, &source)?;
    // The tally decides; a trial that failed without a report (a panic) still fails the run.
    Ok(match tally.exit_status() {
        0 if conclusion.failed > 0 => 101,
        code => code,
    })
}

/// Against an outside implementation, after the cases and before each reset of the store (which
/// would hide them): what creates without an answer left (the implementation may have finished
/// them after their case ended) is searched for by each case's word and deleted. At the end of
/// the run one line says what was found; before a reset, only when something was.
fn late_sweep(shared: &Shared, at_end: bool) {
    let Mode::Outside { endpoint, .. } = &shared.mode else { return };
    let unanswered = match shared.settings.late_sweep.lock() {
        Ok(mut list) => std::mem::take(&mut *list),
        Err(_) => return,
    };
    if unanswered.is_empty() || !shared.settings.sweep {
        return;
    }
    let settings = &shared.settings;
    let (deleted, problems) = shared.runtime.block_on(runner::sweep::late(
        &unanswered,
        endpoint,
        &shared.client,
        &settings.connections,
        settings.max_response,
    ));
    if at_end || deleted > 0 {
        let went_wrong =
            if problems.is_empty() { String::new() } else { format!(" ({} request(s) went wrong)", problems.len()) };
        let when = if at_end { "" } else { " before a reset of the store" };
        eprintln!(
            "sweep{when}: {} create(s) got no answer; {deleted} item(s) they left were found by their case's word and deleted{went_wrong}",
            unanswered.len()
        );
    }
}

/// What every trial shares, from the options; the checks of the options that need no case.
fn shared_of(cli: &Cli, loaded: &[Loaded]) -> Result<Shared, String> {
    let (expectations, expectations_file) = match &cli.expectations {
        Some(path) => (crate::expectations::load(path)?, path.display().to_string()),
        None => (BTreeSet::new(), String::new()),
    };
    let without = crate::features::without(&cli.without)?;
    for (name, _, _) in &cli.auth {
        crate::credentials::check_given(name)?;
    }
    let mode = mode_of(cli, &without)?;
    if cli.keep_data && matches!(mode, Mode::Embedded { .. }) {
        return Err("--keep-data goes with --base-url: the embedded server of a case stops when the case ends (--repro rebuilds a failing case's data instead)".into());
    }
    let outputs = [("--json", &cli.json), ("--html", &cli.html), ("--junit", &cli.junit)];
    for (option, path) in outputs.into_iter().chain([("--write-expectations", &cli.write_expectations)]) {
        if let Some(path) = path {
            crate::files::check_output(path, option)?;
        }
    }
    if let Some(dir) = &cli.repro {
        crate::files::output_folder(dir, "--repro")?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let client = runner::client(Duration::from_secs_f64(cli.timeout), !cli.no_keep_alive)?;
    let ids = Ids::new();
    let case_names = loaded.iter().flat_map(|l| match l {
        Loaded::File(f) => f.cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        Loaded::Error(_) => Vec::new(),
    });
    let case_ids = ids.case_ids(case_names);
    let repro_target = match &mode {
        Mode::Embedded { .. } => report::repro::Target::Embedded,
        Mode::Outside { endpoint, .. } => report::repro::Target::Outside { base_url: endpoint.base_url.clone() },
    };
    let doc =
        if cli.check_doc && !cli.harness.list { Some(Arc::new(fetch_doc(&runtime, &client, &mode)?)) } else { None };
    // An embedded server stops with its case: nothing to leave behind.
    let sweep = matches!(mode, Mode::Outside { .. }) && !cli.keep_data;
    // An outside implementation that stops answering stops the run ([`runner::liveness`]).
    let liveness = matches!(mode, Mode::Outside { .. }).then(Default::default);
    let disposable = matches!(mode, Mode::Embedded { .. });
    Ok(Shared {
        secrets: secrets_of(cli, &mode),
        runtime,
        client,
        mode,
        run_id: ids.run_id.clone(),
        case_ids,
        expectations,
        expectations_file,
        without,
        color: cli.harness.color.wanted(std::io::stdout().is_terminal()),
        settings: runner::Settings {
            max_response: cli.max_response_size * 1024 * 1024,
            keep_data: cli.keep_data,
            doc,
            sweep,
            connections: Default::default(),
            liveness,
            disposable,
            late_sweep: Default::default(),
        },
        keep_bodies: cli.json_full,
        repro: cli.repro.clone(),
        repro_target,
        store: RwLock::new(()),
        reports: Mutex::new(Vec::new()),
        fail_fast: cli.fail_fast.then(Default::default),
    })
}

/// The trials the selection keeps, and what the run says about the others.
struct Selection {
    trials: Vec<Trial>,
    filtered_out: usize,
    /// Must cases that the selection left out (for the verdict line).
    must_left_out: usize,
    /// Every case the selection left out (for the selection line).
    left_out: usize,
    /// The roles selected cases need and --auth did not give, and how many cases that skips.
    lacking: BTreeSet<&'static str>,
    skipped_for_credentials: usize,
}

/// One trial per selected case (and per file that did not load).
fn select(cli: &Cli, shared: &Arc<Shared>, loaded: Vec<Loaded>, rerun: Option<&BTreeSet<String>>) -> Selection {
    let mut selection = Selection {
        trials: Vec::new(),
        filtered_out: 0,
        must_left_out: 0,
        left_out: 0,
        lacking: BTreeSet::new(),
        skipped_for_credentials: 0,
    };
    let mut known_names = BTreeSet::new();
    for item in loaded {
        match item {
            Loaded::Error(error) => {
                known_names.insert(error.name.clone());
                if cli.harness.is_filtered_out(&error.name) {
                    selection.filtered_out += 1;
                    selection.left_out += 1;
                } else {
                    selection.trials.push(file_error_trial(shared.clone(), error));
                }
            }
            Loaded::File(file) => {
                for case in file.cases {
                    known_names.insert(case.name.clone());
                    let not_rerun = rerun.is_some_and(|names| !names.contains(&case.name));
                    if not_rerun || !cli.selects(&case) || cli.harness.is_filtered_out(&case.name) {
                        selection.must_left_out += usize::from(case.level == Level::Must);
                        selection.left_out += 1;
                        if cli.level.is_empty() || cli.level.contains(&case.level) {
                            selection.filtered_out += 1;
                        }
                        continue;
                    }
                    let skip = trial::skip(shared, &case);
                    if let Some(trial::Skip::Credentials(roles)) = &skip {
                        selection.lacking.extend(roles.iter().copied());
                        selection.skipped_for_credentials += 1;
                    }
                    let shared = shared.clone();
                    let (name, level, weight) = (case.name.clone(), case.level, case.sequential_requests());
                    let trial = Trial::new(name, level.name(), move || trial::run(&shared, case, skip));
                    selection.trials.push(trial.weighted(weight));
                }
            }
        }
    }
    for name in shared.expectations.difference(&known_names) {
        eprintln!("note: {name:?} in {} names no loaded case", shared.expectations_file);
    }
    for name in rerun.into_iter().flat_map(|names| names.difference(&known_names)) {
        eprintln!("note: {name:?}, which failed in the --rerun-failed report, names no loaded case");
    }
    selection
}

/// `--write-expectations`: the cases that failed (or could not run), as an expectations file.
fn write_expectations(cli: &Cli, reports: &[CaseReport], source: &str) -> Result<(), String> {
    let Some(path) = &cli.write_expectations else {
        return Ok(());
    };
    let failed: Vec<&str> = reports
        .iter()
        .filter(|r| matches!(r.outcome, crate::outcome::Outcome::Failed | crate::outcome::Outcome::Error(_)))
        .map(|r| r.name.as_str())
        .collect();
    write_file(path, &crate::expectations::render(&failed, source))?;
    eprintln!("conformance: {} failed cases written to {} (give it to --expectations)", failed.len(), path.display());
    Ok(())
}

/// Writes the report files the options ask for.
fn write_reports(
    cli: &Cli,
    shared: &Shared,
    reports: &[CaseReport],
    coverage: Option<&crate::coverage::Coverage>,
    (elapsed, run): (Duration, report::summary::Run),
    source: &str,
) -> Result<(), String> {
    let secrets = &shared.secrets;
    if let Some(path) = &cli.junit {
        write_file(path, &report::junit::render(reports, secrets, &run))?;
    }
    if let Some(path) = &cli.json {
        let options = report::json::Options { secrets, full: cli.json_full, run };
        let doc = report::json::render(&shared.run_id, reports, options);
        write_file(path, &crate::escape::json_document(serde_json::to_string_pretty(&doc).unwrap_or_default()))?;
    }
    if let Some(path) = &cli.html {
        let target = match &shared.mode {
            Mode::Embedded { .. } => "the embedded reference server".to_string(),
            Mode::Outside { endpoint, .. } => endpoint.base_url.clone(),
        };
        let suite = if source == crate::suite::LABEL {
            format!("{source} {}", crate::suite::digest())
        } else {
            source.to_string()
        };
        let meta = format!(
            "run {} of {suite} against {target}, {} ({} cases in {:.1} s)",
            shared.run_id,
            chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
            reports.len(),
            elapsed.as_secs_f64()
        );
        // Links to the case files, which may be given relative to the current folder; none
        // when they are not there (the embedded suite, run outside the repository).
        let here = reports.iter().any(|r| Path::new(&r.file).is_file());
        let base = match std::env::current_dir() {
            Ok(dir) if here => format!("file://{}/", dir.display()),
            _ => String::new(),
        };
        let page = report::html::Page {
            meta: &meta,
            expectations_file: &shared.expectations_file,
            tally: Some(run.tally),
            coverage,
            file_link_base: &base,
            secrets,
        };
        write_file(path, &report::html::render(reports, &page))?;
    }
    Ok(())
}

/// How many answers the last run in this process checked against `/doc` (`--check-doc`); the
/// `cargo test` gate asserts on it.
pub static DOC_CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The secrets reports mask: every password the run may send.
fn secrets_of(cli: &Cli, mode: &Mode) -> report::secrets::Secrets {
    if cli.show_credentials {
        return report::secrets::Secrets::shown();
    }
    match mode {
        Mode::Outside { endpoint, .. } => {
            report::secrets::Secrets::of(endpoint.credentials.values().map(|(u, p)| (u.as_str(), p.as_str())))
        }
        Mode::Embedded { .. } => {
            let users = reference_server::UserSpec::defaults();
            report::secrets::Secrets::of(users.iter().map(|u| (u.name.as_str(), u.password.as_str())))
        }
    }
}

/// The route × method coverage of the loaded files, for the HTML report's matrix.
fn coverage_of(loaded: &[Loaded], cli: &Cli) -> crate::coverage::Coverage {
    let files: Vec<&crate::model::CaseFile> = loaded
        .iter()
        .filter_map(|l| match l {
            Loaded::File(f) => Some(f),
            Loaded::Error(_) => None,
        })
        .collect();
    let options = crate::coverage::Options {
        namespace: cli.namespace.trim_matches('/').to_string(),
        language_param: cli.language_param.clone(),
    };
    crate::coverage::compute_refs(&files, &options)
}

/// The implementation's `/doc` (`--check-doc`): from the outside server, or from an embedded
/// server started for it alone.
fn fetch_doc(runtime: &tokio::runtime::Runtime, client: &Client, mode: &Mode) -> Result<runner::doc::DocCheck, String> {
    runtime.block_on(async {
        let (url, server) = match mode {
            Mode::Outside { endpoint, .. } => (format!("{}/doc", endpoint.namespace_url()), None),
            Mode::Embedded { namespace, language_param, without, quirks } => {
                let mut config = reference_server::Config::ephemeral();
                config.quirks = *quirks;
                config.namespace = namespace.clone();
                config.language_param = language_param.clone();
                for feature in without {
                    config.features.switch_off(feature);
                }
                let server = reference_server::serve(config)
                    .await
                    .map_err(|e| format!("--check-doc: cannot start a reference server for its /doc: {e}"))?;
                (format!("{}/doc", server.api_url().trim_end_matches('/')), Some(server))
            }
        };
        let answer = client.get(&url).send().await.map_err(|e| format!("--check-doc: GET {url}: {e}"));
        let doc = match answer {
            Ok(response) if response.status().is_success() => {
                response.json::<serde_json::Value>().await.map_err(|e| format!("--check-doc: {url} is not JSON: {e}"))
            }
            Ok(response) => Err(format!("--check-doc: GET {url} answered {}", response.status())),
            Err(e) => Err(e),
        };
        if let Some(server) = server {
            server.shutdown().await;
        }
        runner::doc::DocCheck::new(doc?).map_err(|e| format!("--check-doc: {url}: {e}"))
    })
}

/// The number of cases loaded (a file that did not load counts as one), or why there is
/// nothing to run.
fn count_cases(source: &str, loaded: &[Loaded]) -> Result<usize, String> {
    if loaded.is_empty() {
        return Err(format!(
            "no case file in {source} (files ending in .{}): nothing to run",
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
        return Err(format!("the case files in {source} hold no case: nothing to run"));
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
        let quirks = reference_server::Quirks::from_flags(cli.like.as_deref(), &cli.quirk)?;
        return Ok(Mode::Embedded {
            namespace,
            language_param: cli.language_param.clone(),
            without: without.to_vec(),
            quirks,
        });
    };
    if cli.like.is_some() || !cli.quirk.is_empty() {
        return Err("--like and --quirk set up the embedded reference server: they do not go with --base-url".into());
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("--base-url {url:?} is not a URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("--base-url {url:?} must be an http:// or https:// URL"));
    }
    if parsed.scheme() == "https" && !cfg!(feature = "tls") {
        return Err(format!(
            "--base-url {url:?} is https://, and this runner is built without TLS: build it with `cargo build -p conformance --features tls`"
        ));
    }
    let mut credentials: std::collections::BTreeMap<String, (String, String)> =
        cli.auth.iter().map(|(name, user, password)| (name.clone(), (user.clone(), password.clone()))).collect();
    let from_env = crate::credentials::from_env(|role| credentials.contains_key(role), |var| std::env::var_os(var))?;
    credentials.extend(from_env.into_iter().map(|(name, user, password)| (name, (user, password))));
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
    Trial::new(name, "", move || file_error(&shared, &error))
}

/// Records the report of a file that could not be loaded; its trial's verdict.
fn file_error(shared: &Shared, error: &FileError) -> Verdict {
    let message = error.to_string();
    record(
        shared,
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
            server: None,
        },
    );
    Verdict::Failed(format!("this case file could not be loaded:\n{}", crate::escape::lines(&message)))
}

/// `conformance coverage [OPTIONS]` (`args` are the options): prints the coverage matrix and
/// returns 0 when every item of the interface has a case, 1 when one has none, 2 on errors.
fn run_coverage(args: &[OsString], default_cases: &Source) -> i32 {
    let cli = match crate::cli::CoverageCli::try_parse_from(
        std::iter::once(OsString::from("conformance coverage")).chain(args.iter().cloned()),
    ) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let (source, loaded) = match load_cases(cli.cases.clone(), default_cases) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("error: {}", crate::escape::lines(&message));
            return EXIT_USAGE;
        }
    };
    let mut files = Vec::new();
    let mut errors = 0;
    for item in loaded {
        match item {
            Loaded::File(file) => files.push(file),
            Loaded::Error(error) => {
                eprintln!("{}", crate::escape::lines(&error.to_string()));
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
    let color = cli.color.wanted(std::io::stdout().is_terminal());
    print!("{}", report::coverage::render(&coverage, &source, color));
    if let Some(path) = &cli.json {
        let doc = report::coverage::json(&coverage);
        let text = crate::escape::json_document(serde_json::to_string_pretty(&doc).unwrap_or_default());
        if let Err(message) = write_file(path, &text) {
            eprintln!("error: {}", crate::escape::lines(&message));
            return EXIT_USAGE;
        }
    }
    crate::coverage::exit_status(&coverage)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    crate::files::write_output(path, text)
}
