//! The checking proxy (`--proxy-to`): answers pass through unchanged, and the journal names
//! every request or answer that breaks the interface, and no other.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

/// A reference server as the "real site", and a proxy (with the journal) in front of it.
async fn site_and_proxy() -> (Srv, Srv) {
    let site = start().await;
    let proxy = proxy_to(site.server.base_url(), true).await;
    (site, proxy)
}

async fn proxy_to(base_url: &str, admin: bool) -> Srv {
    start_with(reference_server::Config { admin, proxy_to: Some(base_url.to_string()), ..config() }).await
}

/// The journal entries after `since`.
async fn entries(srv: &Srv, since: u64) -> Vec<Value> {
    let resp = srv.site_req(Method::GET, &format!("/__admin/requests?since={since}&limit=1000")).send().await;
    resp.expect(200)["requests"].as_array().cloned().unwrap_or_default()
}

/// Sends one request through the proxy; its answer and its journal entry.
async fn through(proxy: &Srv, request: Req<'_>) -> (Resp, Value) {
    let since = proxy.site_req(Method::GET, "/__admin/requests?limit=1").send().await.expect(200)["last"].as_u64();
    let resp = request.send().await;
    let mut found = entries(proxy, since.unwrap()).await;
    assert_eq!(found.len(), 1, "one entry per request: {found:?}");
    (resp, found.remove(0))
}

fn findings(entry: &Value) -> Vec<Value> {
    entry["findings"].as_array().cloned().unwrap_or_default()
}

/// The client script: correct requests (whatever the site answers, refusals that depend on its
/// state included) leave no finding; each incorrect one is named, with its reason.
#[tokio::test]
async fn the_journal_names_each_incorrect_request_and_no_correct_one() {
    let (site, proxy) = site_and_proxy().await;
    let event = json!({"title": "Proxy night", "start_date": at(3, 20), "end_date": at(3, 22)});
    let (resp, entry) = through(&proxy, proxy.req(Method::POST, "/events").user("editor").json(&event)).await;
    let id = resp.expect(201)["id"].as_u64().unwrap();
    assert!(findings(&entry).is_empty(), "{entry}");
    // The proxied exchange's entry names its method, path and user as a served one does.
    assert_eq!((&entry["method"], &entry["user"]), (&json!("POST"), &json!("editor")), "{entry}");
    assert!(entry["path"].as_str().is_some_and(|path| path.ends_with("/events")), "{entry}");
    let correct: Vec<Req> = vec![
        proxy.req(Method::GET, "/events"),
        proxy.req(Method::GET, &format!("/events?start_date={}&per_page=5&page=1", day(-30))),
        proxy.req(Method::GET, &format!("/events/{id}")),
        proxy.req(Method::GET, "/events/999999"),
        proxy.req(Method::PUT, &format!("/events/{id}")).user("editor").json(&json!({"title": "Renamed"})),
        proxy.req(Method::POST, "/venues").user("editor").json(&json!({"venue": "Hall", "city": "Lyon"})),
        proxy.req(Method::GET, "/venues?search=Hall"),
        proxy.req(Method::POST, "/categories").user("editor").json(&json!({"name": "Jazz"})),
        proxy.req(Method::GET, "/tags?hide_empty=false&_fields=id,name"),
        proxy.req(Method::POST, "/events").user("subscriber").json(&event),
        proxy.req(Method::GET, "/events?multilingual_language=fr"),
        proxy.req(Method::GET, ""),
        proxy.req(Method::DELETE, &format!("/events/{id}")).user("editor"),
    ];
    for request in correct {
        let (resp, entry) = through(&proxy, request).await;
        assert!(findings(&entry).is_empty(), "a correct request named ({}): {entry}", resp.text);
    }
    let incorrect: Vec<(Req, &str, Option<&str>)> = vec![
        (
            proxy.req(Method::GET, "/events?star_date=2030-01-01"),
            "unknown parameter \"star_date\"",
            Some("did you mean start_date?"),
        ),
        (proxy.req(Method::GET, "/events?per_page=ten"), "per_page: not a positive whole number", None),
        (proxy.req(Method::GET, "/events?page=0"), "page: not a positive whole number", None),
        (proxy.req(Method::GET, "/events?start_date=someday"), "start_date: not a date", None),
        (
            proxy.req(Method::POST, "/events").user("editor").json(&json!({"title": "No dates"})),
            "missing required parameter(s): start_date, end_date",
            None,
        ),
        (proxy.req(Method::DELETE, "/events"), "no route DELETE /events", Some("/events takes GET, POST, not DELETE")),
        (proxy.req(Method::GET, "/event"), "no route GET /event", Some("did you mean /events?")),
        (
            proxy.req(Method::POST, "/venues").user("editor").json(&json!({"venue": "Hall", "city": 12})),
            "city: not a string",
            None,
        ),
        (
            proxy.req(Method::PUT, &format!("/events/{id}")).user("editor").json(&json!({"all_day": "sometimes"})),
            "all_day: not of type boolean",
            None,
        ),
        (proxy.req(Method::GET, "/events?multilingual_language=xx"), "multilingual_language: not a language", None),
    ];
    for (request, reason, hint) in incorrect {
        let (resp, entry) = through(&proxy, request).await;
        let found = findings(&entry);
        assert!(!found.is_empty(), "an incorrect request not named ({}): {entry}", resp.text);
        assert!(found.iter().all(|finding| finding["side"] == "request"), "{entry}");
        assert!(found[0]["reason"].as_str().unwrap().starts_with(reason), "{entry}");
        assert_eq!(found[0]["hint"].as_str(), hint, "{entry}");
    }
    drop(site);
}

