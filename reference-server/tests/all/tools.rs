//! What the developer tools promise, pinned: the calendars of `--demo` and `--seed-events`
//! as a client sees them through the list routes, and the request log line of the server and
//! of the checking proxy. (The journal's hints, the fault rules' draw and the connection
//! timeouts are pinned next to their code and in `transport`.)
//!
//! A calendar's fingerprint is one line per item, in a file under `tests/golden/`: a few fields
//! to read, then a hash of everything the list routes show of the item (so that event lengths,
//! descriptions, venues, phones, categories... all count). What depends on the moment the
//! calendar was built is normalised first: the site's address, and the publication times,
//! which are written as their distance from the earliest of them (that one in hours from the clock,
//! rounded). The start and end times need nothing: they are days after the clock's date at
//! given times of day. After a deliberate change of a calendar, write the files anew with
//! `GOLDEN=write cargo test -p reference-server --test all tools::` and review their diff.

use crate::common;

use std::sync::Arc;

use chrono::NaiveDateTime;
use common::*;
use parking_lot::Mutex;
use reference_server::Config;
use reqwest::Method;
use serde_json::{json, Value};

/// The publication times of an item, which follow the moment the calendar was built.
const PUBLISHED: [&str; 4] = ["date", "date_utc", "modified", "modified_utc"];

/// 64-bit FNV-1a: a hash that does not change with the Rust version.
fn fnv(text: &str) -> String {
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

/// Every item of a list route, page after page, in each language of `langs`; the language
/// of the list each came from goes into the item, as `"listed in"`.
async fn every(srv: &Srv, path: &str, key: &str, langs: &[&str]) -> Vec<Value> {
    let mut items = Vec::new();
    for lang in langs {
        for page in 1.. {
            let separator = if path.contains('?') { '&' } else { '?' };
            let url = format!("{path}{separator}per_page=50&page={page}&multilingual_language={lang}");
            let resp = srv.get_as("admin", &url).await;
            let body = resp.expect(200);
            let found = body[key].as_array().cloned().unwrap_or_default();
            items.extend(found.into_iter().map(|mut item| {
                item["listed in"] = json!(lang);
                item
            }));
            if body["next_rest_url"].is_null() || body["next_rest_url"].as_str().is_some_and(str::is_empty) {
                break;
            }
        }
    }
    items
}

fn parse_time(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok()
}

/// The items with the site's address and the publication times normalised (see the module's
/// comment), each as a JSON text.
fn normalised(srv: &Srv, items: &[Value]) -> Vec<Value> {
    let times: Vec<NaiveDateTime> = items
        .iter()
        .flat_map(|item| PUBLISHED.iter().filter_map(|key| item.get(*key).and_then(Value::as_str)))
        .filter_map(parse_time)
        .collect();
    let earliest = times.iter().min().copied();
    let site = srv.site().to_string();
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            for key in PUBLISHED {
                if let (Some(at), Some(earliest)) =
                    (item.get(key).and_then(Value::as_str).and_then(parse_time), earliest)
                {
                    item[key] = json!(format!("+{}s", (at - earliest).num_seconds()));
                }
            }
            serde_json::from_str(&item.to_string().replace(&site, "{site}")).expect("JSON")
        })
        .chain(earliest.map(|earliest| {
            let clock = now().naive_utc();
            // To the nearest hour: the calendar was built a moment after the clock started (the
            // seeded calendar's earliest times lie over two minutes from a half hour).
            let seconds = (earliest - clock).num_seconds();
            json!({"earliest publication, hours from the clock": (seconds + 1800).div_euclid(3600)})
        }))
        .collect()
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    }
}

/// Names of a list of objects (`categories`, `organizer`...), by the key they carry.
fn names(value: &Value, key: &str) -> String {
    match value {
        Value::Array(items) => items.iter().map(|item| text(&item[key])).collect::<Vec<_>>().join(", "),
        Value::Object(_) => text(&value[key]),
        _ => "-".to_string(),
    }
}

