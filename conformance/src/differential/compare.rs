//! Comparing the two answers of one exchange: the status, the error code, a few headers and
//! the JSON bodies key by key and value by value, after normalising what legitimately differs
//! ([`super::normalise`]). Every difference has its JSON path and both values.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Map, Value};

use super::normalise::{same_text_through_ids, Clocks, IdPairs, Normaliser, Space, CLOCK_KEYS};
use crate::matcher::{path_index, path_key};
use crate::runner::send::Answer;
use crate::show::{compact, cut};

/// The most differences kept per exchange; the rest are counted.
pub const MAX_PER_EXCHANGE: usize = 200;

/// The headers compared: the content type (its media type and parameters, case and spaces
/// aside), the list totals, the allowed methods (as a set), and the addresses.
pub const HEADERS: &[&str] =
    &["content-type", "x-tec-total", "x-tec-totalpages", "x-wp-total", "x-wp-totalpages", "allow", "location", "link"];

/// What kind of difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// One side answered, the other did not (not sent, or the request failed).
    Answer,
    Status,
    /// The error `code` of a refusal.
    Code,
    Header,
    /// A key one object has and the other lacks.
    Key,
    /// An object or list on one side, something else on the other.
    Shape,
    Value,
    /// A list item one side has and the other lacks.
    Item,
    /// The same items in another order.
    Order,
    /// Bodies that are not both JSON.
    Body,
}

impl Kind {
    /// Differences of the key structure (the `keys` agreement).
    pub fn is_structure(self) -> bool {
        matches!(self, Kind::Key | Kind::Shape)
    }

    /// Differences of the body (the `values` agreement).
    pub fn is_body(self) -> bool {
        matches!(self, Kind::Key | Kind::Shape | Kind::Value | Kind::Item | Kind::Order | Kind::Body)
    }
}

/// One difference: where, what, and both values as short texts (`absent` when a side has none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub path: String,
    pub kind: Kind,
    pub a: String,
    pub b: String,
}

/// One side of an exchange.
pub enum Leg {
    Answered(Answer),
    /// Not sent (a template needed a value this side did not capture) or failed in transport.
    Unanswered(String),
}

/// Whether the two sides agree on each aspect of an exchange; `None` where it does not apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Agreement {
    pub status: Option<bool>,
    pub code: Option<bool>,
    pub keys: Option<bool>,
    pub values: Option<bool>,
    pub headers: Option<bool>,
}

/// The comparison of one exchange.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Compared {
    pub differences: Vec<Difference>,
    /// Differences beyond [`MAX_PER_EXCHANGE`], not kept.
    pub cut: usize,
    pub agreement: Agreement,
}

/// What the comparison carries from one exchange to the next.
pub struct State {
    pub ids: IdPairs,
    pub clocks: Clocks,
    /// Keys whose values are not compared (`--ignore`).
    pub ignored: BTreeSet<String>,
}

/// The two sides' normalisers.
pub struct Normalisers<'a> {
    pub a: &'a Normaliser,
    pub b: &'a Normaliser,
}

/// Compares the two legs of an exchange on `route` (whose resources are in `space`).
pub fn exchange(state: &mut State, norm: &Normalisers, space: Option<Space>, a: &Leg, b: &Leg) -> Compared {
    let (a, b) = match (a, b) {
        (Leg::Answered(a), Leg::Answered(b)) => (a, b),
        (Leg::Unanswered(_), Leg::Unanswered(_)) => return Compared::default(),
        (a, b) => return one_side_answered(a, b),
    };
    let mut walk = Walk { state, norm, out: Vec::new(), cut: 0 };
    let (json_a, json_b) = (parse(a), parse(b));
    let mut agreement = Agreement { status: Some(a.status == b.status), ..Agreement::default() };
    agreement.code = walk.status_and_code(a, b, json_a.as_ref(), json_b.as_ref());
    let before = walk.out.len() + walk.cut;
    walk.headers(a, b);
    agreement.headers = Some(walk.out.len() + walk.cut == before);
    let both_json = json_a.is_some() && json_b.is_some();
    if a.status != b.status {
        // Two different answers: their bodies are not compared further.
        agreement.keys = both_json.then_some(false);
        agreement.values = Some(false);
    } else {
        let before = walk.out.len() + walk.cut;
        let structure = walk.bodies(a, b, &json_a, &json_b, space);
        agreement.keys = both_json.then_some(!structure && walk.cut == 0);
        agreement.values = Some(walk.out.len() + walk.cut == before);
    }
    Compared { differences: walk.out, cut: walk.cut, agreement }
}

