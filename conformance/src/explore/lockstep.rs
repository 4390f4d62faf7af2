//! The lockstep oracle: each step goes to the implementation (A) and to a reference server (B)
//! that started from the same empty state, each with its own IDs filled in; the two answers are
//! compared with the `diff` comparison ([`crate::differential::compare`]): IDs paired by
//! creation order, server timestamps compared across the two clocks, addresses and names
//! replaced by placeholders.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Days, Utc};
use reqwest::Client;
use serde_json::Value;

use super::generate::{Step, LANGUAGE_PARAM, UNKNOWN_ID};
pub use crate::differential::compare::Leg;
use crate::differential::compare::{self, Compared, Normalisers, State};
use crate::differential::normalise::{Clocks, IdPairs, Normaliser, Space};
use crate::outcome::SentRequest;
use crate::runner::{send, Endpoint};

/// The most bytes of an answer read.
pub const MAX_RESPONSE: u64 = 8 * 1024 * 1024;

/// One side of the lockstep.
pub struct Side {
    pub endpoint: Endpoint,
    pub normaliser: Normaliser,
}

impl Side {
    pub fn new(endpoint: Endpoint) -> Side {
        let normaliser = Normaliser::of(&endpoint);
        Side { endpoint, normaliser }
    }
}

/// What one step gave.
pub struct Played {
    /// `POST /events` as sent to A (IDs filled in).
    pub request: String,
    pub legs: [Leg; 2],
    pub compared: Compared,
    /// A create that gave back an item it had on one side only (a duplicate venue or organizer
    /// by the site's own rule, D18) and a new one on the other: the items diverged there.
    pub duplicate_on_one_side: bool,
}

impl Played {
    /// What the reference server (B) answered: its status, or `None`.
    pub fn reference_status(&self) -> Option<u16> {
        match &self.legs[1] {
            Leg::Answered(answer) => Some(answer.status),
            Leg::Unanswered(_) => None,
        }
    }

    /// What the reference server (B) answered, as JSON (`None`: no answer, or not JSON).
    pub fn reference_body(&self) -> Option<Value> {
        match &self.legs[1] {
            Leg::Answered(answer) => send::parse_json(&answer.text).ok(),
            Leg::Unanswered(_) => None,
        }
    }
}

/// A sequence being played on both sides.
pub struct Lockstep<'a> {
    sides: [&'a Side; 2],
    client: &'a Client,
    token: String,
    now: DateTime<Utc>,
    /// Per side: the ID each creating step got, by label.
    ids: [BTreeMap<usize, u64>; 2],
    /// The creating steps that made an item on one side only (the other refused it).
    diverged: BTreeSet<usize>,
    state: State,
}

impl<'a> Lockstep<'a> {
    /// A fresh sequence with the run's word `token` and clock `now`.
    pub fn new(sides: [&'a Side; 2], client: &'a Client, token: &str, now: DateTime<Utc>) -> Lockstep<'a> {
        let state =
            State { ids: IdPairs::default(), clocks: Clocks { offset: None, tolerance: 5 }, ignored: BTreeSet::new() };
        let ids = [BTreeMap::new(), BTreeMap::new()];
        Lockstep { sides, client, token: token.to_string(), now, ids, diverged: BTreeSet::new(), state }
    }

    /// The IDs side `k` gave the creates so far, by label.
    pub fn ids_of(&self, k: usize) -> &BTreeMap<usize, u64> {
        &self.ids[k]
    }

    /// Sends `step` to both sides at once and compares the answers.
    pub async fn play(&mut self, step: &Step) -> Played {
        let requests = [0, 1].map(|k| self.request(step, k));
        let (a, b) = tokio::join!(
            send::send(self.client, &requests[0], MAX_RESPONSE),
            send::send(self.client, &requests[1], MAX_RESPONSE)
        );
        let legs = [a, b].map(|answer| match answer {
            Ok(answer) => Leg::Answered(answer),
            Err(error) => Leg::Unanswered(error.to_string()),
        });
        let mut existing = [false; 2];
        for (k, leg) in legs.iter().enumerate() {
            if let (true, Leg::Answered(answer)) = (step.creates(), leg) {
                let id = send::parse_json(&answer.text).ok().and_then(|json| json.get("id").and_then(Value::as_u64));
                if let (true, Some(id)) = ((200..300).contains(&answer.status), id) {
                    existing[k] = self.ids[k].values().any(|v| *v == id);
                    self.ids[k].insert(step.label, id);
                }
            }
        }
        if step.creates() && self.ids[0].contains_key(&step.label) != self.ids[1].contains_key(&step.label) {
            self.diverged.insert(step.label);
        }
        let duplicate_on_one_side = existing[0] != existing[1];
        if duplicate_on_one_side {
            self.diverge_with_its_twins(step.label);
        }
        let norm = Normalisers { a: &self.sides[0].normaliser, b: &self.sides[1].normaliser };
        let space = Space::of_key(step.resource.segment());
        let compared = compare::exchange(&mut self.state, &norm, space, &legs[0], &legs[1]);
        Played { request: format!("{} {}", requests[0].method, requests[0].url), legs, compared, duplicate_on_one_side }
    }

