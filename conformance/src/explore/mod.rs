//! `conformance explore`: generated request sequences sent in lockstep to an implementation and
//! to an embedded reference server; the differences judged at a level, the first one shrunk to
//! a short case file.
//!
//! - [`rng`]: the seeded PRNG (splitmix64): the same seed gives the same sequence.
//! - [`generate`]: the steps, read from the interface table.
//! - [`lockstep`]: one step on both sides, compared with the `diff` comparison.
//! - [`decisions`]: the reference server's own decisions, as a table.
//! - [`judge`]: the level of a difference.
//! - [`shrink`]: a failing sequence cut down to a short one showing the same difference.
//! - [`write`]: the shrunk sequence as a case file.
//!
//! Stands above [`crate::differential`] (whose normalisation and comparison it reuses) and
//! below [`crate::app`], which dispatches the subcommand here.

pub mod decisions;
pub mod generate;
pub mod judge;
pub mod lockstep;
pub mod options;
pub mod replay;
pub mod rng;
pub mod shrink;
pub mod write;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use chrono::{DateTime, DurationRound, Utc};
use clap::Parser;
use reqwest::Client;

use self::generate::Generator;
use self::judge::{Explained, Finding, Level};
use self::lockstep::{Lockstep, Side};
use self::options::ExploreCli;
use crate::differential;
use crate::report::secrets::Secrets;
use crate::runner::Endpoint;

/// The most may differences printed (all are counted).
const MAX_MAY_SHOWN: usize = 5;

/// Exit status when a must or should difference was found.
pub const EXIT_FOUND: i32 = 1;

/// Exit status when an option is wrong or the implementation fails pre-flight.
pub const EXIT_USAGE: i32 = 2;

/// `conformance explore [OPTIONS]` (`args` are the options); returns the exit status.
pub fn run(args: &[OsString]) -> i32 {
    let cli = match ExploreCli::try_parse_from(
        std::iter::once(OsString::from("conformance explore")).chain(args.iter().cloned()),
    ) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    match run_cli(&cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {}", crate::escape::lines(&message));
            EXIT_USAGE
        }
    }
}

fn run_cli(cli: &ExploreCli) -> Result<i32, String> {
    let without = crate::features::without(&cli.without)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let now = Utc::now().duration_trunc(chrono::TimeDelta::seconds(1)).unwrap_or_else(|_| Utc::now());
    let reference = runtime.block_on(embedded(cli, &without, now))?;
    let (implementation, _embedded_implementation) = match &cli.base_url {
        Some(url) => (implementation_endpoint(cli, url)?, None),
        None => {
            let server = runtime.block_on(embedded(cli, &without, now))?;
            (server.0, Some(server.1))
        }
    };
    let client = crate::runner::client(Duration::from_secs_f64(cli.timeout), true)?;
    runtime
        .block_on(crate::preflight::check(&client, &implementation))
        .map_err(|e| format!("the implementation ({}): {e}", implementation.base_url))?;
    let secrets = Secrets::of(implementation.credentials.values().map(|(u, p)| (u.as_str(), p.as_str())));
    let sides = [Side::new(implementation), Side::new(reference.0)];
    let explorer = Explorer { cli, sides: [&sides[0], &sides[1]], client: &client, now, without, secrets };
    let found = runtime.block_on(explorer.explore());
    Ok(if found > 0 { EXIT_FOUND } else { 0 })
}

