//! Running one case against one implementation, in the phases of a step: fill in and build
//! the request ([`request`]), send it and read the answer ([`send`]), compare the answer with
//! the expectations ([`assert`]), keep the captured values ([`capture`]); and, with
//! `--check-doc`, compare it with the implementation's `/doc` ([`doc`]). [`endpoint`] describes
//! the implementation under test. The cleanup always
//! runs; then, against an outside implementation, [`sweep`] deletes what the case created and
//! did not delete. It returns a [`CaseReport`] and never prints: formatting is the report modules' job.

pub mod assert;
pub mod capture;
pub mod connections;
pub mod doc;
pub mod endpoint;
pub mod liveness;
pub mod request;
pub mod send;
pub mod sweep;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{DateTime, Utc};
use reqwest::Client;
use serde_json::Value;

use crate::env::{Binding, Env};
use crate::model::{Body, Capture, Case, Step, Target};
use crate::node::{Node, NodeKind};
use crate::outcome::{CaseReport, Outcome, SentRequest, StepError, StepRecord};
use crate::template::{Expr, Template};

pub use endpoint::{Endpoint, LANGUAGE_KEY};
pub use request::render as render_request;
pub use send::client;

/// How cases run, the same for every case of a run.
#[derive(Clone, Default)]
pub struct Settings {
    /// The largest answer body read, in bytes.
    pub max_response: u64,
    /// `--keep-data`: no cleanup.
    pub keep_data: bool,
    /// `--check-doc`: the implementation's `/doc`.
    pub doc: Option<Arc<doc::DocCheck>>,
    /// Delete at the end of each case what it created and did not delete ([`sweep`]): against
    /// an outside implementation, without `--keep-data`.
    pub sweep: bool,
    /// The last request on each connection, named when the implementation drops one.
    pub connections: Arc<connections::Connections>,
    /// Against an outside implementation: whether it still answers ([`liveness`]).
    pub liveness: Option<Arc<liveness::Liveness>>,
    /// The implementation is dropped with the case (an embedded server): after a request that
    /// timed out, the cleanup would only wait on it too.
    pub disposable: bool,
    /// Creates that got no answer, searched for once more when the run ends (the
    /// implementation may still have been writing them when their case ended).
    pub late_sweep: Arc<std::sync::Mutex<Vec<sweep::Unanswered>>>,
}

/// Per-case values.
#[derive(Clone, Debug)]
pub struct CaseContext {
    pub run_id: String,
    pub case_id: String,
    /// The case's clock (`{{now}}`, `date(...)`); an embedded server's clock starts there too.
    pub now: DateTime<Utc>,
}

/// Runs `case` and reports what happened.
pub async fn run_case(
    case: &Case,
    endpoint: &Endpoint,
    client: &Client,
    ctx: &CaseContext,
    settings: &Settings,
) -> CaseReport {
    let started = Instant::now();
    let mut env = case_env(case, endpoint, ctx);
    let run = Run { case: &case.name, endpoint, client, settings, ledger: Mutex::default() };
    let (steps, mut outcome) = run.steps(case, &mut env).await;
    let stopped = settings.liveness.as_ref().and_then(|l| l.stopped());
    let timed_out = steps.last().and_then(|s| s.error.as_ref()).is_some_and(|e| matches!(e, StepError::Timeout { .. }));
    let mut cleanup = match &stopped {
        Some(reason) => skipped_steps(&case.cleanup, "cleanup", reason),
        None if timed_out && settings.disposable => {
            skipped_steps(&case.cleanup, "cleanup", "the embedded server did not answer in time; it goes with its data")
        }
        None => run.cleanup(case, &mut env).await,
    };
    if settings.sweep && stopped.is_none() {
        let ledger = run.ledger.into_inner().unwrap_or_else(|e| e.into_inner());
        let (connections, what) = (&settings.connections, &case.name);
        let sender = sweep::Sender {
            client,
            connections,
            case: what,
            case_id: &ctx.case_id,
            max_response: settings.max_response,
        };
        cleanup.extend(sweep::sweep(&ledger, endpoint, &sender).await);
        let late = ledger.unanswered_creates().map(|collection| sweep::Unanswered {
            collection,
            case_id: ctx.case_id.clone(),
            case: case.name.clone(),
        });
        settings.late_sweep.lock().unwrap_or_else(|e| e.into_inner()).extend(late);
    }
    // A case cut short by an implementation that stopped answering, which another case found
    // and reported: not run to its end, rather than one more failure of the same cause. A case
    // that failed on an answer keeps its failure.
    if let (Some(reason), Some(liveness)) = (stopped, &settings.liveness) {
        let cut_short = steps.last().and_then(|s| s.error.as_ref()).is_some_and(|e| {
            matches!(e, StepError::Connect { .. })
                || matches!(e, StepError::Transport { detail, .. } if send::is_dropped_detail(detail))
        });
        if cut_short && !liveness.found_by(&case.name) {
            outcome = Outcome::Skipped(reason);
        }
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
        server: None,
    }
}