    /// Marks the create `label` diverged, with every earlier create that gave the same item on
    /// either side (the duplicate it was taken for, which a real site may also overwrite).
    fn diverge_with_its_twins(&mut self, label: usize) {
        let mut labels = vec![label];
        for k in 0..2 {
            if let Some(id) = self.ids[k].get(&label).copied() {
                labels.extend(self.ids[k].iter().filter(|(_, v)| **v == id).map(|(l, _)| *l));
            }
        }
        self.diverged.extend(labels);
    }

    /// Whether `step` names an item that exists on one side only (`{{id_N}}` or `{{slug_N}}` of
    /// a create that one side refused): its answers then differ as a consequence of that
    /// create, which was judged when it happened.
    /// Marks the items a step addresses as diverged: a decision of the reference server left
    /// them in another state on each side (D16 published a pending event), so that later steps
    /// on them are not judged, as for an item created on one side only.
    pub fn mark_diverged(&mut self, step: &Step) {
        let labels: Vec<usize> = labels_in(&step.path).collect();
        self.diverged.extend(labels);
    }

    /// Whether any item's two sides diverged so far: from then on, what counts items (a term's
    /// `count`, a list's `total`) counts them differently on each side.
    pub fn any_diverged(&self) -> bool {
        !self.diverged.is_empty()
    }

    /// Whether a list item (`id N …` as the comparison shows it, on side `k`) is one whose two
    /// sides diverged.
    pub fn diverged_item(&self, k: usize, summary: &str) -> bool {
        let Some(id) = summary.strip_prefix("id ").and_then(|rest| rest.split(' ').next()?.parse::<u64>().ok()) else {
            return false;
        };
        self.diverged_id(k, id)
    }

    /// Whether the item side `k` gave the ID `id` is one whose two sides diverged.
    pub fn diverged_id(&self, k: usize, id: u64) -> bool {
        self.ids[k].iter().any(|(label, v)| *v == id && self.diverged.contains(label))
    }

    pub fn follows_diverged(&self, step: &Step) -> bool {
        let mut texts: Vec<&str> = vec![&step.path];
        texts.extend(step.query.iter().map(|(_, v)| v.as_str()));
        let body = step.body.as_ref().map(|b| Value::Object(b.clone()).to_string()).unwrap_or_default();
        texts.push(&body);
        texts.iter().any(|text| labels_in(text).any(|label| self.diverged.contains(&label)))
    }

    /// The request of `step` for side `k`.
    fn request(&self, step: &Step, k: usize) -> SentRequest {
        let endpoint = &self.sides[k].endpoint;
        let mut url = format!("{}{}", endpoint.namespace_url(), self.render(&step.path, k));
        if !step.query.is_empty() {
            let mut query = form_urlencoded::Serializer::new(String::new());
            for (name, value) in &step.query {
                let name = if name == LANGUAGE_PARAM { &endpoint.language_param } else { name };
                query.append_pair(name, &self.render(value, k));
            }
            url = format!("{url}?{}", query.finish());
        }
        let body = step.body.as_ref().map(|body| self.render_json(&Value::Object(body.clone()), k).to_string());
        let mut headers = Vec::new();
        if body.is_some() {
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        let auth = step.role.as_ref().and_then(|role| endpoint.credentials.get(role).cloned());
        SentRequest { method: step.method.to_string(), url, headers, auth, auth_name: step.role.clone(), body }
    }

    fn render_json(&self, value: &Value, k: usize) -> Value {
        match value {
            Value::String(text) => match whole_id(text) {
                Some(label) => Value::from(self.id(label, k)),
                None => Value::String(self.render(text, k)),
            },
            Value::Array(items) => Value::Array(items.iter().map(|v| self.render_json(v, k)).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(n, v)| (n.clone(), self.render_json(v, k))).collect()),
            other => other.clone(),
        }
    }

    fn id(&self, label: usize, k: usize) -> u64 {
        self.ids[k].get(&label).copied().unwrap_or(UNKNOWN_ID)
    }

