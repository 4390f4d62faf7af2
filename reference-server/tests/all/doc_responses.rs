//! Every response conforms to `/doc`: a scripted set of exchanges covers every route and
//! method, successes and errors, as different users; each response is checked against the
//! schema the document gives for its path, method and status (an undocumented status fails).
//!
//! When the conformance runner records the suite's exchanges, the same check applies to them
//! (`doc_support::response_schema` and `doc_support::violations`).

use crate::doc_support;

use std::collections::BTreeSet;

use doc_support::{config, get_json, response_schema, send, start, violations, Body, Exchange};
use reqwest::Method;
use serde_json::{json, Value};

const ADMIN: Option<(&str, &str)> = Some(("admin", "admin-password"));
const CONTRIBUTOR: Option<(&str, &str)> = Some(("contributor", "contributor-password"));
const SUBSCRIBER: Option<(&str, &str)> = Some(("subscriber", "subscriber-password"));
const WRONG: Option<(&str, &str)> = Some(("admin", "wrong"));
const NOBODY: Option<(&str, &str)> = Some(("nobody", "x"));

struct Script {
    client: reqwest::Client,
    api: String,
    doc: Value,
    /// (method, template, status) of every exchange.
    seen: Vec<(String, String, u16)>,
    problems: Vec<String>,
}

impl Script {
    /// Sends one request to `path` (relative to the API base; `template` is its `/doc` path),
    /// checks the status it was meant to produce, then checks the response against the document.
    async fn call(
        &mut self,
        method: Method,
        template: &str,
        path: &str,
        user: Option<(&str, &str)>,
        body: Body,
        expected: u16,
    ) -> Value {
        let url = format!("{}{path}", self.api);
        let exchange = send(&self.client, method.clone(), &url, user, body).await;
        self.conform(&exchange, template);
        assert_eq!(exchange.status, expected, "{method} {path}: {}", exchange.body);
        self.seen.push((method.as_str().to_string(), template.to_string(), exchange.status));
        exchange.body
    }

    fn conform(&mut self, exchange: &Exchange, template: &str) {
        let here = format!("{} {} ({})", exchange.method, exchange.url, exchange.status);
        if exchange.content_type.as_deref() != Some("application/json; charset=UTF-8") {
            self.problems.push(format!("{here}: content type {:?}", exchange.content_type));
        }
        match response_schema(&self.doc, template, exchange.method.as_str(), exchange.status) {
            Ok(schema) => {
                for violation in violations(&self.doc, schema, &exchange.body) {
                    self.problems.push(format!("{here}: {violation}"));
                }
            }
            Err(problem) => self.problems.push(format!("{here}: {problem}")),
        }
        let operation = &self.doc["paths"][template][exchange.method.as_str().to_ascii_lowercase()];
        let documented = &operation["responses"][exchange.status.to_string()]["headers"];
        for (name, header) in documented.as_object().into_iter().flatten() {
            let value = exchange.headers.get(name.as_str()).and_then(|value| value.to_str().ok());
            let fits = match (value, header["schema"]["type"].as_str()) {
                (Some(text), Some("integer")) => text.parse::<u64>().is_ok(),
                (Some(_), _) => true,
                (None, _) => false,
            };
            if !fits {
                self.problems.push(format!("{here}: header {name} is {value:?}"));
            }
        }
    }
}

fn id_of(body: &Value) -> u64 {
    body["id"].as_u64().unwrap_or_else(|| panic!("no id in {body}"))
}

