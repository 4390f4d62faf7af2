//! Fixtures (`--fixtures FILE`): loaded through the API's write path, with relative dates from
//! the clock; every problem reported at once; the admin API resets to them and exports the
//! store in the same format, and an export loads back to the same answers.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common;

use common::*;
use reference_server::{serve, Config, FixtureErrors};
use reqwest::Method;
use serde_json::{json, Value};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/fixture-example.yaml");
const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/fixture.schema.json");
const BIN: &str = env!("CARGO_BIN_EXE_reference-server");

/// A file of this test's own in the temporary directory, removed (with its folder, once empty)
/// when dropped.
struct Temp(PathBuf);

impl Temp {
    fn path(&self) -> PathBuf {
        self.0.clone()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn temp_file(name: &str, text: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!("reference-server-fixtures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    Temp(path)
}

async fn with_fixture(path: PathBuf, clock: &str) -> Srv {
    let clock = clock.parse().expect("an instant");
    start_with(Config { fixtures: Some(path), admin: true, clock: Some(clock), ..Config::ephemeral() }).await
}

fn admin<'a>(srv: &'a Srv, method: Method, path: &str) -> Req<'a> {
    srv.site_req(method, &format!("/__admin{path}"))
}

/// What the API answers for the fixture's items: lists and single items, anonymous and as
/// the fixture's administrator (alice, with this password), with the site's address and the
/// load-time fields taken out.
async fn answers(srv: &Srv, password: &str) -> Vec<(String, Value)> {
    let mut paths: Vec<String> =
        ["/events", "/events?status=draft", "/venues", "/organizers", "/categories", "/tags"].map(String::from).into();
    let events = srv.req(Method::GET, "/events?status=publish,draft").login("alice", password).send().await;
    for event in events.expect(200)["events"].as_array().expect("events") {
        paths.push(format!("/events/{}", id(event)));
    }
    let mut out = Vec::new();
    for path in paths {
        for user in [None, Some("alice")] {
            let mut req = srv.req(Method::GET, &path);
            if let Some(name) = user {
                req = req.login(name, password);
            }
            let resp = req.send().await;
            let text = resp.text.replace(srv.site(), "SITE").replace(&srv.site().replace('/', "\\/"), "SITE");
            let mut value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            strip_modified(&mut value);
            out.push((format!("{path} as {user:?} ({})", resp.status), value));
        }
    }
    out
}

fn strip_modified(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("modified");
            map.remove("modified_utc");
            map.values_mut().for_each(strip_modified);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_modified),
        _ => {}
    }
}

#[tokio::test]
async fn a_fixture_reads_back_exports_and_loads_again_to_the_same_answers() {
    let first = with_fixture(EXAMPLE.into(), NOW).await;
    let events = first.get("/events").await.expect(200).clone();
    let opening = &events["events"][0];
    assert_eq!(opening["title"], "Opening Night");
    assert_eq!(opening["venue"]["venue"], "Lyon Hall");
    assert_eq!(opening["organizer"][0]["organizer"], "Lyon Jazz Club");
    assert_eq!(opening["categories"][0]["name"], "Jazz");
    assert_eq!(opening["tags"][0]["name"], "Outdoor");
    assert_eq!(opening["cost"], "15€");
    let categories = first.get("/categories?hide_empty=false").await.expect(200)["categories"].clone();
    let named = |name: &str| categories.as_array().unwrap().iter().find(|c| c["name"] == name).cloned().expect(name);
    assert_eq!(named("Jazz")["parent"], named("Music")["id"], "{categories}");
    // The fixture's users replace the default ones; bob got the documented password.
    first.req(Method::GET, "/events").login("bob", "bob-password").send().await.expect(200);
    first.req(Method::GET, "/events").user("admin").send().await.expect_error(401, "invalid_username");
    let rehearsal = first.req(Method::GET, "/events?status=draft").login("alice", "alice-secret").send().await;
    assert_eq!(rehearsal.expect(200)["events"][0]["author"], "2");

    let exported = admin(&first, Method::GET, "/export").send().await.expect(200).clone();
    assert!(exported["users"].as_array().unwrap().iter().all(|user| user.get("password").is_none()), "{exported}");
    assert!(!exported.to_string().contains("alice-secret"));
    let before = answers(&first, "alice-secret").await;
    first.server.shutdown().await;

    // Loaded back, users have the documented password NAME-password.
    let file = temp_file("export.json", &exported.to_string());
    let second = with_fixture(file.path(), NOW).await;
    let after = answers(&second, "alice-password").await;
    assert_eq!(before.len(), after.len());
    for ((path, one), (_, two)) in before.iter().zip(&after) {
        assert_eq!(one, two, "{path}");
    }
    assert_eq!(admin(&second, Method::GET, "/export").send().await.expect(200), &exported);
    second.server.shutdown().await;
}

