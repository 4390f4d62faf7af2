//! Evaluating templates against a case's variables.
//!
//! A string that is exactly one `{{...}}` evaluates to the variable's JSON value (its type is
//! kept); any other string interpolates the values as text. [`Env`] holds the variables of one
//! running case: data (captures, built-ins) and patterns (`vars`, whose matchers work).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, Datelike, Duration, Months, Utc};
use serde_json::{Number, Value};

use crate::node::{Key, Node, NodeKind};
use crate::template::{Access, DateArg, Expr, Filter, Head, Part, Template, Unit};

/// Applies an offset and optional time to `now`; months and years clamp to the month's end; a
/// weekday moves to the n-th such day after (or before) the day, never staying on it.
pub fn apply_date_arg(now: DateTime<Utc>, arg: &DateArg) -> Result<DateTime<Utc>, TemplateError> {
    let overflow = || TemplateError("date offset out of range".to_string());
    let mut at = now;
    for &(amount, unit) in &arg.offset {
        at = match unit {
            Unit::Minute => at.checked_add_signed(Duration::try_minutes(amount).ok_or_else(overflow)?),
            Unit::Hour => at.checked_add_signed(Duration::try_hours(amount).ok_or_else(overflow)?),
            Unit::Day => at.checked_add_signed(Duration::try_days(amount).ok_or_else(overflow)?),
            Unit::Week => at.checked_add_signed(Duration::try_weeks(amount).ok_or_else(overflow)?),
            Unit::Weekday(day) => {
                let today = i64::from(at.weekday().num_days_from_monday());
                let target = i64::from(day);
                // The first such day after (or before) `at`, then whole weeks for the rest.
                let first = if amount > 0 {
                    (target - today - 1).rem_euclid(7) + 1
                } else {
                    -((today - target - 1).rem_euclid(7) + 1)
                };
                let weeks = amount.checked_sub(amount.signum()).and_then(|w| w.checked_mul(7)).ok_or_else(overflow)?;
                let days = first.checked_add(weeks).ok_or_else(overflow)?;
                at.checked_add_signed(Duration::try_days(days).ok_or_else(overflow)?)
            }
            Unit::Month | Unit::Year => {
                let months =
                    if unit == Unit::Year { amount.checked_mul(12) } else { Some(amount) }.ok_or_else(overflow)?;
                let count = u32::try_from(months.unsigned_abs()).map_err(|_| overflow())?;
                if months >= 0 {
                    at.checked_add_months(Months::new(count))
                } else {
                    at.checked_sub_months(Months::new(count))
                }
            }
        }
        .ok_or_else(overflow)?;
    }
    if let Some(time) = arg.time {
        at = at.date_naive().and_time(time).and_utc();
    }
    Ok(at)
}

/// A failure while evaluating a template at run time.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateError(pub String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a variable holds: data (captures, built-ins) or a pattern (`vars`, whose matchers work).
#[derive(Clone, Debug)]
pub enum Binding {
    Data(Value),
    Pattern(Node),
}

/// The result of evaluating one expression.
#[derive(Clone, Debug)]
pub enum Resolved<'a> {
    Data(Value),
    Pattern(&'a Node),
}

/// The variables of one running case.
#[derive(Clone, Debug)]
pub struct Env {
    vars: BTreeMap<String, Binding>,
    now: DateTime<Utc>,
    depth: Cell<usize>,
    /// Bytes the templates of the current step produced so far (see [`MAX_EXPANSION`]).
    produced: Cell<usize>,
    /// Whether an expected text that is a date and time matches the same date and time in any
    /// common form (`$date`): so in must cases, as the interface shows no date format.
    dates_as_dates: bool,
}

/// The most bytes the templates of one step may produce (a filler, a copied value and each
/// text they are interpolated into count): a template bomb built from `vars` or from large
/// captured values stops with an error instead of exhausting memory.
pub const MAX_EXPANSION: usize = 192 * 1024 * 1024;

