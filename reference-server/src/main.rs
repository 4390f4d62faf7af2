//! `reference-server`: runs the reference server from the command line.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::{DateTime, Utc};
use clap::Parser;
use reference_server::{serve, Config, FaultRule, Features, FixtureErrors, Limits, Quirks, StubErrors, UserSpec};

/// The reference server of the events-calendar REST interface: every route, filter, field
/// and error of the interface, in memory, answering as a real site does.
#[derive(Parser, Debug)]
#[command(name = "reference-server", version, after_help = quirks_help())]
struct Cli {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// REST root path, before the namespace.
    #[arg(long, default_value = "/wp-json")]
    root: String,
    /// Route namespace.
    #[arg(long, default_value = "calendar/events/v1")]
    namespace: String,
    /// Name of the language parameter.
    #[arg(long, default_value = "multilingual_language")]
    language_param: String,
    /// Public address of the site used in links (default: http://LISTEN-ADDRESS).
    #[arg(long)]
    site_url: Option<String>,
    /// Site time zone: an IANA name (Europe/Paris) or UTC±N.
    #[arg(long, default_value = "UTC")]
    timezone: String,
    /// A user NAME:PASSWORD:ROLE (repeatable; replaces the five default users). Roles:
    /// administrator, editor, author, contributor, subscriber. IDs are 1, 2, 3… in order. The
    /// password is everything between the first and the last colon; names must differ.
    #[arg(long = "user", value_name = "NAME:PASSWORD:ROLE", value_parser = UserSpec::parse)]
    users: Vec<UserSpec>,
    /// Start the server's clock at this instant (RFC 3339); it runs on from there.
    #[arg(long, value_name = "INSTANT")]
    clock: Option<DateTime<Utc>>,
    /// Load a demo calendar: upcoming events with venues, organizers, categories and tags.
    #[arg(long)]
    demo: bool,
    /// Load a fixture file at start (JSON, or YAML for .yaml/.yml): users, categories, tags,
    /// venues, organizers and events, dates relative to the clock allowed. See the README.
    #[arg(long, value_name = "FILE")]
    fixtures: Option<PathBuf>,
    /// Load N generated events (with venues, organizers, categories and tags) for benchmarks:
    /// deterministic for a given N and --clock; combines with --demo (loaded after it).
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed_events: usize,
    /// Behave as a site without these extensions: geoloc, tickets, series, event-password
    /// (comma-separated; the names the conformance runner's --without takes, which lists them
    /// all in its --help; the server always has the others).
    #[arg(long, value_name = "FEATURES", default_value = "")]
    without: String,
    /// Answer as a real site running this release of the plugin does wherever the two differ:
    /// every quirk below (plugin-6.17.2). The default is the interface's reference.
    #[arg(long, value_name = "RELEASE")]
    like: Option<String>,
    /// Reproduce one quirk of the plugin (repeatable; with --like, adds nothing): see the list
    /// below and docs/behaviour.md, Quirks.
    #[arg(long = "quirk", value_name = "NAME")]
    quirks: Vec<String>,
    /// Let browser pages from this origin (https://app.example) read answers and write, with
    /// credentials (repeatable). Without it every origin may: see the README for the risk.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    cors_origins: Vec<String>,
    /// Seconds a client has to send a request's head (request line and headers).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    header_timeout: Duration,
    /// Seconds a client has to send a request's body, once its head is in.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    body_timeout: Duration,
    /// Seconds a kept-alive connection may wait for its next request.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    idle_timeout: Duration,
    /// Connections served at once; more wait in the listen queue.
    #[arg(long, value_name = "N", default_value = "512")]
    max_connections: usize,
    /// MiB that request bodies being received may hold together (at least 8).
    #[arg(long, value_name = "MIB", default_value = "64")]
    body_memory: usize,
    /// Keep the store in this file across restarts (created if missing). Every write is on
    /// disk before it is answered.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Compact the state file once the records since its last image pass this many bytes
    /// (and the image's own size).
    #[arg(long, value_name = "BYTES", default_value = "4194304")]
    state_compact_bytes: u64,
    /// Serve the admin API (reset, seed, clock, request journal, faults) and the request
    /// journal page under /__admin. For local testing: anyone who reaches the port may use it.
    #[arg(long)]
    admin: bool,
    /// A fault rule (repeatable): KIND,KEY=VALUE,… with the admin API's keys, e.g.
    /// `error,status=503,rate=5%,route=/events*,method=POST` or `latency,ms=100-300`.
    #[arg(long = "fault", value_name = "RULE", value_parser = FaultRule::from_flag)]
    faults: Vec<FaultRule>,
    /// The seed of the fault rules' draws (each rule adds its ID unless it names a seed).
    #[arg(long, value_name = "N", default_value = "0")]
    fault_seed: u64,
    /// How many requests the request journal keeps.
    #[arg(long, value_name = "N", default_value = "1000")]
    journal_size: usize,
    /// A file of stubbed answers (repeatable; YAML for .yaml/.yml, else JSON): one stub or a
    /// list of them, as the admin API's POST /__admin/stubs takes them.
    #[arg(long = "stub", value_name = "FILE")]
    stub_files: Vec<std::path::PathBuf>,
    /// Be a checking proxy in front of a real site: forward every request under the REST root
    /// to URL (the site's base URL, e.g. https://example.org/wp-json), return its answer
    /// unchanged, and note what breaks the interface (in the log; with --admin, in the journal).
    #[arg(long, value_name = "URL")]
    proxy_to: Option<String>,
    /// With --proxy-to: write the exchanges into this folder as a case file that the
    /// conformance runner replays (conformance --cases DIR --base-url ...). No credentials are
    /// written: a request with those of a --user is recorded with that user's role.
    #[arg(long, value_name = "DIR", requires = "proxy_to")]
    record: Option<PathBuf>,
}

