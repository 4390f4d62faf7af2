//! The message of a failing case, shared by the terminal (under "failures:", coloured when it
//! goes to a terminal) and the JUnit report: each step that went wrong with its request as
//! `curl`, the status, every mismatch with its path and the line of the case file it comes
//! from, the diff, and the cleanup problems. Bounded: a huge body or thousands of mismatches
//! give a few lines and a count. Every text that comes from the case or the answer is shown
//! with its secrets masked and its control characters escaped ([`shown`]): an answer cannot
//! drive the terminal or forge a line.

use std::fmt::Write;

use crate::diff::{Diff, LineKind};
use crate::escape::terminal;
use crate::outcome::{CaseReport, Outcome, StepRecord};
use crate::report::curl::curl;
use crate::report::secrets::Secrets;
use crate::show::excerpt;

/// Most mismatches listed for one step; the rest are counted.
pub const MAX_MISMATCHES: usize = 40;

/// Longest body in a `curl` line of a message, in bytes.
const MAX_CURL_BODY: usize = 2048;

/// Colours (ANSI) or plain text.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
}

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}

/// A text of the case or of the answer as a message shows it: secrets masked, control
/// characters escaped.
pub fn shown(secrets: &Secrets, text: &str) -> String {
    terminal(&secrets.redact(text)).into_owned()
}

/// The diff as indented lines, coloured or not, control characters escaped.
pub fn diff_text(diff: &Diff, style: Style, secrets: &Secrets) -> String {
    let mut out = String::new();
    for line in &diff.lines {
        let code = match line.kind {
            LineKind::Hunk => CYAN,
            LineKind::Removed => RED,
            LineKind::Added => GREEN,
            LineKind::Header | LineKind::Context => "",
        };
        let text = shown(secrets, &line.text);
        let text = if code.is_empty() { text } else { style.paint(code, &text) };
        let _ = writeln!(out, "    {text}");
    }
    if diff.cut_lines > 0 {
        let _ = writeln!(out, "    … {} more diff lines cut", diff.cut_lines);
    }
    out
}

/// `file:line:column` of a place in the case's file, when known.
pub fn location(report: &CaseReport, at: crate::yaml::Pos) -> Option<String> {
    at.is_known().then(|| format!("{}:{}", report.file, at))
}

fn step_text(report: &CaseReport, step: &StepRecord, style: Style, secrets: &Secrets, out: &mut String) {
    if let Some(reason) = &step.skipped {
        let _ = writeln!(out, "  {}: skipped: {}", terminal(&step.label), shown(secrets, reason));
        return;
    }
    match &step.request {
        Some(r) => {
            let title = format!("{}: {} {}", step.label, r.method, r.url);
            let _ = writeln!(out, "  {}", shown(secrets, &title));
            let _ = writeln!(out, "    {}", terminal(&curl(r, secrets, MAX_CURL_BODY)));
        }
        None => {
            let _ = writeln!(out, "  {}:", terminal(&step.label));
        }
    }
    if let Some(error) = &step.error {
        let _ = writeln!(out, "    error: {}", shown(secrets, &error.to_string()));
    }
    if let Some(status) = step.status {
        let _ = writeln!(out, "    status: {status}");
    }
    if !step.mismatches.is_empty() {
        mismatches_text(report, step, style, secrets, out);
    }
    body_text(step, style, secrets, out);
}

/// The mismatches of a step, the first [`MAX_MISMATCHES`] of them with where each stands.
fn mismatches_text(report: &CaseReport, step: &StepRecord, style: Style, secrets: &Secrets, out: &mut String) {
    let _ = writeln!(out, "    mismatches:");
    for m in step.mismatches.iter().take(MAX_MISMATCHES) {
        let place = location(report, m.at).map(|l| format!(" (at {l})")).unwrap_or_default();
        let (expected, actual) = (shown(secrets, &m.expected), shown(secrets, &m.actual));
        let _ = writeln!(
            out,
            "      {}: expected {}, got {}{}",
            style.paint(BOLD, &shown(secrets, &m.path)),
            style.paint(GREEN, &expected),
            style.paint(RED, &actual),
            terminal(&place)
        );
    }
    if step.mismatches.len() > MAX_MISMATCHES {
        let _ = writeln!(out, "      … {} more mismatches", step.mismatches.len() - MAX_MISMATCHES);
    }
}

/// What a step shows of the body: the diff when there is one, else (for a failed step) the
/// body itself, text or an excerpt of its JSON.
fn body_text(step: &StepRecord, style: Style, secrets: &Secrets, out: &mut String) {
    match (&step.diff, &step.body) {
        (Some(diff), _) => {
            let _ = writeln!(out, "    diff of the expected pattern (-) and the actual body (+):");
            out.push_str(&diff_text(diff, style, secrets));
        }
        (None, Some(body)) if !step.ok() && !body.trim().is_empty() && !looks_like_json(body) => {
            out.push_str(&text_body(&secrets.redact(body), step.body_size, secrets));
        }
        (None, Some(body)) if !step.ok() && !body.trim().is_empty() => {
            let shown = excerpt(&secrets.redact(body));
            // An excerpt that is not the whole body says how large the body is.
            let size = if shown.len() < step.body_size {
                format!(" ({} bytes in full)", step.body_size)
            } else {
                String::new()
            };
            let _ = writeln!(out, "    body: {}{size}", self::shown(secrets, &shown));
        }
        _ => {}
    }
}

