//! The shrunk sequence as a case file: each step a request with the case templates
//! (`{{case_id}}` for the run's word, `{{date(+Nd)}}`, `{{id_N}}` captured from the creates the
//! reference server accepted), set-up steps expecting the reference's status class, and the
//! last step what the reference server answered there, at the finding's level: a must case
//! cites the interface (4.1) and asserts the status class only; a should case cites the `S`
//! section of what differs and asserts the exact status, the error code or the field.

use std::collections::BTreeMap;

use chrono::{DateTime, Days, Utc};
use serde_json::{json, Map, Value};

use super::generate::{Step, UNKNOWN_ID};
use super::judge::{Finding, Level};
use super::shrink::Shrunk;
use crate::differential::compare::{Kind, Leg};
use crate::runner::send::{parse_json, Answer};

/// The case file of a shrunk finding (`seed` and `found_at` for its comment and name).
pub fn case_file(shrunk: &Shrunk, seed: u64, found_at: usize, now: DateTime<Utc>) -> String {
    let finding = &shrunk.finding;
    let d = &finding.difference;
    let last = shrunk.steps.len() - 1;
    let reference = match &shrunk.played.legs[1] {
        Leg::Answered(answer) => Some(answer),
        Leg::Unanswered(_) => None,
    };
    let name = format!(
        "explore seed {seed} step {found_at}: {} {} differs at {} ({})",
        shrunk.steps[last].method,
        route(&shrunk.steps[last]),
        d.path,
        kind_name(d.kind)
    );
    let mut out = format!(
        "# Found by `conformance explore --seed {seed}` at step {found_at}, shrunk to {} steps.\n\
         # The implementation (A) and the reference server (B) differ: {} at {}: A {}, B {}\n\
         tags: [explore]\nlevel: {}\nspec: [\"{}\"]\ncases:\n  - name: {}\n    steps:\n",
        shrunk.steps.len(),
        kind_name(d.kind),
        d.path,
        one_line(&d.a),
        one_line(&d.b),
        finding.level.name(),
        spec_of(finding, &shrunk.steps[last]),
        json!(name),
    );
    let writer = Writer { ids: &shrunk.reference_ids, token: &shrunk.token, dates: dates_around(now) };
    for (i, step) in shrunk.steps.iter().enumerate() {
        out.push_str(&format!("      - request: {}\n", writer.request(step)));
        let expect = if i == last { reference.map(|answer| expectation(finding, answer, &writer)) } else { None };
        let expect = expect.unwrap_or_else(|| json!({"status": class_of(&shrunk.steps[i], &shrunk.reference_ids)}));
        out.push_str(&format!("        expect: {expect}\n"));
        if step.creates() && shrunk.reference_ids.contains_key(&step.label) && i != last {
            out.push_str(&format!("        capture: {{id_{}: $.id}}\n", step.label));
        }
    }
    out
}

/// The status class a set-up step got from the reference: created or not is all the next
/// steps lean on.
fn class_of(step: &Step, ids: &BTreeMap<usize, u64>) -> &'static str {
    if step.creates() && ids.contains_key(&step.label) {
        "2xx"
    } else if step.creates() {
        "4xx"
    } else {
        // Not asserted beyond answering: the finding is at the last step.
        "2xx"
    }
}

fn kind_name(kind: Kind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A value for the comment line: one line, control characters visible.
fn one_line(text: &str) -> String {
    crate::escape::terminal(&crate::show::cut(&text.replace('\n', " "), 120)).into_owned()
}

fn route(step: &Step) -> String {
    step.path.split("/{{").next().unwrap_or_default().to_string()
}

/// The section a case of this finding cites: the interface's routes for must; for should, the
/// errors (S2), the lists (S5), the writes (S6) or the representations (S4); for may, the `D`
/// section of the decision that explains it.
fn spec_of(finding: &Finding, step: &Step) -> &'static str {
    use reference_server::interface::Op;
    if let (Level::May, Some(section)) = (finding.level, finding.section) {
        return section;
    }
    match (finding.level, finding.difference.kind, step.op) {
        (Level::Must, _, _) => "4.1",
        (_, Kind::Status | Kind::Code, _) => "S2",
        (_, _, Op::List) => "S5",
        (_, _, Op::Create | Op::Update | Op::Delete) => "S6",
        _ => "S4",
    }
}

/// Turns the run's own values back into templates.
struct Writer<'a> {
    ids: &'a BTreeMap<usize, u64>,
    token: &'a str,
    /// (`YYYY-MM-DD`, `{{date(+Nd)}}`) for the days a sequence uses.
    dates: Vec<(String, String)>,
}

/// The dates from 500 days before `now` to 800 days after, with their templates (the generator's
/// publication dates go back 400 days, event dates 60).
fn dates_around(now: DateTime<Utc>) -> Vec<(String, String)> {
    (-500i64..=800)
        .filter_map(|n| {
            let day = if n >= 0 {
                now.checked_add_days(Days::new(n as u64))
            } else {
                now.checked_sub_days(Days::new(n.unsigned_abs()))
            }?;
            Some((day.format("%Y-%m-%d").to_string(), format!("{{{{date({n:+}d)}}}}")))
        })
        .collect()
}

