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

/// The Authorization header of the user `refused` (password `x`), whom the mock turns away.
const REFUSED: &str = "Basic cmVmdXNlZDp4";

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
    if auth.as_deref() == Some(REFUSED) {
        return reply(
            401,
            "application/json",
            json!({"code": "incorrect_password", "data": {"status": 401}}).to_string(),
        );
    }
    if path.starts_with("/html/") {
        return reply(404, "text/html; charset=UTF-8", "<!DOCTYPE html><title>Not found</title>".into());
    }
    if method == "GET" && (path == "/wp-json/" || path == "/wp-json") {
        let index = json!({"namespaces": ["oembed/1.0", "calendar/events/v1", "wp/v2"], "routes": {}});
        return reply(200, "application/json", index.to_string());
    }
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
        ("GET", "/huge") => reply(200, "application/json", format!("{{\"a\":\"{}\"}}", "h".repeat(3 << 20))),
        ("GET", "/bad-utf8") => Response::builder()
            .status(200)
            .header("content-type", "application/json")
            .body(Body::from(b"{\"a\": \"caf\xe9\"}".to_vec()))
            .unwrap(),
        ("GET", "/refuse") => reply(
            400,
            "application/json",
            json!({"code": "rest_forbidden", "message": "Sorry, you are not allowed to do that.", "data": {"status": 400}})
                .to_string(),
        ),
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
                // The namespace index (what pre-flight looks at) is the echo plus its namespace.
                "namespace": (path == NS).then_some("calendar/events/v1"),
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
    assert!(
        out.trim_end().ends_with("verdict: CONFORMS: every must case passed; exit status 0: no case failed"),
        "{out}"
    );
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
    // One final line: the verdict, and why the exit status is what it is (the expectations once).
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.trim_end().lines().last().unwrap_or_default();
    let expectations_file = expectations.display();
    assert_eq!(
        last,
        format!(
            "verdict: DOES NOT CONFORM: 5 of 5 must cases failed (should 100%, may 50%); exit status 101: 5 must cases failed \
             that the expectations do not list; 1 case listed in {expectations_file} passed (remove it from the list)"
        )
    );
    assert!(!out.lines().any(|l| l.starts_with("expectations:")), "said once, in the final line: {out}");

    let report = read_json(&report_path);
    let deep = case(&report, "broken::deep mismatch");
    assert_eq!(deep["outcome"], "failed");
    assert_eq!(deep["level"], "must");
    // Each mismatch names the line of the case file its expectation comes from.
    let file = cases.join("broken.yaml").display().to_string();
    let venue = json!({"path": "$.venue.id", "expected": "12", "actual": "13", "location": format!("{file}:10:30")});
    assert!(deep["mismatches"].as_array().unwrap().contains(&venue), "{}", deep["mismatches"]);
    assert!(out.contains(&format!("$.venue.id: expected 12, got 13 (at {file}:10:30)")), "{out}");
    let timeout = case(&report, "broken::timeout");
    assert_eq!(timeout["outcome"], "error");
    assert_eq!(case(&report, "broken::cleanup failure does not fail the case")["outcome"], "passed");
    assert_eq!(case(&report, "broken::listed as expected failure")["expected_failure"], true);

    let junit = std::fs::read_to_string(&junit_path).unwrap();
    assert!(junit.contains(r#"<testsuite name="broken" tests="8" failures="5" errors="1" skipped="1""#), "{junit}");
    assert!(junit.contains(r#"<testcase name="[must] timeout" classname="broken""#), "{junit}");
    assert!(junit.contains("<error message=\"timed out"), "{junit}");
    assert!(junit.contains("type=\"known-failure\""), "{junit}");
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
fn optional_features_come_from_one_table() {
    let cases = fixtures("features");
    let dir = cases.to_str().unwrap();
    // The old name of event-password still works, in --without and in `requires`.
    let output = conformance(&["--cases", dir, "--without", "password-on-create"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(
        line_with(&out, &["under its old name", "ignored (requires event-password, which --without names)"]),
        "{out}"
    );
    assert!(
        line_with(
            &out,
            &["without a translation plugin", "ignored (requires a server without languages: the embedded"]
        ),
        "{out}"
    );
    assert!(
        line_with(&out, &["needs a server without tickets", "... ok"]),
        "the server is started without tickets: {out}"
    );
    assert!(out.contains("conformance: must: 2/2 (2 skipped)"), "{out}");

    // An unknown name in --without is one line that lists the known ones, and nothing runs.
    let output = conformance(&["--cases", dir, "--without", "geoloc,translations"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert_eq!(
        out.trim(),
        "error: unknown feature `translations` in --without: use fresh-store, geoloc, tickets, series, event-password, \
         large-store or languages (password-on-create is another name for event-password)"
    );

    // `--help` lists them with their descriptions.
    let out = text(&conformance(&["--help"]));
    for line in
        ["event-password  events take the write field password", "languages       a translation plugin is active"]
    {
        assert!(out.contains(line), "{out}");
    }
}

#[test]
fn unknown_names_in_case_files_are_load_errors() {
    let cases = fixtures("load-errors");
    let output = conformance(&["--cases", cases.to_str().unwrap(), "unknown-names"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert!(out.contains("unknown-names.yaml:5:16: cases[0].requires[0]: unknown feature `translations`"), "{out}");
}

#[test]
fn cases_that_need_missing_credentials_are_skipped_and_send_nothing() {
    let report_path = temp("credentials.json");
    let cases = fixtures("credentials");
    let base = base_url();
    let output = conformance(&[
        "--cases",
        cases.to_str().unwrap(),
        "--base-url",
        &base,
        "--auth",
        "editor=editor:editor-password",
        "--json",
        report_path.to_str().unwrap(),
    ]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    // The run starts with one line about it (on standard error, which libtest leaves alone).
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "note: no credentials for author and subscriber: 2 cases that need them are skipped (give --auth ROLE=USER:PASSWORD)"
    );
    assert!(
        line_with(
            &out,
            &["needs author in its second step", "ignored (needs credentials for author: give --auth author="]
        ),
        "{out}"
    );
    assert!(line_with(&out, &["only in its cleanup", "ignored (needs credentials for subscriber"]), "{out}");
    assert!(out.contains("conformance: must: 1/1 (2 skipped)"), "{out}");
    let report = read_json(&report_path);
    let skipped = case(&report, "roles::needs author in its second step");
    assert_eq!(skipped["outcome"], "skipped");
    assert_eq!(skipped["reason"], "needs credentials for author: give --auth author=USER:PASSWORD");
    let log = mock().log.lock().unwrap().clone();
    assert!(log.iter().any(|l| l.ends_with("/creds/sent")), "{log:?}");
    assert!(!log.iter().any(|l| l.contains("/creds/never-sent")), "a skipped case sent a request: {log:?}");
}

#[test]
fn credential_names_are_checked() {
    let cases = fixtures("credentials");
    let output = conformance(&["--cases", cases.to_str().unwrap(), "--base-url", &base_url(), "--auth", "admin=a:b"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert_eq!(
        out.trim(),
        "error: unknown credential name `admin` in --auth: use administrator, editor, author, contributor, subscriber"
    );
    let cases = fixtures("load-errors");
    let output = conformance(&["--cases", cases.to_str().unwrap(), "unknown-names"]);
    let out = text(&output);
    assert!(
        out.contains("unknown-names.yaml:11:35: cases[1].steps[0].request.auth: unknown credential name `admin`"),
        "{out}"
    );
}

#[test]
fn libtest_arguments_work() {
    let cases = fixtures("embedded");
    let dir = cases.to_str().unwrap();
    // --list prints the names --exact takes.
    let output = conformance(&["--cases", dir, "--list", "--format", "terse"]);
    let out = text(&output);
    assert!(out.lines().any(|l| l == "reference::create and delete a category: test"), "{out}");
    for line in out.lines() {
        let name = line.strip_suffix(": test").expect("NAME: test");
        let output = conformance(&["--cases", dir, "--exact", name]);
        assert!(text(&output).contains("1 passed; 0 failed"), "{name}: {}", text(&output));
    }
    // Not a terminal: result lines are not padded.
    let output = conformance(&["--cases", dir]);
    assert!(
        text(&output).contains("test [must] reference::a fresh store lists no events ... ok\n"),
        "{}",
        text(&output)
    );
    let output = conformance(&["--cases", dir, "--exact", "reference::a fresh store lists no events"]);
    let out = text(&output);
    assert!(out.contains("1 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out"), "{out}");
    let output = conformance(&["--cases", dir, "--skip", "category", "--test-threads", "1", "--level", "must"]);
    let out = text(&output);
    assert!(out.contains("2 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out"), "{out}");
}

/// --fail-fast: after the first failure the cases not started are skipped, and the run fails.
#[test]
fn fail_fast_stops_after_the_first_failure() {
    let dir = temp("fail-fast");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = r#"
level: must
spec: ["4.1"]
cases:
  - name: a wrong expectation fails
    steps: [{request: {path: /events}, expect: {status: 418}}]
  - name: b the events list answers
    steps: [{request: {path: /events}, expect: {status: 2xx}}]
  - name: c the venues list answers
    steps: [{request: {path: /venues}, expect: {status: 2xx}}]
"#;
    std::fs::write(dir.join("ff.yaml"), cases).unwrap();
    let dir = dir.to_str().unwrap();
    let whole = conformance(&["--cases", dir, "--test-threads", "1"]);
    let out = text(&whole);
    assert_eq!(whole.status.code(), Some(101), "{out}");
    assert!(out.contains("2 passed; 1 failed; 0 ignored"), "{out}");
    let fast = conformance(&["--cases", dir, "--test-threads", "1", "--fail-fast"]);
    let out = text(&fast);
    assert_eq!(fast.status.code(), Some(101), "{out}");
    assert!(out.contains("0 passed; 1 failed; 2 ignored"), "{out}");
    assert!(out.contains("not run: --fail-fast stopped the run after ff::a wrong expectation fails failed"), "{out}");
}

/// Runs the binary from `dir` (for the default `cases` folder).
fn conformance_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the conformance binary runs")
}

#[test]
fn nothing_to_run_is_an_error() {
    let expect_2 = |output: Output, message: &str| {
        let out = text(&output);
        assert_eq!(output.status.code(), Some(2), "{out}");
        assert_eq!(out.trim().lines().count(), 1, "one line: {out}");
        assert!(out.contains(message), "{out}");
    };
    // No cases folder; a folder without case files, and case files without cases.
    let empty = temp("empty-folder");
    std::fs::create_dir_all(&empty).unwrap();
    expect_2(conformance_in(&empty, &["--cases", "cases"]), "error: no cases folder at cases");
    expect_2(conformance(&["--cases", empty.to_str().unwrap()]), "no case file in");
    let hollow = temp("hollow");
    std::fs::create_dir_all(&hollow).unwrap();
    std::fs::write(hollow.join("none.yaml"), "level: must\ncases: []\n").unwrap();
    expect_2(conformance(&["--cases", hollow.to_str().unwrap()]), "hold no case: nothing to run");
    // A selection that matches nothing: filter, --exact, --skip, --level, --ignored.
    let cases = fixtures("embedded");
    let dir = cases.to_str().unwrap();
    for selection in [
        &["no-such-case"][..],
        &["--exact", "reference::"],
        &["--skip", "reference::"],
        &["--level", "may"],
        &["--ignored"],
    ] {
        let output = conformance(&[&["--cases", dir][..], selection].concat());
        expect_2(output, "matches none of the 3 cases in");
    }
    let output = conformance(&["--cases", dir, "--level", "should,may", "--skip", "x", "nothing"]);
    expect_2(output, "error: the selection (the filter \"nothing\", --skip \"x\", --level should,may) matches none");
}

#[test]
fn the_cargo_test_gate_passes_an_empty_selection() {
    use conformance::app::{run, run_with, EmptySelection};
    let cases = fixtures("embedded");
    let args =
        || ["conformance", "--quiet", "--cases", cases.to_str().unwrap(), "no-such-case"].map(Into::into).to_vec();
    assert_eq!(run_with(args(), "cases".into(), EmptySelection::Pass), 0);
    assert_eq!(run_with(args(), "cases".into(), EmptySelection::Error), 2);
    assert_eq!(run(args(), "cases".into()), 2, "the binary's way is the default");
}

#[test]
fn a_misbehaving_server_gets_clear_errors_and_reports_keep_passwords_out() {
    let report_path = temp("hostile.json");
    let cases = fixtures("hostile");
    let base = base_url();
    let args = |extra: &[&str]| {
        let mut args =
            vec!["--cases", cases.to_str().unwrap(), "--base-url", &base, "--auth", "editor=editor:editor-password"];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let json_arg = report_path.to_str().unwrap().to_string();
    let output = conformance(
        &args(&["--max-response-size", "1", "--keep-data", "--json", &json_arg, "--json-full"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "{out}");
    // R1: a response over the cap stops being read.
    assert!(out.contains("/huge is larger than 1 MiB: it was not read further (raise --max-response-size)"), "{out}");
    // R5: invalid UTF-8 is not JSON, and says so.
    assert!(out.contains("$: expected a JSON body, got a body that is not valid UTF-8 (byte 10 of 13"), "{out}");
    // A refused request shows the error code and message next to the status.
    assert!(
        out.contains("status: expected 200, got 400 (code rest_forbidden: Sorry, you are not allowed to do that.)"),
        "{out}"
    );
    // Passwords: masked in the terminal and in the JSON report (passing steps included).
    assert!(out.contains("curl -i -u 'editor:***'"), "{out}");
    let report = std::fs::read_to_string(&report_path).unwrap();
    for text in [&out, &report] {
        assert!(!text.contains("editor-password"), "{text}");
    }
    // --keep-data: the cleanup did not run.
    let report: Value = serde_json::from_str(&report).unwrap();
    let kept = case(&report, "answers::the data stays with keep-data");
    assert_eq!(kept["cleanup"][0]["skipped"], "--keep-data", "{kept}");
    let id = serde_json::from_str::<Value>(kept["steps"][0]["body"].as_str().unwrap()).unwrap()["id"].clone();
    let log = mock().log.lock().unwrap().clone();
    assert!(!log.contains(&format!("DELETE {NS}/things/{id}")), "{log:?}");

    // --show-credentials shows them.
    let output =
        conformance(&args(&["--show-credentials", "a refusal"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(text(&output).contains("curl -i -u editor:editor-password"), "{}", text(&output));
    // --keep-data needs an outside server.
    let output = conformance(&["--cases", cases.to_str().unwrap(), "--keep-data"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("--keep-data goes with --base-url"), "{}", text(&output));
}

#[test]
fn wrong_options_exit_with_2() {
    // R2 and R3: a huge timeout used to panic, zero threads to hang.
    for (args, message) in [
        (&["--timeout", "1e20"][..], "expected a number of seconds from 0.01 to 86400"),
        (&["--test-threads", "0"], "0 is not in 1..=65535"),
    ] {
        let output = conformance(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(text(&output).contains(message), "{}", text(&output));
    }
    assert_eq!(conformance(&["--timeout", "-1"]).status.code(), Some(2));
    assert_eq!(conformance(&["--cases", "/nonexistent/cases"]).status.code(), Some(2));
    assert_eq!(conformance(&["--no-such-option"]).status.code(), Some(2));
    assert_eq!(conformance(&["--level", "often"]).status.code(), Some(2));
    assert_eq!(conformance(&["--auth", "nocolon"]).status.code(), Some(2));
    assert_eq!(conformance(&["--base-url", "ftp://x"]).status.code(), Some(2));
}

/// Runs the embedded fixture against `base` with `extra` options; pre-flight must stop it with
/// exit status 2 and one line containing every needle, before any case is sent.
fn stopped_by_preflight(base: &str, extra: &[&str], needles: &[&str]) {
    let cases = fixtures("embedded");
    let output = conformance(&[&["--cases", cases.to_str().unwrap(), "--base-url", base][..], extra].concat());
    let out = text(&output);
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert_eq!(out.trim().lines().count(), 1, "one line: {out}");
    for needle in needles {
        assert!(out.contains(needle), "no {needle:?} in: {out}");
    }
    let log = mock().log.lock().unwrap().clone();
    assert!(!log.iter().any(|l| l.contains("/categories")), "a case was sent: {log:?}");
}

#[test]
fn preflight_stops_when_the_server_is_unreachable() {
    // A port nothing listens on: bind one, note it, drop it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}/wp-json");
    stopped_by_preflight(
        &base,
        &[],
        &[&format!(
            "error: pre-flight: cannot reach the implementation: could not connect: {base}/calendar/events/v1: Connection refused"
        )],
    );
}

#[test]
fn preflight_stops_at_a_wrong_address_and_says_why() {
    let base = base_url();
    let host = format!("http://{}", mock().addr);
    stopped_by_preflight(
        &format!("{base}/calendar/events/v1"),
        &[],
        &[
            &format!(
                "GET {base}/calendar/events/v1/calendar/events/v1 answered 200 with JSON that is not a namespace index"
            ),
            "expected 200 with the namespace index of calendar/events/v1",
            &format!("--base-url already ends with the namespace: give --base-url {base}"),
        ],
    );
    stopped_by_preflight(&format!("{host}/html"), &[], &["answered 404 with an HTML page"]);
    stopped_by_preflight(
        &base,
        &["--namespace", "calendar/events/v2"],
        &[
            "expected 200 with the namespace index of calendar/events/v2",
            "lists the namespace calendar/events/v1: give --namespace calendar/events/v1",
        ],
    );
    stopped_by_preflight(
        &host,
        &[],
        &[&format!("the API answers under the REST root /wp-json: give --base-url {base}")],
    );
}

#[test]
fn preflight_stops_when_credentials_are_refused() {
    stopped_by_preflight(
        &base_url(),
        &["--auth", "editor=editor:editor-password", "--auth", "author=refused:x"],
        &[
            "pre-flight: the credentials for author were refused",
            "as refused answered 401 with code incorrect_password",
        ],
    );
}

/// Reads one request head (a GET: no body) from `stream`; `None` when the connection ends.
async fn read_head(stream: &mut tokio::net::TcpStream) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    Some(String::from_utf8_lossy(&seen).to_string())
}

/// Answers a request head with 200: the namespace index for its path, `{"events":[]}` for any
/// other; whether it was the index (the pre-flight check's request).
async fn answer_head(stream: &mut tokio::net::TcpStream, head: &str) -> bool {
    use tokio::io::AsyncWriteExt;
    let index = head.starts_with("GET /wp-json/calendar/events/v1 ");
    let body = if index { r#"{"namespace":"calendar/events/v1","routes":{}}"# } else { r#"{"events":[]}"# };
    let answer =
        format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    let _ = stream.write_all(answer.as_bytes()).await;
    index
}

/// A server that answers one request per connection well, then drops the connection when a
/// second request comes on it (as an implementation does when an earlier answer left the
/// connection unusable). The pre-flight check's request (the namespace index) does not count:
/// the first case request on its connection is answered too, so which request fails does not
/// depend on whether the client's pool reuses that connection.
fn one_request_per_connection_server() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let Ok((mut stream, _)) = listener.accept().await else { continue };
                tokio::spawn(async move {
                    while let Some(head) = read_head(&mut stream).await {
                        if !answer_head(&mut stream, &head).await {
                            // The next request on this connection gets the connection closed
                            // under it.
                            let _ = read_head(&mut stream).await;
                            return;
                        }
                    }
                });
            }
        });
    });
    rx.recv().unwrap()
}

#[test]
fn a_dropped_kept_alive_connection_is_named_and_no_keep_alive_avoids_it() {
    let addr = one_request_per_connection_server();
    let dir = temp("keep-alive");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = "level: must\nspec: [\"4.2\"]\ncases:\n  - name: one\n    steps: [{request: {path: /events}, expect: {status: 2xx}}]\n  - name: two\n    steps: [{request: {path: /events}, expect: {status: 2xx}}, {request: {path: /events}, expect: {status: 2xx}}]\n";
    std::fs::write(dir.join("k.yaml"), cases).unwrap();
    let base = format!("http://{addr}/wp-json");
    let args = ["--cases", dir.to_str().unwrap(), "--base-url", &base, "--test-threads", "1", "--timeout", "5"];
    let kept = conformance(&args);
    let out = text(&kept);
    assert_eq!(kept.status.code(), Some(101), "{out}");
    assert!(out.contains("if the case passes with --no-keep-alive"), "the hint: {out}");
    let fresh = conformance(&[&args[..], &["--no-keep-alive"]].concat());
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh));
}

#[test]
fn a_dropped_connection_names_the_request_before_it_on_that_connection() {
    // Every connection answers one request and is dropped under the next: a request that goes
    // on a connection already used fails, and the failure names the request before it there.
    let addr = one_request_per_connection_server();
    let dir = temp("earlier-request");
    std::fs::create_dir_all(&dir).unwrap();
    // Two steps each: the runner starts the heaviest cases first, equal ones in file order.
    let cases = "level: must\nspec: [\"4.2\"]\ncases:\n  - name: one\n    steps: [{request: {path: /events}, expect: {status: 2xx}}, {request: {path: /events}, expect: {status: 2xx}}]\n  - name: two\n    steps: [{request: {path: /venues}, expect: {status: 2xx}}, {request: {path: /events}, expect: {status: 2xx}}]\n";
    std::fs::write(dir.join("k.yaml"), cases).unwrap();
    let base = format!("http://{addr}/wp-json");
    let args = ["--cases", dir.to_str().unwrap(), "--base-url", &base, "--test-threads", "1", "--timeout", "5"];
    let out = text(&conformance(&args));
    // Which earlier request shares the connection depends on the client's pool (it may hold
    // more than one idle connection), so any step of either case is right; what matters is
    // that the failure names the request before it on that connection, with its answer.
    let named = out.lines().any(|line| {
        line.split_once("the request before it on this connection was k::").is_some_and(|(_, rest)| {
            let (step, rest) = rest.split_once(" (GET ").unwrap_or_default();
            ["one steps[0]", "one steps[1]", "two steps[0]"].contains(&step)
                && rest.starts_with(&format!("{base}/calendar/events/v1/"))
                && rest.contains("), answered 200")
        })
    });
    assert!(named, "{out}");
}

/// A server that answers every request (`{"events":[]}`, the namespace index for its path) on
/// kept-alive connections, and stops altogether after `answers` answers: its listener and
/// every connection close, as when an implementation crashes.
fn server_that_stops_after(answers: usize) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let answered = Arc::new(AtomicU64::new(0));
            let stop = Arc::new(tokio::sync::Notify::new());
            loop {
                let (mut stream, _) = tokio::select! {
                    accepted = listener.accept() => match accepted { Ok(a) => a, Err(_) => continue },
                    _ = stop.notified() => return,
                };
                let (answered, stop) = (answered.clone(), stop.clone());
                tokio::spawn(async move {
                    while let Some(head) = read_head(&mut stream).await {
                        // Never more than `answers`: a request past them, on a connection
                        // still open while the runtime ends, gets none (it once got a few, and
                        // fewer later cases went unrun than the test expects).
                        let n = answered.fetch_add(1, Ordering::SeqCst) + 1;
                        if n > answers as u64 {
                            stop.notify_one();
                            return;
                        }
                        answer_head(&mut stream, &head).await;
                        if n == answers as u64 {
                            stop.notify_one();
                        }
                    }
                });
            }
        });
        // The runtime ends here: the listener and every connection close.
    });
    rx.recv().unwrap()
}

#[test]
fn an_implementation_that_stops_answering_stops_the_run_once() {
    for threads in ["1", "4"] {
        stops_the_run_once(threads);
    }
}

fn stops_the_run_once(threads: &str) {
    let addr = server_that_stops_after(5);
    let dir = temp(&format!("stops-{threads}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = String::from("level: must\nspec: [\"4.2\"]\ncases:\n");
    for i in 0..20 {
        cases.push_str(&format!(
            "  - name: c{i:02}\n    steps: [{{request: {{path: /events}}, expect: {{status: 2xx}}}}]\n"
        ));
    }
    std::fs::write(dir.join("k.yaml"), cases).unwrap();
    let base = format!("http://{addr}/wp-json");
    let args = ["--cases", dir.to_str().unwrap(), "--base-url", &base, "--test-threads", threads, "--timeout", "5"];
    let output = conformance(&args);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "{out}");
    assert_eq!(out.matches("the implementation stopped answering: it refuses connections").count(), 1, "once: {out}");
    assert!(out.contains("since the last answer, to k::c"), "the last case answered: {out}");
    let result = out.lines().find(|l| l.starts_with("test result:")).unwrap_or_default();
    let count = |what: &str| -> usize {
        let at = result.find(what).unwrap_or_else(|| panic!("{what} in {result}"));
        result[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(count(" failed") <= 2, "not a failure per later case: {result}\n{out}");
    assert!(count(" ignored") >= 10, "the later cases are not run: {result}");
    assert!(out.contains("ignored (not run: the implementation stopped answering"), "{out}");
    assert!(out.contains("verdict: unknown: the implementation stopped answering"), "{out}");
}

#[test]
fn a_step_with_concurrency_keeps_its_captures_in_index_order() {
    // 24 events created 8 at a time; each captured ID is read back with the title of its index.
    let dir = temp("concurrency");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = r#"level: may
spec: ["D1"]
cases:
  - name: together
    steps:
      - request: {method: POST, path: /events, auth: editor,
                  json: {title: "E{{index}} {{case_id}}", start_date: "{{date(+3d)}} 10:00:00", end_date: "{{date(+3d)}} 11:00:00"}}
        repeat: 24
        concurrency: 8
        expect: {status: 201}
        capture: {ids: $.id}
      - request: {path: "/events/{{item}}"}
        foreach: ids
        concurrency: 5
        expect: {status: 200, json: {title: "E{{index}} {{case_id}}"}}
      - request: {path: /events, query: {search: "{{case_id}}", per_page: 50}}
        expect: {status: 200, json: {total: 24}}
"#;
    std::fs::write(dir.join("k.yaml"), cases).unwrap();
    let output = conformance(&["--cases", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let bad = cases.replace("        concurrency: 5\n", "").replace("repeat: 24", "concurrency: 2");
    std::fs::write(dir.join("k.yaml"), bad).unwrap();
    let output = conformance(&["--cases", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("`concurrency` goes with `repeat` or `foreach`"), "{}", text(&output));
}
