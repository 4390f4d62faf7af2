//! The checking proxy (`--proxy-to URL`): every request under the REST root goes on to a real
//! site, whose answer comes back unchanged, and each exchange is checked against the interface
//! (`check`). What breaks it goes to the request journal as findings, with the journal's reasons
//! and near-miss hints, and briefly to the request log.
//!
//! The real site's state is unknown here, so nothing that depends on it is judged: the request's
//! route, method, parameter names, required fields, types and the rules that need no stored
//! data are; of the answer, whether it refuses what the reference refuses whatever the state (and
//! the other way round), and the fields of a success.

mod check;
mod forward;
mod record;

use std::time::Instant;

use bytes::Bytes;
use chrono::SecondsFormat;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::http::{HeaderValue, Request, Response, StatusCode};
use serde_json::Value;

use crate::app::{App, Ctx};
use crate::body::{read_body, BodyBudget, BodyError};
use crate::error::ApiError;
use crate::interface::{errors, Method};
use crate::journal::bodies::{self, Bodies};
use crate::journal::hints::Prefix;
use crate::journal::{Entry, Finding, Journal};
use crate::model::Lang;
use crate::validate::Params;

/// The proxy of one server: the real site, and the interface document answers are checked by.
pub struct Proxy {
    site: forward::Site,
    doc: Value,
    recorder: Option<record::Recorder>,
}

impl Proxy {
    /// The proxy `--proxy-to` asks for, if it does.
    pub fn new(app: &App, own: std::net::SocketAddr) -> Result<Option<Proxy>, String> {
        let Some(base) = app.config.proxy_to.as_deref() else {
            return match app.config.record {
                Some(_) => Err("--record needs --proxy-to: it records the exchanges through the proxy".into()),
                None => Ok(None),
            };
        };
        let site = forward::Site::new(base, own)?;
        let doc = crate::doc::openapi(&context(app), "");
        let recorder = app.config.record.as_deref().map(record::Recorder::new).transpose()?;
        tracing::info!("checking proxy: the interface's requests go to {}", site.base());
        Ok(Some(Proxy { site, doc, recorder }))
    }
}

/// What the proxy uses of the server it runs in.
pub struct Local<'a> {
    pub app: &'a App,
    pub budget: &'a BodyBudget,
    /// The journal, when the server keeps one (`--admin`).
    pub journal: Option<&'a Journal>,
    pub prefix: Prefix<'a>,
}

/// A request as it came, for the checks, the journal and the log.
struct Came {
    started: Instant,
    time: chrono::DateTime<chrono::Utc>,
    method: String,
    uri: hyper::Uri,
    user: Option<String>,
}

