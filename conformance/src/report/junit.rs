//! JUnit XML: one `<testsuite>` per case file, one `<testcase>` per case. Cases whose answer
//! did not match are `<failure>`s; cases that could not be carried out (network, timeout,
//! template or file errors) are `<error>`s.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::outcome::{CaseReport, Outcome};
use crate::report::terminal::failure_message;

/// Escapes text for XML attributes and content.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' && c != '\r' => {}
            c => out.push(c),
        }
    }
    out
}

fn short_reason(report: &CaseReport) -> String {
    if let Outcome::Error(reason) = &report.outcome {
        return reason.clone();
    }
    match report.failed_step() {
        Some(step) => match step.mismatches.first() {
            Some(m) => format!("{}: {m}", step.label),
            None => step.label.clone(),
        },
        None => report.outcome.label().to_string(),
    }
}

/// How a case appears in JUnit: expected failures are skipped, unexpected passes fail.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pass,
    Failure,
    Error,
    Skipped,
}

fn kind(report: &CaseReport) -> Kind {
    match (&report.outcome, report.expected_failure) {
        (Outcome::Passed, false) => Kind::Pass,
        (Outcome::Passed, true) | (Outcome::Failed, false) => Kind::Failure,
        (Outcome::Error(_), false) => Kind::Error,
        (Outcome::Skipped(_), _) | (Outcome::Failed | Outcome::Error(_), true) => Kind::Skipped,
    }
}

fn counts(list: &[&CaseReport]) -> String {
    let count = |k: Kind| list.iter().filter(|r| kind(r) == k).count();
    format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
        list.len(),
        count(Kind::Failure),
        count(Kind::Error),
        count(Kind::Skipped)
    )
}

/// The JUnit document of a run.
pub fn render(reports: &[CaseReport]) -> String {
    let mut files: BTreeMap<&str, Vec<&CaseReport>> = BTreeMap::new();
    for report in reports {
        let file = report.name.split("::").next().unwrap_or(&report.name);
        files.entry(file).or_default().push(report);
    }
    let all: Vec<&CaseReport> = reports.iter().collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total: f64 = reports.iter().map(|r| r.duration.as_secs_f64()).sum();
    let _ = writeln!(out, "<testsuites name=\"conformance\" {} time=\"{total:.3}\">", counts(&all));
    for (file, list) in files {
        let time: f64 = list.iter().map(|r| r.duration.as_secs_f64()).sum();
        let _ = writeln!(out, "  <testsuite name=\"{}\" {} time=\"{time:.3}\">", escape(file), counts(&list));
        for report in list {
            let case = report.name.split_once("::").map(|(_, c)| c).unwrap_or(&report.name);
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"{:.3}\"",
                escape(case),
                escape(file),
                escape(&report.file),
                report.duration.as_secs_f64()
            );
            let body = match (kind(report), &report.outcome) {
                (Kind::Pass, _) => None,
                (Kind::Failure, Outcome::Passed) => Some(
                    "      <failure message=\"unexpected pass: listed as an expected failure\" type=\"unexpected-pass\"/>\n"
                        .to_string(),
                ),
                (Kind::Skipped, Outcome::Skipped(reason)) => {
                    Some(format!("      <skipped message=\"{}\"/>\n", escape(reason)))
                }
                (Kind::Skipped, _) => Some(format!(
                    "      <skipped message=\"expected failure: {}\" type=\"expected-failure\"/>\n",
                    escape(&short_reason(report))
                )),
                (k, _) => {
                    let tag = if k == Kind::Error { "error" } else { "failure" };
                    Some(format!(
                        "      <{tag} message=\"{}\" type=\"{tag}\">{}</{tag}>\n",
                        escape(&short_reason(report)),
                        escape(&failure_message(report, false))
                    ))
                }
            };
            match body {
                None => out.push_str("/>\n"),
                Some(body) => {
                    out.push_str(">\n");
                    out.push_str(&body);
                    out.push_str("    </testcase>\n");
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
