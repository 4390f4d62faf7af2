//! Judging a difference between the implementation (A) and the reference server (B) at a level:
//!
//! - must: one side accepted and the other refused, or the status classes differ (2xx, 4xx,
//!   5xx), or one side did not answer;
//! - should: the exact status or error code, and the bodies' fields, a list's selection (items
//!   on one side only) or order;
//! - may (reported, never failing, never stopping a run): a difference that one of the reference
//!   server's own decisions explains, as the table of [`super::decisions`] says (the fields it
//!   adds to the interface, an update that changes only what it carries, list links, …), and
//!   what follows from it later: the same field of the same item in a later answer;
//! - not judged: headers, a key only the implementation has (extra fields are a freedom), and the
//!   payload of a refusal beyond its code (message, data).

use std::collections::BTreeMap;

use reference_server::interface::Op;
use serde_json::Value;

use super::decisions::{covering, last_key};
use super::generate::Step;
use crate::differential::compare::{path_shape, Compared, Difference, Kind, Leg};

/// The level of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Must,
    Should,
    May,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
        }
    }
}

/// A judged difference: its level and the first difference of that level.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub level: Level,
    pub difference: Difference,
    /// At may level, the `D` section of the decision that explains it.
    pub section: Option<&'static str>,
}

impl Finding {
    /// What a shrunk sequence must still show: the level, kind and path (list indices aside).
    pub fn signature(&self) -> (Level, Kind, String) {
        (self.level, self.difference.kind, path_shape(&self.difference.path))
    }
}

/// The most serious difference of an exchange, if any is judged: the first of its level, an
/// `author` last (a user ID tells little: each site numbers its users its own way).
pub fn judge(step: &Step, compared: &Compared, legs: &[Leg; 2]) -> Option<Finding> {
    most_serious(findings(step, compared, legs))
}

fn most_serious(findings: Vec<Finding>) -> Option<Finding> {
    findings.into_iter().min_by_key(|f| (f.level, f.difference.path.ends_with("author")))
}

/// Every judged difference of an exchange.
pub fn findings(step: &Step, compared: &Compared, legs: &[Leg; 2]) -> Vec<Finding> {
    let statuses = legs.each_ref().map(|leg| match leg {
        Leg::Answered(answer) => Some(answer.status),
        Leg::Unanswered(_) => None,
    });
    let bodies = legs.each_ref().map(|leg| match leg {
        Leg::Answered(answer) => serde_json::from_str::<Value>(&answer.text).ok(),
        Leg::Unanswered(_) => None,
    });
    compared
        .differences
        .iter()
        .filter(|d| !clock_noise(d, &bodies, wrote_date(step)))
        .filter_map(|d| finding(step, d, statuses))
        .collect()
}

/// The CMS's date of an item that has none yet (an unpublished item's `date_utc`).
const ZERO_DATE: &str = "0000-00-00 00:00:00";

/// A difference that only the two sites' clocks and the CMS's own dating rules make, and that
/// tells nothing of the implementation, so it is not judged:
/// - `modified`, `modified_utc`: the time of the last write on each side's clock (and a
///   back-dated create sets `modified` to that date on a real site);
/// - `date`, `date_utc`: when one side shows the zero date, when the two are within two seconds
///   (two clocks), or when the item is neither published nor scheduled on either side (an
///   unpublished item's date follows its writes) and the step did not write a `date` (one it
///   wrote must read back: a real site's sticky draft that takes the time of the update instead
///   is a finding).
fn clock_noise(difference: &Difference, bodies: &[Option<Value>; 2], wrote_date: bool) -> bool {
    if difference.kind != Kind::Value {
        return false;
    }
    let field = last_key(&difference.path);
    let [a, b] = [&difference.a, &difference.b].map(|text| serde_json::from_str::<String>(text).ok());
    let (Some(a), Some(b)) = (a, b) else { return false };
    let (Some(ta), Some(tb)) = (datetime(&a), datetime(&b)) else {
        return false;
    };
    match field {
        "modified" | "modified_utc" => true,
        "date" | "date_utc" => {
            let zero = a == ZERO_DATE || b == ZERO_DATE;
            let close = matches!((ta, tb), (Some(x), Some(y)) if (x - y).num_seconds().abs() <= 2);
            let unpublished = bodies.iter().flatten().any(|body| {
                let status =
                    container(body, &difference.path).and_then(|item| item.get("status")).and_then(Value::as_str);
                status.is_some_and(|s| s != "publish" && s != "future")
            });
            zero || close || (unpublished && !wrote_date)
        }
        _ => false,
    }
}

