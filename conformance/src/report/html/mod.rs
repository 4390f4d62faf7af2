//! `--html FILE`: one self-contained page (the template is `template.html`, included in the
//! binary; no network, no outside assets). It shows the verdict and the per-level summary, a
//! matrix of route × method against passed, failed (at the failing step's route) and skipped
//! cases, then every failure with its steps (request, answer, mismatches with the line of the
//! case file, diff, curl), and the passing and skipped cases folded away. Every text from a
//! case or an answer is escaped; passwords are masked; bodies are cut at
//! [`MAX_BODY`](crate::report::MAX_BODY).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::coverage::{Coverage, SectionKind};
use crate::diff::LineKind;
use crate::model::Level;
use crate::outcome::{CaseReport, Outcome, StepRecord};
use crate::report::curl::curl;
use crate::report::secrets::Secrets;
use crate::report::summary::{Run, Tally};
use crate::report::{bounded_body, MAX_BODY};

const TEMPLATE: &str = include_str!("template.html");

/// What the page says besides the cases.
pub struct Page<'a> {
    /// `run r0abc… against the embedded reference server, 2026-…`.
    pub meta: &'a str,
    pub expectations_file: &'a str,
    /// The run's tally with its selection (`None`: counted from the reports, the whole suite).
    pub tally: Option<&'a Tally>,
    /// The route × method items of the interface with the cases that send them.
    pub coverage: Option<&'a Coverage>,
    /// Prefix that turns a case file's path into a link (`file:///home/…/`), empty for none.
    pub file_link_base: &'a str,
    pub secrets: &'a Secrets,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of a run.
pub fn render(reports: &[CaseReport], page: &Page) -> String {
    let counted;
    let tally = match page.tally {
        Some(tally) => tally,
        None => {
            counted = Tally::of(reports);
            &counted
        }
    };
    let run = Run { tally, expectations_file: page.expectations_file };
    let last = run.verdict_line();
    let (verdict, exit) = last.split_once("; ").unwrap_or((&last, ""));
    let selection = run.selection_line().unwrap_or_else(|| "selection: the whole suite".into());
    let class = if verdict.contains("DOES NOT CONFORM") {
        "fails"
    } else if verdict.contains("CONFORMS") {
        "conforms"
    } else {
        "unknown"
    };
    // Must failures first, then should, then may: the verdict rests on the first.
    let mut failures: Vec<&CaseReport> = reports.iter().filter(|r| counts_as_failure(r)).collect();
    failures.sort_by_key(|r| r.level.map_or(0, |l| 1 + Level::ALL.iter().position(|x| *x == l).unwrap_or(3)));
    let mut failures_html = String::new();
    for (i, report) in failures.iter().enumerate() {
        failure(report, i, page, &mut failures_html);
    }
    if failures.is_empty() {
        failures_html.push_str("<p>None.</p>");
    }
    let fills = [
        ("{{TITLE}}", escape(&format!("Conformance: {verdict}"))),
        ("{{META}}", escape(page.meta)),
        ("{{VERDICT_CLASS}}", class.to_string()),
        ("{{VERDICT}}", escape(verdict)),
        ("{{EXIT}}", escape(exit)),
        ("{{SELECTION}}", escape(&selection)),
        ("{{LEVELS}}", levels(tally)),
        ("{{CAUSES}}", causes_table(reports, page)),
        ("{{MATRIX}}", matrix(reports, page.coverage)),
        ("{{FAILURE_COUNT}}", failures.len().to_string()),
        ("{{FAILURES}}", failures_html),
        ("{{OTHERS}}", others(reports)),
    ];
    fill(&fills)
}

