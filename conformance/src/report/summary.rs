//! The summary printed after the harness's lines: pass counts per level, then one final line
//! with the verdict and why the exit status is what it is.
//!
//! The verdict rests on the must cases alone; should and may are reported as the share of
//! their cases that ran and passed. Skipped cases (absent features, missing credentials) count
//! in no share: they are reported per level beside it. The exit status counts every level
//! (a failing should case fails a CI gate) and forgives the failures `--expectations` lists,
//! so verdict and exit status can differ; the final line says both, and why.

use std::fmt::Write;

use crate::model::Level;
use crate::outcome::{CaseReport, Outcome};
use crate::runner::liveness::NOT_RUN;

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
    /// Failed cases that the expectations do not list, per level (in the order of `levels`).
    pub unexpected_failures: Vec<(Level, usize)>,
    /// Must cases that the selection (name filters, `--tag`, `--route`, `--skip`) left out: a
    /// verdict on the others says so.
    pub must_left_out: usize,
    /// Cases not run because the implementation stopped answering ([`NOT_RUN`]).
    pub not_run: usize,
    /// What the selection kept and left out.
    pub scope: Scope,
}

/// What the run's selection kept and left out: every report says it beside the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    /// The options that selected (`--route "/venues*", --level must`); empty for the whole suite.
    pub options: String,
    /// The cases selected (files that did not load count as one each).
    pub selected: usize,
    /// The cases the selection left out.
    pub left_out: usize,
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
        let mut tally = Tally {
            levels: Level::ALL.iter().map(|l| (*l, Count::default())).collect(),
            unexpected_failures: Level::ALL.iter().map(|l| (*l, 0)).collect(),
            ..Tally::default()
        };
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
                    } else if let Some((_, n)) = tally.unexpected_failures.iter_mut().find(|(l, _)| *l == level) {
                        *n += 1;
                    }
                }
                Outcome::Skipped(ref reason) => {
                    count.skipped += 1;
                    tally.not_run += usize::from(reason.starts_with(NOT_RUN));
                }
            }
        }
        tally
    }

    pub fn count(&self, level: Level) -> Count {
        self.levels.iter().find(|(l, _)| *l == level).map(|(_, c)| *c).unwrap_or_default()
    }

    /// The exit status: 2 when files did not load, 101 when a case failed that the
    /// expectations do not list (or one they list passed), 0 otherwise.
    pub fn exit_status(&self) -> i32 {
        if self.file_errors > 0 {
            2
        } else if self.unexpected() > 0 || self.unexpected_passes > 0 || self.not_run > 0 {
            101
        } else {
            0
        }
    }

    /// Failed cases the expectations do not list.
    pub fn unexpected(&self) -> usize {
        self.unexpected_failures.iter().map(|(_, n)| n).sum()
    }

    /// True when every must case that ran passed and at least one ran (and the implementation
    /// did not stop answering before the others could run).
    pub fn conforms(&self) -> bool {
        let must = self.count(Level::Must);
        must.failed == 0 && must.passed > 0 && self.file_errors == 0 && self.not_run == 0
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

/// The run as every report states it: its tally (with the selection) and the `--expectations`
/// file (empty without one).
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    pub tally: &'a Tally,
    pub expectations_file: &'a str,
}

impl Run<'_> {
    /// [`verdict_line`].
    pub fn verdict_line(&self) -> String {
        verdict_line(self.tally, self.expectations_file)
    }

    /// [`selection_line`].
    pub fn selection_line(&self) -> Option<String> {
        selection_line(self.tally)
    }
}

/// The selection line (`selection: --route "/venues*": 14 cases selected, 755 left out (90 of
/// them must)`), when the run is not of the whole suite.
pub fn selection_line(tally: &Tally) -> Option<String> {
    let scope = &tally.scope;
    if scope.options.is_empty() && scope.left_out == 0 {
        return None;
    }
    let options = if scope.options.is_empty() { String::new() } else { format!("{}: ", scope.options) };
    Some(format!(
        "selection: {options}{} cases selected, {} left out ({} of them must)",
        scope.selected, scope.left_out, tally.must_left_out
    ))
}

/// The summary text. `expectations_file` names the `--expectations` file (empty without one).
pub fn render(tally: &Tally, expectations_file: &str) -> String {
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
    if let Some(line) = selection_line(tally) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{}", verdict_line(tally, expectations_file));
    out
}

/// The final line, the same in every report: the verdict, then the exit status and why.
pub fn verdict_line(tally: &Tally, expectations_file: &str) -> String {
    let must = tally.count(Level::Must);
    let verdict = if tally.file_errors > 0 {
        "verdict: unknown: some case files could not be loaded".to_string()
    } else if tally.not_run > 0 {
        format!("verdict: unknown: the implementation stopped answering, and {} cases were not run", tally.not_run)
    } else if must.ran() == 0 {
        "verdict: unknown: no must case ran".to_string()
    } else if must.failed == 0 && tally.must_left_out > 0 {
        format!(
            "verdict: CONFORMS on the {} must cases selected ({} left out by the selection){}",
            must.ran(),
            tally.must_left_out,
            shares(tally)
        )
    } else if must.failed == 0 {
        format!("verdict: CONFORMS: every must case passed{}", shares(tally))
    } else {
        let left_out = match tally.must_left_out {
            0 => String::new(),
            n => format!(" selected ({n} left out by the selection)"),
        };
        format!(
            "verdict: DOES NOT CONFORM: {} of {} must cases{left_out} failed{}",
            must.failed,
            must.ran(),
            shares(tally)
        )
    };
    format!("{verdict}; {}", exit_reason(tally, expectations_file))
}

