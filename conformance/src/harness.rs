//! The test harness: runs the trials (one per case) on a few threads and prints what libtest
//! prints (`test NAME ... ok`, the failures, `test result: ...`), in its pretty, terse or
//! JSON format, so that cargo and CI tools read it as any test binary's output.
//!
//! It is the runner's own rather than libtest-mimic's so that result lines fit the terminal
//! (and are not padded when output is not one), `--list` prints the names `--exact` accepts,
//! and the run can end with the runner's summary and verdict.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use clap::ValueEnum;

use crate::escape::terminal;

/// How results are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per case.
    #[default]
    Pretty,
    /// One character per case.
    Terse,
    /// libtest's JSON events, one a line.
    Json,
}

/// How a trial ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Passed,
    /// The message printed under "failures:".
    Failed(String),
    /// Skipped, with the reason printed after `ignored`.
    Ignored(String),
}

type Job = Box<dyn FnOnce() -> Verdict + Send>;

/// One test.
pub struct Trial {
    pub name: String,
    /// Printed before the name in brackets (the case's level), empty for none.
    pub kind: &'static str,
    /// How long the trial is expected to take, in any unit (a case: the requests it sends one
    /// after another). The heaviest start first, so that a long case does not start last and
    /// keep the run waiting on it alone.
    weight: u64,
    job: Job,
}

impl Trial {
    pub fn new(name: String, kind: &'static str, job: impl FnOnce() -> Verdict + Send + 'static) -> Trial {
        Trial { name, kind, weight: 0, job: Box::new(job) }
    }

    /// This trial with `weight` (see [`Trial`]'s field).
    pub fn weighted(self, weight: u64) -> Trial {
        Trial { weight, ..self }
    }
}

/// How to run and print.
#[derive(Clone, Debug)]
pub struct Options {
    pub format: Format,
    pub color: bool,
    pub threads: usize,
    /// The terminal's width when output goes to one: names are padded to line results up
    /// within it. `None`: no padding.
    pub width: Option<usize>,
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conclusion {
    pub passed: usize,
    pub failed: usize,
    pub ignored: usize,
    pub filtered_out: usize,
    pub elapsed: Duration,
}

/// The width of the terminal standard output goes to, or `None` when it is not a terminal.
/// `COLUMNS` when the shell exports it, else 100 columns.
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok());
    Some(columns.filter(|c| *c >= 20).unwrap_or(100))
}

