//! What the server offers client developers around the interface: the request journal, fault
//! rules, stubbed answers, durable state, fixtures and the checking proxy, and the steps of the
//! server that use them (reading `--fixtures` and filling the store at the start; a fault's
//! answer, a stub's, the proxy's, the wait for durability, the journal entry).

use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, SecondsFormat, Utc};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::http::{HeaderMap, HeaderName, HeaderValue, Method as HttpMethod, Request, Response, Uri};
use serde_json::Value;

use crate::app::{App, Ctx};
use crate::body::{BodyBudget, ReadBody};
use crate::config::{Config, UserSpec};
use crate::error::ApiError;
use crate::faults::{Faults, Plan, ServeBody, SlowBody, Stop};
use crate::fixtures::{Fixture, FixtureErrors, Problem};
use crate::http::{self, ApiRequest, Finish, Refusal, Reply, CORS_HEADERS, CORS_METHODS};
use crate::interface::ErrorKind;
use crate::journal::bodies::{self, Bodies, Kept};
use crate::journal::hints::{self, Prefix};
use crate::journal::{Entry, Journal};
use crate::state::{Opening, State};
use crate::store::Data;
use crate::stubs::{Answer, Stubs};
use crate::validate::Params;

/// The client developer's tools of one server.
pub struct DevTools {
    pub journal: Journal,
    pub faults: Faults,
    /// Stubbed answers (`--stub` and the admin API).
    pub stubs: Stubs,
    pub state: Option<State>,
    /// `--admin`: the admin API and the journal page are served.
    pub admin: bool,
    /// The `--fixtures` file, read at start, which the admin API's reset returns to.
    pub fixture: Option<Fixture>,
}

impl DevTools {
    pub fn new(config: &Config, state: Option<State>) -> Result<DevTools, String> {
        Ok(DevTools {
            journal: Journal::new(config.journal_size.min(100_000)),
            faults: Faults::new(config.fault_seed, &config.faults)?,
            stubs: Stubs::new(),
            state,
            admin: config.admin,
            fixture: None,
        })
    }
}

/// The answer to a request a fault stopped: hyper closes the connection without an answer.
#[derive(Debug)]
pub struct Dropped;

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by a fault rule")
    }
}

impl std::error::Error for Dropped {}

/// What the pipeline learnt of a request that the journal shows.
#[derive(Default)]
pub struct Note {
    /// The user the credentials named (accepted or not).
    pub user: Option<String>,
    /// The stub that answered (its mark).
    pub stub: Option<String>,
    /// The request's body as the journal keeps it (with `--admin` only).
    pub request_body: Option<Kept>,
}

/// The answer of a fault that stops a request: an error envelope, or a dropped connection.
pub fn stop_answer(stop: Stop, how: &Finish) -> Result<Response<Full<Bytes>>, Dropped> {
    match stop {
        Stop::Drop => Err(Dropped),
        Stop::Error(error, retry_after) => {
            let mut reply = Reply::from(error);
            if let Some(seconds) = retry_after {
                reply = reply.header("retry-after", seconds.to_string());
            }
            Ok(http::finish(reply, how))
        }
    }
}

/// The route's own reply to a request, before it is finished (the pipeline's `route_reply`: a
/// stub's merge patches change it). Its arguments: the request's view, the request, whether it
/// is a preflight's `OPTIONS`, and how its answer is finished.
pub type RouteReply = fn(&Ctx, &ApiRequest, bool, &mut Finish) -> Reply;

/// The answer of the stub that matches this request (the pipeline asks for none for a
/// preflight's `OPTIONS`), noted for the journal; None when no stub matches (the route answers).
pub fn stub_answer(
    tools: &DevTools,
    ctx: &Ctx,
    request: &ApiRequest,
    path: &str,
    finish: &mut Finish,
    note: &mut Note,
    route_reply: RouteReply,
) -> Option<Response<Full<Bytes>>> {
    // Matched on the decoded path, as routing reads it (`caf%C3%A9` is `café`).
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let incoming = crate::stubs::Incoming {
        method: request.method.name(),
        path: &decoded,
        query: &request.query,
        body: &request.body,
        user: ctx.user.map(|user| user.name.as_str()),
    };
    let stub = tools.stubs.pick(&incoming)?;
    note.stub = Some(stub.mark());
    Some(stubbed(ctx, request, &stub.spec.answer, finish, route_reply))
}

