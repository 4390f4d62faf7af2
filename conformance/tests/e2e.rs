//! End-to-end tests: the `conformance` binary against a mock server written here, and against
//! the embedded reference server, with the fixture folders under `tests/fixtures/`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use serde_json::{json, Value};

const NS: &str = "/wp-json/calendar/events/v1";

struct Mock {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

/// One mock server for the whole test binary, on its own runtime thread.
fn mock() -> &'static Mock {
    static MOCK: OnceLock<Mock> = OnceLock::new();
    MOCK.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let shared = log.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                let next = Arc::new(AtomicU64::new(100));
                let app = axum::Router::new().fallback(move |request: Request<Body>| {
                    let log = shared.clone();
                    let next = next.clone();
                    async move { handle(request, log, next).await }
                });
                axum::serve(listener, app).await.unwrap();
            });
        });
        Mock { addr: rx.recv().unwrap(), log }
    })
}

fn reply(status: u16, content_type: &str, body: String) -> Response<Body> {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap())
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap()
}

async fn handle(request: Request<Body>, log: Arc<Mutex<Vec<String>>>, next: Arc<AtomicU64>) -> Response<Body> {
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    let query = request.uri().query().unwrap_or("").to_string();
    let (auth, content_type, host) = {
        let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok()).map(String::from);
        (header("authorization"), header("content-type"), header("host").unwrap_or_default())
    };
    let body = axum::body::to_bytes(request.into_body(), 1 << 20).await.unwrap_or_default();
    let body = String::from_utf8_lossy(&body).into_owned();
    log.lock().unwrap().push(format!("{method} {path}"));
    let rest = path.strip_prefix(NS).unwrap_or("");
    match (method.as_str(), rest) {
        ("POST", "/things") => {
            let id = next.fetch_add(1, Ordering::SeqCst);
            let title = serde_json::from_str::<Value>(&body).ok().and_then(|v| v.get("title").cloned());
            Response::builder()
                .status(201)
                .header("content-type", "application/json")
                .header("location", format!("http://{host}{NS}/things/{id}"))
                .body(Body::from(json!({"id": id, "title": title}).to_string()))
                .unwrap()
        }
        ("GET", "/text") => reply(200, "text/plain", "hello, not json".into()),
        ("GET", "/slow") => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            reply(200, "application/json", "{}".into())
        }
        ("GET", "/redirect") => {
            Response::builder().status(302).header("location", "/elsewhere").body(Body::empty()).unwrap()
        }
        (_, thing) if thing.starts_with("/things/") => {
            let id: u64 = thing["/things/".len()..].parse().unwrap_or(0);
            if method == "DELETE" {
                return reply(200, "application/json", json!({"deleted": true, "id": id}).to_string());
            }
            Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .header("x-total", "3")
                .header("x-multi", "a")
                .header("x-multi", "b")
                .body(Body::from(
                    json!({
                        "id": id,
                        "title": "Thing",
                        "venue": {"id": 13},
                        "tags": [1, 2, 3],
                        "link": "http://example.test/things/?page=2&ids%5B%5D=1&ids[]=9"
                    })
                    .to_string(),
                ))
                .unwrap()
        }
        _ => reply(
            200,
            "application/json",
            json!({
                "method": method,
                "path": path,
                "query": query,
                "url": format!("http://{host}{path}?{query}"),
                "auth": auth,
                "content_type": content_type,
                "body": body,
            })
            .to_string(),
        ),
    }
}