/// Whether the step's body writes a `date`.
fn wrote_date(step: &Step) -> bool {
    step.body.as_ref().is_some_and(|body| body.contains_key("date"))
}

/// `Some(Some(time))` for a CMS datetime, `Some(None)` for the zero date, `None` otherwise.
fn datetime(text: &str) -> Option<Option<chrono::NaiveDateTime>> {
    if text == ZERO_DATE {
        return Some(None);
    }
    chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok().map(Some)
}

/// The object that holds the field a path ends in (`$.events[2].date` → the third event).
fn container<'a>(body: &'a Value, path: &str) -> Option<&'a Value> {
    let field = last_key(path);
    let inner = path.strip_prefix('$')?.strip_suffix(field)?.strip_suffix('.')?;
    let mut value = body;
    for part in inner.split('.').filter(|p| !p.is_empty()) {
        let mut pieces = part.split('[');
        let key = pieces.next()?;
        if !key.is_empty() {
            value = value.get(key)?;
        }
        for index in pieces {
            value = value.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
        }
    }
    Some(value)
}

fn finding(step: &Step, difference: &Difference, statuses: [Option<u16>; 2]) -> Option<Finding> {
    let both_refused = matches!(statuses, [Some(a), Some(b)] if a >= 400 && b >= 400);
    let level = match difference.kind {
        Kind::Answer => Level::Must,
        Kind::Header => return None,
        // A key only the implementation has: extra fields are a freedom of the interface.
        Kind::Key if difference.b == "absent" => return None,
        // The rest of a refusal is its error payload (message, data): only its code is judged.
        Kind::Code | Kind::Status => Level::Should,
        _ if both_refused => return None,
        _ => Level::Should,
    };
    let level = match (difference.kind, statuses) {
        (Kind::Status, [Some(a), Some(b)]) if a / 100 != b / 100 && !credentials_only([a, b]) => Level::Must,
        (Kind::Status, [None, _] | [_, None]) => Level::Must,
        _ => level,
    };
    // A row turns a should difference into may, and a must one only when it names its kind.
    let covered =
        covering(step, difference).filter(|row| level == Level::Should || row.kinds.contains(&difference.kind));
    let section = covered.filter(|_| difference.kind != Kind::Answer).map(|row| row.section);
    let level = if section.is_some() { Level::May } else { level };
    Some(Finding { level, difference: difference.clone(), section })
}

/// Whether two statuses differ only in whether the caller may do it: one side refused with 401
/// or 403, the other did it. The interface states no credentials rule (which operations need
/// which rights is left open), so that is not a must difference.
fn credentials_only(statuses: [u16; 2]) -> bool {
    let refused = |status: u16| matches!(status, 401 | 403);
    let done = |status: u16| (200..300).contains(&status);
    let [a, b] = statuses;
    (refused(a) && done(b)) || (done(a) && refused(b))
}