/// The answer is the site's, unchanged: status, headers that matter, body byte for byte.
#[tokio::test]
async fn answers_pass_through_unchanged() {
    let (site, proxy) = site_and_proxy().await;
    site.event("Same answer", 4, json!({})).await;
    for path in ["/events", "/events?per_page=1", "/nope", "/events?page=abc", "/fr/wp-json/calendar/events/v1/doc"] {
        let (direct, proxied) = match path.strip_prefix("/fr") {
            Some(_) => (site.site_req(Method::GET, path).send().await, proxy.site_req(Method::GET, path).send().await),
            None => (site.get(path).await, proxy.get(path).await),
        };
        assert_eq!((proxied.status, &proxied.text), (direct.status, &direct.text), "{path}");
        for header in ["content-type", "x-wp-total", "x-wp-totalpages", "link", "allow"] {
            assert_eq!(proxied.header(header), direct.header(header), "{path} {header}");
        }
    }
    // A refusal with the site's own credentials check: the proxy passes the header on.
    let refused = proxy.req(Method::POST, "/events").login("editor", "wrong").json(&json!({})).send().await;
    refused.expect_error(401, "incorrect_password");
}

/// A site that cannot be reached: a 502 in the interface's envelope, noted in the journal.
#[tokio::test]
async fn an_unreachable_site_is_a_502_envelope() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = closed.local_addr().unwrap();
    drop(closed);
    let proxy = proxy_to(&format!("http://{addr}/wp-json"), true).await;
    let (resp, entry) = through(&proxy, proxy.req(Method::GET, "/events")).await;
    resp.expect_error(502, "proxy_site_unreachable");
    assert_eq!(entry["code"], "proxy_site_unreachable");
    assert_eq!(entry["reason"], "the site: the connection failed");
    assert!(findings(&entry).is_empty(), "{entry}");
}

/// A base URL the proxy cannot use is refused at start, without repeating a credential.
#[tokio::test]
async fn a_bad_base_url_is_refused_at_start() {
    for bad in ["ftp://127.0.0.1/wp-json", "http://user:secret@127.0.0.1/wp-json", "127.0.0.1:80"] {
        let config = reference_server::Config { proxy_to: Some(bad.to_string()), ..config() };
        let error = reference_server::serve(config).await.err().expect("refused");
        assert!(error.to_string().contains("--proxy-to"), "{error}");
        assert!(!error.to_string().contains("secret"), "{error}");
    }
}

