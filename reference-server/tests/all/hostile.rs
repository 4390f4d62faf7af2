//! Hostile input on every route × method of the interface table, as every role and
//! anonymously: malformed and wrong-typed bodies, overflowing numbers, bad encodings, huge
//! lists, unknown fields. No answer may be a 5xx; every answer is JSON, errors in the
//! envelope; and a write that is refused leaves the store exactly as it was.

use crate::common;

use common::*;
use reference_server::interface::{Arg, Method as IfMethod, Route, Target, ROUTES};
use reqwest::Method;
use serde_json::{json, Value};

const IDENTITIES: [Option<&str>; 6] =
    [None, Some("admin"), Some("editor"), Some("author"), Some("contributor"), Some("subscriber")];

/// Identities that get the per-argument battery too: no rights, some, all.
const DEEP_IDENTITIES: [Option<&str>; 2] = [None, Some("admin")];

/// A body, as sent.
#[derive(Clone)]
enum Payload {
    Json(String),
    Raw(&'static str, Vec<u8>),
    Query(String),
}

/// Values that are wrong in some way for almost any argument.
fn hostile_values() -> Vec<Value> {
    let huge_list: Vec<Value> = (0..10_000).map(|n| json!(n)).collect();
    let huge_csv: String = (1..10_000).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
    vec![
        json!("1e400"),
        json!(1e308),
        json!("99999999999999999999999999"),
        json!(-9223372036854775808i64),
        json!(18446744073709551615u64),
        json!({}),
        json!([[[]]]),
        json!(true),
        json!(null),
        json!(""),
        json!("\u{0}\u{1}\u{7f}"),
        json!("\u{fffd}\u{202e}ü日本🎉"),
        json!("x".repeat(100_000)),
        Value::Array(huge_list),
        json!(huge_csv),
        json!({"id": {"id": {"id": 1}}, "venue": [{}], "organizer": {"organizer": []}}),
        json!([{"venue": "Inline", "website": "nope"}, {"organizer": "", "id": -1}]),
        json!("+99999999 years"),
        json!("0000-00-00 00:00:00"),
        json!("https://images.example.com/a.png?x=../../etc/passwd"),
    ]
}

/// The battery every identity gets on every route and method.
fn fixed_battery(write: bool) -> Vec<Payload> {
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let mut battery = vec![
        Payload::Json("{".into()),
        Payload::Json("{\"title\":".into()),
        Payload::Json("\u{feff}{}".into()),
        Payload::Json("[1,2,3]".into()),
        Payload::Json("\"just a string\"".into()),
        Payload::Json("1e999".into()),
        Payload::Json(deep),
        Payload::Json("{\"title\": \"\\ud800\"}".into()),
        Payload::Raw("application/json", vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}']),
        Payload::Raw("application/x-www-form-urlencoded", b"a=%zz&b=%FF%FE&c[]=1&c[x]=2&c[][]=3&=&&".to_vec()),
        Payload::Raw(
            "multipart/form-data; boundary=x",
            b"--x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\xff\xfe\r\n--x".to_vec(),
        ),
        Payload::Raw("multipart/form-data", b"no boundary".to_vec()),
        Payload::Json(json!({"unknown": 1, "__proto__": {"admin": true}, "id": "x", "slug": {"$ne": 1}}).to_string()),
        Payload::Query(
            "page=99999999999999999999999&per_page=-1&_fields=%FF&_envelope&multilingual_language=xx".into(),
        ),
        Payload::Query("include=".to_string() + &(1..10_000).map(|n| n.to_string()).collect::<Vec<_>>().join(",")),
    ];
    if !write {
        battery.retain(|payload| matches!(payload, Payload::Query(_) | Payload::Json(_)));
    }
    battery
}

/// Bodies that pass every check but one that comes late: new terms, an image URL and an
/// inline venue, then inline organizer data that cannot become an organizer.
fn late_failures(route: &Route) -> Vec<Payload> {
    if route.resource.segment() != "events" {
        return Vec::new();
    }
    let late = json!({
        "title": "Late", "start_date": at(4, 0), "end_date": at(4, 1),
        "categories": ["Late category"], "tags": "late tag, other late tag",
        "image": "https://images.example.com/late.png",
        "venue": {"venue": "Late hall", "city": "Nowhere"},
        "organizer": [{"organizer": "Late org"}, {"organizer": "Bad org", "website": "not a url"}],
    });
    let mut foreign = late.clone();
    foreign["organizer"] = json!([{"organizer": "Someone else's", "author": 2}]);
    vec![Payload::Json(late.to_string()), Payload::Json(foreign.to_string())]
}

/// One body per argument, each with a hostile value, and one with every argument at once.
fn argument_battery(args: &[Arg]) -> Vec<Payload> {
    let values = hostile_values();
    let mut names: Vec<&str> = args.iter().map(|arg| arg.name).collect();
    names.push("multilingual_language");
    let mut battery = Vec::new();
    let mut all = serde_json::Map::new();
    for (index, name) in names.iter().enumerate() {
        let value = values[index % values.len()].clone();
        let other = values[(index + 7) % values.len()].clone();
        battery.push(Payload::Json(json!({ *name: value.clone() }).to_string()));
        let text = match &other {
            Value::String(text) => text.chars().take(2000).collect(),
            other => other.to_string().chars().take(2000).collect::<String>(),
        };
        battery.push(Payload::Query(format!("{name}={}", encode(&text))));
        all.insert(name.to_string(), value);
    }
    battery.push(Payload::Json(Value::Object(all).to_string()));
    battery
}

fn http_method(method: IfMethod) -> Method {
    Method::from_bytes(method.name().as_bytes()).expect("method")
}

/// Fresh items for a route to work on, so that an accepted delete does not starve the rest.
async fn target_path(srv: &Srv, route: &Route, n: usize) -> String {
    let collection = route.resource.segment();
    let body = match collection {
        "events" => json!({"title": format!("Hostile target {n}"), "start_date": at(3, 0), "end_date": at(3, 1)}),
        "venues" => json!({"venue": format!("Hostile venue {n}")}),
        "organizers" => json!({"organizer": format!("Hostile organizer {n}")}),
        "categories" | "tags" => json!({"name": format!("Hostile term {n}")}),
        _ => return route.path.to_string(),
    };
    match route.target {
        Target::ById | Target::BySlug => {
            // Items of the contributor and of the administrator in turn, so that object-level
            // rights go both ways.
            let owner = if route.resource.is_term() || n % 2 == 1 { "admin" } else { "contributor" };
            let item = srv.create(owner, collection, body).await;
            route.path.replace("<id>", &id(&item).to_string()).replace("<slug>", item["slug"].as_str().unwrap_or("x"))
        }
        _ => route.path.to_string(),
    }
}

async fn send(srv: &Srv, method: &Method, path: &str, user: Option<&str>, payload: &Payload) -> Resp {
    let req = match payload {
        Payload::Query(query) => {
            let joiner = if path.contains('?') { '&' } else { '?' };
            srv.req(method.clone(), &format!("{path}{joiner}{query}"))
        }
        Payload::Json(body) => srv.req(method.clone(), path).body("application/json", body.clone()),
        Payload::Raw(content_type, body) => srv.req(method.clone(), path).body(content_type, body.clone()),
    };
    req.maybe_user(user).send().await
}

#[tokio::test]
async fn hostile_input_on_every_route_method_and_identity() {
    let srv = start().await;
    // Some context for links and filters to find.
    let venue = srv.venue("Context venue", json!({})).await;
    let category = srv.category("Context category", json!({})).await;
    srv.event("Context event", 3, json!({"venue": id(&venue), "categories": [id(&category)], "password": "pw"})).await;
    let mut sent = 0usize;
    let mut n = 0;
    for route in ROUTES {
        for (method, _) in route.methods {
            let write = *method != IfMethod::Get;
            let http = http_method(*method);
            let args = route.args(*method);
            for user in IDENTITIES {
                n += 1;
                let path = target_path(&srv, route, n).await;
                let mut fingerprint = srv.server.store_fingerprint();
                let mut battery = fixed_battery(write);
                if write {
                    battery.extend(late_failures(route));
                }
                if DEEP_IDENTITIES.contains(&user) {
                    battery.extend(argument_battery(&args));
                }
                for payload in &battery {
                    let resp = send(&srv, &http, &path, user, payload).await;
                    sent += 1;
                    let what = format!("{} {path} as {user:?}", method.name());
                    assert!(resp.status < 500, "{what}: {} {}", resp.status, resp.text);
                    assert_json_content_type(&resp);
                    assert!(!resp.text.is_empty() && resp.json != Value::Null, "{what}: not JSON: {}", resp.text);
                    if resp.status >= 400 {
                        assert!(resp.json["code"].is_string(), "{what}: no code: {}", resp.text);
                        assert!(resp.json["message"].is_string(), "{what}: no message: {}", resp.text);
                        assert_eq!(resp.json["data"]["status"], resp.status, "{what}: {}", resp.text);
                    }
                    let now = srv.server.store_fingerprint();
                    if resp.status >= 400 || !write {
                        assert_eq!(
                            now, fingerprint,
                            "{what} answered {} and changed the store: {}",
                            resp.status, resp.text
                        );
                    }
                    fingerprint = now;
                }
            }
        }
    }
    assert!(sent > 5_000, "only {sent} requests");
    // The server still works.
    srv.event("Still alive", 3, json!({})).await;
}

// ----- a proxy in front of a site: hostile paths (R1) -----

/// Sends `method path` as written, with no body, and returns the status line.
async fn raw_status(srv: &Srv, method: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(srv.server.addr()).await.expect("connect");
    let request = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", srv.server.addr());
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(30), stream.read_to_end(&mut answer)).await;
    read.expect("the server closes").expect("reads");
    String::from_utf8_lossy(&answer).lines().next().unwrap_or("").to_string()
}