/// One side answered and the other did not: one difference, `answer`.
fn one_side_answered(a: &Leg, b: &Leg) -> Compared {
    let show = |leg: &Leg| match leg {
        Leg::Answered(answer) => format!("status {}", answer.status),
        Leg::Unanswered(why) => cut(why, 300),
    };
    let difference = Difference { path: "answer".into(), kind: Kind::Answer, a: show(a), b: show(b) };
    let no = Some(false);
    let agreement = Agreement { status: no, code: None, keys: None, values: no, headers: None };
    Compared { differences: vec![difference], cut: 0, agreement }
}

fn parse(answer: &Answer) -> Option<Value> {
    let text = answer.text.trim();
    if text.is_empty() {
        return None;
    }
    crate::runner::send::parse_json(text).ok()
}

/// The `code` of an error answer.
fn error_code(answer: &Answer, json: Option<&Value>) -> Option<String> {
    if answer.status < 400 {
        return None;
    }
    json?.get("code")?.as_str().map(str::to_string)
}

/// One walk over a pair of answers.
struct Walk<'s, 'n> {
    state: &'s mut State,
    norm: &'n Normalisers<'n>,
    out: Vec<Difference>,
    cut: usize,
}

impl Walk<'_, '_> {
    fn push(&mut self, path: &str, kind: Kind, a: String, b: String) {
        if self.out.len() < MAX_PER_EXCHANGE {
            self.out.push(Difference { path: path.to_string(), kind, a, b });
        } else {
            self.cut += 1;
        }
    }

    /// The status (with each side's error code, when they differ), then the error code; returns
    /// whether the codes agree (`None` when neither side has one).
    fn status_and_code(
        &mut self,
        a: &Answer,
        b: &Answer,
        json_a: Option<&Value>,
        json_b: Option<&Value>,
    ) -> Option<bool> {
        let (code_a, code_b) = (error_code(a, json_a), error_code(b, json_b));
        if a.status != b.status {
            let with_code = |status: u16, code: &Option<String>| match code {
                Some(code) => format!("{status} ({code})"),
                None => status.to_string(),
            };
            self.push("status", Kind::Status, with_code(a.status, &code_a), with_code(b.status, &code_b));
        }
        if code_a.is_none() && code_b.is_none() {
            return None;
        }
        let agree = code_a == code_b;
        if !agree {
            let show = |code: Option<String>| code.unwrap_or_else(|| "absent".into());
            self.push("$.code", Kind::Code, show(code_a), show(code_b));
        }
        Some(agree)
    }

    /// The bodies of two answers with the same status: JSON value by value, other text as a
    /// whole. Returns whether a difference of the key structure was found.
    fn bodies(
        &mut self,
        a: &Answer,
        b: &Answer,
        json_a: &Option<Value>,
        json_b: &Option<Value>,
        space: Option<Space>,
    ) -> bool {
        match (json_a, json_b) {
            (Some(ja), Some(jb)) => {
                self.learn(ja, jb, space);
                let start = self.out.len();
                self.value(ja, jb, "$", None, space);
                return self.out[start..].iter().any(|d| d.kind.is_structure());
            }
            (None, None) => {
                let (ta, tb) = (self.norm.a.text(&a.text), self.norm.b.text(&b.text));
                if ta != tb && !same_text_through_ids(&ta, &tb, &self.state.ids) {
                    self.push("body", Kind::Body, cut(&a.text, 160), cut(&b.text, 160));
                }
            }
            _ => {
                let show = |json: &Option<Value>, answer: &Answer| match json {
                    Some(_) => "a JSON body".to_string(),
                    None => format!("not JSON: {:?}", cut(answer.text.trim(), 80)),
                };
                self.push("body", Kind::Body, show(json_a, a), show(json_b, b));
            }
        }
        false
    }

