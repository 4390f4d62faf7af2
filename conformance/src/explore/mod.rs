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
/// aside): `--keep-going` shrinks the first of each and summarises them at the end.
struct Distinct {
    key: (Level, String, String),
    first_step: u64,
    times: usize,
    /// What became of it: the case file, or why there is none.
    outcome: String,
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
        let (mut steps, mut tally) = (Vec::new(), Tally::default());
        let mut progress = Progress::new();
        let mut explained = Explained::default();
        let start = Instant::now();
        while tally.count < self.cli.max_steps() && self.cli.time.is_none_or(|limit| start.elapsed() < limit) {
            self.pace(start, tally.count).await;
            let step = generator.step();
            let follows_diverged = lockstep.follows_diverged(&step);
            let played = lockstep.play(&step).await;
            tally.count += 1;
            tally.diverged += u64::from(follows_diverged);
            let judged = if follows_diverged { None } else { explained.judge(&step, &played.compared, &played.legs) };
            steps.push(step);
            if let lockstep::Leg::Answered(answer) = &played.legs[1] {
                *tally.classes.entry(answer.status / 100).or_default() += 1;
            }
            if let Some(finding) = judged {
                progress.clear();
                let stop = self.on_finding(&mut tally, &steps, finding, &played.request).await;
                if stop {
                    break;
                }
            }
            progress.tick(tally.count, tally.found, start);
        }
        progress.clear();
        self.summarise(&tally, start.elapsed().as_secs_f64());
        tally.found
    }

    /// Reports a finding (a may one among the first few only; a must or should one seen before
    /// under `--keep-going` is counted only), shrinks and writes a new must or should one;
    /// whether the run stops.
    async fn on_finding(&self, tally: &mut Tally, steps: &[generate::Step], finding: Finding, request: &str) -> bool {
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
        let n = tally.distinct.len() + 1;
        let outcome = self.shrink_and_write(steps.to_vec(), &finding, count, n).await;
        tally.distinct.push(Distinct { key, first_step: count, times: 1, outcome });
        !self.cli.keep_going
    }

    fn summarise(&self, tally: &Tally, elapsed: f64) {
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
        println!(
            "explore: seed {}, {} steps in {elapsed:.1} s ({:.0} steps/s; the reference answered {}); {} difference(s) at must or should level, {} at may level",
            self.cli.seed,
            tally.count,
            tally.count as f64 / elapsed.max(1e-9),
            classes.join(", "),
            tally.found,
            tally.may,
        );
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

    /// Shrinks the sequence, prints the case and writes it under `--out`; what became of it.
    async fn shrink_and_write(&self, steps: Vec<generate::Step>, finding: &Finding, count: u64, n: usize) -> String {
        let length = steps.len();
        let mut replayer = shrink::Replayer {
            sides: self.sides,
            client: self.client,
            now: self.now,
            seed: self.cli.seed,
            replays: 0,
            budget: self.cli.shrink_budget,
            deadline: Instant::now() + self.cli.shrink_time,
        };
        let Some(shrunk) = shrink::shrink(&mut replayer, steps, finding).await else {
            println!("  not shrunk: replayed from the start, the {length} steps do not show it again");
            return "not shrunk (a replay does not show it again)".to_string();
        };
        println!("shrunk from {length} steps to {} ({} replays):", shrunk.steps.len(), shrunk.replays);
        let case = write::case_file(&shrunk, self.cli.seed, count as usize, self.now);
        let case = self.secrets.redact(&case);
        println!("{}", crate::escape::lines(&case));
        let shrunk_to = format!("shrunk to {} step(s)", shrunk.steps.len());
        let Some(dir) = &self.cli.out else { return shrunk_to };
        match write_new(dir, &format!("explore-seed-{}-{n}", self.cli.seed), &case) {
            Ok(path) => {
                println!("written: {}", path.display());
                format!("{shrunk_to}, written to {}", path.display())
            }
            Err(e) => {
                eprintln!("error: {}", crate::escape::lines(&e));
                format!("{shrunk_to}, not written: {e}")
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
