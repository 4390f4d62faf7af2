//! The command line of `conformance diff`: the two implementations (options without a side
//! prefix apply to both, `--a-…` and `--b-…` override them for one side), which cases, what to
//! compare, and the report.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::Parser;

use crate::cli::{parse_auth, parse_level, parse_timeout, ColorWhen, DEFAULT_MAX_RESPONSE_MIB};
use crate::model::Level;
use crate::runner::Endpoint;

const ABOUT: &str = "\
Sends the requests of the selected cases to two implementations in step, A and B, and compares
their answers: status, error code, headers, and every key and value of the JSON bodies, after
normalising what legitimately differs between two sites (IDs, server clocks, host names and
base addresses, the namespace and the language parameter's name). Each side runs the case's
steps with its own captured values. It reports every difference with its JSON path and both
values, grouped by route, and the agreement: the share of exchanges on which the two agree.

Options without a side prefix apply to both sides; --a-OPTION and --b-OPTION override them for
one side (--a-auth adds to or replaces --auth for A, name by name).";

const AFTER: &str = "\
The cases run one at a time (so that lists see the same data on both sides), every step sent to
A and B together; a case's expectations are not checked: a difference is a finding, not a
failure. Cases that need credentials one side lacks, features --without names, or a fresh store
without a reset command on both sides are skipped.

Exit status: 0 when the comparison ran, whatever it found (1 with --fail-on-difference when a
difference was found); 2 when an option is wrong, the cases do not load, nothing is selected or
a side fails pre-flight (it cannot be reached, is not an API root of this interface, or refuses
credentials).

Example:
  conformance diff --a http://127.0.0.1:8080/wp-json --b http://site.example/wp-json \\
      --b-namespace tribe/events/v1 --b-language-param wpml_language \\
      --auth editor=editor:editor-password --b-auth editor=USER:APP-PASSWORD --json diff.json";

/// `conformance diff`.
#[derive(Parser, Debug)]
#[command(name = "conformance diff", version, about = ABOUT, long_about = ABOUT, after_help = AFTER, max_term_width = 100)]
pub struct DiffCli {
    /// `{base_url}` of implementation A, e.g. http://localhost:8080/wp-json.
    #[arg(verbatim_doc_comment, long = "a", value_name = "URL", help_heading = "The two implementations")]
    pub a: String,

    /// `{base_url}` of implementation B.
    #[arg(verbatim_doc_comment, long = "b", value_name = "URL", help_heading = "The two implementations")]
    pub b: String,

    /// Credentials of a role, for both sides (repeatable).
    #[arg(verbatim_doc_comment, long = "auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth, help_heading = "The two implementations")]
    pub auth: Vec<(String, String, String)>,

    /// Credentials of a role on A only (they replace --auth NAME there).
    #[arg(verbatim_doc_comment, long = "a-auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth, help_heading = "The two implementations")]
    pub a_auth: Vec<(String, String, String)>,

    /// Credentials of a role on B only.
    #[arg(verbatim_doc_comment, long = "b-auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth, help_heading = "The two implementations")]
    pub b_auth: Vec<(String, String, String)>,

    /// The route namespace of both sides.
    #[arg(verbatim_doc_comment, long, default_value = "calendar/events/v1", help_heading = "The two implementations")]
    pub namespace: String,

    /// The route namespace of A.
    #[arg(verbatim_doc_comment, long, value_name = "NAMESPACE", help_heading = "The two implementations")]
    pub a_namespace: Option<String>,

    /// The route namespace of B.
    #[arg(verbatim_doc_comment, long, value_name = "NAMESPACE", help_heading = "The two implementations")]
    pub b_namespace: Option<String>,

    /// The language parameter's name on both sides.
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "NAME",
        default_value = "multilingual_language",
        help_heading = "The two implementations"
    )]
    pub language_param: String,

    /// The language parameter's name on A.
    #[arg(verbatim_doc_comment, long, value_name = "NAME", help_heading = "The two implementations")]
    pub a_language_param: Option<String>,

    /// The language parameter's name on B.
    #[arg(verbatim_doc_comment, long, value_name = "NAME", help_heading = "The two implementations")]
    pub b_language_param: Option<String>,

    /// A shell command that empties A's store (cases that require fresh-store
    /// run only when both sides have one).
    #[arg(verbatim_doc_comment, long, value_name = "CMD", help_heading = "The two implementations")]
    pub a_reset_command: Option<String>,

    /// A shell command that empties B's store.
    #[arg(verbatim_doc_comment, long, value_name = "CMD", help_heading = "The two implementations")]
    pub b_reset_command: Option<String>,

    /// Timeout of each request, in seconds (up to a day).
    #[arg(verbatim_doc_comment, long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout, help_heading = "The two implementations")]
    pub timeout: f64,

    /// The largest response body read, in MiB.
    #[arg(verbatim_doc_comment, long, value_name = "MIB", default_value_t = DEFAULT_MAX_RESPONSE_MIB, value_parser = clap::value_parser!(u64).range(1..=4096), help_heading = "The two implementations")]
    pub max_response_size: u64,

    /// The folder of case files.
    #[arg(verbatim_doc_comment, long, value_name = "DIR", help_heading = "Which cases")]
    pub cases: Option<PathBuf>,

    /// Only cases whose name (`FILE::CASE NAME`) contains FILTER.
    #[arg(verbatim_doc_comment, value_name = "FILTER", help_heading = "Which cases")]
    pub filter: Option<String>,

    /// FILTER must be a whole name.
    #[arg(verbatim_doc_comment, long, help_heading = "Which cases")]
    pub exact: bool,

    /// Leave out the cases whose name contains this text (repeatable).
    #[arg(verbatim_doc_comment, long, value_name = "TEXT", help_heading = "Which cases")]
    pub skip: Vec<String>,

    /// Only cases of these levels (comma-separated: must, should, may).
    #[arg(verbatim_doc_comment, long, value_name = "LEVELS", value_delimiter = ',', value_parser = parse_level, help_heading = "Which cases")]
    pub level: Vec<Level>,

    /// Leave out the cases that require these features (comma-separated).
    #[arg(verbatim_doc_comment, long, value_name = "FEATURES", value_delimiter = ',', help_heading = "Which cases")]
    pub without: Vec<String>,

    /// A key whose values are not compared, only its presence (repeatable), e.g.
    /// json_ld against a real site.
    #[arg(verbatim_doc_comment, long, value_name = "KEY", help_heading = "Comparing")]
    pub ignore: Vec<String>,

    /// How far apart two server-clock timestamps (date, date_utc, modified,
    /// modified_utc) may be, in seconds, once the clocks' difference is taken out.
    #[arg(verbatim_doc_comment, long, value_name = "SECONDS", default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=86_400), help_heading = "Comparing")]
    pub clock_tolerance: u32,

    /// The instant the cases' dates are computed from ({{now}}, date(+5d)), as
    /// RFC 3339 (default: the current time, for each case). Give the servers'
    /// own --clock for a comparison that does not depend on the time of day.
    #[arg(verbatim_doc_comment, long, value_name = "INSTANT", value_parser = parse_instant, help_heading = "Comparing")]
    pub clock: Option<DateTime<Utc>>,

    /// Exit with status 1 when a difference is found.
    #[arg(verbatim_doc_comment, long, help_heading = "Report")]
    pub fail_on_difference: bool,

    /// Also write the comparison as JSON to FILE: the summary, the differences by
    /// route, and every exchange's differences.
    #[arg(verbatim_doc_comment, long, value_name = "FILE", help_heading = "Report")]
    pub json: Option<PathBuf>,

    /// How many example differences the terminal shows per route (each with its
    /// path, both values and how often it occurred).
    #[arg(verbatim_doc_comment, long, value_name = "N", default_value_t = 20, help_heading = "Report")]
    pub max_shown: usize,

    /// Colour: auto, always or never.
    #[arg(
        verbatim_doc_comment,
        long,
        value_enum,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Report"
    )]
    pub color: ColorWhen,
}