    fn headers(&mut self, a: &Answer, b: &Answer) {
        let find = |answer: &Answer, name: &str| {
            answer.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
        };
        for name in HEADERS {
            let (va, vb) = (find(a, name), find(b, name));
            let same = match (&va, &vb) {
                (None, None) => true,
                (Some(x), Some(y)) => match *name {
                    "content-type" => squeeze(x) == squeeze(y),
                    "allow" => method_set(x) == method_set(y),
                    "location" | "link" => {
                        let (x, y) = (self.norm.a.text(x), self.norm.b.text(y));
                        x == y || same_text_through_ids(&x, &y, &self.state.ids)
                    }
                    _ => x.trim() == y.trim(),
                },
                _ => false,
            };
            if !same {
                let show = |v: Option<String>| v.map(|v| cut(&v, 160)).unwrap_or_else(|| "absent".into());
                self.push(&format!("header {name}"), Kind::Header, show(va), show(vb));
            }
        }
    }

    /// The first pass: pairs the IDs found at the same place on both sides and learns the
    /// clocks' offset, so that the second pass compares an object's `rest_url` (which may come
    /// before its `id`) with the pair known.
    fn learn(&mut self, a: &Value, b: &Value, space: Option<Space>) {
        match (a, b) {
            (Value::Object(ma), Value::Object(mb)) => {
                if let (Some(space), Some(x), Some(y)) = (space, ma.get("id").and_then(id), mb.get("id").and_then(id)) {
                    self.state.ids.learn(space, x, y);
                }
                // The same role wrote the object on both sides: its users are a pair too.
                if let (Some(x), Some(y)) = (ma.get("author").and_then(id), mb.get("author").and_then(id)) {
                    self.state.ids.learn(Space::User, x, y);
                }
                let keyed_b = self.keyed(mb, false);
                for (key, va) in ma {
                    let key = self.norm.a.text(key);
                    let Some((_, vb)) = keyed_b.get(&key) else { continue };
                    if let (Value::String(x), Value::String(y)) = (va, vb) {
                        self.state.clocks.learn(&key, x, y);
                    }
                    self.learn(va, vb, Space::of_key(&key).or(space));
                }
            }
            // Items at the same place are the same only when the lists are as long.
            (Value::Array(la), Value::Array(lb)) if la.len() == lb.len() => {
                la.iter().zip(lb).for_each(|(x, y)| self.learn(x, y, space));
            }
            _ => {}
        }
    }

