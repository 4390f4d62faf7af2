//! Matching: compares a [`Pat`] with an actual value and lists every mismatch with its path.
//!
//! The actual value is an `Option`: `None` means "the key is not there", which is what
//! `$absent` asserts and what every other pattern reports as missing. [`expected_view`] builds
//! the "expected" side of the diff a failing case shows: the actual body with the pattern's
//! expectations written over it, so the diff shows only what is wrong.

use std::fmt;

use serde_json::{Map, Value};

use crate::pattern::{describe, to_json, CmpOp, JsonType, Matcher, Pat, UrlPat};
pub use crate::show::compact;
use crate::yaml::Pos;

/// One difference between a pattern and a value.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Mismatch {
    /// Where: a JSON path such as `$.events[2].venue.id`, or `status`, `header Location`.
    pub path: String,
    pub expected: String,
    pub actual: String,
    /// Where the expectation stands in the case file (`Pos::NONE` when unknown).
    #[serde(skip)]
    pub at: Pos,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: expected {}, got {}", self.path, self.expected, self.actual)
    }
}

fn show(actual: Option<&Value>) -> String {
    match actual {
        Some(value) => compact(value),
        None => "nothing (the key is missing)".to_string(),
    }
}

/// Appends `.key` (or `['key']`) to a path.
pub fn path_key(base: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    if plain {
        format!("{base}.{key}")
    } else {
        format!("{base}['{}']", key.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// Appends `[index]` to a path.
pub fn path_index(base: &str, index: usize) -> String {
    format!("{base}[{index}]")
}

/// Compares `pat` with `actual` and returns the mismatches (empty when it matches).
pub fn compare(pat: &Pat, actual: Option<&Value>, path: &str) -> Vec<Mismatch> {
    let mut out = Vec::new();
    check(pat, actual, path, &mut out);
    out
}

/// True when `pat` matches `actual`.
pub fn matches(pat: &Pat, actual: Option<&Value>) -> bool {
    compare(pat, actual, "$").is_empty()
}

fn push(out: &mut Vec<Mismatch>, path: &str, expected: String, actual: String) {
    out.push(Mismatch { path: path.to_string(), expected, actual, at: Pos::NONE });
}

/// Numbers compare by value (`1` equals `1.0`); everything else by equality.
pub fn scalar_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                return x == y;
            }
            if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                return x == y;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            }
        }
        _ => a == b,
    }
}

fn check(pat: &Pat, actual: Option<&Value>, path: &str, out: &mut Vec<Mismatch>) {
    match pat {
        Pat::Matchers(matchers) => {
            for m in matchers {
                check_matcher(m, actual, path, out);
            }
        }
        _ if actual.is_none() => push(out, path, describe(pat), show(None)),
        Pat::Eq(expected) => {
            let Some(actual) = actual else { return };
            if !scalar_eq(expected, actual) {
                push(out, path, compact(expected), compact(actual));
            }
        }
        Pat::Array(items) => {
            let Some(actual) = actual else { return };
            let Value::Array(values) = actual else {
                return push(out, path, format!("an array of {} elements", items.len()), compact(actual));
            };
            if values.len() != items.len() {
                push(
                    out,
                    path,
                    format!("an array of {} elements", items.len()),
                    format!("{} elements: {}", values.len(), compact(actual)),
                );
            }
            for (i, (p, v)) in items.iter().zip(values).enumerate() {
                check(p, Some(v), &path_index(path, i), out);
            }
        }
        Pat::Object(entries) => {
            let Some(actual) = actual else { return };
            let Value::Object(map) = actual else {
                return push(out, path, "an object".to_string(), compact(actual));
            };
            for (key, p) in entries {
                check(p, map.get(key), &path_key(path, key), out);
            }
        }
    }
}