/// Every spelling of a dot segment, on every method, through a checking proxy: none reaches
/// the site outside its REST root (the site's own journal shows every path it received).
#[tokio::test]
async fn hostile_paths_through_a_proxy_never_leave_the_rest_root() {
    let site = start_with(reference_server::Config { admin: true, ..config() }).await;
    let proxy =
        start_with(reference_server::Config { proxy_to: Some(site.server.base_url().to_string()), ..config() }).await;
    let dots =
        ["..", ".", "%2e%2e", "%2E%2e", ".%2e", "%2e.", "%2e", "..%2f..", "..%5c..", "..\\..", "%2e%2e%2f%2e%2e"];
    let mut sent = 0;
    for dot in dots {
        for prefix in ["/wp-json", "/wp-json/calendar/events/v1", "/wp-json/calendar/events/v1/events", "/fr/wp-json"] {
            for method in ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let path = format!("{prefix}/{dot}/{dot}/{dot}/__admin/reset");
                let status = raw_status(&proxy, method, &path).await;
                sent += 1;
                assert!(!status.contains(" 2"), "{method} {path}: {status}");
            }
        }
    }
    assert!(sent > 200);
    let seen = site.site_req(Method::GET, "/__admin/requests?limit=5000").send().await;
    for entry in seen.expect(200)["requests"].as_array().unwrap() {
        let path = entry["path"].as_str().unwrap();
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy().to_string();
        assert!(
            decoded.split(['/', '\\']).all(|segment| segment != ".." && segment != "."),
            "the site received {path}"
        );
    }
}