/// A record per step of `steps`, each skipped for `reason`.
fn skipped_steps(steps: &[Step], part: &str, reason: &str) -> Vec<StepRecord> {
    (0..steps.len())
        .map(|i| StepRecord {
            label: format!("{part}[{i}]"),
            skipped: Some(reason.to_string()),
            ..StepRecord::default()
        })
        .collect()
}

/// A case's variables on one implementation before its first step: the built-ins (the
/// implementation's addresses and names, the run's and the case's IDs) and the case's `vars`.
pub fn case_env(case: &Case, endpoint: &Endpoint, ctx: &CaseContext) -> Env {
    let mut env = Env::new(ctx.now);
    // The interface shows no date format: a must case's date compares as a date and time.
    if case.level == crate::model::Level::Must {
        env.compare_dates_as_dates();
    }
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
    env
}

/// The variables a step reads (templates, and its `foreach` list).
pub fn step_variables(step: &Step) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut nodes = request_variables(&step.request, &mut out);
    let e = &step.expect;
    nodes.extend(e.status.iter());
    nodes.extend(e.json.iter());
    nodes.extend(e.assume.iter());
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

/// The variables a template reads, into `out`.
fn add_template(t: &Template, out: &mut BTreeSet<String>) {
    out.extend(t.exprs().filter_map(Expr::variable).map(String::from));
}

/// The variables of a request's templates (its target, language, query and body keys, raw
/// body, headers) into `out`; its data nodes, whose templates the caller walks.
fn request_variables<'a>(r: &'a crate::model::Request, out: &mut BTreeSet<String>) -> Vec<&'a Node> {
    let mut nodes: Vec<&Node> = Vec::new();
    match &r.target {
        Target::Path(t) | Target::Url(t) => add_template(t, out),
    }
    if let Some(lang) = &r.lang {
        add_template(lang, out);
    }
    for (key, node) in &r.query {
        add_template(&key.template, out);
        nodes.push(node);
    }
    match &r.body {
        Body::Json(n) => nodes.push(n),
        Body::Form(entries) => {
            for (key, node) in entries {
                add_template(&key.template, out);
                nodes.push(node);
            }
        }
        Body::Raw(t) => add_template(t, out),
        Body::None => {}
    }
    for (_, t) in &r.headers {
        add_template(t, out);
    }
    nodes
}

/// What every step of a case runs with.
struct Run<'a> {
    /// The case's name.
    case: &'a str,
    endpoint: &'a Endpoint,
    client: &'a Client,
    settings: &'a Settings,
    /// What the case's answers created and deleted, for the sweep.
    ledger: Mutex<sweep::Ledger>,
}