fn type_of(value: &Value, t: JsonType) -> bool {
    match (t, value) {
        (JsonType::Integer, Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        (JsonType::Number, Value::Number(_)) => true,
        (JsonType::String, Value::String(_)) => true,
        (JsonType::Boolean, Value::Bool(_)) => true,
        (JsonType::Null, Value::Null) => true,
        (JsonType::Array, Value::Array(_)) => true,
        (JsonType::Object, Value::Object(_)) => true,
        _ => false,
    }
}

fn matcher_text(m: &Matcher) -> String {
    describe(&Pat::Matchers(vec![m.clone()]))
}

fn check_matcher(m: &Matcher, actual: Option<&Value>, path: &str, out: &mut Vec<Mismatch>) {
    match m {
        Matcher::Absent => {
            if let Some(value) = actual {
                push(out, path, "no such key ({\"$absent\":true})".into(), compact(value));
            }
        }
        Matcher::Not(p) => {
            if matches(p, actual) {
                push(out, path, format!("anything but {}", describe(p)), show(actual));
            }
        }
        Matcher::In(options) => {
            if !options.iter().any(|p| matches(p, actual)) {
                push(out, path, matcher_text(m), show(actual));
            }
        }
        _ => match actual {
            Some(value) => check_value_matcher(m, value, path, out),
            None => push(out, path, matcher_text(m), show(None)),
        },
    }
}

/// A matcher that wants a value, given one.
fn check_value_matcher(m: &Matcher, value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let holds = match m {
        Matcher::Absent | Matcher::Not(_) | Matcher::In(_) | Matcher::Any => true,
        Matcher::Type(types) => types.iter().any(|t| type_of(value, *t)),
        Matcher::Regex(re) => value.as_str().is_some_and(|s| re.is_match(s)),
        Matcher::Cmp(op, bound) => compare_holds(value, *op, bound),
        Matcher::Len(p) => return check_len(m, p, value, path, out),
        Matcher::Contains(items) => return check_contains(m, items, value, path, out),
        Matcher::Unordered(items) => return check_unordered(m, items, value, path, out),
        Matcher::Each(p) => return check_each(p, value, path, out),
        Matcher::Exact(entries) => return check_exact(m, entries, value, path, out),
        Matcher::Url(url) => return check_url(url, value, path, out),
        Matcher::Date(text) => {
            let expected = crate::pattern::date_time(text);
            expected.is_some() && value.as_str().and_then(crate::pattern::date_time) == expected
        }
    };
    if !holds {
        push(out, path, matcher_text(m), compact(value));
    }
}

/// `$gt`, `$gte`, `$lt`, `$lte`: false for a value that is not a number.
fn compare_holds(value: &Value, op: CmpOp, bound: &serde_json::Number) -> bool {
    match (value.as_f64(), bound.as_f64()) {
        (Some(v), Some(b)) => match op {
            CmpOp::Gt => v > b,
            CmpOp::Gte => v >= b,
            CmpOp::Lt => v < b,
            CmpOp::Lte => v <= b,
        },
        _ => false,
    }
}

fn check_len(m: &Matcher, p: &Pat, value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let len = match value {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        Value::String(s) => s.chars().count(),
        _ => return push(out, path, format!("something with a length ({})", matcher_text(m)), compact(value)),
    };
    if !matches(p, Some(&Value::from(len))) {
        push(out, path, format!("length {}", describe(p)), format!("length {len}: {}", compact(value)));
    }
}

fn check_contains(m: &Matcher, items: &[Pat], value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let Value::Array(values) = value else {
        return push(out, path, matcher_text(m), compact(value));
    };
    for p in items {
        if !values.iter().any(|v| matches(p, Some(v))) {
            push(out, path, format!("an element matching {}", describe(p)), compact(value));
        }
    }
}

fn check_unordered(m: &Matcher, items: &[Pat], value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let Value::Array(values) = value else {
        return push(out, path, matcher_text(m), compact(value));
    };
    if values.len() != items.len() {
        return push(
            out,
            path,
            format!("{} elements in any order: {}", items.len(), matcher_text(m)),
            format!("{} elements: {}", values.len(), compact(value)),
        );
    }
    if let Some(unmatched) = unordered_unmatched(items, values) {
        push(
            out,
            path,
            format!(
                "elements matching {} in any order (none left for {})",
                matcher_text(m),
                describe(&items[unmatched])
            ),
            compact(value),
        );
    }
}

fn check_each(p: &Pat, value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let Value::Array(values) = value else {
        return push(out, path, format!("an array whose elements all match {}", describe(p)), compact(value));
    };
    for (i, v) in values.iter().enumerate() {
        check(p, Some(v), &path_index(path, i), out);
    }
}

fn check_exact(m: &Matcher, entries: &[(String, Pat)], value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let Value::Object(map) = value else {
        return push(out, path, matcher_text(m), compact(value));
    };
    for (key, p) in entries {
        check(p, map.get(key), &path_key(path, key), out);
    }
    for (key, v) in map {
        if !entries.iter().any(|(k, _)| k == key) {
            push(out, &path_key(path, key), "no such key ($exact)".into(), compact(v));
        }
    }
}

/// Finds a perfect matching of patterns to values; returns a pattern left without one.
fn unordered_unmatched(items: &[Pat], values: &[Value]) -> Option<usize> {
    let fits: Vec<Vec<bool>> = items.iter().map(|p| values.iter().map(|v| matches(p, Some(v))).collect()).collect();
    let mut owner: Vec<Option<usize>> = vec![None; values.len()];
    fn augment(p: usize, fits: &[Vec<bool>], seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        for v in 0..seen.len() {
            if fits[p][v] && !seen[v] {
                seen[v] = true;
                if owner[v].is_none_or(|q| augment(q, fits, seen, owner)) {
                    owner[v] = Some(p);
                    return true;
                }
            }
        }
        false
    }
    for p in 0..items.len() {
        let mut seen = vec![false; values.len()];
        if !augment(p, &fits, &mut seen, &mut owner) {
            return Some(p);
        }
    }
    None
}

fn decoded_path(url: &reqwest::Url) -> String {
    percent_encoding::percent_decode_str(url.path()).decode_utf8_lossy().into_owned()
}

fn query_values(url: &reqwest::Url, name: &str) -> Vec<String> {
    url.query_pairs().filter(|(k, _)| k == name).map(|(_, v)| v.into_owned()).collect()
}

/// A query value matches a pattern as text, or as the number it spells.
fn query_value_matches(p: &Pat, text: &str) -> bool {
    if matches(p, Some(&Value::String(text.to_string()))) {
        return true;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(number @ Value::Number(_)) => matches(p, Some(&number)),
        _ => false,
    }
}

fn check_url(url: &UrlPat, value: &Value, path: &str, out: &mut Vec<Mismatch>) {
    let expected_text = || describe(&Pat::Matchers(vec![Matcher::Url(url.clone())]));
    let Some(actual) = value.as_str().and_then(|s| reqwest::Url::parse(s).ok()) else {
        return push(out, path, format!("a URL: {}", expected_text()), compact(value));
    };
    match url {
        UrlPat::Full(text) => {
            let Ok(expected) = reqwest::Url::parse(text) else {
                return push(out, path, format!("a URL: {}", expected_text()), compact(value));
            };
            let why = full_url_differences(&expected, &actual);
            if !why.is_empty() {
                push(out, path, expected_text(), format!("{} ({})", compact(value), why.join("; ")));
            }
        }
        UrlPat::Parts { path: path_pat, query } => {
            if let Some(p) = path_pat {
                let actual_path = Value::String(decoded_path(&actual));
                if !matches(p, Some(&actual_path)) {
                    push(out, path, format!("a URL whose path matches {}", describe(p)), compact(value));
                }
            }
            for (name, p) in query {
                if !query_param_matches(&actual, name, p) {
                    push(
                        out,
                        path,
                        format!("a URL whose query parameter `{name}` matches {}", describe(p)),
                        compact(value),
                    );
                }
            }
        }
    }
}

/// Why `actual` is not the `expected` URL of `$url: "http://..."` (empty when it is): another
/// origin, another path, or query pairs of the expected one that the actual lacks.
fn full_url_differences(expected: &reqwest::Url, actual: &reqwest::Url) -> Vec<String> {
    let same_origin = expected.scheme() == actual.scheme()
        && expected.host_str().map(str::to_ascii_lowercase) == actual.host_str().map(str::to_ascii_lowercase)
        && expected.port_or_known_default() == actual.port_or_known_default();
    let same_path = decoded_path(expected) == decoded_path(actual);
    let actual_pairs: Vec<(String, String)> = actual.query_pairs().into_owned().collect();
    let missing: Vec<String> = expected
        .query_pairs()
        .into_owned()
        .filter(|pair| !actual_pairs.contains(pair))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let mut why = Vec::new();
    if !same_origin {
        why.push("scheme, host or port differ".to_string());
    }
    if !same_path {
        why.push(format!("path {:?} is not {:?}", decoded_path(actual), decoded_path(expected)));
    }
    if !missing.is_empty() {
        why.push(format!("query lacks {}", missing.join("&")));
    }
    why
}

/// A query parameter of `$url: {query: ...}`: a list wants each item among the values; a
/// missing parameter matches only a pattern that allows absence; else one value must match.
fn query_param_matches(actual: &reqwest::Url, name: &str, p: &Pat) -> bool {
    let values = query_values(actual, name);
    match p {
        Pat::Array(items) => items.iter().all(|item| values.iter().any(|v| query_value_matches(item, v))),
        _ if values.is_empty() => matches(p, None),
        _ => values.iter().any(|v| query_value_matches(p, v)),
    }
}

/// The expected side of a diff: `actual` with the pattern written over it. `None` means the
/// value should be absent.
pub fn expected_view(pat: &Pat, actual: Option<&Value>) -> Option<Value> {
    match pat {
        Pat::Eq(value) => Some(value.clone()),
        Pat::Array(items) => {
            let values = actual.and_then(Value::as_array);
            Some(Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, p)| expected_view(p, values.and_then(|v| v.get(i))).unwrap_or(Value::Null))
                    .collect(),
            ))
        }
        Pat::Object(entries) => Some(Value::Object(overlay(entries, actual, false))),
        Pat::Matchers(matchers) => {
            if matches(pat, actual) {
                return actual.cloned();
            }
            if matchers.iter().any(|m| matches!(m, Matcher::Absent)) {
                return None;
            }
            if let [Matcher::Exact(entries)] = matchers.as_slice() {
                return Some(Value::Object(overlay(entries, actual, true)));
            }
            if let ([Matcher::Each(p)], Some(Value::Array(values))) = (matchers.as_slice(), actual) {
                return Some(Value::Array(
                    values.iter().map(|v| expected_view(p, Some(v)).unwrap_or(Value::Null)).collect(),
                ));
            }
            Some(to_json(pat))
        }
    }
}

