//! `conformance diff` against reference servers started in-process: two identical servers agree
//! on every exchange of the suite outside its generated text cases, and two servers started with different flags (a site
//! time zone on one side, no geolocation extension on the other) differ exactly where those
//! flags show, and nowhere else.
//!
//! Both servers and the cases share one fixed clock, so the comparison does not depend on the
//! time of day (an event "earlier today" crosses midnight in Paris at some hours of the day).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use reference_server::{Config, RunningServer};
use serde_json::Value;

const CLOCK: &str = "2026-03-10T12:00:00Z";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn start(runtime: &tokio::runtime::Runtime, configure: impl FnOnce(&mut Config)) -> RunningServer {
    let mut config = Config::ephemeral();
    config.clock = Some(CLOCK.parse().unwrap());
    configure(&mut config);
    runtime.block_on(reference_server::serve(config)).unwrap()
}

fn base(server: &RunningServer) -> String {
    server.base_url().trim_end_matches('/').to_string()
}

/// Runs `conformance diff` between the two servers with the five default users; the exit
/// status, standard output and the JSON report.
fn diff(a: &RunningServer, b: &RunningServer, json: &Path, extra: &[&str]) -> (i32, String, Value) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command.args(["diff", "--a", &base(a), "--b", &base(b), "--clock", CLOCK, "--color", "never"]);
    for user in reference_server::UserSpec::defaults() {
        command.arg("--auth").arg(format!("{}={}:{}", user.role.name(), user.name, user.password));
    }
    command.arg("--json").arg(json).args(extra);
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report = std::fs::read_to_string(json)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| panic!("no JSON report; stdout:\n{stdout}\nstderr:\n{stderr}"));
    (output.status.code().unwrap_or(-1), stdout, report)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conformance-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `ROUTE PATH (KIND)` of every finding.
fn findings(report: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for route in report["routes"].as_array().unwrap() {
        for finding in route["findings"].as_array().unwrap() {
            out.insert(format!(
                "{} {} ({})",
                route["route"].as_str().unwrap(),
                finding["path"].as_str().unwrap(),
                finding["kind"].as_str().unwrap()
            ));
        }
    }
    out
}

fn percent(report: &Value, aspect: &str) -> f64 {
    report["summary"][aspect]["percent"].as_f64().unwrap_or_else(|| panic!("no {aspect} in {}", report["summary"]))
}

#[test]
fn two_identical_servers_agree_on_every_exchange_outside_the_text_cases() {
    let runtime = runtime();
    let (a, b) = (start(&runtime, |_| {}), start(&runtime, |_| {}));
    let json = temp("same.json");
    // The two servers' clocks are the machine's, and B answers each request after A: on a
    // loaded machine (a debug build rendering a 2 MiB body) the same write was seen stamped 8 s
    // apart. That is not a difference between the implementations, so the tolerance is wide.
    // Outside the generated text cases (60 % of the requests, every one a create or a read of
    // the routes the other folders use); the next test compares the whole suite.
    let args = ["--fail-on-difference", "--clock-tolerance", "120", "--skip", "text/"];
    let (code, stdout, report) = diff(&a, &b, &json, &args);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(findings(&report), BTreeSet::new(), "{stdout}");
    for aspect in ["status", "code", "keys", "values", "headers"] {
        assert_eq!(percent(&report, aspect), 100.0, "{aspect}: {stdout}");
    }
    let exchanges = report["summary"]["exchanges"].as_u64().unwrap();
    assert!(exchanges > 4000, "the cases outside text/ send some 5000 requests, not {exchanges}");
    assert_eq!(report["summary"]["code"]["of"].as_u64().map(|n| n > 300), Some(true), "refusals are compared too");
    assert!(report["id_pairs"].as_array().unwrap().len() > 500, "the created objects' IDs were paired");
    // Besides the cases that need an empty store (these servers have no reset command), only
    // the cases that need a server without tickets or without geolocation are skipped.
    let skipped = report["cases"]["skipped"].as_array().unwrap();
    let others: Vec<&str> = skipped
        .iter()
        .map(|case| case["reason"].as_str().unwrap())
        .filter(|reason| !reason.contains("reset-command"))
        .collect();
    assert!(
        !others.is_empty() && others.iter().all(|reason| reason.contains("--without")),
        "only the cases that need a server without tickets or geolocation: {skipped:?}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("diff: status 100.0%, code 100.0%, keys 100.0%, values 100.0%, headers 100.0% over "),
        "{stdout}"
    );
}

