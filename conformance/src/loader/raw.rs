//! The shape of a case file: reads the YAML tree into plain structures, field by field.
//!
//! Every problem (an unknown field, a missing one, a value of the wrong kind) becomes an
//! [`Issue`] and reading goes on with what is there, so one run reports every mistake of a
//! file. The meaning of the fields (levels, variables, patterns, paths) is checked afterwards,
//! in [`super::build`].

use crate::node::{wrong_type, Issue, Node, Text, Tpl};
use crate::yaml::{Pos, YValue, Y};

/// The most times one step may repeat (`repeat: N`).
pub const MAX_REPEAT: u64 = 1000;

/// A structure with the position of the map it was read from.
pub struct Located<T> {
    pub at: Pos,
    pub value: T,
}

#[derive(Default)]
pub struct RawFile {
    pub tags: Vec<Text>,
    pub spec: Vec<Text>,
    pub level: Option<Text>,
    pub requires: Vec<Text>,
    pub vars: Vec<(Text, Node)>,
    pub cases: Vec<Located<RawCase>>,
}

#[derive(Default)]
pub struct RawCase {
    pub name: Option<Text>,
    /// `None` when missing (already an issue).
    pub steps: Option<Vec<Located<RawStep>>>,
    pub cleanup: Vec<Located<RawStep>>,
    pub tags: Vec<Text>,
    pub spec: Vec<Text>,
    pub level: Option<Text>,
    pub requires: Vec<Text>,
    pub vars: Option<Vec<(Text, Node)>>,
}

#[derive(Default)]
pub struct RawStep {
    pub request: Option<Located<RawRequest>>,
    pub expect: Option<RawExpect>,
    pub capture: Vec<(Text, Text)>,
    pub repeat: Option<u64>,
    pub foreach: Option<Text>,
    pub concurrency: Option<usize>,
}

#[derive(Default)]
pub struct RawRequest {
    pub method: Option<Text>,
    pub path: Option<Tpl>,
    pub url: Option<Tpl>,
    pub lang: Option<Tpl>,
    pub query: Vec<(Text, Node)>,
    pub json: Option<Node>,
    pub form: Option<Vec<(Text, Node)>>,
    pub body: Option<Tpl>,
    pub headers: Vec<(Text, Tpl)>,
    pub auth: Option<Text>,
    /// `path` or `url` was written, even if it could not be read (that is an issue already).
    pub address_given: bool,
}

#[derive(Default)]
pub struct RawExpect {
    pub status: Option<Node>,
    pub headers: Vec<(Text, Node)>,
    pub json: Option<Node>,
    pub assume: Option<Node>,
    pub paths: Vec<(Text, Node)>,
}

/// The fields of a map, checked against the names a structure knows.
struct Fields<'y> {
    at: Pos,
    entries: Vec<(Text, &'y Y)>,
}

impl<'y> Fields<'y> {
    /// Reads `y` as a map whose keys must be among `known`.
    fn of(y: &'y Y, known: &[&str], issues: &mut Vec<Issue>) -> Option<Fields<'y>> {
        let YValue::Map(entries) = &y.value else {
            issues.push(wrong_type(y, "a map"));
            return None;
        };
        let mut out = Vec::new();
        for (key, value) in entries {
            let Some(name) = Text::from_key(key, issues) else { continue };
            if known.contains(&name.text.as_str()) {
                out.push((name, value));
            } else {
                let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                issues.push(Issue::new(
                    key.at,
                    format!("unknown field `{}`, expected one of {}", name.text, expected.join(", ")),
                ));
            }
        }
        Some(Fields { at: y.at, entries: out })
    }

    fn get(&self, name: &str) -> Option<&'y Y> {
        self.entries.iter().find(|(k, _)| k.text == name).map(|(_, v)| *v)
    }

    fn require(&self, name: &str, issues: &mut Vec<Issue>) -> Option<&'y Y> {
        let found = self.get(name);
        if found.is_none() {
            issues.push(Issue::new(self.at, format!("missing field `{name}`")));
        }
        found
    }

    fn text(&self, name: &str, issues: &mut Vec<Issue>) -> Option<Text> {
        self.get(name).and_then(|y| Text::from_yaml(y, issues))
    }

    fn tpl(&self, name: &str, issues: &mut Vec<Issue>) -> Option<Tpl> {
        self.get(name).and_then(|y| Tpl::from_yaml(y, issues))
    }

    fn node(&self, name: &str, issues: &mut Vec<Issue>) -> Option<Node> {
        self.get(name).map(|y| Node::from_yaml(y, issues))
    }

    fn texts(&self, name: &str, issues: &mut Vec<Issue>) -> Vec<Text> {
        self.get(name)
            .map(|y| items(y, issues).iter().filter_map(|item| Text::from_yaml(item, issues)).collect())
            .unwrap_or_default()
    }

    fn map<V>(
        &self,
        name: &str,
        issues: &mut Vec<Issue>,
        read: impl Fn(&Y, &mut Vec<Issue>) -> Option<V>,
    ) -> Option<Vec<(Text, V)>> {
        self.get(name).map(|y| map(y, issues, read))
    }
}

/// The items of a list.
fn items<'y>(y: &'y Y, issues: &mut Vec<Issue>) -> &'y [Y] {
    match &y.value {
        YValue::Seq(items) => items,
        _ => {
            issues.push(wrong_type(y, "a list"));
            &[]
        }
    }
}