fn overlay(entries: &[(String, Pat)], actual: Option<&Value>, exact: bool) -> Map<String, Value> {
    let mut map = match actual {
        Some(Value::Object(map)) if !exact => map.clone(),
        Some(Value::Object(map)) => map
            .iter()
            .filter(|(k, _)| entries.iter().any(|(e, _)| e == *k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        _ => Map::new(),
    };
    for (key, p) in entries {
        let current = actual.and_then(|a| a.get(key));
        match expected_view(p, current) {
            Some(v) => {
                map.insert(key.clone(), v);
            }
            None => {
                map.remove(key);
            }
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Binding, Env};
    use crate::node::Node;
    use crate::pattern::build;
    use serde_json::json;

    fn pat(yaml: &str) -> Pat {
        let node = Node::parse_str(yaml);
        crate::pattern::check(&node).unwrap();
        let mut env = Env::new(chrono::Utc::now());
        env.set("ev", Binding::Data(json!({"id": 5, "$weird": 1})));
        build(&node, &env).unwrap()
    }

    fn holds(yaml: &str, actual: Value) {
        let m = compare(&pat(yaml), Some(&actual), "$");
        assert!(m.is_empty(), "{yaml} should match {actual}: {m:?}");
    }

    fn fails(yaml: &str, actual: Value) -> Vec<Mismatch> {
        let m = compare(&pat(yaml), Some(&actual), "$");
        assert!(!m.is_empty(), "{yaml} should not match {actual}");
        m
    }

    /// Issue 37: a date compares as the same date and time whatever its form: with `$date`,
    /// and, in a must case (an environment that compares dates as dates), for every expected
    /// text that is a date and time.
    #[test]
    fn a_date_matches_the_same_wall_time_in_any_common_form() {
        for same in [
            "2026-11-28 10:00:00",
            "2026-11-28T10:00:00",
            "2026-11-28T10:00",
            "2026-11-28t10:00:00.000Z",
            "2026-11-28T10:00:00+01:00",
        ] {
            holds("{$date: \"2026-11-28 10:00:00\"}", json!(same));
        }
        for other in ["2026-11-28 10:00:01", "2026-11-29T10:00:00", "28/11/2026 10:00", "", "2026-11-28"] {
            fails("{$date: \"2026-11-28 10:00:00\"}", json!(other));
        }
        fails("{$date: \"2026-11-28 10:00:00\"}", json!(1764324000));
        let text = Node::parse_str("\"2026-11-28 10:00:00\"");
        let mut must = Env::new(chrono::Utc::now());
        assert!(matches!(build(&text, &must).unwrap(), Pat::Eq(_)), "exact outside must cases");
        must.compare_dates_as_dates();
        let date = build(&text, &must).unwrap();
        assert!(compare(&date, Some(&json!("2026-11-28T10:00:00")), "$").is_empty());
        assert!(!compare(&date, Some(&json!("2026-11-28T11:00:00")), "$").is_empty());
        let plain = build(&Node::parse_str("\"New Hall\""), &must).unwrap();
        assert!(matches!(plain, Pat::Eq(_)), "other texts stay exact");
        assert!(crate::pattern::check(&Node::parse_str("{$date: \"soon\"}")).is_err());
    }

    #[test]
    fn scalars_and_numbers_by_value() {
        holds("1", json!(1.0));
        holds("\"a\"", json!("a"));
        holds("null", json!(null));
        holds("true", json!(true));
        let m = fails("12", json!(13));
        assert_eq!(m[0].to_string(), "$: expected 12, got 13");
        fails("\"1\"", json!(1));
    }

    #[test]
    fn objects_are_subsets_and_report_paths() {
        holds("{a: 1}", json!({"a": 1, "b": 2}));
        let m = fails("{events: [{}, {}, {venue: {id: 12}}]}", json!({"events": [{}, {}, {"venue": {"id": 13}}]}));
        assert_eq!(m[0].to_string(), "$.events[2].venue.id: expected 12, got 13");
        let m = fails("{a: 1}", json!({}));
        assert!(m[0].actual.contains("missing"));
        let m = fails("{'my key': 1}", json!({"my key": 2}));
        assert_eq!(m[0].path, "$['my key']");
    }

    #[test]
    fn arrays_need_the_same_length() {
        holds("[1, 2]", json!([1, 2]));
        let m = fails("[1, 2]", json!([1]));
        assert!(m[0].expected.contains("2 elements"));
        fails("[1, 2]", json!([2, 1]));
    }

    #[test]
    fn type_matcher() {
        holds("{$type: integer}", json!(3));
        holds("{$type: integer}", json!(3.0));
        fails("{$type: integer}", json!(3.5));
        holds("{$type: number}", json!(3.5));
        holds("{$type: [string, null]}", json!(null));
        fails("{$type: [string, null]}", json!(1));
        holds("{$type: boolean}", json!(false));
        holds("{$type: array}", json!([]));
        holds("{$type: object}", json!({}));
        fails("{$type: object}", json!([]));
    }

    #[test]
    fn regex_matcher_is_unanchored() {
        holds("{$regex: 'b+'}", json!("abbc"));
        fails("{$regex: '^b'}", json!("abbc"));
        fails("{$regex: 'a'}", json!(1));
    }

    #[test]
    fn any_and_absent() {
        holds("{a: {$any: true}}", json!({"a": null}));
        let m = fails("{a: {$any: true}}", json!({}));
        assert_eq!(m[0].path, "$.a");
        holds("{a: {$absent: true}}", json!({"b": 1}));
        let m = fails("{a: {$absent: true}}", json!({"a": 1}));
        assert_eq!(m[0].actual, "1");
    }

    #[test]
    fn in_and_not() {
        holds("{$in: [200, 201]}", json!(201));
        fails("{$in: [200, 201]}", json!(404));
        holds("{$not: {$type: string}}", json!(1));
        fails("{$not: 1}", json!(1));
        holds("{a: {$not: {$absent: true}}}", json!({"a": 1}));
        fails("{a: {$not: {$absent: true}}}", json!({}));
    }

    #[test]
    fn comparisons() {
        holds("{$gt: 1, $lt: 3}", json!(2));
        fails("{$gt: 1}", json!(1));
        holds("{$gte: 1, $lte: 1}", json!(1.0));
        fails("{$lte: 1}", json!(2));
        fails("{$gte: 1}", json!("2"));
    }

    #[test]
    fn len_matcher() {
        holds("{$len: 2}", json!([1, 2]));
        holds("{$len: 2}", json!({"a": 1, "b": 2}));
        holds("{$len: 2}", json!("é!"));
        holds("{$len: {$gte: 1}}", json!([0]));
        let m = fails("{$len: 3}", json!([1]));
        assert!(m[0].actual.starts_with("length 1"));
        fails("{$len: 1}", json!(5));
    }

    #[test]
    fn contains_unordered_each() {
        holds("{$contains: [2, {id: 1}]}", json!([{"id": 1, "x": 0}, 2, 3]));
        let m = fails("{$contains: [4]}", json!([1, 2]));
        assert!(m[0].expected.contains("element matching 4"));
        holds("{$unordered: [1, 2, 3]}", json!([3, 1, 2]));
        fails("{$unordered: [1, 2]}", json!([1, 2, 3]));
        fails("{$unordered: [1, 1]}", json!([1, 2]));
        holds("{$unordered: [{$type: integer}, 1]}", json!([1, 2]));
        holds("{$each: {$type: integer}}", json!([1, 2]));
        let m = fails("{$each: {$gt: 1}}", json!([2, 1]));
        assert_eq!(m[0].path, "$[1]");
    }

    #[test]
    fn exact_matcher() {
        holds("{$exact: {a: 1}}", json!({"a": 1}));
        let m = fails("{$exact: {a: 1}}", json!({"a": 1, "b": 2}));
        assert_eq!(m[0].path, "$.b");
        fails("{$exact: {a: 1}}", json!({}));
    }

    #[test]
    fn url_matcher() {
        holds("{$url: 'http://h/x/?b=2'}", json!("http://H:80/x/?a=1&b=2"));
        fails("{$url: 'http://h/x/'}", json!("http://h/x"));
        fails("{$url: 'http://h/x?b=3'}", json!("http://h/x?b=2"));
        holds("{$url: 'http://h/a%20b'}", json!("http://h/a b"));
        holds(
            "{$url: {path: {$regex: '/events$'}, query: {page: 2, 'ids[]': [1, 2]}}}",
            json!("http://h/w/events?ids%5B%5D=2&page=2&ids[]=1"),
        );
        fails("{$url: {query: {page: 3}}}", json!("http://h/?page=2"));
        holds("{$url: {query: {page: {$absent: true}}}}", json!("http://h/"));
        fails("{$url: 'http://h/'}", json!("not a url"));
    }

    #[test]
    fn captured_values_match_as_subsets_with_literal_dollar_keys() {
        holds("'{{ev}}'", json!({"id": 5, "$weird": 1, "more": true}));
        fails("'{{ev}}'", json!({"id": 5}));
        holds("{$$weird: 1}", json!({"$weird": 1}));
    }

    #[test]
    fn load_checks() {
        let bad = |yaml: &str| {
            let node = Node::parse_str(yaml);
            crate::pattern::check(&node).unwrap_err().message
        };
        assert!(bad("{$type: integer, id: 1}").contains("mixes"));
        assert!(bad("{$typo: 1}").contains("unknown matcher"));
        assert!(bad("{$any: false}").contains("only `true`"));
        assert!(bad("{$type: float}").contains("unknown type"));
        assert!(bad("{$regex: '('}").contains("bad `$regex`"));
        assert!(bad("{$in: 1}").contains("list"));
        assert!(bad("{$gt: x}").contains("number"));
        assert!(bad("{$exact: 1}").contains("object"));
        assert!(bad("{$url: {host: x}}").contains("unknown key"));
    }

    #[test]
    fn expected_view_overlays_the_pattern() {
        let p = pat("{a: 1, b: {$type: string}, c: {$absent: true}}");
        let view = expected_view(&p, Some(&json!({"a": 2, "b": 3, "c": 4, "d": 5}))).unwrap();
        assert_eq!(view, json!({"a": 1, "b": {"$type": "string"}, "d": 5}));
    }
}
