//! Command-line options: the runner's own, grouped as `--help` shows them, then the usual
//! options of a cargo test harness (filter, `--exact`, `--skip`, `--list`, `--test-threads`,
//! `--format`, ...), which keep working so that `cargo test -- FILTER` and CI tools that speak
//! libtest can drive the suite.

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::harness::Format;
use crate::model::{Case, Level, Target};

/// Longest request timeout accepted, in seconds (a day).
pub const MAX_TIMEOUT: f64 = 86_400.0;

/// The default cap on a response body, in MiB.
pub const DEFAULT_MAX_RESPONSE_MIB: u64 = 64;

const LONG_ABOUT: &str = "\
Runs the conformance suite of the events-calendar REST interface: the case files it carries
(built in; --version names them) or those of --cases DIR, each case one test, against an
implementation at --base-url or, by default, against a fresh reference server started
in-process for each case. It prints one line per case, the failures with their requests as curl
commands, the share of passing cases per level (must, should, may) and a verdict: the
implementation conforms when every must case passes.

Commands:
  conformance [OPTIONS] [FILTER]     run the cases (this page)
  conformance coverage [OPTIONS]     which routes, parameters, fields and errors the cases cover
  conformance diff --a URL --b URL   send the cases' requests to two implementations, compare
  conformance explore --base-url URL generated sequences against the reference server, shrunk
  conformance schema                 print the JSON Schema of case files, for editors
  conformance cases export DIR       write the built-in case files into DIR, to read or change";

/// The runner's command line.
#[derive(Parser, Debug)]
#[command(name = "conformance", version, about = LONG_ABOUT, long_about = LONG_ABOUT, max_term_width = 100)]
pub struct Cli {
    /// `{base_url}` of the implementation under test, e.g.
    /// http://localhost:8080/wp-json. Before the first case the runner checks that
    /// {base_url}/{namespace} answers the namespace index and that every --auth is
    /// accepted. Without it, cases run against the embedded reference server.
    #[arg(verbatim_doc_comment, long, value_name = "URL", help_heading = "The implementation")]
    pub base_url: Option<String>,

    /// The credentials of a role that cases send with `auth: NAME` (NAME: a
    /// credential name, listed below); repeatable. The environment variable
    /// CONFORMANCE_AUTH_NAME (e.g. CONFORMANCE_AUTH_EDITOR=USER:PASSWORD) gives
    /// them too, out of sight of other processes. Cases that need a role without
    /// credentials are skipped.
    #[arg(verbatim_doc_comment, long = "auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth, help_heading = "The implementation")]
    pub auth: Vec<(String, String, String)>,