/// One exchange: read the request, check it, forward it, check the answer, note the findings,
/// and return the site's answer (or the proxy's own error when there is none).
pub async fn handle(proxy: &Proxy, local: Local<'_>, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let query = crate::http::parse_form(parts.uri.query().unwrap_or(""));
    let came = Came {
        started: Instant::now(),
        time: chrono::Utc::now(),
        method: crate::http::effective_method(&parts.method, &query, &parts.headers),
        uri: parts.uri.clone(),
        user: basic_user(&parts.headers),
    };
    // The body holds its share of the budget until the exchange ends.
    let read = match read_body(body, local.budget, local.app.config.limits.body_timeout).await {
        Ok(read) => read,
        Err(error) => return refuse(&local, &came, body_error(error), Vec::new()),
    };
    let bytes = read.bytes.clone();
    let params = crate::http::parse_body(&parts.headers, bytes.clone()).await;
    let ctx = context(local.app);
    let seen = check::Request { method: &came.method, path: parts.uri.path(), query: &query, body: params };
    let verdict = check::request(&ctx, &local.prefix, seen);
    let Some((lang, rest)) = forwarded_part(&local.prefix, &parts.uri) else {
        return refuse(&local, &came, ApiError::no_route(), verdict.findings);
    };
    if proxy.site.came_back(&parts.headers) {
        return refuse(&local, &came, ApiError::of(&LOOP), verdict.findings);
    }
    let answer =
        match proxy.site.send(&parts.method, (lang.map(Lang::code), &rest), &parts.headers, bytes.clone()).await {
            Ok(answer) => answer,
            Err(failure) => return refuse(&local, &came, failure_error(failure), verdict.findings),
        };
    // Parsed within a bound: a huge answer is passed on unchecked, with a finding that says so.
    let parsed = crate::json_limit::parse(&answer.body, crate::json_limit::MAX_VALUES);
    let mut findings = verdict.findings.clone();
    if let Err(too_many @ crate::json_limit::Refusal::TooManyValues(_)) = &parsed {
        let reason = format!("the site's answer holds {too_many}: the proxy passed it on unchecked");
        findings.push(Finding { side: crate::journal::Side::Answer, reason, hint: None });
    }
    let json = parsed.ok();
    let fields = field_check(&verdict, &query, &parts.method);
    let template =
        fields.as_ref().map(|(template, method)| check::FieldCheck { doc: &proxy.doc, template, method: *method });
    findings.extend(check::answer(&verdict, answer.status, json.as_ref(), template));
    let code = json.as_ref().filter(|_| answer.status >= 400).and_then(|body| body.get("code")).and_then(Value::as_str);
    let kept = kept_bodies(&local, &parts.headers, &bytes, &answer);
    note(&local, &came, Some(answer.status), code.map(str::to_string), None, findings, kept);
    if let Some(recorder) = &proxy.recorder {
        let created = verdict.route.filter(|(route, method)| route.op(*method) == Some(crate::interface::Op::Create));
        let created = created.and(json.as_ref()).and_then(|body| body.get("id")).and_then(Value::as_u64);
        recorder.record(exchange(&local, &parts, &query, &bytes, answer.status, created));
    }
    let mut response = Response::new(Full::new(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_GATEWAY);
    *response.headers_mut() = answer.headers;
    sandbox_unless_json(response.headers_mut());
    response
}

/// The proxy's origin is also the admin API's: a site's answer that is not JSON (an HTML page,
/// an SVG image…) could run a script there that drives the admin API. Such an answer is served
/// in a sandbox (`Content-Security-Policy: sandbox`: a unique origin, no script) and never
/// sniffed into another type. A site's own policy stays: a browser enforces both.
fn sandbox_unless_json(headers: &mut hyper::HeaderMap) {
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    let kind = headers.get(hyper::header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or("");
    let essence = kind.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if !(essence == "application/json" || essence.ends_with("+json")) {
        headers.append("content-security-policy", HeaderValue::from_static("sandbox"));
    }
}

/// An exchange as the recording writes it.
fn exchange<'a>(
    local: &'a Local,
    parts: &'a hyper::http::request::Parts,
    query: &'a Params,
    body: &'a [u8],
    status: u16,
    created: Option<u64>,
) -> record::Exchange<'a> {
    let prefix = &local.prefix;
    let path = parts.uri.path();
    let located = crate::http::locate(path, query, prefix.site_path, prefix.root, prefix.namespace);
    let target = match located.path.filter(|_| !query.contains_key("rest_route")) {
        Some(inside) => Ok((inside, located.base_lang.map(Lang::code))),
        None => Err(strip_ci(path, prefix.site_path).unwrap_or(path).to_string()),
    };
    let authorization = parts.headers.get("authorization").map(|value| value.to_str().ok());
    let credentials = match authorization {
        None => record::Credentials::None,
        Some(header) => match local.app.users.authenticate(header) {
            Ok(Some(user)) => record::Credentials::Role(user.role.name()),
            _ => record::Credentials::Unknown,
        },
    };
    let content_type = parts.headers.get("content-type").and_then(|value| value.to_str().ok());
    record::Exchange { method: parts.method.as_str(), target, query, content_type, body, credentials, status, created }
}

/// Where a request goes on the site: the language prefix of its address (`/fr`), if any, and
/// what follows the site path and REST root (`/calendar/…?…`); `None` for an address outside
/// the REST root, which the proxy answers itself.
fn forwarded_part(prefix: &Prefix, uri: &hyper::Uri) -> Option<(Option<Lang>, String)> {
    let under_site = strip_ci(uri.path(), prefix.site_path)?;
    let lang = Lang::ALL
        .into_iter()
        .find(|lang| strip_ci(under_site, &format!("/{}", lang.code())).is_some_and(|rest| rest.starts_with('/')));
    let under_lang = lang.map_or(under_site, |lang| &under_site[1 + lang.code().len()..]);
    let rest = strip_ci(under_lang, prefix.root)?;
    if !(rest.is_empty() || rest.starts_with('/')) || !normalised(uri.path()) {
        return None;
    }
    Some((
        lang,
        match uri.query() {
            Some(query) => format!("{rest}?{query}"),
            None => rest.to_string(),
        },
    ))
}

