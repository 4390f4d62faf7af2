//! Stubbed answers: rules from `--stub` files and the admin API that answer chosen requests of
//! the interface with a given status, headers and body, or with the server's own answer changed
//! by a JSON merge patch, once, N times or always, so that a client can be tested on one branch
//! of its code ("the third page of /events answers 500", "this event has no venue").
//!
//! A stub matches a request by method, path pattern (inside the namespace, as fault rules
//! write it), query parameters, a subset of the JSON body and the user. Of the stubs that
//! match, the one of highest priority answers, and of equal priorities the one added last.
//! Stubs apply to the interface's requests only, after authentication, never to the admin API
//! or the site's pages.
//!
//! - `spec`: a stub as written, checked.
//! - `json`: the body subset and the merge patch.

pub mod json;
pub mod spec;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{json, Map, Value};

pub use spec::{Answer, Matcher, StubSpec};

use crate::fixtures::{Fixture, Problem};
use crate::validate::Params;

/// At most this many stubs at once (used-up ones count until removed).
pub const MAX_STUBS: usize = 100;
/// The most JSON values all stubs together may hold: each is kept parsed about three times
/// (its definition, its body matcher, its answer), some 100 bytes a value at most, so the
/// stubs take some 30 MB of memory at most.
pub const MAX_ALL_VALUES: usize = 100_000;
/// The most bytes of JSON text all stubs' definitions together may hold: what
/// `GET /__admin/stubs` answers is about this large at most.
pub const MAX_ALL_BYTES: usize = 4 * 1024 * 1024;

/// An active stub.
pub struct Stub {
    pub id: u64,
    pub spec: StubSpec,
    /// How many times it has answered.
    answered: AtomicU64,
}

impl Stub {
    /// The stub's mark in the journal and the log: `stub 3` or `stub 3 (its name)`.
    pub fn mark(&self) -> String {
        match &self.spec.name {
            Some(name) => format!("stub {} ({name})", self.id),
            None => format!("stub {}", self.id),
        }
    }

    fn left(&self) -> Option<u64> {
        self.spec.times.map(|times| times.saturating_sub(self.answered.load(Ordering::Relaxed)))
    }

    /// The stub as the admin API lists it: its ID, its definition, how many times it answered
    /// and how many are left (`null`: always).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("id".into(), json!(self.id));
        if let Value::Object(source) = &self.spec.source {
            out.extend(source.clone());
        }
        out.insert("priority".into(), json!(self.spec.priority));
        out.insert("answered".into(), json!(self.answered.load(Ordering::Relaxed)));
        out.insert("left".into(), json!(self.left()));
        out.insert("used_up".into(), json!(self.left() == Some(0)));
        Value::Object(out)
    }
}

/// What a stub is matched against.
pub struct Incoming<'a> {
    /// The method the request is treated as (`X-HTTP-Method-Override` applied).
    pub method: &'a str,
    /// The path inside the namespace (`/events/12`).
    pub path: &'a str,
    pub query: &'a Params,
    pub body: &'a Params,
    /// The authenticated user's login; `None`: anonymous.
    pub user: Option<&'a str>,
}

impl Matcher {
    pub fn matches(&self, request: &Incoming) -> bool {
        self.method.as_deref().is_none_or(|method| method.eq_ignore_ascii_case(request.method))
            && self.path.as_ref().is_none_or(|(_, pattern)| pattern.is_match(request.path))
            && self.query.iter().all(|(key, wanted)| match (wanted, request.query.get(key)) {
                (None, found) => found.is_none(),
                (Some(wanted), Some(found)) => json::contains(found, wanted),
                (Some(_), None) => false,
            })
            && self.body.as_ref().and_then(Value::as_object).is_none_or(|wanted| {
                wanted
                    .iter()
                    .all(|(key, wanted)| request.body.get(key).is_some_and(|found| json::contains(found, wanted)))
            })
            && self.user.as_ref().is_none_or(|user| user.as_deref() == request.user)
    }
}

/// The active stubs.
pub struct Stubs {
    stubs: Mutex<Vec<Arc<Stub>>>,
    /// How many stubs there are, read without the lock: most servers have none.
    count: AtomicUsize,
    next_id: AtomicU64,
}

impl Default for Stubs {
    fn default() -> Self {
        Stubs::new()
    }
}

impl Stubs {
    pub fn new() -> Stubs {
        Stubs { stubs: Mutex::new(Vec::new()), count: AtomicUsize::new(0), next_id: AtomicU64::new(1) }
    }

    /// Adds checked stubs, all or none; returns them.
    pub fn add(&self, specs: Vec<StubSpec>) -> Result<Vec<Arc<Stub>>, String> {
        let mut stubs = self.stubs.lock();
        if stubs.len() + specs.len() > MAX_STUBS {
            return Err(format!("at most {MAX_STUBS} stubs at once ({} now): remove some first", stubs.len()));
        }
        let kept = stubs.iter().map(|stub| stub.spec.weight);
        total_weight(kept.chain(specs.iter().map(|spec| spec.weight)))?;
        let added: Vec<Arc<Stub>> = specs
            .into_iter()
            .map(|spec| {
                let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                Arc::new(Stub { id, spec, answered: AtomicU64::new(0) })
            })
            .collect();
        stubs.extend(added.iter().cloned());
        self.count.store(stubs.len(), Ordering::Release);
        Ok(added)
    }

    pub fn remove(&self, id: u64) -> bool {
        let mut stubs = self.stubs.lock();
        let before = stubs.len();
        stubs.retain(|stub| stub.id != id);
        self.count.store(stubs.len(), Ordering::Release);
        stubs.len() != before
    }

