//! A stub as a client writes it (JSON through the admin API, YAML or JSON in a `--stub` file),
//! read field by field so that every problem is reported with its path, and checked within
//! bounds.

use regex::Regex;
use serde_json::{Map, Value};

use crate::fixtures::Problem;

/// The largest answer body (or merge patch) a stub may hold, as JSON text.
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// The most JSON values (keys included) one stub's definition may hold: a parsed value takes
/// far more memory than its text, and a stub is kept parsed (its definition, its body matcher
/// and its answer), so its bytes alone do not bound its memory.
pub const MAX_VALUES: usize = 20_000;
/// The largest `merge.each` patch, as JSON text: it is copied into every item of a list answer
/// (at most 50 on a page), so it bounds what a stub adds to an answer.
pub const MAX_EACH_BYTES: usize = 16 * 1024;
/// The longest stub name.
pub const MAX_NAME: usize = 100;
/// The most query parameters, and the most answer headers, one stub may name.
pub const MAX_ENTRIES: usize = 50;

/// Which requests a stub answers. `None` fields match anything.
#[derive(Clone, Debug)]
pub struct Matcher {
    pub method: Option<String>,
    /// The pattern as written, and its expression (the fault rules' patterns).
    pub path: Option<(String, Regex)>,
    /// Parameters that must have this value (`Some`) or be absent (`None`).
    pub query: Vec<(String, Option<Value>)>,
    /// A subset the request's body must contain.
    pub body: Option<Value>,
    /// `Some(None)`: anonymous requests only; `Some(Some(login))`: that user's.
    pub user: Option<Option<String>>,
}

/// What a stub answers.
#[derive(Clone, Debug)]
pub enum Answer {
    /// This status, these headers and this JSON body, instead of the server's answer.
    Fixed { status: u16, headers: Vec<(String, String)>, body: Value },
    /// The server's own answer, changed by JSON merge patches (RFC 7396): `merge` on the answer
    /// as a whole, `each` on every item of its list.
    Merge { merge: Option<Value>, each: Option<Value> },
}

/// A checked stub.
#[derive(Clone, Debug)]
pub struct StubSpec {
    pub name: Option<String>,
    pub matcher: Matcher,
    pub answer: Answer,
    /// How many times it answers; `None`: always.
    pub times: Option<u64>,
    pub priority: i64,
    /// The definition as given, for the list.
    pub source: Value,
    /// What the stub costs to keep: its JSON values and its definition's bytes as JSON text.
    pub weight: Weight,
}

/// What a stub costs to keep, for the bounds of all stubs together.
#[derive(Clone, Copy, Debug, Default)]
pub struct Weight {
    pub values: usize,
    pub bytes: usize,
}

const FIELDS: [&str; 6] = ["name", "request", "response", "merge", "times", "priority"];
const REQUEST_FIELDS: [&str; 5] = ["method", "path", "query", "body", "user"];
const RESPONSE_FIELDS: [&str; 3] = ["status", "headers", "body"];
const MERGE_FIELDS: [&str; 2] = ["answer", "each"];

/// Headers a stub may not set: the server writes them (length, framing, type, CORS), they
/// belong to one connection (hop-by-hop), or they would say the JSON body is other than it is
/// (`Content-Encoding: gzip` on a body that is not compressed).
const RESERVED_HEADERS: [&str; 13] = [
    "content-length",
    "transfer-encoding",
    "connection",
    "content-type",
    "keep-alive",
    "content-encoding",
    "upgrade",
    "te",
    "trailer",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "content-range",
];
/// Prefixes of header names a stub may not set (the server writes CORS).
const RESERVED_PREFIXES: [&str; 1] = ["access-control-"];

/// Statuses whose answers carry no content, which a stub's JSON body would contradict.
const NO_CONTENT: [u64; 3] = [204, 205, 304];

