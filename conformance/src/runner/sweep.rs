//! The sweep: against an outside implementation, what a case created and did not delete is
//! deleted when the case ends, whatever the implementation accepted. Every answer of a case is
//! watched ([`Ledger::observe`]): a 2xx to a create (a `POST` to `/events`, `/venues`,
//! `/organizers`, `/categories` or `/tags`) adds the item its `id` names; a `DELETE` of that
//! item (by ID, or by the slug the create answered) answered 2xx or 410 takes it off. After
//! the case's own cleanup, [`sweep`] deletes what is left with `force=true`, as the role that
//! created it, then as administrator when that role could not. Its records join the cleanup's:
//! a failure is a warning, never the case's verdict.
//!
//! Two kinds of item are found another way, since no create answered them:
//! - made as a side effect: an event write that names a venue, organizer, category or tag by its
//!   name creates it, and its answer links it; such a linked item whose name holds the case's
//!   `case_id` (so no other case's item) is swept too;
//! - left by a create that got no answer (a timeout): the collection is searched for the case's
//!   `case_id` as administrator, every status, and what is found is swept.

use std::collections::BTreeSet;

use percent_encoding::percent_decode_str;
use reqwest::Client;
use serde_json::Value;

use super::connections::Connections;
use super::endpoint::Endpoint;
use super::send::{self, Answer};
use crate::credentials::WRONG_PASSWORD;
use crate::matcher::Mismatch;
use crate::outcome::{SentRequest, StepRecord};

/// The collections whose `POST` creates an item.
pub const COLLECTIONS: [&str; 5] = ["events", "venues", "organizers", "categories", "tags"];

/// The role the sweep falls back on.
const ADMINISTRATOR: &str = "administrator";

/// An item a create answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Created {
    pub collection: &'static str,
    pub id: u64,
    pub slug: Option<String>,
    /// The credential name the create was sent with (`None`: anonymous).
    pub role: Option<String>,
}

/// An item an event write's answer links (a venue, an organizer, a category or a tag), with
/// the name it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Linked {
    pub item: Created,
    pub name: String,
}

