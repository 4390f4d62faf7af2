//! `--record DIR`: the exchanges through the proxy as a case file the conformance runner replays
//! against any implementation (`conformance --cases DIR --base-url …`).
//!
//! One file per run, named by the proxy (`proxy-<start time>-<pid>.yaml`, never from request
//! text), made at the first exchange and never overwritten; one case, one step per exchange in
//! the order they finished. Each step is one line of JSON, which YAML 1.2 reads as it is, so no
//! text of a request can break the file; braces in recorded strings are written `{{lb}}` and
//! `{{rb}}`, so none is taken for a template. A step expects the class of the site's answer
//! (`2xx`, `4xx`) and nothing more: all a must step may assert. The ID a create's success
//! answers is captured (`id_N`) and written as `{{id_N}}` where later requests use it as an ID
//! (an item route's `<id>` segment, the value of an ID field such as `venue` or `include`), so
//! the case replays on a site that gives other IDs. Credentials never reach the file: a request
//! whose Basic credentials are those of a `--user` of the proxy is recorded with that user's
//! role (`auth: editor`), which the runner's `--auth` fills in; other credentials leave the step
//! without credentials and without an expectation, with a comment saying so.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use parking_lot::Mutex;
use serde_json::{json, Map, Value};

use crate::validate::Params;

/// The recording of one run.
pub struct Recorder {
    dir: PathBuf,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    file: Option<File>,
    steps: usize,
    /// IDs created so far and the variable each was captured in (newest last).
    ids: Vec<(u64, String)>,
    /// Writing failed once: the recording stopped (said once in the log).
    failed: bool,
}

/// Whose credentials a request carried, as the recording can write it.
pub enum Credentials<'a> {
    None,
    /// Those of a `--user` of the proxy, who has this role.
    Role(&'a str),
    /// Others: the step is written without them.
    Unknown,
}

/// One exchange, as the recording needs it.
pub struct Exchange<'a> {
    pub method: &'a str,
    /// `Ok(path)`: relative to the namespace, with the language of the address; `Err(url)`:
    /// outside the namespace, relative to the site.
    pub target: Result<(String, Option<&'static str>), String>,
    pub query: &'a Params,
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    pub credentials: Credentials<'a>,
    pub status: u16,
    /// The answer's `id`, for a create the site accepted.
    pub created: Option<u64>,
}

impl Recorder {
    /// A recording into `dir`, which must be a folder that exists.
    pub fn new(dir: &Path) -> Result<Recorder, String> {
        if !dir.is_dir() {
            return Err(format!("--record: {} is not a folder", dir.display()));
        }
        Ok(Recorder { dir: dir.to_path_buf(), inner: Mutex::new(Inner::default()) })
    }

    /// Adds one exchange as a step (the file is made at the first); past `MAX_STEPS`, the
    /// recording stops, saying so in the file and the log.
    pub fn record(&self, exchange: Exchange) {
        let mut inner = self.inner.lock();
        if inner.failed {
            return;
        }
        if inner.steps >= MAX_STEPS {
            inner.failed = true;
            let end = format!("      # the recording stopped after {MAX_STEPS} exchanges\n");
            let _ = self.write(&mut inner, &end);
            tracing::warn!("--record: stopped after {MAX_STEPS} exchanges; restart the proxy for a new file");
            return;
        }
        let lines = step_lines(&mut inner, exchange);
        if let Err(error) = self.write(&mut inner, &lines) {
            inner.failed = true;
            tracing::warn!("--record: cannot write the case file in {}: {error}", self.dir.display());
        }
    }

    fn write(&self, inner: &mut Inner, lines: &str) -> std::io::Result<()> {
        if inner.file.is_none() {
            let name = format!("proxy-{}-{}.yaml", chrono::Utc::now().format("%Y%m%dT%H%M%S"), std::process::id());
            let mut file = File::options().write(true).create_new(true).open(self.dir.join(&name))?;
            file.write_all(HEADER.as_bytes())?;
            tracing::info!("--record: the exchanges go to {}", self.dir.join(name).display());
            inner.file = Some(file);
        }
        let file = inner.file.as_mut().expect("made above");
        file.write_all(lines.as_bytes())?;
        file.flush()
    }
}

/// The most exchanges one file records.
pub const MAX_STEPS: usize = 10_000;