/// A reference server started in-process with the run's clock and names, and its endpoint
/// with the five default users.
async fn embedded(
    cli: &ExploreCli,
    without: &[String],
    now: DateTime<Utc>,
) -> Result<(Endpoint, reference_server::RunningServer), String> {
    let mut config = reference_server::Config::ephemeral();
    config.quirks = reference_server::Quirks::from_flags(cli.like.as_deref(), &cli.quirk)?;
    config.namespace = cli.namespace.trim_matches('/').to_string();
    config.language_param = cli.language_param.clone();
    config.clock = Some(now);
    let server_features: Vec<&str> =
        without.iter().map(String::as_str).filter(|w| matches!(*w, "geoloc" | "tickets")).collect();
    config.features = config.features.without(&server_features.join(","))?;
    let server =
        reference_server::serve(config).await.map_err(|e| format!("cannot start the reference server: {e}"))?;
    let credentials = reference_server::UserSpec::defaults()
        .into_iter()
        .map(|user| (user.role.name().to_string(), (user.name, user.password)))
        .collect();
    let endpoint = Endpoint {
        base_url: format!("http://{}/wp-json", server.addr()),
        namespace: cli.namespace.trim_matches('/').to_string(),
        language_param: cli.language_param.clone(),
        credentials,
    };
    Ok((endpoint, server))
}

fn implementation_endpoint(cli: &ExploreCli, url: &str) -> Result<Endpoint, String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("--base-url {url:?} is not a URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("--base-url {url:?} must be an http:// or https:// URL"));
    }
    let mut credentials = BTreeMap::new();
    for (name, user, password) in &cli.auth {
        crate::credentials::check_given(name)?;
        credentials.insert(name.clone(), (user.clone(), password.clone()));
    }
    // As for a run: a role without --auth may come from CONFORMANCE_AUTH_<ROLE>.
    let from_env = crate::credentials::from_env(|role| credentials.contains_key(role), |var| std::env::var_os(var))?;
    for (name, user, password) in from_env {
        credentials.insert(name, (user, password));
    }
    Ok(Endpoint {
        base_url: url.trim_end_matches('/').to_string(),
        namespace: cli.namespace.trim_matches('/').to_string(),
        language_param: cli.language_param.clone(),
        credentials,
    })
}

/// One exploration.
struct Explorer<'a> {
    cli: &'a ExploreCli,
    /// The implementation (A) and the reference server (B).
    sides: [&'a Side; 2],
    client: &'a Client,
    now: DateTime<Utc>,
    without: Vec<String>,
    secrets: Secrets,
}

/// A must or should difference, counted once by its level, kind, route and path (list indices
/// aside): when the exploring ends, the first of each is shrunk and written, and all are
/// summarised (`--keep-going`).
struct Distinct {
    key: (Level, String, String),
    first_step: u64,
    times: usize,
    /// The sequence up to the step that first showed it, until it is shrunk and written.
    raw: Option<shrink::Shrunk>,
    /// What became of it: the case file, or why there is none.
    outcome: String,
    /// Whether the written case is a shrunk one.
    shrunk: bool,
}

/// What a run has seen so far.
#[derive(Default)]
struct Tally {
    count: u64,
    /// Must or should differences, each time one was seen.
    found: usize,
    may: usize,
    /// Steps on an item that exists on one side only, not judged.
    diverged: u64,
    /// What the reference server answered, by status class: how much of the sequence succeeds.
    classes: BTreeMap<u16, u64>,
    distinct: Vec<Distinct>,
    /// Seconds spent exploring, and then shrinking and writing.
    exploring: f64,
    shrinking: f64,
}