    /// Removes every stub; returns how many there were.
    pub fn clear(&self) -> usize {
        let mut stubs = self.stubs.lock();
        let count = stubs.len();
        stubs.clear();
        self.count.store(0, Ordering::Release);
        count
    }

    pub fn list(&self) -> Vec<Arc<Stub>> {
        self.stubs.lock().clone()
    }

    /// The stub that answers a request, counted as having answered: of those that match and
    /// are not used up, the highest priority, then the last added.
    pub fn pick(&self, request: &Incoming) -> Option<Arc<Stub>> {
        if self.count.load(Ordering::Acquire) == 0 {
            return None;
        }
        let stubs = self.stubs.lock();
        let stub = stubs
            .iter()
            .filter(|stub| stub.left() != Some(0) && stub.spec.matcher.matches(request))
            .max_by_key(|stub| (stub.spec.priority, stub.id))?;
        stub.answered.fetch_add(1, Ordering::Relaxed);
        Some(stub.clone())
    }
}

/// Whether stubs of these weights fit together within `MAX_ALL_VALUES` and `MAX_ALL_BYTES`.
fn total_weight(weights: impl Iterator<Item = spec::Weight>) -> Result<(), String> {
    let (values, bytes) =
        weights.fold((0usize, 0usize), |(v, b), w| (v.saturating_add(w.values), b.saturating_add(w.bytes)));
    if values > MAX_ALL_VALUES || bytes > MAX_ALL_BYTES {
        return Err(format!(
            "all stubs together hold at most {MAX_ALL_VALUES} JSON values and {} MiB of JSON ({values} values and {bytes} bytes with these): remove some first",
            MAX_ALL_BYTES / (1024 * 1024)
        ));
    }
    Ok(())
}

/// Problems of `--stub` files, as `FILE: PATH: MESSAGE` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StubErrors {
    pub lines: Vec<String>,
}

impl std::fmt::Display for StubErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the stub files have {} problem(s):", self.lines.len())?;
        for line in &self.lines {
            write!(f, "\n{line}")?;
        }
        Ok(())
    }
}

impl std::error::Error for StubErrors {}

/// The most JSON values one `--stub` file may hold (twice what all stubs together may hold),
/// counted before it is parsed, so that a huge file is refused at once.
pub const MAX_FILE_VALUES: usize = 2 * MAX_ALL_VALUES;

/// Reads `--stub` files (YAML for `.yaml`/`.yml`, else JSON; read like fixtures): each holds
/// one stub or a list of them. Every problem of every file is reported.
pub fn read_files(paths: &[PathBuf], users: &[&str]) -> Result<Vec<StubSpec>, StubErrors> {
    let mut specs = Vec::new();
    let mut lines = Vec::new();
    for path in paths {
        match Fixture::read(path, MAX_FILE_VALUES) {
            Err(errors) => lines.extend(errors),
            Ok(file) => match parse_document(&file.doc, users) {
                Ok(found) => specs.extend(found),
                Err(problems) => lines.extend(file.lines(&problems)),
            },
        }
    }
    if specs.len() > MAX_STUBS {
        lines.push(format!("{} stubs in all the files: at most {MAX_STUBS}", specs.len()));
    }
    if let Err(message) = total_weight(specs.iter().map(|spec| spec.weight)) {
        lines.push(format!("the stubs of all the files: {message}"));
    }
    if lines.is_empty() {
        Ok(specs)
    } else {
        Err(StubErrors { lines })
    }
}

/// The stubs of a file's document (or of an admin request): one stub, or a list of them.
pub fn parse_document(doc: &Value, users: &[&str]) -> Result<Vec<StubSpec>, Vec<Problem>> {
    let Value::Array(items) = doc else {
        return spec::parse(doc, "", users).map(|spec| vec![spec]);
    };
    if items.len() > MAX_STUBS {
        let message = format!("{} stubs: a list holds at most {MAX_STUBS}", items.len());
        return Err(vec![Problem::new("", message)]);
    }
    let mut specs = Vec::new();
    let mut problems = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match spec::parse(item, &format!("[{index}]."), users) {
            Ok(spec) => specs.push(spec),
            Err(found) => problems.extend(found),
        }
    }
    if problems.is_empty() {
        Ok(specs)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_list_too_long_is_one_problem() {
        let many = Value::Array(vec![json!(3); 1_000_000]);
        let problems = parse_document(&many, &[]).expect_err("refused");
        assert_eq!(problems.len(), 1, "not one problem per item");
        let fits = Value::Array(vec![json!({"response": {}}); MAX_STUBS]);
        assert_eq!(parse_document(&fits, &[]).map(|specs| specs.len()).ok(), Some(MAX_STUBS));
    }

    #[test]
    fn times_and_priorities_as_written() {
        let parse = |value: Value| spec::parse(&value, "", &["editor"]);
        let once = parse(json!({"response": {}, "times": "once"})).expect("once");
        assert_eq!((once.times, once.priority), (Some(1), 0));
        assert_eq!(parse(json!({"response": {}, "times": "always"})).expect("always").times, None);
        assert_eq!(
            parse(json!({"response": {}, "times": 7, "priority": -3})).ok().map(|s| (s.times, s.priority)),
            Some((Some(7), -3))
        );
        for bad in [
            json!({"response": {}, "times": "twice"}),
            json!({"response": {}, "priority": 1.5}),
            json!({"response": {}, "priority": 2_000_000}),
        ] {
            assert!(parse(bad.clone()).is_err(), "{bad}");
        }
        assert!(parse(json!({"request": {"user": "editor"}, "response": {}})).is_ok());
    }
}