/// One line per item: the fields to read, then the hash of the whole item.
fn line(kind: &str, item: &Value) -> String {
    let shown = match kind {
        "event" => {
            let length = match (
                item["utc_start_date"].as_str().and_then(parse_time),
                item["utc_end_date"].as_str().and_then(parse_time),
            ) {
                (Some(start), Some(end)) => format!("{}min", (end - start).num_minutes()),
                _ => "?".to_string(),
            };
            format!(
                "{} [{}] {} | {} ({}, {}{}) | venue: {} | organizers: {} | categories: {} | tags: {} | cost: {}",
                item["id"],
                text(&item["listed in"]),
                text(&item["title"]),
                text(&item["start_date"]),
                length,
                text(&item["timezone"]),
                if item["all_day"] == true { ", all day" } else { "" },
                names(&item["venue"], "venue"),
                names(&item["organizer"], "organizer"),
                names(&item["categories"], "slug"),
                names(&item["tags"], "slug"),
                text(&item["cost"]),
            )
        }
        "venue" => format!(
            "{} {} | {}, {} | phone: {}",
            item["id"],
            text(&item["venue"]),
            text(&item["city"]),
            text(&item["country"]),
            text(&item["phone"])
        ),
        "organizer" => format!(
            "{} {} | phone: {} | email: {}",
            item["id"],
            text(&item["organizer"]),
            text(&item["phone"]),
            text(&item["email"])
        ),
        _ => format!("{} {} | parent {} | {} event(s)", item["id"], text(&item["slug"]), item["parent"], item["count"]),
    };
    format!("{kind} {shown} #{}", fnv(&item.to_string()))
}

/// The fingerprint of what a client sees of the calendar in `srv`.
async fn fingerprint(srv: &Srv) -> String {
    let mut lines = Vec::new();
    let window = "start_date=1970-01-01&end_date=2100-01-01&status=publish";
    let every_lang: &[&str] = &["en", "fr", "de", "es"];
    let lists = [
        ("event", format!("/events?{window}"), "events", every_lang),
        ("venue", "/venues".to_string(), "venues", &["en"]),
        ("organizer", "/organizers".to_string(), "organizers", &["en"]),
        ("category", "/categories?hide_empty=false".to_string(), "categories", every_lang),
        ("tag", "/tags?hide_empty=false".to_string(), "tags", every_lang),
    ];
    for (kind, path, key, langs) in lists {
        let items = every(srv, &path, key, langs).await;
        assert!(!items.is_empty(), "no {key}");
        let items = normalised(srv, &items);
        for item in &items {
            if item.get("id").is_some() {
                lines.push(line(kind, item));
            } else {
                lines.push(format!("{kind} {item}"));
            }
        }
    }
    lines.join("\n") + "\n"
}

