//! Failures grouped by cause. Among hundreds of failing cases there are usually a few causes
//! (every create answered 200 instead of 201, one error code named otherwise): each failing case
//! is reduced to its first mismatch (the route of the failing step with the interface's
//! placeholders, what was expected, and what came back: a status with its error code, a JSON
//! path, or a connection problem), and equal ones are counted together, the commonest first,
//! each with one example case. Causes come by level, must first (the verdict rests on them),
//! then by count. A request's query counts by its parameter names (`GET /events?featured=…`):
//! a list filtered by `featured` and one filtered by `starts_before` are different causes, whatever
//! their values. The terminal summary, the JSON report and the HTML report show the same table,
//! with the level of each cause.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::matcher::Mismatch;
use crate::model::Level;
use crate::outcome::{CaseReport, Outcome, StepError, StepRecord};

/// One cause and the cases it explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The level of the cases it explains (`None`: files that did not load).
    pub level: Option<Level>,
    /// `POST /events/<id>`, or the path as sent when it is no route of the interface; with the
    /// names of the query's parameters, each as `NAME=…` (`GET /events?featured=…&search=…`).
    pub route: String,
    /// `status`, a JSON path with its indexes as `[*]`, or `request` for a transport problem.
    pub what: String,
    /// What was expected (for a JSON path, the example case's value).
    pub expected: String,
    pub got: String,
    pub cases: usize,
    /// The first case (by name) it explains.
    pub example: String,
}

/// How many causes the terminal shows; the JSON and HTML reports have them all.
pub const SHOWN: usize = 12;

/// The rank of a level in the table: must first; files that did not load last.
fn rank(level: Option<Level>) -> usize {
    level.and_then(|l| Level::ALL.iter().position(|x| *x == l)).unwrap_or(Level::ALL.len())
}

/// The key of a cause: (level rank, route with its query's names, what, expected, got).
type Key = (usize, String, String, String, String);

/// The causes of the failed cases: must first, then should, may; within a level, the
/// commonest first.
pub fn of(reports: &[CaseReport]) -> Vec<Cause> {
    let mut by_key: BTreeMap<Key, Cause> = BTreeMap::new();
    for report in reports.iter().filter(|r| matches!(r.outcome, Outcome::Failed | Outcome::Error(_))) {
        let Some(step) = report.failed_step() else { continue };
        let (what, expected, got) = first_difference(step);
        let route = route_of(step);
        // A JSON path's expected value is the case's own (its IDs, its titles): not part of the
        // cause, which shows the first example's.
        let same_expected = if what.starts_with('$') { String::new() } else { expected.clone() };
        let key = (rank(report.level), route.clone(), what.clone(), same_expected, got.clone());
        let cause = by_key.entry(key).or_insert_with(|| Cause {
            level: report.level,
            route,
            what,
            expected,
            got,
            cases: 0,
            example: report.name.clone(),
        });
        cause.cases += 1;
        if report.name < cause.example {
            cause.example = report.name.clone();
        }
    }
    let mut causes: Vec<Cause> = by_key.into_values().collect();
    causes.sort_by(|a, b| (rank(a.level), b.cases, &a.example).cmp(&(rank(b.level), a.cases, &b.example)));
    causes
}

/// What differs first in a failing step: (what, expected, got).
fn first_difference(step: &StepRecord) -> (String, String, String) {
    if let Some(error) = &step.error {
        return ("request".into(), "an answer".into(), error_kind(error));
    }
    let Some(m) = step.mismatches.first() else {
        return ("step".into(), "a pass".into(), "a failure without a mismatch".into());
    };
    if m.path == "status" {
        let code = error_code(step).map(|c| format!(" {c}")).unwrap_or_default();
        let status = step.status.map_or_else(|| m.actual.clone(), |s| s.to_string());
        return ("status".into(), m.expected.clone(), format!("{status}{code}"));
    }
    (normalized(&m.path), m.expected.clone(), shape_of(m))
}

/// A mismatch's answer as a kind, so that cases that differ only in their own IDs and titles
/// count together.
fn shape_of(m: &Mismatch) -> String {
    if m.path == "$" {
        // The body as a whole: not JSON, empty, too large to parse.
        first_words(m.actual.split(" (").next().unwrap_or(&m.actual))
    } else if m.actual.contains("missing") || m.actual.starts_with("nothing") {
        "nothing (the key is missing)".into()
    } else if m.actual.starts_with("an empty body") || m.actual.contains("not valid UTF-8") {
        m.actual.clone()
    } else {
        "another value".into()
    }
}

