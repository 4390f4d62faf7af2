//! Fault and latency injection: rules from `--fault` and from the admin API, limited to a
//! route pattern and methods, seeded so that a run repeats; marked in the journal.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use reference_server::FaultRule;
use reqwest::Method;
use serde_json::{json, Value};

async fn with_rules(rules: &[&str]) -> Srv {
    let faults = rules.iter().map(|rule| FaultRule::from_flag(rule).expect("a rule")).collect();
    start_with(reference_server::Config { admin: true, faults, ..config() }).await
}

async fn add_rule(srv: &Srv, rule: Value) -> Resp {
    srv.site_req(Method::POST, "/__admin/faults").json(&rule).send().await
}

async fn statuses(srv: &Srv, count: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for _ in 0..count {
        out.push(srv.get("/events").await.status);
    }
    out
}

#[tokio::test]
async fn an_error_rate_is_repeatable_with_its_seed() {
    let rule = json!({"kind": "error", "status": 503, "rate": 0.3, "seed": 42});
    let mut runs = Vec::new();
    for _ in 0..2 {
        let srv = with_rules(&[]).await;
        add_rule(&srv, rule.clone()).await.expect(201);
        runs.push(statuses(&srv, 60).await);
        srv.server.shutdown().await;
    }
    assert_eq!(runs[0], runs[1], "the same seed, the same faults");
    let failed = runs[0].iter().filter(|status| **status == 503).count();
    assert!((6..=36).contains(&failed), "about 30% of 60 fail: {failed}");
    assert!(runs[0].iter().all(|status| *status == 503 || *status == 200));
    let srv = with_rules(&[]).await;
    add_rule(&srv, json!({"kind": "error", "status": 503, "rate": 0.3, "seed": 43})).await.expect(201);
    assert_ne!(statuses(&srv, 60).await, runs[0], "another seed, other faults");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn an_error_is_the_cms_envelope_and_is_marked_in_the_journal() {
    let srv = with_rules(&["error,status=503,retry_after=30,route=/events,method=GET"]).await;
    let resp = srv.get("/events").await;
    resp.expect_error(503, "service_unavailable");
    assert_eq!(resp.header("retry-after"), Some("30"));
    // Other routes and methods are not struck.
    srv.get("/venues").await.expect(200);
    srv.event("Written", 2, json!({})).await;
    let journal = srv.site_req(Method::GET, "/__admin/requests").send().await;
    let entries = journal.expect(200)["requests"].as_array().unwrap().clone();
    assert_eq!(entries[0]["fault"], "rule 1: error 503 before handling");
    assert_eq!(entries[0]["reason"], "injected by fault rule 1");
    assert_eq!(entries[1]["fault"], Value::Null);
    let rules = srv.site_req(Method::GET, "/__admin/faults").send().await;
    let rule = &rules.expect(200)["rules"][0];
    assert_eq!((rule["matched"].as_u64(), rule["struck"].as_u64()), (Some(1), Some(1)));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn an_error_before_handling_changes_nothing_and_after_handling_it_has_happened() {
    let srv = with_rules(&["error,status=500,method=POST,route=/events"]).await;
    let before = srv.server.store_fingerprint();
    let body = json!({"title": "Lost", "start_date": at(2, 0), "end_date": at(2, 1)});
    srv.post(Some("admin"), "/events", &body).await.expect_error(500, "internal_server_error");
    assert_eq!(srv.server.store_fingerprint(), before);
    srv.site_req(Method::DELETE, "/__admin/faults").send().await.expect(200);
    add_rule(&srv, json!({"kind": "error", "status": 502, "when": "after", "method": "POST"})).await.expect(201);
    srv.post(Some("admin"), "/events", &body).await.expect_error(502, "bad_gateway");
    let list = srv.get("/events?search=Lost").await;
    assert_eq!(list.expect(200)["events"].as_array().unwrap().len(), 1, "the write happened, its answer was lost");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_dropped_connection_gets_no_answer() {
    let srv = with_rules(&["drop,route=/venues"]).await;
    let url = format!("{}/venues", srv.api());
    let error = srv.client.get(&url).send().await.expect_err("no answer");
    assert!(error.is_request() || error.is_connect() || error.to_string().contains("connection"), "{error}");
    srv.get("/events").await.expect(200);
    let journal = srv.site_req(Method::GET, "/__admin/requests").send().await;
    let entry = journal.expect(200)["requests"][0].clone();
    assert_eq!(entry["status"], Value::Null);
    assert_eq!(entry["fault"], "rule 1: dropped connection before handling");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn latency_fixed_or_in_a_range() {
    let srv = with_rules(&["latency,ms=300,route=/venues"]).await;
    let started = Instant::now();
    srv.get("/venues").await.expect(200);
    assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());
    add_rule(&srv, json!({"kind": "latency", "ms": [100, 150], "route": "/organizers"})).await.expect(201);
    let started = Instant::now();
    srv.get("/organizers").await.expect(200);
    assert!(started.elapsed() >= Duration::from_millis(100));
    let journal = srv.site_req(Method::GET, "/__admin/requests").send().await;
    let entries = journal.expect(200)["requests"].as_array().unwrap().clone();
    let mark = entries[1]["fault"].as_str().unwrap();
    let ms: u64 = mark.trim_start_matches("rule 2: latency ").split(' ').next().unwrap().parse().unwrap();
    assert!((100..=150).contains(&ms), "{mark}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_slow_body_arrives_whole_a_few_bytes_at_a_time() {
    let srv = with_rules(&[]).await;
    let event = srv.event("Slowly", 2, json!({"description": "y".repeat(2000)})).await;
    let path = format!("/events/{}", id(&event));
    let quick = srv.get(&path).await;
    add_rule(&srv, json!({"kind": "slow", "chunk_bytes": 1024, "chunk_delay_ms": 60, "route": "/events/<id>"}))
        .await
        .expect(201);
    let started = Instant::now();
    let slow = srv.get(&path).await;
    let chunks = quick.text.len().div_ceil(1024) as u32;
    assert!(started.elapsed() >= Duration::from_millis(60) * chunks, "{:?} for {chunks} chunks", started.elapsed());
    assert_eq!(slow.text, quick.text);
    assert_eq!(slow.header("content-length"), Some(quick.text.len().to_string().as_str()));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn rules_are_added_listed_and_removed_through_the_admin_api() {
    let srv = with_rules(&["latency,ms=1"]).await;
    for bad in [json!({"kind": "error"}), json!({"kind": "latency", "ms": -1}), json!({"kind": "x"}), json!([1])] {
        add_rule(&srv, bad.clone()).await.expect_error(400, "admin_invalid_rule");
    }
    let added = add_rule(&srv, json!({"kind": "drop", "rate": 0.5, "method": "DELETE"})).await;
    let rule = added.expect(201).clone();
    assert_eq!(rule["id"], 2);
    assert_eq!(rule["seed"], 2, "--fault-seed 0 plus the rule's ID");
    let listed = srv.site_req(Method::GET, "/__admin/faults").send().await;
    assert_eq!(listed.expect(200)["rules"].as_array().unwrap().len(), 2);
    srv.site_req(Method::DELETE, "/__admin/faults/2").send().await.expect(200);
    srv.site_req(Method::DELETE, "/__admin/faults/2").send().await.expect_error(404, "admin_no_rule");
    let cleared = srv.site_req(Method::DELETE, "/__admin/faults").send().await;
    assert_eq!(cleared.expect(200)["removed"], 1);
    srv.server.shutdown().await;
}

#[test]
fn the_command_line_refuses_bad_rules() {
    for bad in ["error", "latency", "error,status=700", "slow,chunk_bytes=0,chunk_delay_ms=1", "drop,colour=red"] {
        assert!(FaultRule::from_flag(bad).is_err(), "{bad}");
    }
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_reference-server"))
        .args(["--listen", "127.0.0.1:0", "--fault", "error,status=42"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(2));
}

#[tokio::test]
async fn h15_latency_on_every_slot_leaves_the_admin_api_one() {
    let mut config = reference_server::Config { admin: true, ..config() };
    config.limits.max_connections = 3;
    let srv = start_with(config).await;
    add_rule(&srv, json!({"kind": "latency", "ms": 20_000})).await.expect(201);
    // Each slow request on a connection of its own, holding every slot.
    let api = srv.api().to_string();
    let mut slow = Vec::new();
    for _ in 0..3 {
        let url = format!("{api}/events");
        slow.push(tokio::spawn(async move { reqwest::Client::new().get(url).send().await.map(|resp| resp.status()) }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let admin = reqwest::Client::new();
    let removal = admin.delete(format!("{}/__admin/faults", srv.site())).send();
    let resp = tokio::time::timeout(Duration::from_secs(5), removal).await.expect("the admin API answers at once");
    assert_eq!(resp.unwrap().status().as_u16(), 200);
    // Another request of the interface meanwhile is told to come back, not queued behind.
    let other = reqwest::Client::new().get(format!("{api}/events")).send();
    let resp = tokio::time::timeout(Duration::from_secs(5), other).await.expect("answered at once").unwrap();
    assert_eq!(resp.status().as_u16(), 503);
    assert_eq!(resp.headers()["retry-after"], "1");
    for task in slow {
        task.abort();
    }
    // Not shut down: the slow requests would be waited for.
}

/// A rate through the admin API is read as the command line reads it: `"5%"` and `"0.05"` are
/// the share 0.05, and a bad one is refused with the command line's message.
#[tokio::test]
async fn also_the_admin_api_reads_a_rate_as_the_command_line_does() {
    let srv = with_rules(&["error,status=503,rate=5%"]).await;
    for rate in [json!("5%"), json!("0.05"), json!(0.05)] {
        let added = add_rule(&srv, json!({"kind": "error", "status": 503, "rate": rate})).await;
        assert_eq!(added.expect(201)["rate"], json!(0.05), "{rate}");
    }
    let refused = add_rule(&srv, json!({"kind": "error", "status": 503, "rate": "lots"})).await;
    let message = refused.expect_error(400, "admin_invalid_rule")["message"].as_str().unwrap().to_string();
    assert!(message.contains("rate: expected a share from 0 to 1 or a percentage (5%), got \"lots\""), "{message}");
    let flag = FaultRule::from_flag("error,status=503,rate=lots").unwrap_err();
    assert!(flag.ends_with("rate: expected a share from 0 to 1 or a percentage (5%), got \"lots\""), "{flag}");
}
