//! The JSON report: the run's summary and every case with its outcome and mismatches.

use serde_json::{json, Value};

use crate::outcome::{CaseReport, Outcome};
use crate::report::summary::Tally;

/// The JSON document of a run.
pub fn render(run_id: &str, reports: &[CaseReport]) -> Value {
    let tally = Tally::of(reports);
    let levels: serde_json::Map<String, Value> = tally
        .levels
        .iter()
        .map(|(level, c)| {
            let counts = json!({"passed": c.passed, "failed": c.failed, "skipped": c.skipped, "percent": c.percent()});
            (level.name().to_string(), counts)
        })
        .collect();
    let cases: Vec<Value> = reports
        .iter()
        .map(|r| {
            let reason = match &r.outcome {
                Outcome::Error(reason) | Outcome::Skipped(reason) => Some(reason.clone()),
                _ => None,
            };
            let mismatches = r.failed_step().map(|s| s.mismatches.clone()).unwrap_or_default();
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
                "failed_step": r.failed_step().map(|s| s.label.clone()),
                "mismatches": mismatches,
                "steps": r.steps,
                "cleanup": r.cleanup,
            })
        })
        .collect();
    json!({
        "run_id": run_id,
        "conforms": tally.conforms(),
        "levels": levels,
        "file_errors": tally.file_errors,
        "expected_failures": tally.expected_failures,
        "unexpected_passes": tally.unexpected_passes,
        "cases": cases,
    })
}