const MAX_DEPTH: usize = 32;

impl Env {
    /// An environment whose clock is fixed at `now` for the whole case.
    pub fn new(now: DateTime<Utc>) -> Env {
        Env { vars: BTreeMap::new(), now, depth: Cell::new(0), produced: Cell::new(0), dates_as_dates: false }
    }

    /// Expected dates and times compare as dates and times whatever their form ([`Env::dates_as_dates`]).
    pub fn compare_dates_as_dates(&mut self) {
        self.dates_as_dates = true;
    }

    /// Whether expected dates and times compare as dates and times.
    pub fn dates_as_dates(&self) -> bool {
        self.dates_as_dates
    }

    pub fn set(&mut self, name: &str, binding: Binding) {
        self.vars.insert(name.to_string(), binding);
    }

    pub fn get(&self, name: &str) -> Option<&Binding> {
        self.vars.get(name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.vars.contains_key(name) || name == "now"
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// Starts the expansion budget of a new step.
    pub fn reset_budget(&self) {
        self.produced.set(0);
    }

    /// Counts `bytes` more produced; an error past [`MAX_EXPANSION`].
    fn charge(&self, bytes: usize) -> Result<(), TemplateError> {
        let total = self.produced.get().saturating_add(bytes);
        self.produced.set(total);
        if total > MAX_EXPANSION {
            return Err(TemplateError(format!(
                "the templates of this step expand to more than {} MiB: a template that repeats a large value \
                 (or variables that refer to each other many times) cannot be sent",
                MAX_EXPANSION / (1024 * 1024)
            )));
        }
        Ok(())
    }

    fn enter(&self) -> Result<DepthGuard<'_>, TemplateError> {
        let depth = self.depth.get() + 1;
        if depth > MAX_DEPTH {
            return Err(TemplateError("variables refer to each other in a loop".into()));
        }
        self.depth.set(depth);
        Ok(DepthGuard(&self.depth))
    }

    /// Evaluates one expression.
    pub fn eval<'a>(&'a self, expr: &Expr) -> Result<Resolved<'a>, TemplateError> {
        let _guard = self.enter()?;
        let mut resolved = self.head(&expr.head)?;
        for step in &expr.access {
            resolved = self.access(resolved, step, expr)?;
        }
        if expr.filters.is_empty() {
            return Ok(resolved);
        }
        let mut value = match resolved {
            Resolved::Data(value) => value,
            Resolved::Pattern(node) => self.render_data(node)?,
        };
        for filter in &expr.filters {
            value = apply_filter(*filter, value, expr)?;
        }
        Ok(Resolved::Data(value))
    }

    /// What the head of an expression gives: a variable's binding or a built-in's value.
    fn head<'a>(&'a self, head: &Head) -> Result<Resolved<'a>, TemplateError> {
        Ok(match head {
            Head::Var(name) if name == "now" && !self.vars.contains_key("now") => {
                Resolved::Data(Value::String(self.now.format("%Y-%m-%d %H:%M:%S").to_string()))
            }
            Head::Var(name) => match self.vars.get(name) {
                Some(Binding::Data(value)) => {
                    self.charge(size_of(value, MAX_EXPANSION))?;
                    Resolved::Data(value.clone())
                }
                Some(Binding::Pattern(node)) => Resolved::Pattern(node),
                None => {
                    return Err(TemplateError(format!("unknown variable `{name}`")));
                }
            },
            Head::Date(arg) => {
                Resolved::Data(Value::String(apply_date_arg(self.now, arg)?.format("%Y-%m-%d").to_string()))
            }
            Head::DateTime(arg) => {
                Resolved::Data(Value::String(apply_date_arg(self.now, arg)?.format("%Y-%m-%d %H:%M:%S").to_string()))
            }
            Head::Timestamp(arg) => Resolved::Data(Value::Number(apply_date_arg(self.now, arg)?.timestamp().into())),
            Head::Filler(size) => {
                self.charge(*size)?;
                Resolved::Data(Value::String("x".repeat(*size)))
            }
        })
    }

    /// One `.key` or `[index]` of `expr` applied to what the expression has given so far.
    fn access<'a>(&'a self, resolved: Resolved<'a>, step: &Access, expr: &Expr) -> Result<Resolved<'a>, TemplateError> {
        Ok(match resolved {
            Resolved::Data(value) => Resolved::Data(access_value(&value, step, expr)?.clone()),
            Resolved::Pattern(node) => match (&node.kind, step) {
                // Keys with templates are looked up once rendered (below).
                (NodeKind::Object(entries), Access::Key(key))
                    if entries.iter().all(|(k, _)| k.template.is_literal()) =>
                {
                    match entries.iter().find(|(k, _)| &k.text == key) {
                        Some((_, v)) => Resolved::Pattern(v),
                        None => return Err(missing(expr, step)),
                    }
                }
                (NodeKind::Array(items), Access::Index(i)) => match items.get(*i) {
                    Some(v) => Resolved::Pattern(v),
                    None => return Err(missing(expr, step)),
                },
                _ => {
                    let value = self.render_data(node)?;
                    Resolved::Data(access_value(&value, step, expr)?.clone())
                }
            },
        })
    }

    /// Evaluates an expression to data.
    pub fn eval_data(&self, expr: &Expr) -> Result<Value, TemplateError> {
        match self.eval(expr)? {
            Resolved::Data(value) => Ok(value),
            Resolved::Pattern(node) => self.render_data(node),
        }
    }

    /// Evaluates a template string: one expression keeps its type, otherwise a string.
    pub fn render_template(&self, template: &Template) -> Result<Value, TemplateError> {
        if let Some(expr) = template.single_expr() {
            return self.eval_data(expr);
        }
        Ok(Value::String(self.render_text(template)?))
    }

    /// Evaluates a template string to text (for paths, headers, raw bodies).
    pub fn render_text(&self, template: &Template) -> Result<String, TemplateError> {
        let mut out = String::new();
        for part in &template.parts {
            match part {
                Part::Lit(text) => out.push_str(text),
                Part::Expr(expr) => {
                    let text = value_text(&self.eval_data(expr)?);
                    self.charge(text.len())?;
                    out.push_str(&text);
                }
            }
        }
        Ok(out)
    }

    /// Renders a node (request body, `vars` value) to plain JSON.
    pub fn render_data(&self, node: &Node) -> Result<Value, TemplateError> {
        let _guard = self.enter()?;
        Ok(match &node.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => Value::Number(n.clone()),
            NodeKind::Str(template) => self.render_template(template)?,
            NodeKind::Array(items) => {
                Value::Array(items.iter().map(|item| self.render_data(item)).collect::<Result<_, _>>()?)
            }
            NodeKind::Object(entries) => {
                let mut map = serde_json::Map::new();
                for (key, value) in entries {
                    map.insert(self.render_key(key)?, self.render_data(value)?);
                }
                Value::Object(map)
            }
        })
    }

    /// The text of a map key, its templates filled in.
    pub fn render_key(&self, key: &Key) -> Result<String, TemplateError> {
        if key.template.is_literal() {
            return Ok(key.text.clone());
        }
        self.render_text(&key.template)
    }
}