impl Writer<'_> {
    fn request(&self, step: &Step) -> Value {
        let mut request = Map::new();
        request.insert("method".into(), json!(step.method));
        request.insert("path".into(), json!(self.text(&step.path)));
        if let Some(role) = &step.role {
            request.insert("auth".into(), json!(role));
        }
        if !step.query.is_empty() {
            let query: Map<String, Value> = step.query.iter().map(|(n, v)| (n.clone(), json!(self.text(v)))).collect();
            request.insert("query".into(), Value::Object(query));
        }
        if let Some(body) = &step.body {
            request.insert("json".into(), self.value(&Value::Object(body.clone())));
        }
        Value::Object(request)
    }

    /// `{{token}}` → `{{case_id}}`; `{{slug_N}}` → `sN-{{case_id}}`; an `{{id_N}}` the reference
    /// never gave → the unknown ID.
    fn text(&self, text: &str) -> String {
        let mut out = text.replace("{{token}}", "{{case_id}}");
        while let Some(at) = out.find("{{slug_") {
            let Some(end) = out[at..].find("}}") else { break };
            let label = out[at + 7..at + end].to_string();
            out.replace_range(at..at + end + 2, &format!("s{label}-{{{{case_id}}}}"));
        }
        for label in Step::labels_in(text) {
            if !self.ids.contains_key(&label) {
                out = out.replace(&format!("{{{{id_{label}}}}}"), &UNKNOWN_ID.to_string());
            }
        }
        out
    }

    fn value(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => json!(self.text(s)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.value(v)).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), self.value(v))).collect()),
            other => other.clone(),
        }
    }

    /// A value of the reference's answer as a pattern: its IDs as `{{id_N}}`, the run's word
    /// as `{{case_id}}`; objects with an `id` reduced to it.
    fn pattern(&self, value: &Value) -> Value {
        match value {
            Value::Object(map) if map.contains_key("id") => json!({"id": self.pattern(&map["id"])}),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), self.pattern(v))).collect()),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.pattern(v)).collect()),
            Value::Number(n) => match n.as_u64().and_then(|id| self.ids.iter().find(|(_, v)| **v == id)) {
                Some((label, _)) => json!(format!("{{{{id_{label}}}}}")),
                None => value.clone(),
            },
            Value::String(s) => {
                let mut text = s.replace(self.token, "{{case_id}}");
                if let Some((date, template)) = self.dates.iter().find(|(d, _)| text.contains(d.as_str())) {
                    text = text.replace(date.as_str(), template);
                }
                json!(text)
            }
            other => other.clone(),
        }
    }
}

/// What the last step expects: the reference's answer, at the finding's level.
fn expectation(finding: &Finding, answer: &Answer, writer: &Writer) -> Value {
    let class = format!("{}xx", answer.status / 100);
    if finding.level == Level::Must {
        return json!({"status": class});
    }
    let body = parse_json(&answer.text).ok();
    let d = &finding.difference;
    let field = match d.kind {
        Kind::Status => None,
        // Not JSON on one side, or another shape of the whole body: the reference's JSON type.
        Kind::Body | Kind::Shape if d.path == "body" || d.path == "$" => {
            body.as_ref().map(|b| json!({"$type": type_name(b)}))
        }
        Kind::Code => body.as_ref().and_then(|b| b.get("code")).map(|code| json!({"code": code})),
        _ => body.as_ref().and_then(|b| field_pattern(b, &d.path, writer)),
    };
    match field {
        Some(json) => json!({"status": answer.status, "json": json}),
        None => json!({"status": answer.status}),
    }
}

/// `{key: pattern}` for the top-level key of `path` (`$.tags[1]` → the whole `tags`).
fn field_pattern(body: &Value, path: &str, writer: &Writer) -> Option<Value> {
    let rest = path.strip_prefix("$.")?;
    let key = rest.split(['.', '[']).next()?;
    let value = body.get(key)?;
    let deeper = &rest[key.len()..];
    let pattern = match (value, deeper.strip_prefix('.')) {
        (Value::Object(map), Some(sub)) if !sub.contains(['.', '[']) && map.contains_key(sub) => {
            json!({sub: writer.pattern(&map[sub])})
        }
        _ => writer.pattern(value),
    };
    Some(json!({key: pattern}))
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::compare::Difference;
    use reference_server::interface::{Op, Resource};

    #[test]
    fn a_case_cites_the_section_of_its_level() {
        let step = Step {
            label: 0,
            role: None,
            method: "POST",
            resource: Resource::Events,
            op: Op::Update,
            path: "/events/{{id_0}}".into(),
            query: Vec::new(),
            body: None,
            invalid: false,
        };
        let finding = |level, kind, section| Finding {
            level,
            difference: Difference { path: "$.sticky".into(), kind, a: "false".into(), b: "true".into() },
            section,
        };
        assert_eq!(spec_of(&finding(Level::May, Kind::Value, Some("D16")), &step), "D16");
        assert_eq!(spec_of(&finding(Level::Should, Kind::Value, None), &step), "S6");
        assert_eq!(spec_of(&finding(Level::Should, Kind::Code, None), &step), "S2");
        assert_eq!(spec_of(&finding(Level::Must, Kind::Status, None), &step), "4.1");
    }
}
