//! The admin API under `/__admin` (`--admin`): reset, seed, clock, and its guards; its OpenAPI
//! document is valid, lists exactly the operations the router has, and the answers conform.

use crate::common;
use crate::doc_support;

use common::*;
use reference_server::openapi_check::violations;
use reqwest::Method;
use serde_json::{json, Value};

async fn admin_srv() -> Srv {
    start_with(reference_server::Config { admin: true, ..config() }).await
}

fn admin<'a>(srv: &'a Srv, method: Method, path: &str) -> Req<'a> {
    srv.site_req(method, &format!("/__admin{path}"))
}

#[tokio::test]
async fn reset_to_empty_or_to_the_demo_calendar() {
    let srv = admin_srv().await;
    srv.event("Mine", 2, json!({})).await;
    let resp = admin(&srv, Method::POST, "/reset").json(&json!({"to": "demo"})).send().await;
    let demo = resp.expect(200)["store"].clone();
    assert!(demo["events"].as_u64().unwrap() > 10 && demo["venues"].as_u64().unwrap() > 0, "{demo}");
    assert!(srv.get("/events?search=Mine").await.expect(200)["events"].as_array().unwrap().is_empty());
    let resp = admin(&srv, Method::POST, "/reset").send().await;
    assert_eq!(
        resp.expect(200)["store"],
        json!({"events": 0, "venues": 0, "organizers": 0, "categories": 0, "tags": 0})
    );
    // As on a fresh site, items start again at ID 6.
    assert_eq!(id(&srv.event("First again", 2, json!({})).await), 6);
    admin(&srv, Method::POST, "/reset")
        .json(&json!({"to": "mars"}))
        .send()
        .await
        .expect_error(400, "admin_invalid_body");
    srv.server.shutdown().await;
}

