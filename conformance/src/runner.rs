//! Running one case against one implementation: fill templates, send each step, match the
//! answer, capture variables, always run the cleanup. It returns a [`CaseReport`] and never
//! prints: formatting is the report modules' job.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use base64::Engine;
use chrono::Utc;
use reqwest::Client;
use serde_json::Value;

use crate::credentials::WRONG_PASSWORD;
use crate::env::{Binding, Env, TemplateError};
use crate::matcher::{compare, expected_view, path_key, Mismatch};
use crate::model::{Body, Capture, Case, Request, Step, Target};
use crate::node::{Key, Node, NodeKind};
use crate::outcome::{CaseReport, Outcome, SentRequest, StepRecord};
use crate::pattern::{self, Matcher, Pat};
use crate::show::excerpt;
use crate::template::{Expr, Template};

/// The key of request data that is sent under the implementation's language parameter name.
pub const LANGUAGE_KEY: &str = crate::template::DEFAULT_LANGUAGE_PARAM;

/// The implementation under test, as one case sees it.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// `{base_url}`, without a trailing slash, e.g. `http://host/wp-json`.
    pub base_url: String,
    pub namespace: String,
    /// The name the language parameter is sent under.
    pub language_param: String,
    /// Credential sets by name: (user, password).
    pub credentials: BTreeMap<String, (String, String)>,
}

impl Endpoint {
    /// `{base_url}/{namespace}`.
    pub fn namespace_url(&self) -> String {
        format!("{}/{}", self.base_url, self.namespace.trim_matches('/'))
    }

    /// `{base_url}` without its last path segment, and that segment (the REST root).
    pub fn site_and_root(&self) -> (String, String) {
        match self.base_url.rfind('/') {
            Some(i) if i > self.base_url.find("://").map_or(0, |s| s + 2) => {
                (self.base_url[..i].to_string(), self.base_url[i..].to_string())
            }
            _ => (self.base_url.clone(), String::new()),
        }
    }
}

/// Per-run values every case sees.
#[derive(Clone, Debug)]
pub struct CaseContext {
    pub run_id: String,
    pub case_id: String,
}

/// Runs `case` and reports what happened.
pub async fn run_case(case: &Case, endpoint: &Endpoint, client: &Client, ctx: &CaseContext) -> CaseReport {
    let started = Instant::now();
    let mut env = Env::new(Utc::now());
    let builtins = [
        ("run_id", ctx.run_id.clone()),
        ("case_id", ctx.case_id.clone()),
        ("namespace", endpoint.namespace.trim_matches('/').to_string()),
        ("language_param", endpoint.language_param.clone()),
        ("base_url", endpoint.base_url.clone()),
        ("site_url", endpoint.site_and_root().0),
        ("namespace_url", endpoint.namespace_url()),
    ];
    for (name, value) in builtins {
        env.set(name, Binding::Data(Value::String(value)));
    }
    for (name, node) in &case.vars {
        env.set(name, Binding::Pattern(node.clone()));
    }
    let mut steps = Vec::new();
    let mut outcome = Outcome::Passed;
    for (i, step) in case.steps.iter().enumerate() {
        let label = format!("steps[{i}]");
        let records = run_step(step, &label, &mut env, endpoint, client).await;
        let failed = records.iter().find(|r| !r.ok()).map(|r| r.error.clone());
        steps.extend(records);
        if let Some(error) = failed {
            outcome = match error {
                Some(message) => Outcome::Error(message),
                None => Outcome::Failed,
            };
            break;
        }
    }
    let mut cleanup = Vec::new();
    for (i, step) in case.cleanup.iter().enumerate() {
        let label = format!("cleanup[{i}]");
        let missing: Vec<String> = step_variables(step).into_iter().filter(|v| !env.contains(v)).collect();
        if !missing.is_empty() {
            cleanup.push(StepRecord {
                label,
                skipped: Some(format!("needs {}, which an earlier failure left uncaptured", missing.join(", "))),
                ..StepRecord::default()
            });
            continue;
        }
        cleanup.extend(run_step(step, &label, &mut env, endpoint, client).await);
    }
    CaseReport {
        name: case.name.clone(),
        file: case.file.clone(),
        level: Some(case.level),
        spec: case.spec.clone(),
        tags: case.tags.clone(),
        outcome,
        duration: started.elapsed(),
        steps,
        cleanup,
        expected_failure: false,
    }
}

