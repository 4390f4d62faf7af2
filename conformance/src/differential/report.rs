//! What `conformance diff` prints and writes: the differences by route, the agreement, one
//! final line; and the JSON report. The passwords of both sides are masked in both
//! ([`Secrets`]), and what the servers answered reaches the terminal with its control
//! characters escaped.

use std::fmt::Write;

use serde_json::{json, Value};

use super::compare::Kind;
use super::normalise::{Clocks, IdPairs};
use super::play::Side;
use super::score::{Collector, Ratio, RouteGroup, Score};
use crate::escape::terminal;
use crate::report::secrets::Secrets;

/// The run's context, for the report.
pub struct Context<'a> {
    pub sides: [&'a Side; 2],
    pub played: usize,
    /// (case name, why it was skipped).
    pub skipped: &'a [(String, String)],
    pub ids: &'a IdPairs,
    pub clocks: &'a Clocks,
    pub max_shown: usize,
    pub color: bool,
    /// The passwords of both sides.
    pub secrets: &'a Secrets,
}

impl Context<'_> {
    /// A text of the run (a server's value, a case's name) as the terminal shows it.
    fn shown(&self, text: &str) -> String {
        terminal(&self.secrets.redact(text)).into_owned()
    }
}

const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const RESET: &str = "\x1b[0m";

fn paint(color: bool, code: &str, text: &str) -> String {
    if color {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Answer => "answer",
        Kind::Status => "status",
        Kind::Code => "code",
        Kind::Header => "header",
        Kind::Key => "key",
        Kind::Shape => "shape",
        Kind::Value => "value",
        Kind::Item => "item",
        Kind::Order => "order",
        Kind::Body => "body",
    }
}

/// The terminal report.
pub fn render(collector: &Collector, ctx: &Context) -> String {
    let mut out = String::new();
    sides_and_cases(&mut out, ctx);
    let routes = collector.routes();
    let differing: Vec<_> = routes.iter().filter(|r| !r.findings.is_empty()).collect();
    if !differing.is_empty() {
        let _ = writeln!(out, "\ndifferences by route (path, kind, occurrences, A's and B's values where first seen):");
    }
    for group in &differing {
        route_differences(&mut out, group, ctx);
    }
    let _ = writeln!(out, "\nroutes: {} compared, {} with differences", routes.len(), differing.len());
    let _ = writeln!(
        out,
        "IDs paired: {}; clocks: {}",
        ctx.ids.len(),
        match ctx.clocks.offset {
            Some(0) => "B's agrees with A's".to_string(),
            Some(offset) =>
                format!("B's is {offset:+} s from A's (timestamps compared within {} s)", ctx.clocks.tolerance),
            None => "no timestamp pair seen".to_string(),
        }
    );
    out.push_str(&agreement(&collector.score));
    let line = final_line(&collector.score, routes.len(), differing.len());
    let color = if differing.is_empty() { GREEN } else { RED };
    let _ = writeln!(out, "{}", paint(ctx.color, color, &line));
    out
}

/// The head of the report: both sides, the cases played and skipped (the reasons counted).
fn sides_and_cases(out: &mut String, ctx: &Context) {
    for side in ctx.sides {
        let e = &side.endpoint;
        let _ = writeln!(
            out,
            "{}: {} (namespace {}, language parameter {})",
            side.name.letter(),
            ctx.shown(&e.base_url),
            ctx.shown(&e.namespace),
            ctx.shown(&e.language_param)
        );
    }
    let _ = writeln!(out, "cases: {} played, {} skipped", ctx.played, ctx.skipped.len());
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for (_, reason) in ctx.skipped {
        match reasons.iter_mut().find(|(r, _)| r == reason) {
            Some((_, n)) => *n += 1,
            None => reasons.push((reason, 1)),
        }
    }
    for (reason, n) in reasons {
        let _ = writeln!(out, "  skipped {n}: {}", ctx.shown(reason));
    }
}

