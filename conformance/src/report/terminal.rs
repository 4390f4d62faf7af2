//! What the terminal shows beside the harness's lines: the warning of a passing case whose
//! cleanup went wrong. (The failure text itself is [`super::message`], shared with JUnit.)

use crate::outcome::CaseReport;
use crate::report::secrets::Secrets;

/// A short warning for a passing case whose cleanup went wrong.
pub fn cleanup_warning(report: &CaseReport, secrets: &Secrets) -> Option<String> {
    let problems: Vec<String> = report
        .cleanup_problems()
        .map(|s| {
            let why = s.error.as_ref().map(|e| e.to_string()).or_else(|| s.mismatches.first().map(|m| m.to_string()));
            format!("{}: {}", s.label, super::message::shown(secrets, &why.unwrap_or_default()))
        })
        .collect();
    if problems.is_empty() {
        None
    } else {
        let name = crate::escape::terminal(&report.name);
        Some(format!("warning: {name}: cleanup did not go well: {}", problems.join("; ")))
    }
}
