//! Meaning: turns the raw structures of a file into the validated suite ([`crate::model`]),
//! checking what can be checked before anything runs: levels, features, credential names,
//! variables in scope, patterns, JSONPaths, the types of `status` and of header patterns,
//! and the size a step's templates can reach.

use std::collections::{BTreeSet, HashSet};

use serde_json_path::JsonPath;

use super::raw::{Located, RawCase, RawExpect, RawFile, RawRequest, RawStep};
use crate::model::{Body, Capture, Case, CaseFile, Expect, Level, PathExpr, Request, Step, Target};
use crate::node::{Issue, Key, Node, NodeKind, Text, Tpl};
use crate::pattern;
use crate::template::{self, Part, Template, BUILTINS};
use crate::yaml::Pos;

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
            Err(message) => issues.push(Issue { at: item.at, message }),
        }
    }
    out
}

fn level(text: &Text, issues: &mut Vec<Issue>) -> Option<Level> {
    let level = Level::parse(&text.text);
    if level.is_none() {
        issues.push(Issue { at: text.at, message: format!("unknown level `{}`: use must, should or may", text.text) });
    }
    level
}

/// What the top of a file gives every case in it.
struct FileDefaults {
    level: Option<Level>,
    tags: Vec<String>,
    spec: Vec<String>,
    requires: Vec<String>,
    vars: Vec<(Text, Node)>,
}

pub fn build_file(name: &str, path: &str, raw: RawFile, issues: &mut Vec<Issue>) -> CaseFile {
    let file = FileDefaults {
        level: raw.level.as_ref().and_then(|l| level(l, issues)),
        tags: texts(&raw.tags),
        spec: texts(&raw.spec),
        requires: requirements(&raw.requires, issues),
        vars: raw.vars,
    };
    let mut names = HashSet::new();
    let mut cases = Vec::new();
    for located in raw.cases {
        let case = build_case(name, path, located, cases.len() + 1, &file, &mut names, issues);
        super::bounds::check(&case, issues);
        cases.push(case);
    }
    CaseFile { name: name.to_string(), path: path.to_string(), cases }
}

/// The characters that break a line somewhere (a terminal, an editor, a file of test names):
/// a case name holds none.
const LINE_BREAKS: [char; 7] = ['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'];

/// The case's name (`#number` when it has none, which is already an issue), checked to be one
/// line and unique within the file.
fn case_name(case: &RawCase, at: Pos, number: usize, names: &mut HashSet<String>, issues: &mut Vec<Issue>) -> Text {
    let Some(name) = case.name.clone() else { return Text { at, text: format!("#{number}") } };
    if name.text.trim().is_empty() || name.text.contains(LINE_BREAKS) {
        issues.push(Issue {
            at: name.at,
            message: "a case name must be one non-empty line (no line break of any kind: \\n, \\r, \\u{2028} …)".into(),
        });
    }
    if !names.insert(name.text.clone()) {
        issues.push(Issue {
            at: name.at,
            message: format!(
                "another case in this file is also named {:?}: names must be unique within a file",
                name.text
            ),
        });
    }
    name
}

/// The case's own level, else the file's; a case with neither is an issue.
fn case_level(own: Option<&Text>, file: Option<Level>, at: Pos, name: &str, issues: &mut Vec<Issue>) -> Option<Level> {
    let Some(own) = own else {
        if file.is_none() {
            issues.push(Issue {
                at,
                message: format!(
                    "case {name:?} has no level: add `level: must` (or should, may) to the case or at the top of the file"
                ),
            });
        }
        return file;
    };
    level(own, issues)
}

/// The file's `vars`, with the case's own replacing those of the same name.
fn case_vars(file_vars: &[(Text, Node)], own: Vec<(Text, Node)>) -> Vec<(Text, Node)> {
    let mut vars = file_vars.to_vec();
    for (key, value) in own {
        vars.retain(|(k, _)| k.text != key.text);
        vars.push((key, value));
    }
    vars
}