    /// `text` with `{{token}}`, `{{date(±Nd)}}`, `{{id_N}}` and `{{slug_N}}` (`sN-` and the
    /// token: the slug step N's create gave) filled in for side `k`.
    pub fn render(&self, text: &str, k: usize) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find("}}") else { break };
            let inner = &rest[open + 2..open + close];
            match inner {
                "token" => out.push_str(&self.token),
                _ if inner.starts_with("slug_") => out.push_str(&format!("s{}-{}", &inner[5..], self.token)),
                _ if inner.starts_with("id_") => {
                    out.push_str(&inner[3..].parse().map_or(UNKNOWN_ID, |label| self.id(label, k)).to_string())
                }
                _ => out.push_str(&date_of(self.now, inner).unwrap_or_else(|| inner.to_string())),
            }
            rest = &rest[open + close + 2..];
        }
        out.push_str(rest);
        out
    }
}

/// The labels of the `{{id_N}}` and `{{slug_N}}` templates of a text.
fn labels_in(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.split("{{").skip(1).filter_map(|part| {
        let inner = part.split("}}").next()?;
        inner.strip_prefix("id_").or_else(|| inner.strip_prefix("slug_"))?.parse().ok()
    })
}

/// The label of a text that is exactly `{{id_N}}`.
fn whole_id(text: &str) -> Option<usize> {
    text.strip_prefix("{{id_")?.strip_suffix("}}")?.parse().ok()
}

/// `date(+3d)` → the date three days from `now`, `YYYY-MM-DD` (as the case templates).
fn date_of(now: DateTime<Utc>, inner: &str) -> Option<String> {
    let days = inner.strip_prefix("date(")?.strip_suffix("d)")?;
    let n: i64 = days.parse().ok()?;
    let day = if n >= 0 {
        now.checked_add_days(Days::new(n as u64))
    } else {
        now.checked_sub_days(Days::new(n.unsigned_abs()))
    };
    Some(day?.format("%Y-%m-%d").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_filled_in_per_side() {
        let side = |base: &str| {
            Side::new(Endpoint {
                base_url: base.into(),
                namespace: "calendar/events/v1".into(),
                language_param: "multilingual_language".into(),
                credentials: Default::default(),
            })
        };
        let (a, b) = (side("http://a.test/wp-json"), side("http://b.test/wp-json"));
        let client = Client::new();
        let now = DateTime::parse_from_rfc3339("2026-01-30T10:00:00Z").unwrap().with_timezone(&Utc);
        let mut lockstep = Lockstep::new([&a, &b], &client, "xword", now);
        lockstep.ids[0].insert(3, 41);
        lockstep.ids[1].insert(3, 7);
        assert_eq!(
            lockstep.render("/events/{{id_3}} {{token}} {{date(+2d)}} {{date(-30d)}}", 0),
            "/events/41 xword 2026-02-01 2025-12-31"
        );
        assert_eq!(lockstep.render("{{id_3}},{{id_4}}", 1), format!("7,{UNKNOWN_ID}"));
        let body = serde_json::json!({"venue": "{{id_3}}", "tags": ["{{id_3}}"], "title": "a {{token}}"});
        assert_eq!(lockstep.render_json(&body, 1), serde_json::json!({"venue": 7, "tags": [7], "title": "a xword"}));
        assert_eq!(labels_in("/events/{{id_3}}?x={{slug_12}}&y={{token}}").collect::<Vec<_>>(), [3, 12]);
        assert!(!lockstep.diverged_item(1, "id 7 \"a title\""));
        let update = Step {
            label: 9,
            role: None,
            method: "POST",
            resource: reference_server::interface::Resource::Events,
            op: reference_server::interface::Op::Update,
            path: "/events/{{id_3}}".into(),
            query: Vec::new(),
            body: None,
            invalid: false,
        };
        lockstep.mark_diverged(&update);
        assert!(lockstep.follows_diverged(&update));
        assert!(lockstep.diverged_item(1, "id 7 \"a title\"") && lockstep.diverged_item(0, "id 41"));
        assert!(!lockstep.diverged_item(0, "id 7") && !lockstep.diverged_item(1, "{\"x\":1}"));
        assert!(lockstep.diverged_id(1, 7) && !lockstep.diverged_id(1, 8));
        // Create 5 gave back create 4's item on A only (a duplicate there): both diverge, and
        // create 3, another item, does not.
        lockstep.diverged.clear();
        lockstep.ids[0].extend([(4, 50), (5, 50)]);
        lockstep.ids[1].extend([(4, 60), (5, 61)]);
        lockstep.diverge_with_its_twins(5);
        assert!(lockstep.diverged_id(0, 50) && lockstep.diverged_id(1, 60) && lockstep.diverged_id(1, 61));
        assert!(!lockstep.diverged_id(1, 7));
    }
}
