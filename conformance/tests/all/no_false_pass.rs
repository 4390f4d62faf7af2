//! No case passes against an address that is not the interface: the whole suite runs through
//! `--base-url` against a server that answers the namespace index (so that it looks like an API
//! root of this interface) and `404 rest_no_route` to everything else, and every case that is
//! not skipped must fail. A case that passes there only checks "some 4xx" or a 404 and would
//! call a wrong address or a missing route a success. (docs/case-format.md, "Levels".)

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

const ROOT: &str = "/wp-json";
const NAMESPACE: &str = "calendar/events/v1";

/// The mock: `GET {root}/{namespace}` is a namespace index without routes, the rest is a 404.
async fn answer(request: Request<Body>) -> Response<Body> {
    let index = format!("{ROOT}/{NAMESPACE}");
    let path = request.uri().path().trim_end_matches('/');
    let (status, body) = if (request.method() == Method::GET || request.method() == Method::HEAD) && path == index {
        (StatusCode::OK, json!({"namespace": NAMESPACE, "routes": {}}))
    } else {
        (
            StatusCode::NOT_FOUND,
            json!({
                "code": "rest_no_route",
                "message": "No route was found matching the URL and request method.",
                "data": {"status": 404}
            }),
        )
    };
    Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=UTF-8")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// Starts the mock on its own runtime thread and returns its address.
fn start_mock() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let app = axum::Router::new().fallback(answer);
            axum::serve(listener, app).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

#[test]
fn no_case_passes_against_an_index_and_404s() {
    let addr = start_mock();
    let report = std::env::temp_dir().join(format!("conformance-no-false-pass-{}.json", std::process::id()));
    let base = format!("http://{addr}{ROOT}");
    let mut args: Vec<String> = vec![
        "--cases".into(),
        cases_dir().display().to_string(),
        "--base-url".into(),
        base,
        "--timeout".into(),
        "10".into(),
    ];
    for role in ["administrator", "editor", "author", "contributor", "subscriber"] {
        args.push("--auth".into());
        args.push(format!("{role}={role}:{role}-password"));
    }
    args.extend(["--json".into(), report.display().to_string(), "--format".into(), "terse".into()]);
    // The binary rather than `conformance::app::run`, so that the 480 failure reports land in a
    // captured pipe instead of the test's output.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(&args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the conformance binary runs");
    let code = output.status.code();
    let text = std::fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("no JSON report ({e}); the run said:\n{}", String::from_utf8_lossy(&output.stderr)));
    let _ = std::fs::remove_file(&report);
    let report: Value = serde_json::from_str(&text).unwrap();
    let cases = report["cases"].as_array().expect("cases");
    assert!(cases.len() > 400, "only {} cases ran", cases.len());
    let ran: Vec<&Value> = cases.iter().filter(|c| c["outcome"] != "skipped").collect();
    assert!(ran.len() > 400, "only {} cases were not skipped", ran.len());
    let passed: Vec<String> = ran
        .iter()
        .filter(|c| c["outcome"] == "passed")
        .map(|c| format!("{} ({})", c["name"].as_str().unwrap_or("?"), c["level"].as_str().unwrap_or("?")))
        .collect();
    assert!(
        passed.is_empty(),
        "{} case(s) pass against a server that only answers the index and 404 rest_no_route:\n{}",
        passed.len(),
        passed.join("\n")
    );
    assert_eq!(code, Some(101), "every case failed, so the run fails");
    assert_eq!(report["conforms"], false);
}