/// Whether a difference is in what counts or selects items by their linked events: a term's
/// `count`, a list's `total` and `total_pages`, and the selection of a venue or organizer list
/// by `has_events` or `only_with_upcoming`. Once an item diverged (created on one side only, or
/// left in another state by a decision), these count it on one side only.
pub fn counts_items(step: &Step, difference: &Difference) -> bool {
    let by_events = step.query.iter().any(|(name, _)| name == "has_events" || name == "only_with_upcoming");
    // A page past the end on one side only (`…-archive-page-not-found`): the lists' lengths differ.
    let paged = step.op == Op::List && step.query.iter().any(|(name, _)| name == "page");
    matches!(last_key(&difference.path), "count" | "total" | "total_pages")
        || (by_events && difference.kind == Kind::Item)
        || (paged && matches!(difference.kind, Kind::Status | Kind::Code))
}

/// Whether a `slug` or `url` differs only in a number the CMS appends to make a slug unique
/// (`harbour-x` and `harbour-x-2`, or their addresses). Once items diverged, which numbers are
/// free differs on each side.
pub fn numbered_alike(difference: &Difference) -> bool {
    if difference.kind != Kind::Value || !matches!(last_key(&difference.path), "slug" | "url") {
        return false;
    }
    let [a, b] = [&difference.a, &difference.b].map(|text| serde_json::from_str::<String>(text).ok());
    let (Some(a), Some(b)) = (a, b) else { return false };
    // The slug of an address is its last segment; the site's own address differs as a whole.
    let slug = |text: &str| {
        let text = text.trim_end_matches('/');
        let last = text.rsplit('/').next().unwrap_or(text).to_string();
        match last.rsplit_once('-') {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => base.to_string(),
            _ => last,
        }
    };
    a != b && slug(&a) == slug(&b)
}

/// The items and fields in which a may difference was seen, with its section: the same field
/// of the same item differs in later answers as a consequence (an update that left `featured`
/// out reset it on one side; every later read of that event shows it).
#[derive(Default)]
pub struct Explained {
    seen: BTreeMap<(String, u64, String), &'static str>,
    /// The last exchange judged had a decision leave its item in another state on each side
    /// (D16 publishing a pending event, or resetting a field the update left out): the item's
    /// two sides diverged from there on.
    pub item_decided: bool,
}

impl Explained {
    /// Judges an exchange: a should difference at a field already explained becomes may; each
    /// may difference with a section explains its field from now on.
    pub fn judge(&mut self, step: &Step, compared: &Compared, legs: &[Leg; 2]) -> Option<Finding> {
        self.judge_following(step, compared, legs, &|_| false)
    }

    /// As [`Explained::judge`], leaving out the differences `diverged` says are on items whose
    /// two sides diverged (a list item one side has, created or changed by a decision).
    pub fn judge_following(
        &mut self,
        step: &Step,
        compared: &Compared,
        legs: &[Leg; 2],
        diverged: &dyn Fn(&Difference) -> bool,
    ) -> Option<Finding> {
        let mut all = findings(step, compared, legs);
        all.retain(|f| !diverged(&f.difference));
        let decided = all.iter().find(|f| f.level == Level::May && f.section.is_some_and(changes_item));
        self.item_decided = decided.is_some();
        if let Some(section) = decided.and_then(|f| f.section) {
            // The same answer's other fields of that item follow from the decision too (a draft
            // D16 published takes the time of the update as its date).
            for f in all.iter_mut().filter(|f| f.level == Level::Should && own_field(&f.difference)) {
                (f.level, f.section) = (Level::May, Some(section));
            }
        }
        if all.is_empty() {
            return None;
        }
        let reference = match &legs[1] {
            Leg::Answered(answer) => serde_json::from_str::<Value>(&answer.text).ok(),
            Leg::Unanswered(_) => None,
        };
        for f in &mut all {
            let Some(key) = reference.as_ref().and_then(|body| item_field(body, &f.difference.path, step)) else {
                continue;
            };
            match (f.level, f.section) {
                (Level::May, Some(section)) => {
                    self.seen.insert(key, section);
                }
                (Level::Should, None) if matches!(f.difference.kind, Kind::Value | Kind::Key) => {
                    if let Some(&section) = self.seen.get(&key) {
                        (f.level, f.section) = (Level::May, Some(section));
                    }
                }
                _ => {}
            }
        }
        most_serious(all)
    }
}

