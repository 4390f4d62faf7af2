//! The summary printed after libtest's lines: pass counts per level and the verdict.

use std::fmt::Write;

use crate::model::Level;
use crate::outcome::{CaseReport, Outcome};

/// Counts of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// Everything the summary says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub levels: Vec<(Level, Count)>,
    pub file_errors: usize,
    pub expected_failures: usize,
    pub unexpected_passes: usize,
}

impl Tally {
    pub fn of(reports: &[CaseReport]) -> Tally {
        let mut tally =
            Tally { levels: Level::ALL.iter().map(|l| (*l, Count::default())).collect(), ..Tally::default() };
        for report in reports {
            let Some(level) = report.level else {
                tally.file_errors += 1;
                continue;
            };
            let Some((_, count)) = tally.levels.iter_mut().find(|(l, _)| *l == level) else {
                continue;
            };
            match report.outcome {
                Outcome::Passed => {
                    count.passed += 1;
                    if report.expected_failure {
                        tally.unexpected_passes += 1;
                    }
                }
                Outcome::Failed | Outcome::Error(_) => {
                    count.failed += 1;
                    if report.expected_failure {
                        tally.expected_failures += 1;
                    }
                }
                Outcome::Skipped(_) => count.skipped += 1,
            }
        }
        tally
    }

    fn count(&self, level: Level) -> Count {
        self.levels.iter().find(|(l, _)| *l == level).map(|(_, c)| *c).unwrap_or_default()
    }

    /// True when every must case that ran passed and at least one ran.
    pub fn conforms(&self) -> bool {
        let must = self.count(Level::Must);
        must.failed == 0 && must.passed > 0 && self.file_errors == 0
    }
}

/// The summary text.
pub fn render(tally: &Tally) -> String {
    let mut out = String::new();
    let levels: Vec<String> = tally
        .levels
        .iter()
        .map(|(level, c)| {
            let mut text = format!("{level}: {}/{}", c.passed, c.passed + c.failed);
            if c.skipped > 0 {
                let _ = write!(text, " ({} skipped)", c.skipped);
            }
            text
        })
        .collect();
    let _ = writeln!(out, "conformance: {}", levels.join(", "));
    if tally.file_errors > 0 {
        let _ = writeln!(out, "case files with errors: {} (their cases did not run)", tally.file_errors);
    }
    if tally.expected_failures > 0 || tally.unexpected_passes > 0 {
        let _ = writeln!(
            out,
            "expectations: {} expected failures, {} unexpected passes (remove those from the expectations file)",
            tally.expected_failures, tally.unexpected_passes
        );
    }
    let must = tally.count(Level::Must);
    let verdict = if tally.file_errors > 0 {
        "verdict: unknown: some case files could not be loaded".to_string()
    } else if must.passed + must.failed == 0 {
        "verdict: unknown: no must case ran".to_string()
    } else if must.failed == 0 {
        let should = tally.count(Level::Should);
        let ran = should.passed + should.failed;
        match (should.passed * 100).checked_div(ran) {
            Some(percent) => {
                format!("verdict: CONFORMS: every must case passed ({percent}% of should)")
            }
            None => "verdict: CONFORMS: every must case passed".to_string(),
        }
    } else {
        format!("verdict: DOES NOT CONFORM: {} of {} must cases failed", must.failed, must.passed + must.failed)
    };
    out.push_str(&verdict);
    out.push('\n');
    out
}
