//! A run leaves nothing behind: against an outside server (`--base-url`), what a case created
//! and did not delete is deleted when the case ends, even when the case failed before the
//! step its cleanup needs, and whichever role created it. `--keep-data` keeps it all, and an
//! embedded run (a server per case) has nothing to sweep.

use std::process::Command;

use serde_json::Value;

use crate::common;

/// Three cases: one creates five items without any cleanup (among them an event by a
/// contributor, which an editor then publishes, so that only an administrator can delete it);
/// one expects a refusal for a create the server accepts, so it fails and its cleanup
/// cannot run; one deletes what it creates itself (by slug and by ID).
const CASES: &str = r#"
level: must
cases:
  - name: creates without cleanup
    steps:
      - request: {method: POST, path: /events, auth: editor, json: {title: "Left {{case_id}}", start_date: "{{date(+5d)}} 10:00:00", end_date: "{{date(+5d)}} 11:00:00", status: publish}}
        expect: {status: {$in: [200, 201]}}
      - request: {method: POST, path: /events, auth: contributor, json: {title: "Draft {{case_id}}", start_date: "{{date(+6d)}} 10:00:00", end_date: "{{date(+6d)}} 11:00:00"}}
        expect: {status: {$in: [200, 201]}}
        capture: {draft_id: $.id}
      # published by an editor, the contributor's event is no longer the contributor's to delete
      - request: {method: POST, path: "/events/{{draft_id}}", auth: editor, json: {status: publish}}
        expect: {status: 200}
      - request: {method: POST, path: /venues, auth: author, json: {venue: "Left {{case_id}}"}}
        expect: {status: {$in: [200, 201]}}
      - request: {method: POST, path: /categories, auth: administrator, json: {name: "Left {{case_id}}"}}
        expect: {status: {$in: [200, 201]}}
      - request: {method: POST, path: /tags, auth: editor, json: {name: "Left {{case_id}}"}}
        expect: {status: {$in: [200, 201]}}

  - name: expects a refusal the server does not give
    steps:
      - request: {method: POST, path: /organizers, auth: editor, json: {organizer: "Usurper {{case_id}}"}}
        expect: {status: 400}
      - request: {path: /organizers, query: {search: "Usurper {{case_id}}"}, auth: editor}
        capture: {organizer_id: "$.organizers[0].id"}
    cleanup:
      - request: {method: DELETE, path: "/organizers/{{organizer_id}}", auth: editor, query: {force: true}}

  - name: deletes what it creates
    steps:
      - request: {method: POST, path: /venues, auth: editor, json: {venue: "Own {{case_id}}"}}
        expect: {status: {$in: [200, 201]}}
        capture: {slug: $.slug}
      - request: {method: DELETE, path: "/venues/by-slug/{{slug}}", auth: editor, query: {force: true}}
        expect: {status: {$in: [200, 201]}}
      - request: {method: POST, path: /tags, auth: editor, json: {name: "Own {{case_id}}"}}
        expect: {status: {$in: [200, 201]}}
        capture: {tag_id: $.id}
    cleanup:
      - request: {method: DELETE, path: "/tags/{{tag_id}}", auth: administrator, query: {force: true}}
"#;

/// Runs the cases (against `base_url`, or embedded without one); the JSON report with every body.
fn run(base_url: Option<&str>, extra: &[&str], name: &str) -> Value {
    let dir = common::temp(name);
    std::fs::write(dir.join("left.yaml"), CASES).unwrap();
    let report = dir.join("report.json");
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command.env("NO_COLOR", "1").arg("--cases").arg(&*dir).args(["--format", "terse"]).args(extra);
    if let Some(base_url) = base_url {
        command.args(["--base-url", base_url]);
        for user in reference_server::UserSpec::defaults() {
            command.arg("--auth").arg(format!("{}={}:{}", user.role.name(), user.name, user.password));
        }
    }
    let output = command.arg("--json").arg(&report).arg("--json-full").output().expect("the conformance binary runs");
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| {
        panic!(
            "no report ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    serde_json::from_str(&text).unwrap()
}

fn case<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["cases"].as_array().unwrap().iter().find(|c| c["name"] == format!("left::{name}")).unwrap()
}

/// `collection/id` of every item a POST step of `case` created.
fn created(case: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for step in case["steps"].as_array().unwrap() {
        let (method, url) = (&step["request"]["method"], step["request"]["url"].as_str().unwrap());
        let body: Value = step["body"].as_str().and_then(|b| serde_json::from_str(b).ok()).unwrap_or_default();
        let collection = url.rsplit('/').next().unwrap();
        let create = ["events", "venues", "organizers", "categories", "tags"].contains(&collection);
        if method == "POST" && create && step["status"].as_u64().is_some_and(|s| (200..300).contains(&s)) {
            out.push(format!("{collection}/{}", body["id"].as_u64().expect("a created ID")));
        }
    }
    out
}

/// The labels of a case's sweep records, and whether each went well.
fn sweeps(case: &Value) -> Vec<(String, bool)> {
    case["cleanup"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["label"].as_str().unwrap().starts_with("sweep"))
        .map(|s| {
            (s["label"].as_str().unwrap().to_string(), s["mismatches"] == Value::Array(vec![]) && s["error"].is_null())
        })
        .collect()
}

/// Each item as the administrator reads it by ID: the answer's status and the item's `status`
/// (`trash` for an item in the trash).
fn read(base_url: &str, items: &[String]) -> Vec<(String, u16, Value)> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = reqwest::Client::new();
    runtime.block_on(async {
        let mut out = Vec::new();
        for item in items {
            let url = format!("{base_url}/calendar/events/v1/{item}");
            let answer = client.get(url).basic_auth("admin", Some("admin-password")).send().await.unwrap();
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.unwrap_or_default();
            out.push((item.clone(), status, body["status"].clone()));
        }
        out
    })
}

