//! `conformance explore` against reference servers: a correct one (no difference over many
//! steps, for several seeds) and ones with a planted fault, each put in by a small HTTP layer in
//! front of a reference server (the server itself is not changed). Each fault must be found
//! within a bounded number of steps, shrunk to a case of at most 5 steps, and that case must fail
//! against the faulty server and pass against a correct one.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode};
use base64::Engine;
use serde_json::Value;

use crate::common;

/// A fault the layer plants.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    /// An event's `tags` keep only their first tag (create and update).
    TagsFirstOnly,
    /// An update of an event that sends `end_date` without `start_date` ignores it.
    LoneEndDateIgnored,
    /// A contributor's `status: publish` is honoured (the layer writes it as an editor).
    ContributorPublishes,
    /// A list with `include` also applies the default date window (no event that ended before today).
    IncludeAppliesDateWindow,
    /// A venue read answers 200 with a body that is not JSON (a hostile answer: nothing panics).
    VenueReadNotJson,
    /// No `geo_lat` or `geo_lng` in any answer: an implementation without the coordinates the
    /// reference server adds to venues (a may difference: reported, not failing).
    NoCoordinates,
    /// The events list's `tags` filter keeps only its first tag (a contradiction of the interface
    /// seen on a real site: "any one of" the tags).
    TagsFilterFirstOnly,
    /// An event write giving `venue` as a list (`[12]`, the interface's "array of integer") is
    /// refused (as a real site does: 400 `could-not-create-venue`).
    VenueListRefused,
    /// An update carrying `sticky: true` and a `date` stores the time of the update as the date
    /// (as a real site does to a draft).
    StickyDateTakesNow,
    /// An event update that leaves `sticky` out resets it to false, as real sites do: a
    /// difference the reference's decision D16 explains (may: reported, not stopping, not failing).
    StickyResetOnUpdate,
}

/// `value` without any `geo_lat` or `geo_lng` key, at any depth.
fn drop_coordinates(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("geo_lat");
            map.remove("geo_lng");
            map.values_mut().for_each(drop_coordinates);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_coordinates),
        _ => {}
    }
}

const USERS: [(&str, &str); 5] = [
    ("administrator", "admin"),
    ("editor", "editor"),
    ("author", "author"),
    ("contributor", "contributor"),
    ("subscriber", "subscriber"),
];

fn basic(user: &str) -> String {
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{user}:{user}-password")))
}