/// Lines of a body that is not JSON (an HTML error page, a stack trace) shown at most.
const TEXT_LINES: usize = 15;
/// Lines further down that look like an error message, shown beside them.
const ERROR_LINES: usize = 10;
/// Characters of one line.
const LINE_CHARS: usize = 200;

fn looks_like_json(body: &str) -> bool {
    matches!(body.trim_start().as_bytes().first(), Some(b'{' | b'[' | b'"'))
}

/// A body that is not JSON: its first lines, then the lines further down that look like an
/// error message (the one line of an HTML error page that says what went wrong is rarely among
/// the first), and where the whole body is.
fn text_body(body: &str, size: usize, secrets: &Secrets) -> String {
    let lines: Vec<&str> = body.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    let telling = |l: &&&str| {
        let lower = l.to_ascii_lowercase();
        ["error", "exception", "fatal", "warning", "traceback", "panic", "failed", "denied"]
            .iter()
            .any(|w| lower.contains(w))
    };
    let first = &lines[..lines.len().min(TEXT_LINES)];
    let later: Vec<&&str> = lines[first.len()..].iter().filter(telling).take(ERROR_LINES).collect();
    let mut out = format!("    body ({size} bytes, not JSON):\n");
    for line in first {
        let _ = writeln!(out, "      | {}", shown(secrets, &crate::show::cut(line.trim(), LINE_CHARS)));
    }
    if !later.is_empty() {
        let _ = writeln!(out, "      … and further down, the lines that look like an error:");
        for line in later {
            let _ = writeln!(out, "      | {}", shown(secrets, &crate::show::cut(line.trim(), LINE_CHARS)));
        }
    }
    if lines.len() > first.len() {
        let _ = writeln!(
            out,
            "      … {} lines in all (the --json and --html reports keep the body, up to 256 KiB)",
            lines.len()
        );
    }
    out
}

/// The message of a failing case (also used for errors).
pub fn failure_message(report: &CaseReport, style: Style, secrets: &Secrets) -> String {
    let mut out = String::new();
    let level = report.level.map(|l| l.name()).unwrap_or("none");
    let _ = writeln!(out, "{} ({}, level {level})", terminal(&report.name), terminal(&report.file));
    if let Outcome::Error(reason) = &report.outcome {
        if report.failed_step().is_none() {
            let _ = writeln!(out, "  error: {}", shown(secrets, reason));
        }
    }
    if let Some(step) = report.failed_step() {
        step_text(report, step, style, secrets, &mut out);
    }
    let problems: Vec<&StepRecord> =
        report.cleanup_problems().chain(report.cleanup.iter().filter(|s| s.skipped.is_some())).collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "  cleanup (does not fail the case):");
        for step in problems {
            step_text(report, step, style, secrets, &mut out);
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::matcher::Mismatch;
    use crate::model::Level;
    use crate::outcome::SentRequest;
    use crate::yaml::Pos;
    use std::time::Duration;

    pub fn failing_report() -> CaseReport {
        let request = SentRequest {
            method: "GET".into(),
            url: "http://h/wp-json/calendar/events/v1/events/7".into(),
            headers: Vec::new(),
            auth: Some(("editor".into(), "editor-password".into())),
            auth_name: Some("editor".into()),
            body: None,
        };
        let mismatches = (0..100)
            .map(|i| Mismatch {
                path: format!("$.events[{i}].id"),
                expected: "1".into(),
                actual: "2".into(),
                at: Pos::new(12, 9),
            })
            .collect();
        CaseReport {
            name: "events/read::one".into(),
            file: "cases/events/read.yaml".into(),
            level: Some(Level::Must),
            spec: Vec::new(),
            tags: Vec::new(),
            outcome: Outcome::Failed,
            duration: Duration::ZERO,
            steps: vec![StepRecord {
                label: "steps[0]".into(),
                request: Some(request.into()),
                status: Some(200),
                body: Some("{}".into()),
                body_size: 2,
                mismatches,
                ..StepRecord::default()
            }],
            cleanup: Vec::new(),
            expected_failure: false,
            server: None,
        }
    }

    #[test]
    fn mismatches_carry_their_line_and_are_bounded_and_passwords_masked() {
        let report = failing_report();
        let text = failure_message(&report, Style { color: false }, &Secrets::of([("editor", "editor-password")]));
        assert!(text.contains("curl -i -u 'editor:***' http://h/"), "{text}");
        assert!(!text.contains("editor-password"), "{text}");
        assert!(text.contains("$.events[0].id: expected 1, got 2 (at cases/events/read.yaml:12:9)"), "{text}");
        assert!(text.contains("… 60 more mismatches"), "{text}");
        assert!(text.lines().count() < 60, "{text}");
    }

    #[test]
    fn a_text_body_shows_its_first_lines_and_the_lines_that_say_what_went_wrong() {
        let mut page = String::from("<!DOCTYPE html>\n<html>\n<head><title>Oops</title></head>\n");
        for i in 0..40 {
            page.push_str(&format!("<div class=\"nav-{i}\">menu</div>\n"));
        }
        page.push_str("<p>Fatal error: Uncaught TypeError in /srv/plugin/events.php:42</p>\n</html>\n");
        let text = text_body(&page, page.len(), &Secrets::shown());
        assert!(text.contains("      | <!DOCTYPE html>"), "{text}");
        assert!(text.contains("Fatal error: Uncaught TypeError in /srv/plugin/events.php:42"), "{text}");
        assert!(!text.contains("nav-30"), "{text}");
        assert!(text.lines().count() < 25, "{text}");
        assert!(text.contains("45 lines in all"), "{text}");
    }
}