/// The variables a step reads (templates, and its `foreach` list).
pub fn step_variables(step: &Step) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let add_template = |t: &Template, out: &mut BTreeSet<String>| {
        out.extend(t.exprs().filter_map(Expr::variable).map(String::from));
    };
    let mut nodes: Vec<&Node> = Vec::new();
    let r = &step.request;
    match &r.target {
        Target::Path(t) | Target::Url(t) => add_template(t, &mut out),
    }
    if let Some(lang) = &r.lang {
        add_template(lang, &mut out);
    }
    for (key, node) in &r.query {
        add_template(&key.template, &mut out);
        nodes.push(node);
    }
    match &r.body {
        Body::Json(n) => nodes.push(n),
        Body::Form(entries) => {
            for (key, node) in entries {
                add_template(&key.template, &mut out);
                nodes.push(node);
            }
        }
        Body::Raw(t) => add_template(t, &mut out),
        Body::None => {}
    }
    for (_, t) in &r.headers {
        add_template(t, &mut out);
    }
    let e = &step.expect;
    nodes.extend(e.status.iter());
    nodes.extend(e.json.iter());
    nodes.extend(e.headers.iter().map(|(_, n)| n));
    for (path, node) in &e.paths {
        add_template(&path.template, &mut out);
        nodes.push(node);
    }
    for (_, capture) in &step.capture {
        if let Capture::Path(path) = capture {
            add_template(&path.template, &mut out);
        }
    }
    for node in nodes {
        node.walk(&mut |n| match &n.kind {
            NodeKind::Str(t) => add_template(t, &mut out),
            NodeKind::Object(entries) => entries.iter().for_each(|(k, _)| add_template(&k.template, &mut out)),
            _ => {}
        });
    }
    if let Some(list) = &step.foreach {
        out.insert(list.clone());
    }
    out.remove("item");
    out.remove("index");
    out
}

async fn run_step(step: &Step, label: &str, env: &mut Env, endpoint: &Endpoint, client: &Client) -> Vec<StepRecord> {
    let iterations: Vec<(String, Option<(usize, Value)>)> = if let Some(n) = step.repeat {
        (0..n as usize).map(|i| (format!("{label} index {i}"), Some((i, Value::Null)))).collect()
    } else if let Some(list) = &step.foreach {
        let items = match env.get(list) {
            Some(Binding::Data(Value::Array(items))) => items.clone(),
            Some(Binding::Pattern(node)) => match env.render_data(node) {
                Ok(Value::Array(items)) => items,
                _ => Vec::new(),
            },
            other => {
                let what = match other {
                    Some(Binding::Data(v)) => crate::show::compact(v),
                    _ => "nothing".into(),
                };
                return vec![StepRecord {
                    label: label.to_string(),
                    error: Some(format!("`foreach: {list}` needs a list, and `{list}` is {what}")),
                    ..StepRecord::default()
                }];
            }
        };
        items.into_iter().enumerate().map(|(i, item)| (format!("{label} index {i}"), Some((i, item)))).collect()
    } else {
        vec![(label.to_string(), None)]
    };
    let looping = step.repeat.is_some() || step.foreach.is_some();
    if looping {
        for (name, _) in &step.capture {
            env.set(name, Binding::Data(Value::Array(Vec::new())));
        }
    }
    let mut records = Vec::new();
    for (label, iteration) in iterations {
        if let Some((index, item)) = iteration {
            env.set("index", Binding::Data(Value::from(index)));
            if step.foreach.is_some() {
                env.set("item", Binding::Data(item));
            }
        }
        let (record, captured) = run_once(step, label, env, endpoint, client).await;
        for (name, value) in captured {
            if looping {
                if let Some(Binding::Data(Value::Array(list))) = env.get(&name) {
                    let mut list = list.clone();
                    list.push(value);
                    env.set(&name, Binding::Data(Value::Array(list)));
                }
            } else {
                env.set(&name, Binding::Data(value));
            }
        }
        let ok = record.ok();
        records.push(record);
        if !ok {
            break;
        }
    }
    records
}