/// Reads one stub; `at` prefixes the paths of its problems (`[2].`, or empty). `users` are the
/// logins the server accepts (a stub for another could never answer).
pub fn parse(value: &Value, at: &str, users: &[&str]) -> Result<StubSpec, Vec<Problem>> {
    let mut problems = Vec::new();
    let Some(map) = value.as_object() else {
        return Err(vec![Problem::new(at.trim_end_matches('.'), "a stub is a mapping (request, response or merge)")]);
    };
    unknown_fields(map, &FIELDS, at, &mut problems);
    let name = name(map.get("name"), &format!("{at}name"), &mut problems);
    let matcher = matcher(map.get("request"), &format!("{at}request"), &mut problems);
    if let Some(Some(login)) = &matcher.user {
        if !users.contains(&login.as_str()) {
            let message = format!("no user of this server has the login {login:?}");
            problems.push(Problem::new(format!("{at}request.user"), message));
        }
    }
    let answer = answer(map, at, &mut problems);
    let times = times(map.get("times"), &format!("{at}times"), &mut problems);
    let priority = match map.get("priority") {
        None | Some(Value::Null) => 0,
        Some(value) => value.as_i64().filter(|p| p.abs() <= 1_000_000).unwrap_or_else(|| {
            problems.push(Problem::new(format!("{at}priority"), "must be a whole number from -1000000 to 1000000"));
            0
        }),
    };
    let weight = weigh(value, at, &mut problems);
    match (problems.is_empty(), answer) {
        (true, Some(answer)) => Ok(StubSpec { name, matcher, answer, times, priority, source: value.clone(), weight }),
        _ => Err(problems),
    }
}

/// The stub's weight, with a problem when it holds more than `MAX_VALUES` values.
fn weigh(value: &Value, at: &str, problems: &mut Vec<Problem>) -> Weight {
    let values = crate::json_limit::count(value, MAX_VALUES + 1);
    if values > MAX_VALUES {
        let message = format!("a stub holds at most {MAX_VALUES} JSON values (keys included)");
        problems.push(Problem::new(at.trim_end_matches('.'), message));
    }
    Weight { values, bytes: serde_json::to_vec(value).map_or(usize::MAX, |text| text.len()) }
}

fn unknown_fields(map: &Map<String, Value>, known: &[&str], at: &str, problems: &mut Vec<Problem>) {
    for key in map.keys().filter(|key| !known.contains(&key.as_str())) {
        let path = format!("{at}{}", printable(key));
        problems.push(Problem::new(path, format!("unknown field: here the fields are {}", known.join(", "))));
    }
}

/// A key as a problem's path shows it: control characters escaped, at most 100 bytes.
fn printable(key: &str) -> String {
    let escaped: String = key.chars().take(100).flat_map(char::escape_default).collect();
    escaped
}

fn name(value: Option<&Value>, path: &str, problems: &mut Vec<Problem>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(text))
            if !text.trim().is_empty() && text.chars().count() <= MAX_NAME && !text.chars().any(char::is_control) =>
        {
            Some(text.clone())
        }
        Some(_) => {
            let message = format!("must be a text of 1 to {MAX_NAME} characters without control characters");
            problems.push(Problem::new(path, message));
            None
        }
    }
}

fn times(value: Option<&Value>, path: &str, problems: &mut Vec<Problem>) -> Option<u64> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text == "always" => None,
        Some(Value::String(text)) if text == "once" => Some(1),
        Some(value) => match value.as_u64().filter(|n| (1..=1_000_000_000).contains(n)) {
            Some(n) => Some(n),
            None => {
                problems.push(Problem::new(path, "must be \"once\", \"always\" or a whole number of at least 1"));
                None
            }
        },
    }
}