#[tokio::test]
async fn every_response_conforms_to_the_document() {
    let (server, client) = start(config()).await;
    let doc = get_json(&client, &format!("{}/doc", server.api_url())).await;
    let mut s = Script { client, api: server.api_url().to_string(), doc, seen: Vec::new(), problems: Vec::new() };
    use Body::{Form, Json, Raw};
    use Method as M;
    let none = || Body::None;

    // ----- the self-describing routes -----
    s.call(M::GET, "/", "", None, none(), 200).await;
    s.call(M::GET, "/", "?context=help&multilingual_language=de", None, none(), 200).await;
    s.call(M::GET, "/", "?namespace=other/v2", None, none(), 404).await;
    s.call(M::GET, "/", "?multilingual_language=xx", None, none(), 400).await;
    s.call(M::GET, "/doc", "/doc", None, none(), 200).await;
    s.call(M::GET, "/doc", "/doc?multilingual_language=es", ADMIN, none(), 200).await;
    s.call(M::GET, "/doc", "/doc?multilingual_language=", None, none(), 400).await;
    s.call(M::GET, "/doc", "/doc", WRONG, none(), 401).await;

    // ----- terms -----
    let music = id_of(
        &s.call(
            M::POST,
            "/categories",
            "/categories",
            ADMIN,
            Json(json!({"name": "Music", "description": "Live music"})),
            201,
        )
        .await,
    );
    let jazz = id_of(
        &s.call(
            M::POST,
            "/categories",
            "/categories",
            ADMIN,
            Form(vec![("name".into(), "Jazz".into()), ("parent".into(), music.to_string())]),
            201,
        )
        .await,
    );
    let outdoor = id_of(
        &s.call(M::POST, "/tags", "/tags", ADMIN, Json(json!({"name": "Outdoor", "slug": "outdoor"})), 201).await,
    );
    s.call(M::POST, "/categories", "/categories", ADMIN, Json(json!({"name": "Music"})), 400).await; // term_exists
    s.call(M::POST, "/tags", "/tags", ADMIN, Json(json!({"name": "Child", "parent": music})), 400).await; // not hierarchical
    s.call(M::POST, "/tags", "/tags", ADMIN, Json(json!({})), 400).await; // missing name
    s.call(M::POST, "/tags", "/tags", None, Json(json!({"name": "Anonymous"})), 401).await;
    s.call(M::POST, "/tags", "/tags", SUBSCRIBER, Json(json!({"name": "Subscribed"})), 403).await;
    s.call(M::GET, "/categories/{id}", &format!("/categories/{jazz}"), None, none(), 200).await;
    s.call(M::GET, "/tags/{id}", &format!("/tags/{outdoor}"), None, none(), 200).await;
    s.call(M::GET, "/categories/{id}", "/categories/999999", None, none(), 400).await;
    s.call(M::GET, "/tags/{id}", "/tags/12x", None, none(), 404).await; // no route
    s.call(
        M::POST,
        "/categories/{id}",
        &format!("/categories/{jazz}"),
        ADMIN,
        Json(json!({"description": "Swing"})),
        200,
    )
    .await;
    s.call(M::PUT, "/categories/{id}", &format!("/categories/{jazz}"), ADMIN, Json(json!({"slug": "jazz-swing"})), 200)
        .await;
    s.call(M::PATCH, "/categories/{id}", &format!("/categories/{jazz}"), ADMIN, Json(json!({"name": "Music"})), 200)
        .await;
    s.call(M::POST, "/tags/{id}", &format!("/tags/{outdoor}"), ADMIN, Json(json!({"description": "Open air"})), 200)
        .await;
    s.call(
        M::PUT,
        "/tags/{id}",
        &format!("/tags/{outdoor}"),
        ADMIN,
        Form(vec![("name".into(), "Outdoors".into())]),
        200,
    )
    .await;
    s.call(M::PATCH, "/tags/{id}", &format!("/tags/{outdoor}"), CONTRIBUTOR, Json(json!({"name": "Out"})), 403).await;
    s.call(M::PATCH, "/tags/{id}", &format!("/tags/{outdoor}"), ADMIN, Json(json!({"name": "Outside"})), 200).await;
    s.call(M::PATCH, "/tags/{id}", &format!("/tags/{outdoor}"), ADMIN, Raw("application/json", b"{bad".to_vec()), 400)
        .await;

    // ----- venues and organizers -----
    let venue_body = json!({
        "venue": "Blue Note Hall", "description": "A small club", "address": "1 Main St", "city": "Springfield",
        "country": "US", "state": "IL", "zip": "62701", "phone": "+1 555 0100", "website": "https://bluenote.example",
        "show_map": "true", "show_map_link": "false", "image": "4", "geo_lat": 39.78, "geo_lng": -89.65
    });
    let venue = s.call(M::POST, "/venues", "/venues", ADMIN, Json(venue_body.clone()), 201).await;
    let venue_id = id_of(&venue);
    let venue_slug = venue["slug"].as_str().unwrap().to_string();
    s.call(M::POST, "/venues", "/venues", ADMIN, Json(venue_body), 201).await; // the same venue again
    let bare_venue =
        id_of(&s.call(M::POST, "/venues", "/venues", ADMIN, Json(json!({"venue": "Bare Room"})), 201).await);
    let draft_venue = id_of(
        &s.call(M::POST, "/venues", "/venues", ADMIN, Json(json!({"venue": "Secret Room", "status": "draft"})), 201)
            .await,
    );
    s.call(M::POST, "/venues", "/venues", ADMIN, Json(json!({"venue": "X", "show_map": true})), 400).await;
    s.call(M::POST, "/venues", "/venues", None, Json(json!({"venue": "Nobody's"})), 401).await;
    let organizer = s.call(M::POST, "/organizers", "/organizers", ADMIN, Json(json!({"organizer": "Jazz Society", "email": "hello@jazz.example", "phone": "555", "website": "https://jazz.example", "image": "http://img.example/logo.png"})), 201).await;
    let organizer_id = id_of(&organizer);
    let organizer_slug = organizer["slug"].as_str().unwrap().to_string();
    let bare_organizer = id_of(
        &s.call(M::POST, "/organizers", "/organizers", CONTRIBUTOR, Json(json!({"organizer": "Quiet Folk"})), 201)
            .await,
    );
    s.call(M::POST, "/organizers", "/organizers", ADMIN, Json(json!({"email": "x@example.com"})), 400).await;
    s.call(M::POST, "/organizers", "/organizers", CONTRIBUTOR, Json(json!({"organizer": "Ghost", "author": 1})), 403)
        .await;

    for (collection, id, slug) in [("venues", venue_id, &venue_slug), ("organizers", organizer_id, &organizer_slug)] {
        let by_id = format!("/{collection}/{{id}}");
        let by_slug = format!("/{collection}/by-slug/{{slug}}");
        s.call(M::GET, &by_id, &format!("/{collection}/{id}"), None, none(), 200).await;
        s.call(M::GET, &by_slug, &format!("/{collection}/by-slug/{slug}"), None, none(), 200).await;
        s.call(M::GET, &by_id, &format!("/{collection}/999999"), None, none(), 400).await;
        s.call(M::GET, &by_slug, &format!("/{collection}/by-slug/no-such-slug"), None, none(), 400).await;
        s.call(M::POST, &by_id, &format!("/{collection}/{id}"), ADMIN, Json(json!({"description": "Updated"})), 200)
            .await;
        s.call(M::PUT, &by_id, &format!("/{collection}/{id}"), ADMIN, Json(json!({"phone": ""})), 200).await;
        s.call(M::PATCH, &by_id, &format!("/{collection}/{id}"), None, Json(json!({"phone": "1"})), 401).await;
        s.call(M::PATCH, &by_id, &format!("/{collection}/{id}"), ADMIN, Json(json!({"phone": "+1 555 0199"})), 200)
            .await;
        s.call(
            M::PATCH,
            &by_slug,
            &format!("/{collection}/by-slug/{slug}"),
            ADMIN,
            Json(json!({"description": ""})),
            200,
        )
        .await;
        s.call(
            M::POST,
            &by_slug,
            &format!("/{collection}/by-slug/{slug}"),
            ADMIN,
            Form(vec![("website".into(), "https://new.example".into())]),
            200,
        )
        .await;
        s.call(
            M::PUT,
            &by_slug,
            &format!("/{collection}/by-slug/{slug}"),
            ADMIN,
            Json(json!({"status": "publish"})),
            200,
        )
        .await;
        s.call(
            M::PATCH,
            &by_slug,
            &format!("/{collection}/by-slug/{slug}"),
            CONTRIBUTOR,
            Json(json!({"status": "draft"})),
            403,
        )
        .await;
        s.call(
            M::PATCH,
            &by_slug,
            &format!("/{collection}/by-slug/{slug}"),
            ADMIN,
            Json(json!({"date": "not a date"})),
            400,
        )
        .await;
    }
    s.call(M::GET, "/venues/{id}", &format!("/venues/{draft_venue}"), None, none(), 403).await;
    s.call(M::GET, "/venues/{id}", &format!("/venues/{draft_venue}"), ADMIN, none(), 200).await;

    // ----- events -----
    let full = s.call(M::POST, "/events", "/events", ADMIN, Json(json!({
        "title": "Jazz Night", "description": "<p>Trio</p>", "excerpt": "Trio", "start_date": "2026-12-01 20:00:00",
        "end_date": "2026-12-01 23:00", "timezone": "Europe/Paris", "cost": ["10", "20"], "website": "https://jazz.example/night",
        "image": "4", "venue": venue_id, "organizer": [organizer_id, bare_organizer], "categories": [jazz], "tags": [outdoor],
        "featured": true, "sticky": "1", "show_map": true, "show_map_link": false, "hide_from_listings": false
    })), 201).await;
    let event_id = id_of(&full);
    let event_slug = full["slug"].as_str().unwrap().to_string();
    let inline = id_of(&s.call(M::POST, "/events", "/events", ADMIN, Json(json!({
        "title": "Inline", "start_date": "tomorrow 9am", "end_date": "tomorrow 5pm", "all_day": true,
        "venue": {"venue": "Garden", "city": "Lyon"}, "organizer": [{"organizer": "Friends"}, {"id": organizer_id}],
        "categories": "Open Air, Festivals", "cost": 0
    })), 201).await);
    let protected = id_of(&s.call(M::POST, "/events", "/events", ADMIN, Json(json!({"title": "Members only", "start_date": "2026-12-02 10:00", "end_date": "2026-12-02 12:00", "password": "secret", "venue": bare_venue, "cost": "Free"})), 201).await);
    let draft = id_of(
        &s.call(
            M::POST,
            "/events",
            "/events",
            CONTRIBUTOR,
            Form(vec![
                ("title".into(), "Draft".into()),
                ("start_date".into(), "2026-12-03".into()),
                ("end_date".into(), "2026-12-03".into()),
            ]),
            201,
        )
        .await,
    );
    s.call(M::POST, "/events", "/events", ADMIN, Json(json!({"title": "No dates"})), 400).await;
    s.call(
        M::POST,
        "/events",
        "/events",
        ADMIN,
        Json(json!({"title": "Bad venue", "start_date": "today", "end_date": "today", "venue": {"city": "Nowhere"}})),
        400,
    )
    .await;
    s.call(M::POST, "/events", "/events", ADMIN, Raw("application/json", b"[1,".to_vec()), 400).await;
    s.call(
        M::POST,
        "/events",
        "/events",
        None,
        Json(json!({"title": "Anon", "start_date": "today", "end_date": "today"})),
        401,
    )
    .await;
    s.call(
        M::POST,
        "/events",
        "/events",
        SUBSCRIBER,
        Json(json!({"title": "Sub", "start_date": "today", "end_date": "today"})),
        403,
    )
    .await;
    s.call(
        M::POST,
        "/events",
        "/events",
        NOBODY,
        Json(json!({"title": "Who", "start_date": "today", "end_date": "today"})),
        401,
    )
    .await;
    let huge = vec![b' '; 8 * 1024 * 1024 + 16];
    s.call(M::POST, "/events", "/events", ADMIN, Raw("application/json", huge), 413).await;

    s.call(M::GET, "/events/{id}", &format!("/events/{event_id}"), None, none(), 200).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{inline}"), None, none(), 200).await;
    s.call(M::GET, "/events/by-slug/{slug}", &format!("/events/by-slug/{event_slug}"), None, none(), 200).await;
    s.call(M::GET, "/events/by-slug/{slug}", "/events/by-slug/unknown-event", None, none(), 400).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{protected}"), None, none(), 403).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{protected}?password=secret"), None, none(), 200).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{draft}"), None, none(), 403).await;
    s.call(M::GET, "/events/{id}", "/events/999999", None, none(), 404).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{venue_id}"), None, none(), 400).await;
    s.call(M::GET, "/events/{id}", "/events/0?multilingual_language=klingon", None, none(), 400).await;

    s.call(
        M::POST,
        "/events/{id}",
        &format!("/events/{event_id}"),
        ADMIN,
        Json(json!({"title": "Jazz Night II"})),
        200,
    )
    .await;
    s.call(
        M::PUT,
        "/events/{id}",
        &format!("/events/{event_id}"),
        ADMIN,
        Json(json!({"timezone": "America/New_York", "cost": "$15"})),
        200,
    )
    .await;
    s.call(
        M::PATCH,
        "/events/{id}",
        &format!("/events/{event_id}"),
        ADMIN,
        Form(vec![("featured".into(), "false".into()), ("organizer[]".into(), organizer_id.to_string())]),
        200,
    )
    .await;
    s.call(
        M::PATCH,
        "/events/{id}",
        &format!("/events/{event_id}"),
        CONTRIBUTOR,
        Json(json!({"title": "Mine now"})),
        403,
    )
    .await;
    s.call(M::PATCH, "/events/{id}", "/events/999999", ADMIN, Json(json!({"title": "Nothing"})), 404).await;
    s.call(
        M::POST,
        "/events/by-slug/{slug}",
        &format!("/events/by-slug/{event_slug}"),
        ADMIN,
        Json(json!({"excerpt": "Short"})),
        200,
    )
    .await;
    s.call(
        M::PUT,
        "/events/by-slug/{slug}",
        &format!("/events/by-slug/{event_slug}"),
        ADMIN,
        Json(json!({"venue": ""})),
        200,
    )
    .await;
    s.call(
        M::PATCH,
        "/events/by-slug/{slug}",
        &format!("/events/by-slug/{event_slug}"),
        ADMIN,
        Json(json!({"all_day": "yes"})),
        400,
    )
    .await;
    s.call(
        M::PATCH,
        "/events/by-slug/{slug}",
        &format!("/events/by-slug/{event_slug}"),
        ADMIN,
        Json(json!({"all_day": "1", "tags": []})),
        200,
    )
    .await;
    s.call(
        M::PUT,
        "/events/by-slug/{slug}",
        "/events/by-slug/no-such-event",
        ADMIN,
        Json(json!({"title": "Nothing"})),
        404,
    )
    .await;

    // ----- lists -----
    s.call(M::GET, "/events", "/events", None, none(), 200).await;
    s.call(M::GET, "/events", "/events?per_page=1&page=2&password=secret", ADMIN, none(), 200).await;
    s.call(
        M::GET,
        "/events",
        "/events?start_date=2026-01-01&end_date=2027-12-31&categories=music&featured=false&status=publish,draft",
        ADMIN,
        none(),
        200,
    )
    .await;
    s.call(M::GET, "/events", "/events?include=1,2", None, none(), 200).await;
    s.call(M::GET, "/events", "/events?page=99", None, none(), 404).await;
    s.call(M::GET, "/events", "/events?page=0", None, none(), 400).await;
    s.call(M::GET, "/events", "/events?status=draft", None, none(), 400).await;
    s.call(M::GET, "/events", "/events", WRONG, none(), 401).await;
    s.call(M::GET, "/venues", "/venues", None, none(), 200).await;
    s.call(M::GET, "/venues", "/venues?per_page=1&page=2&has_events=true", ADMIN, none(), 200).await;
    s.call(M::GET, "/venues", "/venues?page=50", None, none(), 404).await;
    s.call(M::GET, "/organizers", &format!("/organizers?event={event_id}&only_with_upcoming=true"), None, none(), 200)
        .await;
    s.call(M::GET, "/organizers", "/organizers?search=", None, none(), 400).await;
    s.call(M::GET, "/organizers", "/organizers?page=9", None, none(), 404).await;
    s.call(M::GET, "/categories", "/categories?hide_empty=false&orderby=id&order=desc", None, none(), 200).await;
    s.call(M::GET, "/categories", "/categories?per_page=1&page=2&hide_empty=0", None, none(), 200).await;
    s.call(M::GET, "/categories", "/categories?include=999999", None, none(), 400).await;
    s.call(M::GET, "/tags", &format!("/tags?post={event_id}&hide_empty=false"), None, none(), 200).await;
    s.call(M::GET, "/tags", "/tags?parent=1", None, none(), 200).await;

    // ----- deletes (last: they change what the rest sees) -----
    s.call(M::DELETE, "/events/{id}", &format!("/events/{inline}"), CONTRIBUTOR, none(), 403).await;
    s.call(M::DELETE, "/events/{id}", &format!("/events/{inline}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/events/{id}", &format!("/events/{inline}"), ADMIN, none(), 410).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{inline}"), ADMIN, none(), 403).await;
    s.call(M::DELETE, "/events/{id}", "/events/999999", ADMIN, none(), 404).await;
    s.call(M::DELETE, "/events/by-slug/{slug}", &format!("/events/by-slug/{event_slug}"), None, none(), 401).await;
    s.call(M::DELETE, "/events/by-slug/{slug}", &format!("/events/by-slug/{event_slug}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/events/by-slug/{slug}", "/events/by-slug/gone", ADMIN, none(), 400).await;
    s.call(M::DELETE, "/venues/by-slug/{slug}", &format!("/venues/by-slug/{venue_slug}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/venues/{id}", &format!("/venues/{venue_id}"), ADMIN, none(), 410).await;
    s.call(M::DELETE, "/venues/{id}", &format!("/venues/{bare_venue}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/organizers/{id}", &format!("/organizers/{organizer_id}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/organizers/{id}", &format!("/organizers/{organizer_id}"), ADMIN, none(), 410).await;
    s.call(M::DELETE, "/organizers/by-slug/{slug}", "/organizers/by-slug/quiet-folk", ADMIN, none(), 200).await;
    s.call(M::GET, "/events/{id}", &format!("/events/{protected}?password=secret"), ADMIN, none(), 200).await;
    s.call(M::GET, "/events", "/events?start_date=2026-12-02&end_date=2026-12-02", ADMIN, none(), 200).await;
    s.call(M::DELETE, "/categories/{id}", &format!("/categories/{music}"), SUBSCRIBER, none(), 403).await;
    s.call(M::DELETE, "/categories/{id}", &format!("/categories/{music}"), ADMIN, none(), 200).await;
    s.call(M::DELETE, "/categories/{id}", &format!("/categories/{music}"), ADMIN, none(), 400).await;
    s.call(M::DELETE, "/tags/{id}", &format!("/tags/{outdoor}"), ADMIN, none(), 200).await;
    s.call(M::GET, "/", "", Some(("admin", "admin-password")), none(), 200).await;

    // ----- the same through a language base address -----
    let french = format!("{}/fr/wp-json/calendar/events/v1", server.site_url());
    let exchange = send(&s.client, M::GET, &format!("{french}/events"), None, Body::None).await;
    s.conform(&exchange, "/events");

    assert!(s.problems.is_empty(), "responses that do not conform to /doc:\n{}", s.problems.join("\n"));

    // Every operation of the document was exercised, and answered with a success at least once.
    let mut operations = BTreeSet::new();
    for (path, item) in s.doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            operations.insert((method.to_ascii_uppercase(), path.clone()));
        }
    }
    let succeeded: BTreeSet<(String, String)> =
        s.seen.iter().filter(|(_, _, status)| *status < 300).map(|(m, t, _)| (m.clone(), t.clone())).collect();
    let missing: Vec<_> = operations.difference(&succeeded).collect();
    assert!(missing.is_empty(), "operations without a successful exchange: {missing:?}");
    let statuses: BTreeSet<u16> = s.seen.iter().map(|(_, _, status)| *status).collect();
    assert_eq!(statuses, BTreeSet::from([200, 201, 400, 401, 403, 404, 410, 413]));
    server.shutdown().await;
}