/// A fake site that breaks the interface in its answers: it accepts what the interface refuses,
/// refuses what it accepts, and leaves out a required field.
async fn fake_site() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use axum::routing::get;
    fn answer(status: StatusCode, body: Value) -> axum::response::Response {
        (status, [("content-type", "application/json; charset=UTF-8")], body.to_string()).into_response()
    }
    async fn events(axum::extract::RawQuery(query): axum::extract::RawQuery) -> axum::response::Response {
        if query.as_deref() == Some("per_page=5") {
            let body = json!({"code": "rest_invalid_param", "message": "Invalid parameter(s): per_page",
                "data": {"status": 400, "params": {"per_page": "Invalid parameter."}}});
            return answer(StatusCode::BAD_REQUEST, body);
        }
        let list = json!({"events": [], "rest_url": "http://site.example/wp-json/calendar/events/v1/events/",
            "total": 0, "total_pages": 0});
        answer(StatusCode::OK, list)
    }
    async fn create() -> axum::response::Response {
        answer(StatusCode::CREATED, json!({"id": 7}))
    }
    async fn one() -> axum::response::Response {
        answer(StatusCode::OK, json!({"id": "seven", "title": "No other field"}))
    }
    async fn no_route() -> axum::response::Response {
        let body = json!({"code": "rest_no_route", "message": "No route.", "data": {"status": 404}});
        answer(StatusCode::NOT_FOUND, body)
    }
    let app = axum::Router::new()
        .route("/wp-json/calendar/events/v1/events", get(events).post(create))
        .route("/wp-json/calendar/events/v1/events/{id}", get(one))
        .route("/wp-json/calendar/events/v1/venues", get(no_route));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (addr, task)
}

#[tokio::test]
async fn answers_that_break_the_interface_are_named() {
    let (addr, task) = fake_site().await;
    let proxy = proxy_to(&format!("http://{addr}/wp-json"), true).await;
    let answer_reasons = |entry: &Value| -> Vec<String> {
        findings(entry)
            .iter()
            .filter(|finding| finding["side"] == "answer")
            .map(|finding| finding["reason"].as_str().unwrap().to_string())
            .collect()
    };
    // Accepted without its required fields: a request finding and an answer finding.
    let (resp, entry) = through(&proxy, proxy.req(Method::POST, "/events").user("editor").json(&json!({}))).await;
    assert_eq!(resp.status, 201, "passed on unchanged");
    let reasons = answer_reasons(&entry);
    assert_eq!(
        reasons[0],
        "the site answered 201 to a request the interface refuses (rest_missing_callback_param, a 4xx)"
    );
    // A valid page size refused as invalid.
    let (_, entry) = through(&proxy, proxy.req(Method::GET, "/events?per_page=5")).await;
    assert_eq!(
        answer_reasons(&entry),
        ["the site answered 400 rest_invalid_param for per_page, which the interface accepts"]
    );
    assert!(findings(&entry).iter().all(|finding| finding["side"] == "answer"), "{entry}");
    // A route of the interface the site lacks.
    let (_, entry) = through(&proxy, proxy.req(Method::GET, "/venues")).await;
    assert_eq!(
        answer_reasons(&entry),
        ["the site answered 404 rest_no_route to GET /venues, a route of the interface"]
    );
    // An event without its section-2 fields, and an ID that is not a number.
    let (_, entry) = through(&proxy, proxy.req(Method::GET, "/events/7")).await;
    let reasons = answer_reasons(&entry);
    assert!(reasons.iter().any(|reason| reason.starts_with("answer field $.id")), "{reasons:?}");
    assert!(
        reasons
            .iter()
            .any(|reason| reason.starts_with("answer $ lacks required field(s): ") && reason.contains("start_date")),
        "{reasons:?}"
    );
    assert!(reasons.len() <= 2 * 5 + 1, "bounded: {reasons:?}");
    // The events list as the interface has it: nothing to say.
    let (_, entry) = through(&proxy, proxy.req(Method::GET, "/events")).await;
    assert!(findings(&entry).is_empty(), "{entry}");
    assert_journal_as_documented(&proxy).await;
    task.abort();
}

/// The journal's answer, findings included, is what the admin API's document says.
async fn assert_journal_as_documented(proxy: &Srv) {
    use reference_server::openapi_check::violations;
    let doc: Value = serde_json::from_str(include_str!("../../src/admin/openapi.json")).unwrap();
    let response = &doc["paths"]["/__admin/requests"]["get"]["responses"]["200"];
    let response = match response["$ref"].as_str() {
        Some(reference) => doc.pointer(reference.trim_start_matches('#')).unwrap(),
        None => response,
    };
    let schema = &response["content"]["application/json"]["schema"];
    let body = proxy.site_req(Method::GET, "/__admin/requests?since=0").send().await;
    let body = body.expect(200);
    assert!(body["requests"].as_array().unwrap().iter().any(|entry| !findings(entry).is_empty()));
    assert_eq!(violations(&doc, schema, body), Vec::<String>::new(), "{body}");
}