/// A stub's answer, finished as every answer is (CORS, links, `_fields`, `_envelope`): its
/// own, or the route's with its merge patches applied.
fn stubbed(
    ctx: &Ctx,
    request: &ApiRequest,
    answer: &Answer,
    finish: &mut Finish,
    route_reply: RouteReply,
) -> Response<Full<Bytes>> {
    match answer {
        Answer::Fixed { status, headers, body } => {
            let reply =
                Reply { status: *status, body: http::Body::Value(body.clone()), headers: Vec::new(), refusal: None };
            let mut response = http::finish(reply, finish);
            for (name, value) in headers {
                if let (Ok(name), Ok(value)) = (name.parse::<HeaderName>(), HeaderValue::from_str(value)) {
                    response.headers_mut().insert(name, value);
                }
            }
            response
        }
        Answer::Merge { merge, each } => {
            let mut reply = route_reply(ctx, request, false, finish);
            let mut value = std::mem::replace(&mut reply.body, http::Body::Value(Value::Null)).into_value();
            if let Some(patch) = merge {
                crate::stubs::json::merge_patch(&mut value, patch);
            }
            if let Some(patch) = each {
                crate::stubs::json::merge_each(&mut value, patch);
            }
            reply.body = http::Body::Value(value);
            http::finish(reply, finish)
        }
    }
}

/// The error of a write that reached memory but not the disk, and of writes after that.
const STATE_WRITE_FAILED: ErrorKind = ErrorKind {
    code: "state_write_failed",
    status: 500,
    message: "The change could not be saved.",
    when: "the state file could not be written",
};
const STATE_READ_ONLY: ErrorKind = ErrorKind {
    code: "state_read_only",
    status: 503,
    message: "The site cannot save changes at the moment.",
    when: "the state file failed earlier",
};

/// A warning in the log when the admin API listens where others may reach it.
pub fn warn_if_exposed(tools: &DevTools, addr: std::net::SocketAddr) {
    if tools.admin && !addr.ip().is_loopback() {
        tracing::warn!(
            "--admin on {addr}, which is not a loopback address: anyone who reaches it can reset the calendar"
        );
    }
}

/// Refuses a write up front once the state file has failed (the server is read-only then).
pub fn refuse_if_read_only(tools: &DevTools, method: &str) -> Option<ApiError> {
    let failure = tools.state.as_ref()?.failure()?;
    let reading = matches!(method, "GET" | "HEAD" | "OPTIONS");
    (!reading).then(|| ApiError::of(&STATE_READ_ONLY).because(format!("the state file failed: {failure}")))
}

/// Whether the state file has failed (the server is read-only until it restarts).
pub fn state_failed(tools: &DevTools) -> bool {
    tools.state.as_ref().is_some_and(|state| state.failure().is_some())
}

/// Waits until everything the answer could show is durable; an error answer if it cannot be.
pub async fn settle(tools: &DevTools, how: &Finish<'_>) -> Option<Response<Full<Bytes>>> {
    let state = tools.state.as_ref()?;
    let failure = state.settled().await.err()?;
    let error = ApiError::of(&STATE_WRITE_FAILED).because(format!("the state file failed: {failure}"));
    Some(http::finish(Reply::from(error), how))
}

/// Sends the body of `response` a few bytes at a time.
pub async fn slow(response: Response<Full<Bytes>>, chunk: usize, delay: Duration) -> Response<ServeBody> {
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.map(|collected| collected.to_bytes()).unwrap_or_default();
    Response::from_parts(parts, ServeBody::Slow(SlowBody::new(bytes, chunk, delay)))
}

/// A plain `Finish` for answers made outside the pipeline (faults, durability errors).
pub fn plain_finish<'a>(link: &'a HeaderValue, method: &HttpMethod) -> Finish<'a> {
    Finish {
        link,
        origin: None,
        head: method == HttpMethod::HEAD,
        allow: None,
        fields: None,
        envelope: false,
        close: false,
        cms_exposed_only: false,
    }
}

/// The answer's body, read whole (it is in memory already), and the answer back: for the
/// journal, with the request's body of `note`.
pub async fn keep_bodies(response: Response<Full<Bytes>>, note: &mut Note) -> (Response<Full<Bytes>>, Bodies) {
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.map(|collected| collected.to_bytes()).unwrap_or_default();
    let content_type = parts.headers.get("content-type").and_then(|value| value.to_str().ok());
    let kept = Bodies { request: note.request_body.take(), response: Some(bodies::response(&bytes, content_type)) };
    (Response::from_parts(parts, Full::new(bytes)), kept)
}

