//! The assert phase: compares an answer with a step's `expect` (status, headers, the JSON body,
//! `paths`) and lists every mismatch with its JSON path and the place in the case file the
//! expectation comes from.

use serde_json::Value;

use super::send::{Answer, JsonRefusal, MAX_JSON_VALUES};
use crate::diff::{diff, Diff};
use crate::env::Env;
use crate::matcher::{compare, expected_view, path_key, Mismatch};
use crate::model::{Capture, Step};
use crate::node::{Node, NodeKind};
use crate::outcome::StepError;
use crate::pattern::{self, status_class, Matcher, Pat};
use crate::show::excerpt;
use crate::yaml::Pos;

/// What the assertions found.
#[derive(Default)]
pub struct Checked {
    pub mismatches: Vec<Mismatch>,
    pub diff: Option<Diff>,
    /// The body as JSON, when the step needed it and it parsed (the captures read it).
    pub json: Option<Value>,
    pub error: Option<StepError>,
    /// What of the step's `assume` did not hold (the first mismatch), when the rest passed.
    pub unmet: Option<String>,
}

fn build(node: &Node, env: &Env) -> Result<Pat, StepError> {
    pattern::build(node, env).map_err(|e| StepError::Template(e.message))
}

fn at(mut mismatches: Vec<Mismatch>, pos: Pos) -> Vec<Mismatch> {
    mismatches.iter_mut().for_each(|m| m.at = pos);
    mismatches
}

/// Checks `answer` against `step.expect`.
pub fn check(step: &Step, env: &Env, answer: &Answer) -> Checked {
    let mut out = Checked::default();
    if let Err(e) = status_and_headers(step, env, answer, &mut out.mismatches) {
        out.error = Some(e);
        return out;
    }
    let expect = &step.expect;
    let needs_json = expect.json.is_some()
        || expect.assume.is_some()
        || !expect.paths.is_empty()
        || step.capture.iter().any(|(_, c)| matches!(c, Capture::Path(..)));
    if !needs_json {
        return out;
    }
    let json = match parse_json(answer) {
        Ok(json) => json,
        Err(mismatch) => {
            let pos = expect.json.as_ref().map(|n| n.at).unwrap_or(Pos::NONE);
            out.mismatches.push(Mismatch { at: pos, ..mismatch });
            return out;
        }
    };
    if let Err(e) = body(step, env, &json, &mut out) {
        out.error = Some(e);
    }
    if let (Some(node), true, None) = (&expect.assume, out.mismatches.is_empty(), &out.error) {
        match build(node, env) {
            Ok(pat) => out.unmet = compare(&pat, Some(&json), "$").first().map(|m| m.to_string()),
            Err(e) => out.error = Some(e),
        }
    }
    out.json = Some(json);
    out
}

fn status_and_headers(step: &Step, env: &Env, answer: &Answer, out: &mut Vec<Mismatch>) -> Result<(), StepError> {
    if let Some(node) = &step.expect.status {
        let mut found = match status_class_of(node) {
            Some(class) => class_mismatch(class, answer.status),
            None => compare(&build(node, env)?, Some(&Value::from(answer.status)), "status"),
        };
        // A refusal says why in its body: show the error code and message beside the status.
        if let Some(why) = error_code(answer) {
            found.iter_mut().for_each(|m| m.actual = format!("{} ({why})", m.actual));
        }
        out.extend(at(found, node.at));
    }
    for (name, node) in &step.expect.headers {
        let pat = build(node, env)?;
        let actual =
            answer.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| Value::String(v.clone()));
        out.extend(at(compare(&pat, actual.as_ref(), &format!("header {name}")), node.at));
    }
    Ok(())
}

/// The class of a `status: 2xx` expectation.
fn status_class_of(node: &Node) -> Option<u16> {
    match &node.kind {
        NodeKind::Str(t) if t.is_literal() => status_class(&t.source),
        _ => None,
    }
}

/// A status outside its expected class (`2` for `2xx`).
fn class_mismatch(class: u16, status: u16) -> Vec<Mismatch> {
    if status / 100 == class {
        return Vec::new();
    }
    vec![Mismatch {
        path: "status".into(),
        expected: format!("a {class}xx status"),
        actual: status.to_string(),
        at: Pos::NONE,
    }]
}

/// `code rest_invalid_param: Invalid parameter(s): start_date`, from an error body.
fn error_code(answer: &Answer) -> Option<String> {
    let body: Value = super::send::parse_json(&answer.text).ok()?;
    let code = body.get("code")?.as_str()?;
    match body.get("message").and_then(Value::as_str) {
        Some(message) => Some(format!("code {code}: {}", excerpt(message))),
        None => Some(format!("code {code}")),
    }
}

/// The body as JSON, or the mismatch that says why it is not.
fn parse_json(answer: &Answer) -> Result<Value, Mismatch> {
    let mismatch =
        |actual: String| Mismatch { path: "$".into(), expected: "a JSON body".into(), actual, at: Pos::NONE };
    // JSON is UTF-8 (RFC 8259): a body that is not must not pass after a lossy decoding.
    if let Some(offset) = answer.utf8_error {
        return Err(mismatch(format!(
            "a body that is not valid UTF-8 (byte {offset} of {} starts an invalid sequence)",
            answer.size
        )));
    }
    super::send::parse_json(&answer.text).map_err(|e| {
        mismatch(match e {
            _ if answer.text.trim().is_empty() => "an empty body".into(),
            JsonRefusal::TooManyValues => format!(
                "a body of more than {MAX_JSON_VALUES} JSON values ({} bytes), which the runner does not parse",
                answer.size
            ),
            JsonRefusal::Syntax(e) => format!("a body that is not JSON ({e}): {}", excerpt(&answer.text)),
        })
    })
}

