//! Stubbed answers: rules from `--stub` files and the admin API that answer chosen requests
//! with a given answer, or with the server's own changed by a JSON merge patch.

use crate::common;

use std::path::PathBuf;

use common::*;
use reference_server::{serve, Config, StubErrors};
use reqwest::Method;
use serde_json::{json, Value};

async fn admin_srv() -> Srv {
    start_with(Config { admin: true, ..config() }).await
}

async fn add(srv: &Srv, stub: Value) -> Resp {
    srv.site_req(Method::POST, "/__admin/stubs").json(&stub).send().await
}

async fn listed(srv: &Srv) -> Vec<Value> {
    let list = srv.site_req(Method::GET, "/__admin/stubs").send().await;
    list.expect(200)["stubs"].as_array().expect("a list").clone()
}

fn boom(status: u16) -> Value {
    json!({"status": status, "body": {"code": "stubbed", "message": "Stubbed.", "data": {"status": status}}})
}

#[tokio::test]
async fn method_path_and_query_pick_the_request_once() {
    let srv = admin_srv().await;
    let stub = json!({"name": "third page", "request": {"method": "GET", "path": "/events", "query": {"page": 3}},
                      "response": boom(500), "times": "once"});
    let added = add(&srv, stub).await;
    assert_eq!(added.expect(201)["left"], 1);
    assert_ne!(srv.get("/events?page=2").await.json["code"], "stubbed");
    assert_ne!(srv.post(Some("admin"), "/events?page=3", &json!({})).await.json["code"], "stubbed");
    srv.get("/events?page=3").await.expect_error(500, "stubbed");
    // Used up: the server answers again (there is no third page).
    assert_ne!(srv.get("/events?page=3").await.json["code"], "stubbed");
    let stub = &listed(&srv).await[0];
    assert_eq!((stub["answered"].as_u64(), stub["left"].as_u64(), &stub["used_up"]), (Some(1), Some(0), &json!(true)));
    assert_eq!(stub["name"], "third page");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_parameter_can_be_required_absent() {
    let srv = admin_srv().await;
    add(&srv, json!({"request": {"path": "/events", "query": {"search": null}}, "response": boom(503)}))
        .await
        .expect(201);
    srv.get("/events").await.expect_error(503, "stubbed");
    srv.get("/events?search=jazz").await.expect(200);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn path_patterns_stay_in_the_namespace() {
    let srv = admin_srv().await;
    add(&srv, json!({"request": {"path": "/events/<id>"}, "response": boom(500)})).await.expect(201);
    srv.get("/events/12").await.expect_error(500, "stubbed");
    srv.get("/events").await.expect(200);
    srv.get("/venues").await.expect(200);
    srv.get("/events/12/x").await.expect_error(404, "rest_no_route");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_body_subset_picks_writes() {
    let srv = admin_srv().await;
    let stub = json!({"request": {"method": "POST", "path": "/events", "body": {"title": "Boom", "venue": {"city": "Lyon"}}},
                      "response": {"status": 422, "headers": {"X-Stubbed": "yes"}, "body": {"code": "no"}}});
    add(&srv, stub).await.expect(201);
    let dates = json!({"start_date": at(2, 0), "end_date": at(2, 1)});
    let mut hit = json!({"title": "Boom", "venue": {"city": "Lyon", "venue": "Hall"}});
    merge(&mut hit, dates.clone());
    let before = srv.server.store_fingerprint();
    let resp = srv.post(Some("admin"), "/events", &hit).await;
    assert_eq!((resp.status, resp.header("x-stubbed")), (422, Some("yes")));
    assert_eq!(srv.server.store_fingerprint(), before, "a fixed answer replaces the write");
    assert_eq!(resp.json, json!({"code": "no"}));
    let mut miss = json!({"title": "Boom", "venue": {"city": "Paris", "venue": "Hall"}});
    merge(&mut miss, dates);
    srv.post(Some("admin"), "/events", &miss).await.expect(201);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_user_is_the_authenticated_one() {
    let srv = admin_srv().await;
    add(&srv, json!({"request": {"user": "editor"}, "response": boom(500)})).await.expect(201);
    add(&srv, json!({"request": {"user": null, "path": "/venues"}, "response": boom(502)})).await.expect(201);
    srv.get_as("editor", "/events").await.expect_error(500, "stubbed");
    srv.get_as("admin", "/events").await.expect(200);
    srv.get("/events").await.expect(200);
    srv.get("/venues").await.expect_error(502, "stubbed");
    srv.get_as("author", "/venues").await.expect(200);
    // Wrong credentials are refused before any stub.
    srv.req(Method::GET, "/events").login("editor", "wrong").send().await.expect_error(401, "incorrect_password");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn times_and_priorities() {
    let srv = admin_srv().await;
    add(&srv, json!({"request": {"path": "/events"}, "response": boom(500), "times": 2, "priority": 5}))
        .await
        .expect(201);
    add(&srv, json!({"request": {"path": "/events"}, "response": boom(501)})).await.expect(201);
    add(&srv, json!({"request": {"path": "/events"}, "response": boom(502)})).await.expect(201);
    // The highest priority first, twice; then of equal priorities the last added, always.
    let statuses: Vec<u16> = futures_statuses(&srv, 5).await;
    assert_eq!(statuses, [500, 500, 502, 502, 502]);
    let list = listed(&srv).await;
    assert_eq!(list.iter().map(|stub| stub["answered"].as_u64().unwrap()).collect::<Vec<_>>(), [2, 0, 3]);
    assert_eq!(list[2]["left"], Value::Null);
    srv.server.shutdown().await;
}

async fn futures_statuses(srv: &Srv, count: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for _ in 0..count {
        out.push(srv.get("/events").await.status);
    }
    out
}

#[tokio::test]
async fn a_merge_changes_the_real_answer() {
    let srv = admin_srv().await;
    let venue = srv.venue("Hall", json!({})).await;
    let event = srv.event("Gig", 2, json!({"venue": id(&venue)})).await;
    let path = format!("/events/{}", id(&event));
    add(&srv, json!({"request": {"path": "/events/<id>"}, "merge": {"answer": {"venue": [], "cost": null}}}))
        .await
        .expect(201);
    let one = srv.get(&path).await;
    let one = one.expect(200);
    assert_eq!((&one["venue"], &one["title"]), (&json!([]), &json!("Gig")));
    assert!(one.get("cost").is_none() && one["id"] == event["id"]);
    add(&srv, json!({"request": {"path": "/events"}, "merge": {"each": {"venue": []}, "answer": {"total": 99}}}))
        .await
        .expect(201);
    let list = srv.get("/events").await;
    let list = list.expect(200);
    assert_eq!((list["events"][0]["venue"].clone(), list["total"].clone()), (json!([]), json!(99)));
    assert_eq!(list["events"][0]["title"], "Gig");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn never_the_admin_api_the_pages_the_rest_root_or_a_preflight() {
    let srv = admin_srv().await;
    add(&srv, json!({"request": {"path": "*"}, "response": boom(500)})).await.expect(201);
    srv.get("/events").await.expect_error(500, "stubbed");
    srv.site_req(Method::GET, "/__admin/doc").send().await.expect(200);
    assert_eq!(srv.site_req(Method::GET, "/__pages/journal.js").send().await.status, 200);
    srv.site_req(Method::GET, "/wp-json/").send().await.expect(200);
    // Nor a preflight, which a browser sends before the request a stub answers.
    let preflight = srv.req(Method::OPTIONS, "/events").header("origin", "http://app.example").send().await;
    assert_eq!(preflight.expect(200)["namespace"], "calendar/events/v1");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_stubbed_answer_is_shared_with_pages_and_marked_in_the_journal() {
    let srv = admin_srv().await;
    add(&srv, json!({"name": "down", "request": {"path": "/events"}, "response": boom(503)})).await.expect(201);
    let resp = srv.req(Method::GET, "/events").header("origin", "http://app.example").send().await;
    resp.expect_error(503, "stubbed");
    assert_eq!(resp.header("access-control-allow-origin"), Some("http://app.example"));
    assert!(resp.header("link").is_some());
    srv.get("/venues").await.expect(200);
    let journal = srv.site_req(Method::GET, "/__admin/requests").send().await;
    let entries = journal.expect(200)["requests"].as_array().unwrap().clone();
    assert_eq!(entries[0]["stub"], "stub 1 (down)");
    assert_eq!(entries[1]["stub"], Value::Null);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn faults_come_first() {
    let faults = vec![reference_server::FaultRule::from_flag("error,status=504,route=/events").unwrap()];
    let srv = start_with(Config { admin: true, faults, ..config() }).await;
    add(&srv, json!({"request": {"path": "/events"}, "response": boom(500)})).await.expect(201);
    srv.get("/events").await.expect_error(504, "gateway_timeout");
    assert_eq!(listed(&srv).await[0]["answered"], 0);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn removal_listing_and_reset() {
    let srv = admin_srv().await;
    for status in [500, 501] {
        add(&srv, json!({"request": {"path": "/events"}, "response": boom(status)})).await.expect(201);
    }
    srv.site_req(Method::DELETE, "/__admin/stubs/2").send().await.expect(200);
    srv.site_req(Method::DELETE, "/__admin/stubs/2").send().await.expect_error(404, "admin_no_stub");
    assert_eq!(listed(&srv).await.iter().map(|stub| stub["id"].clone()).collect::<Vec<_>>(), [json!(1)]);
    srv.get("/events").await.expect_error(500, "stubbed");
    let reset = srv.site_req(Method::POST, "/__admin/reset").json(&json!({})).send().await;
    assert_eq!(reset.expect(200)["stubs_removed"], 0);
    assert_eq!(listed(&srv).await.len(), 1, "a reset keeps stubs");
    let reset = srv.site_req(Method::POST, "/__admin/reset").json(&json!({"stubs": true})).send().await;
    assert_eq!(reset.expect(200)["stubs_removed"], 1);
    srv.get("/events").await.expect(200);
    add(&srv, json!([{"response": boom(500)}, {"response": boom(501)}])).await.expect(201);
    let cleared = srv.site_req(Method::DELETE, "/__admin/stubs").send().await;
    assert_eq!(cleared.expect(200)["removed"], 2);
    assert!(listed(&srv).await.is_empty());
    srv.server.shutdown().await;
}

#[tokio::test]
async fn bad_definitions_change_nothing_and_say_every_problem() {
    let srv = admin_srv().await;
    let bad = json!({"request": {"path": "events", "verb": "GET", "method": "FETCH", "user": "ghost"},
                     "response": {"status": 204, "headers": {"Content-Length": "1"}}, "times": 0});
    let resp = add(&srv, bad).await;
    let message = resp.expect_error(400, "admin_invalid_stub")["message"].as_str().unwrap().to_string();
    for path in [
        "request.verb",
        "request.path",
        "request.method",
        "response.status",
        "response.headers.Content-Length",
        "times",
    ] {
        assert!(message.contains(&format!("{path}: ")), "{path} in {message}");
    }
    // A list is added whole or not at all.
    add(&srv, json!([{"response": boom(500)}, {"merge": {}}])).await.expect_error(400, "admin_invalid_stub");
    add(&srv, json!({"response": boom(500), "merge": {"answer": {}}})).await.expect_error(400, "admin_invalid_stub");
    add(&srv, json!({"request": {"path": "/events"}})).await.expect_error(400, "admin_invalid_stub");
    let big = json!({"response": {"body": "x".repeat(300 * 1024)}});
    add(&srv, big).await.expect_error(400, "admin_invalid_stub");
    assert!(listed(&srv).await.is_empty());
    srv.get("/events").await.expect(200);
    let many: Vec<Value> = (0..100).map(|_| json!({"request": {"path": "/nothing"}, "response": boom(500)})).collect();
    add(&srv, json!(many)).await.expect(201);
    add(&srv, json!({"response": boom(500)})).await.expect_error(400, "admin_invalid_stub");
    assert_eq!(listed(&srv).await.len(), 100);
    srv.server.shutdown().await;
}

struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(name: &str, text: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!("reference-server-stubs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    Temp(path)
}

const GOOD: &str = "\
- name: third page
  request: {method: GET, path: /events, query: {page: 3}}
  response: {status: 500, body: {code: boom, message: Boom, data: {status: 500}}}
  times: once
- request: {path: /venues}
  merge:
    each: {city: Nowhere}
";

#[tokio::test]
async fn stub_files_are_read_at_start() {
    let yaml = temp_file("good.yaml", GOOD);
    let json =
        temp_file("one.json", r#"{"request": {"path": "/organizers"}, "response": {"status": 418, "body": []}}"#);
    let stub_files = vec![yaml.0.clone(), json.0.clone()];
    let srv = start_with(Config { admin: true, stub_files, ..config() }).await;
    srv.get("/events?page=3").await.expect_error(500, "boom");
    srv.venue("Hall", json!({"city": "Lyon"})).await;
    assert_eq!(srv.get("/venues").await.expect(200)["venues"][0]["city"], "Nowhere");
    assert_eq!(srv.get("/organizers").await.status, 418);
    assert_eq!(listed(&srv).await.len(), 3);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn every_problem_of_every_stub_file_at_once() {
    let first =
        temp_file("bad.yaml", "- request: {path: nowhere}\n  response: {status: 99}\n- {merge: {each: {}}}\n- 3\n");
    let second = temp_file("bad.json", r#"{"response": {}, "times": -1}"#);
    let broken = temp_file("broken.json", "{");
    let stub_files = vec![first.0.clone(), second.0.clone(), broken.0.clone()];
    let error = serve(Config { stub_files, ..Config::ephemeral() }).await.err().expect("refused");
    let lines = &error.get_ref().and_then(|inner| inner.downcast_ref::<StubErrors>()).expect("stub errors").lines;
    let (first, second, broken) = (first.0.display(), second.0.display(), broken.0.display());
    let first = first.to_string();
    let expected = [
        format!("{first}: [0].request.path: "),
        format!("{first}: [0].response.status: "),
        format!("{first}: [2]: a stub is a mapping"),
        format!("{second}: times: "),
        format!("{broken}: is not JSON"),
    ];
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, start) in lines.iter().zip(&expected) {
        assert!(line.starts_with(start.as_str()), "{line:?} should start with {start:?}");
    }
    // The binary prints them on stderr and exits with status 2, serving nothing.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_reference-server"))
        .args(["--listen", "127.0.0.1:0", "--stub"])
        .arg(&first)
        .args(["--stub", "/nonexistent/stubs.yaml"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "nothing served");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().filter(|line| line.starts_with(first.as_str())).count(), 3, "{stderr}");
    assert!(stderr.contains("/nonexistent/stubs.yaml: cannot be read"), "{stderr}");
}

#[test]
fn the_schema_of_stub_files_takes_what_the_server_takes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/stub.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("the schema")).expect("JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("stub.schema.json", schema).expect("added");
    let index = compiler.compile("stub.schema.json", &mut schemas).expect("a valid schema");
    let good = reference_server::fixture_value(GOOD, true).expect("the YAML parses");
    assert!(schemas.validate(&good, index).is_ok(), "{good}");
    assert!(schemas.validate(&good[0], index).is_ok(), "one stub alone");
    for bad in [
        json!({"request": {"path": "/x"}}),
        json!({"response": {}, "merge": {"answer": {}}}),
        json!({"response": {"status": 99}}),
        json!([{"response": {}, "typo": 1}]),
        json!({"request": {"user": 3}, "response": {}}),
    ] {
        assert!(schemas.validate(&bad, index).is_err(), "{bad}");
    }
}

/// R8: the stub bounds bound memory and answer size, not only bytes of text: a stub holds at
/// most 20,000 JSON values, all stubs together 100,000, and a `merge.each` patch (copied into
/// every item of a list) at most 16 KiB.
#[tokio::test]
async fn r8_stub_bounds_bound_values_and_answer_size() {
    let srv = admin_srv().await;
    let zeros = |n: usize| Value::Array(vec![json!(0); n]);
    // Just under 256 KiB of text, but 130,000 values.
    let heavy = json!({"request": {"path": "/nothing"}, "response": {"body": zeros(130_000)}});
    let message = add(&srv, heavy).await.expect_error(400, "admin_invalid_stub")["message"].to_string();
    assert!(message.contains("20000 JSON values"), "{message}");
    let fits = json!({"request": {"path": "/nothing"}, "response": {"body": zeros(19_000)}});
    for _ in 0..5 {
        add(&srv, fits.clone()).await.expect(201);
    }
    let message = add(&srv, fits.clone()).await.expect_error(400, "admin_invalid_stub")["message"].to_string();
    assert!(message.contains("all stubs together hold at most 100000 JSON values"), "{message}");
    assert_eq!(listed(&srv).await.len(), 5);
    let each = json!({"request": {"path": "/events"}, "merge": {"each": {"note": "x".repeat(17 * 1024)}}});
    let message = add(&srv, each).await.expect_error(400, "admin_invalid_stub")["message"].to_string();
    assert!(message.contains("16 KiB"), "{message}");
    // An admin body of more values than any stub may hold is not parsed.
    let huge = srv.site_req(Method::POST, "/__admin/stubs").json(&zeros(300_000)).send().await;
    huge.expect_error(400, "admin_invalid_body");
    srv.server.shutdown().await;
}

/// R9: a stub's path is matched on the decoded path, as routing reads it: a stub written as
/// clients see the address answers however they percent-encode it, and so does one written
/// percent-encoded.
#[tokio::test]
async fn r9_stub_paths_match_the_decoded_path() {
    let srv = admin_srv().await;
    let stub = json!({"request": {"path": "/events/by-slug/café"}, "response": {"status": 418, "body": {"a": 1}}});
    add(&srv, stub).await.expect(201);
    let stub = json!({"request": {"path": "/venues/by-slug/h%C3%A9"}, "response": {"status": 418, "body": {"a": 1}}});
    add(&srv, stub).await.expect(201);
    for path in
        ["/events/by-slug/caf%C3%A9", "/events/by-slug/%63af%C3%A9", "/events/by-slug/CAF%C3%A9", "/venues/by-slug/hé"]
    {
        assert_eq!(srv.get(path).await.status, 418, "{path}");
    }
    let refused = add(&srv, json!({"request": {"path": "/events/by-slug/%FF"}, "response": {"body": {}}})).await;
    assert_eq!(refused.status, 400, "{}", refused.text);
    assert!(refused.text.contains("UTF-8"), "{}", refused.text);
    srv.server.shutdown().await;
}

/// A stub's header value is a text of 1 to 4096 visible characters (a number is written as
/// one): empty, not a text, a line break or past the length is refused, each with its path.
#[tokio::test]
async fn header_values_are_texts_of_1_to_4096_visible_characters() {
    let srv = admin_srv().await;
    for value in [json!(""), json!(true), json!(["a"]), json!("a\nb"), json!("x".repeat(4097))] {
        let stub = json!({"request": {"path": "/tags"}, "response": {"headers": {"X-Note": value}, "body": {"a": 1}}});
        let resp = add(&srv, stub).await;
        assert!(
            resp.text.contains("must be a header value: a text of 1 to 4096 visible characters"),
            "{value}: {}",
            resp.text
        );
        assert!(resp.text.contains("response.headers.X-Note"), "{value}: {}", resp.text);
        resp.expect_error(400, "admin_invalid_stub");
    }
    for (value, sent) in [(json!("x".repeat(4096)), "x".repeat(4096)), (json!(7), "7".to_string())] {
        let stub = json!({"request": {"path": "/tags"}, "response": {"headers": {"X-Note": value}, "body": {"a": 1}}});
        add(&srv, stub).await.expect(201);
        assert_eq!(srv.get("/tags").await.header("x-note"), Some(sent.as_str()));
        srv.site_req(Method::DELETE, "/__admin/stubs").send().await;
    }
    srv.server.shutdown().await;
}

/// A stub's `request.query` and `response.headers` are mappings of at most 50 entries.
#[tokio::test]
async fn queries_and_headers_hold_at_most_50_entries() {
    let srv = admin_srv().await;
    let mapping =
        |count: usize| -> Value { Value::Object((0..count).map(|n| (format!("x-entry-{n}"), json!("v"))).collect()) };
    for count in [50, 51] {
        let query = json!({"request": {"path": "/tags", "query": mapping(count)}, "response": {"body": {"a": 1}}});
        let headers = json!({"request": {"path": "/tags"}, "response": {"headers": mapping(count), "body": {"a": 1}}});
        for (stub, message) in [
            (query, "must be a mapping of at most 50 parameters (null: must be absent)"),
            (headers, "must be a mapping of at most 50 headers"),
        ] {
            let resp = add(&srv, stub).await;
            if count == 50 {
                resp.expect(201);
            } else {
                assert!(resp.text.contains(message), "{count}: {}", resp.text);
                resp.expect_error(400, "admin_invalid_stub");
            }
        }
    }
    srv.server.shutdown().await;
}

/// R10: a stub may not answer 205 (no content, like 204 and 304), nor set a content encoding
/// or a hop-by-hop header; a header that merely starts like one (`Tea`) is its own.
#[tokio::test]
async fn r10_no_content_statuses_and_hop_by_hop_headers_are_refused() {
    let srv = admin_srv().await;
    for status in [204, 205, 304] {
        let resp =
            add(&srv, json!({"request": {"path": "/venues"}, "response": {"status": status, "body": {"a": 1}}})).await;
        resp.expect_error(400, "admin_invalid_stub");
    }
    for header in [
        "Content-Encoding",
        "Upgrade",
        "TE",
        "Trailer",
        "Proxy-Connection",
        "Transfer-Encoding",
        "Connection",
        "Content-Length",
        "Keep-Alive",
    ] {
        let stub =
            json!({"request": {"path": "/organizers"}, "response": {"headers": {header: "x"}, "body": {"a": 1}}});
        let resp = add(&srv, stub).await;
        assert!(resp.text.contains("hop-by-hop"), "{header}: {}", resp.text);
        resp.expect_error(400, "admin_invalid_stub");
    }
    let stub =
        json!({"request": {"path": "/organizers"}, "response": {"headers": {"Tea": "earl grey"}, "body": {"a": 1}}});
    add(&srv, stub).await.expect(201);
    assert_eq!(srv.get("/organizers").await.header("tea"), Some("earl grey"));
    srv.server.shutdown().await;
}