/// The template with its placeholders filled in, in one pass: a placeholder inside a filled-in
/// text stays text.
fn fill(fills: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(TEMPLATE.len() * 2);
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        match fills.iter().find(|(key, _)| rest[start..].starts_with(key)) {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[start + key.len()..];
            }
            None => {
                out.push_str("{{");
                rest = &rest[start + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A case that failed the run or failed as expected: it is listed among the failures.
fn counts_as_failure(report: &CaseReport) -> bool {
    matches!(report.outcome, Outcome::Failed | Outcome::Error(_))
        || (report.expected_failure && report.outcome == Outcome::Passed)
}

fn levels(tally: &Tally) -> String {
    let mut out = String::from(
        "<table class=\"levels\"><tr><th>level</th><th>passed</th><th>failed</th><th>skipped</th><th>share</th></tr>",
    );
    for (level, c) in &tally.levels {
        let share = c.percent().map(|p| format!("{p}%")).unwrap_or_else(|| "–".into());
        let _ = write!(
            out,
            "<tr><td>{level}</td><td class=\"num pass\">{}</td><td class=\"num fail\">{}</td><td class=\"num skip\">{}</td><td class=\"num\">{share}</td></tr>",
            c.passed, c.failed, c.skipped
        );
    }
    out.push_str("</table>");
    out
}

/// The failures grouped by cause (`report::causes`), the commonest first.
fn causes_table(reports: &[CaseReport], page: &Page) -> String {
    let causes = super::causes::of(reports);
    if causes.is_empty() {
        return "<p>None.</p>".into();
    }
    let mut out = String::from("<table class=\"causes\"><tr><th>cases</th><th>level</th><th>route</th><th>what</th><th>expected</th><th>got</th><th>example</th></tr>");
    let text = |t: &str| escape(&page.secrets.redact(t));
    for cause in &causes {
        let _ = write!(
            out,
            "<tr class=\"level-{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            cause.level.map_or("file", |l| l.name()),
            cause.cases,
            cause.level.map_or("file", |l| l.name()),
            text(&cause.route),
            text(&cause.what),
            text(&cause.expected),
            text(&cause.got),
            text(&cause.example)
        );
    }
    out.push_str("</table>");
    out
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The cases of one route × method cell.
#[derive(Clone, Copy, Default)]
struct Cell {
    passed: usize,
    /// Failed cases whose failing step went to this route and method (or, for a case that failed
    /// before any request of the interface, every cell it sends).
    failed: usize,
    skipped: usize,
    /// Failed cases that send it but failed at another route.
    failed_elsewhere: usize,
}

/// The route × method matrix: a passed or skipped case counts in every cell its steps send; a
/// failed case counts in the cell of its failing step, where the fix is to be made.
fn matrix(reports: &[CaseReport], coverage: Option<&Coverage>) -> String {
    let Some(coverage) = coverage else { return "<p>Not available.</p>".into() };
    let (order, rows) = matrix_cells(reports, coverage);
    let mut out = String::from("<table class=\"matrix\"><tr><th>route</th>");
    for method in METHODS {
        let _ = write!(out, "<th>{method}</th>");
    }
    out.push_str("</tr>");
    for route in order {
        let _ = write!(out, "<tr><td class=\"route\">{}</td>", escape(route));
        for method in METHODS {
            match rows.get(route).and_then(|r| r.get(method)) {
                None => out.push_str("<td></td>"),
                Some(cell) => out.push_str(&cell_html(cell)),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

type Rows<'a> = BTreeMap<&'a str, BTreeMap<&'a str, Cell>>;

/// The routes in the interface's order, and the cells of each by method.
fn matrix_cells<'a>(reports: &[CaseReport], coverage: &'a Coverage) -> (Vec<&'a str>, Rows<'a>) {
    let outcomes: BTreeMap<&str, &CaseReport> = reports.iter().map(|r| (r.name.as_str(), r)).collect();
    let mut rows: Rows = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for section in coverage.sections.iter().filter(|s| s.kind == SectionKind::Routes) {
        for item in &section.items {
            if !order.contains(&item.group.as_str()) {
                order.push(&item.group);
            }
            let cell = rows.entry(&item.group).or_default().entry(&item.name).or_default();
            for case in &item.cases {
                let Some(report) = outcomes.get(case.as_str()) else { continue };
                match &report.outcome {
                    Outcome::Passed => cell.passed += 1,
                    Outcome::Skipped(_) => cell.skipped += 1,
                    Outcome::Failed | Outcome::Error(_) => match failing_cell(report) {
                        Some((route, method)) if route != item.group || method != item.name => {
                            cell.failed_elsewhere += 1
                        }
                        _ => cell.failed += 1,
                    },
                }
            }
        }
    }
    (order, rows)
}

/// The route (as the matrix shows it) and method of a failed case's failing step, when it sent
/// a request to a route of the interface.
fn failing_cell(report: &CaseReport) -> Option<(&'static str, String)> {
    let request = report.failed_step()?.request.as_ref()?;
    let route = crate::report::causes::route_in(crate::report::causes::path_of(&request.url))?;
    let route = if route.is_empty() { "/" } else { route };
    // A method override, as the coverage counts it (`_method=DELETE`, `X-HTTP-Method-Override`).
    let query = request.url.split_once('?').map_or("", |(_, q)| q);
    let from_query =
        form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "_method").map(|(_, v)| v.into_owned());
    let from_header = || {
        let header = request.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("x-http-method-override"));
        header.map(|(_, v)| v.trim().to_string())
    };
    let method = from_query.or_else(from_header).unwrap_or_else(|| request.method.clone());
    Some((route, method.to_ascii_uppercase()))
}

/// One cell: passed / failed / skipped, coloured by the worst.
fn cell_html(cell: &Cell) -> String {
    let Cell { passed: p, failed: f, skipped: s, failed_elsewhere: e } = *cell;
    let elsewhere = match e {
        0 => String::new(),
        1 => "; 1 more case sends it and failed at another route".to_string(),
        e => format!("; {e} more cases send it and failed at other routes"),
    };
    if (p, f, s, e) == (0, 0, 0, 0) {
        return "<td class=\"cell-none\" title=\"no selected case sends it\">·</td>".into();
    }
    let class = if f > 0 {
        "cell-fail"
    } else if p > 0 {
        "cell-pass"
    } else {
        "cell-skip"
    };
    format!(
        "<td class=\"{class}\" title=\"{p} passed, {f} failed here, {s} skipped{elsewhere}\"><span class=\"pass\">{p}</span> / <span class=\"fail\">{f}</span> / <span class=\"skip\">{s}</span></td>"
    )
}

fn failure(report: &CaseReport, index: usize, page: &Page, out: &mut String) {
    let secrets = page.secrets;
    let level = report.level.map(|l| l.name()).unwrap_or("none");
    let why = match (&report.outcome, report.expected_failure) {
        (Outcome::Passed, true) => "passed, and it is listed as an expected failure".to_string(),
        (Outcome::Error(reason), expected) => {
            format!("error: {}{}", secrets.redact(reason), if expected { " (expected)" } else { "" })
        }
        (_, true) => "failed, as expected".to_string(),
        _ => "failed".to_string(),
    };
    let _ = write!(
        out,
        "<article class=\"failure\" id=\"failure-{index}\" data-case=\"{name}\" data-level=\"{level}\"><h3>{name}</h3><p class=\"case-meta\">level {level} · {file} · {why}</p>",
        name = escape(&report.name),
        file = link(page, &report.file, None),
        why = escape(&why),
    );
    for step in &report.steps {
        step_html(report, step, page, out);
    }
    let cleanup: Vec<&StepRecord> = report.cleanup.iter().filter(|s| !s.ok() || s.skipped.is_some()).collect();
    if !cleanup.is_empty() {
        out.push_str("<p>Cleanup (does not fail the case):</p>");
        for step in cleanup {
            step_html(report, step, page, out);
        }
    }
    out.push_str("</article>\n");
}

fn link(page: &Page, file: &str, at: Option<crate::yaml::Pos>) -> String {
    let text = match at {
        Some(at) if at.is_known() => format!("{file}:{at}"),
        _ => file.to_string(),
    };
    if page.file_link_base.is_empty() {
        return format!("<code>{}</code>", escape(&text));
    }
    let href = if file.starts_with('/') { format!("file://{file}") } else { format!("{}{file}", page.file_link_base) };
    format!("<a href=\"{}\"><code>{}</code></a>", escape(&href), escape(&text))
}

fn step_html(report: &CaseReport, step: &StepRecord, page: &Page, out: &mut String) {
    let secrets = page.secrets;
    let bad = !step.ok();
    let _ = write!(out, "<div class=\"step{}\">", if bad { " bad" } else { "" });
    let title = match &step.request {
        Some(r) => format!("{}: {} {}", step.label, r.method, secrets.redact(&r.url)),
        None => step.label.clone(),
    };
    let _ = write!(out, "<div class=\"step-title\">{}</div>", escape(&title));
    if let Some(reason) = &step.skipped {
        let _ = write!(out, "<p>skipped: {}</p></div>", escape(reason));
        return;
    }
    if let Some(error) = &step.error {
        let _ = write!(out, "<p class=\"fail\">error: {}</p>", escape(&secrets.redact(&error.to_string())));
    }
    if let Some(status) = step.status {
        let _ = write!(out, "<p>status {status}</p>");
    }
    mismatches_html(report, step, page, out);
    if let Some(diff) = &step.diff {
        diff_html(diff, secrets, out);
    }
    let open = if bad { " open" } else { "" };
    if let Some(request) = &step.request {
        let _ = write!(
            out,
            "<details{open}><summary>request</summary><pre class=\"curl\">{}</pre>",
            escape(&curl(request, secrets, MAX_BODY))
        );
        if let Some(body) = &request.body {
            let shown = super::bounded_request_body(body, secrets);
            let _ = write!(out, "<pre class=\"request-body\">{}</pre>", escape(&shown));
        }
        out.push_str("</details>");
    }
    if let Some(body) = &step.body {
        let _ = write!(
            out,
            "<details{open}><summary>answer body ({} bytes)</summary><pre class=\"response-body\">{}</pre></details>",
            step.body_size,
            escape(&bounded_body(body, step.body_size, secrets))
        );
    }
    out.push_str("</div>");
}

/// A step's mismatches as a table, each linked to its line of the case file.
fn mismatches_html(report: &CaseReport, step: &StepRecord, page: &Page, out: &mut String) {
    if step.mismatches.is_empty() {
        return;
    }
    let secrets = page.secrets;
    out.push_str(
        "<table class=\"mismatches\"><tr><th>where</th><th>expected</th><th>actual</th><th>case file</th></tr>",
    );
    for m in step.mismatches.iter().take(crate::report::message::MAX_MISMATCHES) {
        let _ = write!(
            out,
            "<tr><td class=\"path\">{}</td><td class=\"pass\">{}</td><td class=\"fail\">{}</td><td>{}</td></tr>",
            escape(&m.path),
            escape(&secrets.redact(&m.expected)),
            escape(&secrets.redact(&m.actual)),
            if m.at.is_known() { link(page, &report.file, Some(m.at)) } else { String::new() }
        );
    }
    out.push_str("</table>");
    if step.mismatches.len() > crate::report::message::MAX_MISMATCHES {
        let _ =
            write!(out, "<p>… {} more mismatches</p>", step.mismatches.len() - crate::report::message::MAX_MISMATCHES);
    }
}

/// The diff of the expected pattern and the actual body, its lines coloured.
fn diff_html(diff: &crate::diff::Diff, secrets: &Secrets, out: &mut String) {
    out.push_str(
        "<details open><summary>diff of the expected pattern (−) and the actual body (+)</summary><pre class=\"diff\">",
    );
    for line in &diff.lines {
        let class = match line.kind {
            LineKind::Added => "add",
            LineKind::Removed => "del",
            LineKind::Hunk => "hunk",
            LineKind::Header | LineKind::Context => "",
        };
        let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(&secrets.redact(&line.text)));
    }
    if diff.cut_lines > 0 {
        let _ = writeln!(out, "… {} more diff lines cut", diff.cut_lines);
    }
    out.push_str("</pre></details>");
}

fn others(reports: &[CaseReport]) -> String {
    let passed: Vec<&CaseReport> =
        reports.iter().filter(|r| r.outcome == Outcome::Passed && !r.expected_failure).collect();
    let skipped: Vec<&CaseReport> = reports.iter().filter(|r| matches!(r.outcome, Outcome::Skipped(_))).collect();
    let mut out = String::new();
    let _ = write!(out, "<details id=\"passed\"><summary>Passed ({})</summary><ul class=\"cases\">", passed.len());
    for r in passed {
        let _ = write!(
            out,
            "<li data-case=\"{name}\">{name} <span class=\"skip\">({})</span></li>",
            r.level.map(|l| l.name()).unwrap_or(""),
            name = escape(&r.name)
        );
    }
    out.push_str("</ul></details>");
    let _ = write!(out, "<details id=\"skipped\"><summary>Skipped ({})</summary><ul class=\"cases\">", skipped.len());
    for r in skipped {
        let reason = match &r.outcome {
            Outcome::Skipped(reason) => reason.as_str(),
            _ => "",
        };
        let _ = write!(
            out,
            "<li data-case=\"{name}\">{name} <span class=\"skip\">({})</span>: {}</li>",
            r.level.map(|l| l.name()).unwrap_or(""),
            escape(reason),
            name = escape(&r.name)
        );
    }
    out.push_str("</ul></details>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::message::tests::failing_report;

    fn page(secrets: &Secrets) -> Page<'_> {
        Page { meta: "run r1", expectations_file: "", tally: None, coverage: None, file_link_base: "", secrets }
    }

    #[test]
    fn case_texts_cannot_inject_markup() {
        let mut report = failing_report();
        report.name = "events/x::<script>alert(1)</script>".into();
        report.steps[0].body = Some("</pre></details><img src=x onerror=alert(2)>{{FAILURES}}".into());
        report.steps[0].mismatches[0].actual = "\"><script>alert(3)</script>".into();
        let secrets = Secrets::shown();
        let html = render(&[report], &page(&secrets));
        assert_eq!(html.matches("<script").count(), 1, "only the template's own script");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("events/x::&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(
            html.contains("&lt;/pre&gt;&lt;/details&gt;&lt;img src=x onerror=alert(2)&gt;{{FAILURES}}"),
            "a placeholder in a body stays text"
        );
    }

    #[test]
    fn the_page_is_self_contained_and_masks_passwords() {
        let report = failing_report();
        let secrets = Secrets::of([("editor", "editor-password")]);
        let html = render(&[report], &page(&secrets));
        assert!(!html.contains("editor-password"));
        for outside in ["<link", " src=", "url(", "@import", "<iframe"] {
            assert!(!html.contains(outside), "{outside}");
        }
        assert!(
            html.contains(
                "<p id=\"verdict\" class=\"verdict fails\">verdict: DOES NOT CONFORM: 1 of 1 must cases failed</p>"
            ),
            "{html}"
        );
        assert!(html.contains("<span id=\"failure-count\">1</span>"));
        assert!(html.contains("<td class=\"path\">$.events[0].id</td>"));
    }

    #[test]
    fn the_matrix_counts_a_failed_case_at_its_failing_step_only() {
        // The case creates an event (POST /events, which passed) and fails reading it back.
        let mut report = failing_report();
        let mut passed = failing_report();
        passed.name = "events/create::one".into();
        passed.outcome = Outcome::Passed;
        let mut coverage = Coverage::empty(&crate::coverage::Options::default());
        for item in coverage.sections.iter_mut().flat_map(|s| &mut s.items) {
            if item.label == "POST /events" || item.label == "GET /events/<id>" {
                item.cases.insert(report.name.clone());
                item.cases.insert(passed.name.clone());
            }
        }
        let cells = |reports: &[CaseReport]| {
            let html = matrix(reports, Some(&coverage));
            let row = |route: &str| {
                let start = html.find(&format!("<td class=\"route\">{route}</td>")).unwrap();
                let row = &html[start..];
                row[..row.find("</tr>").unwrap()].to_string()
            };
            (row("/events"), row("/events/&lt;id&gt;"))
        };
        let (list, item) = cells(&[report.clone(), passed.clone()]);
        assert!(item.contains("title=\"1 passed, 1 failed here, 0 skipped\""), "the failing step's cell: {item}");
        assert!(
            list.contains(
                "title=\"1 passed, 0 failed here, 0 skipped; 1 more case sends it and failed at another route\""
            ),
            "POST /events did not fail: {list}"
        );
        // A case that failed before any request of the interface counts wherever it sends.
        report.steps[0].request = None;
        let (list, _) = cells(&[report, passed]);
        assert!(list.contains("title=\"1 passed, 1 failed here, 0 skipped\""), "{list}");
    }
}