    /// Features the implementation lacks (comma-separated; listed below): cases
    /// that require them are skipped.
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "FEATURES",
        value_delimiter = ',',
        help_heading = "The implementation"
    )]
    pub without: Vec<String>,

    /// Without --base-url: start the embedded reference server as the twin of
    /// this release of the plugin (plugin-6.17.2), every quirk of the reference
    /// server's --help on, so the run shows what a real site running it scores.
    #[arg(verbatim_doc_comment, long, value_name = "RELEASE", help_heading = "The implementation")]
    pub like: Option<String>,

    /// Without --base-url: the embedded server reproduces this quirk of the
    /// plugin (repeatable; the names `reference-server --help` lists).
    #[arg(verbatim_doc_comment, long, value_name = "NAME", help_heading = "The implementation")]
    pub quirk: Vec<String>,

    /// The route namespace.
    #[arg(verbatim_doc_comment, long, default_value = "calendar/events/v1", help_heading = "The implementation")]
    pub namespace: String,

    /// The name the implementation gives the language parameter.
    #[arg(verbatim_doc_comment, long, default_value = "multilingual_language", help_heading = "The implementation")]
    pub language_param: String,

    /// A shell command that empties the outside server's store; run before each
    /// case that requires fresh-store (those cases then run one at a time).
    #[arg(verbatim_doc_comment, long, value_name = "CMD", help_heading = "The implementation")]
    pub reset_command: Option<String>,

    /// Timeout of each request, in seconds (up to a day).
    #[arg(verbatim_doc_comment, long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout, help_heading = "The implementation")]
    pub timeout: f64,

    /// Send every request on a new connection: an answer that leaves a kept-alive
    /// connection unusable then fails only its own step (compare a run with and
    /// without it to find such an answer).
    #[arg(verbatim_doc_comment, long, help_heading = "The implementation")]
    pub no_keep_alive: bool,

    /// The largest response body read, in MiB; a bigger one fails its step.
    #[arg(verbatim_doc_comment, long, value_name = "MIB", default_value_t = DEFAULT_MAX_RESPONSE_MIB, value_parser = clap::value_parser!(u64).range(1..=4096), help_heading = "The implementation")]
    pub max_response_size: u64,

    /// Also check every JSON answer against the OpenAPI document the implementation
    /// serves at {base_url}/{namespace}/doc (its schema for the route, method and
    /// status); an answer that differs fails its step.
    #[arg(verbatim_doc_comment, long, help_heading = "The implementation")]
    pub check_doc: bool,

    /// Skip the cleanup steps, and the deletion at the end of each case of what it
    /// created and did not delete, so that what the cases created stays for
    /// inspection (with --base-url only: the embedded server of a case stops when
    /// the case ends).
    #[arg(verbatim_doc_comment, long, help_heading = "The implementation")]
    pub keep_data: bool,

    /// A folder of case files to run instead of the built-in suite.
    #[arg(verbatim_doc_comment, long, value_name = "DIR", help_heading = "Which cases")]
    pub cases: Option<PathBuf>,

    /// Run only cases of these levels (comma-separated: must, should, may).
    #[arg(verbatim_doc_comment, long, value_name = "LEVELS", value_delimiter = ',', value_parser = parse_level, help_heading = "Which cases")]
    pub level: Vec<Level>,

    /// Run only cases that carry this tag (a case's tags and its file's; repeatable:
    /// any of them).
    #[arg(verbatim_doc_comment, long, value_name = "TAG", help_heading = "Which cases")]
    pub tag: Vec<String>,

    /// Run only cases whose every request goes to a route these patterns cover
    /// (repeatable): `[METHOD ]PATH`, where PATH is matched against the case's
    /// paths as written and `*` matches any text: `--route '/events*'` runs what
    /// an events-only implementation can pass, `--route 'GET /venues*'` the
    /// venue reads, `--route GET` the namespace index. A request with `url:`
    /// (outside the namespace) is covered only by a pattern for its URL path.
    #[arg(verbatim_doc_comment, long, value_name = "PATTERN", value_parser = parse_route, help_heading = "Which cases")]
    pub route: Vec<RoutePattern>,

    /// A file of test names known to fail (one a line, `#` comments): they do not
    /// fail the run, and one that passes does.
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Which cases")]
    pub expectations: Option<PathBuf>,

    /// Run only the cases that failed (or could not run: an error) in an earlier
    /// run's --json REPORT; the other selection options narrow them further.
    #[arg(verbatim_doc_comment, long, value_name = "REPORT", help_heading = "Which cases")]
    pub rerun_failed: Option<PathBuf>,

    /// Stop at the first case that fails: the cases not started by then are not
    /// run (reported as skipped). For a quick yes or no, as a mutation run wants.
    #[arg(verbatim_doc_comment, long, help_heading = "Which cases")]
    pub fail_fast: bool,

    /// After the run, write the names of the cases that failed to FILE, as an
    /// --expectations file (a header comment, then one name a line).
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Reports")]
    pub write_expectations: Option<PathBuf>,

    /// Write a JUnit XML report to FILE.
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Reports")]
    pub junit: Option<PathBuf>,

    /// Write a JSON report to FILE (bodies of failing steps only; see --json-full).
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Reports")]
    pub json: Option<PathBuf>,

    /// Keep the bodies of every step in the JSON report, passing ones included.
    #[arg(verbatim_doc_comment, long, requires = "json", help_heading = "Reports")]
    pub json_full: bool,

    /// Write an HTML report to FILE: one page, no outside assets.
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Reports")]
    pub html: Option<PathBuf>,

    /// Write one shell script per failing case into DIR: every step as curl,
    /// captured values filled in, after the command that starts the same server.
    #[arg(verbatim_doc_comment, long, value_name = "DIR", help_heading = "Reports")]
    pub repro: Option<PathBuf>,

    /// Show passwords in reports and scripts (they are replaced by *** otherwise).
    #[arg(verbatim_doc_comment, long, help_heading = "Reports")]
    pub show_credentials: bool,

    #[command(flatten)]
    pub harness: HarnessArgs,
}

