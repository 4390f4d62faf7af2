//! The JSON report: the run's summary and every case with its outcome, mismatches (with the
//! line of the case file they come from) and steps. Passwords are masked (in every string of the
//! document, step errors' details included), bodies are cut at
//! [`MAX_BODY`](super::MAX_BODY) with their full size beside them, and only failing steps keep
//! their bodies unless `--json-full`: a passing run's report stays small.

use serde_json::{json, Value};

use crate::outcome::{CaseReport, KeptRequest, Outcome, StepRecord};
use crate::report::bounded_body;
use crate::report::secrets::Secrets;
use crate::report::summary::{Run, Tally};

/// What goes in the report.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    pub secrets: &'a Secrets,
    /// `--json-full`: bodies of passing steps too.
    pub full: bool,
    /// The tally with the selection, for the verdict line.
    pub run: Run<'a>,
}

/// The JSON document of a run.
pub fn render(run_id: &str, reports: &[CaseReport], options: Options) -> Value {
    let tally: &Tally = options.run.tally;
    let levels: serde_json::Map<String, Value> = tally
        .levels
        .iter()
        .map(|(level, c)| {
            let counts = json!({"passed": c.passed, "failed": c.failed, "skipped": c.skipped, "percent": c.percent()});
            (level.name().to_string(), counts)
        })
        .collect();
    let cases: Vec<Value> = reports.iter().map(|r| case(r, options)).collect();
    let doc = json!({
        "run_id": run_id,
        "conforms": tally.conforms(),
        "verdict": options.run.verdict_line(),
        "exit_status": tally.exit_status(),
        "selection": {
            "line": options.run.selection_line(),
            "options": tally.scope.options,
            "selected": tally.scope.selected,
            "left_out": tally.scope.left_out,
            "must_left_out": tally.must_left_out,
        },
        "levels": levels,
        "file_errors": tally.file_errors,
        "expected_failures": tally.expected_failures,
        "unexpected_passes": tally.unexpected_passes,
        "causes": super::causes::to_json(&super::causes::of(reports)),
        "cases": cases,
    });
    // Every text of the document, wherever it is (a step error's `kind` keeps its URL), is
    // masked once more as a whole: nothing relies on each field being masked where it is made.
    options.secrets.redact_value(doc)
}

fn case(r: &CaseReport, options: Options) -> Value {
    let secrets = options.secrets;
    let reason = match &r.outcome {
        Outcome::Error(reason) | Outcome::Skipped(reason) => Some(secrets.redact(reason)),
        _ => None,
    };
    let failed = r.failed_step();
    let mismatches = failed.map(|s| mismatches(r, s, secrets)).unwrap_or_default();
    let steps: Vec<Value> = r.steps.iter().map(|s| step(r, s, options)).collect();
    let cleanup: Vec<Value> = r.cleanup.iter().map(|s| step(r, s, options)).collect();
    json!({
        "name": r.name,
        "file": r.file,
        "level": r.level,
        "spec": r.spec,
        "tags": r.tags,
        "outcome": r.outcome.label(),
        "reason": reason,
        "expected_failure": r.expected_failure,
        "duration_seconds": r.duration.as_secs_f64(),
        "failed_step": failed.map(|s| s.label.clone()),
        "mismatches": mismatches,
        "steps": steps,
        "cleanup": cleanup,
    })
}

fn mismatches(r: &CaseReport, s: &StepRecord, secrets: &Secrets) -> Vec<Value> {
    s.mismatches
        .iter()
        .map(|m| {
            json!({
                "path": m.path,
                "expected": secrets.redact(&m.expected),
                "actual": secrets.redact(&m.actual),
                "location": super::message::location(r, m.at),
            })
        })
        .collect()
}