    /// B's keys normalised: normalised key → (key, value).
    fn keyed<'v>(&self, map: &'v Map<String, Value>, side_a: bool) -> BTreeMap<String, (&'v str, &'v Value)> {
        let norm = if side_a { self.norm.a } else { self.norm.b };
        map.iter().map(|(k, v)| (norm.text(k), (k.as_str(), v))).collect()
    }

    /// The second pass: compares `a` and `b` at `path`; `key` is the key they sit under.
    fn value(&mut self, a: &Value, b: &Value, path: &str, key: Option<&str>, space: Option<Space>) {
        if key.is_some_and(|k| self.state.ignored.contains(k)) {
            return;
        }
        if let Some(key) = key {
            if let Some(same) = self.special(a, b, key, space) {
                if !same {
                    self.push(path, Kind::Value, compact(a), compact(b));
                }
                return;
            }
        }
        match (a, b) {
            (Value::Object(ma), Value::Object(mb)) => self.object(ma, mb, path, space),
            (Value::Array(la), Value::Array(lb)) => self.array(la, lb, path, space),
            (Value::String(x), Value::String(y)) => {
                if x != y {
                    let (nx, ny) = (self.norm.a.text(x), self.norm.b.text(y));
                    if nx != ny && !same_text_through_ids(&nx, &ny, &self.state.ids) {
                        self.push(path, Kind::Value, compact(a), compact(b));
                    }
                }
            }
            (Value::Number(x), Value::Number(y)) => {
                if x != y && x.as_f64() != y.as_f64() {
                    self.push(path, Kind::Value, compact(a), compact(b));
                }
            }
            (x, y) if x == y => {}
            (x, y) => {
                let container = |v: &Value| v.is_object() || v.is_array();
                let kind = if container(x) || container(y) { Kind::Shape } else { Kind::Value };
                self.push(path, kind, compact(a), compact(b));
            }
        }
    }

    /// Values compared in their own way: clock timestamps, and IDs (numbers or lists of
    /// numbers under a key that carries IDs). `None` when the pair is not one of those.
    fn special(&mut self, a: &Value, b: &Value, key: &str, space: Option<Space>) -> Option<bool> {
        if CLOCK_KEYS.contains(&key) {
            if let (Value::String(x), Value::String(y)) = (a, b) {
                if let Some(same) = self.state.clocks.agree(x, y) {
                    return Some(same);
                }
            }
        }
        let id_space = match key {
            "id" | "parent" => space,
            _ => match Space::of_key(key) {
                Some(space) => Some(space),
                None if key.ends_with("_id") => None,
                None => return None,
            },
        };
        match (a, b) {
            (Value::Array(la), Value::Array(lb)) if la.len() == lb.len() && !la.is_empty() => {
                let pairs: Option<Vec<(u64, u64)>> = la.iter().zip(lb).map(|(x, y)| Some((id(x)?, id(y)?))).collect();
                pairs.map(|pairs| pairs.iter().all(|(x, y)| self.state.ids.same(id_space, *x, *y)))
            }
            _ => {
                let (x, y) = (id(a)?, id(b)?);
                Some(match (key, id_space) {
                    ("id" | "author", Some(space)) => self.state.ids.learn(space, x, y),
                    _ => self.state.ids.same(id_space, x, y),
                })
            }
        }
    }

    fn object(&mut self, ma: &Map<String, Value>, mb: &Map<String, Value>, path: &str, space: Option<Space>) {
        let keyed_b = self.keyed(mb, false);
        let keyed_a = self.keyed(ma, true);
        for (key, (raw, va)) in &keyed_a {
            let child = path_key(path, key);
            match keyed_b.get(key) {
                Some((_, vb)) => self.value(va, vb, &child, Some(key), Space::of_key(key).or(space)),
                None => {
                    if !self.state.ignored.contains(*raw) {
                        self.push(&child, Kind::Key, compact(va), "absent".into());
                    }
                }
            }
        }
        for (key, (raw, vb)) in &keyed_b {
            if !keyed_a.contains_key(key) && !self.state.ignored.contains(*raw) {
                self.push(&path_key(path, key), Kind::Key, "absent".into(), compact(vb));
            }
        }
    }

    fn array(&mut self, la: &[Value], lb: &[Value], path: &str, space: Option<Space>) {
        if let Some(pairing) = self.pairing_by_id(la, lb, space) {
            let mut matched = Vec::new();
            for (i, partner) in pairing.iter().enumerate() {
                match partner {
                    Some(j) => {
                        matched.push(*j);
                        self.value(&la[i], &lb[*j], &path_index(path, i), None, space);
                    }
                    None => self.push(&path_index(path, i), Kind::Item, item_summary(&la[i]), "absent".into()),
                }
            }
            for (j, item) in lb.iter().enumerate() {
                if !matched.contains(&j) {
                    self.push(&path_index(path, j), Kind::Item, "absent".into(), item_summary(item));
                }
            }
            if matched.windows(2).any(|w| w[0] > w[1]) {
                let ids = |list: &[Value]| {
                    let ids: Vec<String> =
                        list.iter().filter_map(|v| v.get("id").and_then(id)).map(|i| i.to_string()).collect();
                    format!("ids [{}]", ids.join(", "))
                };
                self.push(path, Kind::Order, ids(la), ids(lb));
            }
            return;
        }
        for (i, (x, y)) in la.iter().zip(lb).enumerate() {
            self.value(x, y, &path_index(path, i), None, space);
        }
        for (i, x) in la.iter().enumerate().skip(lb.len()) {
            self.push(&path_index(path, i), Kind::Item, item_summary(x), "absent".into());
        }
        for (i, y) in lb.iter().enumerate().skip(la.len()) {
            self.push(&path_index(path, i), Kind::Item, "absent".into(), item_summary(y));
        }
    }

    /// For lists of objects with IDs all paired already: the index in `lb` of each item of
    /// `la`'s partner. `None`: compare by position.
    fn pairing_by_id(&self, la: &[Value], lb: &[Value], space: Option<Space>) -> Option<Vec<Option<usize>>> {
        let space = space?;
        let ids_a: Vec<u64> = la.iter().map(|v| v.get("id").and_then(id)).collect::<Option<_>>()?;
        let ids_b: Vec<u64> = lb.iter().map(|v| v.get("id").and_then(id)).collect::<Option<_>>()?;
        if ids_a.is_empty() || ids_b.is_empty() {
            return None;
        }
        let partners: Vec<u64> = ids_a.iter().map(|a| self.state.ids.b_of(space, *a)).collect::<Option<_>>()?;
        Some(partners.iter().map(|p| ids_b.iter().position(|b| b == p)).collect())
    }
}