struct DepthGuard<'a>(&'a Cell<usize>);

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

fn missing(expr: &Expr, step: &Access) -> TemplateError {
    let what = match step {
        Access::Key(key) => format!("key `{key}`"),
        Access::Index(i) => format!("index [{i}]"),
    };
    TemplateError(format!("`{{{{{}}}}}`: the value has no {what}", expr.source))
}

fn access_value<'v>(value: &'v Value, step: &Access, expr: &Expr) -> Result<&'v Value, TemplateError> {
    let found = match (value, step) {
        (Value::Object(map), Access::Key(key)) => map.get(key),
        (Value::Array(items), Access::Index(i)) => items.get(*i),
        _ => None,
    };
    found.ok_or_else(|| missing(expr, step))
}

fn apply_filter(filter: Filter, value: Value, expr: &Expr) -> Result<Value, TemplateError> {
    let fail = |what: &str| TemplateError(format!("`{{{{{}}}}}`: cannot convert {what} to an integer", expr.source));
    Ok(match filter {
        Filter::Int => match &value {
            Value::Number(n) if n.is_i64() || n.is_u64() => value,
            Value::Number(n) => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::Number(Number::from(f as i64)),
                _ => return Err(fail(&n.to_string())),
            },
            Value::String(s) => match s.trim().parse::<i64>() {
                Ok(i) => Value::Number(i.into()),
                Err(_) => return Err(fail(&format!("{s:?}"))),
            },
            other => return Err(fail(&other.to_string())),
        },
        Filter::String => Value::String(value_text(&value)),
        Filter::Regex => Value::String(regex::escape(&value_text(&value))),
    })
}