/// What a request was, for its journal entry.
pub struct Seen<'a> {
    pub time: DateTime<Utc>,
    pub started: Instant,
    pub method: &'a str,
    pub uri: &'a Uri,
    pub query: &'a Params,
    pub user: Option<String>,
    pub fault: Option<String>,
    /// Why the page's browser will not read the answer (`cors_refusal`).
    pub cors: Option<String>,
    /// The stub that answered (`Note::stub`).
    pub stub: Option<String>,
    pub bodies: Option<Bodies>,
}

/// Records a request in the journal: its refusal in words, with a near-miss hint for a path
/// that matched no route.
pub fn record(journal: &Journal, prefix: &Prefix, seen: Seen, status: Option<u16>, refusal: Option<&Refusal>) {
    let mut entry = Entry {
        seq: 0,
        time: seen.time.to_rfc3339_opts(SecondsFormat::Millis, true),
        method: seen.method.to_string(),
        path: crate::request_log::redacted(seen.uri),
        user: seen.user,
        status,
        duration_ms: (seen.started.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
        code: refusal.map(|refusal| refusal.code.to_string()),
        reason: refusal.map(|refusal| refusal.reason.clone()),
        hint: None,
        fault: seen.fault,
        cors: seen.cors,
        stub: seen.stub,
        bodies: seen.bodies.map(std::sync::Arc::new),
        findings: Vec::new(),
    };
    if entry.code.as_deref() == Some("rest_no_route") {
        let (reason, hint) = hints::no_route(seen.method, seen.uri.path(), seen.query, prefix);
        entry.reason = Some(reason);
        entry.hint = hint;
    }
    journal.record(entry);
}

/// Why a browser will not let the page that sent this request read its answer, in words (for
/// the journal: the page itself sees only a network error). None when it will, and for a
/// request that no page sent (no `Origin`). `allowed`: the origin passes `origin_allowed`.
fn cors_refusal_in_words(headers: &HeaderMap, allowed: bool) -> Option<String> {
    let text = |name: &str| headers.get(name).map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    let origin = text("origin")?;
    if !allowed {
        return Some(format!(
            "the browser will not share the answer with the page of origin {origin:?}, which --cors-origin \
             does not list (the page sees a network error, such as \"Failed to fetch\")"
        ));
    }
    let listed = |list: &str, wanted: &str| list.split(", ").any(|item| item.eq_ignore_ascii_case(wanted));
    if let Some(method) = text("access-control-request-method").filter(|method| !listed(CORS_METHODS, method)) {
        return Some(format!(
            "the preflight asks for the method {method:?}, which the answers do not allow ({CORS_METHODS}): \
             the browser will not send the request"
        ));
    }
    let asked = text("access-control-request-headers").unwrap_or_default();
    let refused: Vec<&str> =
        asked.split(',').map(str::trim).filter(|name| !name.is_empty() && !listed(CORS_HEADERS, name)).collect();
    (!refused.is_empty()).then(|| {
        format!(
            "the preflight asks for the header(s) {:?}, which the answers do not allow ({CORS_HEADERS}): the \
             browser will not send the request",
            refused.join(", ")
        )
    })
}

/// The `--fixtures` file, read; the users it lists replace the default ones. The problems of
/// its users are reported with those of its items, once they are loaded.
pub fn read_fixture(config: &mut Config) -> std::io::Result<(Option<Fixture>, Vec<Problem>)> {
    let Some(path) = config.fixtures.as_deref() else {
        return Ok((None, Vec::new()));
    };
    let fixture = Fixture::read(path, crate::fixtures::MAX_VALUES)
        .map_err(|lines| std::io::Error::other(FixtureErrors { lines }))?;
    let (users, mut problems) = fixture.users();
    match users {
        Some(users) if !users.is_empty() && config.users != UserSpec::defaults() => problems
            .push(Problem::new("users", "users are given both with --user and in the fixture: give them in one place")),
        Some(users) if !users.is_empty() => config.users = users,
        _ => {}
    }
    Ok((Some(fixture), problems))
}

/// The store at the start: the state file's (its images moved to the site's address if the
/// file was written for another), or a new one with the `--fixtures` file's items, then
/// `--demo` and `--seed-events`.
pub fn fill_store(app: &App, opening: Option<&mut Opening>, fixture_data: Option<Data>) {
    let old_site = opening.as_ref().and_then(|opening| opening.site_url()).map(str::to_string);
    match opening.and_then(Opening::take_data) {
        Some(mut data) => {
            if let Some(old_site) = old_site.filter(|old| *old != app.site_url) {
                data.move_site(&old_site, &app.site_url);
            }
            *app.store.write() = data;
            if app.config.demo || app.config.seed_events > 0 || fixture_data.is_some() {
                tracing::info!(
                    target: "reference_server::state",
                    "the state file holds the store: --fixtures, --demo and --seed-events are ignored"
                );
            }
        }
        None => {
            if let Some(data) = fixture_data {
                *app.store.write() = data;
            }
            if app.config.demo {
                crate::demo::load(app);
            }
            crate::seed::load(app, app.config.seed_events);
        }
    }
}

/// The answer to a request other than the admin API's on the connection kept for it: every
/// other slot is taken, try again (the connection is closed, so the slot is free at once).
pub fn reserved_answer() -> Response<ServeBody> {
    let body = serde_json::json!({
        "code": "server_busy",
        "message": "Every connection slot is taken; the last one is kept for the admin API.",
        "data": {"status": 503},
    });
    let mut response = Response::new(ServeBody::from(Full::new(Bytes::from(body.to_string()))));
    *response.status_mut() = hyper::http::StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static("application/json; charset=UTF-8"));
    headers.insert("retry-after", HeaderValue::from_static("1"));
    headers.insert("connection", HeaderValue::from_static("close"));
    response
}