/// Whether a difference is in the answer's own item (`$.date`, `$.json_ld.url`,
/// `$.cost_details.values[0]`), not in a list's items or in a linked venue, organizer or term.
fn own_field(difference: &Difference) -> bool {
    let first = difference.path.trim_start_matches("$.").split(['.', '[']).next().unwrap_or_default();
    let linked = ["venue", "organizer", "categories", "tags", "events", "venues", "organizers"];
    matches!(difference.kind, Kind::Value | Kind::Key | Kind::Item) && !linked.contains(&first)
}

/// Whether the decision of `section` leaves its item in another state on each side.
fn changes_item(section: &str) -> bool {
    super::decisions::DECISIONS.iter().any(|row| row.section == section && row.changes_item)
}

/// The ID of the item that holds the field a path ends in, in the reference's body
/// (`$.events[2].cost` → the third event's ID; `$.events[2].venue.city` → its venue's).
pub fn item_id(body: &Value, path: &str, step: &Step) -> Option<u64> {
    item_field(body, path, step).map(|(_, id, _)| id)
}

/// The item a path leads into, in the reference's body, and the field: (its kind, its ID, the
/// field), e.g. `$.events[2].featured` → ("events", 41, "featured").
fn item_field(body: &Value, path: &str, step: &Step) -> Option<(String, u64, String)> {
    let field = last_key(path);
    let rest = path.strip_prefix('$')?;
    let container = rest.strip_suffix(field)?.strip_suffix('.')?;
    let (mut value, mut space) = (body, step.resource.segment().to_string());
    for part in container.split('.').filter(|p| !p.is_empty()) {
        let mut pieces = part.split('[');
        let key = pieces.next()?;
        value = value.get(key)?;
        space = match key {
            "venue" => "venues".to_string(),
            "organizer" => "organizers".to_string(),
            other => other.to_string(),
        };
        for index in pieces {
            value = value.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
        }
    }
    let id = value.get("id")?.as_u64()?;
    Some((space, id, field.to_string()))
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    fn value_difference(path: &str, a: &str, b: &str) -> Difference {
        Difference { path: path.into(), kind: Kind::Value, a: format!("{a:?}"), b: format!("{b:?}") }
    }

    #[test]
    fn the_clocks_and_the_cms_dating_rules_are_not_judged() {
        let published = [Some(serde_json::json!({"status": "publish"})), None];
        let draft = [None, Some(serde_json::json!({"events": [{"status": "draft"}]}))];
        let noise = |path, a, b, bodies: &[Option<Value>; 2]| clock_noise(&value_difference(path, a, b), bodies, false);
        assert!(noise("$.modified", "2026-01-01 10:00:00", "2026-12-07 08:00:00", &published));
        assert!(noise("$.date_utc", "0000-00-00 00:00:00", "2026-12-07 08:00:00", &published));
        assert!(noise("$.date", "2026-12-07 08:00:01", "2026-12-07 08:00:00", &published));
        assert!(noise("$.events[0].date", "2026-12-07 09:00:00", "2026-12-07 08:00:00", &draft));
        // A date the step wrote must read back, draft or not.
        let written = value_difference("$.events[0].date", "2026-12-07 09:00:00", "2022-02-03 04:05:06");
        assert!(!clock_noise(&written, &draft, true));
        // A published item's date an hour apart is a real difference, and so is any other field.
        assert!(!noise("$.date", "2026-12-07 09:00:00", "2026-12-07 08:00:00", &published));
        assert!(!noise("$.start_date", "2026-12-07 09:00:00", "2026-12-07 08:00:00", &published));
        assert!(!noise("$.modified", "yesterday", "2026-12-07 08:00:00", &published));
        let key = Difference { path: "$.modified".into(), kind: Kind::Key, a: "absent".into(), b: "\"x\"".into() };
        assert!(!clock_noise(&key, &published, false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::send::Answer;
    use reference_server::interface::{Op, Resource};
    use serde_json::json;

    fn step(op: Op, body: Option<Value>) -> Step {
        Step {
            label: 0,
            role: Some("editor".into()),
            method: "POST",
            resource: Resource::Events,
            op,
            path: "/events/{{id_1}}".into(),
            query: Vec::new(),
            body: body.and_then(|b| b.as_object().cloned()),
            invalid: false,
        }
    }

    fn answered(status: u16, body: Value) -> Leg {
        let text = body.to_string();
        Leg::Answered(Answer { status, headers: Vec::new(), text, size: 0, utf8_error: None })
    }

    fn leg(status: u16) -> Leg {
        Leg::Answered(Answer { status, headers: Vec::new(), text: String::new(), size: 0, utf8_error: None })
    }

    fn compared(kinds: &[(Kind, &str)]) -> Compared {
        let differences = kinds
            .iter()
            .map(|(kind, path)| Difference { path: path.to_string(), kind: *kind, a: "x".into(), b: "y".into() })
            .collect();
        Compared { differences, ..Compared::default() }
    }

    #[test]
    fn levels_follow_what_differs() {
        let level = |kinds: &[(Kind, &str)], a: u16, b: u16| {
            judge(&step(Op::Read, None), &compared(kinds), &[leg(a), leg(b)]).map(|f| f.level)
        };
        assert_eq!(level(&[(Kind::Status, "status")], 201, 400), Some(Level::Must));
        assert_eq!(level(&[(Kind::Status, "status")], 200, 201), Some(Level::Should));
        // Who may do what is left open by the interface: a refusal for rights is not must.
        assert_eq!(level(&[(Kind::Status, "status")], 403, 200), Some(Level::Should));
        assert_eq!(level(&[(Kind::Status, "status")], 201, 401), Some(Level::Should));
        assert_eq!(level(&[(Kind::Status, "status")], 403, 500), Some(Level::Must));
        assert_eq!(level(&[(Kind::Status, "status")], 404, 200), Some(Level::Must));
        assert_eq!(level(&[(Kind::Code, "$.code"), (Kind::Status, "status")], 404, 500), Some(Level::Must));
        assert_eq!(level(&[(Kind::Item, "$.events[1]")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[(Kind::Header, "header link"), (Kind::Value, "$.message")], 400, 400), None);
        assert_eq!(level(&[(Kind::Value, "$.additional_data[0]")], 400, 400), None);
        assert_eq!(level(&[(Kind::Value, "$.message")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[(Kind::Value, "$.events[3].ticketed")], 200, 200), Some(Level::May));
        assert_eq!(level(&[(Kind::Value, "$.venue.geo_lat")], 200, 200), Some(Level::May));
        assert_eq!(level(&[(Kind::Value, "$.ticketed"), (Kind::Value, "$.title")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[], 200, 200), None);
        let extra = [(Kind::Key, "$.extra")];
        assert_eq!(
            judge(&step(Op::Read, None), &compared(&extra), &[leg(200), leg(200)]).map(|f| f.level),
            Some(Level::Should)
        );
        let mut only_a = compared(&extra);
        only_a.differences[0].b = "absent".into();
        assert_eq!(judge(&step(Op::Read, None), &only_a, &[leg(200), leg(200)]), None, "an extra field is a freedom");
        let finding =
            judge(&step(Op::Read, None), &compared(&[(Kind::Item, "$.tags[1]")]), &[leg(200), leg(200)]).unwrap();
        assert_eq!(finding.signature(), (Level::Should, Kind::Item, "$.tags[*]".into()));
        let finding = judge(
            &step(Op::Read, None),
            &compared(&[(Kind::Value, "$.author"), (Kind::Value, "$.status")]),
            &[leg(201), leg(201)],
        );
        assert_eq!(finding.unwrap().difference.path, "$.status");
    }

    #[test]
    fn a_decision_is_may_and_so_is_what_follows_from_it() {
        let featured = compared(&[(Kind::Value, "$.featured")]);
        let reset = step(Op::Update, Some(json!({"title": "t"})));
        let finding = judge(&reset, &featured, &[leg(200), leg(200)]).unwrap();
        assert_eq!((finding.level, finding.section), (Level::May, Some("D16")));
        let carried = step(Op::Update, Some(json!({"featured": true})));
        assert_eq!(judge(&carried, &featured, &[leg(200), leg(200)]).unwrap().level, Level::Should);
        // A later read of the same event shows the same field differing: a consequence.
        let mut explained = Explained::default();
        let event = |id: u64| answered(200, json!({"id": id, "featured": true}));
        let read = step(Op::Read, None);
        assert_eq!(explained.judge(&read, &featured, &[leg(200), event(7)]).unwrap().level, Level::Should);
        assert_eq!(explained.judge(&reset, &featured, &[leg(200), event(7)]).unwrap().level, Level::May);
        let after = explained.judge(&read, &featured, &[leg(200), event(7)]).unwrap();
        assert_eq!((after.level, after.section), (Level::May, Some("D16")));
        assert_eq!(explained.judge(&read, &featured, &[leg(200), event(8)]).unwrap().level, Level::Should);
        let list = compared(&[(Kind::Value, "$.events[1].featured")]);
        let listed = answered(200, json!({"events": [{"id": 8}, {"id": 7, "featured": true}]}));
        assert_eq!(explained.judge(&read, &list, &[leg(200), listed]).unwrap().level, Level::May);
        let mut slug = step(Op::Update, Some(json!({"title": "t"})));
        (slug.path, slug.role) = ("/events/by-slug/{{slug_1}}".into(), Some("author".into()));
        let mut refused = compared(&[(Kind::Status, "status"), (Kind::Code, "$.code")]);
        refused.differences[0].a = "200".into();
        refused.differences[1].a = "absent".into();
        let finding = judge(&slug, &refused, &[leg(200), leg(403)]).unwrap();
        assert_eq!((finding.level, finding.section), (Level::May, Some("D13")), "a decision's own status class");
        let title = compared(&[(Kind::Value, "$.title")]);
        assert_eq!(explained.judge(&read, &title, &[leg(200), event(7)]).unwrap().level, Level::Should);
    }

    #[test]
    fn what_counts_items_is_told_apart() {
        let read = step(Op::Read, None);
        let value = |path: &str| Difference { path: path.into(), kind: Kind::Value, a: "1".into(), b: "0".into() };
        assert!(counts_items(&read, &value("$.categories[0].count")));
        assert!(counts_items(&read, &value("$.total")) && counts_items(&read, &value("$.total_pages")));
        assert!(!counts_items(&read, &value("$.title")) && !counts_items(&read, &value("$.events[0].cost")));
        let item = Difference { path: "$.venues[0]".into(), kind: Kind::Item, a: "id 3".into(), b: "absent".into() };
        assert!(!counts_items(&read, &item));
        let mut by_events = step(Op::List, None);
        by_events.query = vec![("has_events".into(), "true".into())];
        assert!(counts_items(&by_events, &item));
        let status = Difference { path: "status".into(), kind: Kind::Status, a: "200".into(), b: "404 (x)".into() };
        assert!(!counts_items(&by_events, &status), "the first page is there on both sides");
        by_events.query.push(("page".into(), "3".into()));
        assert!(counts_items(&by_events, &status), "a page past the end on one side");
    }

    #[test]
    fn slugs_numbered_apart_are_told_apart_from_other_slugs() {
        let value = |path: &str, a: &str, b: &str| Difference {
            path: path.into(),
            kind: Kind::Value,
            a: format!("{a:?}"),
            b: format!("{b:?}"),
        };
        assert!(numbered_alike(&value("$.slug", "atlas-x", "atlas-x-2")));
        assert!(numbered_alike(&value("$.venues[3].slug", "atlas-x-3", "atlas-x")));
        assert!(numbered_alike(&value("$.url", "http://a/event/atlas-x/", "http://b/event/atlas-x-2/")));
        assert!(!numbered_alike(&value("$.slug", "atlas-x", "atlas-y-2")), "another name");
        assert!(!numbered_alike(&value("$.slug", "atlas-x", "atlas-x")), "no difference");
        assert!(!numbered_alike(&value("$.title", "atlas-x", "atlas-x-2")), "not a slug");
        assert!(!numbered_alike(&value("$.url", "http://a/?p=38%2F/", "http://b/?p=28")), "not numbered");
    }

    #[test]
    fn a_state_a_decision_changed_marks_the_item_diverged() {
        let mut explained = Explained::default();
        let published = compared(&[(Kind::Value, "$.status")]);
        let reset = step(Op::Update, Some(json!({"title": "t"})));
        let finding = explained.judge(&reset, &published, &[leg(200), leg(200)]).unwrap();
        assert_eq!((finding.level, finding.section), (Level::May, Some("D16")));
        assert!(explained.item_decided, "D16 published it on one side");
        let read = step(Op::Read, None);
        assert!(explained.judge(&read, &compared(&[(Kind::Value, "$.title")]), &[leg(200), leg(200)]).is_some());
        assert!(!explained.item_decided);
        let cost = compared(&[(Kind::Value, "$.cost")]);
        assert_eq!(explained.judge(&reset, &cost, &[leg(200), leg(200)]).unwrap().section, Some("D16"));
        assert!(explained.item_decided, "D16 reset the cost on one side");
        // What follows in the same answer is the decision's too: a date, not a linked venue's.
        let more = compared(&[(Kind::Value, "$.status"), (Kind::Value, "$.date"), (Kind::Value, "$.venue.city")]);
        let finding = explained.judge(&reset, &more, &[leg(200), leg(200)]).unwrap();
        assert_eq!((finding.level, finding.difference.path.as_str()), (Level::Should, "$.venue.city"));
        let cost = compared(&[(Kind::Value, "$.cost"), (Kind::Item, "$.cost_details.values[0]")]);
        assert_eq!(explained.judge(&reset, &cost, &[leg(200), leg(200)]).unwrap().level, Level::May);
        let organizer = compared(&[(Kind::Value, "$.status"), (Kind::Value, "$.organizer[0].phone")]);
        assert_eq!(explained.judge(&reset, &organizer, &[leg(200), leg(200)]).unwrap().level, Level::Should);
        let both = compared(&[(Kind::Value, "$.status"), (Kind::Value, "$.date")]);
        assert_eq!(explained.judge(&reset, &both, &[leg(200), leg(200)]).unwrap().level, Level::May);
        let links = compared(&[(Kind::Value, "$.rest_url")]);
        let list = step(Op::List, None);
        assert_eq!(explained.judge(&list, &links, &[leg(200), leg(200)]).unwrap().section, Some("D10"));
        assert!(!explained.item_decided, "D10 changes no item");
        // A list item of a diverged item is left out; the rest is judged.
        let items = compared(&[(Kind::Item, "$.events[0]"), (Kind::Value, "$.total")]);
        let diverged = |d: &Difference| d.kind == Kind::Item;
        let finding = explained.judge_following(&read, &items, &[leg(200), leg(200)], &diverged).unwrap();
        assert_eq!(finding.difference.path, "$.total");
        let only_items = compared(&[(Kind::Item, "$.events[0]")]);
        assert_eq!(explained.judge_following(&read, &only_items, &[leg(200), leg(200)], &diverged), None);
    }
}