/// The size of a value as JSON text, roughly, counted up to `limit`.
fn size_of(value: &Value, limit: usize) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total = total.saturating_add(match v {
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len()
            }
            Value::Object(map) => {
                stack.extend(map.values());
                2 + map.keys().map(|k| k.len() + 4).sum::<usize>()
            }
            _ => 8,
        });
        if total > limit {
            break;
        }
    }
    total
}

/// The text of a value when interpolated into a string.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::Template;
    use chrono::TimeZone;
    use serde_json::json;

    fn env() -> Env {
        let now = Utc.with_ymd_and_hms(2024, 1, 31, 10, 30, 15).unwrap();
        let mut env = Env::new(now);
        env.set("id", Binding::Data(json!(42)));
        env.set("name", Binding::Data(json!("a.b")));
        env.set("ids", Binding::Data(json!([7, 8])));
        env.set("event", Binding::Data(json!({"venue": {"id": 3}})));
        env.set("text_id", Binding::Data(json!("12")));
        env
    }

    fn render(text: &str) -> Result<Value, TemplateError> {
        env().render_template(&Template::parse(text).unwrap())
    }

    #[test]
    fn a_single_expression_keeps_the_type() {
        assert_eq!(render("{{id}}").unwrap(), json!(42));
        assert_eq!(render("{{ ids }}").unwrap(), json!([7, 8]));
        assert_eq!(render("id={{id}}").unwrap(), json!("id=42"));
        assert_eq!(render("no template").unwrap(), json!("no template"));
    }

    #[test]
    fn indexing_and_filters() {
        assert_eq!(render("{{ids[1]}}").unwrap(), json!(8));
        assert_eq!(render("{{event.venue.id}}").unwrap(), json!(3));
        assert_eq!(render("{{text_id | int}}").unwrap(), json!(12));
        assert_eq!(render("{{id | string}}").unwrap(), json!("42"));
        assert_eq!(render("{{name | regex}}").unwrap(), json!("a\\.b"));
        assert!(render("{{ids[5]}}").is_err());
        assert!(render("{{name | int}}").is_err());
    }

    #[test]
    fn unknown_variables_are_rejected() {
        let err = render("{{nope}}").unwrap_err();
        assert!(err.0.contains("unknown variable `nope`"), "{err}");
    }

    #[test]
    fn dates_are_utc_and_clamp_months() {
        assert_eq!(render("{{now}}").unwrap(), json!("2024-01-31 10:30:15"));
        assert_eq!(render("{{date(+30d)}}").unwrap(), json!("2024-03-01"));
        assert_eq!(render("{{date(+1mo)}}").unwrap(), json!("2024-02-29"));
        assert_eq!(render("{{date(-1y+1mo)}}").unwrap(), json!("2023-02-28"));
        assert_eq!(render("{{datetime(+1d+2h)}}").unwrap(), json!("2024-02-01 12:30:15"));
        assert_eq!(render("{{datetime(+1w 19:00)}}").unwrap(), json!("2024-02-07 19:00:00"));
        assert_eq!(render("{{datetime(-5min)}}").unwrap(), json!("2024-01-31 10:25:15"));
        assert_eq!(render("{{datetime()}}").unwrap(), json!("2024-01-31 10:30:15"));
        assert_eq!(render("{{timestamp(+0d 00:00)}}").unwrap(), json!(1706659200));
        assert_eq!(render("{{filler(3)}}").unwrap(), json!("xxx"));
        assert_eq!(render("a{{filler(2)}}b").unwrap(), json!("axxb"));
        assert!(Template::parse("{{filler(-1)}}").is_err());
        assert!(Template::parse("{{filler(999999999999)}}").is_err());
        assert_eq!(render("{{date(+30d)}} 19:00:00").unwrap(), json!("2024-03-01 19:00:00"));
    }

    #[test]
    fn weekdays_move_to_the_next_or_last_such_day() {
        // now is Wednesday 2024-01-31.
        assert_eq!(render("{{date(+1wed)}}").unwrap(), json!("2024-02-07"));
        assert_eq!(render("{{date(-1wed)}}").unwrap(), json!("2024-01-24"));
        assert_eq!(render("{{date(+1thu)}}").unwrap(), json!("2024-02-01"));
        assert_eq!(render("{{date(-1tue)}}").unwrap(), json!("2024-01-30"));
        assert_eq!(render("{{date(+1mon)}}").unwrap(), json!("2024-02-05"));
        assert_eq!(render("{{date(+2mon)}}").unwrap(), json!("2024-02-12"));
        assert_eq!(render("{{date(-2sun)}}").unwrap(), json!("2024-01-21"));
        assert_eq!(render("{{date(-1d+1wed)}}").unwrap(), json!("2024-01-31"));
        assert_eq!(render("{{date(-1d+1sat)}}").unwrap(), json!("2024-02-03"));
        assert_eq!(render("{{datetime(+1fri 20:00)}}").unwrap(), json!("2024-02-02 20:00:00"));
    }

    #[test]
    fn pattern_bindings_are_rendered_as_data_when_needed() {
        let mut env = env();
        let node = Node::parse_str(r#"{a: [1, "{{id}}"]}"#);
        env.set("pat", Binding::Pattern(node));
        let value = env.render_template(&Template::parse("{{pat}}").unwrap()).unwrap();
        assert_eq!(value, json!({"a": [1, 42]}));
        let value = env.render_template(&Template::parse("{{pat.a[1]}}").unwrap()).unwrap();
        assert_eq!(value, json!(42));
    }

    #[test]
    fn self_reference_is_an_error_not_a_stack_overflow() {
        let mut env = env();
        let node = Node::parse_str(r#""{{loop}}""#);
        env.set("loop", Binding::Pattern(node));
        let err = env.render_template(&Template::parse("{{loop}}").unwrap()).unwrap_err();
        assert!(err.0.contains("loop"));
    }

    #[test]
    fn a_template_bomb_stops_at_the_expansion_budget() {
        let mut env = env();
        // Each level doubles: 2^30 copies of 16 bytes.
        env.set("v0", Binding::Data(json!("0123456789abcdef")));
        for i in 1..=30 {
            let node = Node::parse_str(&format!("\"{{{{v{p}}}}}{{{{v{p}}}}}\"", p = i - 1));
            env.set(&format!("v{i}"), Binding::Pattern(node));
        }
        let err = env.render_template(&Template::parse("{{v30}}").unwrap()).unwrap_err();
        assert!(err.0.contains("expand to more than 192 MiB"), "{err}");
        env.reset_budget();
        assert_eq!(env.render_template(&Template::parse("{{v2}}").unwrap()).unwrap().as_str().map(str::len), Some(64));
    }
}