const HEADER: &str = "\
# Exchanges recorded by reference-server --proxy-to, one step each, in the order they finished.
# Replay: conformance --cases DIR --base-url URL --auth ROLE=USER:PASSWORD ...
level: must
spec: [\"4\"]
vars: {lb: \"{\", rb: \"}\"}
cases:
  - name: exchanges recorded through the checking proxy
    steps:
";

/// The step's line (and a comment line before it when needed).
fn step_lines(inner: &mut Inner, exchange: Exchange) -> String {
    inner.steps += 1;
    let mut request = Map::new();
    request.insert("method".into(), json!(exchange.method));
    match &exchange.target {
        Ok((path, lang)) => {
            request.insert("path".into(), json!(with_ids(&inner.ids, path)));
            if let Some(lang) = lang {
                request.insert("lang".into(), json!(lang));
            }
        }
        Err(url) => {
            request.insert("url".into(), json!(with_ids(&inner.ids, url)));
        }
    }
    if !exchange.query.is_empty() {
        let query: Map<String, Value> = exchange.query.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        request.insert("query".into(), data(&inner.ids, Value::Object(query)));
    }
    add_body(&mut request, &inner.ids, exchange.content_type, exchange.body);
    let mut step = Map::new();
    let mut comment = String::new();
    match exchange.credentials {
        Credentials::Role(role) => {
            request.insert("auth".into(), json!(role));
        }
        Credentials::Unknown => {
            comment = format!("      # step {}: sent with credentials of no --user of the proxy; recorded without them, and without an expectation\n", inner.steps);
        }
        Credentials::None => {}
    }
    step.insert("request".into(), Value::Object(request));
    let class = exchange.status / 100;
    if comment.is_empty() && matches!(class, 2 | 4) {
        step.insert("expect".into(), json!({"status": format!("{class}xx")}));
    }
    if let Some(id) = exchange.created.filter(|_| class == 2) {
        let name = format!("id_{}", inner.steps);
        step.insert("capture".into(), json!({ name.clone(): "$.id" }));
        inner.ids.push((id, name));
    }
    format!("{comment}      - {}\n", Value::Object(step))
}

/// The body as the case format writes it: `json`, `form`, or `body` with its type.
fn add_body(request: &mut Map<String, Value>, ids: &[(u64, String)], content_type: Option<&str>, body: &[u8]) {
    if body.is_empty() {
        return;
    }
    let lower = content_type.unwrap_or("").to_ascii_lowercase();
    if lower.starts_with("application/json") {
        if let Ok(value) = serde_json::from_slice::<Value>(body) {
            request.insert("json".into(), data(ids, value));
            return;
        }
    }
    if lower.starts_with("application/x-www-form-urlencoded") {
        let form = crate::http::parse_form(&String::from_utf8_lossy(body));
        let form: Map<String, Value> = form.into_iter().collect();
        request.insert("form".into(), data(ids, Value::Object(form)));
        return;
    }
    let text = String::from_utf8_lossy(body);
    request.insert("body".into(), json!(escaped(&text)));
    if let Some(content_type) = content_type {
        request.insert("headers".into(), json!({"Content-Type": escaped(content_type)}));
    }
}

/// The fields (of a query or a body, at any depth) whose values are IDs of items: those of the
/// interface's arguments that name items (`venue`, `include`, `post_parent`…) and `id` (of a
/// linked item, `{"venue": {"id": 5}}`). Only their values, and what lists and objects under
/// them hold, become variables: a page size, a zip or a phone that equals an ID does not.
const ID_FIELDS: &[&str] =
    &["id", "venue", "organizer", "categories", "tags", "include", "exclude", "post_parent", "parent", "post", "event"];

/// Request data with created IDs as their variables and braces escaped, keys included.
fn data(ids: &[(u64, String)], value: Value) -> Value {
    data_in(ids, value, false)
}

/// `data`, where `as_id` says whether the value is under an ID field.
fn data_in(ids: &[(u64, String)], value: Value, as_id: bool) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let id_field = ID_FIELDS.contains(&k.split('[').next().unwrap_or("").to_ascii_lowercase().as_str());
                    (escaped(&k), data_in(ids, v, id_field))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(|item| data_in(ids, item, as_id)).collect()),
        Value::Number(number) if !as_id => Value::Number(number),
        Value::String(text) if !as_id => json!(escaped(&text)),
        Value::Number(number) => match number.as_u64().and_then(|n| variable(ids, n)) {
            Some(name) => json!(format!("{{{{{name}}}}}")),
            None => Value::Number(number),
        },
        Value::String(text) => {
            match text.parse::<u64>().ok().filter(|_| !text.starts_with('0')).and_then(|n| variable(ids, n)) {
                Some(name) => json!(format!("{{{{{name}|string}}}}")),
                None => json!(escaped(&text)),
            }
        }
        other => other,
    }
}