impl Fault {
    /// The request as the faulty implementation reads it.
    fn request(
        self,
        method: &str,
        path: &str,
        auth: Option<&str>,
        body: Option<Value>,
    ) -> (Option<String>, Option<Value>) {
        let auth = auth.map(str::to_string);
        let Some(Value::Object(mut body)) = body else { return (auth, body) };
        let event_write = path.contains("/events") && method != "GET" && method != "DELETE";
        let update = event_write && path.rsplit('/').next().is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()));
        match self {
            Fault::TagsFirstOnly if event_write => {
                if let Some(Value::Array(tags)) = body.get_mut("tags") {
                    tags.truncate(1);
                }
            }
            Fault::VenueListRefused if event_write && body.get("venue").is_some_and(Value::is_array) => {
                // Inline venue data without a name: the reference refuses it.
                body.insert("venue".into(), serde_json::json!({"venue": ""}));
            }
            Fault::StickyDateTakesNow
                if update && body.get("sticky") == Some(&Value::Bool(true)) && body.contains_key("date") =>
            {
                let now = chrono::Utc::now().format("%Y-%m-%d %H:%M:%S").to_string();
                body.insert("date".into(), Value::String(now));
            }
            Fault::StickyResetOnUpdate if update && !body.contains_key("sticky") => {
                body.insert("sticky".into(), Value::Bool(false));
            }
            Fault::LoneEndDateIgnored if update && !body.contains_key("start_date") => {
                body.remove("end_date");
            }
            Fault::ContributorPublishes
                if auth.as_deref() == Some(basic("contributor").as_str())
                    && body.get("status") == Some(&Value::from("publish")) =>
            {
                return (Some(basic("editor")), Some(Value::Object(body)));
            }
            _ => {}
        }
        (auth, Some(Value::Object(body)))
    }

    /// The path and query the faulty implementation reads.
    fn target(self, method: &str, target: &str) -> String {
        let Some((path, query)) = target.split_once('?') else { return target.to_string() };
        if self != Fault::TagsFilterFirstOnly || method != "GET" || !path.ends_with("/events") {
            return target.to_string();
        }
        let first_tag = |pair: &str| match pair.strip_prefix("tags=") {
            Some(tags) => format!("tags={}", tags.split("%2C").next().unwrap_or(tags)),
            None => pair.to_string(),
        };
        let pairs: Vec<String> = query.split('&').map(first_tag).collect();
        format!("{path}?{}", pairs.join("&"))
    }

    /// The answer as the faulty implementation gives it.
    fn answer(self, method: &str, path_and_query: &str, body: Vec<u8>) -> Vec<u8> {
        let venue_read = method == "GET" && path_and_query.contains("/venues/") && !path_and_query.contains('?');
        if self == Fault::VenueReadNotJson && venue_read {
            return b"<html>\x01 \xff not JSON {\"id\": ".to_vec();
        }
        if self == Fault::NoCoordinates {
            let Ok(mut json) = serde_json::from_slice::<Value>(&body) else { return body };
            drop_coordinates(&mut json);
            return serde_json::to_vec(&json).unwrap_or(body);
        }
        let list_with_include =
            method == "GET" && path_and_query.contains("/events?") && path_and_query.contains("include=");
        if self != Fault::IncludeAppliesDateWindow || !list_with_include {
            return body;
        }
        let Ok(mut json) = serde_json::from_slice::<Value>(&body) else { return body };
        let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
        if let Some(Value::Array(events)) = json.get_mut("events") {
            events.retain(|e| {
                e.get("end_date").and_then(Value::as_str).is_none_or(|end| end[..10.min(end.len())] >= *today)
            });
        }
        serde_json::to_vec(&json).unwrap_or(body)
    }
}

struct Layer {
    fault: Option<Fault>,
    upstream: String,
    client: reqwest::Client,
}

impl Layer {
    async fn handle(self: Arc<Self>, request: Request<Body>) -> Response<Body> {
        match self.forward(request).await {
            Ok(response) => response,
            Err(e) => Response::builder().status(502).body(Body::from(format!("the layer: {e}"))).unwrap(),
        }
    }

    async fn forward(&self, request: Request<Body>) -> Result<Response<Body>, String> {
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, 16 << 20).await.map_err(|e| e.to_string())?;
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
        let method = parts.method.as_str().to_string();
        let auth = parts.headers.get("authorization").and_then(|v| v.to_str().ok());
        let json = serde_json::from_slice::<Value>(&body).ok();
        let (auth, json) = match self.fault {
            Some(fault) => fault.request(&method, parts.uri.path(), auth, json),
            None => (auth.map(str::to_string), json),
        };
        let sent = self.fault.map_or(target.clone(), |fault| fault.target(&method, &target));
        let mut outgoing = self.client.request(parts.method.clone(), format!("{}{sent}", self.upstream));
        if let Some(auth) = auth {
            outgoing = outgoing.header("authorization", auth);
        }
        outgoing = match json {
            Some(json) => outgoing.header("content-type", "application/json").body(json.to_string()),
            None => outgoing.body(body),
        };
        let answer = outgoing.send().await.map_err(|e| e.to_string())?;
        let status = answer.status().as_u16();
        let content_type = answer.headers().get("content-type").cloned();
        let bytes = answer.bytes().await.map_err(|e| e.to_string())?.to_vec();
        let bytes = match self.fault {
            Some(fault) => fault.answer(&method, &target, bytes),
            None => bytes,
        };
        let mut response = Response::new(Body::from(bytes));
        *response.status_mut() = StatusCode::from_u16(status).map_err(|e| e.to_string())?;
        if let Some(content_type) = content_type {
            response.headers_mut().insert("content-type", content_type);
        }
        response.headers_mut().insert("x-layer", HeaderValue::from_static("1"));
        Ok(response)
    }
}

