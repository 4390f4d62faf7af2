//! `conformance diff`: the differential mode. The requests of the selected cases go to two
//! implementations in step, and their answers are compared, beyond what the cases assert.
//!
//! - [`options`]: the command line (shared options, and `--a-…`/`--b-…` per side).
//! - [`play`]: one case on both sides in step, each side with its own captured values.
//! - [`normalise`]: what legitimately differs between two sites (addresses and names, IDs,
//!   clocks, HTML character references).
//! - [`compare`]: the two answers of one exchange, difference by difference.
//! - [`score`]: the agreement and the differences grouped by route.
//! - [`report`]: the terminal report and the JSON one.
//!
//! Cases run one at a time, so that lists see the same data on both sides; the servers keep
//! what earlier cases left (each case's cleanup runs on both).

pub mod compare;
pub mod normalise;
pub mod options;
pub mod play;
pub mod report;
pub mod score;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::Command;
use std::time::Duration;

use chrono::{DurationRound, Utc};
use clap::Parser;

use self::compare::{Normalisers, State};
use self::normalise::{Clocks, IdPairs, Normaliser};
use self::options::{DiffCli, SideName};
use self::play::Side;
use crate::features::Place;
use crate::model::{Case, Loaded};
use crate::runner::CaseContext;
use crate::source::Source;

/// Exit status when options, case files or pre-flight are wrong.
pub const EXIT_USAGE: i32 = 2;

/// Exit status with `--fail-on-difference` when a difference was found.
pub const EXIT_DIFFERENT: i32 = 1;

/// `conformance diff [OPTIONS] [FILTER]` (`args` are the options); returns the exit status.
pub fn run(args: &[OsString], default_cases: &Source) -> i32 {
    let cli = match DiffCli::try_parse_from(
        std::iter::once(OsString::from("conformance diff")).chain(args.iter().cloned()),
    ) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    match run_cli(&cli, default_cases) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {}", crate::escape::lines(&message));
            EXIT_USAGE
        }
    }
}

fn run_cli(cli: &DiffCli, default_cases: &Source) -> Result<i32, String> {
    let side = |name: SideName| -> Result<Side, String> {
        let (endpoint, reset_command) = cli.side(name)?;
        let normaliser = Normaliser::of(&endpoint);
        Ok(Side { name, endpoint, reset_command, normaliser })
    };
    let (a, b) = (side(SideName::A)?, side(SideName::B)?);
    let without = crate::features::without(&cli.without)?;
    let cases = load(cli, default_cases)?;
    let selection = select(cli, &[&a, &b], &without, cases)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let client = crate::runner::client(Duration::from_secs_f64(cli.timeout), true)?;
    for side in [&a, &b] {
        let flag = side.name.letter().to_ascii_lowercase();
        runtime
            .block_on(crate::preflight::check(&client, &side.endpoint))
            .map_err(|e| format!("{} (--{flag} {}): {e}", side.name.letter(), side.endpoint.base_url))?;
    }
    let played = play_all(cli, selection, [&a, &b], &runtime, &client);
    let secrets = secrets_of([&a, &b]);
    let context = report::Context {
        sides: [&a, &b],
        played: played.played,
        skipped: &played.skipped,
        ids: &played.state.ids,
        clocks: &played.state.clocks,
        max_shown: cli.max_shown,
        color: cli.color.wanted(std::io::stdout().is_terminal()),
        secrets: &secrets,
    };
    write_reports(cli, &played.collector, &context)?;
    Ok(if cli.fail_on_difference && played.collector.differs() { EXIT_DIFFERENT } else { 0 })
}

/// What playing the selected cases gave.
struct Played {
    state: State,
    collector: score::Collector,
    skipped: Vec<(String, String)>,
    played: usize,
}