/// A reset gives IDs out again from 6, and the new store's records may get the same revisions
/// as the old ones had: what was rendered for the old event 6 must not be shown for the new.
#[tokio::test]
async fn after_a_reset_no_rendering_of_the_old_store_is_shown() {
    let srv = admin_srv().await;
    for title in ["Before the reset", "After the reset"] {
        admin(&srv, Method::POST, "/reset").send().await.expect(200);
        let event = srv.event(title, 2, json!({})).await;
        assert_eq!(id(&event), 6);
        assert_eq!(srv.get("/events/6").await.expect(200)["title"], title);
        let list = srv.get("/events").await;
        assert_eq!(list.expect(200)["events"][0]["title"], title);
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn seed_adds_n_events() {
    let srv = admin_srv().await;
    let resp = admin(&srv, Method::POST, "/seed").json(&json!({"events": 75})).send().await;
    let body = resp.expect(200).clone();
    assert_eq!(body["seeded"], 75);
    assert_eq!(body["store"]["events"], 75);
    let list = srv.get_as("admin", "/events?per_page=1").await;
    assert!(list.header("x-tec-total").unwrap().parse::<u64>().unwrap() > 20, "seeded events are listed");
    for bad in [json!({}), json!({"events": 0}), json!({"events": 100_001}), json!({"events": "ten"})] {
        admin(&srv, Method::POST, "/seed").json(&bad).send().await.expect_error(400, "admin_invalid_body");
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_clock_can_be_set_frozen_and_given_back() {
    let srv = admin_srv().await;
    let resp = admin(&srv, Method::GET, "/clock").send().await;
    assert_eq!(resp.expect(200)["mode"], "running", "--clock runs on");
    let resp =
        admin(&srv, Method::PUT, "/clock").json(&json!({"mode": "frozen", "now": "2030-01-02T03:04:05Z"})).send().await;
    assert_eq!(resp.expect(200).clone(), json!({"now": "2030-01-02T03:04:05Z", "mode": "frozen"}));
    let first = srv.create("admin", "venues", json!({"venue": "Frozen hall"})).await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let second = srv.create("admin", "venues", json!({"venue": "Frozen hall 2"})).await;
    assert_eq!(first["date"], "2030-01-02 03:04:05");
    assert_eq!(second["date"], first["date"], "a frozen clock stands still");
    let resp = admin(&srv, Method::PUT, "/clock").json(&json!({"now": "2031-06-01T00:00:00Z"})).send().await;
    assert_eq!(resp.expect(200)["mode"], "running");
    // `running` without `now` runs on from the instant the clock shows (here 2031, not the
    // machine's date).
    let resp = admin(&srv, Method::PUT, "/clock").json(&json!({"mode": "running"})).send().await;
    let body = resp.expect(200).clone();
    assert_eq!(body["mode"], "running", "{body}");
    assert!(body["now"].as_str().is_some_and(|now| now.starts_with("2031-06-01T")), "{body}");
    let resp = admin(&srv, Method::PUT, "/clock").json(&json!({"mode": "real"})).send().await;
    let now = resp.expect(200)["now"].as_str().unwrap().to_string();
    assert!(now.as_str() > "2025" && now.as_str() < "2031", "{now}");
    for bad in [
        json!({"mode": "sideways"}),
        json!({"now": "tomorrow"}),
        json!({"mode": "real", "now": "2030-01-01T00:00:00Z"}),
    ] {
        admin(&srv, Method::PUT, "/clock").json(&bad).send().await.expect_error(400, "admin_invalid_body");
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn other_sites_pages_cannot_use_it() {
    let srv = admin_srv().await;
    // A name that resolves to this machine (DNS rebinding) is not the site.
    let resp = admin(&srv, Method::POST, "/reset").header("host", "evil.example:80").send().await;
    resp.expect_error(403, "admin_forbidden");
    let resp = admin(&srv, Method::GET, "/requests").header("origin", "https://evil.example").send().await;
    resp.expect_error(403, "admin_forbidden");
    let own = format!("http://{}", srv.server.addr());
    admin(&srv, Method::GET, "/requests").header("origin", &own).send().await.expect(200);
    admin(&srv, Method::GET, "/clock").header("host", "localhost").send().await.expect(200);
    // Bodies are JSON: a cross-site form cannot post one without asking first.
    let resp = admin(&srv, Method::POST, "/reset").body("text/plain", "{\"to\":\"demo\"}").send().await;
    resp.expect_error(415, "admin_invalid_body");
    admin(&srv, Method::POST, "/reset")
        .body("application/json", "{")
        .send()
        .await
        .expect_error(400, "admin_invalid_body");
    admin(&srv, Method::GET, "/nothing").send().await.expect_error(404, "admin_no_route");
    admin(&srv, Method::POST, "/clock").send().await.expect_error(405, "admin_method");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_admin_api_never_lives_under_the_interface() {
    let srv = admin_srv().await;
    srv.req(Method::GET, "/__admin/clock").send().await.expect_error(404, "rest_no_route");
    srv.site_req(Method::GET, "/wp-json/__admin/clock").send().await.expect_error(404, "rest_no_route");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn its_document_is_valid_and_matches_the_routes() {
    let srv = admin_srv().await;
    let doc = admin(&srv, Method::GET, "/doc").send().await.expect(200).clone();
    let problems = doc_support::structural_problems(&doc);
    assert!(problems.is_empty(), "{problems:#?}");
    let file: Value = serde_json::from_str(include_str!("../../src/admin/openapi.json")).unwrap();
    assert_eq!(doc, file, "served as kept in the repository");
    let routes = reference_server::admin_routes();
    let mut documented = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.push((method.to_ascii_uppercase(), path.clone()));
        }
    }
    let mut routed: Vec<(String, String)> = routes.iter().map(|(m, p)| (m.to_string(), p.to_string())).collect();
    documented.sort();
    routed.sort();
    assert_eq!(documented, routed, "every operation documented, and only those");

    // Answers conform to the document.
    let check = |method: &str, path: &str, status: u16, body: &Value| {
        let operation = &doc["paths"][path][method.to_ascii_lowercase()];
        let response = &operation["responses"][status.to_string()];
        assert!(response.is_object(), "{method} {path}: {status} is not documented");
        let response = match response["$ref"].as_str() {
            Some(reference) => doc.pointer(reference.trim_start_matches('#')).unwrap(),
            None => response,
        };
        let schema = &response["content"]["application/json"]["schema"];
        assert_eq!(violations(&doc, schema, body), Vec::<String>::new(), "{method} {path} {status}: {body}");
    };
    srv.get("/events?start_date=bad").await;
    srv.post(Some("admin"), "/event", &json!({})).await;
    let exchanges: Vec<(&str, &str, String, Option<Value>)> = vec![
        ("GET", "/__admin/clock", "/clock".into(), None),
        ("PUT", "/__admin/clock", "/clock".into(), Some(json!({"mode": "frozen"}))),
        ("PUT", "/__admin/clock", "/clock".into(), Some(json!({"mode": "x"}))),
        ("GET", "/__admin/requests", "/requests".into(), None),
        ("GET", "/__admin/requests", "/requests?limit=x".into(), None),
        ("POST", "/__admin/faults", "/faults".into(), Some(json!({"kind": "latency", "ms": [1, 2], "route": "/x"}))),
        ("POST", "/__admin/faults", "/faults".into(), Some(json!({"kind": "latency"}))),
        ("GET", "/__admin/faults", "/faults".into(), None),
        ("DELETE", "/__admin/faults/{id}", "/faults/1".into(), None),
        ("DELETE", "/__admin/faults/{id}", "/faults/1".into(), None),
        ("DELETE", "/__admin/faults", "/faults".into(), None),
        ("POST", "/__admin/stubs", "/stubs".into(), Some(json!({"request": {"path": "/x"}, "merge": {"each": {}}}))),
        ("POST", "/__admin/stubs", "/stubs".into(), Some(json!([{"response": {"status": 500, "body": [1]}}]))),
        ("POST", "/__admin/stubs", "/stubs".into(), Some(json!({"times": 0}))),
        ("GET", "/__admin/stubs", "/stubs".into(), None),
        ("DELETE", "/__admin/stubs/{id}", "/stubs/1".into(), None),
        ("DELETE", "/__admin/stubs/{id}", "/stubs/1".into(), None),
        ("DELETE", "/__admin/stubs", "/stubs".into(), None),
        ("GET", "/__admin/requests/{id}", "/requests/1".into(), None),
        ("GET", "/__admin/requests/{id}", "/requests/999999".into(), None),
        ("POST", "/__admin/reset", "/reset".into(), Some(json!({"to": "demo"}))),
        ("POST", "/__admin/reset", "/reset".into(), Some(json!({"to": "fixtures"}))),
        ("POST", "/__admin/seed", "/seed".into(), Some(json!({"events": 3}))),
        ("POST", "/__admin/seed", "/seed".into(), Some(json!({"events": 0}))),
        ("GET", "/__admin/export", "/export".into(), None),
        ("GET", "/__admin/export", "/export?dates=later".into(), None),
        ("GET", "/__admin/state", "/state".into(), None),
        ("GET", "/__admin/quirks", "/quirks".into(), None),
        ("DELETE", "/__admin/requests", "/requests".into(), None),
    ];
    for (method, documented_path, path, body) in exchanges {
        let mut request = admin(&srv, Method::from_bytes(method.as_bytes()).unwrap(), &path);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let resp = request.send().await;
        check(method, documented_path, resp.status, &resp.json);
    }
    let page = admin(&srv, Method::GET, "/").send().await;
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").unwrap().starts_with("text/html"));
    srv.server.shutdown().await;
}

// ----- H17 (issue 21): the guard's gaps and the bodies' -----

/// Sends raw bytes and returns the status line and the body of the answer.
async fn raw(srv: &Srv, request: &[u8]) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(srv.server.addr()).await.expect("connect");
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    read.expect("the server closes").expect("reads");
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_string();
    (status, body)
}

#[tokio::test]
async fn h17_a_missing_or_unreadable_host_is_refused() {
    let srv = admin_srv().await;
    let (status, body) = raw(&srv, b"POST /__admin/reset HTTP/1.0\r\nContent-Length: 0\r\n\r\n").await;
    assert!(status.contains(" 403 ") && body.contains("admin_forbidden"), "no Host: {status} {body}");
    let request =
        b"POST /__admin/reset HTTP/1.1\r\nHost: evil\xff.com\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    let (status, body) = raw(&srv, request).await;
    assert!(status.contains(" 403 ") && body.contains("admin_forbidden"), "a Host that is not UTF-8: {status} {body}");
    // An HTTP/1.0 request that names its host is served.
    let request = format!("GET /__admin/clock HTTP/1.0\r\nHost: {}\r\n\r\n", srv.server.addr());
    let (status, _) = raw(&srv, request.as_bytes()).await;
    assert!(status.contains(" 200 "), "{status}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h17_a_host_with_userinfo_or_a_bad_port_is_not_an_ip() {
    let srv = admin_srv().await;
    for host in ["127.0.0.1:1@evil.example", "127.0.0.1:x", "127.0.0.1:", "evil.example#127.0.0.1", "::1", ""] {
        let resp = admin(&srv, Method::GET, "/clock").header("host", host).send().await;
        resp.expect_error(403, "admin_forbidden");
    }
    for host in ["127.0.0.1", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST:1"] {
        admin(&srv, Method::GET, "/clock").header("host", host).send().await.expect(200);
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h17_an_empty_body_of_another_type_is_refused_too() {
    let srv = admin_srv().await;
    for body in ["", "  \n"] {
        let resp = admin(&srv, Method::POST, "/reset").body("text/plain", body).send().await;
        resp.expect_error(415, "admin_invalid_body");
    }
    // No body at all, and no type, is an empty object.
    admin(&srv, Method::POST, "/reset").send().await.expect(200);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h17_unknown_fields_are_refused_by_name() {
    let srv = admin_srv().await;
    let before = admin(&srv, Method::GET, "/clock").send().await.expect(200).clone();
    let typo = json!({"mode": "frozen", "nw": "2030-01-01T00:00:00Z"});
    let resp = admin(&srv, Method::PUT, "/clock").json(&typo).send().await;
    let error = resp.expect_error(400, "admin_invalid_body");
    assert!(error["message"].as_str().unwrap().contains("nw"), "{error}");
    let after = admin(&srv, Method::GET, "/clock").send().await.expect(200).clone();
    assert_eq!(after["mode"], before["mode"], "the clock did not change");
    let resp = admin(&srv, Method::POST, "/reset").json(&json!({"to": "demo", "extra": 1})).send().await;
    assert!(resp.expect_error(400, "admin_invalid_body")["message"].as_str().unwrap().contains("extra"));
    let resp = admin(&srv, Method::POST, "/seed").json(&json!({"events": 2, "event": 3})).send().await;
    assert!(resp.expect_error(400, "admin_invalid_body")["message"].as_str().unwrap().contains("event"));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn h17_the_clock_stays_within_the_years_dates_are_written_in() {
    let srv = admin_srv().await;
    for now in ["0000-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "9999-12-31T23:59:59-23:59"] {
        let resp = admin(&srv, Method::PUT, "/clock").json(&json!({"mode": "frozen", "now": now})).send().await;
        resp.expect_error(400, "admin_invalid_body");
    }
    for now in ["1970-01-02T00:00:00Z", "9999-12-30T00:00:00Z"] {
        let resp = admin(&srv, Method::PUT, "/clock").json(&json!({"mode": "frozen", "now": now})).send().await;
        resp.expect(200);
        srv.get("/events?start_date=now").await.expect(200);
    }
    srv.server.shutdown().await;
    // The command line's --clock too.
    let year_zero = "0000-01-01T00:00:00Z".parse().unwrap();
    let refused = reference_server::serve(reference_server::Config { clock: Some(year_zero), ..config() }).await;
    let message = refused.err().expect("refused").to_string();
    assert!(message.contains("--clock must be from 1970"), "{message}");
}

/// The admin API says which of the plugin's quirks are on: none by default, every one with
/// `--like plugin-6.17.2`, and exactly those given with `--quirk`.
#[tokio::test]
async fn the_quirks_that_are_on_are_listed() {
    let names = |body: &Value| -> Vec<String> {
        body["on"].as_array().unwrap().iter().map(|name| name.as_str().unwrap().to_string()).collect()
    };
    let srv = admin_srv().await;
    let none = admin(&srv, Method::GET, "/quirks").send().await.expect(200).clone();
    assert_eq!((names(&none).len(), &none["like"]), (0, &Value::Null), "{none}");
    assert_eq!(none["quirks"].as_array().unwrap().len(), reference_server::QUIRKS.len());
    srv.server.shutdown().await;
    let all = reference_server::Quirks::like("plugin-6.17.2").unwrap();
    let srv = start_with(reference_server::Config { admin: true, quirks: all, ..config() }).await;
    let like = admin(&srv, Method::GET, "/quirks").send().await.expect(200).clone();
    assert_eq!((names(&like).len(), like["like"].as_str()), (reference_server::QUIRKS.len(), Some("plugin-6.17.2")));
    srv.server.shutdown().await;
    let one = reference_server::Quirks::default().with_name("tags-first-only").unwrap();
    let srv = start_with(reference_server::Config { admin: true, quirks: one, ..config() }).await;
    let body = admin(&srv, Method::GET, "/quirks").send().await.expect(200).clone();
    assert_eq!((names(&body), &body["like"]), (vec!["tags-first-only".to_string()], &Value::Null), "{body}");
    let listed = body["quirks"].as_array().unwrap();
    assert!(listed.iter().all(|quirk| quirk["on"] == json!(quirk["name"] == json!("tags-first-only"))), "{body}");
    srv.server.shutdown().await;
}
