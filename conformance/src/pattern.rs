//! Patterns: the expected side of a comparison, built from a case's nodes.
//!
//! [`build`] turns a node into a [`Pat`] with its templates filled in (run time), and
//! [`check`] walks a node without variables to find the errors a loader can report up front:
//! unknown matchers, matcher keys mixed with plain keys, bad arguments, bad regexes.

use regex::Regex;
use serde_json::{Map, Number, Value};

use crate::env::{Env, Resolved};
use crate::node::{Key, Node, NodeKind};
use crate::yaml::Pos;

/// A pattern ready to be matched.
#[derive(Clone, Debug)]
pub enum Pat {
    /// A scalar that must be equal (numbers by value).
    Eq(Value),
    /// Same length, element by element.
    Array(Vec<Pat>),
    /// The listed keys must be present and match; other keys are allowed.
    Object(Vec<(String, Pat)>),
    /// Every matcher must hold.
    Matchers(Vec<Matcher>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Integer,
    Number,
    String,
    Boolean,
    Null,
    Array,
    Object,
}

impl JsonType {
    pub const NAMES: &'static [&'static str] = &["integer", "number", "string", "boolean", "null", "array", "object"];

    fn parse(name: &str) -> Option<JsonType> {
        Some(match name {
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "boolean" => JsonType::Boolean,
            "null" => JsonType::Null,
            "array" => JsonType::Array,
            "object" => JsonType::Object,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        JsonType::NAMES[self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Gt,
    Gte,
    Lt,
    Lte,
}

impl CmpOp {
    pub fn key(self) -> &'static str {
        match self {
            CmpOp::Gt => "$gt",
            CmpOp::Gte => "$gte",
            CmpOp::Lt => "$lt",
            CmpOp::Lte => "$lte",
        }
    }
}

#[derive(Clone, Debug)]
pub enum Matcher {
    Type(Vec<JsonType>),
    Regex(Regex),
    Any,
    Absent,
    In(Vec<Pat>),
    Not(Box<Pat>),
    Cmp(CmpOp, Number),
    Len(Box<Pat>),
    Contains(Vec<Pat>),
    Unordered(Vec<Pat>),
    Each(Box<Pat>),
    Exact(Vec<(String, Pat)>),
    Url(UrlPat),
    /// `$date: "2026-11-28 10:00:00"`: a text holding the same date and time (the wall time),
    /// in any common form (see [`date_time`]).
    Date(String),
}

#[derive(Clone, Debug)]
pub enum UrlPat {
    /// `$url: "http://..."`: scheme, host, port and path equal; its query pairs among the actual.
    Full(String),
    /// `$url: {path: ..., query: {...}}`.
    Parts { path: Option<Box<Pat>>, query: Vec<(String, Pat)> },
}

/// The matcher names, for messages and the schema.
pub const MATCHERS: &[&str] = &[
    "$type",
    "$regex",
    "$any",
    "$absent",
    "$in",
    "$not",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$len",
    "$contains",
    "$unordered",
    "$each",
    "$exact",
    "$url",
    "$date",
];

/// A pattern that cannot be built, blamed on a node.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternError {
    pub at: Pos,
    pub message: String,
}

fn err<T>(at: Pos, message: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError { at, message: message.into() })
}

/// Converts data (a captured value) into a pattern: objects match as subsets, `$` keys are
/// literal keys.
pub fn from_data(value: &Value) -> Pat {
    match value {
        Value::Array(items) => Pat::Array(items.iter().map(from_data).collect()),
        Value::Object(map) => Pat::Object(map.iter().map(|(k, v)| (k.clone(), from_data(v))).collect()),
        other => Pat::Eq(other.clone()),
    }
}

/// Is this key a matcher key (`$name`, but not the `$$name` escape)?
pub fn is_matcher_key(key: &str) -> bool {
    key.starts_with('$') && !key.starts_with("$$")
}

fn unescape_key(key: &str) -> String {
    match key.strip_prefix("$$") {
        Some(rest) => format!("${rest}"),
        None => key.to_string(),
    }
}

/// Builds the pattern of `node`, filling templates from `env`.
pub fn build(node: &Node, env: &Env) -> Result<Pat, PatternError> {
    Builder { env: Some(env) }.pattern(node)
}

/// Finds the errors of a pattern that do not depend on variables.
pub fn check(node: &Node) -> Result<(), PatternError> {
    Builder { env: None }.pattern(node).map(|_| ())
}

struct Builder<'e> {
    /// `None` when only checking: templates then stand for "any value".
    env: Option<&'e Env>,
}

fn has_templates(node: &Node) -> bool {
    let mut found = false;
    node.walk(&mut |n| match &n.kind {
        NodeKind::Str(t) if !t.is_literal() => found = true,
        NodeKind::Object(entries) if entries.iter().any(|(k, _)| !k.template.is_literal()) => found = true,
        _ => {}
    });
    found
}