/// The quirks `--quirk` takes, for the end of `--help`.
fn quirks_help() -> String {
    format!(
        "Quirks (--quirk NAME; --like plugin-6.17.2 turns on all of them):\n{}",
        reference_server::quirks::help_list()
    )
}

/// A duration in seconds, fractions allowed (`0.5`); shorter than 0.1 s, no client could
/// send a request in time.
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs >= 0.1 && *secs < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("expected a number of seconds of at least 0.1 (and under 1e9), got {text:?}"))
}

/// A faster allocator than the system's for many small, short-lived allocations across threads,
/// with `--features jemalloc` (see `Cargo.toml`).
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let mut cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal, not for a log file or a pipe.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let users = if cli.users.is_empty() { UserSpec::defaults() } else { std::mem::take(&mut cli.users) };
    if let Err(message) = UserSpec::check_unique(&users) {
        eprintln!("reference-server: {message}");
        return ExitCode::from(2);
    }
    let (features, quirks) = match features_and_quirks(&cli) {
        Ok(both) => both,
        Err(message) => {
            eprintln!("reference-server: {message}");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        listen: cli.listen,
        root: format!("/{}", cli.root.trim_matches('/')),
        namespace: cli.namespace.trim_matches('/').to_string(),
        language_param: cli.language_param,
        site_url: cli.site_url,
        timezone: cli.timezone,
        users,
        clock: cli.clock,
        demo: cli.demo,
        fixtures: cli.fixtures,
        seed_events: cli.seed_events,
        features,
        quirks,
        limits: Limits {
            header_timeout: cli.header_timeout,
            body_timeout: cli.body_timeout,
            idle_timeout: cli.idle_timeout,
            max_connections: cli.max_connections.max(1),
            body_memory: cli.body_memory.saturating_mul(1024 * 1024),
        },
        cors_origins: cli.cors_origins,
        state: cli.state,
        state_compact_bytes: cli.state_compact_bytes,
        admin: cli.admin,
        faults: cli.faults,
        fault_seed: cli.fault_seed,
        journal_size: cli.journal_size.min(100_000),
        stub_files: cli.stub_files,
        proxy_to: cli.proxy_to,
        record: cli.record,
    };
    let server = match serve(config).await {
        Ok(server) => server,
        Err(error) => {
            let inner = error.get_ref();
            if let Some(fixture) = inner.and_then(|inner| inner.downcast_ref::<FixtureErrors>()) {
                return problems(&fixture.lines, "the fixture");
            }
            if let Some(stubs) = inner.and_then(|inner| inner.downcast_ref::<StubErrors>()) {
                return problems(&stubs.lines, "the stubs");
            }
            eprintln!("reference-server: cannot start: {error}");
            return ExitCode::from(1);
        }
    };
    print_start_lines(&server);
    wait_for_stop().await;
    server.shutdown().await;
    ExitCode::SUCCESS
}

/// The features of `--without` and the quirks of `--like` and `--quirk`; the quirks that are on
/// are named in the log.
fn features_and_quirks(cli: &Cli) -> Result<(Features, Quirks), String> {
    let features = Features::default().without(&cli.without)?;
    let quirks = Quirks::from_flags(cli.like.as_deref(), &cli.quirks)?;
    if !quirks.is_empty() {
        let names: Vec<&str> = quirks.specs().map(|spec| spec.name).collect();
        eprintln!("reference-server: quirks of the plugin on: {}", names.join(", "));
    }
    Ok((features, quirks))
}

/// Prints the problems of a file read at start, one a line, and exits with 2.
fn problems(lines: &[String], what: &str) -> ExitCode {
    for line in lines {
        eprintln!("{line}");
    }
    eprintln!("reference-server: {what} cannot be loaded ({} problem(s))", lines.len());
    ExitCode::from(2)
}

/// The address, then one line per user, on stdout. Written without `println!`, which panics when
/// nobody reads stdout any more (a closed pipe): the server goes on serving all the same.
fn print_start_lines(server: &reference_server::RunningServer) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", server.api_url());
    for line in user_lines(server.users()) {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// One line per user: a built-in default user with its password (which anyone can read in the
/// docs), any other (given with `--user` or in a fixture) by name and role only, so that a
/// real password never lands in a log that keeps the start lines.
fn user_lines(users: &[UserSpec]) -> Vec<String> {
    let defaults = UserSpec::defaults();
    users
        .iter()
        .map(|user| match defaults.contains(user) {
            true => format!("user {}:{} ({})", user.name, user.password, user.role.name()),
            false => format!("user {} ({})", user.name, user.role.name()),
        })
        .collect()
}

/// Ctrl-C, or SIGTERM on Unix.
async fn wait_for_stop() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