/// Which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum SideName {
    A,
    B,
}

impl SideName {
    pub fn letter(self) -> &'static str {
        match self {
            SideName::A => "A",
            SideName::B => "B",
        }
    }
}

impl DiffCli {
    /// The endpoint and reset command of one side, from the shared options and that side's own.
    pub fn side(&self, side: SideName) -> Result<(Endpoint, Option<String>), String> {
        let (url, own_auth, namespace, language_param, reset) = match side {
            SideName::A => (&self.a, &self.a_auth, &self.a_namespace, &self.a_language_param, &self.a_reset_command),
            SideName::B => (&self.b, &self.b_auth, &self.b_namespace, &self.b_language_param, &self.b_reset_command),
        };
        let letter = side.letter().to_ascii_lowercase();
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("--{letter} {url:?} is not a URL: {e}"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(format!("--{letter} {url:?} must be an http:// or https:// URL"));
        }
        if parsed.scheme() == "https" && !cfg!(feature = "tls") {
            return Err(format!(
                "--{letter} {url:?} is https://, and this runner is built without TLS: build it with `cargo build -p conformance --features tls`"
            ));
        }
        let mut credentials = BTreeMap::new();
        for (name, user, password) in self.auth.iter().chain(own_auth) {
            crate::credentials::check_given(name)?;
            credentials.insert(name.clone(), (user.clone(), password.clone()));
        }
        let endpoint = Endpoint {
            base_url: url.trim_end_matches('/').to_string(),
            namespace: namespace.as_deref().unwrap_or(&self.namespace).trim_matches('/').to_string(),
            language_param: language_param.clone().unwrap_or_else(|| self.language_param.clone()),
            credentials,
        };
        Ok((endpoint, reset.clone()))
    }