impl Builder<'_> {
    /// A plain key (not a matcher) with its templates filled in; `$$name` is the literal key
    /// `$name`. A key made by a template is always a plain key, whatever it renders to.
    fn key(&self, key: &Key) -> Result<String, PatternError> {
        let Some(env) = self.env else {
            return Ok(unescape_key(&key.text));
        };
        let text = env.render_key(key).map_err(|e| PatternError { at: key.at, message: e.0 })?;
        Ok(if key.text.starts_with("$$") { unescape_key(&text) } else { text })
    }

    fn pattern(&self, node: &Node) -> Result<Pat, PatternError> {
        match &node.kind {
            NodeKind::Null => Ok(Pat::Eq(Value::Null)),
            NodeKind::Bool(b) => Ok(Pat::Eq(Value::Bool(*b))),
            NodeKind::Number(n) => Ok(Pat::Eq(Value::Number(n.clone()))),
            NodeKind::Str(template) => {
                let Some(env) = self.env else {
                    return Ok(Pat::Eq(Value::String(template.source.clone())));
                };
                if let Some(expr) = template.single_expr() {
                    return match env.eval(expr).map_err(|e| PatternError { at: node.at, message: e.0 })? {
                        Resolved::Data(Value::String(text)) => Ok(text_pattern(text, env)),
                        Resolved::Data(value) => Ok(from_data(&value)),
                        Resolved::Pattern(inner) => self.pattern(inner),
                    };
                }
                let text = env.render_text(template).map_err(|e| PatternError { at: node.at, message: e.0 })?;
                Ok(text_pattern(text, env))
            }
            NodeKind::Array(items) => {
                Ok(Pat::Array(items.iter().map(|item| self.pattern(item)).collect::<Result<_, _>>()?))
            }
            NodeKind::Object(entries) => {
                let matchers: Vec<&(Key, Node)> = entries.iter().filter(|(k, _)| is_matcher_key(&k.text)).collect();
                if matchers.is_empty() {
                    let mut out = Vec::new();
                    for (key, value) in entries {
                        out.push((self.key(key)?, self.pattern(value)?));
                    }
                    return Ok(Pat::Object(out));
                }
                if let Some((plain, _)) = entries.iter().find(|(k, _)| !is_matcher_key(&k.text)) {
                    return err(
                        plain.at,
                        format!(
                            "this object mixes matcher keys ({}) with the plain key `{}`: put the matchers in \
                             their own object under the key they test, or write `$${}` for a literal `$` key",
                            matchers.iter().map(|(k, _)| k.text.as_str()).collect::<Vec<_>>().join(", "),
                            plain.text,
                            matchers[0].0.text.trim_start_matches('$'),
                        ),
                    );
                }
                let mut out = Vec::new();
                for (key, arg) in entries {
                    out.push(self.matcher(key, arg)?);
                }
                Ok(Pat::Matchers(out))
            }
        }
    }

    /// The argument as data, or `None` when checking a templated argument.
    fn data(&self, node: &Node) -> Result<Option<Value>, PatternError> {
        match self.env {
            Some(env) => env.render_data(node).map(Some).map_err(|e| PatternError { at: node.at, message: e.0 }),
            None if has_templates(node) => Ok(None),
            None => Ok(Some(
                Env::new(chrono::Utc::now())
                    .render_data(node)
                    .map_err(|e| PatternError { at: node.at, message: e.0 })?,
            )),
        }
    }

    /// A list of patterns: a YAML list, or a template that gives a list.
    fn pattern_list(&self, key: &str, arg: &Node) -> Result<Vec<Pat>, PatternError> {
        if let NodeKind::Array(items) = &arg.kind {
            return items.iter().map(|item| self.pattern(item)).collect();
        }
        if let NodeKind::Str(t) = &arg.kind {
            if t.single_expr().is_some() {
                return match self.pattern(arg)? {
                    Pat::Array(items) => Ok(items),
                    _ if self.env.is_none() => Ok(Vec::new()),
                    _ => err(arg.at, format!("`{key}` needs a list, and `{}` is not one", t.source)),
                };
            }
        }
        err(arg.at, format!("`{key}` takes a list of patterns, e.g. `{key}: [1, 2]`"))
    }

    fn matcher(&self, key: &Key, arg: &Node) -> Result<Matcher, PatternError> {
        let name = key.text.as_str();
        Ok(match name {
            "$type" => self.type_matcher(arg)?,
            "$regex" => self.regex_matcher(arg)?,
            "$any" | "$absent" => {
                if !matches!(arg.kind, NodeKind::Bool(true)) {
                    return err(arg.at, format!("`{name}` takes only `true` (write `{name}: true`)"));
                }
                if name == "$any" {
                    Matcher::Any
                } else {
                    Matcher::Absent
                }
            }
            "$in" => Matcher::In(self.pattern_list(name, arg)?),
            "$contains" => Matcher::Contains(self.pattern_list(name, arg)?),
            "$unordered" => Matcher::Unordered(self.pattern_list(name, arg)?),
            "$not" => Matcher::Not(Box::new(self.pattern(arg)?)),
            "$each" => Matcher::Each(Box::new(self.pattern(arg)?)),
            "$len" => Matcher::Len(Box::new(self.pattern(arg)?)),
            "$gt" | "$gte" | "$lt" | "$lte" => self.cmp_matcher(name, arg)?,
            "$exact" => match self.pattern(arg)? {
                Pat::Object(entries) => Matcher::Exact(entries),
                _ if self.env.is_none() && has_templates(arg) => Matcher::Exact(Vec::new()),
                _ => return err(arg.at, "`$exact` takes an object pattern, e.g. `$exact: {id: 1}`"),
            },
            "$url" => Matcher::Url(self.url(arg)?),
            "$date" => match self.pattern(arg)? {
                Pat::Eq(Value::String(text))
                    if date_time(&text).is_some() || (self.env.is_none() && text.contains("{{")) =>
                {
                    Matcher::Date(text)
                }
                Pat::Matchers(m) if matches!(m.as_slice(), [Matcher::Date(_)]) => m[0].clone(),
                _ => return err(arg.at, "`$date` takes a date and time, e.g. `$date: \"2026-11-28 10:00:00\"`"),
            },
            other => {
                return err(
                    key.at,
                    format!(
                        "unknown matcher `{other}`: use one of {}, or write `$${}` for a literal key",
                        MATCHERS.join(", "),
                        other.trim_start_matches('$')
                    ),
                )
            }
        })
    }

    /// `$type`: one type name or a list of them (`null` stands for the type null).
    fn type_matcher(&self, arg: &Node) -> Result<Matcher, PatternError> {
        let Some(value) = self.data(arg)? else {
            return Ok(Matcher::Type(Vec::new()));
        };
        let names: Vec<Value> = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        let mut types = Vec::new();
        for n in names {
            let parsed = if n.is_null() { Some(JsonType::Null) } else { n.as_str().and_then(JsonType::parse) };
            match parsed {
                Some(t) => types.push(t),
                None => {
                    return err(arg.at, format!("unknown type {n} for `$type`: use {}", JsonType::NAMES.join(", ")))
                }
            }
        }
        if types.is_empty() {
            return err(arg.at, "`$type` needs at least one type");
        }
        Ok(Matcher::Type(types))
    }

    /// `$regex`: a string that compiles (a templated one, when only checking, matches anything).
    fn regex_matcher(&self, arg: &Node) -> Result<Matcher, PatternError> {
        let Some(value) = self.data(arg)? else {
            return Ok(Matcher::Any);
        };
        let Some(text) = value.as_str() else {
            return err(arg.at, "`$regex` takes a string");
        };
        match Regex::new(text) {
            Ok(re) => Ok(Matcher::Regex(re)),
            Err(e) => err(arg.at, format!("bad `$regex`: {e}")),
        }
    }

    /// `$gt`, `$gte`, `$lt`, `$lte`: a number.
    fn cmp_matcher(&self, name: &str, arg: &Node) -> Result<Matcher, PatternError> {
        let op = match name {
            "$gt" => CmpOp::Gt,
            "$gte" => CmpOp::Gte,
            "$lt" => CmpOp::Lt,
            _ => CmpOp::Lte,
        };
        match self.data(arg)? {
            None => Ok(Matcher::Cmp(op, Number::from(0))),
            Some(Value::Number(n)) => Ok(Matcher::Cmp(op, n)),
            Some(other) => err(arg.at, format!("`{name}` takes a number, got {other}")),
        }
    }

    fn url(&self, arg: &Node) -> Result<UrlPat, PatternError> {
        match &arg.kind {
            NodeKind::Object(entries) => {
                let mut path = None;
                let mut query = Vec::new();
                for (key, value) in entries {
                    match key.text.as_str() {
                        "path" => path = Some(Box::new(self.pattern(value)?)),
                        "query" => {
                            let NodeKind::Object(params) = &value.kind else {
                                return err(value.at, "`query` of `$url` takes a map of parameter to pattern");
                            };
                            for (name, p) in params {
                                query.push((self.key(name)?, self.pattern(p)?));
                            }
                        }
                        other => {
                            return err(key.at, format!("unknown key `{other}` in `$url`: use `path` and `query`"))
                        }
                    }
                }
                Ok(UrlPat::Parts { path, query })
            }
            _ => match self.data(arg)? {
                None => Ok(UrlPat::Full(String::new())),
                Some(Value::String(text)) => {
                    if reqwest::Url::parse(&text).is_err() {
                        return err(arg.at, format!("`$url` needs an absolute URL, got {text:?}"));
                    }
                    Ok(UrlPat::Full(text))
                }
                Some(other) => err(arg.at, format!("`$url` takes a URL string or {{path, query}}, got {other}")),
            },
        }
    }
}