/// The options every cargo test harness takes.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = "Test-harness options (as for any `cargo test`)")]
pub struct HarnessArgs {
    /// Run only the cases whose name (`FILE::CASE NAME`) contains one of the
    /// FILTERs (several may be given).
    #[arg(verbatim_doc_comment, value_name = "FILTER")]
    pub filter: Vec<String>,

    /// Each FILTER must be a whole name, as --list prints it.
    #[arg(verbatim_doc_comment, long)]
    pub exact: bool,

    /// Skip the cases whose name contains this text (repeatable).
    #[arg(verbatim_doc_comment, long, value_name = "TEXT")]
    pub skip: Vec<String>,

    /// List the selected cases' names, one a line, and run nothing.
    #[arg(verbatim_doc_comment, long)]
    pub list: bool,

    /// How many cases run at once (default: the number of cores; with --base-url,
    /// 64, as the cases then mostly wait on the network; fewer for a site that
    /// cannot serve that many requests at once).
    #[arg(verbatim_doc_comment, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub test_threads: Option<u16>,

    /// Output: pretty (a line per case), terse (a character per case) or json
    /// (libtest's events).
    #[arg(verbatim_doc_comment, long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Terse output.
    #[arg(verbatim_doc_comment, short, long)]
    pub quiet: bool,

    /// Colour: auto, always or never.
    #[arg(verbatim_doc_comment, long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorWhen,

    /// Run only ignored tests (no case is ignored: this selects nothing).
    #[arg(verbatim_doc_comment, long)]
    pub ignored: bool,

    /// Also run ignored tests (no case is ignored: this changes nothing).
    #[arg(verbatim_doc_comment, long)]
    pub include_ignored: bool,

    /// Accepted for compatibility; the runner never captures output.
    #[arg(verbatim_doc_comment, long)]
    pub nocapture: bool,

    /// Accepted for compatibility.
    #[arg(verbatim_doc_comment, long)]
    pub show_output: bool,

    // Options cargo or CI tools may pass to any test harness; accepted and ignored.
    #[arg(long, hide = true)]
    pub bench: bool,
    #[arg(long, hide = true)]
    pub test: bool,
    #[arg(short = 'Z', hide = true, value_name = "FLAG")]
    pub unstable: Vec<String>,
    #[arg(long, hide = true, value_name = "PATH")]
    pub logfile: Option<String>,
    #[arg(long, hide = true)]
    pub report_time: bool,
    #[arg(long, hide = true)]
    pub ensure_time: bool,
    #[arg(long, hide = true)]
    pub force_run_in_process: bool,
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Whether to colour output going to a stream that is (or is not) a terminal.
    pub fn wanted(self, terminal: bool) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => terminal && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

impl HarnessArgs {
    /// True when the selection options leave this name out.
    pub fn is_filtered_out(&self, name: &str) -> bool {
        let hit = |filter: &String| if self.exact { name == filter } else { name.contains(filter.as_str()) };
        if !self.filter.is_empty() && !self.filter.iter().any(hit) {
            return true;
        }
        if self.skip.iter().any(|skip| if self.exact { name == skip } else { name.contains(skip.as_str()) }) {
            return true;
        }
        // No case is marked ignored.
        self.ignored
    }

