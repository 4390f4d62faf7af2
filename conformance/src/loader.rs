//! Loading: finds the case files, parses them and validates everything that can be checked
//! before running, so that a mistake in a file is reported with its `file:line:column` and
//! what to change, and the other files still run.

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json_path::JsonPath;

use crate::model::{
    Body, Capture, Case, CaseFile, Expect, FileError, Level, Loaded, LocatedError, PathExpr, Request, Step, Target,
};
use crate::pattern;
use crate::template::{self, Part, Template, BUILTINS};
use crate::yaml::{self, Key, Located, Map, Node, NodeKind, Text, Tpl};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    tags: Vec<Text>,
    #[serde(default)]
    spec: Vec<Text>,
    level: Option<Text>,
    #[serde(default)]
    requires: Vec<Text>,
    vars: Option<Map<Node>>,
    cases: Vec<Located<RawCase>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: Text,
    steps: Vec<Located<RawStep>>,
    #[serde(default)]
    cleanup: Vec<Located<RawStep>>,
    #[serde(default)]
    tags: Vec<Text>,
    #[serde(default)]
    spec: Vec<Text>,
    level: Option<Text>,
    #[serde(default)]
    requires: Vec<Text>,
    vars: Option<Map<Node>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    request: Located<RawRequest>,
    expect: Option<Located<RawExpect>>,
    capture: Option<Map<Text>>,
    repeat: Option<u64>,
    foreach: Option<Text>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequest {
    method: Option<Text>,
    path: Option<Tpl>,
    url: Option<Tpl>,
    lang: Option<Tpl>,
    query: Option<Map<Node>>,
    json: Option<Node>,
    form: Option<Map<Node>>,
    body: Option<Tpl>,
    headers: Option<Map<Tpl>>,
    auth: Option<Text>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    status: Option<Node>,
    headers: Option<Map<Node>>,
    json: Option<Node>,
    paths: Option<Map<Node>>,
}

/// An error found after parsing, blamed on a node id.
struct Issue {
    id: usize,
    message: String,
}

/// The extensions a case file may have.
pub const EXTENSIONS: &[&str] = &["yaml", "yml", "json"];

/// Lists the case files under `dir`, sorted, with their test names (path without extension).
pub fn find_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e)) {
            let rel = path.strip_prefix(root).unwrap_or(&path).with_extension("");
            let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            out.push((path, name));
        }
    }
    Ok(())
}

/// Loads every case file under `dir`. `Err` only when the folder itself cannot be read.
pub fn load_dir(dir: &Path) -> Result<Vec<Loaded>, String> {
    let files = find_files(dir)?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (path, name) in files {
        let shown = path.display().to_string();
        if !seen.insert(name.clone()) {
            out.push(Loaded::Error(FileError {
                name: format!("{name} ({shown})"),
                path: shown,
                errors: vec![LocatedError {
                    line: 1,
                    column: 1,
                    message: format!("another file also has the test name `{name}`: rename one of them"),
                }],
            }));
            continue;
        }
        let loaded = match fs::read_to_string(&path) {
            Ok(source) => load_source(&name, &shown, &source),
            Err(e) => Loaded::Error(FileError {
                name,
                path: shown,
                errors: vec![LocatedError { line: 1, column: 1, message: format!("cannot read the file: {e}") }],
            }),
        };
        out.push(loaded);
    }
    Ok(out)
}

fn parse(source: &str) -> Result<RawFile, serde_yaml_ng::Error> {
    yaml::reset_ids();
    serde_yaml_ng::from_str::<RawFile>(source)
}

fn located(error: &serde_yaml_ng::Error) -> LocatedError {
    let (line, column) = error.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
    let mut message = error.to_string();
    // serde_yaml_ng appends " at line L column C"; the location is shown in front instead.
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    LocatedError { line, column, message }
}