impl Run<'_> {
    /// The case's steps, until one fails: their records and the case's outcome.
    async fn steps(&self, case: &Case, env: &mut Env) -> (Vec<StepRecord>, Outcome) {
        let mut steps = Vec::new();
        for (i, step) in case.steps.iter().enumerate() {
            let label = format!("steps[{i}]");
            let records = self.step(step, &label, env).await;
            let failed = records.iter().find(|r| !r.ok()).map(|r| r.error.clone());
            let unmet = records.iter().find_map(|r| r.unmet.as_ref().map(|u| format!("{}: {u}", r.label)));
            steps.extend(records);
            if let (None, Some(unmet)) = (&failed, unmet) {
                let reason = format!(
                    "a precondition the interface does not promise does not hold here ({unmet}), so the case cannot show what it checks"
                );
                return (steps, Outcome::Skipped(reason));
            }
            if let Some(error) = failed {
                let outcome = match error {
                    Some(error) => Outcome::Error(error.to_string()),
                    None => Outcome::Failed,
                };
                return (steps, outcome);
            }
        }
        (steps, Outcome::Passed)
    }

    /// The case's cleanup steps, each one whose variables are there (`--keep-data`: none).
    async fn cleanup(&self, case: &Case, env: &mut Env) -> Vec<StepRecord> {
        if self.settings.keep_data {
            return skipped_steps(&case.cleanup, "cleanup", "--keep-data");
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
            cleanup.extend(self.step(step, &label, env).await);
        }
        cleanup
    }

    /// Runs a step: once, or once per `repeat`/`foreach` iteration until one fails.
    async fn step(&self, step: &Step, label: &str, env: &mut Env) -> Vec<StepRecord> {
        let iterations = match iterations(step, label, env) {
            Ok(iterations) => iterations,
            Err(error) => {
                return vec![StepRecord { label: label.to_string(), error: Some(error), ..StepRecord::default() }]
            }
        };
        begin_step(step, env);
        if let Some(width) = step.concurrency.filter(|n| *n > 1) {
            return self.together(step, iterations, width, env).await;
        }
        let mut records = Vec::new();
        for (label, iteration) in iterations {
            enter_iteration(step, env, iteration);
            let (record, captured) = self.once(step, label, env).await;
            keep_captures(step, env, captured);
            let ok = record.ok();
            records.push(record);
            if !ok {
                break;
            }
        }
        records
    }

    /// A step's iterations sent `width` at a time (`concurrency`), each with its own `index`
    /// and `item`; their records and captures are kept in `index` order. After a batch in which
    /// one failed, the step stops.
    async fn together(&self, step: &Step, iterations: Vec<Iteration>, width: usize, env: &mut Env) -> Vec<StepRecord> {
        let mut records = Vec::new();
        let mut iterations = iterations.into_iter().peekable();
        while iterations.peek().is_some() {
            let batch: Vec<(String, Env)> = iterations
                .by_ref()
                .take(width)
                .map(|(label, iteration)| {
                    let mut own = env.clone();
                    enter_iteration(step, &mut own, iteration);
                    (label, own)
                })
                .collect();
            let sent = batch.iter().map(|(label, own)| self.once(step, label.clone(), own));
            let mut failed = false;
            for (record, captured) in futures_util::future::join_all(sent).await {
                keep_captures(step, env, captured);
                failed |= !record.ok();
                records.push(record);
            }
            if failed {
                break;
            }
        }
        records
    }

    /// One request: build, send, check, capture.
    async fn once(&self, step: &Step, label: String, env: &Env) -> (StepRecord, Vec<(String, Value)>) {
        env.reset_budget();
        let request = match request::render(&step.request, env, self.endpoint) {
            Ok(request) => request,
            Err(error) => return (StepRecord { label, error: Some(error), ..StepRecord::default() }, Vec::new()),
        };
        let answer = match self.send(&request, &label).await {
            Ok(answer) => answer,
            Err(error) => {
                if self.settings.sweep {
                    self.ledger.lock().unwrap_or_else(|e| e.into_inner()).unanswered(&request, self.endpoint);
                }
                let request = Some(request.into());
                return (StepRecord { label, request, error: Some(error), ..StepRecord::default() }, Vec::new());
            }
        };
        if self.settings.sweep {
            self.ledger.lock().unwrap_or_else(|e| e.into_inner()).observe(&request, &answer, self.endpoint);
        }
        let mut checked = assert::check(step, env, &answer);
        let mut record = StepRecord {
            label,
            status: Some(answer.status),
            body_size: answer.size,
            error: checked.error.take(),
            diff: checked.diff.take(),
            unmet: checked.unmet.take(),
            checks_beyond_status: step.expect.json.is_some()
                || step.expect.assume.is_some()
                || !step.expect.headers.is_empty()
                || !step.expect.paths.is_empty()
                || !step.capture.is_empty()
                || self.settings.doc.is_some(),
            ..StepRecord::default()
        };
        let mut mismatches = std::mem::take(&mut checked.mismatches);
        mismatches.extend(self.doc_mismatches(&request, &answer, checked.json.as_ref()));
        let mut values = Vec::new();
        if record.error.is_none() {
            let captured = capture::capture(step, env, &answer, checked.json.as_ref());
            mismatches.extend(captured.mismatches);
            record.error = captured.error;
            values = captured.values;
        }
        record.mismatches = mismatches;
        // Records stay small: a report never shows more than a part of a large body.
        record.request = Some(request.into());
        record.body = Some(crate::show::cut_bytes(answer.text, StepRecord::MAX_BODY));
        (record, values)
    }

    /// Sends a step's request, logged under its connection; against an outside implementation,
    /// an answer says it still answers, and a refused connection checks whether it stopped.
    async fn send(&self, request: &SentRequest, label: &str) -> Result<send::Answer, StepError> {
        let what = format!("{} {label}", self.case);
        let max = self.settings.max_response;
        let result = self.settings.connections.send(self.client, request, max, &what).await;
        let Some(liveness) = &self.settings.liveness else { return result };
        match result {
            Ok(answer) => {
                liveness.answered(&what, request);
                Ok(answer)
            }
            // No connection, or one dropped under the request: has it stopped altogether?
            Err(StepError::Connect { url, detail }) => match liveness.check(self.case, &url).await {
                Some(stopped) => Err(StepError::Connect { url, detail: format!("{detail}; {stopped}") }),
                None => Err(StepError::Connect { url, detail }),
            },
            Err(StepError::Transport { url, detail }) if send::is_dropped_detail(&detail) => {
                match liveness.check(self.case, &url).await {
                    Some(stopped) => Err(StepError::Transport { url, detail: format!("{detail}; {stopped}") }),
                    None => Err(StepError::Transport { url, detail }),
                }
            }
            Err(error) => Err(error),
        }
    }

    /// With `--check-doc`: the answer against the implementation's `/doc`.
    fn doc_mismatches(
        &self,
        request: &SentRequest,
        answer: &send::Answer,
        json: Option<&Value>,
    ) -> Vec<crate::matcher::Mismatch> {
        let Some(doc) = &self.settings.doc else { return Vec::new() };
        let parsed;
        let json = match json {
            Some(json) => Some(json),
            None => {
                parsed = send::parse_json(&answer.text).ok();
                parsed.as_ref()
            }
        };
        match json {
            Some(json) => doc.check(self.endpoint, request, answer.status, json),
            None => Vec::new(),
        }
    }
}