    /// The output format.
    pub fn format(&self) -> Format {
        if self.quiet {
            Format::Terse
        } else {
            self.format.unwrap_or(Format::Pretty)
        }
    }
}

impl Cli {
    /// Whether `--level`, `--tag` and `--route` keep the case (the name filters aside).
    pub fn selects(&self, case: &Case) -> bool {
        let level = self.level.is_empty() || self.level.contains(&case.level);
        let tag = self.tag.is_empty() || self.tag.iter().any(|t| case.tags.contains(t));
        let routes = self.route.is_empty() || {
            let requests = case.steps.iter().chain(&case.cleanup).map(|step| &step.request);
            requests.into_iter().all(|r| {
                let path = match &r.target {
                    Target::Path(t) | Target::Url(t) => t.source.as_str(),
                };
                self.route.iter().any(|pattern| pattern.covers(&r.method, path))
            })
        };
        level && tag && routes
    }

    /// The selection options given, for the message of a selection that matches nothing.
    pub fn selection_text(&self) -> String {
        let options = self.selection_options();
        if options.is_empty() {
            "the selection".into()
        } else {
            format!("the selection ({options})")
        }
    }

    /// The options that select cases, as the reports show them (`--route "/venues*", --level
    /// must`); empty when the whole suite is selected.
    pub fn selection_options(&self) -> String {
        let harness = &self.harness;
        let mut parts = Vec::new();
        if !harness.filter.is_empty() {
            let plural = if harness.filter.len() == 1 { "" } else { "s" };
            let exact = if harness.exact { " (--exact)" } else { "" };
            parts.push(format!("the filter{plural} {}{exact}", quoted_list(&harness.filter)));
        }
        if !self.tag.is_empty() {
            parts.push(format!("--tag {}", quoted_list(&self.tag)));
        }
        if !self.route.is_empty() {
            let routes: Vec<String> = self.route.iter().map(|r| r.text.clone()).collect();
            parts.push(format!("--route {}", quoted_list(&routes)));
        }
        for skip in &harness.skip {
            parts.push(format!("--skip {skip:?}"));
        }
        if !self.level.is_empty() {
            let levels: Vec<&str> = self.level.iter().map(|l| l.name()).collect();
            parts.push(format!("--level {}", levels.join(",")));
        }
        if harness.ignored {
            parts.push("--ignored (no case is marked ignored)".into());
        }
        if let Some(report) = &self.rerun_failed {
            parts.push(format!("--rerun-failed {:?}", report.display().to_string()));
        }
        parts.join(", ")
    }
}

/// What `--help` prints after the options, wrapped to 90 columns.
fn after_help() -> String {
    wrap(&format!(
        "{}\n{}\nExit status: 0 when every selected case passed, was skipped or failed as --expectations \
         expects; 101 when a case failed (at any level: --level must gates on the verdict alone); 2 when \
         case files could not be loaded, an option is wrong, nothing was selected or pre-flight failed.\n\n\
         Examples:\n  conformance                                     # every case, embedded reference server\n  \
         conformance --base-url http://host/wp-json --auth editor=USER:PASS --html report.html\n  \
         conformance 'events/create::' --repro repro/    # one file's cases; a script per failure\n  \
         conformance --list | grep venues                # the names --exact and FILTER take\n  \
         conformance cases export my-cases/              # the built-in case files, to read or change",
        crate::features::help(),
        crate::credentials::help()
    ))
}

/// Wraps lines longer than 90 characters at spaces; a continuation lines up with the text
/// after the first run of two spaces (a definition list) or with the line's indentation.
fn wrap(text: &str) -> String {
    const WIDTH: usize = 90;
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= WIDTH {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let hang = line[indent..]
            .find("  ")
            .map(|i| indent + i + 2 + line[indent + i + 2..].len() - line[indent + i + 2..].trim_start().len())
            .unwrap_or(indent);
        let pad = " ".repeat(hang);
        let mut current = " ".repeat(indent);
        for word in line.trim_start().split(' ') {
            if !current.trim().is_empty() && current.chars().count() + 1 + word.chars().count() > WIDTH {
                out.push_str(current.trim_end());
                out.push('\n');
                current = pad.clone();
            } else if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// Parses the runner's command line (`args[0]` is the program name).
pub fn parse(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    let matches = Cli::command().after_long_help(after_help()).after_help(after_help()).try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

pub(crate) fn parse_auth(text: &str) -> Result<(String, String, String), String> {
    let (name, rest) = text.split_once('=').ok_or("expected NAME=USER:PASSWORD")?;
    let (user, password) = rest.split_once(':').ok_or("expected NAME=USER:PASSWORD")?;
    if name.is_empty() || user.is_empty() {
        return Err("the credential name and the user must not be empty".into());
    }
    Ok((name.to_string(), user.to_string(), password.to_string()))
}

pub(crate) fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text.trim()).ok_or_else(|| format!("unknown level `{text}`: use must, should or may"))
}

/// Shortest request timeout accepted, in seconds: below it every request would time out
/// before an answer could come, even from a server on the same machine.
const MIN_TIMEOUT: f64 = 0.01;

/// A timeout in seconds: at least [`MIN_TIMEOUT`] and at most a day (a bigger one cannot become
/// a `Duration` on every platform, and no request needs it).
pub(crate) fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if (MIN_TIMEOUT..=MAX_TIMEOUT).contains(&seconds) => Ok(seconds),
        _ => Err(format!("expected a number of seconds from {MIN_TIMEOUT} to {MAX_TIMEOUT}")),
    }
}

/// Prints the JSON Schema of case files on standard output. YAML editors use it to complete
/// and check case files; the repository keeps a copy as docs/case.schema.json.
#[derive(Parser, Debug)]
#[command(name = "conformance schema", version)]
pub struct SchemaCli {}

/// Reads the case files (without running them) and prints, for every route × method, list
/// parameter, write field (create and update) and error code of the interface, how many cases
/// touch it. See docs/coverage.md.
#[derive(Parser, Debug)]
#[command(
    name = "conformance coverage",
    version,
    after_help = "Exit status: 0 when every item of the interface has a case, 1 when an item has none, 2 when case files could not be loaded or the options are wrong."
)]
pub struct CoverageCli {
    /// A folder of case files to measure instead of the built-in suite.
    #[arg(verbatim_doc_comment, long, value_name = "DIR")]
    pub cases: Option<PathBuf>,

