//! Checks on the JSON report of a whole-suite run against the embedded reference server. The
//! default-names run is made once and shared by the tests of this file (`cargo test` already
//! runs the suite once more in `tests/suite.rs`; each full run costs CI time):
//! - every answer the suite's cases receive conforms to the schema that `/doc` gives for its
//!   path, method and status: the document describes what the server really sends;
//! - the suite gives every case the same outcome when the server and the runner use other
//!   names (`--namespace tribe/events/v1 --language-param wpml_language`, the real plugin's):
//!   no case hard-codes the namespace or the language parameter.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use reference_server::interface::match_route;
use reference_server::openapi_check::{response_schema, violations};
use serde_json::Value;

/// The namespace prefix of the embedded servers' addresses.
const PREFIX: &str = "/wp-json/calendar/events/v1";

/// Runs the whole suite with `extra` options; returns the exit status and the JSON report.
fn run_suite(label: &str, extra: &[&str]) -> (i32, Value) {
    let report_path = std::env::temp_dir().join(format!("conformance-{label}-{}.json", std::process::id()));
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let mut args = vec!["conformance", "--quiet", "--json", report_path.to_str().expect("temp path")];
    args.extend(extra);
    let status = conformance::app::run(args.iter().map(Into::into).collect(), cases);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report_path).expect("report")).expect("JSON");
    let _ = std::fs::remove_file(&report_path);
    (status, report)
}

/// The run under the default names, made once.
fn default_run() -> &'static (i32, Value) {
    static RUN: OnceLock<(i32, Value)> = OnceLock::new();
    RUN.get_or_init(|| run_suite("default", &[]))
}

/// Each case's outcome (`passed`, `failed`, `error`, `skipped`) with its reason, by name.
fn outcomes(report: &Value) -> BTreeMap<String, (String, String)> {
    let cases = report["cases"].as_array().expect("cases");
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    cases.iter().map(|c| (text(&c["name"]), (text(&c["outcome"]), text(&c["reason"])))).collect()
}

#[test]
fn every_case_has_the_same_outcome_under_other_names() {
    let renamed = ["--namespace", "tribe/events/v1", "--language-param", "wpml_language"];
    let (_, report) = run_suite("renamed", &renamed);
    let renamed = outcomes(&report);
    let default = outcomes(&default_run().1);
    assert!(default.len() > 400, "only {} cases ran", default.len());
    let mut differences = Vec::new();
    for name in default.keys().chain(renamed.keys().filter(|n| !default.contains_key(*n))) {
        let (a, b) = (default.get(name), renamed.get(name));
        if a.map(|o| &o.0) != b.map(|o| &o.0) {
            let show = |o: Option<&(String, String)>| o.map_or("absent".to_string(), |(outcome, _)| outcome.clone());
            differences.push(format!(
                "{name}: {} with the default names, {} with tribe/events/v1 and wpml_language",
                show(a),
                show(b)
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} cases fare differently under other names (a case hard-codes the namespace or the language parameter: use {{{{namespace}}}} and {{{{language_param}}}}):\n{}",
        differences.len(),
        differences[..differences.len().min(30)].join("\n")
    );
}

#[test]
fn every_answer_of_the_suite_conforms_to_the_document() {
    let (status, report) = default_run();
    assert_eq!(*status, 0, "the suite must pass before its answers are checked");
    let doc = fetch_doc();

    let mut checked = 0;
    let mut problems = Vec::new();
    for case in report["cases"].as_array().expect("cases") {
        let steps = case["steps"].as_array().into_iter().chain(case["cleanup"].as_array()).flatten();
        for step in steps {
            let Some((template, method, status, body)) = documented_exchange(step) else { continue };
            match response_schema(&doc, &template, &method, status) {
                Ok(schema) => {
                    checked += 1;
                    for violation in violations(&doc, schema, &body) {
                        problems.push(format!("{}: {method} {template} {status}: {violation}", case["name"]));
                    }
                }
                Err(message) => problems.push(format!("{}: {message}", case["name"])),
            }
        }
    }
    assert!(checked > 1000, "only {checked} answers were checked");
    assert!(
        problems.is_empty(),
        "{} answers do not conform to /doc:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
}

/// The document's path template, method, status and JSON body of a step, when the step went to
/// an operation of the namespace under its own method and got a JSON answer.
fn documented_exchange(step: &Value) -> Option<(String, String, u16, Value)> {
    let request = step.get("request")?;
    let method = request["method"].as_str()?.to_ascii_uppercase();
    let url = request["url"].as_str()?;
    let overridden = url.contains("_method=")
        || request["headers"].as_array().is_some_and(|headers| {
            headers.iter().any(|h| h[0].as_str().is_some_and(|n| n.eq_ignore_ascii_case("x-http-method-override")))
        });
    if overridden || !matches!(method.as_str(), "GET" | "POST" | "PUT" | "PATCH" | "DELETE") {
        return None;
    }
    let after = &url[url.find(PREFIX)? + PREFIX.len()..];
    let path = after.split(['?', '#']).next().unwrap_or("").trim_end_matches('/');
    let (route, _) = match_route(path)?;
    // A method the route does not have is `rest_no_route`, which no operation documents.
    reference_server::interface::Method::parse(&method).and_then(|m| route.op(m))?;
    let template = if route.path.is_empty() { "/".to_string() } else { route.openapi_path() };
    let status = u16::try_from(step["status"].as_u64()?).ok()?;
    let body: Value = serde_json::from_str(step["body"].as_str()?).ok()?;
    Some((template, method, status, body))
}

/// `/doc` from a fresh embedded server.
fn fetch_doc() -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let server = reference_server::serve(reference_server::Config::ephemeral()).await.expect("server");
        let doc =
            reqwest::get(format!("{}/doc", server.api_url())).await.expect("GET /doc").json().await.expect("JSON");
        server.shutdown().await;
        doc
    })
}