/// The entries of a map with text keys, each value read by `read`.
fn map<V>(y: &Y, issues: &mut Vec<Issue>, read: impl Fn(&Y, &mut Vec<Issue>) -> Option<V>) -> Vec<(Text, V)> {
    let YValue::Map(entries) = &y.value else {
        issues.push(wrong_type(y, "a map"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in entries {
        if let (Some(key), Some(value)) = (Text::from_key(key, issues), read(value, issues)) {
            out.push((key, value));
        }
    }
    out
}

fn node(y: &Y, issues: &mut Vec<Issue>) -> Option<Node> {
    Some(Node::from_yaml(y, issues))
}

/// Reads a whole file.
pub fn file(y: &Y, issues: &mut Vec<Issue>) -> RawFile {
    let Some(f) = Fields::of(y, &["tags", "spec", "level", "requires", "vars", "cases"], issues) else {
        return RawFile::default();
    };
    let cases = match f.require("cases", issues) {
        Some(list) => items(list, issues).iter().filter_map(|c| case(c, issues)).collect(),
        None => Vec::new(),
    };
    RawFile {
        tags: f.texts("tags", issues),
        spec: f.texts("spec", issues),
        level: f.text("level", issues),
        requires: f.texts("requires", issues),
        vars: f.map("vars", issues, node).unwrap_or_default(),
        cases,
    }
}

fn case(y: &Y, issues: &mut Vec<Issue>) -> Option<Located<RawCase>> {
    let known = ["name", "steps", "cleanup", "tags", "spec", "level", "requires", "vars"];
    let f = Fields::of(y, &known, issues)?;
    let name = f.require("name", issues).and_then(|n| Text::from_yaml(n, issues));
    let steps =
        f.require("steps", issues).map(|list| items(list, issues).iter().filter_map(|s| step(s, issues)).collect());
    let cleanup = match f.get("cleanup") {
        Some(list) => items(list, issues).iter().filter_map(|s| step(s, issues)).collect(),
        None => Vec::new(),
    };
    let value = RawCase {
        name,
        steps,
        cleanup,
        tags: f.texts("tags", issues),
        spec: f.texts("spec", issues),
        level: f.text("level", issues),
        requires: f.texts("requires", issues),
        vars: f.map("vars", issues, node),
    };
    Some(Located { at: f.at, value })
}

fn step(y: &Y, issues: &mut Vec<Issue>) -> Option<Located<RawStep>> {
    let f = Fields::of(y, &["request", "expect", "capture", "repeat", "foreach", "concurrency"], issues)?;
    let request = f.require("request", issues).and_then(|r| request(r, issues));
    let expect = f.get("expect").and_then(|e| expect(e, issues));
    let capture = f.map("capture", issues, Text::from_yaml).unwrap_or_default();
    let repeat = f.get("repeat").and_then(|y| repeat(y, issues));
    let concurrency = f.get("concurrency").and_then(|y| concurrency(y, issues));
    let value = RawStep { request, expect, capture, repeat, foreach: f.text("foreach", issues), concurrency };
    Some(Located { at: f.at, value })
}

/// The most iterations of a step sent at a time (`concurrency: N`).
pub const MAX_CONCURRENCY: u64 = 16;

fn concurrency(y: &Y, issues: &mut Vec<Issue>) -> Option<usize> {
    match &y.value {
        YValue::Number(n) => match n.as_u64() {
            Some(n @ 1..=MAX_CONCURRENCY) => Some(n as usize),
            _ => {
                issues
                    .push(Issue::new(y.at, format!("`concurrency` takes a whole number from 1 to {MAX_CONCURRENCY}")));
                None
            }
        },
        _ => {
            issues.push(Issue::new(y.at, format!("`concurrency` takes a whole number from 1 to {MAX_CONCURRENCY}")));
            None
        }
    }
}

fn repeat(y: &Y, issues: &mut Vec<Issue>) -> Option<u64> {
    let count = match &y.value {
        YValue::Number(n) => n.as_u64(),
        _ => None,
    };
    match count {
        Some(n) if n <= MAX_REPEAT => Some(n),
        Some(_) => {
            issues.push(Issue::new(
                y.at,
                format!("`repeat` is at most {MAX_REPEAT}: a case that needs more is a load test, not a case"),
            ));
            None
        }
        None => {
            issues.push(Issue::new(y.at, format!("`repeat` takes a whole number from 0 to {MAX_REPEAT}")));
            None
        }
    }
}

fn request(y: &Y, issues: &mut Vec<Issue>) -> Option<Located<RawRequest>> {
    let known = ["method", "path", "url", "lang", "query", "json", "form", "body", "headers", "auth"];
    let f = Fields::of(y, &known, issues)?;
    let value = RawRequest {
        method: f.text("method", issues),
        path: f.tpl("path", issues),
        url: f.tpl("url", issues),
        lang: f.tpl("lang", issues),
        query: f.map("query", issues, node).unwrap_or_default(),
        json: f.node("json", issues),
        form: f.map("form", issues, node),
        body: f.tpl("body", issues),
        headers: f.map("headers", issues, Tpl::from_yaml).unwrap_or_default(),
        auth: f.text("auth", issues),
        address_given: f.get("path").is_some() || f.get("url").is_some(),
    };
    Some(Located { at: f.at, value })
}

fn expect(y: &Y, issues: &mut Vec<Issue>) -> Option<RawExpect> {
    let f = Fields::of(y, &["status", "headers", "json", "assume", "paths"], issues)?;
    Some(RawExpect {
        status: f.node("status", issues),
        headers: f.map("headers", issues, node).unwrap_or_default(),
        json: f.node("json", issues),
        assume: f.node("assume", issues),
        paths: f.map("paths", issues, node).unwrap_or_default(),
    })
}