fn template_error(label: String, request: Option<SentRequest>, e: TemplateError) -> StepRecord {
    StepRecord { label, request, error: Some(format!("template error: {e}")), ..StepRecord::default() }
}

/// Builds the request of a step with its templates filled in.
pub fn render_request(request: &Request, env: &Env, endpoint: &Endpoint) -> Result<SentRequest, TemplateError> {
    let lang = match &request.lang {
        Some(t) => Some(env.render_text(t)?),
        None => None,
    };
    let (site, root) = endpoint.site_and_root();
    let mut url = match &request.target {
        Target::Path(t) => {
            let path = slash(&env.render_text(t)?);
            match &lang {
                Some(lang) => format!("{site}/{lang}{root}/{}{path}", endpoint.namespace.trim_matches('/')),
                None => format!("{}{path}", endpoint.namespace_url()),
            }
        }
        Target::Url(t) => {
            let path = slash(&env.render_text(t)?);
            match &lang {
                Some(lang) => format!("{site}/{lang}{path}"),
                None => format!("{site}{path}"),
            }
        }
    };
    if !request.query.is_empty() {
        let mut pairs = Vec::new();
        for (key, node) in &request.query {
            flatten(&rename(key, env, endpoint)?, &env.render_data(node)?, &mut pairs);
        }
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(&encode(&pairs));
    }
    let mut headers = Vec::new();
    let body = match &request.body {
        Body::None => None,
        Body::Json(node) => {
            let mut value = env.render_data(node)?;
            let renamed = match &node.kind {
                NodeKind::Object(entries) => entries.iter().any(|(k, _)| is_language_key(k)),
                _ => false,
            };
            if let (true, Value::Object(map)) = (renamed, &mut value) {
                if let Some(v) = map.remove(LANGUAGE_KEY) {
                    map.insert(endpoint.language_param.clone(), v);
                }
            }
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
            Some(value.to_string())
        }
        Body::Form(entries) => {
            let mut pairs = Vec::new();
            for (key, node) in entries {
                flatten(&rename(key, env, endpoint)?, &env.render_data(node)?, &mut pairs);
            }
            headers.push(("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()));
            Some(encode(&pairs))
        }
        Body::Raw(t) => Some(env.render_text(t)?),
    };
    for (name, t) in &request.headers {
        let value = env.render_text(t)?;
        headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        headers.push((name.clone(), value));
    }
    let auth = match request.auth.as_deref() {
        None | Some("none") => None,
        Some(name) => match endpoint.credentials.get(name.strip_suffix(WRONG_PASSWORD).unwrap_or(name)) {
            // `NAME:wrong-password`: NAME's user with a password that cannot be right.
            Some((user, _)) if name.ends_with(WRONG_PASSWORD) => Some((user.clone(), "not-the-password-0".to_string())),
            Some(pair) => Some(pair.clone()),
            None => {
                let known: Vec<&str> = endpoint.credentials.keys().map(String::as_str).collect();
                return Err(TemplateError(format!(
                    "no credentials named `{name}` (known: {}): give them with --auth {name}=USER:PASSWORD",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                )));
            }
        },
    };
    Ok(SentRequest { method: request.method.clone(), url, headers, auth, body })
}

fn slash(path: &str) -> String {
    if path.is_empty() || path.starts_with('/') || path.starts_with('?') {
        path.to_string()
    } else {
        format!("/{path}")
    }
}

/// The literal key `multilingual_language` (not one a template makes), which request data
/// sends under the implementation's name for the language parameter.
fn is_language_key(key: &Key) -> bool {
    key.template.is_literal() && key.text == LANGUAGE_KEY
}

/// The name a top-level key of `query` or `form` is sent under.
fn rename(key: &Key, env: &Env, endpoint: &Endpoint) -> Result<String, TemplateError> {
    if is_language_key(key) {
        Ok(endpoint.language_param.clone())
    } else {
        env.render_key(key)
    }
}

/// Query and form encoding: lists as `key[]=`, maps as `key[sub]=`, null as an empty value.
fn flatten(key: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| flatten(&format!("{key}[]"), item, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| flatten(&format!("{key}[{k}]"), v, out)),
        Value::Null => out.push((key.to_string(), String::new())),
        Value::String(s) => out.push((key.to_string(), s.clone())),
        other => out.push((key.to_string(), other.to_string())),
    }
}

fn encode(pairs: &[(String, String)]) -> String {
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        serializer.append_pair(k, v);
    }
    serializer.finish()
}