    /// True when the name filter, `--exact` and `--skip` leave this case out.
    pub fn is_filtered_out(&self, name: &str) -> bool {
        let hit = |text: &str| if self.exact { name == text } else { name.contains(text) };
        self.filter.as_deref().is_some_and(|filter| !hit(filter)) || self.skip.iter().any(|skip| hit(skip))
    }
}

fn parse_instant(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|instant| instant.with_timezone(&Utc))
        .map_err(|e| format!("expected an RFC 3339 instant such as 2026-11-22T01:42:13Z: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<DiffCli, clap::Error> {
        DiffCli::try_parse_from(std::iter::once("conformance diff").chain(args.iter().copied()))
    }

    #[test]
    fn side_options_override_the_shared_ones_for_their_side_only() {
        let cli = parse(&[
            "--a",
            "http://a.test/wp-json/",
            "--b",
            "http://b.test/wp-json",
            "--auth",
            "editor=ed:pw",
            "--auth",
            "author=au:pw",
            "--b-auth",
            "editor=other:secret",
            "--b-namespace",
            "/tribe/events/v1/",
            "--a-language-param",
            "wpml_language",
        ])
        .unwrap();
        let (a, _) = cli.side(SideName::A).unwrap();
        let (b, _) = cli.side(SideName::B).unwrap();
        assert_eq!(a.base_url, "http://a.test/wp-json");
        assert_eq!((a.namespace.as_str(), a.language_param.as_str()), ("calendar/events/v1", "wpml_language"));
        assert_eq!((b.namespace.as_str(), b.language_param.as_str()), ("tribe/events/v1", "multilingual_language"));
        assert_eq!(a.credentials["editor"], ("ed".to_string(), "pw".to_string()));
        assert_eq!(b.credentials["editor"], ("other".to_string(), "secret".to_string()));
        assert_eq!(b.credentials["author"], ("au".to_string(), "pw".to_string()));
    }

    #[test]
    fn wrong_sides_are_refused_with_the_option_named() {
        let cli = parse(&["--a", "ftp://x", "--b", "nonsense"]).unwrap();
        assert!(cli.side(SideName::A).unwrap_err().starts_with("--a \"ftp://x\" must be"));
        assert!(cli.side(SideName::B).unwrap_err().starts_with("--b \"nonsense\" is not a URL"));
        let cli = parse(&["--a", "http://x", "--b", "http://y", "--a-auth", "boss=u:p"]).unwrap();
        assert!(cli.side(SideName::A).unwrap_err().contains("unknown credential name `boss`"));
        assert!(parse(&["--a", "http://x"]).is_err(), "--b is required");
    }

    #[test]
    fn the_selection_works_as_for_runs() {
        let cli = parse(&["--a", "http://x", "--b", "http://y", "events/", "--skip", "slug"]).unwrap();
        assert!(!cli.is_filtered_out("events/read::one"));
        assert!(cli.is_filtered_out("venues/read::one"));
        assert!(cli.is_filtered_out("events/by-slug::one"));
        let cli = parse(&["--a", "http://x", "--b", "http://y", "--exact", "a::b"]).unwrap();
        assert!(!cli.is_filtered_out("a::b"));
        assert!(cli.is_filtered_out("a::bc"));
    }
}