/// The fixture's cases between a server in Europe/Paris and one without the geolocation
/// extension whose IDs are ahead (it allocated and trashed posts and a term before): the
/// differences are exactly the zone's and the extension's, and the IDs are paired.
#[test]
fn a_time_zone_and_a_missing_extension_show_exactly_where_they_should() {
    let runtime = runtime();
    let a = start(&runtime, |config| config.timezone = "Europe/Paris".into());
    let b = start(&runtime, |config| config.features.geoloc = false);
    shift_ids(&runtime, &b);
    let json = temp("fixture.json");
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/diff");
    let (code, stdout, report) = diff(&a, &b, &json, &["--cases", cases, "--fail-on-difference"]);
    assert_eq!(code, 1, "--fail-on-difference and differences: {stdout}");
    let found = findings(&report);
    let expected = expected();
    let missing: Vec<_> = expected.difference(&found).collect();
    let unexpected: Vec<_> = found.difference(&expected).collect();
    assert!(
        missing.is_empty() && unexpected.is_empty(),
        "missing: {missing:#?}\nunexpected: {unexpected:#?}\n{stdout}"
    );
    let pairs = report["id_pairs"].as_array().unwrap();
    let shifted =
        |space: &str, by: u64| pairs.iter().any(|p| p[0] == space && p[2].as_u64() == p[1].as_u64().map(|a| a + by));
    assert!(shifted("post", 2) && shifted("term", 1), "B's IDs are ahead, and paired: {pairs:?}");
    let summary = &report["summary"];
    assert_eq!(summary["exchanges"], 13, "every step and cleanup step of the three cases: {stdout}");
    assert_eq!((percent(&report, "status"), percent(&report, "code")), (100.0, 100.0), "{stdout}");
    assert_eq!(summary["values"]["agree"], 3, "the category, the 404 and the 403 are the same: {stdout}");
}

/// Over the whole suite, the same two servers differ only where the zone or the extension
/// shows (or the two clocks: the time of a write): every difference is of a zone-dependent field, of coordinates, of a list that a
/// geolocation filter (ignored without the extension) made longer, or of a venue create that
/// coordinates alone tell from an earlier one. The whole suite but the generated text cases
/// (`text/generated-…`: they sent most of the requests, and the written `text/` files, which
/// stay, cover the same routes and fields).
#[test]
fn over_the_whole_suite_every_difference_comes_from_the_zone_or_the_extension() {
    let runtime = runtime();
    let a = start(&runtime, |config| config.timezone = "Europe/Paris".into());
    let b = start(&runtime, |config| config.features.geoloc = false);
    let json = temp("suite.json");
    let (code, stdout, report) = diff(&a, &b, &json, &["--skip", "text/generated-"]);
    assert_eq!(code, 0, "differences are findings, not errors: {stdout}");
    let (mut zone, mut geo) = (0, 0);
    for exchange in report["exchanges"].as_array().unwrap() {
        let case = exchange["case"].as_str().unwrap();
        let route = exchange["route"].as_str().unwrap();
        for difference in exchange["differences"].as_array().unwrap() {
            let path = difference["path"].as_str().unwrap();
            let kind = difference["kind"].as_str().unwrap();
            let coordinates = path.contains("geo_lat") || path.contains("geo_lng");
            // A geolocation filter that B ignores: its list is longer.
            let filtered = route == "GET /events"
                && case.contains("geoloc")
                && (["$.total", "$.total_pages", "header x-tec-total", "header x-tec-totalpages"].contains(&path)
                    || (kind == "item" && path.starts_with("$.events[")));
            // Coordinates that B ignores do not tell two venues apart: a create finds the other.
            // (and its cleanup then deletes that venue twice).
            let matched =
                (route == "POST /venues" || route.starts_with("DELETE /venues")) && case.contains("coordinates");
            // The time of a write on each side's clock: within the comparison's tolerance of 5 s on
            // a quiet machine, further apart when the machine is loaded (seen: 7 s).
            let clock = path.ends_with("modified_utc") && kind == "value";
            if (zone_dependent(path) || clock) && kind == "value" {
                zone += 1;
            } else if coordinates || filtered || matched {
                geo += 1;
            } else {
                panic!("{case} {} {route}: {path} ({kind}): {difference}", exchange["step"]);
            }
        }
    }
    assert!(zone > 1000 && geo > 50, "both flags show: {zone} zone, {geo} geolocation differences");
    // Statuses and codes differ only where the loop above allowed it.
    assert!(percent(&report, "status") >= 99.5 && percent(&report, "code") >= 99.5, "{stdout}");
}