fn matcher(value: Option<&Value>, at: &str, problems: &mut Vec<Problem>) -> Matcher {
    let mut matcher = Matcher { method: None, path: None, query: Vec::new(), body: None, user: None };
    let map = match value {
        None | Some(Value::Null) => return matcher,
        Some(Value::Object(map)) => map,
        Some(_) => {
            problems.push(Problem::new(at, "must be a mapping of method, path, query, body and user"));
            return matcher;
        }
    };
    unknown_fields(map, &REQUEST_FIELDS, &format!("{at}."), problems);
    matcher.method = method(map.get("method"), &format!("{at}.method"), problems);
    if let Some(pattern) = map.get("path") {
        let checked = pattern.as_str().ok_or_else(|| "must be a text".to_string()).and_then(path_pattern);
        match checked {
            Ok(regex) => matcher.path = Some((pattern.as_str().unwrap_or_default().to_string(), regex)),
            Err(message) => problems.push(Problem::new(format!("{at}.path"), message)),
        }
    }
    matcher.query = query(map.get("query"), &format!("{at}.query"), problems);
    match map.get("body") {
        None | Some(Value::Null) => {}
        Some(body @ Value::Object(_)) => {
            check_size(body, &format!("{at}.body"), problems);
            matcher.body = Some(body.clone());
        }
        Some(_) => problems.push(Problem::new(format!("{at}.body"), "must be a mapping the request's body contains")),
    }
    matcher.user = match map.get("user") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(login)) if !login.is_empty() && login.len() <= 200 => Some(Some(login.clone())),
        Some(_) => {
            problems.push(Problem::new(format!("{at}.user"), "must be a login, or null for anonymous requests"));
            None
        }
    };
    matcher
}

fn method(value: Option<&Value>, path: &str, problems: &mut Vec<Problem>) -> Option<String> {
    // HEAD is answered as GET: a GET stub answers it too.
    let known = ["GET", "POST", "PUT", "PATCH", "DELETE"];
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if known.contains(&text.to_ascii_uppercase().as_str()) => {
            Some(text.to_ascii_uppercase())
        }
        Some(_) => {
            problems.push(Problem::new(path, format!("must be one of {}", known.join(", "))));
            None
        }
    }
}

/// A path pattern: inside the namespace, starting with `/`; `*` any text, `<id>` digits,
/// `<slug>` one segment (the fault rules' patterns). It is matched against the request's path
/// decoded (`caf%C3%A9` is `café`), as routing reads it, so a pattern written percent-encoded is
/// decoded first: `/events/by-slug/café` and `/events/by-slug/caf%C3%A9` are one pattern.
fn path_pattern(text: &str) -> Result<Regex, String> {
    if !text.starts_with('/') && text != "*" {
        return Err(format!("must start with / (a path inside the namespace, e.g. /events/<id>), got {text:?}"));
    }
    let decoded = percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map_err(|_| "must be a path whose percent-encoded bytes are UTF-8 text".to_string())?;
    crate::faults::rule::pattern(&decoded)
}

fn query(value: Option<&Value>, at: &str, problems: &mut Vec<Problem>) -> Vec<(String, Option<Value>)> {
    let map = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(map)) if map.len() <= MAX_ENTRIES => map,
        Some(_) => {
            let message = format!("must be a mapping of at most {MAX_ENTRIES} parameters (null: must be absent)");
            problems.push(Problem::new(at, message));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (key, value) in map {
        match value {
            Value::Null => out.push((key.clone(), None)),
            Value::String(_) | Value::Number(_) | Value::Bool(_) => out.push((key.clone(), Some(value.clone()))),
            _ => problems.push(Problem::new(format!("{at}.{}", printable(key)), "must be a text, a number or null")),
        }
    }
    out
}

/// The answer: `response` (a fixed one) or `merge` (the server's, changed); one of them.
fn answer(map: &Map<String, Value>, at: &str, problems: &mut Vec<Problem>) -> Option<Answer> {
    match (map.get("response"), map.get("merge")) {
        (Some(response), None) => fixed(response, &format!("{at}response"), problems),
        (None, Some(merge)) => merged(merge, &format!("{at}merge"), problems),
        (Some(_), Some(_)) => {
            problems.push(Problem::new(format!("{at}merge"), "a stub has response or merge, not both"));
            None
        }
        (None, None) => {
            let message = "a stub needs response (status, headers, body) or merge (answer, each)";
            problems.push(Problem::new(at.trim_end_matches('.'), message));
            None
        }
    }
}