/// The proxy keeps the admin API's guards: without --admin there is neither journal nor admin
/// API (the address is outside the REST root, so it is not forwarded either).
#[tokio::test]
async fn without_admin_there_is_no_journal() {
    let site = start().await;
    let proxy = proxy_to(site.server.base_url(), false).await;
    proxy.get("/events").await.expect(200);
    let resp = proxy.site_req(Method::GET, "/__admin/requests").send().await;
    resp.expect_error(404, "rest_no_route");
    // With --admin, a page of another site may not read the journal through the proxy.
    let proxy = proxy_to(site.server.base_url(), true).await;
    let resp = proxy.site_req(Method::GET, "/__admin/requests").header("origin", "https://evil.example").send().await;
    assert_eq!(resp.status, 403, "{}", resp.text);
    // The journal page and its files are the proxy's own, not forwarded.
    for path in ["/__admin/", "/__pages/journal.js", "/__pages/style.css"] {
        let resp = proxy.site_req(Method::GET, path).send().await;
        assert_eq!(resp.status, 200, "{path}: {}", resp.text);
    }
}

/// A proxied exchange keeps its bodies in the journal, as a served one does: the request's with
/// its password redacted, the site's answer as it came.
#[tokio::test]
async fn the_journal_keeps_the_bodies_of_a_proxied_exchange() {
    let (_site, proxy) = site_and_proxy().await;
    let body = json!({"title": "Kept body", "password": "hunter2", "start_date": "2027-01-05 10:00:00", "end_date": "2027-01-05 11:00:00"});
    let (resp, entry) = through(&proxy, proxy.req(Method::POST, "/events").user("admin").json(&body)).await;
    let created = resp.expect(201);
    let seq = entry["seq"].as_u64().unwrap();
    let read = proxy.site_req(Method::GET, &format!("/__admin/requests/{seq}")).send().await;
    let one = read.expect(200);
    let request = one["request_body"]["text"].as_str().unwrap();
    assert!(request.contains("Kept body") && !request.contains("hunter2"), "{request}");
    let response = one["response_body"]["text"].as_str().unwrap();
    let id = created["id"].as_u64().unwrap();
    assert!(response.contains(&format!("\"id\":{id}")), "{response}");
}

/// Sends `method path` as written (no client normalises it) and returns the status line and
/// the body of the answer.
async fn raw_request(srv: &Srv, method: &str, path: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(srv.server.addr()).await.expect("connect");
    let body = if method == "POST" { r#"{"to":"empty"}"# } else { "" };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        srv.server.addr(),
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(30), stream.read_to_end(&mut answer)).await;
    read.unwrap_or_else(|_| panic!("{method} {path}: the server closes")).expect("reads");
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_string();
    (status, body)
}

/// R1: a path with dot segments, written as is or percent-encoded, is not forwarded: the site
/// would resolve it outside the REST root, its admin API included.
#[tokio::test]
async fn r1_dot_segments_are_not_forwarded() {
    let site = start_with(reference_server::Config { admin: true, ..config() }).await;
    site.event("Still there", 3, json!({})).await;
    let proxy = proxy_to(site.server.base_url(), false).await;
    let paths = [
        ("GET", "/wp-json/../__admin/state"),
        ("POST", "/wp-json/%2e%2e/__admin/reset"),
        ("POST", "/wp-json/%2E./__admin/reset"),
        ("POST", "/wp-json/calendar/events/v1/../../../__admin/reset"),
        ("POST", "/wp-json/calendar/events/v1/..%2f..%2f..%2f__admin/reset"),
        ("POST", "/wp-json/calendar/events/v1/%2e/../../../__admin/reset"),
        ("POST", "/fr/wp-json/%2e%2e/__admin/reset"),
        ("POST", "/wp-json/calendar/events/v1/events/..%5c..%5c..%5c__admin/reset"),
    ];
    for (method, path) in paths {
        let (status, body) = raw_request(&proxy, method, path).await;
        assert!(status.contains(" 404 ") && body.contains("rest_no_route"), "{method} {path}: {status} {body}");
    }
    assert_eq!(site.get("/events").await.expect(200)["total"], 1, "the site's store is untouched");
    // A normal path is still forwarded, and a dot inside a segment is no dot segment.
    let (status, body) = raw_request(&proxy, "GET", "/wp-json/calendar/events/v1/events/by-slug/a..b").await;
    assert!(!body.contains("rest_no_route"), "forwarded: {status} {body}");
    let (status, body) = raw_request(&proxy, "GET", "/wp-json/calendar/events/v1/events").await;
    assert!(status.contains(" 200 ") && body.contains("Still there"), "{status} {body}");
}