/// Loads one file from its text. `name` is its test name, `path` how it is shown.
pub fn load_source(name: &str, path: &str, source: &str) -> Loaded {
    let raw = match parse(source) {
        Ok(raw) => raw,
        Err(e) => return Loaded::Error(FileError { name: name.into(), path: path.into(), errors: vec![located(&e)] }),
    };
    let mut issues = Vec::new();
    let file = build_file(name, path, raw, &mut issues);
    if issues.is_empty() {
        return Loaded::File(file);
    }
    let mut errors = Vec::new();
    for issue in issues {
        yaml::fail_at(Some((issue.id, issue.message.clone())));
        let error = match parse(source) {
            Err(e) => located(&e),
            Ok(_) => LocatedError { line: 1, column: 1, message: issue.message },
        };
        yaml::fail_at(None);
        errors.push(error);
    }
    errors.sort_by_key(|e| (e.line, e.column));
    errors.dedup();
    Loaded::Error(FileError { name: name.into(), path: path.into(), errors })
}

fn texts(items: &[Text]) -> Vec<String> {
    items.iter().map(|t| t.text.clone()).collect()
}

fn merge(base: &[String], extra: Vec<String>) -> Vec<String> {
    let mut out = base.to_vec();
    for item in extra {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The `requires` entries with the features' own names; an unknown feature is an issue.
fn requirements(items: &[Text], issues: &mut Vec<Issue>) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        match crate::features::requirement(&item.text) {
            Ok(feature) => out.push(feature),
            Err(message) => issues.push(Issue { id: item.id, message }),
        }
    }
    out
}

fn level(text: &Text, issues: &mut Vec<Issue>) -> Option<Level> {
    let level = Level::parse(&text.text);
    if level.is_none() {
        issues.push(Issue { id: text.id, message: format!("unknown level `{}`: use must, should or may", text.text) });
    }
    level
}

fn build_file(name: &str, path: &str, raw: RawFile, issues: &mut Vec<Issue>) -> CaseFile {
    let file_level = raw.level.as_ref().and_then(|l| level(l, issues));
    let file_tags = texts(&raw.tags);
    let file_spec = texts(&raw.spec);
    let file_requires = requirements(&raw.requires, issues);
    let file_vars: Vec<(Text, Node)> = raw.vars.map(|m| m.entries).unwrap_or_default();
    let mut names = HashSet::new();
    let mut cases = Vec::new();
    for located in raw.cases {
        let case = located.value;
        if case.name.text.trim().is_empty() || case.name.text.contains('\n') {
            issues.push(Issue { id: case.name.id, message: "a case name must be one non-empty line".into() });
        }
        if !names.insert(case.name.text.clone()) {
            issues.push(Issue {
                id: case.name.id,
                message: format!(
                    "another case in this file is also named {:?}: names must be unique within a file",
                    case.name.text
                ),
            });
        }
        let level = match &case.level {
            Some(l) => level(l, issues),
            None => file_level,
        };
        if case.level.is_none() && file_level.is_none() {
            issues.push(Issue {
                id: located.id,
                message: format!(
                    "case {:?} has no level: add `level: must` (or should, may) to the case or at the top of the file",
                    case.name.text
                ),
            });
        }
        let mut vars: Vec<(Text, Node)> = file_vars.clone();
        for (key, value) in case.vars.map(|m| m.entries).unwrap_or_default() {
            vars.retain(|(k, _)| k.text != key.text);
            vars.push((key, value));
        }
        let mut scope: BTreeSet<String> = BUILTINS.iter().map(|s| s.to_string()).collect();
        scope.extend(vars.iter().map(|(k, _)| k.text.clone()));
        let case_name = case.name.text.clone();
        for (_, value) in &vars {
            check_node_vars(value, &scope, &case_name, issues);
        }
        if case.steps.is_empty() {
            issues
                .push(Issue { id: located.id, message: format!("case {case_name:?} has no steps: add at least one") });
        }
        let mut steps = Vec::new();
        for step in case.steps {
            steps.push(build_step(step, &mut scope, &case_name, issues));
        }
        let mut cleanup = Vec::new();
        for step in case.cleanup {
            cleanup.push(build_step(step, &mut scope, &case_name, issues));
        }
        cases.push(Case {
            name: format!("{name}::{}", case.name.text),
            file: path.to_string(),
            level: level.unwrap_or(Level::Must),
            tags: merge(&file_tags, texts(&case.tags)),
            spec: merge(&file_spec, texts(&case.spec)),
            requires: merge(&file_requires, requirements(&case.requires, issues)),
            vars: vars.into_iter().map(|(k, v)| (k.text, v)).collect(),
            steps,
            cleanup,
        });
    }
    CaseFile { name: name.to_string(), path: path.to_string(), cases }
}