/// `exit status N: why`, for the final line.
fn exit_reason(tally: &Tally, expectations_file: &str) -> String {
    let list = if expectations_file.is_empty() { "the expectations file" } else { expectations_file };
    let plural = |n: usize, one: &str, many: &str| if n == 1 { format!("{n} {one}") } else { format!("{n} {many}") };
    match tally.exit_status() {
        2 => format!(
            "exit status 2: {} could not be loaded (see the errors above)",
            plural(tally.file_errors, "case file", "case files")
        ),
        101 => {
            let mut why = Vec::new();
            let levels: Vec<String> = tally
                .unexpected_failures
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(level, n)| format!("{n} {level}"))
                .collect();
            if !levels.is_empty() {
                let count = tally.unexpected();
                let listed = if tally.expected_failures > 0 { " that the expectations do not list" } else { "" };
                let cases = match levels.as_slice() {
                    [one] if count == 1 => format!("{one} case"),
                    [one] => format!("{one} cases"),
                    _ => format!("{count} cases ({})", levels.join(", ")),
                };
                why.push(format!("{cases} failed{listed}"));
            }
            if tally.unexpected_passes > 0 {
                why.push(format!(
                    "{} listed in {list} passed (remove {} from the list)",
                    plural(tally.unexpected_passes, "case", "cases"),
                    if tally.unexpected_passes == 1 { "it" } else { "them" }
                ));
            }
            if tally.not_run > 0 {
                why.push(format!(
                    "{} not run, as the implementation stopped answering",
                    plural(tally.not_run, "case", "cases")
                ));
            }
            let mut text = format!("exit status 101: {}", why.join("; "));
            if tally.conforms() {
                text.push_str(" (the exit status counts every level; --level must gates on the verdict alone)");
            }
            text
        }
        _ if tally.expected_failures > 0 => format!(
            "exit status 0: {} listed in {list} as expected",
            plural(tally.expected_failures, "failure is", "failures are all")
        ),
        _ => "exit status 0: no case failed".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(must: (usize, usize, usize), should: (usize, usize, usize), may: (usize, usize, usize)) -> Tally {
        let count = |(passed, failed, skipped)| Count { passed, failed, skipped };
        Tally {
            levels: vec![(Level::Must, count(must)), (Level::Should, count(should)), (Level::May, count(may))],
            unexpected_failures: vec![(Level::Must, must.1), (Level::Should, should.1), (Level::May, may.1)],
            ..Tally::default()
        }
    }

    #[test]
    fn should_and_may_are_shares_and_skips_are_counted_per_level() {
        let text = render(&tally((89, 0, 2), (301, 18, 59), (2, 1, 0)), "");
        assert_eq!(
            text,
            "conformance: must: 89/89 (2 skipped), should: 301/319 = 94% (59 skipped), may: 2/3 = 66%\n\
             verdict: CONFORMS: every must case passed (should 94%, may 66%); exit status 101: 19 cases (18 should, 1 may) \
             failed (the exit status counts every level; --level must gates on the verdict alone)\n"
        );
        let text = render(&tally((80, 11, 0), (10, 0, 0), (0, 0, 3)), "");
        assert!(text.contains("may: 0/0 (3 skipped)"), "{text}");
        assert!(
            text.ends_with(
                "verdict: DOES NOT CONFORM: 11 of 91 must cases failed (should 100%); exit status 101: 11 must cases failed\n"
            ),
            "{text}"
        );
        let text = render(&tally((0, 0, 5), (1, 0, 0), (0, 0, 0)), "");
        assert!(text.ends_with("verdict: unknown: no must case ran; exit status 0: no case failed\n"), "{text}");
    }

    #[test]
    fn the_final_line_says_why_the_exit_status_differs_from_the_verdict() {
        let mut t = tally((80, 3, 0), (10, 0, 0), (0, 0, 0));
        t.unexpected_failures = vec![(Level::Must, 0), (Level::Should, 0), (Level::May, 0)];
        t.expected_failures = 3;
        let text = render(&t, "known.txt");
        assert_eq!(text.lines().count(), 2, "one count line, one final line: {text}");
        assert!(text.ends_with("verdict: DOES NOT CONFORM: 3 of 83 must cases failed (should 100%); exit status 0: 3 failures are all listed in known.txt as expected\n"), "{text}");
        t.unexpected_passes = 1;
        assert!(render(&t, "known.txt")
            .ends_with("exit status 101: 1 case listed in known.txt passed (remove it from the list)\n"));
        t.file_errors = 2;
        assert_eq!(t.exit_status(), 2);
        assert!(render(&t, "").contains("exit status 2: 2 case files could not be loaded"));
    }

    #[test]
    fn a_share_is_rounded_down_so_100_means_all() {
        assert_eq!(Count { passed: 999, failed: 1, skipped: 0 }.percent(), Some(99));
        assert_eq!(Count { passed: 0, failed: 0, skipped: 4 }.percent(), None);
    }

    #[test]
    fn a_verdict_on_a_selection_says_how_many_must_cases_it_left_out() {
        let mut t = tally((31, 0, 0), (5, 0, 0), (0, 0, 0));
        t.must_left_out = 61;
        let text = render(&t, "");
        assert!(
            text.contains("verdict: CONFORMS on the 31 must cases selected (61 left out by the selection)"),
            "{text}"
        );
        let mut t = tally((29, 2, 0), (0, 0, 0), (0, 0, 0));
        t.must_left_out = 61;
        let text = render(&t, "");
        assert!(
            text.contains("DOES NOT CONFORM: 2 of 31 must cases selected (61 left out by the selection) failed"),
            "{text}"
        );
    }
}