fn build_case(
    file_name: &str,
    path: &str,
    located: Located<RawCase>,
    number: usize,
    file: &FileDefaults,
    names: &mut HashSet<String>,
    issues: &mut Vec<Issue>,
) -> Case {
    let case = located.value;
    let case_name = case_name(&case, located.at, number, names, issues);
    let level = case_level(case.level.as_ref(), file.level, located.at, &case_name.text, issues);
    let vars = case_vars(&file.vars, case.vars.unwrap_or_default());
    let mut scope: BTreeSet<String> = BUILTINS.iter().map(|s| s.to_string()).collect();
    scope.extend(vars.iter().map(|(k, _)| k.text.clone()));
    let case_label = case_name.text.clone();
    for (_, value) in &vars {
        check_node_vars(value, &scope, &case_label, issues);
    }
    if case.steps.as_ref().is_some_and(Vec::is_empty) {
        issues.push(Issue { at: located.at, message: format!("case {case_label:?} has no steps: add at least one") });
    }
    let steps: Vec<Step> = case
        .steps
        .unwrap_or_default()
        .into_iter()
        .map(|step| build_step(step, &mut scope, &case_label, issues))
        .collect();
    let cleanup: Vec<Step> =
        case.cleanup.into_iter().map(|step| build_step(step, &mut scope, &case_label, issues)).collect();
    Case {
        name: format!("{file_name}::{}", case_name.text),
        file: path.to_string(),
        level: level.unwrap_or(Level::Must),
        tags: merge(&file.tags, texts(&case.tags)),
        spec: merge(&file.spec, texts(&case.spec)),
        requires: merge(&file.requires, requirements(&case.requires, issues)),
        vars: vars.into_iter().map(|(k, v)| (k.text, v)).collect(),
        steps,
        cleanup,
    }
}

fn unknown_variable(at: Pos, name: &str, case: &str, scope: &BTreeSet<String>) -> Issue {
    let mut defined: Vec<&str> = scope.iter().map(String::as_str).filter(|s| !BUILTINS.contains(s)).collect();
    defined.retain(|s| *s != "item" && *s != "index");
    let defined = if defined.is_empty() { "none".to_string() } else { defined.join(", ") };
    Issue {
        at,
        message: format!(
            "unknown variable `{name}` in case {case:?} (defined here: {defined}; built-ins: {}, date(...), \
             datetime(...), timestamp(...)): define it under `vars`, capture it in an earlier step, or fix the name",
            BUILTINS.join(", ")
        ),
    }
}

fn check_template_vars(at: Pos, template: &Template, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) {
    for expr in template.exprs() {
        if let Some(name) = expr.variable() {
            if !scope.contains(name) {
                issues.push(unknown_variable(at, name, case, scope));
            }
        }
    }
}

fn check_node_vars(node: &Node, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) {
    node.walk(&mut |n| match &n.kind {
        NodeKind::Str(template) => check_template_vars(n.at, template, scope, case, issues),
        NodeKind::Object(entries) => {
            for (key, _) in entries {
                check_template_vars(key.at, &key.template, scope, case, issues);
            }
        }
        _ => {}
    });
}

/// A key of request data (`query`, `form`) or `paths`, parsed as a template and checked.
fn templated_key(text: Text, scope: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Key {
    match Key::parse(&text) {
        Ok(key) => {
            check_template_vars(key.at, &key.template, scope, case, issues);
            key
        }
        Err(message) => {
            issues.push(Issue { at: text.at, message });
            Key::literal(&text.text)
        }
    }
}

fn check_pattern(node: &Node, issues: &mut Vec<Issue>) {
    if let Err(e) = pattern::check(node) {
        issues.push(Issue { at: e.at, message: e.message });
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
            issues.push(Issue { at: text.at, message });
            return None;
        }
    };
    if template.is_literal() {
        return match JsonPath::parse(&text.text) {
            Ok(path) => Some(PathExpr { source: text.text.clone(), template, compiled: Some(path) }),
            Err(e) => {
                issues.push(Issue { at: text.at, message: bad_json_path(&text.text, &text.text, e) });
                None
            }
        };
    }
    check_template_vars(text.at, &template, scope, case, issues);
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
    issues.push(Issue { at: text.at, message: first_error.unwrap_or_default() });
    None
}