fn base_url(server: &common::Server) -> String {
    server.base_url.trim_end_matches('/').to_string()
}

#[test]
fn what_the_cases_left_is_deleted_when_they_end() {
    let server = common::server(false);
    let base = base_url(&server);
    let report = run(Some(&base), &[], "sweep");
    let (left, refused, own) = (
        case(&report, "creates without cleanup"),
        case(&report, "expects a refusal the server does not give"),
        case(&report, "deletes what it creates"),
    );
    assert_eq!(
        (&left["outcome"], &refused["outcome"], &own["outcome"]),
        (&"passed".into(), &"failed".into(), &"passed".into())
    );
    let items: Vec<String> = created(left).into_iter().chain(created(refused)).collect();
    assert_eq!(items.len(), 6, "{items:?}");
    // Gone, or in the trash (where a delete of an event, a venue or an organizer puts it).
    let remaining: Vec<_> =
        read(&base, &items).into_iter().filter(|(_, s, status)| (200..300).contains(s) && status != "trash").collect();
    assert!(remaining.is_empty(), "items the run left behind (read as administrator): {remaining:?}");
    assert_eq!(sweeps(left).len(), 5, "one sweep per item: {:?}", left["cleanup"]);
    // Each as the role that created it, the published event as administrator.
    let users: Vec<&str> =
        left["cleanup"].as_array().unwrap().iter().map(|s| s["request"]["auth"][0].as_str().unwrap()).collect();
    assert_eq!(users, ["editor", "admin", "author", "admin", "editor"], "{:?}", left["cleanup"]);
    assert!(sweeps(left).iter().chain(&sweeps(refused)).all(|(_, ok)| *ok), "{left}\n{refused}");
    assert!(sweeps(refused)[0].0.starts_with("sweep[0] organizers/"), "{:?}", sweeps(refused));
    // What the case deleted itself is not deleted again.
    assert_eq!(sweeps(own), [], "{:?}", own["cleanup"]);
}

#[test]
fn keep_data_keeps_what_the_cases_created() {
    let server = common::server(false);
    let base = base_url(&server);
    let report = run(Some(&base), &["--keep-data"], "keep");
    let left = case(&report, "creates without cleanup");
    assert_eq!(sweeps(left), []);
    let items = created(left);
    assert_eq!(items.len(), 5);
    let kept = read(&base, &items);
    assert!(kept.iter().all(|(_, s, status)| *s == 200 && status != "trash"), "{kept:?}");
}

#[test]
fn an_embedded_run_has_nothing_to_sweep() {
    let report = run(None, &[], "embedded");
    let left = case(&report, "creates without cleanup");
    assert_eq!(left["outcome"], "passed");
    assert_eq!(sweeps(left), []);
    assert_eq!(sweeps(case(&report, "expects a refusal the server does not give")), []);
}

/// An event write that names a new venue and a new organizer makes them as a side effect: the
/// sweep deletes them with the event, since their names hold the case's word; a linked venue
/// that the case did not name so is left alone.
#[test]
fn what_an_event_write_made_on_the_side_is_deleted_too() {
    let server = common::server(false);
    let base = base_url(&server);
    let dir = common::temp("sweep-side-effects");
    let cases = r#"
level: must
cases:
  - name: links new items by name
    steps:
      - request: {method: POST, path: /venues, auth: editor, json: {venue: "Elsewhere"}}
        expect: {status: 2xx}
        capture: {other_id: $.id}
      - request: {method: POST, path: /events, auth: editor, json: {title: "Side {{case_id}}", start_date: "{{date(+5d)}} 10:00:00", end_date: "{{date(+5d)}} 11:00:00", venue: {venue: "Inline {{case_id}}"}, organizer: [{organizer: "Host {{case_id}}"}]}}
        expect: {status: 2xx}
      - request: {method: POST, path: /events, auth: editor, json: {title: "Other {{case_id}}", start_date: "{{date(+5d)}} 10:00:00", end_date: "{{date(+5d)}} 11:00:00", venue: "{{other_id}}"}}
        expect: {status: 2xx}
"#;
    std::fs::write(dir.join("side.yaml"), cases).unwrap();
    let report = dir.join("report.json");
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command.env("NO_COLOR", "1").arg("--cases").arg(&*dir).args(["--format", "terse", "--base-url", &base]);
    for user in reference_server::UserSpec::defaults() {
        command.arg("--auth").arg(format!("{}={}:{}", user.role.name(), user.name, user.password));
    }
    command.arg("--json").arg(&report).arg("--json-full").output().expect("the conformance binary runs");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let case = &report["cases"][0];
    assert_eq!(case["outcome"], "passed", "{case}");
    let body: Value = serde_json::from_str(case["steps"][1]["body"].as_str().unwrap()).unwrap();
    let linked = [format!("venues/{}", body["venue"]["id"]), format!("organizers/{}", body["organizer"][0]["id"])];
    let remaining: Vec<_> =
        read(&base, &linked).into_iter().filter(|(_, s, status)| (200..300).contains(s) && status != "trash").collect();
    assert!(remaining.is_empty(), "side effects the run left behind: {remaining:?}");
    // The venue the case created itself is swept as its own create; the second event linked it,
    // and it is not deleted twice.
    let labels: Vec<String> = sweeps(case).into_iter().map(|(label, _)| label).collect();
    assert_eq!(labels.len(), 5, "{labels:?}");
    assert!(sweeps(case).iter().all(|(_, ok)| *ok), "{}", case["cleanup"]);
}
