//! `conformance explore`: generated request sequences sent in lockstep to an implementation and
//! to an embedded reference server; the differences judged at a level, the first one shrunk to
//! a short case file.
//!
//! - [`rng`]: the seeded PRNG (splitmix64): the same seed gives the same sequence.
//! - [`generate`]: the steps, read from the interface table.
//! - [`lockstep`]: one step on both sides, compared with the `diff` comparison.
//! - [`judge`]: the level of a difference.
//! - [`shrink`]: a failing sequence cut down to a short one showing the same difference.
//! - [`write`]: the shrunk sequence as a case file.
//!
//! Stands above [`crate::differential`] (whose normalisation and comparison it reuses) and
//! below [`crate::app`], which dispatches the subcommand here.

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
use self::judge::{judge, Finding, Level};
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
        let (mut steps, mut found, mut may, mut count) = (Vec::new(), 0, 0, 0u64);
        // What the reference server answered, by status class: how much of the sequence succeeds.
        let mut classes = BTreeMap::<u16, u64>::new();
        let mut progress = Progress::new();
        let start = Instant::now();
        while count < self.cli.max_steps() && self.cli.time.is_none_or(|limit| start.elapsed() < limit) {
            self.pace(start, count).await;
            let step = generator.step();
            let played = lockstep.play(&step).await;
            count += 1;
            steps.push(step);
            if let lockstep::Leg::Answered(answer) = &played.legs[1] {
                *classes.entry(answer.status / 100).or_default() += 1;
            }
            if let Some(finding) = judge(&played.compared, &played.legs).filter(|f| f.level == Level::May) {
                // Reported, never failing, never stopping the run: the first few are printed.
                may += 1;
                if may <= MAX_MAY_SHOWN {
                    progress.clear();
                    self.print_finding(&finding, &played.request, count);
                }
            } else if let Some(finding) = judge(&played.compared, &played.legs) {
                found += 1;
                progress.clear();
                self.print_finding(&finding, &played.request, count);
                self.shrink_and_write(steps.clone(), &finding, count, found).await;
                if !self.cli.keep_going {
                    break;
                }
            }
            progress.tick(count, found, start);
        }
        progress.clear();
        let elapsed = start.elapsed().as_secs_f64();
        let classes: Vec<String> = classes.iter().map(|(class, n)| format!("{n} × {class}xx")).collect();
        println!(
            "explore: seed {}, {count} steps in {elapsed:.1} s ({:.0} steps/s; the reference answered {}); {found} difference(s) at must or should level, {may} at may level",
            self.cli.seed,
            count as f64 / elapsed.max(1e-9),
            classes.join(", ")
        );
        found
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
        let text = format!(
            "difference at step {count} ({}): {request}\n  {} ({}):\n    A (the implementation): {}\n    B (the reference server): {}",
            finding.level.name(),
            d.path,
            serde_json::to_value(d.kind).ok().and_then(|k| k.as_str().map(str::to_string)).unwrap_or_default(),
            d.a,
            d.b
        );
        println!("{}", crate::escape::lines(&self.secrets.redact(&text)));
    }

    /// Shrinks the sequence, prints the case and writes it under `--out`.
    async fn shrink_and_write(&self, steps: Vec<generate::Step>, finding: &Finding, count: u64, n: usize) {
        let length = steps.len();
        let mut replayer = shrink::Replayer {
            sides: self.sides,
            client: self.client,
            now: self.now,
            seed: self.cli.seed,
            replays: 0,
            budget: self.cli.shrink_budget,
        };
        let Some(shrunk) = shrink::shrink(&mut replayer, steps, finding).await else {
            println!("  not shrunk: replayed from the start, the {length} steps do not show it again");
            return;
        };
        println!("shrunk from {length} steps to {} ({} replays):", shrunk.steps.len(), shrunk.replays);
        let case = write::case_file(&shrunk, self.cli.seed, count as usize, self.now);
        let case = self.secrets.redact(&case);
        println!("{}", crate::escape::lines(&case));
        if let Some(dir) = &self.cli.out {
            let path = dir.join(format!("explore-seed-{}-{n}.yaml", self.cli.seed));
            let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, &case));
            match written {
                Ok(()) => println!("written: {}", path.display()),
                Err(e) => eprintln!("error: cannot write {}: {e}", path.display()),
            }
        }
    }
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