impl Explorer<'_> {
    /// Plays the sequence; returns how many must or should differences were found.
    async fn explore(&self) -> usize {
        let roles: Vec<String> = generate::ROLES
            .iter()
            .filter(|role| self.sides[0].endpoint.credentials.contains_key(**role))
            .map(|role| role.to_string())
            .collect();
        let mut generator = Generator::new(self.cli.seed, &roles, &self.without);
        let token = shrink::word(self.cli.seed);
        let mut lockstep = Lockstep::new(self.sides, self.client, &token, self.now);
        let (mut steps, mut statuses, mut tally) = (Vec::new(), Vec::new(), Tally::default());
        let mut progress = Progress::new();
        let mut explained = Explained::default();
        let start = Instant::now();
        while tally.count < self.cli.max_steps() && self.cli.time.is_none_or(|limit| start.elapsed() < limit) {
            self.pace(start, tally.count).await;
            let step = generator.step();
            let follows_diverged = lockstep.follows_diverged(&step);
            let played = lockstep.play(&step).await;
            // A duplicate one side found (D18) is that decision's, and what follows on it too.
            let follows_diverged = follows_diverged || played.duplicate_on_one_side;
            tally.count += 1;
            tally.diverged += u64::from(follows_diverged);
            let judged = if follows_diverged {
                None
            } else {
                // Parsed once, and only when a difference needs it.
                let reference = std::cell::OnceCell::new();
                let diverged = |d: &differential::compare::Difference| {
                    let item = d.kind == differential::compare::Kind::Item;
                    // A field of a diverged item in a list, or of the item a list item links.
                    let body = || reference.get_or_init(|| played.reference_body());
                    let within = || body().as_ref().and_then(|body| judge::item_id(body, &d.path, &step));
                    (item && (lockstep.diverged_item(0, &d.a) || lockstep.diverged_item(1, &d.b)))
                        || (lockstep.any_diverged() && (judge::counts_items(&step, d) || judge::numbered_alike(d)))
                        || within().is_some_and(|id| lockstep.diverged_id(1, id))
                };
                explained.judge_following(&step, &played.compared, &played.legs, &diverged)
            };
            if explained.item_decided {
                lockstep.mark_diverged(&step);
            }
            steps.push(step);
            statuses.push(played.reference_status());
            if let lockstep::Leg::Answered(answer) = &played.legs[1] {
                *tally.classes.entry(answer.status / 100).or_default() += 1;
            }
            if let Some(finding) = judged {
                progress.clear();
                let request = played.request.clone();
                let sequence = || (steps.clone(), statuses.clone());
                let raw = |finding| shrink::Shrunk::raw(sequence(), finding, played, &lockstep, &token);
                if self.on_finding(&mut tally, (&steps, &request), finding, raw) {
                    break;
                }
            }
            progress.tick(tally.count, tally.found, start);
        }
        progress.clear();
        tally.exploring = start.elapsed().as_secs_f64();
        for n in 0..tally.distinct.len() {
            if let Some(raw) = tally.distinct[n].raw.take() {
                let (outcome, shrunk) = self.shrink_and_write(raw, n + 1).await;
                (tally.distinct[n].outcome, tally.distinct[n].shrunk) = (outcome, shrunk);
            }
        }
        tally.shrinking = start.elapsed().as_secs_f64() - tally.exploring;
        self.summarise(&tally);
        tally.found
    }

    /// Reports a finding (a may one among the first few only; a must or should one seen before
    /// is counted only) and keeps the raw sequence of a new must or should one (`raw`), to be
    /// shrunk when the exploring ends; whether the run stops.
    fn on_finding(
        &self,
        tally: &mut Tally,
        (steps, request): (&[generate::Step], &str),
        finding: Finding,
        raw: impl FnOnce(Finding) -> shrink::Shrunk,
    ) -> bool {
        let count = tally.count;
        if finding.level == Level::May {
            // Reported, never failing, never stopping the run.
            tally.may += 1;
            if tally.may <= MAX_MAY_SHOWN {
                self.print_finding(&finding, request, count);
            }
            return false;
        }
        tally.found += 1;
        let step = &steps[steps.len() - 1];
        let key = (finding.level, format!("{} {}", step.method, step.route()), path_key(&finding));
        if let Some(seen) = tally.distinct.iter_mut().find(|d| d.key == key) {
            seen.times += 1;
            return false;
        }
        self.print_finding(&finding, request, count);
        let raw = Some(raw(finding));
        tally.distinct.push(Distinct { key, first_step: count, times: 1, raw, outcome: String::new(), shrunk: false });
        !self.cli.keep_going
    }

    fn summarise(&self, tally: &Tally) {
        if self.cli.keep_going && !tally.distinct.is_empty() {
            println!("distinct differences ({}):", tally.distinct.len());
            for d in &tally.distinct {
                let (level, route, path) = &d.key;
                let line = format!(
                    "  {} {route} at {path}: first at step {}, seen {} time(s); {}",
                    level.name(),
                    d.first_step,
                    d.times,
                    d.outcome
                );
                println!("{}", crate::escape::lines(&line));
            }
        }
        let classes: Vec<String> = tally.classes.iter().map(|(class, n)| format!("{n} × {class}xx")).collect();
        let elapsed = tally.exploring + tally.shrinking;
        println!(
            "explore: seed {}, {} steps in {elapsed:.1} s ({:.1} steps/s exploring, {:.1} steps/s with {:.1} s of shrinking; the reference answered {}); {} difference(s) at must or should level, {} at may level",
            self.cli.seed,
            tally.count,
            tally.count as f64 / tally.exploring.max(1e-9),
            tally.count as f64 / elapsed.max(1e-9),
            tally.shrinking,
            classes.join(", "),
            tally.found,
            tally.may,
        );
        let not_shrunk = tally.distinct.iter().filter(|d| !d.shrunk).count();
        if not_shrunk > 0 {
            println!("explore: {not_shrunk} of {} distinct difference(s) not shrunk", tally.distinct.len());
        }
        if tally.diverged > 0 {
            println!(
                "explore: {} step(s) on items that exist on one side only (a create one side refused, judged when it happened) were not judged",
                tally.diverged
            );
        }
    }

    /// Waits so that at most `--rate` steps go per second.
    async fn pace(&self, start: Instant, count: u64) {
        if let Some(rate) = self.cli.rate.filter(|r| *r > 0.0) {
            let due = start + Duration::from_secs_f64(count as f64 / rate);
            tokio::time::sleep_until(due.into()).await;
        }
    }

    fn print_finding(&self, finding: &Finding, request: &str, count: u64) {
        let d = &finding.difference;
        let level = match finding.section {
            Some(section) => format!("{}, {section}", finding.level.name()),
            None => finding.level.name().to_string(),
        };
        let text = format!(
            "difference at step {count} ({level}): {request}\n  {} ({}):\n    A (the implementation): {}\n    B (the reference server): {}",
            d.path,
            serde_json::to_value(d.kind).ok().and_then(|k| k.as_str().map(str::to_string)).unwrap_or_default(),
            d.a,
            d.b
        );
        println!("{}", crate::escape::lines(&self.secrets.redact(&text)));
    }

    /// Shrinks a difference's raw sequence (unless `--no-shrink`), checks that the case
    /// replays, prints it and writes it under `--out`; what became of it, and whether the case
    /// written is a shrunk one. A sequence that does not shrink, or whose shrunk case does not
    /// replay, is written raw.
    async fn shrink_and_write(&self, raw: shrink::Shrunk, n: usize) -> (String, bool) {
        let (length, count) = (raw.steps.len(), raw.steps.len());
        let why_raw = if self.cli.no_shrink {
            "not shrunk (--no-shrink)".to_string()
        } else {
            let mut replayer = shrink::Replayer::new(self.sides, self.client, self.now, self.cli);
            match shrink::shrink(&mut replayer, raw.steps.clone(), &raw.finding).await {
                None => "not shrunk (replayed from the start, it does not show again)".to_string(),
                Some(shrunk) => {
                    let case = self.case_text(&shrunk, count);
                    match replay::check(&case, self.sides, self.client, self.now, &shrunk.token).await {
                        Ok(()) => {
                            println!(
                                "shrunk from {length} steps to {} ({} replays):",
                                shrunk.steps.len(),
                                shrunk.replays
                            );
                            let done = format!("shrunk to {} step(s)", shrunk.steps.len());
                            return (self.write_case(&case, n, done), true);
                        }
                        Err(why) => format!(
                            "not shrunk (the shrunk case of {} step(s) does not replay: {why})",
                            shrunk.steps.len()
                        ),
                    }
                }
            }
        };
        println!("  {why_raw}; the raw sequence of {length} steps:");
        let case = self.case_text(&raw, count);
        (self.write_case(&case, n, why_raw), false)
    }

    /// The case file of a sequence, its secrets masked.
    fn case_text(&self, shrunk: &shrink::Shrunk, count: usize) -> String {
        let case = write::case_file(shrunk, (self.cli.seed, count), self.now, &self.cli.namespace);
        self.secrets.redact(&case)
    }

    /// Prints the case and writes it under `--out`; `done` with where it went.
    fn write_case(&self, case: &str, n: usize, done: String) -> String {
        println!("{}", crate::escape::lines(case));
        let Some(dir) = &self.cli.out else { return done };
        match write_new(dir, &format!("explore-seed-{}-{n}", self.cli.seed), case) {
            Ok(path) => {
                println!("written: {}", path.display());
                format!("{done}, written to {}", path.display())
            }
            Err(e) => {
                eprintln!("error: {}", crate::escape::lines(&e));
                format!("{done}, not written: {e}")
            }
        }
    }
}

