//! The terminal report of one case: what libtest prints under "failures:".

use std::fmt::Write;

use serde_json::Value;
use similar::TextDiff;

use crate::outcome::{CaseReport, Outcome, SentRequest, StepRecord};
use crate::show::excerpt;

/// Longest diff shown, in lines; the rest is cut.
const MAX_DIFF_LINES: usize = 60;

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// Quotes a word for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=@,%+".contains(c)) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r#"'\''"#))
}

/// The request as a `curl` command that sends it again.
pub fn curl(request: &SentRequest) -> String {
    let mut out = String::from("curl -i");
    let implied =
        (request.method == "GET" && request.body.is_none()) || (request.method == "POST" && request.body.is_some());
    if !implied {
        let _ = write!(out, " -X {}", request.method);
    }
    if let Some((user, password)) = &request.auth {
        let _ = write!(out, " -u {}", shell_quote(&format!("{user}:{password}")));
    }
    for (name, value) in &request.headers {
        let _ = write!(out, " -H {}", shell_quote(&format!("{name}: {value}")));
    }
    if let Some(body) = &request.body {
        let _ = write!(out, " --data-raw {}", shell_quote(body));
    }
    let _ = write!(out, " {}", shell_quote(&request.url));
    out
}

/// A unified diff of `expected` against `actual`, pretty-printed, cut around the changes.
pub fn diff(expected: &Value, actual: &Value, color: bool) -> String {
    let left = serde_json::to_string_pretty(expected).unwrap_or_default() + "\n";
    let right = serde_json::to_string_pretty(actual).unwrap_or_default() + "\n";
    // A deadline keeps a huge body from stalling the report; the diff is then coarser.
    let text_diff = TextDiff::configure().timeout(std::time::Duration::from_secs(2)).diff_lines(&left, &right);
    let unified = text_diff.unified_diff().context_radius(3).header("expected", "actual").to_string();
    let lines: Vec<&str> = unified.lines().collect();
    let mut out = String::new();
    for line in lines.iter().take(MAX_DIFF_LINES) {
        let paint = if !color {
            ""
        } else if line.starts_with("@@") {
            CYAN
        } else if line.starts_with('-') {
            RED
        } else if line.starts_with('+') {
            GREEN
        } else {
            ""
        };
        if paint.is_empty() {
            let _ = writeln!(out, "    {line}");
        } else {
            let _ = writeln!(out, "    {paint}{line}{RESET}");
        }
    }
    if lines.len() > MAX_DIFF_LINES {
        let _ = writeln!(out, "    … {} more diff lines cut", lines.len() - MAX_DIFF_LINES);
    }
    out
}

fn step_text(step: &StepRecord, color: bool, out: &mut String) {
    if let Some(reason) = &step.skipped {
        let _ = writeln!(out, "  {}: skipped: {reason}", step.label);
        return;
    }
    match &step.request {
        Some(r) => {
            let _ = writeln!(out, "  {}: {} {}", step.label, r.method, r.url);
            let _ = writeln!(out, "    {}", curl(r));
        }
        None => {
            let _ = writeln!(out, "  {}:", step.label);
        }
    }
    if let Some(error) = &step.error {
        let _ = writeln!(out, "    error: {error}");
    }
    if let Some(status) = step.status {
        let _ = writeln!(out, "    status: {status}");
    }
    if !step.mismatches.is_empty() {
        let _ = writeln!(out, "    mismatches:");
        for m in &step.mismatches {
            if color {
                let _ = writeln!(
                    out,
                    "      {BOLD}{}{RESET}: expected {GREEN}{}{RESET}, got {RED}{}{RESET}",
                    m.path, m.expected, m.actual
                );
            } else {
                let _ = writeln!(out, "      {m}");
            }
        }
    }
    match (&step.diff, &step.body) {
        (Some((expected, actual)), _) => {
            let _ = writeln!(out, "    diff of the expected pattern (-) and the actual body (+):");
            out.push_str(&diff(expected, actual, color));
        }
        (None, Some(body)) if !step.ok() && !body.trim().is_empty() => {
            let _ = writeln!(out, "    body: {}", excerpt(body));
        }
        _ => {}
    }
}

/// The message of a failing case (also used for errors).
pub fn failure_message(report: &CaseReport, color: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({}, level {})", report.name, report.file, level_text(report));
    if let Outcome::Error(reason) = &report.outcome {
        if report.failed_step().is_none() {
            let _ = writeln!(out, "  error: {reason}");
        }
    }
    if let Some(step) = report.failed_step() {
        step_text(step, color, &mut out);
    }
    let problems: Vec<&StepRecord> =
        report.cleanup_problems().chain(report.cleanup.iter().filter(|s| s.skipped.is_some())).collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "  cleanup (does not fail the case):");
        for step in problems {
            step_text(step, color, &mut out);
        }
    }
    out
}

fn level_text(report: &CaseReport) -> &'static str {
    report.level.map(|l| l.name()).unwrap_or("none")
}

/// A short warning for a passing case whose cleanup went wrong.
pub fn cleanup_warning(report: &CaseReport) -> Option<String> {
    let problems: Vec<String> = report
        .cleanup_problems()
        .map(|s| {
            let why = s.error.clone().or_else(|| s.mismatches.first().map(|m| m.to_string())).unwrap_or_default();
            format!("{}: {why}", s.label)
        })
        .collect();
    if problems.is_empty() {
        None
    } else {
        Some(format!("warning: {}: cleanup did not go well: {}", report.name, problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn curl_quotes_and_reproduces() {
        let request = SentRequest {
            method: "POST".into(),
            url: "http://h/x?a=1&b=2".into(),
            headers: vec![("Content-Type".into(), "application/json".into())],
            auth: Some(("ed".into(), "p'w".into())),
            body: Some("{\"t\":\"it's\"}".into()),
        };
        assert_eq!(
            curl(&request),
            r#"curl -i -u 'ed:p'\''w' -H 'Content-Type: application/json' --data-raw '{"t":"it'\''s"}' 'http://h/x?a=1&b=2'"#
        );
    }

    #[test]
    fn diff_is_cut_around_changes() {
        let mut expected = serde_json::Map::new();
        for i in 0..200 {
            expected.insert(format!("k{i:03}"), json!(i));
        }
        let actual = Value::Object(expected.clone());
        expected.insert("k100".into(), json!("changed"));
        let text = diff(&Value::Object(expected), &actual, false);
        assert!(text.contains("-  \"k100\": \"changed\""), "{text}");
        assert!(text.contains("+  \"k100\": 100"), "{text}");
        assert!(!text.contains("k010"), "far lines are cut: {text}");
    }
}