/// Plays the selected cases one at a time on both sides (resetting both first for a case
/// that wants a fresh store; one that cannot be reset is skipped) and compares the exchanges.
fn play_all(
    cli: &DiffCli,
    selection: Selection,
    sides: [&Side; 2],
    runtime: &tokio::runtime::Runtime,
    client: &reqwest::Client,
) -> Played {
    let [a, b] = sides;
    let ids = crate::ids::Ids::new();
    let case_ids = ids.case_ids(selection.play.iter().map(|c| c.name.as_str()));
    let mut state = State {
        ids: IdPairs::default(),
        clocks: Clocks { offset: None, tolerance: i64::from(cli.clock_tolerance) },
        ignored: cli.ignore.iter().cloned().collect(),
    };
    let mut collector = score::Collector::default();
    let mut skipped = selection.skipped;
    let mut played = 0;
    let max_response = cli.max_response_size * 1024 * 1024;
    // Against a remote site a comparison takes a while: say where it is, on a terminal only.
    let progress = std::io::stderr().is_terminal();
    let total = selection.play.len();
    for (n, case) in selection.play.iter().enumerate() {
        if progress {
            eprint!("\r\x1b[K[{}/{total}] {}", n + 1, crate::escape::terminal(&crate::show::cut(&case.name, 70)));
        }
        if case.requires.iter().any(|r| r == "fresh-store") {
            if let Err(e) = reset(a).and_then(|()| reset(b)) {
                skipped.push((case.name.clone(), e));
                continue;
            }
        }
        played += 1;
        let ctx = CaseContext {
            run_id: ids.run_id.clone(),
            case_id: case_ids.get(&case.name).cloned().unwrap_or_else(|| "c0000000000".into()),
            now: cli.clock.unwrap_or_else(|| {
                Utc::now().duration_trunc(chrono::TimeDelta::seconds(1)).unwrap_or_else(|_| Utc::now())
            }),
        };
        let norm = Normalisers { a: &a.normaliser, b: &b.normaliser };
        let mut on_exchange = |exchange: play::Exchange| {
            let compared = compare::exchange(&mut state, &norm, exchange.space, &exchange.a, &exchange.b);
            collector.add(exchange, compared);
        };
        runtime.block_on(play::play(case, sides, client, &ctx, max_response, &mut on_exchange));
    }
    if progress {
        eprint!("\r\x1b[K");
    }
    Played { state, collector, skipped, played }
}

/// The passwords of both sides, which the reports mask.
fn secrets_of(sides: [&Side; 2]) -> crate::report::secrets::Secrets {
    let credentials = sides.map(|side| side.endpoint.credentials.values());
    crate::report::secrets::Secrets::of(
        credentials.into_iter().flatten().map(|(user, password)| (user.as_str(), password.as_str())),
    )
}

/// Prints the terminal report and writes `--json`.
fn write_reports(cli: &DiffCli, collector: &score::Collector, context: &report::Context) -> Result<(), String> {
    print!("{}", report::render(collector, context));
    if let Some(path) = &cli.json {
        let text = serde_json::to_string_pretty(&report::json(collector, context)).unwrap_or_default();
        let text = crate::escape::json_document(text);
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The cases of the `--cases` folder (or the default suite); every file must load.
fn load(cli: &DiffCli, default_cases: &Source) -> Result<Vec<Case>, String> {
    let (source, loaded) = crate::source::load_cases(cli.cases.clone(), default_cases)?;
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for loaded in loaded {
        match loaded {
            Loaded::File(file) => cases.extend(file.cases),
            Loaded::Error(error) => errors.push(error.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(format!("{} case file(s) could not be loaded:\n{}", errors.len(), errors.join("\n")));
    }
    if cases.is_empty() {
        return Err(format!("no case in {source}: nothing to compare"));
    }
    Ok(cases)
}

/// The cases to play, and those skipped with the reason.
struct Selection {
    play: Vec<Case>,
    skipped: Vec<(String, String)>,
}

fn select(cli: &DiffCli, sides: &[&Side; 2], without: &[String], cases: Vec<Case>) -> Result<Selection, String> {
    let total = cases.len();
    let mut selection = Selection { play: Vec::new(), skipped: Vec::new() };
    let resets = sides.iter().all(|s| s.reset_command.is_some());
    let mut lacking = BTreeSet::new();
    for case in cases {
        if (!cli.level.is_empty() && !cli.level.contains(&case.level)) || cli.is_filtered_out(&case.name) {
            continue;
        }
        let place = Place::Outside { without, reset_command: resets };
        if let Some(reason) = crate::features::unavailable(&case.requires, place) {
            selection.skipped.push((
                case.name.clone(),
                reason.replace("--reset-command", "--a-reset-command and --b-reset-command"),
            ));
            continue;
        }
        let missing = crate::credentials::missing(&case, |role| {
            sides.iter().all(|side| side.endpoint.credentials.contains_key(role))
        });
        if !missing.is_empty() {
            lacking.extend(missing.iter().copied());
            selection.skipped.push((case.name.clone(), crate::credentials::skip_reason(&missing)));
            continue;
        }
        selection.play.push(case);
    }
    if selection.play.is_empty() && selection.skipped.is_empty() {
        return Err(format!("the selection matches none of the {total} cases: nothing to compare"));
    }
    if !lacking.is_empty() {
        let lacking: Vec<&str> = lacking.into_iter().collect();
        eprintln!(
            "note: no credentials for {} on both sides: the cases that act as them are skipped",
            crate::credentials::and_list(&lacking)
        );
    }
    Ok(selection)
}

/// Runs a side's reset command; the error says which side.
fn reset(side: &Side) -> Result<(), String> {
    let Some(command) = &side.reset_command else {
        return Ok(());
    };
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .output()
        .map_err(|e| format!("{}: cannot run the reset command {command:?}: {e}", side.name.letter()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}: the reset command {command:?} failed ({}): {}",
            side.name.letter(),
            output.status,
            crate::show::excerpt(&String::from_utf8_lossy(&output.stderr))
        ))
    }
}