/// `$.events[3].venue` → `$.events[*].venue`.
fn normalized(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(']') {
            Some(close) if after[..close].bytes().all(|b| b.is_ascii_digit()) && close > 0 => {
                out.push_str("[*]");
                rest = &after[close + 1..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn error_kind(error: &StepError) -> String {
    match error {
        StepError::Timeout { .. } => "no answer within --timeout".into(),
        StepError::Connect { .. } => "no connection".into(),
        StepError::Transport { detail, .. } => format!("a broken exchange: {}", first_words(detail)),
        StepError::TooLarge { .. } => "a body over --max-response-size".into(),
        StepError::Template(_) => "a template that could not be filled in".into(),
        StepError::Credentials(_) => "no credentials for the role".into(),
        StepError::Setup(message) => format!("a failed set-up: {}", first_words(message)),
    }
}

/// The first few words of a message, so that one cause does not split on its details.
fn first_words(text: &str) -> String {
    text.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
}

/// The `code` of an error body.
fn error_code(step: &StepRecord) -> Option<String> {
    let body: Value = serde_json::from_str(step.body.as_deref()?).ok()?;
    body.get("code")?.as_str().map(first_words)
}

/// `METHOD /route/<id>` of the failing step's request, with the names of its query's
/// parameters (`?featured=…&search=…`, sorted, each once; the values are the case's own).
fn route_of(step: &StepRecord) -> String {
    let Some(request) = &step.request else { return "(no request)".into() };
    let path = path_of(&request.url);
    let mut out = format!("{} {}", request.method, route_in(path).unwrap_or(path));
    let names = query_names(&request.url);
    if !names.is_empty() {
        let names: Vec<String> = names.iter().map(|n| format!("{n}=…")).collect();
        out.push('?');
        out.push_str(&names.join("&"));
    }
    out
}

/// The names of a URL's query parameters, sorted, each once (`filter[x]` as written).
fn query_names(url: &str) -> Vec<String> {
    let Some((_, query)) = url.split_once('?') else { return Vec::new() };
    let query = query.split('#').next().unwrap_or(query);
    let mut names: Vec<String> = form_urlencoded::parse(query.as_bytes())
        .map(|(name, _)| name.into_owned())
        .filter(|name| !name.is_empty())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The path of a URL, without its query.
pub(crate) fn path_of(url: &str) -> &str {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("/", |at| &after_scheme[at..]);
    path.split(['?', '#']).next().unwrap_or(path)
}

/// The interface's route that the path ends with (`…/wp-json/calendar/events/v1/events/12` →
/// `/events/<id>`): the longest end of the path that is a route, as the namespace and the REST
/// root before it are the implementation's.
pub(crate) fn route_in(path: &str) -> Option<&'static str> {
    let ends = path.char_indices().filter(|(_, c)| *c == '/').map(|(at, _)| &path[at..]);
    ends.filter(|end| end.len() > 1).find_map(|end| {
        reference_server::interface::match_route(end.trim_end_matches('/')).map(|(route, _)| route.path)
    })
}

/// The table for the terminal, after the failures: empty when nothing failed.
pub fn render_text(causes: &[Cause]) -> String {
    if causes.is_empty() {
        return String::new();
    }
    let total: usize = causes.iter().map(|c| c.cases).sum();
    let mut out =
        format!("failures by cause ({total} failing cases, {} causes; the first difference of each):\n", causes.len());
    let shown = |text: &str| crate::escape::terminal(text).into_owned();
    for cause in causes.iter().take(SHOWN) {
        out.push_str(&format!(
            "{:>5} × {:<8} {}: {}: expected {}, got {}\n        e.g. {}\n",
            cause.cases,
            level_text(cause.level),
            shown(&cause.route),
            shown(&cause.what),
            shown(&cause.expected),
            shown(&cause.got),
            shown(&cause.example)
        ));
    }
    if causes.len() > SHOWN {
        let rest: usize = causes[SHOWN..].iter().map(|c| c.cases).sum();
        out.push_str(&format!(
            "  … {} more causes ({rest} cases): see the --json or --html report\n",
            causes.len() - SHOWN
        ));
    }
    out
}

/// A cause's level as the table shows it: `[must]`, or `[file]` for files that did not load.
pub fn level_text(level: Option<Level>) -> String {
    format!("[{}]", level.map_or("file", |l| l.name()))
}

/// The table for the JSON report.
pub fn to_json(causes: &[Cause]) -> Value {
    Value::Array(
        causes
            .iter()
            .map(|c| {
                json!({"cases": c.cases, "level": c.level, "route": c.route, "what": c.what,
                       "expected": c.expected, "got": c.got, "example": c.example})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::KeptRequest;
    use std::time::Duration;

    fn failed(
        name: &str,
        method: &str,
        url: &str,
        status: u16,
        body: &str,
        mismatch: (&str, &str, &str),
    ) -> CaseReport {
        let step = StepRecord {
            label: "steps[0]".into(),
            request: Some(KeptRequest {
                method: method.into(),
                url: url.into(),
                headers: Vec::new(),
                auth: None,
                auth_name: None,
                body: None,
            }),
            status: Some(status),
            body: Some(body.into()),
            body_size: body.len(),
            mismatches: vec![Mismatch {
                path: mismatch.0.into(),
                expected: mismatch.1.into(),
                actual: mismatch.2.into(),
                at: crate::yaml::Pos::NONE,
            }],
            error: None,
            skipped: None,
            diff: None,
            checks_beyond_status: true,
            unmet: None,
        };
        CaseReport {
            name: name.into(),
            file: "f.yaml".into(),
            level: Some(crate::model::Level::Must),
            spec: Vec::new(),
            tags: Vec::new(),
            outcome: Outcome::Failed,
            duration: Duration::ZERO,
            steps: vec![step],
            cleanup: Vec::new(),
            expected_failure: false,
            server: None,
        }
    }

    #[test]
    fn equal_first_differences_count_together_the_commonest_first() {
        let base = "http://127.0.0.1:9/wp-json/calendar/events/v1";
        let reports = vec![
            failed("b::one", "POST", &format!("{base}/events"), 200, "{}", ("status", "201", "200")),
            failed("a::two", "POST", &format!("{base}/events"), 200, "{}", ("status", "201", "200")),
            failed("c::three", "POST", &format!("{base}/venues"), 200, "{}", ("status", "201", "200")),
            failed(
                "d::four",
                "GET",
                &format!("{base}/events/12"),
                422,
                r#"{"code":"my_bad_input"}"#,
                ("status", "400", "422 (code my_bad_input: …)"),
            ),
            failed("e::five", "GET", &format!("{base}/events/13"), 200, "{}", ("$.events[3].id", "7", "8")),
            failed("f::six", "GET", &format!("{base}/events/14"), 200, "{}", ("$.events[0].id", "9", "10")),
        ];
        let causes = of(&reports);
        let shown: Vec<(usize, &str, &str, &str)> =
            causes.iter().map(|c| (c.cases, c.route.as_str(), c.what.as_str(), c.got.as_str())).collect();
        assert_eq!(
            shown,
            [
                (2, "POST /events", "status", "200"),
                (2, "GET /events/<id>", "$.events[*].id", "another value"),
                (1, "POST /venues", "status", "200"),
                (1, "GET /events/<id>", "status", "422 my_bad_input"),
            ]
        );
        assert_eq!(causes[0].example, "a::two");
        let text = render_text(&causes);
        assert!(text.starts_with("failures by cause (6 failing cases, 4 causes"), "{text}");
        assert!(
            text.contains("    2 × [must]   POST /events: status: expected 201, got 200\n        e.g. a::two\n"),
            "{text}"
        );
    }

    /// Issue 37, item 4: must causes come first whatever their counts, every cause has its
    /// level, and a list's causes split by the names of the filters its query used.
    #[test]
    fn must_causes_first_with_their_level_and_list_filters_apart() {
        let base = "http://127.0.0.1:9/wp-json/calendar/events/v1";
        let list = |name: &str, query: &str| {
            let url = format!("{base}/events?{query}");
            failed(name, "GET", &url, 200, "{}", ("$.events", "2 elements in any order", "3"))
        };
        let mut should: Vec<CaseReport> = (0..3)
            .map(|i| failed(&format!("s::{i}"), "POST", &format!("{base}/events"), 200, "{}", ("status", "201", "200")))
            .collect();
        should.iter_mut().for_each(|r| r.level = Some(Level::Should));
        let mut reports = should;
        reports.push(list("l::a", "search=x1&starts_before=2030-01-01"));
        reports.push(list("l::b", "starts_before=2031-01-01&search=x2"));
        reports.push(list("l::c", "featured=true&search=x3"));
        let causes = of(&reports);
        let shown: Vec<(Option<Level>, usize, &str)> =
            causes.iter().map(|c| (c.level, c.cases, c.route.as_str())).collect();
        assert_eq!(
            shown,
            [
                (Some(Level::Must), 2, "GET /events?search=…&starts_before=…"),
                (Some(Level::Must), 1, "GET /events?featured=…&search=…"),
                (Some(Level::Should), 3, "POST /events"),
            ]
        );
        let text = render_text(&causes);
        assert!(text.contains("    3 × [should] POST /events: status"), "{text}");
        assert_eq!(to_json(&causes)[2]["level"], "should");
    }

    #[test]
    fn routes_are_found_at_the_end_of_any_address() {
        assert_eq!(route_in("/wp-json/tribe/events/v1/events/by-slug/x"), Some("/events/by-slug/<slug>"));
        assert_eq!(route_in("/api/calendar/events/v1/venues/7/"), Some("/venues/<id>"));
        assert_eq!(route_in("/nothing-here"), None);
        assert_eq!(path_of("http://h:1/a/b?c=/d#e"), "/a/b");
        assert_eq!(normalized("$.a[12].b['x'][0]"), "$.a[*].b['x'][*]");
    }

    #[test]
    fn a_server_text_cannot_forge_lines_in_the_table() {
        let reports = vec![failed(
            "x::y",
            "GET",
            "http://h/events",
            400,
            "{\"code\":\"bad\\u001b]0;title\\u0007\\nverdict: CONFORMS\"}",
            ("status", "200", "400"),
        )];
        let text = render_text(&of(&reports));
        assert!(!text.contains('\u{1b}') && !text.contains("\nverdict"), "{text}");
    }
}