fn fixed(value: &Value, at: &str, problems: &mut Vec<Problem>) -> Option<Answer> {
    let Some(map) = value.as_object() else {
        problems.push(Problem::new(at, "must be a mapping of status, headers and body"));
        return None;
    };
    let before = problems.len();
    unknown_fields(map, &RESPONSE_FIELDS, &format!("{at}."), problems);
    let status = match map.get("status") {
        None => 200,
        Some(value) => match value.as_u64().filter(|s| (200..=599).contains(s) && !NO_CONTENT.contains(s)) {
            Some(status) => status as u16,
            None => {
                let message = "must be 200 to 599, not 204, 205 or 304 (a stub's answer has a JSON body)";
                problems.push(Problem::new(format!("{at}.status"), message));
                0
            }
        },
    };
    let headers = headers(map.get("headers"), &format!("{at}.headers"), problems);
    let body = map.get("body").cloned().unwrap_or(Value::Null);
    check_size(&body, &format!("{at}.body"), problems);
    (problems.len() == before).then_some(Answer::Fixed { status, headers, body })
}

fn merged(value: &Value, at: &str, problems: &mut Vec<Problem>) -> Option<Answer> {
    let Some(map) = value.as_object() else {
        problems.push(Problem::new(at, "must be a mapping of answer and each (JSON merge patches)"));
        return None;
    };
    let before = problems.len();
    unknown_fields(map, &MERGE_FIELDS, &format!("{at}."), problems);
    let merge = map.get("answer").cloned();
    let each = map.get("each").cloned();
    if merge.is_none() && each.is_none() {
        problems.push(Problem::new(at, "needs answer (a patch of the whole answer) or each (of each list item)"));
    }
    for (name, patch) in [("answer", &merge), ("each", &each)] {
        if let Some(patch) = patch {
            check_size(patch, &format!("{at}.{name}"), problems);
        }
    }
    // Copied into every item of a list: a smaller bound.
    if let Some(patch) = &each {
        if serde_json::to_vec(patch).map_or(usize::MAX, |text| text.len()) > MAX_EACH_BYTES {
            let message =
                format!("is larger than {} KiB (it is copied into every item of a list)", MAX_EACH_BYTES / 1024);
            problems.push(Problem::new(format!("{at}.each"), message));
        }
    }
    (problems.len() == before).then_some(Answer::Merge { merge, each })
}

fn headers(value: Option<&Value>, at: &str, problems: &mut Vec<Problem>) -> Vec<(String, String)> {
    let map = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(map)) if map.len() <= MAX_ENTRIES => map,
        Some(_) => {
            problems.push(Problem::new(at, format!("must be a mapping of at most {MAX_ENTRIES} headers")));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (name, value) in map {
        let lower = name.to_ascii_lowercase();
        let path = format!("{at}.{}", printable(name));
        let text = match value {
            Value::String(text) => text.clone(),
            Value::Number(number) => number.to_string(),
            _ => String::new(),
        };
        if hyper::http::HeaderName::from_bytes(name.as_bytes()).is_err() {
            problems.push(Problem::new(path, "is not a header name"));
        } else if RESERVED_HEADERS.contains(&lower.as_str()) || RESERVED_PREFIXES.iter().any(|p| lower.starts_with(p)) {
            let message = "is written by the server (length, framing, encoding, type or CORS) or hop-by-hop";
            problems.push(Problem::new(path, message));
        } else if text.is_empty() || hyper::http::HeaderValue::from_str(&text).is_err() || text.len() > 4096 {
            problems.push(Problem::new(path, "must be a header value: a text of 1 to 4096 visible characters"));
        } else {
            out.push((lower, text));
        }
    }
    out
}

fn check_size(value: &Value, path: &str, problems: &mut Vec<Problem>) {
    if serde_json::to_vec(value).map_or(usize::MAX, |text| text.len()) > MAX_BODY_BYTES {
        problems.push(Problem::new(path, format!("is larger than {} KiB", MAX_BODY_BYTES / 1024)));
    }
}