/// A path with each segment that is a created ID written as its variable: the `<id>` segments
/// of the interface's item routes (`/events/42`), not a number elsewhere (`/events/by-slug/42`).
fn with_ids(ids: &[(u64, String)], path: &str) -> String {
    let mut before = "";
    let segments: Vec<String> = path
        .split('/')
        .map(|segment| {
            let item = id_follows(std::mem::replace(&mut before, segment));
            let id = segment.parse::<u64>().ok().filter(|_| item && !segment.starts_with('0'));
            match id.and_then(|n| variable(ids, n)) {
                Some(name) => format!("{{{{{name}}}}}"),
                None => escaped(segment),
            }
        })
        .collect();
    segments.join("/")
}

/// Whether an item route of the interface has an `<id>` segment right after `segment`.
fn id_follows(segment: &str) -> bool {
    !segment.is_empty()
        && crate::interface::ROUTES.iter().any(|route| {
            let parts: Vec<&str> = route.path.split('/').collect();
            parts.windows(2).any(|pair| pair[1] == "<id>" && pair[0].eq_ignore_ascii_case(segment))
        })
}

fn variable(ids: &[(u64, String)], id: u64) -> Option<&str> {
    ids.iter().rev().find(|(known, _)| *known == id).map(|(_, name)| name.as_str())
}

/// A recorded text with its braces written as the `lb` and `rb` variables (a template has no
/// other way to write a literal `{{`).
fn escaped(text: &str) -> String {
    if !text.contains(['{', '}']) {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c {
            '{' => "{{lb}}".to_string(),
            '}' => "{{rb}}".to_string(),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_stops_after_its_bound() {
        let dir = std::env::temp_dir().join(format!("reference-server-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let recorder = Recorder::new(&dir).unwrap();
        let query = Params::new();
        for _ in 0..MAX_STEPS + 5 {
            recorder.record(Exchange {
                method: "GET",
                target: Ok(("/events".to_string(), None)),
                query: &query,
                content_type: None,
                body: b"",
                credentials: Credentials::None,
                status: 200,
                created: None,
            });
        }
        let files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        let text = std::fs::read_to_string(&files[0]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(text.lines().filter(|line| line.starts_with("      - ")).count(), MAX_STEPS);
        assert!(text.ends_with(&format!("# the recording stopped after {MAX_STEPS} exchanges\n")));
    }

    #[test]
    fn r7_only_values_used_as_ids_become_variables() {
        let ids = vec![(7, "id_1".to_string()), (8, "id_2".to_string()), (10, "id_3".to_string())];
        assert_eq!(data(&ids, json!({"per_page": "10", "page": 8})), json!({"per_page": "10", "page": 8}));
        assert_eq!(
            data(&ids, json!({"venue": "Hall", "zip": "7", "phone": "8", "title": 10})),
            json!({"venue": "Hall", "zip": "7", "phone": "8", "title": 10})
        );
        assert_eq!(
            data(
                &ids,
                json!({"venue": {"venue": "Hall", "zip": "7"}, "organizer": [{"id": 8}, 10], "categories": [7]})
            ),
            json!({"venue": {"venue": "Hall", "zip": "7"}, "organizer": [{"id": "{{id_2}}"}, "{{id_3}}"], "categories": ["{{id_1}}"]})
        );
        assert_eq!(data(&ids, json!({"venue": {"id": "7"}})), json!({"venue": {"id": "{{id_1|string}}"}}));
        assert_eq!(with_ids(&ids, "/events/7"), "/events/{{id_1}}");
        assert_eq!(with_ids(&ids, "/venues/8"), "/venues/{{id_2}}");
        assert_eq!(with_ids(&ids, "/events/by-slug/7"), "/events/by-slug/7");
        assert_eq!(with_ids(&ids, "/7"), "/7");
    }

    #[test]
    fn ids_become_variables_and_braces_are_escaped() {
        let ids = vec![(42, "id_1".to_string())];
        assert_eq!(with_ids(&ids, "/events/42"), "/events/{{id_1}}");
        assert_eq!(with_ids(&ids, "/events/420"), "/events/420");
        assert_eq!(
            data(&ids, json!({"venue": 42, "include": ["42", "042"]})),
            json!({"venue": "{{id_1}}", "include": ["{{id_1|string}}", "042"]})
        );
        assert_eq!(escaped("a {{b}}"), "a {{lb}}{{lb}}b{{rb}}{{rb}}");
        assert_eq!(
            data(&ids, json!({"include": "42", "x": [{"post_parent": 42}]})),
            json!({"include": "{{id_1|string}}", "x": [{"post_parent": "{{id_1}}"}]})
        );
        assert_eq!(data(&[], json!({"{{x}}": "y"})), json!({"{{lb}}{{lb}}x{{rb}}{{rb}}": "y"}));
    }
}