fn fixtures(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the conformance binary runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn base_url() -> String {
    format!("http://{}/wp-json", mock().addr)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conformance-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// True when one line of `out` contains every needle (libtest pads names into columns).
fn line_with(out: &str, needles: &[&str]) -> bool {
    out.lines().any(|line| needles.iter().all(|n| line.contains(n)))
}

fn case<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["cases"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no case {name}"))
}

#[test]
fn every_feature_works_against_a_mock() {
    let report_path = temp("pass.json");
    let cases = fixtures("pass");
    let base = base_url();
    let output = conformance(&[
        "--cases",
        cases.to_str().unwrap(),
        "--base-url",
        &base,
        "--auth",
        "editor=editor:editor-password",
        "--language-param",
        "lang_x",
        "--without",
        "tickets",
        "--json",
        report_path.to_str().unwrap(),
    ]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("ignored (requires tickets, which --without names)"), "{out}");
    assert!(out.contains("ignored (requires fresh-store: give --reset-command"), "{out}");
    assert!(out.contains("conformance: must: 5/5 (2 skipped), should: 0/0, may: 0/0"), "{out}");
    assert!(out.trim_end().ends_with("verdict: CONFORMS: every must case passed"), "{out}");
    let report = read_json(&report_path);
    assert_eq!(report["conforms"], true);
    let first = case(&report, "features::create, capture by path and header, read back");
    assert_eq!(first["outcome"], "passed");
    assert_eq!(first["spec"], json!(["4.1"]));
    assert_eq!(first["tags"], json!(["fixture", "write"]));
    // Cleanup ran: the capture's delete, and one delete per repeated creation.
    let log = mock().log.lock().unwrap().clone();
    let deletes = log.iter().filter(|l| l.starts_with("DELETE")).count();
    assert!(deletes >= 4, "{log:?}");
}

#[test]
fn fresh_store_cases_run_with_a_reset_command_one_at_a_time() {
    let marker = temp("reset-marker");
    let _ = std::fs::remove_file(&marker);
    let base = base_url();
    let reset = format!("touch {}", marker.display());
    let cases = fixtures("pass");
    let output =
        conformance(&["--cases", cases.to_str().unwrap(), "--base-url", &base, "--reset-command", &reset, "fresh"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(line_with(&out, &["features::needs a fresh store", "... ok"]), "{out}");
    assert!(marker.exists(), "the reset command ran");
}

#[test]
fn failing_cases_are_reported_with_paths_expected_and_actual() {
    let report_path = temp("fail.json");
    let junit_path = temp("fail.xml");
    let cases = fixtures("fail");
    let expectations = cases.join("expectations.txt");
    let base = base_url();
    let output = conformance(&[
        "--cases",
        cases.to_str().unwrap(),
        "--base-url",
        &base,
        "--timeout",
        "0.5",
        "--expectations",
        expectations.to_str().unwrap(),
        "--json",
        report_path.to_str().unwrap(),
        "--junit",
        junit_path.to_str().unwrap(),
    ]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "{out}");
    // The request as curl, the status, each mismatch with its path, and a diff.
    assert!(out.contains(&format!("curl -i {}/calendar/events/v1/things/7", base)), "{out}");
    assert!(out.contains("status: 200"), "{out}");
    assert!(out.contains("$.venue.id: expected 12, got 13"), "{out}");
    assert!(out.contains("$.tags: expected an array of 2 elements, got 3 elements: [1,2,3]"), "{out}");
    assert!(out.contains(r#"$.title: expected {"$regex":"^Other"}, got "Thing""#), "{out}");
    assert!(out.contains("--- expected") && out.contains("+++ actual"), "{out}");
    assert!(out.contains("-    \"id\": 12") && out.contains("+    \"id\": 13"), "{out}");
    assert!(out.contains(r#"status: expected {"$in":[201,204]}, got 200"#), "{out}");
    assert!(out.contains("a body that is not JSON") && out.contains("hello, not json"), "{out}");
    assert!(out.contains("timed out"), "{out}");
    assert!(out.contains("$.nothing: expected 1, got nothing (the path selects no node)"), "{out}");
    assert!(out.contains("unexpected pass: broken::listed but passes"), "{out}");
    assert!(out.contains("warning: broken::cleanup failure does not fail the case: cleanup did not go well"), "{out}");
    assert!(out.contains("expectations: 1 expected failures, 1 unexpected passes"), "{out}");
    assert!(out.contains("verdict: DOES NOT CONFORM: 5 of 5 must cases failed"), "{out}");

    let report = read_json(&report_path);
    let deep = case(&report, "broken::deep mismatch");
    assert_eq!(deep["outcome"], "failed");
    assert_eq!(deep["level"], "must");
    assert!(deep["mismatches"]
        .as_array()
        .unwrap()
        .contains(&json!({"path": "$.venue.id", "expected": "12", "actual": "13"})));
    let timeout = case(&report, "broken::timeout");
    assert_eq!(timeout["outcome"], "error");
    assert_eq!(case(&report, "broken::cleanup failure does not fail the case")["outcome"], "passed");
    assert_eq!(case(&report, "broken::listed as expected failure")["expected_failure"], true);

    let junit = std::fs::read_to_string(&junit_path).unwrap();
    assert!(junit.contains(r#"<testsuite name="broken" tests="8" failures="5" errors="1" skipped="1""#), "{junit}");
    assert!(junit.contains(r#"<testcase name="timeout" classname="broken""#), "{junit}");
    assert!(junit.contains("<error message=\"timed out"), "{junit}");
    assert!(junit.contains("type=\"expected-failure\""), "{junit}");
    assert!(junit.contains("type=\"unexpected-pass\""), "{junit}");
}

#[test]
fn a_file_with_errors_is_a_failed_test_and_the_others_still_run() {
    let cases = fixtures("load-errors");
    let base = base_url();
    let output = conformance(&["--cases", cases.to_str().unwrap(), "--base-url", &base]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert!(line_with(&out, &["test ", " bad ", "... FAILED"]), "{out}");
    assert!(out.contains("bad.yaml:6:9: cases[0].steps[0]: unknown field `expct`"), "{out}");
    assert!(line_with(&out, &["good::still runs", "... ok"]), "{out}");
}

#[test]
fn the_embedded_server_runs_every_case_on_a_fresh_server() {
    let cases = fixtures("embedded");
    let output = conformance(&["--cases", cases.to_str().unwrap()]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("conformance: must: 3/3, should: 0/0, may: 0/0"), "{out}");
}

#[test]
fn names_are_templates_in_values_keys_json_paths_and_regexes() {
    let cases = fixtures("renamed");
    let dir = cases.to_str().unwrap();
    let renamed = ["--namespace", "/tribe/events/v1/", "--language-param", "wpml_language"];
    for names in [&[][..], &renamed[..]] {
        let output = conformance(&[&["--cases", dir][..], names].concat());
        let out = text(&output);
        assert_eq!(output.status.code(), Some(0), "{names:?}: {out}");
        assert!(out.contains("conformance: must: 2/2"), "{names:?}: {out}");
    }
}

#[test]
fn libtest_arguments_work() {
    let cases = fixtures("embedded");
    let dir = cases.to_str().unwrap();
    let output = conformance(&["--cases", dir, "--list"]);
    let out = text(&output);
    assert!(out.contains("[must] reference::create and delete a category: test"), "{out}");
    let output = conformance(&["--cases", dir, "--exact", "reference::a fresh store lists no events"]);
    let out = text(&output);
    assert!(out.contains("1 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out"), "{out}");
    let output = conformance(&["--cases", dir, "--skip", "category", "--test-threads", "1", "--level", "must"]);
    let out = text(&output);
    assert!(out.contains("2 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out"), "{out}");
    let output = conformance(&["--cases", dir, "--level", "may"]);
    assert!(text(&output).contains("running 0 tests"));
}

#[test]
fn wrong_options_exit_with_2() {
    assert_eq!(conformance(&["--timeout", "-1"]).status.code(), Some(2));
    assert_eq!(conformance(&["--cases", "/nonexistent/cases"]).status.code(), Some(2));
    assert_eq!(conformance(&["--no-such-option"]).status.code(), Some(2));
    assert_eq!(conformance(&["--level", "often"]).status.code(), Some(2));
    assert_eq!(conformance(&["--auth", "nocolon"]).status.code(), Some(2));
    assert_eq!(conformance(&["--base-url", "ftp://x"]).status.code(), Some(2));
}

#[test]
fn network_failures_are_errors_not_panics() {
    // A port nothing listens on: bind one, note it, drop it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let cases = fixtures("load-errors");
    let base = format!("http://127.0.0.1:{port}/wp-json");
    let output = conformance(&["--cases", cases.to_str().unwrap(), "--base-url", &base, "good"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "{out}");
    assert!(out.contains("error: could not connect"), "{out}");
    assert!(!out.contains("panicked"), "{out}");
}
