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

/// The JUnit document of a run.
pub fn render(reports: &[CaseReport]) -> String {
    let mut files: BTreeMap<&str, Vec<&CaseReport>> = BTreeMap::new();
    for report in reports {
        let file = report.name.split("::").next().unwrap_or(&report.name);
        files.entry(file).or_default().push(report);
    }
    let count = |list: &[&CaseReport], f: fn(&Outcome) -> bool| list.iter().filter(|r| f(&r.outcome)).count();
    let all: Vec<&CaseReport> = reports.iter().collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total: f64 = reports.iter().map(|r| r.duration.as_secs_f64()).sum();
    let _ = writeln!(
        out,
        "<testsuites name=\"conformance\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{total:.3}\">",
        all.len(),
        count(&all, |o| matches!(o, Outcome::Failed)),
        count(&all, |o| matches!(o, Outcome::Error(_))),
        count(&all, |o| matches!(o, Outcome::Skipped(_))),
    );
    for (file, list) in files {
        let time: f64 = list.iter().map(|r| r.duration.as_secs_f64()).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{time:.3}\">",
            escape(file),
            list.len(),
            count(&list, |o| matches!(o, Outcome::Failed)),
            count(&list, |o| matches!(o, Outcome::Error(_))),
            count(&list, |o| matches!(o, Outcome::Skipped(_))),
        );
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
            let body = match &report.outcome {
                Outcome::Passed if !report.expected_failure => None,
                Outcome::Passed => Some("      <failure message=\"unexpected pass: listed as an expected failure\" type=\"unexpected-pass\"/>\n".to_string()),
                Outcome::Skipped(reason) => Some(format!("      <skipped message=\"{}\"/>\n", escape(reason))),
                Outcome::Failed | Outcome::Error(_) => {
                    let tag = if matches!(report.outcome, Outcome::Failed) { "failure" } else { "error" };
                    let kind = if report.expected_failure { "expected-failure" } else { tag };
                    Some(format!(
                        "      <{tag} message=\"{}\" type=\"{kind}\">{}</{tag}>\n",
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