/// A reference server with the layer in front; both stop when it is dropped.
struct Stack {
    _runtime: tokio::runtime::Runtime,
    /// `{base_url}` through the layer.
    base_url: String,
    /// `{base_url}` of the reference server itself.
    direct: String,
}

fn stack(fault: Option<Fault>) -> Stack {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let proxy_addr = listener.local_addr().unwrap();
    let mut config = reference_server::Config::ephemeral();
    config.site_url = Some(format!("http://{proxy_addr}"));
    let server = runtime.block_on(reference_server::serve(config)).unwrap();
    let site = format!("http://{}", server.addr());
    std::mem::forget(server); // serves until the runtime is dropped
    let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().unwrap();
    let layer = Arc::new(Layer { fault, upstream: site.clone(), client });
    let app = axum::Router::new().fallback(move |request: Request<Body>| layer.clone().handle(request));
    runtime.spawn(async move { axum::serve(listener, app).await });
    Stack { _runtime: runtime, base_url: format!("http://{proxy_addr}/wp-json"), direct: format!("{site}/wp-json") }
}

fn auth_args() -> Vec<String> {
    USERS.iter().flat_map(|(role, user)| ["--auth".to_string(), format!("{role}={user}:{user}-password")]).collect()
}

/// Runs `conformance explore` against `base_url`: its exit status and output.
fn explore(base_url: &str, seed: u64, steps: u64, out: &Path) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["explore", "--base-url", base_url, "--seed", &seed.to_string(), "--steps", &steps.to_string()])
        .args(auth_args())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    (output.status.code().unwrap_or(-1), format!("{stdout}{}", String::from_utf8_lossy(&output.stderr)))
}

/// Runs the case files of `dir` against `base_url`: the runner's exit status.
fn replay(dir: &Path, base_url: &str) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .arg("--cases")
        .arg(dir)
        .args(["--base-url", base_url])
        .args(auth_args())
        .output()
        .unwrap();
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stdout).to_string())
}