/// Compares `actual` with the golden file `name`, or writes it with `GOLDEN=write`.
fn assert_golden(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var("GOLDEN").as_deref() == Ok("write") {
        std::fs::write(&path, actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    if expected != actual {
        let changed: Vec<String> = expected
            .lines()
            .zip(actual.lines())
            .filter(|(want, got)| want != got)
            .take(5)
            .map(|(want, got)| format!("- {want}\n+ {got}"))
            .collect();
        panic!(
            "{name} differs ({} lines expected, {} seen); first changes:\n{}",
            expected.lines().count(),
            actual.lines().count(),
            changed.join("\n")
        );
    }
}

#[tokio::test]
async fn the_demo_calendar_is_what_it_was() {
    let srv = start_with(Config { demo: true, ..config() }).await;
    assert_golden("demo-calendar.txt", &fingerprint(&srv).await);
}

#[tokio::test]
async fn the_seeded_calendar_is_what_it_was() {
    let srv = start_with(Config { seed_events: 150, ..config() }).await;
    assert_golden("seeded-calendar.txt", &fingerprint(&srv).await);
}

/// A larger seeded calendar, where even the draws of one in a thousand occur (the few events
/// whose shape sits on a boundary of the generator's choices): only the count of each kind of
/// item and one hash of them all, in `seeded-calendar-2500.txt`.
#[tokio::test]
async fn the_large_seeded_calendar_is_what_it_was() {
    let srv = start_with(Config { seed_events: 2500, ..config() }).await;
    let fingerprint = fingerprint(&srv).await;
    let mut counts = std::collections::BTreeMap::new();
    for line in fingerprint.lines() {
        *counts.entry(line.split(' ').next().unwrap_or("")).or_insert(0) += 1;
    }
    let summary = format!("{counts:?}\nhash of every line: {}\n", fnv(&fingerprint));
    assert_golden("seeded-calendar-2500.txt", &summary);
}

// ----- The request log line -----

thread_local! {
    /// Where the request log lines logged on this thread go, while a test captures them.
    static CAPTURE: std::cell::RefCell<Option<Arc<Mutex<Vec<u8>>>>> = const { std::cell::RefCell::new(None) };
}

/// The writer of the one global subscriber: into the capture of the thread that logs, if any.
/// (A global subscriber, set once, rather than one per test: tracing caches per call site
/// whether anyone listens, and scoped subscribers on several threads make that cache race.)
struct ThreadWriter;

impl std::io::Write for ThreadWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURE.with(|capture| {
            if let Some(buffer) = capture.borrow().as_ref() {
                buffer.lock().extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The request log lines of this thread (the test's runtime, which runs the servers' tasks
/// too), without time or level, until dropped.
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    fn start() -> Captured {
        static GLOBAL: std::sync::Once = std::sync::Once::new();
        GLOBAL.call_once(|| {
            let subscriber = tracing_subscriber::fmt()
                .with_env_filter(tracing_subscriber::EnvFilter::new("reference_server::request=info"))
                .with_writer(|| ThreadWriter)
                .with_ansi(false)
                .without_time()
                .with_level(false)
                .with_target(false)
                .finish();
            tracing::subscriber::set_global_default(subscriber).expect("no other global subscriber");
        });
        let buffer = Arc::new(Mutex::new(Vec::new()));
        CAPTURE.with(|capture| *capture.borrow_mut() = Some(buffer.clone()));
        Captured(buffer)
    }

    /// The lines so far, with each line's duration (its fourth word) replaced by `<time>`.
    fn lines(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.0.lock()).to_string();
        text.lines()
            .map(|line| {
                let mut words: Vec<&str> = line.splitn(5, ' ').collect();
                if words.len() >= 4 {
                    words[3] = "<time>";
                }
                words.join(" ")
            })
            .collect()
    }
}

impl Drop for Captured {
    fn drop(&mut self) {
        CAPTURE.with(|capture| *capture.borrow_mut() = None);
    }
}

#[tokio::test]
async fn the_request_log_line() {
    let srv = start_with(Config {
        admin: true,
        faults: vec![reference_server::FaultRule::from_flag("error,status=503,route=/venues").expect("a rule")],
        ..config()
    })
    .await;
    let captured = Captured::start();
    srv.get("/events?search=jazz&password=hunter2").await.expect(200);
    srv.get("/venues").await;
    srv.site_req(Method::GET, "/__admin/requests").send().await.expect(200);
    assert_eq!(
        captured.lines(),
        [
            "GET /wp-json/calendar/events/v1/events?search=jazz&password=[redacted] 200 <time>",
            "GET /wp-json/calendar/events/v1/venues 503 <time> [fault: rule 1: error 503 before handling]",
            "GET /__admin/requests 200 <time>",
        ]
    );
}

#[tokio::test]
async fn the_proxy_s_log_line() {
    let site = start().await;
    let proxy =
        start_with(Config { proxy_to: Some(site.server.base_url().to_string()), admin: true, ..config() }).await;
    let captured = Captured::start();
    proxy.get("/events").await.expect(200);
    proxy.get("/events?star_date=2030-01-01&password=hunter2").await.expect(200);
    proxy.get("/event").await;
    proxy.req(Method::GET, "/venues").user("editor").send().await.expect(200);
    assert_eq!(
        captured.lines(),
        [
            // The site's own line, then the proxy's.
            "GET /wp-json/calendar/events/v1/events 200 <time>",
            "GET /wp-json/calendar/events/v1/events 200 <time> [proxy]",
            "GET /wp-json/calendar/events/v1/events?star_date=2030-01-01&password=[redacted] 200 <time>",
            "GET /wp-json/calendar/events/v1/events?star_date=2030-01-01&password=[redacted] 200 <time> [proxy: 2 finding(s): unknown parameter \"star_date\": GET /events takes no such parameter (a site ignores it)]",
            "GET /wp-json/calendar/events/v1/event 404 <time>",
            "GET /wp-json/calendar/events/v1/event 404 <time> [proxy: 1 finding(s): no route GET /event]",
            "GET /wp-json/calendar/events/v1/venues 200 <time>",
            "GET /wp-json/calendar/events/v1/venues 200 <time> [proxy]",
        ]
    );
    // The journal names the user whose credentials went through, and no user for the others.
    let journal = proxy.site_req(Method::GET, "/__admin/requests").send().await.expect(200).clone();
    let users: Vec<&Value> =
        journal["requests"].as_array().expect("entries").iter().map(|entry| &entry["user"]).collect();
    assert_eq!(users, [&Value::Null, &Value::Null, &Value::Null, &json!("editor")], "{journal}");
    // Each entry has the time its request came, in UTC to the millisecond.
    for entry in journal["requests"].as_array().expect("entries") {
        let time = entry["time"].as_str().unwrap_or_default();
        let parsed = chrono::DateTime::parse_from_rfc3339(time).map(|t| t.with_timezone(&chrono::Utc));
        let age = parsed.map(|t| chrono::Utc::now() - t).unwrap_or(chrono::TimeDelta::MAX);
        assert!(time.ends_with('Z') && time.len() == 24 && age < chrono::TimeDelta::hours(1), "{entry}");
    }
}