/// What a case created and what it deleted, as its answers tell.
#[derive(Debug, Default)]
pub struct Ledger {
    created: Vec<Created>,
    linked: Vec<Linked>,
    /// Collections a create was sent to that gave no answer.
    unanswered: BTreeSet<&'static str>,
    deleted: BTreeSet<(&'static str, u64)>,
    deleted_slugs: BTreeSet<(&'static str, String)>,
}

/// The links of an event's answer: field, collection, and the key of the name it shows.
const LINKS: [(&str, &str, &str); 4] = [
    ("venue", "venues", "venue"),
    ("organizer", "organizers", "organizer"),
    ("categories", "categories", "name"),
    ("tags", "tags", "name"),
];

/// Where a request goes within the namespace.
#[derive(Debug, PartialEq)]
enum Route {
    Collection(&'static str),
    Id(&'static str, u64),
    Slug(&'static str, String),
}

impl Ledger {
    /// Takes note of one exchange: `request` as sent and its `answer`.
    pub fn observe(&mut self, request: &SentRequest, answer: &Answer, endpoint: &Endpoint) {
        let Ok(url) = reqwest::Url::parse(&request.url) else {
            return;
        };
        let method = method(request, &url);
        let route = match (method.as_str(), route(&url, &endpoint.namespace)) {
            ("POST", Some(route @ Route::Collection(_))) => route,
            ("DELETE", Some(route @ (Route::Id(..) | Route::Slug(..)))) => route,
            ("PUT" | "PATCH" | "POST", Some(route @ (Route::Id("events", _) | Route::Slug("events", _)))) => route,
            // Only creates, deletes and event writes matter: no other answer is parsed.
            _ => return,
        };
        let (status, body) = unwrap_envelope(&url, answer);
        if method != "DELETE"
            && (200..300).contains(&status)
            && matches!(&route, Route::Id("events", _) | Route::Slug("events", _) | Route::Collection("events"))
        {
            self.note_links(body.as_ref(), role_of(request));
        }
        let id = body.as_ref().and_then(|b| b.get("id")).and_then(Value::as_u64);
        match (method.as_str(), route) {
            ("POST", Route::Collection(collection)) if (200..300).contains(&status) => {
                let Some(id) = id else { return };
                let slug = body.as_ref().and_then(|b| b.get("slug")).and_then(Value::as_str).map(str::to_string);
                self.created.push(Created { collection, id, slug, role: role_of(request) });
            }
            ("DELETE", route) if (200..300).contains(&status) || status == 410 => match route {
                Route::Id(collection, deleted) => {
                    self.deleted.insert((collection, deleted));
                }
                Route::Slug(collection, slug) => {
                    // The answer of a delete by slug names the item's ID too, when it has one.
                    if let Some(id) = id {
                        self.deleted.insert((collection, id));
                    }
                    self.deleted_slugs.insert((collection, slug));
                }
                Route::Collection(_) => {}
            },
            _ => {}
        }
    }

    /// Takes note of a request that got no answer: a create of it may have been made.
    pub fn unanswered(&mut self, request: &SentRequest, endpoint: &Endpoint) {
        let Ok(url) = reqwest::Url::parse(&request.url) else {
            return;
        };
        if let ("POST", Some(Route::Collection(collection))) =
            (method(request, &url).as_str(), route(&url, &endpoint.namespace))
        {
            self.unanswered.insert(collection);
        }
    }

    /// The venue, organizers, categories and tags an event's answer links.
    fn note_links(&mut self, body: Option<&Value>, role: Option<String>) {
        let Some(body) = body else { return };
        for (field, collection, name_key) in LINKS {
            let items: Vec<&Value> = match body.get(field) {
                Some(Value::Array(items)) => items.iter().collect(),
                Some(item @ Value::Object(_)) => vec![item],
                _ => continue,
            };
            for item in items {
                let (Some(id), Some(name)) =
                    (item.get("id").and_then(Value::as_u64), item.get(name_key).and_then(Value::as_str))
                else {
                    continue;
                };
                let slug = item.get("slug").and_then(Value::as_str).map(str::to_string);
                let linked =
                    Linked { item: Created { collection, id, slug, role: role.clone() }, name: name.to_string() };
                if !self.linked.contains(&linked) {
                    self.linked.push(linked);
                }
            }
        }
    }

    /// The items event writes made as a side effect: linked, named with `case_id`, neither
    /// created by a create of the case nor deleted.
    pub fn left_linked(&self, case_id: &str) -> Vec<&Created> {
        let known = |c: &Created| self.created.iter().any(|k| k.collection == c.collection && k.id == c.id);
        let mut out: Vec<&Created> = Vec::new();
        for linked in &self.linked {
            let item = &linked.item;
            let fresh = !known(item) && !out.iter().any(|o| o.collection == item.collection && o.id == item.id);
            if fresh && !case_id.is_empty() && linked.name.contains(case_id) && !self.is_deleted(item) {
                out.push(item);
            }
        }
        out
    }

    /// The collections a create was sent to that gave no answer.
    pub fn unanswered_creates(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.unanswered.iter().copied()
    }

    fn is_deleted(&self, c: &Created) -> bool {
        self.deleted.contains(&(c.collection, c.id))
            || c.slug.as_ref().is_some_and(|slug| self.deleted_slugs.contains(&(c.collection, slug.clone())))
    }

    /// What the case created and did not delete, in the order it was created.
    pub fn left(&self) -> Vec<&Created> {
        self.created.iter().filter(|c| !self.is_deleted(c)).collect()
    }
}

/// The credential name a request was sent with, without the wrong-password mark.
fn role_of(request: &SentRequest) -> Option<String> {
    request.auth_name.as_ref().map(|name| name.strip_suffix(WRONG_PASSWORD).unwrap_or(name).to_string())
}

/// The method the implementation acts on: the CMS's `_method` parameter and
/// `X-HTTP-Method-Override` header override the request's.
fn method(request: &SentRequest, url: &reqwest::Url) -> String {
    let header = request.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("x-http-method-override"));
    url.query_pairs()
        .find(|(k, _)| k == "_method")
        .map(|(_, v)| v.into_owned())
        .or_else(|| header.map(|(_, v)| v.clone()))
        .unwrap_or_else(|| request.method.clone())
        .to_ascii_uppercase()
}

/// The status and the JSON body, unwrapped from the CMS's `_envelope` when the request asked for it.
fn unwrap_envelope(url: &reqwest::Url, answer: &Answer) -> (u16, Option<Value>) {
    // Bounded like every other parse of an answer: a create answered with a huge array must not
    // cost gigabytes here either.
    let body = send::parse_json(&answer.text).ok();
    if !url.query_pairs().any(|(k, _)| k == "_envelope") {
        return (answer.status, body);
    }
    let status = body.as_ref().and_then(|b| b.get("status")).and_then(Value::as_u64);
    match (status.and_then(|s| u16::try_from(s).ok()), body) {
        (Some(status), Some(mut body)) => (status, body.get_mut("body").map(Value::take)),
        (_, body) => (answer.status, body),
    }
}

/// The route of `url` within `namespace` (on any language base address, or as the
/// plain-permalink `?rest_route=`), when it is one the sweep cares about.
fn route(url: &reqwest::Url, namespace: &str) -> Option<Route> {
    let path = match url.query_pairs().find(|(k, _)| k == "rest_route") {
        Some((_, route)) => route.into_owned(),
        None => percent_decode_str(url.path()).decode_utf8_lossy().into_owned(),
    };
    let namespace = format!("/{}", namespace.trim_matches('/'));
    let rest = &path[path.find(&namespace)? + namespace.len()..];
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').skip(1).collect();
    let collection = *COLLECTIONS.iter().find(|c| segments.first() == Some(*c))?;
    match segments[1..] {
        [] if rest.starts_with('/') => Some(Route::Collection(collection)),
        [id] if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => {
            Some(Route::Id(collection, id.parse().ok()?))
        }
        ["by-slug", slug] if !slug.is_empty() => Some(Route::Slug(collection, slug.to_string())),
        _ => None,
    }
}

/// Deletes what `ledger` says the case left, what its event writes made as a side effect, and
/// what a create without an answer may have left (found by the case's `case_id`); one record
/// per item (the administrator's attempt when the creator's did not succeed).
/// Its requests are logged under their connections as `CASE sweep[i] …` (`case`: the case's
/// name), like the case's own.
pub async fn sweep(ledger: &Ledger, endpoint: &Endpoint, sender: &Sender<'_>) -> Vec<StepRecord> {
    let mut items: Vec<Created> = ledger.left().into_iter().cloned().collect();
    items.extend(ledger.left_linked(sender.case_id).into_iter().cloned());
    let mut records = Vec::new();
    for collection in &ledger.unanswered {
        let (found, record) = search(collection, endpoint, sender).await;
        records.extend(record);
        for item in found {
            if !items.iter().any(|i| i.collection == item.collection && i.id == item.id) && !ledger.is_deleted(&item) {
                items.push(item);
            }
        }
    }
    for (i, item) in items.iter().enumerate() {
        let label = format!("sweep[{i}] {}/{}", item.collection, item.id);
        let creator = item.role.as_deref().filter(|role| endpoint.credentials.contains_key(*role));
        let mut record = delete(item, creator, endpoint, sender, &label).await;
        let admin = endpoint.credentials.contains_key(ADMINISTRATOR) && creator != Some(ADMINISTRATOR);
        if !record.ok() && admin {
            let first = record;
            record = delete(item, Some(ADMINISTRATOR), endpoint, sender, &label).await;
            if !record.ok() {
                records.push(first);
            }
        }
        records.push(record);
    }
    records
}

/// A create that got no answer: its case's items are searched for again when the run ends.
#[derive(Clone, Debug)]
pub struct Unanswered {
    pub collection: &'static str,
    pub case_id: String,
    /// The case's name, for the connection log.
    pub case: String,
}

/// At the end of a run: searches for what each create without an answer left and deletes it
/// as administrator; how many items were deleted, and the records of what went wrong.
pub async fn late(
    unanswered: &[Unanswered],
    endpoint: &Endpoint,
    client: &Client,
    connections: &Connections,
    max_response: u64,
) -> (usize, Vec<StepRecord>) {
    let (mut deleted, mut problems) = (0, Vec::new());
    for item in unanswered {
        let sender = Sender { client, connections, case: &item.case, case_id: &item.case_id, max_response };
        let (found, record) = search(item.collection, endpoint, &sender).await;
        problems.extend(record);
        for (i, created) in found.iter().enumerate() {
            let record = delete(created, Some(ADMINISTRATOR), endpoint, &sender, &format!("late sweep[{i}]")).await;
            if record.ok() {
                deleted += 1;
            } else {
                problems.push(record);
            }
        }
    }
    (deleted, problems)
}

/// How the sweep sends.
pub struct Sender<'a> {
    pub client: &'a Client,
    pub connections: &'a Connections,
    /// The case's name, for the connection log.
    pub case: &'a str,
    /// The case's `{{case_id}}`: the word its items are named with.
    pub case_id: &'a str,
    pub max_response: u64,
}

/// The items of `collection` whose name holds the case's `case_id`, every status, as the
/// administrator (none without its credentials); a record when the search itself failed.
async fn search(
    collection: &'static str,
    endpoint: &Endpoint,
    sender: &Sender<'_>,
) -> (Vec<Created>, Option<StepRecord>) {
    if sender.case_id.is_empty() || !endpoint.credentials.contains_key(ADMINISTRATOR) {
        return (Vec::new(), None);
    }
    let statuses = "publish,future,draft,pending,private";
    let mut url = format!("{}/{collection}?search={}&per_page=50", endpoint.namespace_url(), sender.case_id);
    if collection == "events" {
        // Every status, and every date: `starts_after` lifts the default window.
        url.push_str(&format!("&status={statuses}&starts_after=1990-01-01"));
    } else if collection != "categories" && collection != "tags" {
        url.push_str(&format!("&status={statuses}"));
    }
    let request = SentRequest {
        method: "GET".into(),
        url,
        headers: Vec::new(),
        auth: endpoint.credentials.get(ADMINISTRATOR).cloned(),
        auth_name: Some(ADMINISTRATOR.to_string()),
        body: None,
    };
    let what = format!("{} sweep search {collection}", sender.case);
    let label = format!("sweep search {collection}");
    match sender.connections.send(sender.client, &request, sender.max_response, &what).await {
        Ok(answer) if (200..300).contains(&answer.status) => {
            let body = send::parse_json(&answer.text).ok();
            (found_items(body.as_ref(), collection, sender.case_id), None)
        }
        Ok(answer) => {
            let mut record = StepRecord { label, status: Some(answer.status), ..StepRecord::default() };
            record.mismatches.push(Mismatch {
                path: "status".into(),
                expected: "a 2xx: the search for what a create without an answer left".into(),
                actual: answer.status.to_string(),
                at: crate::yaml::Pos::NONE,
            });
            record.request = Some(request.into());
            (Vec::new(), Some(record))
        }
        Err(error) => (
            Vec::new(),
            Some(StepRecord { label, error: Some(error), request: Some(request.into()), ..StepRecord::default() }),
        ),
    }
}

/// The items of a list answer whose name (an event's title, a venue's or organizer's name, a
/// term's name) holds `case_id`.
fn found_items(body: Option<&Value>, collection: &'static str, case_id: &str) -> Vec<Created> {
    let name_key = match collection {
        "events" => "title",
        "venues" => "venue",
        "organizers" => "organizer",
        _ => "name",
    };
    let items = body.and_then(|b| b.get(collection)).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    items
        .iter()
        .filter(|item| item.get(name_key).and_then(Value::as_str).is_some_and(|name| name.contains(case_id)))
        .filter_map(|item| item.get("id").and_then(Value::as_u64))
        .map(|id| Created { collection, id, slug: None, role: Some(ADMINISTRATOR.to_string()) })
        .collect()
}

/// `DELETE {collection}/{id}?force=true` as `role`; a record that is not ok unless the answer
/// is a 2xx or a 410.
async fn delete(
    item: &Created,
    role: Option<&str>,
    endpoint: &Endpoint,
    sender: &Sender<'_>,
    label: &str,
) -> StepRecord {
    let request = SentRequest {
        method: "DELETE".into(),
        url: format!("{}/{}/{}?force=true", endpoint.namespace_url(), item.collection, item.id),
        headers: Vec::new(),
        auth: role.and_then(|role| endpoint.credentials.get(role).cloned()),
        auth_name: role.map(str::to_string),
        body: None,
    };
    let mut record = StepRecord { label: label.to_string(), ..StepRecord::default() };
    let what = format!("{} {label}", sender.case);
    match sender.connections.send(sender.client, &request, sender.max_response, &what).await {
        Ok(answer) => {
            if !(200..300).contains(&answer.status) && answer.status != 410 {
                record.mismatches.push(Mismatch {
                    path: "status".into(),
                    expected: "a 2xx or 410: the item the case created is deleted".into(),
                    actual: answer.status.to_string(),
                    at: crate::yaml::Pos::NONE,
                });
            }
            record.status = Some(answer.status);
            record.body_size = answer.size;
            record.body = Some(crate::show::cut_bytes(answer.text, StepRecord::MAX_BODY));
        }
        Err(error) => record.error = Some(error),
    }
    record.request = Some(request.into());
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint() -> Endpoint {
        Endpoint {
            base_url: "http://h/wp-json".into(),
            namespace: "calendar/events/v1".into(),
            language_param: "multilingual_language".into(),
            credentials: Default::default(),
        }
    }

    fn request(method: &str, url: &str, auth: Option<&str>) -> SentRequest {
        SentRequest {
            method: method.into(),
            url: url.into(),
            headers: Vec::new(),
            auth: auth.map(|a| (a.into(), "p".into())),
            auth_name: auth.map(str::to_string),
            body: None,
        }
    }

    fn answer(status: u16, text: &str) -> Answer {
        Answer { status, headers: Vec::new(), text: text.into(), size: text.len(), utf8_error: None }
    }

    fn route_of(url: &str) -> Option<Route> {
        route(&reqwest::Url::parse(url).unwrap(), "calendar/events/v1")
    }

    #[test]
    fn routes_are_found_on_every_base_address() {
        assert_eq!(route_of("http://h/wp-json/calendar/events/v1/events"), Some(Route::Collection("events")));
        assert_eq!(route_of("http://h/wp-json/calendar/events/v1/tags/?x=1"), Some(Route::Collection("tags")));
        assert_eq!(route_of("http://h/fr/wp-json/calendar/events/v1/venues/12"), Some(Route::Id("venues", 12)));
        assert_eq!(
            route_of("http://h/?rest_route=/calendar/events/v1/events/by-slug/a%20b"),
            Some(Route::Slug("events", "a b".into()))
        );
        assert_eq!(
            route_of("http://h/wp-json/calendar/events/v1/events/by-slug/caf%C3%A9"),
            Some(Route::Slug("events", "café".into()))
        );
        for other in [
            "http://h/wp-json/calendar/events/v1/doc",
            "http://h/wp-json/calendar/events/v1/events/12/x",
            "http://h/wp-json/calendar/events/v1/events/-1",
            "http://h/wp-json/calendar/events/v1/eventsx",
            "http://h/wp-json/calendar/events/v1",
            "http://h/wp-json/other/v1/events",
            "http://h/wp-json/calendar/events/v1/events/99999999999999999999999",
        ] {
            assert_eq!(route_of(other), None, "{other}");
        }
    }

    #[test]
    fn a_create_is_remembered_until_a_delete_of_it_succeeds() {
        let mut ledger = Ledger::default();
        let ns = "http://h/wp-json/calendar/events/v1";
        let e = endpoint();
        ledger.observe(
            &request("POST", &format!("{ns}/events"), Some("editor")),
            &answer(201, r#"{"id":7,"slug":"a"}"#),
            &e,
        );
        ledger.observe(
            &request("POST", &format!("{ns}/venues"), Some("author")),
            &answer(200, r#"{"id":8,"slug":"v"}"#),
            &e,
        );
        ledger.observe(&request("POST", &format!("{ns}/tags"), None), &answer(201, r#"{"id":9}"#), &e);
        // Refused creates, answers without an ID and updates create nothing.
        ledger.observe(&request("POST", &format!("{ns}/events"), Some("editor")), &answer(400, r#"{"id":1}"#), &e);
        ledger.observe(&request("POST", &format!("{ns}/events"), Some("editor")), &answer(201, r#"{"slug":"x"}"#), &e);
        ledger.observe(&request("POST", &format!("{ns}/events/7"), Some("editor")), &answer(200, r#"{"id":70}"#), &e);
        ledger.observe(
            &request("GET", &format!("{ns}/events?_method=POST"), Some("editor")),
            &answer(201, r#"{"id":10}"#),
            &e,
        );
        let ids = |l: &Ledger| l.left().iter().map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(ids(&ledger), [7, 8, 9, 10]);
        assert_eq!(ledger.left()[0].role.as_deref(), Some("editor"));
        assert_eq!(ledger.left()[2].role, None);
        // A refused delete leaves the item; one that succeeds, or finds it gone, takes it off.
        ledger.observe(&request("DELETE", &format!("{ns}/events/7"), Some("subscriber")), &answer(403, "{}"), &e);
        ledger.observe(&request("DELETE", &format!("{ns}/tags/7"), Some("editor")), &answer(200, "{}"), &e);
        assert_eq!(ids(&ledger), [7, 8, 9, 10]);
        ledger.observe(&request("DELETE", &format!("{ns}/events/7"), Some("editor")), &answer(200, "{}"), &e);
        ledger.observe(&request("DELETE", &format!("{ns}/venues/by-slug/v"), Some("editor")), &answer(410, "{}"), &e);
        ledger.observe(
            &request("POST", &format!("{ns}/tags/9?_method=DELETE"), Some("editor")),
            &answer(200, "{}"),
            &e,
        );
        assert_eq!(ids(&ledger), [10]);
    }

    #[test]
    fn items_an_event_write_made_are_swept_when_named_with_the_case_id() {
        let mut ledger = Ledger::default();
        let ns = "http://h/wp-json/calendar/events/v1";
        let e = endpoint();
        ledger.observe(&request("POST", &format!("{ns}/organizers"), Some("editor")), &answer(201, r#"{"id":3}"#), &e);
        let body = r#"{"id":7,"venue":{"id":8,"venue":"Hall c123"},"organizer":[{"id":9,"organizer":"Other"},{"id":3,"organizer":"x c123"}],
            "categories":[{"id":10,"name":"Kind c123","slug":"kind-c123"}],"tags":[]}"#;
        ledger.observe(&request("PATCH", &format!("{ns}/events/7"), Some("editor")), &answer(200, body), &e);
        // A refused write links nothing.
        let refused = r#"{"id":7,"venue":{"id":11,"venue":"Refused c123"}}"#;
        ledger.observe(&request("PUT", &format!("{ns}/events/7"), Some("editor")), &answer(400, refused), &e);
        let linked = |l: &Ledger| l.left_linked("c123").iter().map(|c| (c.collection, c.id)).collect::<Vec<_>>();
        // 9 is not named with the case's word; 3 was created by the case itself.
        assert_eq!(linked(&ledger), [("venues", 8), ("categories", 10)]);
        assert_eq!(ledger.left_linked("c123")[0].role.as_deref(), Some("editor"));
        ledger.observe(&request("DELETE", &format!("{ns}/categories/10"), Some("editor")), &answer(200, "{}"), &e);
        assert_eq!(linked(&ledger), [("venues", 8)]);
        assert!(ledger.left_linked("").is_empty());
    }

    #[test]
    fn a_create_without_an_answer_marks_its_collection_for_a_search() {
        let mut ledger = Ledger::default();
        let ns = "http://h/wp-json/calendar/events/v1";
        ledger.unanswered(&request("POST", &format!("{ns}/events"), Some("editor")), &endpoint());
        ledger.unanswered(&request("GET", &format!("{ns}/venues"), Some("editor")), &endpoint());
        ledger.unanswered(&request("POST", &format!("{ns}/events/4"), Some("editor")), &endpoint());
        assert_eq!(ledger.unanswered.iter().copied().collect::<Vec<_>>(), ["events"]);
        let body: Value = serde_json::from_str(
            r#"{"events":[{"id":5,"title":"Big c123"},{"id":6,"title":"Other"},{"id":7}],"total":3}"#,
        )
        .unwrap();
        let found = found_items(Some(&body), "events", "c123");
        assert_eq!(found.iter().map(|c| c.id).collect::<Vec<_>>(), [5]);
        let terms: Value = serde_json::from_str(r#"{"categories":[{"id":5,"name":"c123 x"}]}"#).unwrap();
        assert_eq!(found_items(Some(&terms), "categories", "c123").len(), 1);
        assert!(found_items(None, "tags", "c123").is_empty());
    }

    #[test]
    fn an_enveloped_create_and_a_wrong_password_are_read_through() {
        let mut ledger = Ledger::default();
        let url = "http://h/wp-json/calendar/events/v1/organizers?_envelope=1";
        let body = r#"{"body":{"id":5},"status":201,"headers":{}}"#;
        ledger.observe(&request("POST", url, Some("author:wrong-password")), &answer(200, body), &endpoint());
        let refused = r#"{"body":{"id":6},"status":400,"headers":{}}"#;
        ledger.observe(&request("POST", url, Some("author")), &answer(200, refused), &endpoint());
        assert_eq!(
            ledger.left(),
            [&Created { collection: "organizers", id: 5, slug: None, role: Some("author".into()) }]
        );
    }
}