#[tokio::test]
async fn relative_dates_follow_the_clock() {
    for (clock, start) in
        [("2026-11-22T10:00:00Z", "2026-11-25 19:00:00"), ("2027-03-01T23:30:00Z", "2027-03-05 19:00:00")]
    {
        // At 23:30 UTC on 1 March it is already 2 March in Paris: three days later is the 5th.
        let srv = with_fixture(EXAMPLE.into(), clock).await;
        let event = srv.get("/events").await.expect(200)["events"][0].clone();
        assert_eq!((event["title"].as_str(), event["start_date"].as_str()), (Some("Opening Night"), Some(start)));
        let relative = admin(&srv, Method::GET, "/export?dates=relative").send().await.expect(200).clone();
        assert_eq!(relative["events"][0]["start_date"], "+3d 19:00:00");
        admin(&srv, Method::GET, "/export?dates=soon").send().await.expect_error(400, "admin_invalid_query");
        srv.server.shutdown().await;
    }
}

const BAD: &str = r#"{
  "users": [{"name": "eve", "role": "emperor"}],
  "categories": [{"ref": "a", "name": "A", "parent": "b"}, {"ref": "b", "name": "B", "parent": "a"}],
  "venues": [{"ref": "hall", "venue": "Hall", "colour": "red"}, {"ref": "hall", "venue": "Other"}],
  "events": [
    {"ref": "gig", "title": "Gig", "start_date": "+3d 25:00", "end_date": "+3d", "venue": "nowhere"},
    {"ref": "talk", "title": "Talk", "start_date": "not a date", "end_date": "+1d", "status": "sold-out"},
    {"ref": "untitled", "start_date": "+1d", "end_date": "+1d", "featured": "maybe"}
  ]
}"#;