/// The pattern written back as JSON, for messages and diffs.
pub fn to_json(pat: &Pat) -> Value {
    match pat {
        Pat::Eq(value) => value.clone(),
        Pat::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Pat::Object(entries) => Value::Object(entries_json(entries)),
        Pat::Matchers(matchers) => {
            let mut map = Map::new();
            for m in matchers {
                let (key, value) = matcher_json(m);
                map.insert(key.to_string(), value);
            }
            Value::Object(map)
        }
    }
}

fn entries_json(entries: &[(String, Pat)]) -> Map<String, Value> {
    let mut map = Map::new();
    for (key, value) in entries {
        let key = if key.starts_with('$') { format!("${key}") } else { key.clone() };
        map.insert(key, to_json(value));
    }
    map
}

fn matcher_json(m: &Matcher) -> (&'static str, Value) {
    match m {
        Matcher::Type(types) if types.len() == 1 => ("$type", Value::from(types[0].name())),
        Matcher::Type(types) => ("$type", Value::from(types.iter().map(|t| t.name()).collect::<Vec<_>>())),
        Matcher::Regex(re) => ("$regex", Value::from(re.as_str())),
        Matcher::Any => ("$any", Value::Bool(true)),
        Matcher::Absent => ("$absent", Value::Bool(true)),
        Matcher::In(items) => ("$in", Value::Array(items.iter().map(to_json).collect())),
        Matcher::Not(p) => ("$not", to_json(p)),
        Matcher::Cmp(op, n) => (op.key(), Value::Number(n.clone())),
        Matcher::Len(p) => ("$len", to_json(p)),
        Matcher::Contains(items) => ("$contains", Value::Array(items.iter().map(to_json).collect())),
        Matcher::Unordered(items) => ("$unordered", Value::Array(items.iter().map(to_json).collect())),
        Matcher::Each(p) => ("$each", to_json(p)),
        Matcher::Exact(entries) => ("$exact", Value::Object(entries_json(entries))),
        Matcher::Url(UrlPat::Full(url)) => ("$url", Value::from(url.as_str())),
        Matcher::Date(text) => ("$date", Value::from(text.as_str())),
        Matcher::Url(UrlPat::Parts { path, query }) => {
            let mut map = Map::new();
            if let Some(path) = path {
                map.insert("path".into(), to_json(path));
            }
            if !query.is_empty() {
                map.insert("query".into(), Value::Object(entries_json(query)));
            }
            ("$url", Value::Object(map))
        }
    }
}

