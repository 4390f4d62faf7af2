//! The summary printed after libtest's lines: pass counts per level and the verdict.
//!
//! The verdict rests on the must cases alone; should and may are reported as the share of
//! their cases that ran and passed. Skipped cases (absent features, missing credentials) count
//! in no share: they are reported per level beside it.

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

impl Count {
    /// The cases that ran (passed or failed).
    pub fn ran(&self) -> usize {
        self.passed + self.failed
    }

    /// The share of the cases that ran and passed, rounded down (so 100 means all), or `None`
    /// when none ran.
    pub fn percent(&self) -> Option<usize> {
        (self.passed * 100).checked_div(self.ran())
    }
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

    pub fn count(&self, level: Level) -> Count {
        self.levels.iter().find(|(l, _)| *l == level).map(|(_, c)| *c).unwrap_or_default()
    }

    /// True when every must case that ran passed and at least one ran.
    pub fn conforms(&self) -> bool {
        let must = self.count(Level::Must);
        must.failed == 0 && must.passed > 0 && self.file_errors == 0
    }
}

/// `should 95%, may 100%`: the levels after must that ran, with their share of passes.
fn shares(tally: &Tally) -> String {
    let parts: Vec<String> = [Level::Should, Level::May]
        .iter()
        .filter_map(|level| tally.count(*level).percent().map(|p| format!("{level} {p}%")))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The summary text.
pub fn render(tally: &Tally) -> String {
    let mut out = String::new();
    let levels: Vec<String> = tally
        .levels
        .iter()
        .map(|(level, c)| {
            let mut text = format!("{level}: {}/{}", c.passed, c.ran());
            if let (false, Some(percent)) = (*level == Level::Must, c.percent()) {
                let _ = write!(text, " = {percent}%");
            }
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
    } else if must.ran() == 0 {
        "verdict: unknown: no must case ran".to_string()
    } else if must.failed == 0 {
        format!("verdict: CONFORMS: every must case passed{}", shares(tally))
    } else {
        format!("verdict: DOES NOT CONFORM: {} of {} must cases failed{}", must.failed, must.ran(), shares(tally))
    };
    out.push_str(&verdict);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(must: (usize, usize, usize), should: (usize, usize, usize), may: (usize, usize, usize)) -> Tally {
        let count = |(passed, failed, skipped)| Count { passed, failed, skipped };
        Tally {
            levels: vec![(Level::Must, count(must)), (Level::Should, count(should)), (Level::May, count(may))],
            ..Tally::default()
        }
    }

    #[test]
    fn should_and_may_are_shares_and_skips_are_counted_per_level() {
        let text = render(&tally((89, 0, 2), (301, 18, 59), (2, 1, 0)));
        assert_eq!(
            text,
            "conformance: must: 89/89 (2 skipped), should: 301/319 = 94% (59 skipped), may: 2/3 = 66%\n\
             verdict: CONFORMS: every must case passed (should 94%, may 66%)\n"
        );
        let text = render(&tally((80, 11, 0), (10, 0, 0), (0, 0, 3)));
        assert!(text.contains("may: 0/0 (3 skipped)"), "{text}");
        assert!(text.ends_with("verdict: DOES NOT CONFORM: 11 of 91 must cases failed (should 100%)\n"), "{text}");
        let text = render(&tally((0, 0, 5), (1, 0, 0), (0, 0, 0)));
        assert!(text.ends_with("verdict: unknown: no must case ran\n"), "{text}");
    }

    #[test]
    fn a_share_is_rounded_down_so_100_means_all() {
        assert_eq!(Count { passed: 999, failed: 1, skipped: 0 }.percent(), Some(99));
        assert_eq!(Count { passed: 0, failed: 0, skipped: 4 }.percent(), None);
    }
}