fn request(r: &KeptRequest, secrets: &Secrets) -> Value {
    let headers: Vec<Value> = r.headers.iter().map(|(n, v)| json!([n, secrets.redact(v)])).collect();
    let body = r.body.as_ref().map(|b| super::bounded_request_body(b, secrets));
    json!({
        "method": r.method,
        "url": secrets.redact(&r.url),
        "headers": headers,
        "auth": r.auth.as_ref().map(|(user, password)| json!([user, secrets.password(password)])),
        "body": body,
    })
}

fn step(r: &CaseReport, s: &StepRecord, options: Options) -> Value {
    let secrets = options.secrets;
    let keep_body = options.full || !s.ok();
    json!({
        "label": s.label,
        "request": s.request.as_ref().map(|q| request(q, secrets)),
        "status": s.status,
        "body": s.body.as_ref().filter(|_| keep_body).map(|b| bounded_body(b, s.body_size, secrets)),
        "body_size": s.body_size,
        "mismatches": mismatches(r, s, secrets),
        "error": s.error.as_ref().map(|e| json!({"kind": e, "message": secrets.redact(&e.to_string())})),
        "skipped": s.skipped,
        "diff": s.diff.as_ref().map(|d| super::message::diff_text(d, super::message::Style { color: false }, secrets)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::message::tests::failing_report;
    use crate::report::MAX_BODY;

    #[test]
    fn only_failing_steps_keep_bodies_and_passwords_are_masked() {
        let mut report = failing_report();
        let mut passing = report.steps[0].clone();
        passing.mismatches.clear();
        passing.label = "steps[0]".into();
        passing.body = Some("{\"id\": 1}".into());
        report.steps[0].label = "steps[1]".into();
        report.steps[0].body = Some("x".repeat(100_000));
        report.steps[0].body_size = 10_000_000;
        report.steps.insert(0, passing);
        let secrets = Secrets::of([("editor", "editor-password")]);
        let tally = Tally::of(std::slice::from_ref(&report));
        let run = Run { tally: &tally, expectations_file: "" };
        let doc = render("r1", &[report.clone()], Options { secrets: &secrets, full: false, run });
        let text = doc.to_string();
        assert!(!text.contains("editor-password"), "{text}");
        let case = &doc["cases"][0];
        assert_eq!(case["steps"][0]["body"], Value::Null, "a passing step keeps no body");
        assert_eq!(case["steps"][0]["request"]["auth"], json!(["editor", "***"]));
        let body = case["steps"][1]["body"].as_str().unwrap();
        assert!(
            body.len() < MAX_BODY + 100 && body.ends_with("… (cut: 10000000 bytes in full)"),
            "{}",
            &body[body.len() - 60..]
        );
        assert_eq!(case["mismatches"][0]["location"], "cases/events/read.yaml:12:9");
        assert_eq!(doc["exit_status"], 101);
        let full = render("r1", &[report], Options { secrets: &Secrets::shown(), full: true, run });
        assert_eq!(full["cases"][0]["steps"][0]["body"], "{\"id\": 1}");
        assert_eq!(full["cases"][0]["steps"][0]["request"]["auth"], json!(["editor", "editor-password"]));
    }

    #[test]
    fn h3_a_step_error_is_masked_in_every_field() {
        let mut report = failing_report();
        let url = "http://h/events/Sup3r%22Secret".to_string();
        report.steps[0].error = Some(crate::outcome::StepError::Connect { url: url.clone(), detail: url });
        let secrets = Secrets::of([("ed", "Sup3r\"Secret")]);
        let tally = Tally::of(std::slice::from_ref(&report));
        let run = Run { tally: &tally, expectations_file: "" };
        let doc = render("r1", &[report], Options { secrets: &secrets, full: false, run });
        let error = &doc["cases"][0]["steps"][0]["error"];
        assert_eq!(error["kind"]["detail"], json!({"url": "http://h/events/***", "detail": "http://h/events/***"}));
        assert!(!doc.to_string().contains("Sup3r"), "{doc}");
    }
}