fn is_token(method: &str) -> bool {
    !method.is_empty() && method.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn build_step(located: Located<RawStep>, scope: &mut BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Step {
    let step = located.value;
    let local = step_scope(&step, located.at, scope, case, issues);
    let (raw, request_at) = match step.request {
        Some(request) => (request.value, request.at),
        None => (Default::default(), located.at),
    };
    let request = build_request(raw, request_at, &local, case, issues);
    let expect = match step.expect {
        Some(raw) => build_expect(raw, &local, case, issues),
        None => Expect::default(),
    };
    let capture = build_captures(step.capture, scope, &local, case, issues);
    Step {
        request,
        expect,
        capture,
        repeat: step.repeat,
        foreach: step.foreach.map(|f| f.text),
        concurrency: step.concurrency,
    }
}

/// The names a step's templates can use: the case's scope, plus `index` in a step that
/// repeats and `item` in one that goes through a list (checked to be in scope).
fn step_scope(
    step: &RawStep,
    at: Pos,
    scope: &BTreeSet<String>,
    case: &str,
    issues: &mut Vec<Issue>,
) -> BTreeSet<String> {
    let mut local = scope.clone();
    if let Some(name) = &step.foreach {
        if !scope.contains(&name.text) {
            issues.push(unknown_variable(name.at, &name.text, case, scope));
        }
        if step.repeat.is_some() {
            issues.push(Issue {
                at,
                message: "a step takes `repeat` or `foreach`, not both: split it into two steps".into(),
            });
        }
    }
    if step.repeat.is_some() || step.foreach.is_some() {
        local.insert("index".into());
    } else if step.concurrency.is_some() {
        issues.push(Issue {
            at,
            message: "`concurrency` goes with `repeat` or `foreach`: it sends their iterations together".into(),
        });
    }
    if step.foreach.is_some() {
        local.insert("item".into());
    }
    local
}

fn build_request(raw: RawRequest, at: Pos, local: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Request {
    let method = request_method(raw.method.as_ref(), issues);
    let target = request_target(raw.path, raw.url, raw.address_given, at, local, case, issues);
    if let Some(lang) = &raw.lang {
        check_template_vars(lang.at, &lang.template, local, case, issues);
    }
    let query = templated_entries(raw.query, local, case, issues);
    let bodies = [raw.json.is_some(), raw.form.is_some(), raw.body.is_some()].iter().filter(|b| **b).count();
    if bodies > 1 {
        issues.push(Issue { at, message: "a request has one body: `json`, `form` or `body`, not several".into() });
    }
    let body = if let Some(json) = raw.json {
        check_node_vars(&json, local, case, issues);
        Body::Json(json)
    } else if let Some(form) = raw.form {
        Body::Form(templated_entries(form, local, case, issues))
    } else if let Some(body) = raw.body {
        check_template_vars(body.at, &body.template, local, case, issues);
        Body::Raw(body.template)
    } else {
        Body::None
    };
    let mut headers = Vec::new();
    for (key, value) in raw.headers {
        check_template_vars(value.at, &value.template, local, case, issues);
        headers.push((key.text, value.template));
    }
    if let Some(auth) = &raw.auth {
        if let Err(message) = crate::credentials::role_of(&auth.text) {
            issues.push(Issue { at: auth.at, message });
        }
    }
    let lang = raw.lang.map(|l| l.template);
    Request { at, method, target, lang, query, body, headers, auth: raw.auth.map(|a| a.text) }
}

/// The method in upper case (`GET` when none is given); one that is not a token is an issue.
fn request_method(method: Option<&Text>, issues: &mut Vec<Issue>) -> String {
    let Some(m) = method else { return "GET".to_string() };
    let upper = m.text.to_ascii_uppercase();
    if !is_token(&upper) {
        issues.push(Issue { at: m.at, message: format!("`{}` is not an HTTP method", m.text) });
    }
    upper
}

/// Where the request goes: its `path` or its `url`, exactly one of them.
fn request_target(
    path: Option<Tpl>,
    url: Option<Tpl>,
    address_given: bool,
    at: Pos,
    local: &BTreeSet<String>,
    case: &str,
    issues: &mut Vec<Issue>,
) -> Target {
    match (path, url) {
        (Some(path), None) => {
            check_template_vars(path.at, &path.template, local, case, issues);
            Target::Path(path.template)
        }
        (None, Some(url)) => {
            check_template_vars(url.at, &url.template, local, case, issues);
            Target::Url(url.template)
        }
        (Some(_), Some(_)) => {
            issues.push(Issue { at, message: "a request has `path` or `url`, not both".into() });
            Target::Path(Template::literal(""))
        }
        (None, None) if address_given => Target::Path(Template::literal("")),
        (None, None) => {
            issues.push(Issue {
                at,
                message: "the request has no address: add `path` (under the namespace, `\"\"` for its index) or `url`"
                    .into(),
            });
            Target::Path(Template::literal(""))
        }
    }
}

/// Request data (`query`, `form`): each value and key checked, each key parsed as a template.
fn templated_entries(
    entries: Vec<(Text, Node)>,
    local: &BTreeSet<String>,
    case: &str,
    issues: &mut Vec<Issue>,
) -> Vec<(Key, Node)> {
    let mut out = Vec::new();
    for (key, value) in entries {
        check_node_vars(&value, local, case, issues);
        out.push((templated_key(key, local, case, issues), value));
    }
    out
}

/// A pattern of `expect`: its variables in scope and its pattern well formed.
fn checked_pattern(node: &Node, local: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) {
    check_node_vars(node, local, case, issues);
    check_pattern(node, issues);
}

fn build_expect(raw: RawExpect, local: &BTreeSet<String>, case: &str, issues: &mut Vec<Issue>) -> Expect {
    let mut expect = Expect::default();
    if let Some(status) = raw.status {
        checked_pattern(&status, local, case, issues);
        issues.extend(super::types::status(&status));
        expect.status = Some(status);
    }
    for (key, value) in raw.headers {
        checked_pattern(&value, local, case, issues);
        issues.extend(super::types::header(&value));
        expect.headers.push((key.text, value));
    }
    if let Some(json) = raw.json {
        checked_pattern(&json, local, case, issues);
        expect.json = Some(json);
    }
    if let Some(assume) = raw.assume {
        checked_pattern(&assume, local, case, issues);
        expect.assume = Some(assume);
    }
    for (key, value) in raw.paths {
        checked_pattern(&value, local, case, issues);
        if let Some(path) = parse_json_path(&key, local, case, issues) {
            expect.paths.push((path, value));
        }
    }
    expect
}

/// The step's `capture`: each name joins `scope` for the steps after it.
fn build_captures(
    captures: Vec<(Text, Text)>,
    scope: &mut BTreeSet<String>,
    local: &BTreeSet<String>,
    case: &str,
    issues: &mut Vec<Issue>,
) -> Vec<(String, Capture)> {
    let mut capture = Vec::new();
    for (name, source) in captures {
        if BUILTINS.contains(&name.text.as_str()) || name.text == "item" || name.text == "index" {
            issues.push(Issue {
                at: name.at,
                message: format!("`{}` is a built-in name: capture into another name", name.text),
            });
        }
        if let Some(header) = source.text.strip_prefix("header:") {
            let header = header.trim();
            if header.is_empty() {
                issues.push(Issue {
                    at: source.at,
                    message: "`header:` needs a header name, e.g. `header:Location`".into(),
                });
            }
            capture.push((name.text.clone(), Capture::Header(header.to_string())));
        } else if let Some(path) = parse_json_path(&source, local, case, issues) {
            capture.push((name.text.clone(), Capture::Path(path)));
        }
        scope.insert(name.text);
    }
    capture
}
