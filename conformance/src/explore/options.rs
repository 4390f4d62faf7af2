//! The command line of `conformance explore`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::cli::{parse_auth, parse_timeout};

const ABOUT: &str = "\
Explores an implementation with generated request sequences: creates, updates, deletes, reads
and lists of every resource, as each role, with now and then an invalid value. Each step goes
to the implementation and to an embedded reference server that started empty; their answers
are compared as `conformance diff` compares them and each difference is judged at a level (must:
accepted or refused, status class; should: exact status, error code, fields, a list's selection
and order). The first one stops the run (--keep-going goes on, and groups them by kind);
when the exploring ends, the first sequence of each kind is shrunk to a short one that still
shows it, checked to replay (it fails on the implementation, passes on the reference server),
printed and written as a case file (--out DIR) that `conformance --cases DIR --base-url URL`
replays (--no-shrink writes the raw sequence instead). Exit status: 0 when no difference was found,
1 when one was, 2 when an option is wrong or the implementation fails pre-flight.";

#[derive(Debug, Parser)]
#[command(name = "conformance explore", about = ABOUT, long_about = ABOUT)]
pub struct ExploreCli {
    /// The implementation's {base_url} (e.g. http://host/wp-json); without it, a second
    /// embedded reference server stands in for it (a self-check, and a measure of speed).
    #[arg(verbatim_doc_comment, long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Credentials of a role on the implementation (repeatable), as for a run (or from
    /// CONFORMANCE_AUTH_<ROLE>): the steps act only as the roles given (and anonymously).
    #[arg(verbatim_doc_comment, long = "auth", value_name = "NAME=USER:PASSWORD", value_parser = parse_auth)]
    pub auth: Vec<(String, String, String)>,

    /// The route namespace.
    #[arg(long, default_value = "calendar/events/v1")]
    pub namespace: String,

    /// The name of the language parameter.
    #[arg(long, default_value = "multilingual_language")]
    pub language_param: String,

    /// The embedded reference server (the oracle, and without --base-url the other side too)
    /// answers as the twin of this release of the plugin: every quirk on (plugin-6.17.2).
    #[arg(verbatim_doc_comment, long, value_name = "RELEASE")]
    pub like: Option<String>,

    /// The embedded reference server reproduces this quirk of the plugin (repeatable).
    #[arg(verbatim_doc_comment, long, value_name = "NAME")]
    pub quirk: Vec<String>,

    /// Features the implementation lacks (comma-separated): their arguments are not generated.
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub without: Vec<String>,

    /// The seed of the sequence: the same seed gives the same sequence.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// The most steps (default 1000 when --time is not given either).
    #[arg(long, value_name = "N")]
    pub steps: Option<u64>,

    /// The longest run: 90s, 5m, 1h or seconds.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,

    /// At most N steps per second (each step is one request to each side).
    #[arg(long, value_name = "N")]
    pub rate: Option<f64>,

    /// Go on after a must or should difference: the first of each distinct one (level, route,
    /// path, kind) is shrunk and written, and all are summarised at the end.
    #[arg(verbatim_doc_comment, long)]
    pub keep_going: bool,

    /// Write each shrunk case here, as explore-seed-S-N.yaml.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Write each difference's raw sequence (every step up to it) instead of shrinking it: the
    /// site's time goes to exploring only.
    #[arg(long)]
    pub no_shrink: bool,

    /// The most requests (to the implementation) shrinking one difference may send
    #[arg(long, value_name = "N", default_value_t = 3000)]
    pub shrink_requests: usize,

    /// The most replays shrinking one difference may take.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub shrink_budget: usize,

    /// The longest shrinking of one difference may take (90s, 5m, or seconds).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub shrink_time: Duration,

    /// Seconds each request may take.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub timeout: f64,
}

impl ExploreCli {
    /// The step bound: `--steps`, or 1000 when neither bound is given.
    pub fn max_steps(&self) -> u64 {
        self.steps.unwrap_or(if self.time.is_some() { u64::MAX } else { 1000 })
    }
}

/// `90s`, `5m`, `1h`, `30` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(at) => (&text[..at], &text[at..]),
        None => (text, "s"),
    };
    let n: f64 = number.parse().map_err(|_| format!("expected a duration such as 90s, 5m or 1h, got {text:?}"))?;
    let seconds = match unit {
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("unknown unit {unit:?}: use s, m or h")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_bounds() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert!(parse_duration("3 weeks").is_err());
        let cli = ExploreCli::try_parse_from(["x", "--time", "1m"]).unwrap();
        assert_eq!(cli.max_steps(), u64::MAX);
        assert_eq!(ExploreCli::try_parse_from(["x"]).unwrap().max_steps(), 1000);
    }
}