/// Whether a path stays where it says once a site resolves it: no `.` or `..` segment, written
/// as is or percent-encoded (`%2e%2e`, `..%2f`), and no backslash (which some sites read as a
/// slash). A path that fails this could leave the REST root on the site (`/wp-json/../x`), so
/// it is not forwarded.
fn normalised(path: &str) -> bool {
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    !decoded.contains('\\') && decoded.split('/').all(|segment| segment != "." && segment != "..")
}

fn strip_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// The route template and method a success is checked against: not for `HEAD` (no body), nor
/// when the query reshapes the answer (`_fields`, `_envelope`, `_embed`, `_jsonp`).
fn field_check(verdict: &check::Verdict, query: &Params, method: &hyper::http::Method) -> Option<(String, Method)> {
    let reshaped = ["_fields", "_envelope", "_embed", "_jsonp"].iter().any(|name| query.contains_key(*name));
    if reshaped || method == hyper::http::Method::HEAD {
        return None;
    }
    let (route, method) = verdict.route?;
    let template = if route.path.is_empty() { "/".to_string() } else { route.openapi_path() };
    Some((template, method))
}

/// The proxy's own answer when the site's cannot be passed on, noted like any other.
fn refuse(local: &Local, came: &Came, error: ApiError, findings: Vec<Finding>) -> Response<Full<Bytes>> {
    // A path outside the REST root: the finding says which route it came close to.
    let reason = Some(crate::reasons::in_words(&error))
        .filter(|reason| !reason.is_empty() && error.code != errors::NO_ROUTE.code);
    note(local, came, Some(error.status), Some(error.code.to_string()), reason, findings, None);
    let mut response = Response::new(Full::new(Bytes::from(error.to_json().to_string())));
    *response.status_mut() = StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_GATEWAY);
    response.headers_mut().insert("content-type", HeaderValue::from_static("application/json; charset=UTF-8"));
    response
}