/// An ID: a non-negative integer, or a string of digits.
fn id(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) if !s.is_empty() && s.len() <= 19 && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        _ => None,
    }
}

/// A list item in a few words: its `id` and a name, or its compact JSON.
fn item_summary(value: &Value) -> String {
    match value.get("id") {
        Some(id) => {
            let name = ["title", "name", "venue", "organizer", "slug"]
                .iter()
                .find_map(|k| value.get(*k).and_then(Value::as_str))
                .map(|n| format!(" {:?}", cut(n, 60)))
                .unwrap_or_default();
            format!("id {}{name}", compact(id))
        }
        None => compact(value),
    }
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

fn method_set(text: &str) -> BTreeSet<String> {
    text.split(',').map(|m| m.trim().to_ascii_uppercase()).filter(|m| !m.is_empty()).collect()
}

/// The shape of a path, for grouping: list indices become `[*]`.
pub fn path_shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        match rest.find(']') {
            Some(close) if close > 1 && rest[1..close].bytes().all(|b| b.is_ascii_digit()) => {
                out.push_str("[*]");
                rest = &rest[close + 1..];
            }
            _ => {
                out.push('[');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Endpoint;
    use serde_json::json;

    fn normaliser(base: &str) -> Normaliser {
        Normaliser::of(&Endpoint {
            base_url: base.into(),
            namespace: "calendar/events/v1".into(),
            language_param: "multilingual_language".into(),
            credentials: Default::default(),
        })
    }

    fn answer(status: u16, body: Value, headers: &[(&str, &str)]) -> Leg {
        let text = body.to_string();
        Leg::Answered(Answer {
            status,
            headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
            size: text.len(),
            text,
            utf8_error: None,
        })
    }

    fn state() -> State {
        State { ids: IdPairs::default(), clocks: Clocks { offset: None, tolerance: 5 }, ignored: BTreeSet::new() }
    }

    fn compare(state: &mut State, space: Option<Space>, a: &Leg, b: &Leg) -> Compared {
        let (na, nb) = (normaliser("http://a.test:1/wp-json"), normaliser("http://b.test:2/wp-json"));
        exchange(state, &Normalisers { a: &na, b: &nb }, space, a, b)
    }

    fn paths(compared: &Compared) -> Vec<(&str, Kind)> {
        compared.differences.iter().map(|d| (d.path.as_str(), d.kind)).collect()
    }

    #[test]
    fn ids_hosts_and_clocks_are_taken_out() {
        let mut state = state();
        let created = |id: u64, host: &str, at: &str| {
            json!({"id": id, "rest_url": format!("http://{host}/wp-json/calendar/events/v1/events/{id}"),
                   "global_id": format!("{}?id={id}", host.split(':').next().unwrap()),
                   "date_utc": at, "modified": at, "title": "Launch",
                   "venue": {"id": id + 1, "venue": "Hall"}, "categories": [{"id": 3, "name": "Jazz"}]})
        };
        let a = answer(
            201,
            created(6, "a.test:1", "2026-01-01 10:00:00"),
            &[("content-type", "application/json; charset=UTF-8")],
        );
        let b = answer(
            201,
            created(1006, "b.test:2", "2026-01-01 12:00:02"),
            &[("Content-Type", "application/json;charset=utf-8")],
        );
        let compared = compare(&mut state, Some(Space::Post), &a, &b);
        assert_eq!(paths(&compared), vec![]);
        assert_eq!(
            compared.agreement,
            Agreement { status: Some(true), code: None, keys: Some(true), values: Some(true), headers: Some(true) }
        );
        assert_eq!(state.clocks.offset, Some(7202));
        assert!(state.ids.same(Some(Space::Post), 7, 1007), "the venue was paired too");
        // A later read of the same event: IDs compare through the pairs, a wrong one does not.
        let read = |id: u64, venue: u64, title: &str| json!({"id": id, "title": title, "venue": {"id": venue}, "modified": "2026-01-01 10:00:00"});
        let compared = compare(
            &mut state,
            Some(Space::Post),
            &answer(200, read(6, 7, "Launch"), &[]),
            &answer(200, read(1006, 1008, "Party"), &[]),
        );
        assert_eq!(
            paths(&compared),
            vec![("$.modified", Kind::Value), ("$.title", Kind::Value), ("$.venue.id", Kind::Value)]
        );
        let modified = &compared.differences[0];
        assert_eq!(
            (modified.a.as_str(), modified.b.as_str()),
            ("\"2026-01-01 10:00:00\"", "\"2026-01-01 10:00:00\""),
            "the clocks are two hours apart"
        );
        assert_eq!(compared.agreement.keys, Some(true));
        assert_eq!(compared.agreement.values, Some(false));
    }

    #[test]
    fn authors_pair_as_users() {
        let mut state = state();
        let a = answer(201, json!({"id": 6, "author": "2"}), &[]);
        let b = answer(201, json!({"id": 906, "author": "17"}), &[]);
        assert!(compare(&mut state, Some(Space::Post), &a, &b).differences.is_empty());
        let a = answer(200, json!({"id": 6, "author": "2"}), &[]);
        let b = answer(200, json!({"id": 906, "author": "18"}), &[]);
        let compared = compare(&mut state, Some(Space::Post), &a, &b);
        assert_eq!(paths(&compared), vec![("$.author", Kind::Value)], "2 is 17's already");
    }

    #[test]
    fn keys_items_order_and_shapes_are_told_apart() {
        let mut state = state();
        for (a, b) in [(6, 1006), (7, 1007), (8, 1008)] {
            state.ids.learn(Space::Post, a, b);
        }
        let a = answer(
            200,
            json!({"events": [{"id": 6}, {"id": 7}, {"id": 8}], "total": 3, "geo": {"lat": 1}}),
            &[("x-tec-total", "3")],
        );
        let b = answer(
            200,
            json!({"events": [{"id": 1007}, {"id": 1006}], "total": 2, "geo": "none", "extra": null}),
            &[("x-tec-total", "2")],
        );
        let compared = compare(&mut state, Some(Space::Post), &a, &b);
        assert_eq!(
            paths(&compared),
            vec![
                ("header x-tec-total", Kind::Header),
                ("$.events[2]", Kind::Item),
                ("$.events", Kind::Order),
                ("$.geo", Kind::Shape),
                ("$.total", Kind::Value),
                ("$.extra", Kind::Key),
            ]
        );
        assert_eq!(compared.differences[1].a, "id 8");
        assert_eq!(compared.agreement.keys, Some(false));
        assert_eq!(compared.agreement.headers, Some(false));
    }

    #[test]
    fn statuses_codes_and_missing_answers() {
        let mut state = state();
        let refusal = answer(400, json!({"code": "rest_invalid_param", "message": "no"}), &[]);
        let other = answer(404, json!({"code": "rest_no_route"}), &[]);
        let compared = compare(&mut state, None, &refusal, &other);
        assert_eq!(paths(&compared), vec![("status", Kind::Status), ("$.code", Kind::Code)]);
        assert_eq!(compared.differences[0].a, "400 (rest_invalid_param)");
        assert_eq!(
            compared.agreement,
            Agreement {
                status: Some(false),
                code: Some(false),
                keys: Some(false),
                values: Some(false),
                headers: Some(true)
            }
        );
        let compared = compare(&mut state, None, &refusal, &Leg::Unanswered("not sent: needs event_id".into()));
        assert_eq!(paths(&compared), vec![("answer", Kind::Answer)]);
        assert_eq!(compared.differences[0].a, "status 400");
        let nothing = compare(&mut state, None, &Leg::Unanswered("x".into()), &Leg::Unanswered("y".into()));
        assert_eq!(nothing.agreement, Agreement::default());
        let same = compare(
            &mut state,
            None,
            &refusal,
            &answer(400, json!({"code": "rest_invalid_param", "message": "no"}), &[]),
        );
        assert_eq!(same.agreement.code, Some(true));
        assert!(same.differences.is_empty());
    }

    #[test]
    fn ignored_keys_and_numbers_written_two_ways() {
        let mut state = state();
        state.ignored.insert("json_ld".into());
        let a = answer(200, json!({"json_ld": {"x": 1}, "lat": 1, "email": "&#97;@b"}), &[]);
        let b = answer(200, json!({"json_ld": {"x": 2}, "lat": 1.0, "email": "a@b"}), &[]);
        assert!(compare(&mut state, None, &a, &b).differences.is_empty());
        let b = answer(200, json!({"lat": 1.0, "email": "a@b"}), &[]);
        assert!(compare(&mut state, None, &a, &b).differences.is_empty(), "an ignored key may be absent too");
    }

    #[test]
    fn path_shapes_group_list_items() {
        assert_eq!(path_shape("$.events[12].categories[0].id"), "$.events[*].categories[*].id");
        assert_eq!(path_shape("$['a[1]'][3]"), "$['a[*]'][*]");
        assert_eq!(path_shape("header link"), "header link");
    }

    #[test]
    fn a_huge_difference_is_bounded() {
        let mut state = state();
        let a = answer(200, Value::Array((0..1000).map(Value::from).collect()), &[]);
        let b = answer(200, Value::Array((1..1001).map(Value::from).collect()), &[]);
        let compared = compare(&mut state, None, &a, &b);
        assert_eq!((compared.differences.len(), compared.cut), (MAX_PER_EXCHANGE, 800));
        assert_eq!(compared.agreement.values, Some(false));
    }
}
