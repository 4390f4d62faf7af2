//! The request journal (`GET /__admin/requests`): each request with its method, path, user,
//! status and time; for refusals the reason in words, for paths that matched no route a
//! near-miss hint. The interface's answers do not change.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

async fn admin_srv() -> Srv {
    start_with(reference_server::Config { admin: true, ..config() }).await
}

/// The journal entries after `since`.
async fn entries(srv: &Srv, since: u64) -> Vec<Value> {
    let resp = srv.site_req(Method::GET, &format!("/__admin/requests?since={since}")).send().await;
    resp.expect(200)["requests"].as_array().cloned().unwrap_or_default()
}

async fn last(srv: &Srv) -> u64 {
    let resp = srv.site_req(Method::GET, "/__admin/requests?limit=1").send().await;
    resp.expect(200)["last"].as_u64().unwrap()
}

/// Sends one request and returns its answer and its journal entry.
async fn journaled(srv: &Srv, request: Req<'_>) -> (Resp, Value) {
    let since = last(srv).await;
    let resp = request.send().await;
    let mut found = entries(srv, since).await;
    assert_eq!(found.len(), 1, "one entry per request: {found:?}");
    (resp, found.remove(0))
}

#[tokio::test]
async fn refusals_say_why_in_words() {
    let srv = admin_srv().await;
    let valid = json!({"title": "Nope", "start_date": at(2, 0), "end_date": at(2, 2)});

    let (resp, entry) = journaled(&srv, srv.req(Method::POST, "/events").user("subscriber").json(&valid)).await;
    resp.expect_error(403, "rest_forbidden");
    assert_eq!(entry["reason"], "subscriber may not create events");
    assert_eq!(entry["user"], "subscriber");
    assert_eq!(entry["method"], "POST");
    assert_eq!(entry["status"], 403);
    assert_eq!(entry["code"], "rest_forbidden");
    assert!(!resp.text.contains("may not"), "the answer is the CMS's: {}", resp.text);

    let (resp, entry) = journaled(&srv, srv.req(Method::GET, "/events?start_date=someday")).await;
    resp.expect_error(400, "rest_invalid_param");
    assert_eq!(entry["reason"], "start_date: not a date");
    assert_eq!(entry["user"], Value::Null);

    let (_, entry) = journaled(&srv, srv.req(Method::POST, "/events").user("admin").json(&json!({"title": "x"}))).await;
    assert_eq!(entry["reason"], "start_date: missing (required); end_date: missing (required)");

    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events").login("ghost", "boo")).await;
    assert_eq!(entry["reason"], "no user is named \"ghost\"");
    assert_eq!(entry["user"], "ghost");
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events").login("admin", "wrong")).await;
    assert_eq!(entry["reason"], "wrong password for user \"admin\"");

    let event = srv.event("Published by admin", 3, json!({})).await;
    let path = format!("/events/{}", id(&event));
    let (resp, entry) =
        journaled(&srv, srv.req(Method::POST, &path).user("contributor").json(&json!({"title": "Mine now"}))).await;
    resp.expect_error(403, "rest_forbidden");
    assert_eq!(entry["reason"], format!("contributor may not edit event {} (publish, written by admin)", id(&event)));

    let (resp, entry) = journaled(&srv, srv.req(Method::DELETE, &path).user("subscriber")).await;
    resp.expect_error(403, "rest_forbidden");
    assert_eq!(entry["reason"], format!("subscriber may not delete event {} (publish, written by admin)", id(&event)));

    let body = json!({"title": "x", "start_date": at(2, 0), "end_date": at(2, 1), "categories": ["Brand new"]});
    let (_, entry) = journaled(&srv, srv.req(Method::POST, "/events").user("contributor").json(&body)).await;
    assert_eq!(entry["reason"], "contributor may not create categories (the write names a new one: \"Brand new\")");

    let (_, entry) = journaled(&srv, srv.req(Method::POST, "/events").json(&valid)).await;
    assert_eq!(entry["reason"], "anonymous requests may not create events: log in");

    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events/99999")).await;
    assert_eq!(entry["reason"], "Event with ID 99999 does not exist.", "other refusals: their message");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn near_misses_get_a_hint() {
    let srv = admin_srv().await;
    let (resp, entry) = journaled(&srv, srv.req(Method::POST, "/event").user("admin").json(&json!({}))).await;
    resp.expect_error(404, "rest_no_route");
    assert_eq!(entry["reason"], "no route POST /event");
    assert_eq!(entry["hint"], "did you mean /events?");
    let (_, entry) = journaled(&srv, srv.req(Method::DELETE, "/events").user("admin")).await;
    assert_eq!(entry["hint"], "/events takes GET, POST, not DELETE");
    let (_, entry) = journaled(&srv, srv.site_req(Method::GET, "/wp-json/tribe/events/v1/events")).await;
    assert_eq!(
        entry["hint"],
        "this server serves the namespace calendar/events/v1: did you mean /wp-json/calendar/events/v1/events?"
    );
    let (_, entry) = journaled(&srv, srv.site_req(Method::GET, "/calendar/events/v1/venues")).await;
    assert_eq!(
        entry["hint"],
        "the API is under the REST root /wp-json: did you mean /wp-json/calendar/events/v1/venues?"
    );
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events/summer-fair")).await;
    assert_eq!(entry["hint"], "/events/<id> takes a numeric ID; by slug: did you mean /events/by-slug/summer-fair?");
    // The method a request is treated as is the one journaled.
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events?_method=DELETE")).await;
    assert_eq!(entry["method"], "DELETE");
    srv.server.shutdown().await;
}

/// An entry's duration is the request's, to a tenth of a millisecond: a latency fault's 300 ms
/// wait is in it (a lower bound, which no machine's speed changes).
#[tokio::test]
async fn an_entry_s_duration_counts_the_wait() {
    let rule = reference_server::FaultRule::from_flag("latency,ms=300,route=/venues").expect("a rule");
    let srv = start_with(reference_server::Config { admin: true, faults: vec![rule], ..config() }).await;
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/venues")).await;
    let duration = entry["duration_ms"].as_f64().expect("a number");
    assert!(duration >= 300.0, "{entry}");
    let tenths = duration * 10.0;
    assert!((tenths - tenths.round()).abs() < 1e-6, "to a tenth of a millisecond: {entry}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_journal_keeps_what_it_should_and_nothing_more() {
    let srv = start_with(reference_server::Config { admin: true, journal_size: 5, ..config() }).await;
    // Secrets stay out, as in the log.
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events?password=hunter2&search=x")).await;
    assert_eq!(entry["path"], "/wp-json/calendar/events/v1/events?password=[redacted]&search=x");
    assert!(entry["time"].as_str().unwrap().ends_with('Z'));
    assert!(entry["duration_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(entry["status"], 200);
    assert_eq!(entry["reason"], Value::Null);
    // The admin API and the pages are not journaled.
    let before = last(&srv).await;
    srv.site_req(Method::GET, "/").send().await.expect(200);
    srv.site_req(Method::GET, "/__admin/").send().await.expect(200);
    srv.site_req(Method::GET, "/__admin/clock").send().await.expect(200);
    assert_eq!(last(&srv).await, before);
    // Bounded: the oldest entries go first.
    for _ in 0..8 {
        srv.get("/events").await.expect(200);
    }
    let all = entries(&srv, 0).await;
    assert_eq!(all.len(), 5);
    assert_eq!(all[4]["seq"].as_u64(), Some(before + 8));
    let resp = srv.site_req(Method::GET, "/__admin/requests?limit=2").send().await;
    assert_eq!(resp.expect(200)["requests"].as_array().unwrap().len(), 2);
    srv.site_req(Method::GET, "/__admin/requests?limit=0").send().await.expect_error(400, "admin_invalid_query");
    srv.site_req(Method::DELETE, "/__admin/requests").send().await.expect(200);
    assert!(entries(&srv, 0).await.is_empty());
    srv.server.shutdown().await;
}

#[tokio::test]
async fn without_admin_there_is_no_journal() {
    let srv = start().await;
    for path in ["/__admin/requests", "/__admin/", "/__admin"] {
        srv.site_req(Method::GET, path).send().await.expect_error(404, "rest_no_route");
    }
    srv.server.shutdown().await;
}

// ----- Issue 21: H11 (the hint's cost), H12 (bytes), H18 (paging) -----

#[tokio::test]
async fn h11_a_path_of_many_segments_gets_its_hint_at_once() {
    let srv = admin_srv().await;
    let path = "/a".repeat(30_000);
    let started = std::time::Instant::now();
    let request = srv.req(Method::GET, &path).send();
    // Quadratic, this took 9 s of CPU in a release build; linear, a few milliseconds.
    let resp = tokio::time::timeout(std::time::Duration::from_secs(5), request).await.expect("answered in time");
    resp.expect_error(404, "rest_no_route");
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "{:?}", started.elapsed());
    let entry = entries(&srv, 0).await.pop().expect("journaled");
    assert_eq!(entry["status"], 404);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h12_journal_entries_and_reads_are_bounded_in_bytes() {
    let srv = admin_srv().await;
    let long = format!("/evnts{}", "x".repeat(60_000));
    for n in 0..20 {
        srv.req(Method::GET, &format!("{long}?n={n}")).send().await.expect_error(404, "rest_no_route");
    }
    let resp = srv.site_req(Method::GET, "/__admin/requests?since=0&limit=1000").send().await;
    assert!(resp.text.len() < 20 * 8 * 1024, "{} bytes for 20 entries", resp.text.len());
    let read = resp.expect(200);
    let entries = read["requests"].as_array().unwrap();
    assert_eq!(entries.len(), 20);
    for entry in entries {
        for field in ["path", "reason", "hint"] {
            let text = entry[field].as_str().unwrap_or("");
            assert!(text.len() <= 2100, "{field}: {} bytes", text.len());
        }
        let path = entry["path"].as_str().unwrap();
        assert!(path.starts_with("/wp-json/calendar/events/v1/evnts") && path.contains("bytes cut"), "{path}");
    }
    srv.server.shutdown().await;
}

/// One read of the journal.
async fn page(srv: &Srv, since: u64, limit: u64) -> Value {
    let resp = srv.site_req(Method::GET, &format!("/__admin/requests?since={since}&limit={limit}")).send().await;
    resp.expect(200).clone()
}

#[tokio::test]
async fn h18_a_reader_pages_through_more_requests_than_a_page() {
    let srv = admin_srv().await;
    let start = last(&srv).await;
    for n in 0..300 {
        srv.get(&format!("/events?n={n}")).await.expect(200);
    }
    let mut seen: Vec<u64> = Vec::new();
    let mut since = start;
    for _ in 0..3 {
        let read = page(&srv, since, 200).await;
        let seqs: Vec<u64> = read["requests"].as_array().unwrap().iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert_eq!(read["missed"], 0);
        seen.extend(&seqs);
        since = seqs.last().copied().unwrap_or(since);
        if read["more"] == false {
            break;
        }
    }
    assert_eq!(seen, (start + 1..=start + 300).collect::<Vec<u64>>(), "every request, in order, none skipped");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h18_requests_the_journal_no_longer_holds_are_counted_as_missed() {
    let srv = start_with(reference_server::Config { admin: true, journal_size: 5, ..config() }).await;
    let start = last(&srv).await;
    for _ in 0..8 {
        srv.get("/events").await.expect(200);
    }
    let read = page(&srv, start, 200).await;
    assert_eq!(read["requests"].as_array().unwrap().len(), 5);
    assert_eq!(read["missed"], 3, "{read}");
    assert_eq!(read["more"], false);
    srv.server.shutdown().await;
}

// ----- CORS -----

/// A browser page whose origin `--cors-origin` does not list gets its answer, but its browser
/// will not share it: the page sees only "Failed to fetch". The journal says why; a request the
/// browser may read, or one from no browser, gets no such note.
#[tokio::test]
async fn a_request_whose_answer_the_browser_will_not_share_says_why() {
    let config =
        reference_server::Config { admin: true, cors_origins: vec!["https://app.example".to_string()], ..config() };
    let srv = start_with(config).await;
    let (resp, entry) =
        journaled(&srv, srv.req(Method::GET, "/events").header("Origin", "https://other.example")).await;
    assert_eq!(resp.status, 200);
    let cors = entry["cors"].as_str().unwrap_or_default();
    assert!(cors.contains("https://other.example") && cors.contains("--cors-origin"), "{entry}");

    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events").header("Origin", "https://app.example")).await;
    assert_eq!(entry["cors"], Value::Null, "{entry}");
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/events")).await;
    assert_eq!(entry["cors"], Value::Null, "{entry}");

    // A preflight from a listed origin that asks for a header the answer does not allow.
    let preflight = srv
        .req(Method::OPTIONS, "/events")
        .header("Origin", "https://app.example")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type, x-trace-id");
    let (_, entry) = journaled(&srv, preflight).await;
    let cors = entry["cors"].as_str().unwrap_or_default();
    assert!(cors.contains("x-trace-id") && !cors.contains("content-type"), "{entry}");
    let preflight = srv
        .req(Method::OPTIONS, "/events")
        .header("Origin", "https://app.example")
        .header("Access-Control-Request-Method", "PROPFIND");
    let (_, entry) = journaled(&srv, preflight).await;
    assert!(entry["cors"].as_str().unwrap_or_default().contains("PROPFIND"), "{entry}");
    let preflight = srv
        .req(Method::OPTIONS, "/events")
        .header("Origin", "https://app.example")
        .header("Access-Control-Request-Method", "PATCH")
        .header("Access-Control-Request-Headers", "authorization, content-type");
    let (_, entry) = journaled(&srv, preflight).await;
    assert_eq!(entry["cors"], Value::Null, "{entry}");
}

// ----- Issue 25: the bodies of an entry, on demand -----

async fn bodies_of(srv: &Srv, seq: &Value) -> Value {
    let resp = srv.site_req(Method::GET, &format!("/__admin/requests/{seq}")).send().await;
    resp.expect(200).clone()
}

#[tokio::test]
async fn an_entry_gives_its_bodies_on_demand_with_passwords_redacted() {
    let srv = admin_srv().await;
    let body = json!({"title": "Kept", "start_date": at(2, 0), "end_date": at(2, 2), "password": "s3cret-pw"});
    let request = srv.req(Method::POST, "/events").user("admin").json(&body);
    let (resp, entry) = journaled(&srv, request).await;
    resp.expect(201);
    assert!(entry.get("request_body").is_none() && entry.get("response_body").is_none(), "lists stay light");
    let full = bodies_of(&srv, &entry["seq"]).await;
    assert_eq!((&full["seq"], &full["path"]), (&entry["seq"], &entry["path"]));
    let request_body = &full["request_body"];
    let text = request_body["text"].as_str().unwrap();
    assert!(text.contains("\"Kept\"") && text.contains("[redacted]") && !text.contains("s3cret-pw"), "{text}");
    assert_eq!(request_body["redacted"], true);
    assert!(!full.to_string().contains("admin-password"), "credentials are never kept");
    let answer = full["response_body"]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(answer).unwrap()["title"], "Kept");
    let form = srv.req(Method::POST, "/events").user("admin").form(&[("title", "F"), ("password", "form-secret")]);
    let (_, entry) = journaled(&srv, form).await;
    let text = bodies_of(&srv, &entry["seq"]).await["request_body"]["text"].as_str().unwrap().to_string();
    assert!(text.contains("password=[redacted]") && !text.contains("form-secret"), "{text}");
    let missing = srv.site_req(Method::GET, "/__admin/requests/999999").send().await;
    missing.expect_error(404, "admin_no_request");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn kept_bodies_are_bounded_and_marked_cut() {
    let srv = admin_srv().await;
    let long =
        json!({"title": "Long", "description": "x".repeat(40_000), "start_date": at(2, 0), "end_date": at(2, 2)});
    let (resp, entry) = journaled(&srv, srv.req(Method::POST, "/events").user("admin").json(&long)).await;
    resp.expect(201);
    let full = bodies_of(&srv, &entry["seq"]).await;
    for side in ["request_body", "response_body"] {
        let kept = &full[side];
        assert_eq!(kept["truncated"], true, "{side}: {}", kept["bytes"]);
        assert!(kept["text"].as_str().unwrap().len() <= 16 * 1024, "{side}");
        assert!(kept["bytes"].as_u64().unwrap() > 40_000, "{side}");
    }
    let (_, entry) = journaled(&srv, srv.req(Method::GET, "/venues")).await;
    let full = bodies_of(&srv, &entry["seq"]).await;
    assert_eq!((full["request_body"]["bytes"].as_u64(), &full["response_body"]["truncated"]), (Some(0), &json!(false)));
    srv.server.shutdown().await;
}

/// R6: secrets at any depth of a form body's or a query's nested names (`event[password]`,
/// `a[b][_wpnonce]`, `filter[password]`) are redacted, as they are in JSON bodies.
#[tokio::test]
async fn r6_nested_form_and_query_secrets_are_redacted() {
    let srv = admin_srv().await;
    let form = srv.req(Method::POST, "/events").user("editor").body(
        "application/x-www-form-urlencoded",
        "title=F&event[password]=FormNested2&a[b][_wpnonce]=FormNonce3&event%5BPassword%5D=FormNested5",
    );
    let (_, entry) = journaled(&srv, form).await;
    let json =
        srv.req(Method::POST, "/events").user("editor").json(&json!({"title": "J", "event[password]": "JsonKey6"}));
    let (_, json_entry) = journaled(&srv, json).await;
    let (_, query) = journaled(&srv, srv.req(Method::GET, "/events?filter[password]=QueryNested4&x=1")).await;
    assert_eq!(query["path"], "/wp-json/calendar/events/v1/events?filter[password]=[redacted]&x=1");
    let mut all = String::new();
    for seq in [&entry["seq"], &json_entry["seq"], &query["seq"]] {
        all += &srv.site_req(Method::GET, &format!("/__admin/requests/{seq}")).send().await.expect(200).to_string();
    }
    all += &srv.site_req(Method::GET, "/__admin/requests").send().await.expect(200).to_string();
    for secret in ["FormNested2", "FormNonce3", "QueryNested4", "FormNested5", "JsonKey6"] {
        assert!(!all.contains(secret), "{secret} kept: {all}");
    }
    assert!(all.contains("event[password]=[redacted]"), "{all}");
}