    /// Also write the matrix as JSON to FILE.
    #[arg(verbatim_doc_comment, long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// The route namespace (to recognise `url` requests inside it).
    #[arg(verbatim_doc_comment, long, default_value = "calendar/events/v1")]
    pub namespace: String,

    /// The name the implementation gives the language parameter (the item's name).
    #[arg(verbatim_doc_comment, long, default_value = "multilingual_language")]
    pub language_param: String,

    /// Colour: auto, always or never.
    #[arg(verbatim_doc_comment, long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorWhen,
}

/// The case files the runner carries (built in when it was built; --version names them).
#[derive(Parser, Debug)]
#[command(name = "conformance cases", version)]
pub struct CasesCli {
    #[command(subcommand)]
    pub command: CasesCommand,
}

/// What `conformance cases` does.
#[derive(Subcommand, Debug)]
pub enum CasesCommand {
    /// Write the built-in case files into DIR, under their names in cases/.
    ///
    /// Writes the built-in case files into DIR (created if missing) under their names in
    /// cases/, to read them, or change them and run the copy with --cases DIR. Without
    /// --force, a file of DIR that has the name of a case file stops the export before
    /// anything is written. Other files of DIR are left alone.
    #[command(verbatim_doc_comment)]
    Export {
        /// The folder to write into.
        dir: PathBuf,
        /// Replace files of DIR that have the name of a case file of the suite.
        #[arg(long)]
        force: bool,
    },
}

