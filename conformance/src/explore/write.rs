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
pub fn case_file(shrunk: &Shrunk, (seed, found_at): (u64, usize), now: DateTime<Utc>, namespace: &str) -> String {
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
    let how = if shrunk.replays == 0 {
        format!("the raw sequence of {} steps (not shrunk)", shrunk.steps.len())
    } else {
        format!("shrunk to {} steps", shrunk.steps.len())
    };
    let mut out = format!(
        "# Found by `conformance explore --seed {seed}` at step {found_at}, {how}.\n\
         # The implementation (A) and the reference server (B) differ: {} at {}: A {}, B {}\n\
         tags: [explore]\nlevel: {}\nspec: [\"{}\"]\ncases:\n  - name: {}\n    steps:\n",
        kind_name(d.kind),
        d.path,
        one_line(&d.a),
        one_line(&d.b),
        finding.level.name(),
        spec_of(finding, &shrunk.steps[last]),
        json!(name),
    );
    let writer = Writer {
        ids: &shrunk.reference_ids,
        token: &shrunk.token,
        dates: dates_around(now),
        now: now.naive_utc(),
        namespace: namespace.trim_matches('/'),
    };
    for (i, step) in shrunk.steps.iter().enumerate() {
        out.push_str(&format!("      - request: {}\n", writer.request(step)));
        let expect = if i == last { reference.map(|answer| expectation(finding, answer, &writer)) } else { None };
        let expect = expect.unwrap_or_else(|| json!({"status": class_of(shrunk.statuses.get(i).copied().flatten())}));
        out.push_str(&format!("        expect: {expect}\n"));
        if step.creates() && shrunk.reference_ids.contains_key(&step.label) && i != last {
            out.push_str(&format!("        capture: {{id_{}: $.id}}\n", step.label));
        }
    }
    out
}

/// The status class a set-up step got from the reference (`2xx`, `4xx`…): what the next steps
/// lean on (created or not, found or not); no answer is written as a success.
fn class_of(status: Option<u16>) -> String {
    format!("{}xx", status.map_or(2, |s| s / 100))
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
    /// The run's clock: a time near it in an answer is the clock's, not the sequence's.
    now: chrono::NaiveDateTime,
    /// The routes' namespace, which an address in an answer holds.
    namespace: &'a str,
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
            Value::String(s) if self.of_the_clock(s) => json!({"$type": "string"}),
            Value::String(s) if s.starts_with("http://") || s.starts_with("https://") => self.address(s),
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

impl Writer<'_> {
    /// A date and time the clock made (the time of a write), not the sequence: the sequence's
    /// times are whole minutes, so a time with seconds, or one within 15 hours of the run's
    /// clock (in any zone), is the clock's. A case pinning it would not replay.
    fn of_the_clock(&self, text: &str) -> bool {
        let Ok(time) = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S") else {
            return false;
        };
        time.and_utc().timestamp() % 60 != 0 || (time - self.now).num_hours().abs() < 15
    }

    /// An address in an answer as a pattern of its path: the host and port are the reference
    /// server's, the namespace and IDs the run's. `…/calendar/events/v1/events/82?…` →
    /// `/{{namespace | regex}}/events/{{id_3}}` followed by the query or the end.
    fn address(&self, url: &str) -> Value {
        let after_host = url.splitn(4, '/').nth(3).map_or(String::new(), |rest| format!("/{rest}"));
        let path = after_host.split(['?', '#']).next().unwrap_or_default();
        let needle = format!("/{}/", self.namespace);
        let (head, path) = match path.find(&needle) {
            Some(at) => ("/{{namespace | regex}}/".to_string(), &path[at + needle.len()..]),
            None => ("^https?://[^/]+/".to_string(), path.strip_prefix('/').unwrap_or(path)),
        };
        let mut pattern = head;
        for (i, segment) in path.split('/').enumerate() {
            if i > 0 {
                pattern.push('/');
            }
            let id = segment.parse::<u64>().ok().and_then(|n| self.ids.iter().find(|(_, v)| **v == n));
            match id {
                Some((label, _)) => pattern.push_str(&format!("{{{{id_{label}}}}}")),
                None => {
                    let pieces: Vec<String> = segment.split(self.token).map(regex::escape).collect();
                    pattern.push_str(&pieces.join("{{case_id}}"));
                }
            }
        }
        pattern.push_str("(\\?|#|$)");
        json!({"$regex": pattern})
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
    fn a_case_pins_no_time_of_the_clock_no_port_and_no_id() {
        let ids = BTreeMap::from([(3, 82)]);
        let now = chrono::NaiveDateTime::parse_from_str("2026-12-07 10:41:22", "%Y-%m-%d %H:%M:%S").unwrap();
        let writer = Writer { ids: &ids, token: "xtok", dates: Vec::new(), now, namespace: "calendar/events/v1" };
        let clock = json!({"$type": "string"});
        assert_eq!(writer.pattern(&json!("2026-12-07 10:41:23")), clock, "the time of a write");
        assert_eq!(writer.pattern(&json!("2027-03-01 09:00:07")), clock, "seconds are the clock's");
        assert_eq!(writer.pattern(&json!("2026-12-07 02:00:00")), clock, "near the clock, in any zone");
        assert_eq!(writer.pattern(&json!("2027-03-01 09:00:00")), json!("2027-03-01 09:00:00"));
        assert_eq!(
            writer.pattern(&json!("http://127.0.0.1:40953/wp-json/calendar/events/v1/events/82")),
            json!({"$regex": "/{{namespace | regex}}/events/{{id_3}}(\\?|#|$)"})
        );
        assert_eq!(
            writer.pattern(&json!("http://127.0.0.1:40953/event/a.b-xtok/?x=1")),
            json!({"$regex": "^https?://[^/]+/event/a\\.b\\-{{case_id}}/(\\?|#|$)"})
        );
        assert_eq!(writer.pattern(&json!(82)), json!("{{id_3}}"));
        assert_eq!(writer.pattern(&json!(10)), json!(10));
    }

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