fn unknown_variable(id: usize, name: &str, case: &str, scope: &BTreeSet<String>) -> Issue {
    let mut defined: Vec<&str> = scope.iter().map(String::as_str).filter(|s| !BUILTINS.contains(s)).collect();
    defined.retain(|s| *s != "item" && *s != "index");
    let defined = if defined.is_empty() { "none".to_string() } else { defined.join(", ") };
    Issue {
        id,
        message: format!(
            "unknown variable `{name}` in case {case:?} (defined here: {defined}; built-ins: {}, date(...), \
             datetime(...), timestamp(...)): define it under `vars`, capture it in an earlier step, or fix the name",
            BUILTINS.join(", ")
        ),
    }
}

fn check_template_vars(id: usize, template: &Template, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) {
    for expr in template.exprs() {
        if let Some(name) = expr.variable() {
            if !scope.contains(name) {
                issues.push(unknown_variable(id, name, case, scope));
            }
        }
    }
}

fn check_node_vars(node: &Node, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) {
    node.walk(&mut |n| match &n.kind {
        NodeKind::Str(template) => check_template_vars(n.id, template, scope, case, issues),
        NodeKind::Object(entries) => {
            for (key, _) in entries {
                check_template_vars(key.id, &key.template, scope, case, issues);
            }
        }
        _ => {}
    });
}