/// Whether `line` holds a date written out (`2026-08-13`; the CMS's `0000-00-00` of an
/// unpublished item is no day).
fn has_a_date(line: &str) -> bool {
    let line = line.replace("0000-00-00", "");
    let bytes = line.as_bytes();
    let digits = |from: usize, n: usize| bytes[from..from + n].iter().all(u8::is_ascii_digit);
    (0..bytes.len().saturating_sub(9))
        .any(|i| digits(i, 4) && bytes[i + 4] == b'-' && digits(i + 5, 2) && bytes[i + 7] == b'-' && digits(i + 8, 2))
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> Option<usize> {
    let at = text.find(prefix)? + prefix.len();
    text[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

#[test]
fn a_correct_server_shows_no_difference() {
    let out = common::temp("explore-correct");
    let out_arg = out.to_str().unwrap();
    // 6,000 steps over four seeds, side by side, both sides embedded (the layer of the fault
    // tests costs a third of the speed; scripts/explore-bench.sh, which CI also runs, does
    // 20,000 for each of three seeds)...
    std::thread::scope(|scope| {
        let runs: Vec<_> = ["1", "2", "3", "4"]
            .map(|seed| {
                scope.spawn(move || (seed, explore_embedded(&["--seed", seed, "--steps", "1500", "--out", out_arg])))
            })
            .into_iter()
            .collect();
        for run in runs {
            let (seed, (code, output, _)) = run.join().expect("a run");
            assert_eq!(code, 0, "seed {seed}:\n{output}");
            assert!(output.contains("1500 steps in"), "{output}");
        }
    });
    // ...and the layer without a fault, in front of a separate server, changes nothing.
    let stack = stack(None);
    let (code, output) = explore(&stack.base_url, 1, 300, &out);
    assert_eq!(code, 0, "through the layer:\n{output}");
    assert!(output.contains("300 steps in"), "{output}");
    assert_eq!(std::fs::read_dir(&*out).unwrap().count(), 0, "no case written");
}

fn finds(fault: Fault, seed: u64, max_steps: u64) {
    let stack = stack(Some(fault));
    let out = common::temp(&format!("explore-{fault:?}"));
    let (code, output) = explore(&stack.base_url, seed, max_steps, &out);
    assert_eq!(code, 1, "{fault:?} not found in {max_steps} steps:\n{output}");
    // The first must or should difference (may ones may come before it).
    let line = output.lines().find(|l| l.contains(" (should): ") || l.contains(" (must): ")).unwrap();
    let found_at = number_after(line, "difference at step ").unwrap();
    let shrunk = number_after(&output, " steps to ").unwrap();
    eprintln!("{fault:?}: found at step {found_at}, shrunk to {shrunk} steps\n{output}");
    assert!(shrunk <= 5, "{fault:?}: shrunk to {shrunk} steps:\n{output}");
    assert!(!output.contains("-password"), "no password is printed:\n{output}");
    let problems = crate::spec_refs::case_file_problems(&out);
    assert!(problems.is_empty(), "the case follows the rules of case files:\n{}", problems.join("\n"));
    for file in std::fs::read_dir(&*out).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(!text.contains("-password") && !text.contains("admin:"), "no credentials in the case:\n{text}");
        let steps = text.lines().filter(|l| !l.starts_with('#'));
        assert!(!steps.clone().any(has_a_date), "dates are templates, so the case replays another day:\n{text}");
        // CONFORMANCE_EXPLORE_EXAMPLES=DIR keeps the case (docs/explore-examples/ holds those of seed 1).
        if let Some(dir) = std::env::var_os("CONFORMANCE_EXPLORE_EXAMPLES") {
            std::fs::write(Path::new(&dir).join(format!("{fault:?}.yaml")), &text).unwrap();
        }
    }
    let (code, report) = replay(&out, &stack.base_url);
    assert_eq!(code, 101, "the case fails against the faulty server:\n{output}\n{report}");
    let (code, report) = replay(&out, &stack.direct);
    assert_eq!(code, 0, "the case passes against a correct server:\n{output}\n{report}");
}

/// `conformance explore` against `base_url` with every role's credentials, `args` and `--out`:
/// its exit code and standard output.
fn explore_with(base_url: &str, args: &[&str], out: &Path) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["explore", "--base-url", base_url])
        .args(args)
        .args(auth_args())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

/// `--no-shrink`: the site's time goes to exploring; the raw sequence up to the difference is
/// written, and it replays (fails on the faulty server, passes on a correct one).
#[test]
fn no_shrink_writes_the_raw_sequence_and_it_replays() {
    let stack = stack(Some(Fault::LoneEndDateIgnored));
    let out = common::temp("explore-no-shrink");
    let (code, stdout) = explore_with(&stack.base_url, &["--steps", "2000", "--no-shrink"], &out);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("not shrunk (--no-shrink)") && !stdout.contains("shrunk from"), "{stdout}");
    assert!(stdout.contains("1 of 1 distinct difference(s) not shrunk"), "{stdout}");
    let line = stdout.lines().find(|l| l.contains(" (should): ") || l.contains(" (must): ")).unwrap();
    let found_at = number_after(line, "difference at step ").unwrap();
    let files: Vec<_> = std::fs::read_dir(&*out).unwrap().map(|f| f.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{stdout}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(text.matches("- request: ").count(), found_at, "every step up to the difference:\n{text}");
    let (code, report) = replay(&out, &stack.base_url);
    assert_eq!(code, 101, "the raw case fails against the faulty server:\n{report}");
    let (code, report) = replay(&out, &stack.direct);
    assert_eq!(code, 0, "the raw case passes against a correct server:\n{report}");
}

#[test]
fn tags_keeping_only_their_first_is_found() {
    finds(Fault::TagsFirstOnly, 1, 3000);
}

#[test]
fn keep_going_shrinks_each_distinct_difference_once_and_summarises() {
    let stack = stack(Some(Fault::TagsFirstOnly));
    let out = common::temp("explore-keep-going");
    let args = ["--steps", "300", "--keep-going", "--shrink-budget", "1000", "--shrink-time", "1s"];
    let (code, stdout) = explore_with(&stack.base_url, &args, &out);
    assert_eq!(code, Some(1), "the differences fail the run:\n{stdout}");
    assert!(stdout.contains("300 steps in"), "it went on to the end:\n{stdout}");
    assert!(stdout.contains("steps/s exploring") && stdout.contains("s of shrinking"), "{stdout}");
    let distinct = number_after(&stdout, "distinct differences (").unwrap();
    let total = stdout.split("; ").last().and_then(|t| t.split(' ').next()?.parse::<usize>().ok()).unwrap();
    assert!(distinct >= 2 && total > distinct, "{total} differences, {distinct} distinct:\n{stdout}");
    // Each distinct difference is printed once, then shrunk (or reported not shrunk) once the
    // exploring ends...
    let printed = stdout.matches(" (should): ").count() + stdout.matches(" (must): ").count();
    assert_eq!(printed, distinct, "{stdout}");
    let (shrunk, not_shrunk) = (stdout.matches("shrunk from ").count(), stdout.matches("  not shrunk (").count());
    assert_eq!(shrunk + not_shrunk, distinct, "{stdout}");
    let last_found = stdout.rfind(" (should): ").max(stdout.rfind(" (must): ")).unwrap();
    assert!(stdout.find("shrunk ").unwrap() > last_found, "shrinking waits for the end:\n{stdout}");
    if not_shrunk > 0 {
        assert!(stdout.contains(&format!("{not_shrunk} of {distinct} distinct difference(s) not shrunk")), "{stdout}");
    }
    // ...and the summary names each case; each is written, shrunk or raw.
    let summary = stdout.split("distinct differences").nth(1).unwrap();
    assert_eq!(summary.matches("\n  should ").count() + summary.matches("\n  must ").count(), distinct, "{stdout}");
    let written = summary.matches("written to ").count();
    assert_eq!(std::fs::read_dir(&*out).unwrap().count(), written, "a case per difference:\n{stdout}");
    assert_eq!(written, distinct, "{stdout}");
}

#[test]
fn a_lone_end_date_ignored_on_update_is_found() {
    finds(Fault::LoneEndDateIgnored, 1, 3000);
}

#[test]
fn a_contributor_able_to_publish_is_found() {
    finds(Fault::ContributorPublishes, 1, 3000);
}

#[test]
fn an_answer_that_is_not_json_is_found() {
    finds(Fault::VenueReadNotJson, 1, 3000);
}

#[test]
fn a_field_of_the_reference_server_alone_is_reported_at_may_level() {
    let stack = stack(Some(Fault::NoCoordinates));
    let out = common::temp("explore-may");
    let (code, output) = explore(&stack.base_url, 1, 300, &out);
    assert_eq!(code, 0, "a may difference does not fail:\n{output}");
    assert!(output.contains("(may, D27)") && output.contains("geo_l"), "{output}");
    let may = output.split("must or should level, ").nth(1).and_then(|t| t.split(' ').next()?.parse::<usize>().ok());
    assert!(may.is_some_and(|n| n > 5), "{output}");
    assert_eq!(output.matches("difference at step").count(), 5, "the first 5 are printed:\n{output}");
    assert_eq!(std::fs::read_dir(&*out).unwrap().count(), 0, "no case written");
}

#[test]
fn a_difference_one_of_the_references_decisions_explains_is_may() {
    let stack = stack(Some(Fault::StickyResetOnUpdate));
    let out = common::temp("explore-decision");
    let (code, output) = explore(&stack.base_url, 1, 1500, &out);
    assert_eq!(code, 0, "a difference of a D decision does not fail:\n{output}");
    assert!(output.contains("1500 steps in"), "nor stop the run:\n{output}");
    assert!(output.contains("(may, D16)") && output.contains("sticky"), "{output}");
    // The update's answer, and the later reads and lists of that event, all at may level.
    let may = output.split("must or should level, ").nth(1).and_then(|t| t.split(' ').next()?.parse::<usize>().ok());
    assert!(may.is_some_and(|n| n > 5), "{output}");
    assert!(!output.contains("(should") && !output.contains("(must"), "{output}");
    assert_eq!(std::fs::read_dir(&*out).unwrap().count(), 0, "no case written");
}

#[test]
fn the_tags_filter_keeping_only_its_first_tag_is_found() {
    finds(Fault::TagsFilterFirstOnly, 1, 5000);
}

#[test]
fn a_venue_given_as_a_list_refused_is_found() {
    finds(Fault::VenueListRefused, 1, 3000);
}

#[test]
fn a_date_replaced_by_the_time_of_a_sticky_update_is_found() {
    finds(Fault::StickyDateTakesNow, 1, 5000);
}

#[test]
fn include_applying_the_date_window_is_found() {
    finds(Fault::IncludeAppliesDateWindow, 1, 3000);
}

/// `conformance explore` with both sides embedded (no `--base-url`): its exit status, stdout
/// and how long it took.
fn explore_embedded(args: &[&str]) -> (i32, String, Duration) {
    let start = std::time::Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_conformance")).arg("explore").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    (output.status.code().unwrap_or(-1), stdout, start.elapsed())
}

#[test]
fn the_same_seed_gives_the_same_run_and_the_bounds_hold() {
    // What the reference answered, step class by step class, is the same for the same seed.
    let answered = |stdout: &str| stdout.split("the reference answered").nth(1).map(str::to_string);
    let (code, first, _) = explore_embedded(&["--seed", "5", "--steps", "300"]);
    assert_eq!(code, 0, "{first}");
    assert!(first.contains("300 steps in"), "{first}");
    let (_, second, _) = explore_embedded(&["--seed", "5", "--steps", "300"]);
    let (_, other, _) = explore_embedded(&["--seed", "6", "--steps", "300"]);
    assert_eq!(answered(&first), answered(&second));
    assert_ne!(answered(&first), answered(&other), "{first}{other}");
    // --time stops a run that --steps would not.
    let (code, timed, took) = explore_embedded(&["--time", "1s", "--steps", "100000000"]);
    assert_eq!(code, 0, "{timed}");
    assert!(took < Duration::from_secs(30) && !timed.contains("100000000 steps"), "{timed}");
    // --rate caps the steps per second.
    let (_, _, took) = explore_embedded(&["--rate", "40", "--steps", "40"]);
    assert!(took >= Duration::from_millis(950), "40 steps at 40/s took {took:?}");
    // Credentials from the environment, as for a run: a wrong one fails pre-flight, and what
    // is printed does not hold its password.
    let stack = stack(None);
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["explore", "--base-url", &stack.base_url, "--steps", "1"])
        .env("CONFORMANCE_AUTH_EDITOR", "editor:not-the-s3cret")
        .output()
        .unwrap();
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(2), "{printed}");
    assert!(printed.contains("editor") && !printed.contains("s3cret"), "{printed}");
    let (code, _, _) = explore_embedded(&["--time", "soon"]);
    assert_eq!(code, 2);
    let (code, _, _) =
        explore_embedded(&["--base-url", "http://127.0.0.1:9/wp-json", "--steps", "1", "--timeout", "2"]);
    assert_eq!(code, 2, "an implementation that does not answer fails pre-flight");
}
