//! `reference-server --proxy-to URL --record DIR`: the exchanges through the checking proxy
//! become a case file that the runner loads and replays, passing, against another server whose
//! IDs differ (created IDs are captured, not copied), with no credential written into it.

use std::process::Command;

use serde_json::{json, Value};

use crate::common;

/// A site, a recording proxy in front of it, and a client script sent through the proxy.
fn record_a_session(dir: &std::path::Path) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let site = reference_server::serve(reference_server::Config::ephemeral()).await.unwrap();
        let config = reference_server::Config {
            proxy_to: Some(site.base_url().to_string()),
            record: Some(dir.to_path_buf()),
            ..reference_server::Config::ephemeral()
        };
        let proxy = reference_server::serve(config).await.unwrap();
        client_script(&format!("{}/calendar/events/v1", proxy.base_url())).await;
        proxy.shutdown().await;
        site.shutdown().await;
    });
}

async fn client_script(api: &str) {
    let client = reqwest::Client::new();
    let send = |method: reqwest::Method, path: &str| {
        client.request(method, format!("{api}{path}")).basic_auth("editor", Some("editor-password"))
    };
    let venue: Value = send(reqwest::Method::POST, "/venues")
        .json(&json!({"venue": "Hall {x}"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let venue = venue["id"].as_u64().unwrap();
    let event = json!({"title": "Recorded {{not a template}}", "start_date": "2031-05-01 19:00:00",
        "end_date": "2031-05-01 21:00:00", "venue": venue});
    let event: Value = send(reqwest::Method::POST, "/events").json(&event).send().await.unwrap().json().await.unwrap();
    let event = event["id"].as_u64().unwrap();
    for (method, path, body) in [
        (reqwest::Method::GET, format!("/events/{event}"), None),
        (reqwest::Method::PATCH, format!("/events/{event}"), Some(json!({"title": "Renamed"}))),
        (reqwest::Method::GET, format!("/events?venue={venue}&start_date=2031-01-01"), None),
        (reqwest::Method::POST, "/events".to_string(), Some(json!({"title": "No dates"}))),
        (reqwest::Method::GET, "/events/999999999".to_string(), None),
        (reqwest::Method::DELETE, format!("/events/{event}?force=true"), None),
    ] {
        let request = send(method, &path);
        let request = match body {
            Some(body) => request.json(&body),
            None => request,
        };
        request.send().await.unwrap();
    }
    // Credentials the proxy does not know: recorded without them, and without an expectation.
    client.get(format!("{api}/events")).basic_auth("stranger", Some("s3cret-value")).send().await.unwrap();
    client.get(format!("{api}/venues?search=Hall")).send().await.unwrap();
}

#[test]
fn a_recorded_session_replays_against_another_server() {
    let dir = common::temp("proxy-record");
    record_a_session(&dir);
    let files: Vec<_> = std::fs::read_dir(&*dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    for secret in ["editor-password", "s3cret-value", "Basic ", "stranger"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert!(text.contains("\"auth\":\"editor\""), "{text}");
    assert!(text.contains("/events/{{id_2}}"), "the event's ID is a variable: {text}");
    assert!(text.contains("{{lb}}{{lb}}not a template{{rb}}{{rb}}"), "{text}");
    // Another server, whose IDs differ from the recording's.
    let server = common::server(false);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        for name in ["a", "b", "c"] {
            let url = format!("{}/calendar/events/v1/tags", server.base_url);
            let answer = client.post(url).basic_auth("admin", Some("admin-password")).json(&json!({"name": name}));
            assert_eq!(answer.send().await.unwrap().status().as_u16(), 201);
        }
    });
    let report = dir.join("report.json");
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command.env("NO_COLOR", "1").arg("--cases").arg(&*dir).args(["--format", "terse", "--base-url", &server.base_url]);
    for user in reference_server::UserSpec::defaults() {
        command.arg("--auth").arg(format!("{}={}:{}", user.role.name(), user.name, user.password));
    }
    let output = command.arg("--json").arg(&report).output().expect("the conformance binary runs");
    let shown =
        format!("{}{}\n{text}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{shown}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1, "{shown}");
    assert_eq!(cases[0]["outcome"], "passed", "{shown}");
    let steps = cases[0]["steps"].as_array().map_or(0, Vec::len);
    assert_eq!(steps, 10, "every exchange is a step: {shown}");
}