/// A field whose value depends on the site's time zone.
fn zone_dependent(path: &str) -> bool {
    let last = path.rsplit(['.', '[']).next().unwrap_or_default();
    let field = path.rsplit('.').nth(1).unwrap_or_default();
    [
        "date",
        "date_utc",
        "modified",
        "start_date",
        "end_date",
        "utc_start_date",
        "utc_end_date",
        "timezone",
        "timezone_abbr",
        "startDate",
        "endDate",
        "gmt_offset",
        "timezone_string",
    ]
    .contains(&last)
        || (field.ends_with("_date_details") && ["year", "month", "day", "hour"].contains(&last))
}

/// Makes B allocate two post IDs and one term ID that A does not (trashed at once).
fn shift_ids(runtime: &tokio::runtime::Runtime, server: &RunningServer) {
    let api = format!("{}/calendar/events/v1", base(server));
    runtime.block_on(async {
        let client = reqwest::Client::new();
        for (route, body) in [
            ("venues", r#"{"venue":"Shift one"}"#),
            ("venues", r#"{"venue":"Shift two"}"#),
            ("categories", r#"{"name":"Shift"}"#),
        ] {
            let created: Value = client
                .post(format!("{api}/{route}"))
                .basic_auth("admin", Some("admin-password"))
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let id = created["id"].as_u64().unwrap_or_else(|| panic!("{created}"));
            let deleted = client
                .delete(format!("{api}/{route}/{id}"))
                .basic_auth("admin", Some("admin-password"))
                .send()
                .await
                .unwrap();
            assert!(deleted.status().is_success());
        }
    });
}

#[test]
fn an_unreachable_side_is_a_usage_error() {
    let runtime = runtime();
    let a = start(&runtime, |_| {});
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["diff", "--a", &base(&a), "--b", "http://127.0.0.1:9/wp-json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: B (--b http://127.0.0.1:9/wp-json): pre-flight: cannot reach the implementation"),
        "{stderr}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_conformance")).args(["diff", "--a", &base(&a)]).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "--b is required");
}

/// Every difference of the fixture's cases between a server in Europe/Paris and one without the
/// geolocation extension, as `ROUTE PATH (KIND)`:
/// - every answer with an event or a venue: the publication dates in local time (`date`,
///   `modified`, the venue's inside the event too) and the coordinates (absent on B);
/// - an event given in local time: its zone (`timezone`, `timezone_abbr`) and its UTC dates;
///   a single read also has `json_ld`, whose dates carry the zone's offset (an event given in
///   UTC differs in its publication dates only);
/// - the namespace index: the venue routes' coordinate arguments;
/// - the list filtered by `geoloc=false`: A keeps no event (its venue has coordinates), B
///   ignores the filter and lists it.
fn expected() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |route: &str, paths: &[&str], kind: &str| {
        out.extend(paths.iter().map(|path| format!("{route} {path} ({kind})")));
    };
    let event_zone = [
        "$.date",
        "$.modified",
        "$.timezone",
        "$.timezone_abbr",
        "$.utc_start_date",
        "$.utc_start_date_details.hour",
        "$.utc_end_date",
        "$.utc_end_date_details.hour",
        "$.venue.date",
        "$.venue.modified",
    ];
    for route in ["POST /events", "GET /events/<id>", "POST /events/<id>", "DELETE /events/<id>"] {
        add(route, &event_zone, "value");
        add(route, &["$.venue.geo_lat", "$.venue.geo_lng"], "key");
    }
    add("GET /events/<id>", &["$.json_ld.startDate", "$.json_ld.endDate"], "value");
    for route in ["POST /venues", "DELETE /venues/<id>"] {
        add(route, &["$.date", "$.modified"], "value");
        add(route, &["$.geo_lat", "$.geo_lng"], "key");
    }
    for route in [r"/venues", r"/venues/(?P<id>\\d+)", r"/venues/by-slug/(?P<slug>[^/]+)"] {
        let args = format!("$.routes['/{{namespace}}{route}'].endpoints[*].args");
        add("GET /", &[&format!("{args}.geo_lat"), &format!("{args}.geo_lng")], "key");
    }
    add("GET /events", &["$.events[*]"], "item");
    add("GET /events", &["$.total", "$.total_pages"], "value");
    add("GET /events", &["header x-tec-total", "header x-tec-totalpages"], "header");
    out
}