/// One run of a step: its label, and its `index` and `item` when it loops.
pub type Iteration = (String, Option<(usize, Value)>);

fn looping(step: &Step) -> bool {
    step.repeat.is_some() || step.foreach.is_some()
}

/// Before the first iteration of a step: the captures of a step that loops start as empty lists.
pub fn begin_step(step: &Step, env: &mut Env) {
    if looping(step) {
        for (name, _) in &step.capture {
            env.set(name, Binding::Data(Value::Array(Vec::new())));
        }
    }
}

/// Before one iteration: `index` (and `item` for `foreach`) are set.
pub fn enter_iteration(step: &Step, env: &mut Env, iteration: Option<(usize, Value)>) {
    if let Some((index, item)) = iteration {
        env.set("index", Binding::Data(Value::from(index)));
        if step.foreach.is_some() {
            env.set("item", Binding::Data(item));
        }
    }
}

/// After one iteration: its captured values are kept (appended to their lists when the step loops).
pub fn keep_captures(step: &Step, env: &mut Env, captured: Vec<(String, Value)>) {
    for (name, value) in captured {
        if looping(step) {
            if let Some(Binding::Data(Value::Array(list))) = env.get(&name) {
                let mut list = list.clone();
                list.push(value);
                env.set(&name, Binding::Data(Value::Array(list)));
            }
        } else {
            env.set(&name, Binding::Data(value));
        }
    }
}