/// Writes a found case into `--out` as a new file (`STEM.yaml`, or `STEM-2.yaml`… when that name
/// is taken): nothing there is followed or replaced, and a folder that is a symbolic link is
/// refused, as `--repro` does.
fn write_new(dir: &std::path::Path, stem: &str, case: &str) -> Result<std::path::PathBuf, String> {
    use std::io::Write;
    crate::files::output_folder(dir, "--out")?;
    let (path, mut file) = crate::files::create_new_in(dir, stem, "yaml", 0o644)?;
    file.write_all(case.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The path of a finding with its list indices aside, and its kind: `$.events[*].title (value)`.
fn path_key(finding: &Finding) -> String {
    let kind = serde_json::to_value(finding.difference.kind).ok();
    let kind = kind.as_ref().and_then(|k| k.as_str()).unwrap_or_default();
    format!("{} ({kind})", crate::differential::compare::path_shape(&finding.difference.path))
}

/// The progress line: on a terminal, rewritten twice a second; otherwise a line every 10 s.
struct Progress {
    terminal: bool,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress { terminal: std::io::stderr().is_terminal(), last: Instant::now(), shown: false }
    }

    fn tick(&mut self, count: u64, found: usize, start: Instant) {
        let every = if self.terminal { Duration::from_millis(500) } else { Duration::from_secs(10) };
        if self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let rate = count as f64 / start.elapsed().as_secs_f64().max(1e-9);
        let line = format!("explore: {count} steps, {rate:.0} steps/s, {found} difference(s)");
        if self.terminal {
            eprint!("\r\x1b[K{line}");
            self.shown = true;
        } else {
            eprintln!("{line}");
        }
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    /// Issue 36, R16: `--out` creates new files only: a planted symbolic link and an existing
    /// file of the same name are left as they are, and a linked folder is refused.
    #[cfg(unix)]
    #[test]
    fn r16_out_never_follows_a_planted_link_nor_replaces_a_file() {
        let dir = std::env::temp_dir().join(format!("conformance-r16-{}", std::process::id()));
        let found = dir.join("found");
        std::fs::create_dir_all(&found).unwrap();
        std::fs::write(dir.join("victim.txt"), "precious").unwrap();
        std::os::unix::fs::symlink("../victim.txt", found.join("explore-seed-1-1.yaml")).unwrap();
        std::fs::write(found.join("explore-seed-1-1-2.yaml"), "mine").unwrap();
        let written = super::write_new(&found, "explore-seed-1-1", "cases: []\n").unwrap();
        assert_eq!(written, found.join("explore-seed-1-1-3.yaml"));
        assert_eq!(std::fs::read_to_string(dir.join("victim.txt")).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(found.join("explore-seed-1-1-2.yaml")).unwrap(), "mine");
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "cases: []\n");
        std::os::unix::fs::symlink(&found, dir.join("linked")).unwrap();
        let error = super::write_new(&dir.join("linked"), "x", "").unwrap_err();
        assert!(error.contains("symbolic link"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