/// Prints the trials as `--list` does: `NAME: test`, the names `--exact` takes (tools such as
/// cargo-nextest read the terse form); the pretty form adds each one's kind (the case's level)
/// after the name, and a count per kind.
pub fn list(trials: &[(&str, &str)], format: Format, out: &mut impl Write) {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for (name, kind) in trials {
        if format == Format::Pretty && !kind.is_empty() {
            let _ = writeln!(out, "{}: test [{kind}]", terminal(name));
        } else {
            let _ = writeln!(out, "{}: test", terminal(name));
        }
        match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    if format == Format::Pretty {
        // The levels from the strictest (other kinds after them, as they came).
        kinds.sort_by_key(|(k, _)| ["must", "should", "may"].iter().position(|l| l == k).unwrap_or(3));
        let plural = if trials.len() == 1 { "" } else { "s" };
        let per_kind: Vec<String> =
            kinds.iter().filter(|(k, _)| !k.is_empty()).map(|(k, n)| format!("{n} {k}")).collect();
        let per_kind = if per_kind.is_empty() { String::new() } else { format!(" ({})", per_kind.join(", ")) };
        let _ = writeln!(out, "\n{} test{plural}{per_kind}, 0 benchmarks", trials.len());
    }
}

/// Runs `trials` (those the selection kept; `filtered_out` is how many it left out) and
/// prints their results to standard output.
pub fn run(options: &Options, trials: Vec<Trial>, filtered_out: usize) -> Conclusion {
    run_to(options, trials, filtered_out, &mut std::io::stdout().lock())
}

/// [`run`], printing to `out`.
pub fn run_to(options: &Options, trials: Vec<Trial>, filtered_out: usize, out: &mut impl Write) -> Conclusion {
    let started = Instant::now();
    let mut printer = Printer::new(options, &trials);
    printer.title(out, trials.len());
    let total = trials.len();
    let mut trials = trials;
    // Longest first (stable: equal weights keep their order), so the last to start are short.
    trials.sort_by_key(|t| std::cmp::Reverse(t.weight));
    let queue: Vec<Mutex<Option<Trial>>> = trials.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(String, &'static str, Verdict)>();
    let mut conclusion = Conclusion { filtered_out, ..Conclusion::default() };
    let mut failures = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..options.threads.clamp(1, total.max(1)) {
            let sender = sender.clone();
            let (queue, next) = (&queue, &next);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(slot) = queue.get(index) else { break };
                let Some(trial) = slot.lock().ok().and_then(|mut t| t.take()) else { continue };
                let verdict = catch_unwind(AssertUnwindSafe(trial.job)).unwrap_or_else(|panic| {
                    let text = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    Verdict::Failed(format!("the runner panicked: {text}"))
                });
                if sender.send((trial.name, trial.kind, verdict)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (name, kind, verdict) in receiver {
            printer.result(out, &name, kind, &verdict);
            match verdict {
                Verdict::Passed => conclusion.passed += 1,
                Verdict::Ignored(_) => conclusion.ignored += 1,
                Verdict::Failed(message) => {
                    conclusion.failed += 1;
                    failures.push((name, message));
                }
            }
        }
    });
    conclusion.elapsed = started.elapsed();
    failures.sort();
    printer.end(out, &failures, &conclusion);
    let _ = out.flush();
    conclusion
}

struct Printer {
    format: Format,
    color: bool,
    /// Names are padded to this many characters (0: no padding).
    name_width: usize,
    kind_width: usize,
    /// Terse output: characters on the current line.
    column: usize,
}

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

impl Printer {
    fn new(options: &Options, trials: &[Trial]) -> Printer {
        let kind_width = match options.width {
            Some(_) => trials.iter().map(|t| if t.kind.is_empty() { 0 } else { t.kind.len() + 3 }).max().unwrap_or(0),
            None => 0,
        };
        let longest = trials.iter().map(|t| t.name.chars().count()).max().unwrap_or(0);
        // `test ` + kind + name + ` ... ignored`: pad only as far as the terminal allows.
        let name_width = match options.width {
            Some(width) => longest.min(width.saturating_sub(5 + kind_width + 12)),
            None => 0,
        };
        Printer { format: options.format, color: options.color, name_width, kind_width, column: 0 }
    }

    fn paint(&self, color: &str, text: &str) -> String {
        if self.color {
            format!("{color}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    fn title(&mut self, out: &mut impl Write, count: usize) {
        match self.format {
            Format::Json => {
                let _ = writeln!(out, r#"{{ "type": "suite", "event": "started", "test_count": {count} }}"#);
            }
            _ => {
                let _ = writeln!(out, "\nrunning {count} test{}", if count == 1 { "" } else { "s" });
            }
        }
    }

    fn result(&mut self, out: &mut impl Write, name: &str, kind: &str, verdict: &Verdict) {
        match self.format {
            Format::Pretty => {
                let kind = if kind.is_empty() { String::new() } else { format!("[{kind}] ") };
                let result = match verdict {
                    Verdict::Passed => self.paint(GREEN, "ok"),
                    Verdict::Failed(_) => self.paint(RED, "FAILED"),
                    Verdict::Ignored(reason) if reason.is_empty() => self.paint(YELLOW, "ignored"),
                    Verdict::Ignored(reason) => format!("{} ({})", self.paint(YELLOW, "ignored"), terminal(reason)),
                };
                // A name is the case file's text: it cannot drive the terminal or forge a line.
                let name = terminal(name);
                let (kind_width, name_width) = (self.kind_width, self.name_width);
                let _ = writeln!(out, "test {kind:<kind_width$}{name:<name_width$} ... {result}");
            }
            Format::Terse => {
                let mark = match verdict {
                    Verdict::Passed => self.paint(GREEN, "."),
                    Verdict::Failed(_) => self.paint(RED, "F"),
                    Verdict::Ignored(_) => self.paint(YELLOW, "i"),
                };
                let _ = write!(out, "{mark}");
                self.column += 1;
                if self.column % 88 == 0 {
                    let _ = writeln!(out);
                }
            }
            Format::Json => {
                let name = json_string(name);
                let _ = writeln!(out, r#"{{ "type": "test", "event": "started", "name": {name} }}"#);
                let _ = match verdict {
                    Verdict::Passed => writeln!(out, r#"{{ "type": "test", "name": {name}, "event": "ok" }}"#),
                    Verdict::Failed(message) => writeln!(
                        out,
                        r#"{{ "type": "test", "name": {name}, "event": "failed", "stdout": {} }}"#,
                        json_string(message)
                    ),
                    Verdict::Ignored(reason) => writeln!(
                        out,
                        r#"{{ "type": "test", "name": {name}, "event": "ignored", "message": {} }}"#,
                        json_string(reason)
                    ),
                };
            }
        }
    }

    fn end(&mut self, out: &mut impl Write, failures: &[(String, String)], c: &Conclusion) {
        if self.format == Format::Json {
            let event = if c.failed == 0 { "ok" } else { "failed" };
            let _ = writeln!(
                out,
                r#"{{ "type": "suite", "event": "{event}", "passed": {}, "failed": {}, "ignored": {}, "measured": 0, "filtered_out": {}, "exec_time": {:.3} }}"#,
                c.passed,
                c.failed,
                c.ignored,
                c.filtered_out,
                c.elapsed.as_secs_f64()
            );
            return;
        }
        if self.format == Format::Terse && self.column % 88 != 0 {
            let _ = writeln!(out);
        }
        if !failures.is_empty() {
            let _ = writeln!(out, "\nfailures:\n");
            for (name, message) in failures {
                let _ = writeln!(out, "---- {} ----\n{message}", terminal(name));
            }
            let _ = writeln!(out, "\nfailures:");
            for (name, _) in failures {
                let _ = writeln!(out, "    {}", terminal(name));
            }
        }
        let result = if c.failed == 0 { self.paint(GREEN, "ok") } else { self.paint(RED, "FAILED") };
        let _ = writeln!(
            out,
            "\ntest result: {result}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out; finished in {:.2}s",
            c.passed,
            c.failed,
            c.ignored,
            c.filtered_out,
            c.elapsed.as_secs_f64()
        );
    }
}

/// A JSON string, the characters a terminal acts on escaped (`\u009b`) as in every JSON output.
fn json_string(text: &str) -> String {
    crate::escape::json_document(serde_json::Value::String(text.to_string()).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(options: &Options, verdicts: &[(&str, Verdict)]) -> String {
        let trials: Vec<Trial> = verdicts
            .iter()
            .map(|(name, v)| {
                let v = v.clone();
                Trial::new(name.to_string(), "must", move || v)
            })
            .collect();
        let mut printer = Printer::new(options, &trials);
        let mut out = Vec::new();
        for (name, v) in verdicts {
            printer.result(&mut out, name, "must", v);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_are_padded_within_the_terminal_and_not_at_all_elsewhere() {
        let long = "x".repeat(140);
        let verdicts = [("a::short", Verdict::Passed), (long.as_str(), Verdict::Passed)];
        let plain = Options { format: Format::Pretty, color: false, threads: 1, width: None };
        assert_eq!(printed(&plain, &verdicts).lines().next(), Some("test [must] a::short ... ok"));
        let terminal = Options { width: Some(80), ..plain };
        let text = printed(&terminal, &verdicts);
        let first = text.lines().next().unwrap();
        assert!(first.len() <= 80, "{first:?}");
        assert!(first.starts_with("test [must] a::short    ") && first.ends_with(" ... ok"), "{first:?}");
    }

    #[test]
    fn the_heaviest_trials_start_first_and_equal_weights_keep_their_order() {
        let started = std::sync::Arc::new(Mutex::new(Vec::new()));
        let trials: Vec<Trial> = [("a", 1), ("b", 0), ("c", 525), ("d", 1), ("e", 40)]
            .into_iter()
            .map(|(name, weight)| {
                let started = started.clone();
                Trial::new(name.to_string(), "", move || {
                    started.lock().unwrap().push(name);
                    Verdict::Passed
                })
                .weighted(weight)
            })
            .collect();
        let options = Options { format: Format::Terse, color: false, threads: 1, width: None };
        let c = run_to(&options, trials, 0, &mut Vec::new());
        assert_eq!(c.passed, 5);
        assert_eq!(*started.lock().unwrap(), ["c", "e", "a", "d", "b"]);
    }

    #[test]
    fn every_trial_runs_once_and_panics_fail_their_trial() {
        let trials: Vec<Trial> = (0..20)
            .map(|i| {
                Trial::new(format!("t{i}"), "", move || match i {
                    3 => panic!("boom"),
                    5 => Verdict::Ignored("why".into()),
                    _ => Verdict::Passed,
                })
            })
            .collect();
        let options = Options { format: Format::Terse, color: false, threads: 4, width: None };
        let mut out = Vec::new();
        let c = run_to(&options, trials, 2, &mut out);
        assert_eq!((c.passed, c.failed, c.ignored, c.filtered_out), (18, 1, 1, 2));
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("---- t3 ----\nthe runner panicked: boom"), "{out}");
        assert!(
            out.contains("test result: FAILED. 18 passed; 1 failed; 1 ignored; 0 measured; 2 filtered out"),
            "{out}"
        );
    }

    #[test]
    fn list_prints_the_names_exact_takes() {
        let mut out = Vec::new();
        list(&[("a::one", "must"), ("b::two", "may")], Format::Terse, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), "a::one: test\nb::two: test\n");
        let mut out = Vec::new();
        list(&[("b::two", "may"), ("a::one", "must"), ("c::x", "must")], Format::Pretty, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "b::two: test [may]\na::one: test [must]\nc::x: test [must]\n\n3 tests (2 must, 1 may), 0 benchmarks\n"
        );
    }
}