/// The journal entry (with `--admin`) and the log line of one exchange.
fn note(
    local: &Local,
    came: &Came,
    status: Option<u16>,
    code: Option<String>,
    reason: Option<String>,
    findings: Vec<Finding>,
    bodies: Option<Bodies>,
) {
    log(came, status, &findings);
    let Some(journal) = local.journal else { return };
    journal.record(Entry {
        time: came.time.to_rfc3339_opts(SecondsFormat::Millis, true),
        method: came.method.clone(),
        path: crate::request_log::redacted(&came.uri),
        user: came.user.clone(),
        status,
        duration_ms: (came.started.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
        code,
        reason,
        findings,
        bodies: bodies.map(std::sync::Arc::new),
        ..Entry::default()
    });
}

/// The request's and the site's answer's bodies as the journal keeps them (bounded, secrets
/// redacted), only when there is a journal.
fn kept_bodies(
    local: &Local,
    request_headers: &hyper::HeaderMap,
    request: &[u8],
    answer: &forward::Answer,
) -> Option<Bodies> {
    local.journal?;
    let kind = |headers: &hyper::HeaderMap| {
        headers.get(hyper::header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).map(str::to_string)
    };
    let mut request = (!request.is_empty()).then(|| bodies::request(request, kind(request_headers).as_deref()));
    let mut response =
        (!answer.body.is_empty()).then(|| bodies::response(&answer.body, kind(&answer.headers).as_deref()));
    let secrets = forwarded_secrets(request_headers);
    for kept in [&mut request, &mut response].into_iter().flatten() {
        bodies::mask(kept, &secrets);
    }
    Some(Bodies { request, response })
}

/// The credentials the proxy forwards with a request, which the journal masks wherever the
/// site's answer repeats them: the `Authorization` header's credentials (for Basic, also the
/// password and its base64), the `X-WP-Nonce` and the values of cookies.
fn forwarded_secrets(headers: &hyper::HeaderMap) -> Vec<String> {
    use base64::Engine;
    let text = |name: &str| headers.get_all(name).into_iter().filter_map(|value| value.to_str().ok()).map(str::trim);
    let mut secrets = Vec::new();
    for header in text("authorization") {
        if let Some((_, password)) = crate::auth::decode_basic(header) {
            secrets.push(base64::engine::general_purpose::STANDARD.encode(&password));
            secrets.push(password);
        }
        secrets.push(header.split_once(' ').map_or(header, |(_, credentials)| credentials.trim()).to_string());
    }
    // A short nonce or cookie value ("1", "yes") is no secret, and masking it would garble the text.
    let long = |value: &str| (value.chars().count() >= 8).then(|| value.to_string());
    secrets.extend(text("x-wp-nonce").filter_map(long));
    for cookies in text("cookie") {
        secrets.extend(cookies.split(';').filter_map(|pair| pair.split_once('=')).filter_map(|(_, v)| long(v.trim())));
    }
    secrets
}

/// The request log line, with the number of findings and the first one.
fn log(came: &Came, status: Option<u16>, findings: &[Finding]) {
    if !tracing::enabled!(target: "reference_server::request", tracing::Level::INFO) {
        return;
    }
    let status = status.map_or_else(|| "-".to_string(), |status| status.to_string());
    let found = match findings.first() {
        Some(first) => format!(" [proxy: {} finding(s): {}]", findings.len(), printable(&first.reason)),
        None => " [proxy]".to_string(),
    };
    tracing::info!(
        target: "reference_server::request",
        "{} {} {} {:?}{}",
        printable(&came.method),
        crate::request_log::redacted(&came.uri),
        status,
        came.started.elapsed(),
        found
    );
}

/// A text for a terminal: control characters (escape bytes, newlines) written as escapes.
fn printable(text: &str) -> String {
    text.chars().flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] }).collect()
}

/// The user Basic credentials name (the password is never kept).
fn basic_user(headers: &hyper::http::HeaderMap) -> Option<String> {
    let header = headers.get("authorization").and_then(|value| value.to_str().ok())?;
    crate::auth::decode_basic(header).map(|(name, _)| name)
}

/// The checks' view of the interface: an anonymous reader in the default language.
fn context(app: &App) -> Ctx<'_> {
    Ctx {
        app,
        user: None,
        lang: Lang::default(),
        api_base: format!("{}{}/{}", app.site_url, app.config.root, app.config.namespace),
        now: app.clock.now(),
    }
}

/// The error of a request body the proxy could not read.
fn body_error(error: BodyError) -> ApiError {
    match error {
        BodyError::TooLarge => ApiError::of(&errors::TOO_LARGE),
        BodyError::TimedOut => ApiError::bad_request(408),
        BodyError::Broken => ApiError::bad_request(400),
    }
}

/// The proxy's errors when the site gives no answer to pass on (502, in the interface's envelope).
const SITE_UNREACHABLE: crate::interface::ErrorKind = crate::interface::ErrorKind {
    code: "proxy_site_unreachable",
    status: 502,
    message: "The checking proxy could not reach the site.",
    when: "the site behind --proxy-to did not answer",
};
const LOOP: crate::interface::ErrorKind = crate::interface::ErrorKind {
    code: "proxy_loop",
    status: 508,
    message: "The request came back to the checking proxy that forwarded it.",
    when: "the request's Via header shows it went through this proxy already (--proxy-to leads back to it)",
};
const ANSWER_TOO_LARGE: crate::interface::ErrorKind = crate::interface::ErrorKind {
    code: "proxy_answer_too_large",
    status: 502,
    message: "The site's answer is larger than the checking proxy passes on.",
    when: "the site's answer exceeds the proxy's bound",
};

fn failure_error(failure: forward::Failure) -> ApiError {
    match failure {
        forward::Failure::Unreachable(what) => ApiError::of(&SITE_UNREACHABLE).because(format!("the site: {what}")),
        forward::Failure::TooLarge => ApiError::of(&ANSWER_TOO_LARGE)
            .because(format!("the answer is larger than {} MiB", forward::MAX_ANSWER_BYTES / (1024 * 1024))),
    }
}
