//! Durable state (`--state`): the store survives a restart exactly (records, ID counters,
//! clock-derived dates, slugs, the trash), through compaction too; a torn last record is
//! dropped, a file of another version or a damaged one is refused with a clear message.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

/// A fresh directory for one test's state file.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reference-server-state-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn with_state(path: &Path) -> reference_server::Config {
    reference_server::Config { state: Some(path.to_path_buf()), admin: true, ..config() }
}

/// A set of writes that touches every kind of record and every stored detail: inline venue and
/// organizer, new terms, an image by URL, a password, an update, a trash and a restore, a
/// deleted term.
async fn busy_day(srv: &Srv) -> Vec<u64> {
    let mut ids = Vec::new();
    let first = srv
        .event(
            "Concert on the quay",
            3,
            json!({
                "venue": {"venue": "Quay hall", "city": "Lyon", "geo_lat": 45.764043, "geo_lng": 4.835659},
                "organizer": [{"organizer": "Quay friends", "email": "hi@quay.example"}],
                "categories": ["Music", "Outdoor"],
                "tags": ["summer"],
                "cost": ["€15", "€20"],
                "image": "https://images.example/quay.jpg",
                "timezone": "Europe/Paris",
                "password": "open-sesame",
            }),
        )
        .await;
    ids.push(id(&first));
    let second = srv.event_as("author", "Author's talk", 5, json!({"status": "draft"})).await;
    ids.push(id(&second));
    let resp = srv
        .post(
            Some("admin"),
            &format!("/events/{}", id(&first)),
            &json!({"title": "Concert on the quay (moved)", "featured": true}),
        )
        .await;
    resp.expect(200);
    srv.delete(Some("admin"), &format!("/events/{}", id(&second))).await.expect(200);
    let third = srv.event("Same name", 7, json!({})).await;
    ids.push(id(&third));
    srv.delete(Some("admin"), &format!("/events/{}", id(&third))).await.expect(200);
    let fourth = srv.event("Same name", 8, json!({})).await;
    ids.push(id(&fourth));
    let tag = srv.tag("Short-lived", json!({})).await;
    srv.delete(Some("admin"), &format!("/tags/{}?force=true", id(&tag))).await.expect(200);
    ids
}

