//! JUnit XML: one `<testsuite>` per case file, one `<testcase>` per case. Cases whose answer
//! did not match are `<failure>`s; cases that could not be carried out (network, timeout,
//! template or file errors) are `<error>`s; known failures (listed by `--expectations`) are
//! `<skipped>` with a message that says they are known. Each test case's name starts with its
//! level (`[must] …`) and a `level` property holds it; each suite's properties hold the run's
//! verdict line and selection, the same as every other report's.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::outcome::{CaseReport, Outcome};
use crate::report::message::{failure_message, Style};
use crate::report::secrets::Secrets;
use crate::report::summary::Run;

/// True for the characters XML 1.0 allows in a document.
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// Escapes text for XML attributes and content. A character XML 1.0 does not allow (control
/// characters, U+FFFE, U+FFFF) cannot be escaped as a reference either: it is written as
/// `\u{FFFF}`, so the document stays well-formed and the reader still sees it was there.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if !allowed(c) => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn short_reason(report: &CaseReport, secrets: &Secrets) -> String {
    crate::show::cut(&secrets.redact(&reason_text(report)), 500)
}

fn reason_text(report: &CaseReport) -> String {
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

/// The JUnit document of a run; passwords masked through `secrets`.
pub fn render(reports: &[CaseReport], secrets: &Secrets, run: &Run) -> String {
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
        let _ = writeln!(
            out,
            "    <properties>\n      <property name=\"verdict\" value=\"{}\"/>\n      <property name=\"selection\" value=\"{}\"/>\n    </properties>",
            escape(&secrets.redact(&run.verdict_line())),
            escape(&run.selection_line().unwrap_or_else(|| "selection: the whole suite".into()))
        );
        for report in list {
            testcase(&mut out, file, report, secrets, run.expectations_file);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// One `<testcase>`, with what it holds: nothing for a pass, else a `<failure>`, an `<error>`
/// or a `<skipped>`.
fn testcase(out: &mut String, file: &str, report: &CaseReport, secrets: &Secrets, expectations_file: &str) {
    let case = report.name.split_once("::").map(|(_, c)| c).unwrap_or(&report.name);
    let level = report.level.map_or("file", |l| l.name());
    let _ = writeln!(
        out,
        "    <testcase name=\"[{level}] {}\" classname=\"{}\" file=\"{}\" time=\"{:.3}\">",
        escape(case),
        escape(file),
        escape(&report.file),
        report.duration.as_secs_f64()
    );
    let _ = writeln!(out, "      <properties><property name=\"level\" value=\"{level}\"/></properties>");
    if let Some(body) = testcase_body(report, secrets, expectations_file) {
        out.push_str(&body);
    }
    out.push_str("    </testcase>\n");
}

fn testcase_body(report: &CaseReport, secrets: &Secrets, expectations_file: &str) -> Option<String> {
    match (kind(report), &report.outcome) {
        (Kind::Pass, _) => None,
        (Kind::Failure, Outcome::Passed) => Some(
            "      <failure message=\"unexpected pass: listed as an expected failure\" type=\"unexpected-pass\"/>\n"
                .to_string(),
        ),
        (Kind::Skipped, Outcome::Skipped(reason)) => Some(format!("      <skipped message=\"{}\"/>\n", escape(reason))),
        (Kind::Skipped, _) => Some(format!(
            "      <skipped message=\"known failure (listed in {}): {}\" type=\"known-failure\"/>\n",
            escape(if expectations_file.is_empty() { "the expectations file" } else { expectations_file }),
            escape(&short_reason(report, secrets))
        )),
        (k, _) => {
            let tag = if k == Kind::Error { "error" } else { "failure" };
            Some(format!(
                "      <{tag} message=\"{}\" type=\"{tag}\">{}</{tag}>\n",
                escape(&short_reason(report, secrets)),
                escape(&failure_message(report, Style { color: false }, secrets))
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::message::tests::failing_report;

    #[test]
    fn the_document_counts_cases_per_file_and_escapes() {
        let mut failed = failing_report();
        failed.name = "events/read::<one> & \"two\"".into();
        let mut passed = failing_report();
        passed.name = "events/read::passes".into();
        passed.outcome = Outcome::Passed;
        passed.steps.clear();
        let reports = [failed, passed];
        let tally = crate::report::summary::Tally::of(&reports);
        let run = Run { tally: &tally, expectations_file: "" };
        let xml = render(&reports, &Secrets::of([("editor", "editor-password")]), &run);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conformance\" tests=\"2\" failures=\"1\""), "{xml}");
        assert!(
            xml.contains(r#"<testsuite name="events/read" tests="2" failures="1" errors="0" skipped="0""#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testcase name="[must] &lt;one&gt; &amp; &quot;two&quot;" classname="events/read""#),
            "{xml}"
        );
        assert!(
            xml.contains(
                "<testcase name=\"[must] passes\" classname=\"events/read\" file=\"cases/events/read.yaml\" time=\"0.000\">\n      <properties><property name=\"level\" value=\"must\"/></properties>\n    </testcase>"
            ),
            "{xml}"
        );
        assert!(
            xml.contains("<property name=\"verdict\" value=\"verdict: DOES NOT CONFORM: 1 of 2 must cases failed;"),
            "{xml}"
        );
        assert!(!xml.contains("editor-password"), "{xml}");
    }

    #[test]
    fn characters_xml_forbids_never_reach_the_document() {
        // R6: a body with U+FFFF made the report ill-formed.
        let mut report = failing_report();
        report.steps[0].body = Some("a\u{FFFF}b\u{1}c\u{FFFE}".into());
        report.steps[0].mismatches.truncate(1);
        report.steps[0].mismatches[0].actual = "x\u{FFFF}".into();
        let tally = crate::report::summary::Tally::of(std::slice::from_ref(&report));
        let xml = render(&[report], &Secrets::shown(), &Run { tally: &tally, expectations_file: "" });
        assert!(xml.chars().all(allowed), "{xml:?}");
        assert!(xml.contains("a\\u{FFFF}b\\u{1}c\\u{FFFE}"), "{xml}");
        assert_eq!(escape("<\u{7}>"), "&lt;\\u{7}&gt;");
    }
}