/// A route's differences: the first `--max-shown` findings, each with where it was first seen.
fn route_differences(out: &mut String, group: &RouteGroup, ctx: &Context) {
    let header = format!("{}: {} of {} exchanges differ", ctx.shown(&group.route), group.differing, group.exchanges);
    let _ = writeln!(out, "{}", paint(ctx.color, BOLD, &header));
    for finding in group.findings.iter().take(ctx.max_shown) {
        let first = &finding.first;
        let _ = writeln!(out, "  {} ({}, {}×)", ctx.shown(&finding.path), kind_name(finding.kind), finding.count);
        let _ = writeln!(out, "      A: {}", ctx.shown(&first.a));
        let _ = writeln!(out, "      B: {}", ctx.shown(&first.b));
        let where_ = format!("{} {} {}", first.case, first.step, first.path);
        let _ = writeln!(out, "      first at {}", ctx.shown(&where_));
    }
    if group.findings.len() > ctx.max_shown {
        let _ = writeln!(out, "  … {} more (--max-shown, --json)", group.findings.len() - ctx.max_shown);
    }
}

/// The agreement block: one line per aspect, with what it counts.
fn agreement(score: &Score) -> String {
    let mut out = format!("\nagreement over {} exchanges", score.exchanges);
    if score.unanswered > 0 {
        let _ = write!(out, " ({} more answered by neither side, not scored)", score.unanswered);
    }
    out.push_str(":\n");
    let rows: [(&str, Ratio, &str); 5] = [
        ("status", score.status, "exchanges: both answered, with the same status"),
        ("code", score.code, "exchanges where a side refused with an error code: the same code"),
        ("keys", score.keys, "exchanges with JSON on both sides: the same keys in every object"),
        ("values", score.values, "exchanges: the same status and the same body, once normalised"),
        ("headers", score.headers, "exchanges both answered: the same compared headers"),
    ];
    for (name, ratio, what) in rows {
        let _ = writeln!(out, "  {name:<8} {:>6}  {} of {} {what}", ratio.shown(), ratio.agree, ratio.of);
    }
    out
}

/// `diff: status 100.0%, code 100.0%, keys 99.5%, values 92.3%, headers 100.0% over 1234 exchanges; 3 of 57 routes differ`.
pub fn final_line(score: &Score, routes: usize, differing: usize) -> String {
    format!(
        "diff: status {}, code {}, keys {}, values {}, headers {} over {} exchanges; {differing} of {routes} routes differ",
        score.status.shown(),
        score.code.shown(),
        score.keys.shown(),
        score.values.shown(),
        score.headers.shown(),
        score.exchanges
    )
}

/// The JSON report, every string of it masked.
pub fn json(collector: &Collector, ctx: &Context) -> Value {
    ctx.secrets.redact_value(json_unmasked(collector, ctx))
}

fn json_unmasked(collector: &Collector, ctx: &Context) -> Value {
    let side = |side: &Side| {
        json!({
            "base_url": side.endpoint.base_url,
            "namespace": side.endpoint.namespace,
            "language_param": side.endpoint.language_param,
        })
    };
    let ratio = |r: &Ratio| json!({"agree": r.agree, "of": r.of, "percent": r.percent()});
    let score = &collector.score;
    json!({
        "a": side(ctx.sides[0]),
        "b": side(ctx.sides[1]),
        "cases": {
            "played": ctx.played,
            "skipped": ctx.skipped.iter().map(|(name, reason)| json!({"name": name, "reason": reason})).collect::<Vec<_>>(),
        },
        "summary": {
            "exchanges": score.exchanges,
            "unanswered": score.unanswered,
            "status": ratio(&score.status),
            "code": ratio(&score.code),
            "keys": ratio(&score.keys),
            "values": ratio(&score.values),
            "headers": ratio(&score.headers),
        },
        "clock_offset_seconds": ctx.clocks.offset,
        "id_pairs": ctx.ids.pairs(),
        "routes": collector.routes(),
        "exchanges": collector.exchanges,
    })
}