/// A response as the matcher needs it.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

async fn send(client: &Client, request: &SentRequest) -> Result<Answer, String> {
    let method = reqwest::Method::from_bytes(request.method.as_bytes())
        .map_err(|_| format!("`{}` is not an HTTP method", request.method))?;
    let mut builder = client.request(method, &request.url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some((user, password)) = &request.auth {
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        builder = builder.header("Authorization", format!("Basic {token}"));
    }
    if let Some(body) = &request.body {
        builder = builder.body(body.clone());
    }
    let response = builder.send().await.map_err(|e| describe_error(&e, &request.url))?;
    let status = response.status().as_u16();
    let mut headers: Vec<(String, String)> = Vec::new();
    for (name, value) in response.headers() {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        match headers.iter_mut().find(|(n, _)| n == name.as_str()) {
            Some((_, joined)) => {
                joined.push_str(", ");
                joined.push_str(&value);
            }
            None => headers.push((name.as_str().to_string(), value)),
        }
    }
    let bytes = response.bytes().await.map_err(|e| describe_error(&e, &request.url))?;
    Ok(Answer { status, headers, body: String::from_utf8_lossy(&bytes).into_owned() })
}

/// A request that could not be carried out, in one line: what failed, the address, the cause.
pub(crate) fn describe_error(e: &reqwest::Error, url: &str) -> String {
    let mut detail = String::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    let what = if e.is_timeout() {
        "timed out".to_string()
    } else if e.is_connect() {
        "could not connect".to_string()
    } else if e.is_builder() {
        "could not build the request".to_string()
    } else {
        "request failed".to_string()
    };
    let detail = detail.split_whitespace().collect::<Vec<_>>().join(" ");
    if detail.is_empty() {
        format!("{what}: {url}")
    } else {
        format!("{what}: {url}: {detail}")
    }
}

fn build_pat(node: &Node, env: &Env) -> Result<Pat, String> {
    pattern::build(node, env).map_err(|e| format!("template error: {}", e.message))
}

async fn run_once(
    step: &Step,
    label: String,
    env: &Env,
    endpoint: &Endpoint,
    client: &Client,
) -> (StepRecord, Vec<(String, Value)>) {
    let request = match render_request(&step.request, env, endpoint) {
        Ok(r) => r,
        Err(e) => return (template_error(label, None, e), Vec::new()),
    };
    let answer = match send(client, &request).await {
        Ok(answer) => answer,
        Err(e) => {
            return (StepRecord { label, request: Some(request), error: Some(e), ..StepRecord::default() }, Vec::new())
        }
    };
    let mut record = StepRecord {
        label,
        request: Some(request),
        status: Some(answer.status),
        body: Some(answer.body.clone()),
        ..StepRecord::default()
    };
    let mut mismatches: Vec<Mismatch> = Vec::new();
    let expect = &step.expect;
    let result: Result<(), String> = (|| {
        if let Some(node) = &expect.status {
            let pat = build_pat(node, env)?;
            mismatches.extend(compare(&pat, Some(&Value::from(answer.status)), "status"));
        }
        for (name, node) in &expect.headers {
            let pat = build_pat(node, env)?;
            let actual = answer
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| Value::String(v.clone()));
            mismatches.extend(compare(&pat, actual.as_ref(), &format!("header {name}")));
        }
        Ok(())
    })();
    if let Err(e) = result {
        record.error = Some(e);
        return (record, Vec::new());
    }
    let needs_json = expect.json.is_some()
        || !expect.paths.is_empty()
        || step.capture.iter().any(|(_, c)| matches!(c, Capture::Path(..)));
    let body: Option<Value> = if needs_json {
        match serde_json::from_str::<Value>(&answer.body) {
            Ok(v) => Some(v),
            Err(e) => {
                mismatches.push(Mismatch {
                    path: "$".into(),
                    expected: "a JSON body".into(),
                    actual: if answer.body.trim().is_empty() {
                        "an empty body".into()
                    } else {
                        format!("a body that is not JSON ({e}): {}", excerpt(&answer.body))
                    },
                });
                None
            }
        }
    } else {
        None
    };
    if let Some(body) = &body {
        let result: Result<(), String> = (|| {
            if let Some(node) = &expect.json {
                let pat = build_pat(node, env)?;
                let found = compare(&pat, Some(body), "$");
                if !found.is_empty() {
                    let view = expected_view(&pat, Some(body)).unwrap_or(Value::Null);
                    record.diff = Some((view, body.clone()));
                }
                mismatches.extend(found);
            }
            for (path, node) in &expect.paths {
                let source = &path.source;
                let compiled = path.resolve(env)?;
                let pat = build_pat(node, env)?;
                let nodes = compiled.query_located(body);
                if nodes.is_empty() {
                    let absent = matches!(&pat, Pat::Matchers(m) if m.iter().any(|m| matches!(m, Matcher::Absent)));
                    if !absent {
                        mismatches.push(Mismatch {
                            path: source.clone(),
                            expected: crate::pattern::describe(&pat),
                            actual: "nothing (the path selects no node)".into(),
                        });
                    }
                }
                for found in nodes.iter() {
                    let mut shown = "$".to_string();
                    for element in found.location().iter() {
                        shown = match element {
                            serde_json_path::PathElement::Name(name) => path_key(&shown, name),
                            serde_json_path::PathElement::Index(i) => format!("{shown}[{i}]"),
                        };
                    }
                    mismatches.extend(compare(&pat, Some(found.node()), &shown));
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            record.error = Some(e);
        }
    }
    let mut captured = Vec::new();
    for (name, capture) in &step.capture {
        match capture {
            Capture::Header(header) => match answer.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(header)) {
                Some((_, value)) => captured.push((name.clone(), Value::String(value.clone()))),
                None => mismatches.push(Mismatch {
                    path: format!("capture {name}"),
                    expected: format!("a `{header}` header"),
                    actual: "no such header".into(),
                }),
            },
            Capture::Path(path) => {
                let Some(body) = &body else { continue };
                let source = &path.source;
                let compiled = match path.resolve(env) {
                    Ok(compiled) => compiled,
                    Err(e) => {
                        record.error.get_or_insert(e);
                        continue;
                    }
                };
                let nodes = compiled.query(body).all();
                match nodes.len() {
                    0 => mismatches.push(Mismatch {
                        path: format!("capture {name}"),
                        expected: format!("`{source}` to select a value"),
                        actual: "nothing".into(),
                    }),
                    1 => captured.push((name.clone(), nodes[0].clone())),
                    _ => captured.push((name.clone(), Value::Array(nodes.into_iter().cloned().collect()))),
                }
            }
        }
    }
    record.mismatches = mismatches;
    (record, captured)
}

/// A client for running cases: never follows redirects.
pub fn client(timeout: Duration) -> Result<Client, String> {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::load_source;
    use crate::model::Loaded;
    use serde_json::json;

    fn endpoint() -> Endpoint {
        Endpoint {
            base_url: "http://h/wp-json".into(),
            namespace: "tribe/events/v1".into(),
            language_param: "wpml_language".into(),
            credentials: BTreeMap::new(),
        }
    }

    fn env() -> Env {
        let mut env = Env::new(Utc::now());
        env.set("namespace", Binding::Data(json!("tribe/events/v1")));
        env.set("language_param", Binding::Data(json!("wpml_language")));
        env.set("case_id", Binding::Data(json!("c1")));
        env
    }

    fn step(request_and_expect: &str) -> Step {
        let source = format!(
            "level: must\ncases:\n  - name: a\n    vars: {{a: 1, b: 1, c: 1, e: 1}}\n    steps:\n      - {request_and_expect}\n"
        );
        let Loaded::File(mut file) = load_source("x", "x.yaml", &source) else { panic!("{source}") };
        file.cases.remove(0).steps.remove(0)
    }

    #[test]
    fn keys_of_request_data_are_rendered_and_the_language_key_renamed() {
        let request = step(
            r#"request: {path: /x, query: {"{{language_param}}": fr, multilingual_language: de, "k{{case_id}}": 1}}"#,
        )
        .request;
        let sent = render_request(&request, &env(), &endpoint()).unwrap();
        assert_eq!(sent.url, "http://h/wp-json/tribe/events/v1/x?wpml_language=fr&wpml_language=de&kc1=1");
        let request = step(r#"request: {path: /x, form: {"{{language_param}}": fr}}"#).request;
        assert_eq!(render_request(&request, &env(), &endpoint()).unwrap().body.as_deref(), Some("wpml_language=fr"));
        let request =
            step(r#"request: {path: /x, json: {"{{language_param}}": fr, deep: {"/{{namespace}}": 1}}}"#).request;
        let body: Value =
            serde_json::from_str(&render_request(&request, &env(), &endpoint()).unwrap().body.unwrap()).unwrap();
        assert_eq!(body, json!({"wpml_language": "fr", "deep": {"/tribe/events/v1": 1}}));
        let request = step(r#"request: {path: /x, json: {multilingual_language: fr}}"#).request;
        let body = render_request(&request, &env(), &endpoint()).unwrap().body.unwrap();
        assert_eq!(body, r#"{"wpml_language":"fr"}"#);
    }

    #[test]
    fn keys_of_patterns_are_rendered() {
        let step = step(
            r#"request: {path: /x}
        expect: {json: {routes: {"/{{namespace}}/events": 1, "$$lit": 2, "$${{case_id}}": 3}}}"#,
        );
        let pat = pattern::build(step.expect.json.as_ref().unwrap(), &env()).unwrap();
        let good = json!({"routes": {"/tribe/events/v1/events": 1, "$lit": 2, "$c1": 3}});
        assert!(crate::matcher::matches(&pat, Some(&good)), "{}", pattern::describe(&pat));
        let bad = json!({"routes": {"/calendar/events/v1/events": 1, "$lit": 2, "$c1": 3}});
        assert!(!crate::matcher::matches(&pat, Some(&bad)));
    }

    #[test]
    fn the_variables_of_keys_and_paths_count_for_cleanup() {
        let step = step(
            r#"request: {path: /x, query: {"{{a}}": 1}, json: {"{{b}}": 1}}
        expect: {paths: {"$['{{c}}']": 1}}
        capture: {d: "$['{{e}}']"}"#,
        );
        let vars: Vec<String> = step_variables(&step).into_iter().collect();
        assert_eq!(vars, ["a", "b", "c", "e"]);
    }
}