/// What a hostile site answers a request: status, content type, body.
type Answering = fn(&axum::http::request::Parts) -> (u16, &'static str, Vec<u8>);

/// A site that answers every request with `answering`.
async fn hostile_site(answering: Answering) -> (String, tokio::task::JoinHandle<()>) {
    use axum::response::IntoResponse;
    let app = axum::Router::new().fallback(move |request: axum::extract::Request| async move {
        let (parts, _) = request.into_parts();
        let (status, kind, body) = answering(&parts);
        let status = axum::http::StatusCode::from_u16(status).unwrap();
        (status, [("content-type", kind)], body).into_response()
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/wp-json"), task)
}

/// R2: a site's answer that is not JSON is served sandboxed (no script of it runs on the
/// proxy's origin, which is the admin API's) and never sniffed; JSON answers are not changed
/// but for `nosniff`.
#[tokio::test]
async fn r2_answers_that_are_not_json_are_sandboxed() {
    fn answering(parts: &axum::http::request::Parts) -> (u16, &'static str, Vec<u8>) {
        let page = b"<!doctype html><script>fetch('/__admin/export')</script>".to_vec();
        match parts.uri.path() {
            "/wp-json/calendar/events/v1/events" => {
                (200, "application/json; charset=UTF-8", b"{\"events\":[]}".to_vec())
            }
            "/wp-json/calendar/events/v1/image.svg" => {
                (200, "image/svg+xml", b"<svg><script>1</script></svg>".to_vec())
            }
            "/wp-json/calendar/events/v1/none" => (200, "", page),
            _ => (200, "text/html; charset=UTF-8", page),
        }
    }
    let (base, task) = hostile_site(answering).await;
    let proxy = proxy_to(&base, true).await;
    for path in ["/page.html", "/events/1", "/image.svg", "/none"] {
        let resp = proxy.get(path).await;
        let policies: Vec<&str> =
            resp.headers.get_all("content-security-policy").iter().filter_map(|v| v.to_str().ok()).collect();
        assert!(policies.contains(&"sandbox"), "{path}: {:?}", resp.headers);
        assert_eq!(resp.header("x-content-type-options"), Some("nosniff"), "{path}");
    }
    let json = proxy.get("/events").await;
    assert_eq!((json.status, json.header("content-security-policy")), (200, None));
    assert_eq!(json.header("x-content-type-options"), Some("nosniff"));
    task.abort();
}

/// R3: a site's JSON answer of more values than the proxy parses (as the runner bounds its own
/// parse) is passed on unchanged and unchecked, with a finding that says so.
#[tokio::test]
async fn r3_a_huge_json_answer_is_not_parsed() {
    fn answering(_: &axum::http::request::Parts) -> (u16, &'static str, Vec<u8>) {
        let zeros = "0,".repeat(600_000);
        (200, "application/json", format!("[{zeros}0]").into_bytes())
    }
    let (base, task) = hostile_site(answering).await;
    let proxy = proxy_to(&base, true).await;
    let (resp, entry) = through(&proxy, proxy.req(Method::GET, "/events")).await;
    assert_eq!((resp.status, resp.text.len()), (200, 1_200_003));
    let reasons: Vec<&str> =
        entry["findings"].as_array().unwrap().iter().filter_map(|f| f["reason"].as_str()).collect();
    assert_eq!(reasons, ["the site's answer holds more than 500000 JSON values: the proxy passed it on unchecked"]);
    task.abort();
}

/// R4: `--proxy-to` the server's own address is refused at start; a loop through another
/// proxy is cut by the `Via` header the proxy adds (508 proxy_loop, at the second pass).
#[tokio::test]
async fn r4_a_proxy_loop_is_refused_or_cut() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let listen = free.local_addr().unwrap();
    drop(free);
    for base in [format!("http://{listen}/wp-json"), format!("http://localhost:{}/wp-json/", listen.port())] {
        let config = reference_server::Config { listen, proxy_to: Some(base.clone()), ..config() };
        let error = reference_server::serve(config).await.err().expect("refused");
        assert!(error.to_string().contains("own address"), "{base}: {error}");
    }
    // A site that forwards every request back to the proxy, headers included.
    let target = std::sync::Arc::new(std::sync::OnceLock::<String>::new());
    let back = target.clone();
    let app = axum::Router::new().fallback(move |request: axum::extract::Request| {
        let back = back.clone();
        async move {
            let url = format!("{}{}", back.get().unwrap(), request.uri());
            let mut forwarded = reqwest::Client::new().request(request.method().clone(), url);
            for (name, value) in request.headers().iter().filter(|(name, _)| *name != "host") {
                forwarded = forwarded.header(name, value);
            }
            let answer = forwarded.send().await.unwrap();
            let status = axum::http::StatusCode::from_u16(answer.status().as_u16()).unwrap();
            let kind = answer.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
            (status, [("content-type", kind)], answer.text().await.unwrap())
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let proxy = proxy_to(&format!("http://{addr}/wp-json"), true).await;
    target.set(proxy.site().to_string()).unwrap();
    let since = proxy.site_req(Method::GET, "/__admin/requests?limit=1").send().await.expect(200)["last"].as_u64();
    proxy.get("/events").await.expect_error(508, "proxy_loop");
    assert_eq!(entries(&proxy, since.unwrap()).await.len(), 2, "the loop is cut at its second pass");
    task.abort();
}

/// R5: the credentials the proxy forwarded are masked wherever the site's answer repeats them
/// in the journal: the password, the Basic token, written as is or inside a JSON string.
#[tokio::test]
async fn r5_echoed_credentials_are_masked_in_the_journal() {
    fn answering(parts: &axum::http::request::Parts) -> (u16, &'static str, Vec<u8>) {
        let auth = parts.headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let nonce = parts.headers.get("x-wp-nonce").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let body = json!({"code": "rest_forbidden", "message": format!("no: {auth} / Alice-S3cret\"Pw / {nonce}"),
            "data": {"status": 403, "sent": auth, "password": "Alice-S3cret\"Pw"}});
        (403, "application/json", body.to_string().into_bytes())
    }
    let (base, task) = hostile_site(answering).await;
    let proxy = proxy_to(&base, true).await;
    let request =
        proxy.req(Method::GET, "/events").login("alice", "Alice-S3cret\"Pw").header("x-wp-nonce", "0123abcd89");
    let (resp, entry) = through(&proxy, request).await;
    assert!(resp.text.contains("Alice-S3cret"), "the answer itself passes on unchanged");
    let one = proxy.site_req(Method::GET, &format!("/__admin/requests/{}", entry["seq"])).send().await;
    let kept = one.expect(200)["response_body"].clone();
    let text = kept["text"].as_str().unwrap();
    let token = "YWxpY2U6QWxpY2UtUzNjcmV0IlB3";
    assert!(!text.contains("S3cret") && !text.contains(token) && !text.contains("0123abcd89"), "{text}");
    assert!(text.contains("[redacted]") && kept["redacted"] == true, "{kept}");
    task.abort();
}

/// R11: a checking proxy forwards every request of the interface, so a stub could never
/// answer one: it is refused, through the admin API and as a `--stub` file at start.
#[tokio::test]
async fn r11_stubs_are_refused_on_a_proxy() {
    let (_site, proxy) = site_and_proxy().await;
    let stub = json!({"request": {"path": "/venues"}, "response": {"status": 418, "body": {"stubbed": true}}});
    let resp = proxy.site_req(Method::POST, "/__admin/stubs").json(&stub).send().await;
    let message = resp.expect_error(400, "admin_invalid_stub")["message"].as_str().unwrap().to_string();
    assert!(message.contains("--proxy-to"), "{message}");
    let list = proxy.site_req(Method::GET, "/__admin/stubs").send().await;
    assert_eq!(list.expect(200)["stubs"], json!([]));
    let file = std::env::temp_dir().join(format!("r11-stub-{}.json", std::process::id()));
    std::fs::write(&file, stub.to_string()).unwrap();
    let config = reference_server::Config {
        proxy_to: Some("http://127.0.0.1:9/wp-json".into()),
        stub_files: vec![file.clone()],
        ..config()
    };
    let error = reference_server::serve(config).await.err().expect("refused");
    std::fs::remove_file(&file).unwrap();
    assert!(error.to_string().contains("--proxy-to"), "{error}");
}