#[tokio::test]
async fn a_restart_keeps_the_store_exactly() {
    let dir = scratch("restart");
    let file = dir.join("calendar.state");
    let srv = start_with(reference_server::Config { demo: true, ..with_state(&file) }).await;
    let ids = busy_day(&srv).await;
    let before = srv.server.store_fingerprint();
    let event = srv.get_as("admin", &format!("/events/{}?password=open-sesame", ids[0])).await.expect(200).clone();
    let old_site = srv.site().to_string();
    srv.server.shutdown().await;

    // Another clock and no --demo: the file holds the store, dates are not recomputed.
    let later = reference_server::Config { clock: Some("2027-03-01T08:00:00Z".parse().unwrap()), ..with_state(&file) };
    let srv = start_with(later).await;
    assert_eq!(srv.server.store_fingerprint(), before, "the store after a restart");
    let again = srv.get_as("admin", &format!("/events/{}?password=open-sesame", ids[0])).await.expect(200).clone();
    // Links follow the site's address (a new port); everything stored is as it was.
    let keys = ["title", "date", "date_utc", "modified", "start_date", "utc_start_date", "slug", "cost", "venue"];
    for key in
        keys.into_iter().chain(["organizer", "categories", "tags", "image", "featured", "timezone", "description"])
    {
        let old = event[key].to_string().replace(&old_site, "SITE");
        let new = again[key].to_string().replace(srv.site(), "SITE");
        assert_eq!(new, old, "{key}");
    }
    // The trash remembers: the restored event gets its slug back.
    let resp = srv.post(Some("admin"), &format!("/events/{}", ids[2]), &json!({"status": "publish"})).await;
    assert_eq!(resp.expect(200)["slug"], "same-name-2", "the trashed event's former slug was taken meanwhile");
    // The ID counters go on.
    let next = srv.event("After the restart", 2, json!({})).await;
    assert!(id(&next) > *ids.iter().max().unwrap());
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn admin_state(srv: &Srv) -> Value {
    srv.site_req(Method::GET, "/__admin/state").send().await.expect(200).clone()
}

#[tokio::test]
async fn compaction_keeps_the_store_and_shrinks_the_file() {
    let dir = scratch("compaction");
    let file = dir.join("calendar.state");
    let config = reference_server::Config { state_compact_bytes: 4_000, ..with_state(&file) };
    let srv = start_with(config.clone()).await;
    let event = srv.event("Edited many times", 4, json!({})).await;
    for round in 0..60 {
        let body = json!({"title": format!("Edited many times, round {round}"), "description": "x".repeat(200)});
        srv.post(Some("admin"), &format!("/events/{}", id(&event)), &body).await.expect(200);
    }
    // Explicit synchronisation, not a wait of some time: the writer has handled every write
    // and no compaction is under way or due, however slowly the compaction thread ran.
    srv.server.compactions_settled().await;
    let state = admin_state(&srv).await;
    assert!(state["compactions"].as_u64() > Some(0), "no compaction: {state}");
    let before = srv.server.store_fingerprint();
    srv.server.shutdown().await;
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(size < 30_000, "60 updates of ~400 bytes each were compacted away: {size} bytes");
    let srv = start_with(config).await;
    assert_eq!(srv.server.store_fingerprint(), before);
    let got = srv.get(&format!("/events/{}", id(&event))).await;
    assert_eq!(got.expect(200)["title"], "Edited many times, round 59");
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_torn_last_record_is_dropped_and_cut() {
    let dir = scratch("torn");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    srv.event("Kept", 2, json!({})).await;
    let kept = srv.server.store_fingerprint();
    srv.event("Torn", 3, json!({})).await;
    // The same address again: a start on another one rewrites the file (its links move).
    let addr = srv.server.addr();
    srv.server.shutdown().await;
    let mut bytes = std::fs::read(&file).unwrap();
    let whole = bytes.len();
    let last_start = bytes[..whole - 1].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    bytes.truncate(whole - 25);
    std::fs::write(&file, &bytes).unwrap();

    let srv = start_with(reference_server::Config { listen: addr, ..with_state(&file) }).await;
    assert_eq!(srv.server.store_fingerprint(), kept, "the store before the torn write");
    assert_eq!(std::fs::metadata(&file).unwrap().len(), last_start as u64, "the torn record is cut from the file");
    // New writes go after the good records, and survive another restart.
    srv.event("After", 4, json!({})).await;
    let after = srv.server.store_fingerprint();
    srv.server.shutdown().await;
    let srv = start_with(with_state(&file)).await;
    assert_eq!(srv.server.store_fingerprint(), after);
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_flipped_byte_in_the_last_record_counts_as_torn() {
    let dir = scratch("flipped");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    let kept = srv.server.store_fingerprint();
    srv.event("Damaged", 3, json!({})).await;
    srv.server.shutdown().await;
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x20;
    std::fs::write(&file, &bytes).unwrap();
    let srv = start_with(with_state(&file)).await;
    assert_eq!(srv.server.store_fingerprint(), kept);
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The message `serve` fails with for a state file.
async fn refusal(file: &Path) -> String {
    match reference_server::serve(with_state(file)).await {
        Ok(server) => {
            server.shutdown().await;
            panic!("the server started with {}", file.display())
        }
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn damaged_or_foreign_files_are_refused_with_a_clear_message() {
    let dir = scratch("refused");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    srv.event("One", 2, json!({})).await;
    srv.event("Two", 3, json!({})).await;
    srv.server.shutdown().await;
    let good = std::fs::read(&file).unwrap();

    // A damaged record with good ones after it is not a torn write.
    let mut damaged = good.clone();
    let lines: Vec<usize> = damaged.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(at, _)| at).collect();
    let middle = lines[lines.len() - 3] + 20;
    damaged[middle] ^= 0x01;
    std::fs::write(&file, &damaged).unwrap();
    let message = refusal(&file).await;
    assert!(message.contains("corrupt") && message.contains("truncate -s"), "{message}");

    // Another format version.
    let text = String::from_utf8(good.clone()).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let json_header = &header[9..].replace("\"version\":1", "\"version\":99");
    let crc = format!("{:08x}", crc32(json_header.as_bytes()));
    std::fs::write(&file, format!("{crc} {json_header}\n{rest}")).unwrap();
    let message = refusal(&file).await;
    assert!(message.contains("version 99") && message.contains("reads version 1"), "{message}");

    // Not a state file at all.
    std::fs::write(&file, "hello\nworld\n").unwrap();
    let message = refusal(&file).await;
    assert!(message.contains("not a state file"), "{message}");

    // An empty file is a new one.
    std::fs::write(&file, "").unwrap();
    let srv = start_with(with_state(&file)).await;
    assert!(srv.get("/events").await.expect(200)["events"].as_array().unwrap().is_empty());
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// CRC-32 (IEEE), as the file writes it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { 0xEDB8_8320 ^ (crc >> 1) } else { crc >> 1 };
        }
    }
    !crc
}

#[tokio::test]
async fn an_admin_reset_and_seed_are_durable_too() {
    let dir = scratch("reset");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    srv.event("Before the reset", 2, json!({})).await;
    let resp = srv.site_req(Method::POST, "/__admin/reset").json(&json!({"to": "demo"})).send().await;
    let demo_events = resp.expect(200)["store"]["events"].as_u64().unwrap();
    assert!(demo_events > 10);
    let resp = srv.site_req(Method::POST, "/__admin/seed").json(&json!({"events": 40})).send().await;
    assert_eq!(resp.expect(200)["store"]["events"].as_u64(), Some(demo_events + 40));
    let created = srv.event("After the reset", 2, json!({})).await;
    let before = srv.server.store_fingerprint();
    srv.server.shutdown().await;
    let srv = start_with(with_state(&file)).await;
    assert_eq!(srv.server.store_fingerprint(), before);
    assert_eq!(srv.get(&format!("/events/{}", id(&created))).await.expect(200)["title"], "After the reset");
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn without_state_nothing_is_kept() {
    let srv = start_with(reference_server::Config { admin: true, ..config() }).await;
    let state = admin_state(&srv).await;
    assert_eq!(state, json!({"persistent": false}));
    srv.server.shutdown().await;
}

// ----- Hardening round 2 (issue 21): H8, H9, H10 and the file's kind, counters and mode -----

#[tokio::test]
async fn h8_a_second_server_on_the_same_state_file_refuses_to_start() {
    let dir = scratch("h8");
    let file = dir.join("calendar.state");
    let first = start_with(with_state(&file)).await;
    let message = refusal(&file).await;
    assert!(message.contains("in use"), "{message}");
    assert!(message.contains(&format!("PID {}", std::process::id())), "names the holder: {message}");
    // Through a symlink it is the same file.
    #[cfg(unix)]
    {
        let link = dir.join("current.state");
        std::os::unix::fs::symlink("calendar.state", &link).unwrap();
        let message = refusal(&link).await;
        assert!(message.contains("in use"), "{message}");
    }
    first.event("Kept", 2, json!({})).await;
    first.server.shutdown().await;
    // Once the first one stopped, the file is free.
    let second = start_with(with_state(&file)).await;
    let events = second.get("/events").await.expect(200)["events"].as_array().unwrap().len();
    assert_eq!(events, 1);
    second.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[tokio::test]
async fn h10_a_symlinked_state_file_stays_a_symlink_through_compaction() {
    let dir = scratch("h10");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let link = dir.join("current.state");
    // A link to a file that does not exist yet: the file is created at the target.
    std::os::unix::fs::symlink("data/calendar.state", &link).unwrap();
    let config = reference_server::Config { state_compact_bytes: 2000, ..with_state(&link) };
    let srv = start_with(config).await;
    for n in 0..12 {
        srv.event(&format!("After {n}"), 2, json!({})).await;
    }
    srv.server.compactions_settled().await;
    let state = admin_state(&srv).await;
    assert!(state["compactions"].as_u64().unwrap() >= 1, "{state}");
    srv.server.shutdown().await;
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    let target = std::fs::read_to_string(dir.join("data/calendar.state")).unwrap();
    for n in 0..12 {
        assert!(target.contains(&format!("\"After {n}\"")), "the real file has event {n}");
    }
    assert!(!dir.join("current.state.new").exists() && !dir.join("data/calendar.state.new").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[tokio::test]
async fn h9_after_a_failed_state_write_writes_answer_503_and_reads_go_on() {
    use std::io::BufRead;
    let dir = scratch("h9");
    let file = dir.join("calendar.state");
    // The shell limits the size of files the server may write (ulimit -f, in blocks of 512
    // bytes) and ignores SIGXFSZ, so a write past it fails as on a full disk.
    let script = "trap '' XFSZ; ulimit -f 40; exec \"$0\" --listen 127.0.0.1:0 --state \"$1\"";
    let mut child = std::process::Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_reference-server")])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let mut api = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut api).expect("api line");
    let api = api.trim().to_string();
    let client = reqwest::Client::new();
    let create = |title: String| {
        let body = json!({"title": title, "description": "d".repeat(3000), "start_date": "2030-01-01 10:00:00",
            "end_date": "2030-01-01 11:00:00"});
        client.post(format!("{api}/events")).basic_auth("editor", Some("editor-password")).json(&body).send()
    };
    let mut failed = None;
    for n in 0..100 {
        let status = create(format!("F{n}")).await.unwrap().status().as_u16();
        if status != 201 {
            failed = Some(status);
            break;
        }
    }
    assert_eq!(failed, Some(500), "a write that cannot reach the disk fails");
    let next = create("After".to_string()).await.unwrap();
    assert_eq!(next.status().as_u16(), 503);
    let body: Value = next.json().await.unwrap();
    assert_eq!(body["code"], "state_read_only");
    for path in ["/events/6", "/events", "/venues", ""] {
        let status = client.get(format!("{api}{path}")).send().await.unwrap().status().as_u16();
        assert_eq!(status, 200, "GET {path}: reads go on");
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[tokio::test]
async fn also_state_files_that_are_not_regular_files_are_refused_at_once() {
    let dir = scratch("kinds");
    let quick = |path: PathBuf| async move {
        tokio::time::timeout(Duration::from_secs(10), refusal(&path)).await.expect("refused without waiting")
    };
    let message = quick(PathBuf::from("/dev/zero")).await;
    assert!(message.contains("not a regular file"), "{message}");
    let fifo = dir.join("calendar.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let message = quick(fifo).await;
    assert!(message.contains("not a regular file"), "{message}");
    let message = quick(dir.clone()).await;
    assert!(message.contains("not a regular file"), "{message}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Rewrites the image line of a state file with `edit` and a new CRC.
fn edit_image(file: &Path, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let json = edit(&lines[1][9..]);
    lines[1] = format!("{:08x} {json}", crc32(json.as_bytes()));
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

#[tokio::test]
async fn also_id_counters_past_the_limit_and_ids_past_their_counter_are_refused() {
    let dir = scratch("counters");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    srv.server.shutdown().await;
    let good = std::fs::read(&file).unwrap();
    let ids = regex_lite_ids(&String::from_utf8(good.clone()).unwrap());
    edit_image(&file, |json| json.replace(&ids, &format!("\"ids\":[{},1]", u64::MAX)));
    let message = refusal(&file).await;
    assert!(message.contains("ID counter"), "{message}");
    std::fs::write(&file, &good).unwrap();
    // A page whose ID is past the post counter.
    edit_image(&file, |json| json.replacen("\"pages\":[1", "\"pages\":[1000", 1));
    let message = refusal(&file).await;
    assert!(message.contains("past the ID counter"), "{message}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The `"ids":[P,T]` of a file's image.
fn regex_lite_ids(text: &str) -> String {
    let start = text.find("\"ids\":[").expect("the image has counters");
    let end = start + text[start..].find(']').unwrap() + 1;
    text[start..end].to_string()
}

#[cfg(unix)]
#[tokio::test]
async fn also_the_state_file_is_created_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("mode");
    let file = dir.join("calendar.state");
    let srv = start_with(reference_server::Config { state_compact_bytes: 2000, ..with_state(&file) }).await;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    for n in 0..12 {
        srv.event(&format!("Compacted {n}"), 2, json!({})).await;
    }
    // The compaction runs on a thread of its own: wait for it by the hook, not for some time
    // (read at once, it had not started in one loaded run).
    srv.server.compactions_settled().await;
    assert!(admin_state(&srv).await["compactions"].as_u64().unwrap() >= 1);
    assert_eq!(mode(&file), 0o600, "after a compaction too");
    srv.server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Every URL in an event's image (the image and its sizes).
fn image_urls(event: &Value) -> Vec<String> {
    let image = &event["image"];
    let mut urls = vec![image["url"].as_str().expect("an image").to_string()];
    if let Some(sizes) = image["sizes"].as_object() {
        urls.extend(sizes.values().filter_map(|size| size["url"].as_str()).map(str::to_string));
    }
    urls
}

#[tokio::test]
async fn h16_image_urls_follow_the_site_after_a_restart_on_another_address() {
    let dir = scratch("h16");
    let file = dir.join("calendar.state");
    let srv = start_with(with_state(&file)).await;
    let sample = srv.event("Sample image", 2, json!({"image": "4"})).await;
    let own = format!("{}/wp-content/uploads/own.jpg", srv.site());
    let uploaded = srv.event("Own image", 3, json!({"image": own})).await;
    let outside = srv.event("Outside image", 4, json!({"image": "https://images.example/quay.jpg"})).await;
    srv.server.shutdown().await;
    // Twice: the second restart reads what the first one wrote.
    for round in 0..2 {
        let srv = start_with(with_state(&file)).await;
        for event in [&sample, &uploaded] {
            let again = srv.get(&format!("/events/{}", id(event))).await.expect(200).clone();
            for url in image_urls(&again) {
                assert!(url.starts_with(&format!("{}/", srv.site())), "round {round}: {url} follows {}", srv.site());
            }
        }
        let again = srv.get(&format!("/events/{}", id(&outside))).await.expect(200).clone();
        assert_eq!(again["image"]["url"], "https://images.example/quay.jpg", "another site's image stays");
        // An image given again by its new address is the same image.
        let new_own = format!("{}/wp-content/uploads/own.jpg", srv.site());
        let same = srv.event(&format!("Same image {round}"), 5, json!({"image": new_own})).await;
        assert_eq!(same["image"]["id"], uploaded["image"]["id"]);
        srv.server.shutdown().await;
    }
    let _ = std::fs::remove_dir_all(dir);
}