/// A key of request data (`query`, `form`) or `paths`, parsed as a template and checked.
fn templated_key(text: Text, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Key {
    match Key::parse(&text) {
        Ok(key) => {
            check_template_vars(key.id, &key.template, scope, case, issues);
            key
        }
        Err(message) => {
            issues.push(Issue { id: text.id, message });
            Key::literal(&text.text)
        }
    }
}

fn check_pattern(node: &Node, issues: &mut Vec<Issue>) {
    if let Err(e) = pattern::check(node) {
        issues.push(Issue { id: e.id, message: e.message });
    }
}

/// Stand-ins for a variable that is not a built-in when a templated JSONPath is checked at load
/// time: one that fits an index (`$.events[{{i}}]`), one that fits a name (`$.{{key}}`).
const PATH_PLACEHOLDERS: [&str; 2] = ["1", "x"];

/// The text of `template` with each expression replaced: a plain built-in by a plausible
/// value of it, anything else by `placeholder`.
fn sample_text(template: &Template, placeholder: &str) -> String {
    let mut out = String::new();
    for part in &template.parts {
        match part {
            Part::Lit(text) => out.push_str(text),
            Part::Expr(expr) => {
                let sample = expr.variable().filter(|_| expr.access.is_empty()).and_then(template::sample);
                out.push_str(sample.unwrap_or(placeholder));
            }
        }
    }
    out
}

fn bad_json_path(text: &str, shown: &str, e: impl std::fmt::Display) -> String {
    let filled = if shown == text { String::new() } else { format!(" (filled in as `{shown}`)") };
    format!("bad JSONPath `{text}`{filled}: {e} (write RFC 9535 paths such as `$.id` or `$[0].venue.id`)")
}

/// Parses a JSONPath of `paths` or `capture`. One with templates is checked with plausible
/// values (see [`sample_text`]) and compiled when the step runs.
fn parse_json_path(text: &Text, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Option<PathExpr> {
    let template = match Template::parse(&text.text) {
        Ok(template) => template,
        Err(message) => {
            issues.push(Issue { id: text.id, message });
            return None;
        }
    };
    if template.is_literal() {
        return match JsonPath::parse(&text.text) {
            Ok(path) => Some(PathExpr { source: text.text.clone(), template, compiled: Some(path) }),
            Err(e) => {
                issues.push(Issue { id: text.id, message: bad_json_path(&text.text, &text.text, e) });
                None
            }
        };
    }
    check_template_vars(text.id, &template, scope, case, issues);
    let mut first_error = None;
    for placeholder in PATH_PLACEHOLDERS {
        let sample = sample_text(&template, placeholder);
        match JsonPath::parse(&sample) {
            Ok(_) => return Some(PathExpr { source: text.text.clone(), template, compiled: None }),
            Err(e) => {
                first_error.get_or_insert_with(|| bad_json_path(&text.text, &sample, e));
            }
        }
    }
    issues.push(Issue { id: text.id, message: first_error.unwrap_or_default() });
    None
}

fn is_token(method: &str) -> bool {
    !method.is_empty() && method.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn build_step(located: Located<RawStep>, scope: &mut BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Step {
    let step = located.value;
    let mut local = scope.clone();
    if let Some(name) = &step.foreach {
        if !scope.contains(&name.text) {
            issues.push(unknown_variable(name.id, &name.text, case, scope));
        }
        if step.repeat.is_some() {
            issues.push(Issue {
                id: located.id,
                message: "a step takes `repeat` or `foreach`, not both: split it into two steps".into(),
            });
        }
    }
    if step.repeat.is_some() || step.foreach.is_some() {
        local.insert("index".into());
    }
    if step.foreach.is_some() {
        local.insert("item".into());
    }

    let raw = step.request.value;
    let request_id = step.request.id;
    let method = match &raw.method {
        Some(m) => {
            let upper = m.text.to_ascii_uppercase();
            if !is_token(&upper) {
                issues.push(Issue { id: m.id, message: format!("`{}` is not an HTTP method", m.text) });
            }
            upper
        }
        None => "GET".to_string(),
    };
    let target = match (raw.path, raw.url) {
        (Some(path), None) => {
            check_template_vars(path.id, &path.template, &local, case, issues);
            Target::Path(path.template)
        }
        (None, Some(url)) => {
            check_template_vars(url.id, &url.template, &local, case, issues);
            Target::Url(url.template)
        }
        (Some(_), Some(_)) => {
            issues.push(Issue { id: request_id, message: "a request has `path` or `url`, not both".into() });
            Target::Path(Template::literal(""))
        }
        (None, None) => {
            issues.push(Issue {
                id: request_id,
                message: "the request has no address: add `path` (under the namespace, `\"\"` for its index) or `url`"
                    .into(),
            });
            Target::Path(Template::literal(""))
        }
    };
    if let Some(lang) = &raw.lang {
        check_template_vars(lang.id, &lang.template, &local, case, issues);
    }
    let mut query = Vec::new();
    for (key, value) in raw.query.map(|m| m.entries).unwrap_or_default() {
        check_node_vars(&value, &local, case, issues);
        query.push((templated_key(key, &local, case, issues), value));
    }
    let bodies = [raw.json.is_some(), raw.form.is_some(), raw.body.is_some()].iter().filter(|b| **b).count();
    if bodies > 1 {
        issues.push(Issue {
            id: request_id,
            message: "a request has one body: `json`, `form` or `body`, not several".into(),
        });
    }
    let body = if let Some(json) = raw.json {
        check_node_vars(&json, &local, case, issues);
        Body::Json(json)
    } else if let Some(form) = raw.form {
        let mut out = Vec::new();
        for (key, value) in form.entries {
            check_node_vars(&value, &local, case, issues);
            out.push((templated_key(key, &local, case, issues), value));
        }
        Body::Form(out)
    } else if let Some(body) = raw.body {
        check_template_vars(body.id, &body.template, &local, case, issues);
        Body::Raw(body.template)
    } else {
        Body::None
    };
    let mut headers = Vec::new();
    for (key, value) in raw.headers.map(|m| m.entries).unwrap_or_default() {
        check_template_vars(value.id, &value.template, &local, case, issues);
        headers.push((key.text, value.template));
    }
    if let Some(auth) = &raw.auth {
        if let Err(message) = crate::credentials::role_of(&auth.text) {
            issues.push(Issue { id: auth.id, message });
        }
    }
    let request = Request {
        method,
        target,
        lang: raw.lang.map(|l| l.template),
        query,
        body,
        headers,
        auth: raw.auth.map(|a| a.text),
    };

    let mut expect = Expect::default();
    if let Some(raw) = step.expect.map(|e| e.value) {
        if let Some(status) = raw.status {
            check_node_vars(&status, &local, case, issues);
            check_pattern(&status, issues);
            expect.status = Some(status);
        }
        for (key, value) in raw.headers.map(|m| m.entries).unwrap_or_default() {
            check_node_vars(&value, &local, case, issues);
            check_pattern(&value, issues);
            expect.headers.push((key.text, value));
        }
        if let Some(json) = raw.json {
            check_node_vars(&json, &local, case, issues);
            check_pattern(&json, issues);
            expect.json = Some(json);
        }
        for (key, value) in raw.paths.map(|m| m.entries).unwrap_or_default() {
            check_node_vars(&value, &local, case, issues);
            check_pattern(&value, issues);
            if let Some(path) = parse_json_path(&key, &local, case, issues) {
                expect.paths.push((path, value));
            }
        }
    }

    let mut capture = Vec::new();
    for (name, source) in step.capture.map(|m| m.entries).unwrap_or_default() {
        if BUILTINS.contains(&name.text.as_str()) || name.text == "item" || name.text == "index" {
            issues.push(Issue {
                id: name.id,
                message: format!("`{}` is a built-in name: capture into another name", name.text),
            });
        }
        if let Some(header) = source.text.strip_prefix("header:") {
            let header = header.trim();
            if header.is_empty() {
                issues.push(Issue {
                    id: source.id,
                    message: "`header:` needs a header name, e.g. `header:Location`".into(),
                });
            }
            capture.push((name.text.clone(), Capture::Header(header.to_string())));
        } else if let Some(path) = parse_json_path(&source, &local, case, issues) {
            capture.push((name.text.clone(), Capture::Path(path)));
        }
        scope.insert(name.text);
    }
    Step { request, expect, capture, repeat: step.repeat, foreach: step.foreach.map(|f| f.text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(source: &str) -> Vec<LocatedError> {
        match load_source("x", "cases/x.yaml", source) {
            Loaded::Error(e) => e.errors,
            Loaded::File(_) => panic!("expected an error for:\n{source}"),
        }
    }

    fn one_error(source: &str, line: usize, needle: &str) -> LocatedError {
        let errs = errors(source);
        let e = errs.iter().find(|e| e.message.contains(needle)).unwrap_or_else(|| panic!("no {needle:?} in {errs:?}"));
        assert_eq!(e.line, line, "{e:?}");
        e.clone()
    }

    const GOOD: &str = r#"
level: must
tags: [t]
spec: ["2.1"]
vars: {title: x}
cases:
  - name: one
    level: should
    vars: {n: 1}
    steps:
      - request: {path: "/events/{{n}}", query: {search: "{{case_id}}"}}
        expect: {status: 200, json: {id: {$type: integer}}}
        capture: {id: $.id, loc: "header:Location"}
      - request: {path: "/events/{{id}}"}
        repeat: 2
        capture: {many: $.id}
    cleanup:
      - request: {method: delete, path: "/events/{{item}}"}
        foreach: many
  - name: two
    steps:
      - request: {url: "/?x={{title}}"}
"#;

    #[test]
    fn a_good_file_loads() {
        let Loaded::File(file) = load_source("events/x", "cases/events/x.yaml", GOOD) else { panic!() };
        assert_eq!(file.cases.len(), 2);
        let one = &file.cases[0];
        assert_eq!(one.name, "events/x::one");
        assert_eq!(one.level, Level::Should);
        assert_eq!(file.cases[1].level, Level::Must);
        assert_eq!(one.cleanup[0].request.method, "DELETE");
        assert_eq!(one.vars.len(), 2);
    }

    #[test]
    fn syntax_errors_have_a_location() {
        let e = one_error("level: must\ncases: []\n  c: d\n", 3, "");
        assert!(e.column >= 1);
        one_error("level: must\ncases:\n  - name: [1, 2]\n", 3, "expected a string");
    }

    #[test]
    fn unknown_keys_are_rejected_with_their_line() {
        one_error("level: must\ncases:\n  - name: a\n    stepz: []\n", 4, "unknown field `stepz`");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /x, bodyy: 1}\n",
            5,
            "unknown field `bodyy`",
        );
    }

    #[test]
    fn duplicate_names_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /}}]\n  - name: a\n    steps: [{request: {path: /}}]\n",
            5,
            "also named",
        );
    }

    #[test]
    fn unknown_variables_are_rejected() {
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /x}\n        capture: {id: $.id}\n      - request:\n          path: \"/{{idd}}\"\n",
            8,
            "unknown variable `idd`",
        );
        assert!(e.message.contains("defined here: id"), "{}", e.message);
        assert!(e.column > 10);
        // A capture is not visible before the step that makes it.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{id}}\"}\n        capture: {id: $.id}\n",
            5,
            "unknown variable `id`",
        );
        // `item` exists only in foreach steps.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{item}}\"}\n",
            5,
            "`item`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        foreach: nothing\n",
            6,
            "unknown variable `nothing`",
        );
    }

    #[test]
    fn bad_json_paths_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        capture: {id: \"$.[\"}\n",
            6,
            "bad JSONPath",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$$x\": 1}\n",
            7,
            "bad JSONPath",
        );
    }

    #[test]
    fn keys_and_json_paths_may_hold_templates() {
        let source = r#"
level: must
cases:
  - name: a
    steps:
      - request: {path: "", query: {"{{language_param}}": fr}, json: {"k{{case_id}}": 1}}
        expect:
          json: {routes: {"/{{namespace}}/events": {methods: {$contains: [GET]}}}}
          paths: {"$.routes['/{{namespace}}/events'].methods": {$len: 2}, "$.list[{{n}}]": 1, "$.{{k}}": 2}
        capture: {m: "$.routes['/{{namespace}}'].methods"}
    vars: {n: 1, k: key}
"#;
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!("{source}") };
        let step = &file.cases[0].steps[0];
        assert_eq!(step.request.query[0].0.text, "{{language_param}}");
        assert!(!step.request.query[0].0.template.is_literal());
        assert_eq!(step.expect.paths.len(), 3);
        assert!(step.expect.paths.iter().all(|(p, _)| p.compiled.is_none()), "compiled when run");
        let mut env = crate::env::Env::new(chrono::Utc::now());
        env.set("namespace", crate::env::Binding::Data(serde_json::json!("tribe/events/v1")));
        let compiled = step.expect.paths[0].0.resolve(&env).unwrap();
        let body = serde_json::json!({"routes": {"/tribe/events/v1/events": {"methods": ["GET", "POST"]}}});
        assert_eq!(compiled.query(&body).all(), vec![&serde_json::json!(["GET", "POST"])]);
    }

    #[test]
    fn templated_keys_and_paths_are_checked_when_loading() {
        // An unknown variable in a key of a pattern, of a query, of `paths` and of a capture.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          json: {\"/{{namespac}}/events\": 1}\n",
            7,
            "unknown variable `namespac`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, query: {\"{{lang}}\": 1}}\n",
            5,
            "unknown variable `lang`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$.a['{{nope}}']\": 1}\n",
            7,
            "unknown variable `nope`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        capture: {x: \"$.a['{{nope}}']\"}\n",
            6,
            "unknown variable `nope`",
        );
        // A path that does not parse whatever the template gives, and template syntax in a key.
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$.routes['/{{namespace}}'\": 1}\n",
            7,
            "bad JSONPath",
        );
        assert!(e.message.contains("filled in as `$.routes['/calendar/events/v1'`"), "{}", e.message);
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: {\"{{x\": 1}}\n",
            5,
            "unclosed",
        );
    }

    #[test]
    fn mixed_matcher_keys_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          json:\n            id: {$type: integer, x: 1}\n",
            8,
            "mixes matcher keys",
        );
    }

    #[test]
    fn requirements_name_known_features() {
        let e = one_error(
            "level: must\nrequires: [geoloc]\ncases:\n  - name: a\n    requires: [\"!tikets\"]\n    steps: [{request: {path: /}}]\n",
            5,
            "unknown feature `!tikets`",
        );
        assert!(
            e.message.contains("fresh-store, geoloc, tickets, series, event-password or languages"),
            "{}",
            e.message
        );
        one_error("level: must\nrequires: [translations]\ncases: []\n", 2, "unknown feature `translations`");
        let source = "level: must\nrequires: [password-on-create]\ncases:\n  - name: a\n    requires: [\"!tickets\", languages]\n    steps: [{request: {path: /}}]\n";
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!() };
        assert_eq!(
            file.cases[0].requires,
            ["event-password", "!tickets", "languages"],
            "aliases become the feature's name"
        );
    }

    #[test]
    fn credential_names_are_roles() {
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /, auth: editor}}]\n    cleanup:\n      - request: {path: /, auth: admin}\n",
            6,
            "unknown credential name `admin`",
        );
        assert!(e.message.contains("administrator, editor, author, contributor, subscriber"), "{}", e.message);
        assert_eq!(e.column, 34, "at the name");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /, auth: \"none:wrong-password\"}}]\n",
            4,
            "unknown credential name",
        );
    }

    #[test]
    fn a_case_without_level_is_rejected() {
        one_error("cases:\n  - name: a\n    steps: [{request: {path: /}}]\n", 2, "has no level");
    }

    #[test]
    fn template_syntax_errors_have_a_location() {
        one_error("level: must\ncases:\n  - name: a\n    steps: [{request: {path: \"/{{x\"}}]\n", 4, "unclosed");
    }

    #[test]
    fn other_errors() {
        one_error("level: must\ncases:\n  - name: a\n    steps:\n      - request: {}\n", 5, "no address");
        one_error("level: often\ncases: []\n", 1, "unknown level");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: 1, body: x}\n",
            5,
            "one body",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, query: {a: 1, a: 2}}\n",
            5,
            "duplicate key",
        );
        let errs = errors("level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{x}}\"}\n      - request: {path: \"/{{y}}\"}\n");
        assert_eq!(errs.len(), 2, "every error is reported: {errs:?}");
    }

    #[test]
    fn json_files_load_too() {
        let source = r#"{"level": "may", "cases": [{"name": "j", "steps": [{"request": {"path": ""}}]}]}"#;
        assert!(matches!(load_source("j", "j.json", source), Loaded::File(_)));
        let source =
            "{\"level\": \"may\",\n \"cases\": [{\"name\": \"j\", \"steps\": [{\"request\": {\"pth\": \"\"}}]}]}";
        one_error(source, 2, "unknown field `pth`");
    }

    #[test]
    fn yaml_1_2_core_schema() {
        let source = "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: {a: yes, b: on, c: 19:00, d: 2024-01-01, e: True, f: FALSE}}\n";
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!() };
        let Body::Json(node) = &file.cases[0].steps[0].request.body else { panic!() };
        let value = crate::env::Env::new(chrono::Utc::now()).render_data(node).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"a": "yes", "b": "on", "c": "19:00", "d": "2024-01-01", "e": true, "f": false})
        );
    }
}