/// An expected text: equal, or, where the environment compares dates as dates (a must case),
/// the same date and time in any form when the text is one.
fn text_pattern(text: String, env: &Env) -> Pat {
    if env.dates_as_dates() && date_time(&text).is_some() {
        Pat::Matchers(vec![Matcher::Date(text)])
    } else {
        Pat::Eq(Value::String(text))
    }
}

/// The date and time (the wall time) a text holds in a common form: `2026-11-28 10:00:00`,
/// `2026-11-28T10:00:00`, with or without seconds and their fraction, with or without a zone
/// (`Z`, `+01:00`, `+0100`), which is left aside: two texts of one wall time are the same date.
pub fn date_time(text: &str) -> Option<chrono::NaiveDateTime> {
    let text = text.trim();
    if text.len() < 16 || !text.is_char_boundary(10) || !text.is_ascii() {
        return None;
    }
    let (date, rest) = text.split_at(10);
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    let time_end = rest.find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.')).unwrap_or(rest.len());
    let (time, zone) = rest.split_at(time_end);
    let zone_ok = zone.is_empty()
        || zone.eq_ignore_ascii_case("z")
        || (zone.len() >= 3
            && zone.starts_with(['+', '-'])
            && zone[1..].chars().all(|c| c.is_ascii_digit() || c == ':'));
    if !zone_ok {
        return None;
    }
    let joined = format!("{date} {time}");
    ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %H:%M"]
        .iter()
        .find_map(|format| chrono::NaiveDateTime::parse_from_str(&joined, format).ok())
}

/// A short description of what a pattern expects.
pub fn describe(pat: &Pat) -> String {
    crate::show::compact(&to_json(pat))
}

/// The class a `status` written as `2xx` … `5xx` stands for: its first digit.
pub fn status_class(text: &str) -> Option<u16> {
    match text.as_bytes() {
        [d @ b'1'..=b'5', b'x', b'x'] => Some(u16::from(d - b'0')),
        _ => None,
    }
}