/// The iterations of a step: one per `repeat` or `foreach` element, or one plain run.
pub fn iterations(step: &Step, label: &str, env: &Env) -> Result<Vec<Iteration>, StepError> {
    if let Some(n) = step.repeat {
        return Ok((0..n as usize).map(|i| (format!("{label} index {i}"), Some((i, Value::Null)))).collect());
    }
    let Some(list) = &step.foreach else {
        return Ok(vec![(label.to_string(), None)]);
    };
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
            return Err(StepError::Template(format!("`foreach: {list}` needs a list, and `{list}` is {what}")));
        }
    };
    Ok(items.into_iter().enumerate().map(|(i, item)| (format!("{label} index {i}"), Some((i, item)))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::load_source;
    use crate::model::Loaded;
    use crate::model::Step;
    use crate::pattern;
    use serde_json::json;

    fn endpoint() -> Endpoint {
        Endpoint {
            base_url: "http://h/wp-json".into(),
            namespace: "tribe/events/v1".into(),
            language_param: "wpml_language".into(),
            credentials: Default::default(),
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

    /// A case against a server that accepts connections and never answers: every request
    /// times out. Its cleanup is skipped when the server goes with the case (embedded), and
    /// tried otherwise (an outside implementation keeps what the case made).
    #[test]
    fn after_a_timeout_the_cleanup_is_skipped_only_on_a_disposable_server() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}/wp-json", listener.local_addr().unwrap());
        let held = std::thread::spawn(move || listener.incoming().take(4).map(|c| c.unwrap()).collect::<Vec<_>>());
        let source = "level: must\ncases:\n  - name: a\n    steps:\n      - request: {method: POST, path: /events}\n        capture: {id: $.id}\n    cleanup:\n      - request: {method: DELETE, path: /events/1}\n";
        let Loaded::File(mut file) = load_source("x", "x.yaml", source) else { panic!("{source}") };
        let case = file.cases.remove(0);
        let endpoint = Endpoint { base_url, ..endpoint() };
        let client = send::client(std::time::Duration::from_millis(200), false).unwrap();
        let ctx = CaseContext { run_id: "r".into(), case_id: "c1".into(), now: Utc::now() };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let cleanup_of = |disposable: bool| {
            let settings = Settings {
                max_response: 1 << 20,
                keep_data: false,
                doc: None,
                sweep: false,
                connections: Default::default(),
                liveness: None,
                disposable,
                late_sweep: Default::default(),
            };
            let report = runtime.block_on(run_case(&case, &endpoint, &client, &ctx, &settings));
            assert!(
                matches!(report.outcome, Outcome::Error(ref e) if e.starts_with("timed out")),
                "{:?}",
                report.outcome
            );
            report.cleanup.into_iter().next().unwrap()
        };
        let skipped = cleanup_of(true);
        assert_eq!(
            skipped.skipped.as_deref(),
            Some("the embedded server did not answer in time; it goes with its data")
        );
        let tried = cleanup_of(false);
        assert!(tried.skipped.is_none(), "{tried:?}");
        assert!(matches!(tried.error, Some(StepError::Timeout { .. })), "{tried:?}");
        drop(held);
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