/// Records a request in the journal, with its bodies; the answer goes on unchanged.
pub async fn journal(
    journal: &crate::journal::Journal,
    prefix: &Prefix<'_>,
    mut seen: Seen<'_>,
    outcome: Result<Response<Full<Bytes>>, Dropped>,
    note: &mut Note,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let status = outcome.as_ref().ok().map(|response| response.status().as_u16());
    let outcome = match outcome {
        Ok(response) => {
            let (response, bodies) = keep_bodies(response, note).await;
            seen.bodies = Some(bodies);
            Ok(response)
        }
        Err(dropped) => Err(dropped),
    };
    let refusal = outcome.as_ref().ok().and_then(|response| response.extensions().get::<Refusal>());
    record(journal, prefix, seen, status, refusal);
    outcome
}

/// The real site's answer, through the checking proxy (`--proxy-to`).
pub async fn proxied(
    app: &App,
    tools: &DevTools,
    budget: &BodyBudget,
    site_path: &str,
    proxy: &crate::proxy::Proxy,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let prefix = Prefix { site_path, root: &app.config.root, namespace: &app.config.namespace };
    let journal = tools.admin.then_some(&tools.journal);
    let local = crate::proxy::Local { app, budget, journal, prefix };
    crate::proxy::handle(proxy, local, request).await
}

/// The faults planned for a request. Rules match the path inside the namespace
/// (`/events/12`), or else the whole path.
pub fn fault_plan(tools: &DevTools, effective: &str, located_path: Option<&str>, whole_path: &str) -> Plan {
    if !tools.faults.any() {
        return Plan::default();
    }
    let rule_path = match located_path {
        Some("") => "/",
        Some(path) => path,
        None => whole_path,
    };
    tools.faults.plan(effective, rule_path)
}

/// Why the browser of the page that sent this request will not read its answer (the journal's
/// CORS note).
pub fn cors_refusal(app: &App, headers: &HeaderMap) -> Option<String> {
    let allowed = headers
        .get("origin")
        .is_some_and(|origin| http::origin_allowed(&app.config.cors_origins, &app.site_url, origin));
    cors_refusal_in_words(headers, allowed)
}

/// With `--admin`, the request's body is kept for the journal: its start, secrets redacted.
pub fn keep_request_body(tools: &DevTools, headers: &HeaderMap, read: &ReadBody, note: &mut Note) {
    if tools.admin {
        let kind = headers.get("content-type").and_then(|value| value.to_str().ok());
        note.request_body = Some(bodies::request(&read.bytes, kind));
    }
}