fn quoted_list(items: &[String]) -> String {
    items.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ")
}

/// A `--route` pattern: an optional method and a path glob.
#[derive(Clone, Debug)]
pub struct RoutePattern {
    /// As given, for messages.
    pub text: String,
    method: Option<String>,
    path: regex::Regex,
}

impl RoutePattern {
    /// Whether a request (its method, its path or URL as written in the case file) is covered.
    pub fn covers(&self, method: &str, path: &str) -> bool {
        self.method.as_ref().is_none_or(|m| m.eq_ignore_ascii_case(method)) && self.path.is_match(path)
    }
}

fn parse_route(text: &str) -> Result<RoutePattern, String> {
    let trimmed = text.trim();
    let (method, path) = match trimmed.split_once(char::is_whitespace) {
        Some((method, path)) => (Some(method.to_ascii_uppercase()), path.trim()),
        // A method alone (`GET`): the namespace index, whose path is empty.
        None if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_uppercase()) => (Some(trimmed.into()), ""),
        None => (None, trimmed),
    };
    if let Some(m) = &method {
        if !m.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(format!("{m:?} is not a method: write [METHOD ]PATH, e.g. 'GET /events*'"));
        }
    }
    if !path.starts_with('/') && !path.starts_with('*') && !path.is_empty() {
        return Err(format!("the path {path:?} starts with / or *: e.g. '/events*'"));
    }
    let glob: Vec<String> = path.split('*').map(regex::escape).collect();
    let path = regex::Regex::new(&format!("^{}$", glob.join(".*"))).map_err(|e| e.to_string())?;
    Ok(RoutePattern { text: trimmed.to_string(), method, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_args(args: &[&str]) -> Result<Cli, clap::Error> {
        let args: Vec<std::ffi::OsString> =
            std::iter::once("conformance").chain(args.iter().copied()).map(Into::into).collect();
        parse(&args)
    }

    #[test]
    fn timeouts_and_thread_counts_are_bounded() {
        assert!(parse_args(&["--timeout", "1e20"]).is_err(), "R2: 1e20 s used to panic");
        assert!(parse_args(&["--timeout", "0"]).is_err());
        assert!(parse_args(&["--timeout", "NaN"]).is_err());
        assert!(parse_args(&["--timeout", "1e-300"]).is_err(), "h17: every request timed out");
        assert!(parse_args(&["--timeout", "0.009"]).is_err());
        assert_eq!(parse_args(&["--timeout", "0.01"]).unwrap().timeout, 0.01);
        assert_eq!(parse_args(&["--timeout", "0.5"]).unwrap().timeout, 0.5);
        assert!(parse_args(&["--test-threads", "0"]).is_err(), "R3: 0 threads used to hang");
        assert_eq!(parse_args(&["--test-threads", "3"]).unwrap().harness.test_threads, Some(3));
    }

    #[test]
    fn harness_options_keep_working() {
        let cli = parse_args(&[
            "--exact",
            "a::b",
            "--skip",
            "x",
            "--format",
            "terse",
            "-Z",
            "unstable-options",
            "--bench",
            "--nocapture",
        ])
        .unwrap();
        assert!(!cli.harness.is_filtered_out("a::b"));
        assert!(cli.harness.is_filtered_out("a::bc"));
        assert_eq!(cli.harness.format(), Format::Terse);
        let cli = parse_args(&["b", "--skip", "ab"]).unwrap();
        assert!(cli.harness.is_filtered_out("ab"));
        assert!(!cli.harness.is_filtered_out("cb"));
    }

    #[test]
    fn the_help_reads_top_to_bottom() {
        let mut command = Cli::command().after_help(after_help()).after_long_help(after_help());
        for help in [command.render_help().to_string(), command.render_long_help().to_string()] {
            check_order(&help);
        }
    }

    fn check_order(help: &str) {
        let order = [
            "Runs the conformance suite",
            "conformance coverage",
            "conformance schema",
            "conformance cases export DIR",
            "The implementation:",
            "--base-url",
            "Which cases:",
            "Reports:",
            "--repro",
            "Test-harness options (as for any `cargo test`):",
            "--exact",
            "Features (for --without",
            "Credential names",
            "Exit status:",
        ];
        let mut from = 0;
        for needle in order {
            let at =
                help[from..].find(needle).unwrap_or_else(|| panic!("{needle:?} missing or out of order in:\n{help}"));
            from += at;
        }
        for hidden in ["--bench", "--logfile", "-Z"] {
            assert!(!help.contains(hidden), "{hidden} is for tools, not users:\n{help}");
        }
    }

    #[test]
    fn several_filters_select_any_of_them() {
        let cli = parse_args(&["events/create::", "venues/"]).unwrap();
        assert!(!cli.harness.is_filtered_out("events/create::x"));
        assert!(!cli.harness.is_filtered_out("venues/list::y"));
        assert!(cli.harness.is_filtered_out("organizers/list::z"));
        let cli = parse_args(&["--exact", "a::b", "c::d"]).unwrap();
        assert!(!cli.harness.is_filtered_out("c::d"));
        assert!(cli.harness.is_filtered_out("c::de"));
    }

    #[test]
    fn route_patterns_take_an_optional_method_and_a_glob() {
        let any = parse_route("/events*").unwrap();
        assert!(any.covers("GET", "/events") && any.covers("DELETE", "/events/{{event_id}}"));
        assert!(!any.covers("GET", "/venues") && !any.covers("GET", "/x/events"));
        let get = parse_route("get /venues/*").unwrap();
        assert!(
            get.covers("GET", "/venues/{{id}}") && !get.covers("POST", "/venues/1") && !get.covers("GET", "/venues")
        );
        let index = parse_route("GET").unwrap();
        assert!(index.covers("GET", "") && !index.covers("GET", "/events"));
        assert!(parse_route("G?T /events").is_err());
        assert!(parse_route("events").is_err());
        let literal = parse_route("/a.b").unwrap();
        assert!(literal.covers("GET", "/a.b") && !literal.covers("GET", "/axb"), "only * is special");
    }

    #[test]
    fn tags_and_routes_select_whole_cases() {
        let source = r#"
level: must
spec: ["4.2"]
tags: [events]
cases:
  - {name: events only, steps: [{request: {path: /events}}, {request: {method: POST, path: /events}}]}
  - {name: with a venue, tags: [venues], steps: [{request: {path: /events}}, {request: {path: "/venues/{{x}}"}}],
     vars: {x: 1}}
  - {name: cleans a venue, steps: [{request: {path: /events}}], cleanup: [{request: {method: DELETE, path: /venues/1}}]}
"#;
        let loaded = crate::loader::load_source("t", "t.yaml", source);
        let crate::model::Loaded::File(file) = loaded else { panic!("{loaded:?}") };
        let chosen = |args: &[&str]| -> Vec<String> {
            let cli = parse_args(args).unwrap();
            file.cases.iter().filter(|c| cli.selects(c)).map(|c| c.name.trim_start_matches("t::").to_string()).collect()
        };
        assert_eq!(chosen(&[]).len(), 3);
        assert_eq!(chosen(&["--route", "/events*"]), ["events only"]);
        assert_eq!(chosen(&["--route", "GET /events*"]), Vec::<String>::new());
        assert_eq!(chosen(&["--route", "/events*", "--route", "/venues*"]).len(), 3);
        assert_eq!(chosen(&["--tag", "venues"]), ["with a venue"]);
        assert_eq!(chosen(&["--tag", "events", "--tag", "nothing"]).len(), 3);
        assert_eq!(chosen(&["--tag", "venues", "--level", "should"]), Vec::<String>::new());
    }
}
