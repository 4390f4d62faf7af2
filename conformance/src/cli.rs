//! Command-line options: the runner's own, plus libtest's (filter, `--exact`, `--skip`,
//! `--list`, `--ignored`, `--test-threads`, `--format`, `--nocapture`, ...).

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::model::Level;

/// Runs the conformance suite against an implementation of the events-calendar interface.
///
/// Without --base-url it starts the reference server in-process, a fresh one for each case.
/// `conformance schema` prints the JSON Schema of case files; `conformance coverage` prints
/// which parts of the interface the cases cover (`conformance coverage --help`).
#[derive(Parser, Debug)]
#[command(name = "conformance", version)]
pub struct Cli {
    /// `{base_url}` of the implementation under test, e.g. http://localhost:8080/wp-json.
    /// Before the first case the runner checks that {base_url}/{namespace} answers the
    /// namespace index and that every --auth is accepted.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// The credentials of a role (NAME: administrator, editor, author, contributor or
    /// subscriber) that cases send with `auth: NAME`; repeatable. Cases that need a role
    /// without credentials are skipped.
    #[arg(long = "auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth)]
    pub auth: Vec<(String, String, String)>,

    /// The route namespace.
    #[arg(long, default_value = "calendar/events/v1")]
    pub namespace: String,

    /// The name the implementation gives the language parameter.
    #[arg(long, default_value = "multilingual_language")]
    pub language_param: String,

    /// Features the implementation lacks (comma-separated, e.g. geoloc,tickets; the list is
    /// below): cases that require them are skipped.
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub without: Vec<String>,

    /// A shell command that empties the outside server's store; run before each case that
    /// requires fresh-store (those cases then run one at a time).
    #[arg(long, value_name = "CMD")]
    pub reset_command: Option<String>,

    /// Timeout of each request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,

    /// The folder of case files.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,

    /// Run only cases of these levels (comma-separated: must, should, may).
    #[arg(long, value_name = "LEVELS", value_delimiter = ',', value_parser = parse_level)]
    pub level: Vec<Level>,

    /// Write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Write a JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// A file of test names known to fail (one a line, `#` comments).
    #[arg(long, value_name = "FILE")]
    pub expectations: Option<PathBuf>,

    #[command(flatten)]
    pub libtest: libtest_mimic::Arguments,
}

impl Cli {
    /// The selection options given, for the message of a selection that matches nothing.
    pub fn selection_text(&self) -> String {
        let libtest = &self.libtest;
        let mut parts = Vec::new();
        if let Some(filter) = &libtest.filter {
            parts.push(format!("the filter {filter:?}{}", if libtest.exact { " (--exact)" } else { "" }));
        }
        for skip in &libtest.skip {
            parts.push(format!("--skip {skip:?}"));
        }
        if !self.level.is_empty() {
            let levels: Vec<&str> = self.level.iter().map(|l| l.name()).collect();
            parts.push(format!("--level {}", levels.join(",")));
        }
        if libtest.ignored {
            parts.push("--ignored (no case is marked ignored)".into());
        }
        if parts.is_empty() {
            "the selection".into()
        } else {
            format!("the selection ({})", parts.join(", "))
        }
    }
}

/// What `--help` prints after the options.
fn after_help() -> String {
    format!(
        "{}\n{}\nExit status: 0 when every selected case passed (expected failures aside), 101 when a case failed, \
         2 when case files could not be loaded, the options are wrong or nothing was selected.",
        crate::features::help(),
        crate::credentials::help()
    )
}

/// Parses the runner's command line (`args[0]` is the program name).
pub fn parse(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    let matches = Cli::command().after_help(after_help()).try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

fn parse_auth(text: &str) -> Result<(String, String, String), String> {
    let (name, rest) = text.split_once('=').ok_or("expected NAME=USER:PASSWORD")?;
    let (user, password) = rest.split_once(':').ok_or("expected NAME=USER:PASSWORD")?;
    if name.is_empty() || user.is_empty() {
        return Err("the credential name and the user must not be empty".into());
    }
    Ok((name.to_string(), user.to_string(), password.to_string()))
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text.trim()).ok_or_else(|| format!("unknown level `{text}`: use must, should or may"))
}

/// Reads the case files (without running them) and prints, for every route × method, list
/// parameter, write field (create and update) and error code of the interface, how many cases
/// touch it. See docs/coverage.md.
#[derive(Parser, Debug)]
#[command(
    name = "conformance coverage",
    after_help = "Exit status: 0 when every item of the interface has a case, 1 when an item has none, 2 when case files could not be loaded or the options are wrong."
)]
pub struct CoverageCli {
    /// The folder of case files.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,

    /// Also write the matrix as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// The route namespace (to recognise `url` requests inside it).
    #[arg(long, default_value = "calendar/events/v1")]
    pub namespace: String,

    /// The name the implementation gives the language parameter (the item's name).
    #[arg(long, default_value = "multilingual_language")]
    pub language_param: String,

    /// Colour: auto, always or never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}