#[tokio::test]
async fn every_problem_is_reported_at_once_with_its_path() {
    let file = temp_file("bad.json", BAD);
    let path = file.path();
    let error = serve(Config { fixtures: Some(path.clone()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = &error.get_ref().and_then(|inner| inner.downcast_ref::<FixtureErrors>()).expect("fixture errors").lines;
    let file = path.display().to_string();
    let expected = [
        "users[0].role: ",
        "categories[0].parent: ",
        "categories[1].parent: ",
        "venues[0].colour: unknown field",
        "venues[1].ref: another item of venues",
        "events[0].start_date: ",
        "events[0].venue: no item of venues has the ref \"nowhere\"",
        "events[1].start_date: ",
        "events[1].status: ",
        // The API stops at a missing argument; the fixture's check goes on to the others.
        "events[2].title: missing",
        "events[2].featured: ",
    ];
    for wanted in expected {
        assert!(lines.iter().any(|line| line.starts_with(&format!("{file}: {wanted}"))), "{wanted} in {lines:#?}");
    }
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");

    // The binary prints them on stderr and exits with status 2, serving nothing.
    let output = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--fixtures"])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "nothing served");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().filter(|line| line.starts_with(&file)).count(), expected.len(), "{stderr}");
}

/// Publication dates relative to the clock: `date` a wall time in the site's zone, `date_utc`
/// one in UTC (docs/reference-server.md, "Dates").
#[tokio::test]
async fn relative_publication_dates_are_read_in_their_zones() {
    let fixture = r#"{"events": [
      {"ref": "a", "title": "A", "start_date": "+1d 10:00", "end_date": "+1d 11:00", "date": "-2d 08:00"},
      {"ref": "b", "title": "B", "start_date": "+1d 10:00", "end_date": "+1d 11:00", "date_utc": "-3d 07:15"}
    ]}"#;
    let file = temp_file("publication.json", fixture);
    let clock: chrono::DateTime<chrono::Utc> = "2026-11-22T10:00:00Z".parse().unwrap();
    let config = Config {
        fixtures: Some(file.path()),
        clock: Some(clock),
        timezone: "Europe/Paris".into(),
        ..Config::ephemeral()
    };
    let srv = start_with(config).await;
    let list = srv.get("/events").await.expect(200).clone();
    let dates: Vec<(&str, &str, &str)> = list["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| {
            (event["title"].as_str().unwrap(), event["date"].as_str().unwrap(), event["date_utc"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        dates,
        [("A", "2026-11-20 08:00:00", "2026-11-20 07:00:00"), ("B", "2026-11-19 08:15:00", "2026-11-19 07:15:00")]
    );
}

/// Refusals of the interface's own checks, in the words the journal gives them: one line per
/// argument for a refused argument, else the refusal as a whole (the fixture's writes are an
/// administrator's, so no permission refusal comes up).
const REFUSED: &str = r#"{
  "categories": [{"ref": "a", "name": "Jazz"}, {"ref": "b", "name": "Jazz"}],
  "events": [
    {"ref": "c", "title": "C", "start_date": "+1d 10:00", "end_date": "+1d 11:00", "all_day": "often", "featured": 2}
  ]
}"#;

#[tokio::test]
async fn problems_are_told_in_the_journal_s_words() {
    let file = temp_file("refused.json", REFUSED);
    let path = file.path();
    let error = serve(Config { fixtures: Some(path.clone()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = &error.get_ref().and_then(|inner| inner.downcast_ref::<FixtureErrors>()).expect("fixture errors").lines;
    let prefix = format!("{}: ", path.display());
    let lines: Vec<&str> = lines.iter().map(|line| line.strip_prefix(&prefix).unwrap_or(line)).collect();
    assert_eq!(
        lines,
        [
            "categories[1]: A term with the name provided already exists with this parent. (term_exists)",
            "events[0].all_day: not of type boolean (rest_invalid_param)",
            "events[0].featured: not of type boolean (rest_invalid_param)",
        ]
    );
}

#[tokio::test]
async fn reset_returns_to_the_fixture_after_writes() {
    let srv = with_fixture(EXAMPLE.into(), NOW).await;
    let before = srv.get("/events").await.expect(200).clone();
    let body = json!({"title": "Added by hand", "start_date": at(2, 0), "end_date": at(2, 1)});
    srv.req(Method::POST, "/events").login("alice", "alice-secret").json(&body).send().await.expect(201);
    srv.req(Method::DELETE, &format!("/events/{}", id(&before["events"][0])))
        .login("alice", "alice-secret")
        .send()
        .await
        .expect(200);
    let reset = admin(&srv, Method::POST, "/reset").json(&json!({"to": "fixtures"})).send().await;
    assert_eq!(
        reset.expect(200)["store"],
        json!({"events": 2, "venues": 1, "organizers": 1, "categories": 2, "tags": 1})
    );
    assert_eq!(srv.get("/events").await.expect(200)["events"], before["events"]);
    srv.server.shutdown().await;

    let plain = start_with(Config { admin: true, ..config() }).await;
    let resp = admin(&plain, Method::POST, "/reset").json(&json!({"to": "fixtures"})).send().await;
    resp.expect_error(400, "admin_no_fixtures");
    plain.server.shutdown().await;
}

#[tokio::test]
async fn export_keeps_the_admin_guards() {
    let srv = with_fixture(EXAMPLE.into(), NOW).await;
    let resp = admin(&srv, Method::GET, "/export").header("host", "evil.example:80").send().await;
    resp.expect_error(403, "admin_forbidden");
    let resp = admin(&srv, Method::GET, "/export").header("origin", "https://evil.example").send().await;
    resp.expect_error(403, "admin_forbidden");
    srv.server.shutdown().await;
    // Without --admin there is no export.
    let path = Some(PathBuf::from(EXAMPLE));
    let closed = start_with(Config { fixtures: path, clock: Some(now()), ..Config::ephemeral() }).await;
    let resp = admin(&closed, Method::GET, "/export").send().await;
    assert_ne!(resp.status, 200);
    assert!(!resp.text.contains("Lyon Hall"), "{}", resp.text);
    closed.server.shutdown().await;
}

#[test]
fn the_example_and_an_export_match_the_published_schema() {
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(SCHEMA).expect("the schema")).expect("JSON");
    // The schema names exactly the fields the loader takes.
    for list in reference_server::FIXTURE_LISTS {
        let properties = &schema["properties"][list]["items"]["properties"];
        let mut documented: Vec<&str> = properties.as_object().expect(list).keys().map(String::as_str).collect();
        let mut taken = reference_server::fixture_fields(list);
        documented.sort_unstable();
        taken.sort_unstable();
        assert_eq!(documented, taken, "{list}");
    }
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("fixture.schema.json", schema).expect("added");
    let index = compiler.compile("fixture.schema.json", &mut schemas).expect("a valid schema");
    let text = std::fs::read_to_string(EXAMPLE).expect("the example");
    let example = reference_server::fixture_value(&text, true).expect("the example parses");
    assert!(schemas.validate(&example, index).is_ok(), "the example");
    assert!(schemas.validate(&exported_example(), index).is_ok(), "an export");
    for bad in [json!({"events": [{"title": "no ref"}]}), json!({"gadgets": []}), json!({"users": [{"name": "x"}]})] {
        assert!(schemas.validate(&bad, index).is_err(), "{bad}");
    }
}

/// The example loaded, then exported with relative dates.
fn exported_example() -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let srv = with_fixture(EXAMPLE.into(), NOW).await;
        let exported = admin(&srv, Method::GET, "/export?dates=relative").send().await.expect(200).clone();
        srv.server.shutdown().await;
        exported
    })
}

/// A store reached by hand, through the API, in the order a client happens to write: its
/// export loads back (IDs are given again in load order) and exports to the same fixture.
#[tokio::test]
async fn a_state_reached_by_hand_becomes_a_fixture() {
    let srv = start_with(Config { admin: true, ..config() }).await;
    let music = srv.category("Music", json!({})).await;
    let venue = srv.venue("Riverside", json!({"city": "Lyon", "geo_lat": 45.76, "geo_lng": 4.83})).await;
    let jazz = srv.category("Jazz", json!({"parent": id(&music)})).await;
    let organizer = srv.organizer("Club", json!({"email": "club@example.org"})).await;
    let outdoor = srv.tag("Outdoor", json!({})).await;
    let links = json!({
        "categories": [id(&jazz)], "tags": [id(&outdoor)], "venue": id(&venue), "organizer": [id(&organizer)],
        "cost": "€10", "image": "https://img.example/poster.jpg", "featured": true, "timezone": "Europe/Paris",
    });
    srv.event("Concert", 3, links).await;
    srv.event("Concert en français", 4, json!({"multilingual_language": "fr"})).await;
    srv.event_as("author", "Draft by the author", 5, json!({"status": "draft"})).await;
    let gone = srv.event("Cancelled", 6, json!({})).await;
    srv.delete(Some("admin"), &format!("/events/{}", id(&gone))).await.expect(200);

    let exported = admin(&srv, Method::GET, "/export").send().await.expect(200).clone();
    let titles: Vec<&str> =
        exported["events"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Concert", "Concert en français", "Draft by the author"], "the trash is left out");
    assert_eq!(exported["events"][1]["lang"], "fr");
    assert_eq!(exported["events"][2]["author"], "author");
    assert_eq!(exported["categories"][1]["parent"], exported["categories"][0]["ref"]);
    assert!(!exported.to_string().contains("-password"), "no password is exported");
    let concert = srv.get("/events?search=Concert&multilingual_language=en").await.expect(200)["events"][0].clone();
    srv.server.shutdown().await;

    let file = temp_file("by-hand.json", &exported.to_string());
    let again = with_fixture(file.path(), NOW).await;
    assert_eq!(admin(&again, Method::GET, "/export").send().await.expect(200), &exported);
    let loaded = again.get("/events?search=Concert&multilingual_language=en").await.expect(200)["events"][0].clone();
    for key in ["title", "start_date", "utc_start_date", "cost", "cost_details", "featured", "timezone"] {
        assert_eq!(concert[key], loaded[key], "{key}");
    }
    assert_eq!(concert["image"]["url"], "https://img.example/poster.jpg");
    assert_eq!(loaded["image"]["url"], concert["image"]["url"]);
    assert_eq!(loaded["venue"]["venue"], "Riverside");
    assert_eq!(loaded["categories"][0]["name"], "Jazz");
    again.server.shutdown().await;
}

#[tokio::test]
async fn too_many_items_are_refused_before_loading() {
    let events: Vec<Value> = (0..200_001).map(|n| json!({"ref": format!("e{n}")})).collect();
    let file = temp_file("many.json", &json!({"events": events}).to_string());
    let error = serve(Config { fixtures: Some(file.path()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = &error.get_ref().and_then(|inner| inner.downcast_ref::<FixtureErrors>()).expect("fixture errors").lines;
    assert_eq!(lines.len(), 1, "{:?}", &lines[..lines.len().min(3)]);
    assert!(lines[0].contains("at most 200000 items"), "{lines:?}");
}

/// R12: a file of many entries that are not mappings is refused in one line (not one line per
/// entry), and a JSON file of more values than the stated bound is refused before it is
/// parsed; a `--stub` file too, within its own smaller bound.
#[tokio::test]
async fn r12_huge_fixture_and_stub_files_are_refused_in_one_line() {
    let fixture_lines = |error: std::io::Error| {
        error.get_ref().and_then(|inner| inner.downcast_ref::<FixtureErrors>()).expect("fixture errors").lines.clone()
    };
    let zeros = |n: usize| format!("[{}0]", "0,".repeat(n - 1));
    let file = temp_file("zeros.json", &format!("{{\"events\":{}}}", zeros(1_000_000)));
    let error = serve(Config { fixtures: Some(file.path()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = fixture_lines(error);
    assert_eq!(lines.len(), 1, "{:?}", &lines[..lines.len().min(3)]);
    assert!(lines[0].contains("at most 200000 items"), "{lines:?}");
    // Within the item bound, the entries that are not mappings are named up to 20, then counted.
    let file = temp_file("some-zeros.json", &format!("{{\"events\":{}}}", zeros(1000)));
    let error = serve(Config { fixtures: Some(file.path()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = fixture_lines(error);
    assert_eq!(lines.len(), 21, "{:?}", &lines[..lines.len().min(3)]);
    assert!(lines[20].ends_with("events: 980 more items are not mappings of fields"), "{:?}", lines[20]);
    // Past the bound of values: refused before the parse, in one line.
    let file = temp_file("values.json", &format!("{{\"events\":{}}}", zeros(5_000_001)));
    let error = serve(Config { fixtures: Some(file.path()), ..Config::ephemeral() }).await.err().expect("refused");
    let lines = fixture_lines(error);
    assert_eq!(lines.len(), 1, "{:?}", &lines[..lines.len().min(3)]);
    assert!(lines[0].ends_with("holds more than 5000000 values (keys included): split it"), "{lines:?}");
    let stubs = temp_file("stubs.json", &format!("{{\"response\":{{\"body\":{}}}}}", zeros(200_001)));
    let error = serve(Config { stub_files: vec![stubs.path()], ..Config::ephemeral() }).await.err().expect("refused");
    let text = error.to_string();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("holds more than 200000 values"), "{text}");
}

#[tokio::test]
async fn users_come_from_the_command_line_or_the_fixture_not_both() {
    let users = vec![reference_server::UserSpec::parse("carol:carol-secret:editor").expect("a user")];
    let config = Config { fixtures: Some(EXAMPLE.into()), users, ..Config::ephemeral() };
    let error = serve(config).await.err().expect("refused");
    let lines = &error.get_ref().and_then(|inner| inner.downcast_ref::<FixtureErrors>()).expect("fixture errors").lines;
    assert!(
        lines.iter().any(|line| line
            .ends_with(": users: users are given both with --user and in the fixture: give them in one place")),
        "{lines:#?}"
    );
}

/// A new state file starts with the fixture; one that exists holds the store, and the fixture
/// is only read, checked and kept for a reset.
#[tokio::test]
async fn a_state_file_that_exists_holds_the_store() {
    let state = std::env::temp_dir().join(format!("reference-server-fixtures-{}-state", std::process::id()));
    let _ = std::fs::remove_file(&state);
    let start = |fixture: PathBuf| {
        let clock = Some(now());
        start_with(Config {
            fixtures: Some(fixture),
            state: Some(state.clone()),
            admin: true,
            clock,
            ..Config::ephemeral()
        })
    };
    let first = start(EXAMPLE.into()).await;
    assert_eq!(first.get("/events").await.expect(200)["total"], 1);
    first.server.shutdown().await;

    let other =
        json!({"events": [{"ref": "other", "title": "Other", "start_date": "+1d 10:00", "end_date": "+1d 11:00"}]});
    let file = temp_file("other.json", &other.to_string());
    let second = start(file.path()).await;
    let titles = second.get("/events").await.expect(200)["events"].clone();
    assert_eq!(titles[0]["title"], "Opening Night", "the state file's store, not the new fixture's");
    admin(&second, Method::POST, "/reset").json(&json!({"to": "fixtures"})).send().await.expect(200);
    assert_eq!(second.get("/events").await.expect(200)["events"][0]["title"], "Other");
    second.server.shutdown().await;
    let _ = std::fs::remove_file(&state);
    let _ = std::fs::remove_file(format!("{}.lock", state.display()));
}

/// R13: a relative export keeps each publication date's distance to the clock, so loaded at
/// another hour on a later day, what was published is published still (not scheduled), and
/// what was scheduled is scheduled still.
#[tokio::test]
async fn r13_a_relative_export_keeps_published_items_published() {
    let srv =
        start_with(Config { admin: true, clock: Some("2026-12-07T15:00:00Z".parse().unwrap()), ..Config::ephemeral() })
            .await;
    let body =
        json!({"title": "Published now", "start_date": "2026-12-10 19:00:00", "end_date": "2026-12-10 21:00:00"});
    srv.post(Some("admin"), "/events", &body).await.expect(201);
    let later = json!({"title": "Scheduled", "start_date": "2026-12-11 19:00:00", "end_date": "2026-12-11 21:00:00",
        "status": "future", "date": "2026-12-07 18:00:00"});
    srv.post(Some("admin"), "/events", &later).await.expect(201);
    let exported = admin(&srv, Method::GET, "/export?dates=relative").send().await.expect(200).clone();
    let dates: Vec<&str> = exported["events"].as_array().unwrap().iter().map(|e| e["date"].as_str().unwrap()).collect();
    assert_eq!(dates, ["now", "now +0d 03:00:00"]);
    let file = temp_file("relative.json", &exported.to_string());
    let again = with_fixture(file.path(), "2026-12-20T09:00:00Z").await;
    let public = again.get("/events").await.expect(200).clone();
    let titles: Vec<&str> = public["events"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Published now"], "{public}");
    let all = again.get_as("admin", "/events?status=publish,future").await.expect(200).clone();
    let statuses: Vec<(&str, &str)> = all["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["title"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(statuses, [("Published now", "publish"), ("Scheduled", "future")]);
}

/// R14: refs are unique in each list whatever the slugs: when a slug, its `-LANG` and `-ID`
/// forms and `LIST-ID` are all taken, a number is added; the export loads.
#[tokio::test]
async fn r14_export_refs_are_unique() {
    let srv = start_with(Config { admin: true, ..config() }).await;
    let make = |slug: &str| json!({"title": slug, "slug": slug, "start_date": at(3, 10), "end_date": at(3, 11)});
    let first = srv.post(Some("admin"), "/events", &make("placeholder")).await.expect(201).clone();
    for slug in ["x", "x-fr"] {
        srv.post(Some("admin"), "/events", &make(slug)).await.expect(201);
    }
    let last = srv.post(Some("admin"), "/events", &make("placeholder-2")).await.expect(201).clone();
    let french_id = id(&last) + 1;
    srv.put(Some("admin"), &format!("/events/{}", id(&first)), &json!({"slug": format!("events-{french_id}")}))
        .await
        .expect(200);
    srv.put(Some("admin"), &format!("/events/{}", id(&last)), &json!({"slug": format!("x-{french_id}")}))
        .await
        .expect(200);
    let french = srv
        .raw(Method::POST, &format!("{}/fr/wp-json/calendar/events/v1/events", srv.site()))
        .user("admin")
        .json(&make("x"))
        .send()
        .await;
    assert_eq!(id(french.expect(201)), french_id, "the IDs as planned");
    let exported = admin(&srv, Method::GET, "/export").send().await.expect(200).clone();
    let refs: Vec<&str> = exported["events"].as_array().unwrap().iter().map(|e| e["ref"].as_str().unwrap()).collect();
    let unique: std::collections::HashSet<&&str> = refs.iter().collect();
    assert_eq!(unique.len(), refs.len(), "{refs:?}");
    let file = temp_file("refs.json", &exported.to_string());
    let again = with_fixture(file.path(), NOW).await;
    let reloaded = admin(&again, Method::GET, "/export").send().await.expect(200).clone();
    assert_eq!(reloaded["events"].as_array().map(Vec::len), Some(5));
}