// ----- hostile fixture and stub files at their bounds (R12) -----

/// Runs the reference server with `args` to its end: its exit code, its standard error and its
/// own peak memory in KiB.
///
/// The peak is read by a process of its own ([`measure_in_a_fresh_process`], this test binary
/// started again): a process started from this one (`posix_spawn` shares the memory until the
/// new program starts) inherits this process's peak as its own `ru_maxrss`, and this process
/// runs many tests at once; one that had held 430 MB made a server that used 80 MB fail the
/// ceiling. The fresh process is small, so what it hands down is too.
#[cfg(target_os = "linux")]
fn run_measured(args: &[&str]) -> (Option<i32>, String, i64) {
    let exe = std::env::current_exe().unwrap();
    let output = std::process::Command::new(exe)
        .args(["--exact", "hostile::measure_in_a_fresh_process", "--ignored", "--nocapture", "--test-threads", "1"])
        .env(MEASURE_ENV, serde_json::to_string(args).unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // libtest prints `test NAME ... ` before the helper's line.
    let line = stdout
        .lines()
        .find_map(|line| line.split_once(MEASURED).map(|(_, json)| json))
        .unwrap_or_else(|| panic!("no measurement: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
    let measured: Value = serde_json::from_str(line).unwrap();
    let code = measured["code"].as_i64().map(|c| c as i32);
    (code, measured["errors"].as_str().unwrap().to_string(), measured["peak_kib"].as_i64().unwrap())
}

#[cfg(target_os = "linux")]
const MEASURE_ENV: &str = "REFERENCE_SERVER_TEST_MEASURE";
#[cfg(target_os = "linux")]
const MEASURED: &str = "measured: ";

/// Not a test of its own: [`run_measured`] starts this test binary again to run it, with the
/// server's arguments in `REFERENCE_SERVER_TEST_MEASURE`. It runs the server to its end and
/// prints its exit code, standard error and peak memory (`wait4` on it).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "a helper: run_measured starts it in a fresh process"]
#[allow(clippy::zombie_processes)] // reaped by wait4, which std's wait does not replace
fn measure_in_a_fresh_process() {
    use std::io::Read;
    let Ok(args) = std::env::var(MEASURE_ENV) else { return };
    let args: Vec<String> = serde_json::from_str(&args).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_reference-server"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut errors = String::new();
    child.stderr.take().unwrap().read_to_string(&mut errors).unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 fills the status and the rusage it is given; a zeroed rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    println!("{MEASURED}{}", json!({"code": code, "errors": errors, "peak_kib": usage.ru_maxrss}));
}

/// Writes `prefix`, then `[0,0,…,0]` of `count` zeros, then `suffix`, without holding the text:
/// this process stays small.
#[cfg(target_os = "linux")]
fn write_zeros(path: &std::path::Path, prefix: &str, count: usize, suffix: &str) {
    use std::io::Write;
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    file.write_all(prefix.as_bytes()).unwrap();
    file.write_all(b"[").unwrap();
    for _ in 1..count {
        file.write_all(b"0,").unwrap();
    }
    file.write_all(b"0]").unwrap();
    file.write_all(suffix.as_bytes()).unwrap();
    file.flush().unwrap();
}

/// Files just under the 64 MiB bound, made of as many values as fit (`[0,0,…]`, some 33
/// million), as a fixture and as a stub file: each is refused in one line, before it is parsed,
/// and the server's peak memory stays far below what parsing would take (several GB).
#[cfg(target_os = "linux")]
#[test]
fn hostile_files_at_their_bounds_are_refused_within_a_memory_ceiling() {
    const CEILING_KIB: i64 = 400 * 1024;
    let dir = std::env::temp_dir().join(format!("reference-server-hostile-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zeros = 32 * 1024 * 1024 - 15;
    let cases = [
        ("fixture.json", "{\"events\":", "}", "--fixtures", "holds more than 5000000 values"),
        ("stubs.json", "{\"response\":{\"body\":", "}}", "--stub", "holds more than 200000 values"),
    ];
    for (name, prefix, suffix, flag, expected) in cases {
        let path = dir.join(name);
        write_zeros(&path, prefix, zeros, suffix);
        assert!(std::fs::metadata(&path).unwrap().len() > 63 * 1024 * 1024, "just under the 64 MiB bound");
        let (code, errors, peak) = run_measured(&["--listen", "127.0.0.1:0", flag, path.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{flag}: {errors}");
        assert!(errors.lines().count() <= 2 && errors.contains(expected), "{flag}: {errors}");
        assert!(peak < CEILING_KIB, "{flag}: the server reached {peak} KiB");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ----- a hostile site behind the proxy (R2, R3, R5) -----

/// What the hostile site answers, by the last segment of the path.
fn hostile_answer(parts: &axum::http::request::Parts) -> (u16, &'static str, Vec<u8>) {
    use base64::Engine;
    let auth = parts.headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let token = auth.strip_prefix("Basic ").unwrap_or("");
    let decoded = base64::engine::general_purpose::STANDARD.decode(token).unwrap_or_default();
    let password = String::from_utf8_lossy(&decoded).split_once(':').map(|(_, p)| p.to_string()).unwrap_or_default();
    let echo = json!({"code": "rest_forbidden", "message": format!("{auth} / {password}"), "data": {"status": 403}});
    match parts.uri.path().rsplit('/').next().unwrap_or("") {
        "html" => (200, "text/html", b"<script>fetch('/__admin/export')</script>".to_vec()),
        "svg" => (200, "image/svg+xml", b"<svg onload=\"fetch('/__admin/reset',{method:'POST'})\"/>".to_vec()),
        "typeless" => (200, "", b"<script>1</script>".to_vec()),
        "huge" => (200, "application/json", format!("[{}0]", "0,".repeat(600_000)).into_bytes()),
        "deep" => (200, "application/json", format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes()),
        "bytes" => (200, "application/json", vec![b'{', 0xff, 0xfe, b'}']),
        _ => (403, "application/json", echo.to_string().into_bytes()),
    }
}

/// Every hostile shape of a site's answer, anonymously and with credentials, through a checking
/// proxy: the answer is passed on (sandboxed when it is not JSON), the proxy's memory is not
/// spent on a huge answer, and the journal keeps no credential the site echoed.
#[tokio::test]
async fn hostile_site_answers_through_a_proxy() {
    use axum::response::IntoResponse;
    let app = axum::Router::new().fallback(|request: axum::extract::Request| async move {
        let (parts, _) = request.into_parts();
        let (status, kind, body) = hostile_answer(&parts);
        (axum::http::StatusCode::from_u16(status).unwrap(), [("content-type", kind)], body).into_response()
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let site = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let base = format!("http://{addr}/wp-json");
    let proxy = start_with(reference_server::Config { admin: true, proxy_to: Some(base), ..config() }).await;
    for shape in ["html", "svg", "typeless", "huge", "deep", "bytes", "echo"] {
        for login in [None, Some(("alice", "Hostile-S3cret"))] {
            let mut request = proxy.req(Method::GET, &format!("/events/{shape}"));
            if let Some((user, password)) = login {
                request = request.login(user, password);
            }
            let resp = request.send().await;
            let json = resp.header("content-type").is_some_and(|kind| kind.contains("json"));
            assert_eq!(resp.header("x-content-type-options"), Some("nosniff"), "{shape}");
            assert_eq!(resp.header("content-security-policy").is_some(), !json, "{shape}: {:?}", resp.headers);
            assert!(resp.status == 200 || resp.status == 403, "{shape}: {}", resp.status);
        }
    }
    let list = proxy.site_req(Method::GET, "/__admin/requests?limit=100").send().await;
    let entries = list.expect(200)["requests"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 14);
    let huge = entries.iter().find(|e| e["path"].as_str().unwrap().ends_with("/huge")).unwrap();
    assert!(huge["findings"].to_string().contains("more than 500000 JSON values"), "{huge}");
    for entry in &entries {
        let one = proxy.site_req(Method::GET, &format!("/__admin/requests/{}", entry["seq"])).send().await;
        let text = one.expect(200).to_string();
        assert!(!text.contains("S3cret") && !text.contains("YWxpY2U6SG9zdGlsZS1TM2NyZXQ"), "{text}");
    }
    site.abort();
}