fn body(step: &Step, env: &Env, json: &Value, out: &mut Checked) -> Result<(), StepError> {
    let expect = &step.expect;
    if let Some(node) = &expect.json {
        let pat = build(node, env)?;
        let mut found = compare(&pat, Some(json), "$");
        if !found.is_empty() {
            let view = expected_view(&pat, Some(json)).unwrap_or(Value::Null);
            out.diff = Some(diff(&view, json));
        }
        for m in &mut found {
            m.at = locate(node, &m.path);
        }
        out.mismatches.extend(found);
    }
    for (path, node) in &expect.paths {
        let compiled = path.resolve(env).map_err(StepError::Template)?;
        let pat = build(node, env)?;
        let nodes = compiled.query_located(json);
        if nodes.is_empty() {
            let absent = matches!(&pat, Pat::Matchers(m) if m.iter().any(|m| matches!(m, Matcher::Absent)));
            if !absent {
                out.mismatches.push(Mismatch {
                    path: path.source.clone(),
                    expected: pattern::describe(&pat),
                    actual: "nothing (the path selects no node)".into(),
                    at: node.at,
                });
            }
        }
        for found in nodes.iter() {
            let mut shown = "$".to_string();
            for element in found.location().iter() {
                shown = match element {
                    serde_json_path::PathElement::Name(name) => path_key(&shown, name),
                    serde_json_path::PathElement::Index(i) => format!("{shown}[{i}]"),
                };
            }
            out.mismatches.extend(at(compare(&pat, Some(found.node()), &shown), node.at));
        }
    }
    Ok(())
}

/// The deepest node of the `json` pattern on a mismatch's path (`$.events[2].venue.id`): the
/// line to show for it.
fn locate(root: &Node, path: &str) -> Pos {
    let mut node = root;
    let mut rest = path.strip_prefix('$').unwrap_or(path);
    loop {
        let (step, after) = match rest.as_bytes().first() {
            Some(b'.') => {
                let end = rest[1..].find(['.', '[']).map_or(rest.len(), |i| i + 1);
                (Segment::Key(rest[1..end].to_string()), &rest[end..])
            }
            Some(b'[') if rest[1..].starts_with('\'') => match rest.find("']") {
                Some(end) => (Segment::Key(rest[2..end].replace("\\'", "'").replace("\\\\", "\\")), &rest[end + 2..]),
                None => break,
            },
            Some(b'[') => match rest.find(']').and_then(|end| Some((rest[1..end].parse::<usize>().ok()?, end))) {
                Some((index, end)) => (Segment::Index(index), &rest[end + 1..]),
                None => break,
            },
            _ => break,
        };
        let next = match (&node.kind, &step) {
            (NodeKind::Object(entries), Segment::Key(key)) => {
                entries.iter().find(|(k, _)| k.text == *key || k.text == format!("${key}")).map(|(_, v)| v)
            }
            (NodeKind::Array(items), Segment::Index(i)) => items.get(*i),
            _ => None,
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
        rest = after;
    }
    node.at
}

enum Segment {
    Key(String),
    Index(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_points_at_the_deepest_pattern_line() {
        let node = Node::parse_str("events:\n  - {}\n  - venue:\n      id: 12\n'my key': 1\n");
        assert_eq!(locate(&node, "$.events[1].venue.id"), Pos::new(4, 11));
        assert_eq!(locate(&node, "$['my key']"), Pos::new(5, 11));
        assert_eq!(locate(&node, "$.events[7].x"), Pos::new(2, 3), "as deep as the pattern goes");
        assert_eq!(locate(&node, "$"), Pos::new(1, 1));
    }

    #[test]
    fn a_body_that_is_not_utf8_is_not_json() {
        let bytes = b"{\"a\": \"\xff\"}".to_vec();
        let e = String::from_utf8(bytes.clone()).unwrap_err();
        let answer = Answer {
            status: 200,
            headers: Vec::new(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
            size: bytes.len(),
            utf8_error: Some(e.utf8_error().valid_up_to()),
        };
        let m = parse_json(&answer).unwrap_err();
        assert_eq!(m.actual, "a body that is not valid UTF-8 (byte 7 of 10 starts an invalid sequence)");
    }

    #[test]
    fn a_status_mismatch_shows_the_error_code_and_message() {
        let answer = Answer {
            status: 400,
            headers: Vec::new(),
            text: r#"{"code":"rest_invalid_param","message":"Invalid parameter(s): start_date","data":{"status":400}}"#
                .into(),
            size: 0,
            utf8_error: None,
        };
        assert_eq!(error_code(&answer).unwrap(), "code rest_invalid_param: Invalid parameter(s): start_date");
    }

    #[test]
    fn a_status_class_holds_every_status_of_its_hundred() {
        let node = Node::parse_str("2xx");
        assert_eq!(status_class_of(&node), Some(2));
        for ok in [200, 201, 204, 299] {
            assert!(class_mismatch(2, ok).is_empty(), "{ok}");
        }
        for bad in [199, 300, 404, 500] {
            let found = class_mismatch(2, bad);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].expected, "a 2xx status");
        }
        assert_eq!(class_mismatch(4, 422).len(), 0);
        assert_eq!(class_mismatch(4, 500).len(), 1);
        assert_eq!(status_class_of(&Node::parse_str("200")), None);
    }
}
