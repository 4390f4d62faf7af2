//! The admin API under `/__admin` (only with `--admin`): reset the store (to a fresh site, the
//! demo calendar or the `--fixtures` file), export it as a fixture, seed it, set the clock, read
//! the request journal (one entry with its bodies), add and remove fault rules and stubbed
//! answers; and the journal page. It lives
//! outside the interface's REST root and namespace, so no client of the interface meets it.
//! Its OpenAPI document is `openapi.json` beside this file, served at `/__admin/doc`.
//!
//! It is meant for a developer's own machine: it takes no credentials. Against other web pages
//! in the developer's browser it answers only requests addressed to an IP address, `localhost`
//! or the site's own host name (so a hostile name that resolves to 127.0.0.1 gets nothing), and
//! refuses requests from pages of another origin; a body must be JSON.

mod handlers;

pub use handlers::STUBS_AND_PROXY;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::http::{HeaderMap, HeaderValue, Method as HttpMethod, Request, Response, StatusCode};
use serde_json::{json, Value};

use crate::app::App;
use crate::body::{read_body, BodyBudget};
use crate::devtools::DevTools;

/// Where the admin API lives, from the site's root.
pub const PREFIX: &str = "/__admin";

/// One operation of the admin API.
#[derive(Clone, Copy, Debug)]
pub struct AdminRoute {
    pub method: &'static str,
    /// As OpenAPI writes it (`{id}` for a variable).
    pub path: &'static str,
    pub op: AdminOp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdminOp {
    Page,
    Doc,
    Reset,
    Seed,
    GetClock,
    SetClock,
    Requests,
    ClearRequests,
    Faults,
    AddFault,
    ClearFaults,
    RemoveFault,
    Request,
    Stubs,
    AddStub,
    ClearStubs,
    RemoveStub,
    State,
    Export,
    Quirks,
}

/// Every operation; the router and the test of the OpenAPI document read this table.
pub const ROUTES: &[AdminRoute] = &[
    AdminRoute { method: "GET", path: "/__admin/", op: AdminOp::Page },
    AdminRoute { method: "GET", path: "/__admin/doc", op: AdminOp::Doc },
    AdminRoute { method: "POST", path: "/__admin/reset", op: AdminOp::Reset },
    AdminRoute { method: "POST", path: "/__admin/seed", op: AdminOp::Seed },
    AdminRoute { method: "GET", path: "/__admin/clock", op: AdminOp::GetClock },
    AdminRoute { method: "PUT", path: "/__admin/clock", op: AdminOp::SetClock },
    AdminRoute { method: "GET", path: "/__admin/requests", op: AdminOp::Requests },
    AdminRoute { method: "DELETE", path: "/__admin/requests", op: AdminOp::ClearRequests },
    AdminRoute { method: "GET", path: "/__admin/requests/{id}", op: AdminOp::Request },
    AdminRoute { method: "GET", path: "/__admin/faults", op: AdminOp::Faults },
    AdminRoute { method: "POST", path: "/__admin/faults", op: AdminOp::AddFault },
    AdminRoute { method: "DELETE", path: "/__admin/faults", op: AdminOp::ClearFaults },
    AdminRoute { method: "DELETE", path: "/__admin/faults/{id}", op: AdminOp::RemoveFault },
    AdminRoute { method: "GET", path: "/__admin/stubs", op: AdminOp::Stubs },
    AdminRoute { method: "POST", path: "/__admin/stubs", op: AdminOp::AddStub },
    AdminRoute { method: "DELETE", path: "/__admin/stubs", op: AdminOp::ClearStubs },
    AdminRoute { method: "DELETE", path: "/__admin/stubs/{id}", op: AdminOp::RemoveStub },
    AdminRoute { method: "GET", path: "/__admin/state", op: AdminOp::State },
    AdminRoute { method: "GET", path: "/__admin/quirks", op: AdminOp::Quirks },
    AdminRoute { method: "GET", path: "/__admin/export", op: AdminOp::Export },
];

/// The operations as (method, path), for the test of the admin API's OpenAPI document.
pub fn routes() -> Vec<(&'static str, &'static str)> {
    ROUTES.iter().map(|route| (route.method, route.path)).collect()
}

/// The OpenAPI document of the admin API.
pub const OPENAPI: &str = include_str!("openapi.json");

/// Whether a path (without the site's own path) is the admin API's.
pub fn claims(path: &str) -> bool {
    path == PREFIX || path.starts_with("/__admin/")
}

/// Whether a request is the admin API's.
pub fn for_admin(tools: &DevTools, site_path: &str, request: &Request<Incoming>) -> bool {
    let path = request.uri().path();
    tools.admin && claims(path.strip_prefix(site_path).unwrap_or(path))
}

/// The answer of one of the site's pages or of the admin API; the request back when it is
/// for neither.
pub async fn site_or_admin(
    app: &App,
    tools: &DevTools,
    budget: &BodyBudget,
    site_path: &str,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Request<Incoming>> {
    let uri = request.uri();
    let local = uri.path().strip_prefix(site_path).unwrap_or(uri.path());
    if let Some(response) = crate::pages::answer(app, tools, request.method(), local, uri.query()) {
        return Ok(response);
    }
    if tools.admin && claims(local) {
        return Ok(handle(app, tools, budget, request).await);
    }
    Err(request)
}

/// An admin answer: JSON, or an error in the CMS's envelope.
pub struct AdminReply {
    status: u16,
    body: AdminBody,
}

enum AdminBody {
    Json(Value),
    Html(String),
}

impl AdminReply {
    pub fn json(status: u16, body: Value) -> AdminReply {
        AdminReply { status, body: AdminBody::Json(body) }
    }

    pub fn error(status: u16, code: &str, message: impl Into<String>) -> AdminReply {
        let message = message.into();
        AdminReply::json(status, json!({"code": code, "message": message, "data": {"status": status}}))
    }
}

/// Answers one admin request.
pub async fn handle(
    app: &App,
    tools: &DevTools,
    budget: &BodyBudget,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let reply = match guard(app, &parts.headers) {
        Err(reply) => reply,
        Ok(()) => {
            let path = parts.uri.path().strip_prefix(site_path(&app.site_url).as_str()).unwrap_or(parts.uri.path());
            let path = if path == PREFIX { "/__admin/" } else { path };
            match route(parts.method.as_str(), path) {
                Err(reply) => reply,
                Ok((route, var)) => {
                    let body = if matches!(route.method, "POST" | "PUT") {
                        match read_json(body, &parts.headers, budget, app).await {
                            Ok(body) => body,
                            Err(reply) => return finish(&parts.method, reply),
                        }
                    } else {
                        Value::Null
                    };
                    let query = crate::http::parse_form(parts.uri.query().unwrap_or(""));
                    handlers::run(app, tools, route.op, var.as_deref(), &query, body).await
                }
            }
        }
    };
    finish(&parts.method, reply)
}

/// The operation for a method and path, and the path's variable; else 404 or 405.
fn route(method: &str, path: &str) -> Result<(&'static AdminRoute, Option<String>), AdminReply> {
    let matches = |pattern: &str| -> Option<Option<String>> {
        match pattern.strip_suffix("{id}") {
            Some(base) => {
                path.strip_prefix(base).filter(|id| !id.is_empty() && !id.contains('/')).map(|id| Some(id.to_string()))
            }
            None => (pattern == path).then_some(None),
        }
    };
    let on_path: Vec<(&'static AdminRoute, Option<String>)> =
        ROUTES.iter().filter_map(|route| matches(route.path).map(|var| (route, var))).collect();
    if on_path.is_empty() {
        let known: Vec<String> = ROUTES.iter().map(|route| format!("{} {}", route.method, route.path)).collect();
        return Err(AdminReply::error(
            404,
            "admin_no_route",
            format!("No admin operation at {path}. The admin API has: {}.", known.join(", ")),
        ));
    }
    let wanted = if method == "HEAD" { "GET" } else { method };
    match on_path.iter().position(|(route, _)| route.method == wanted) {
        Some(index) => Ok(on_path.into_iter().nth(index).expect("found")),
        None => {
            let methods: Vec<&str> = on_path.iter().map(|(route, _)| route.method).collect();
            Err(AdminReply::error(405, "admin_method", format!("{path} takes {}, not {method}.", methods.join(", "))))
        }
    }
}

/// Refuses requests a web page of another site could have made or read: the `Host` must be
/// there, readable, and an IP address, `localhost` or the site's host (with a numeric port).
fn guard(app: &App, headers: &HeaderMap) -> Result<(), AdminReply> {
    let host = headers.get("host").and_then(|value| value.to_str().ok());
    let Some(host) = host else {
        return Err(AdminReply::error(
            403,
            "admin_forbidden",
            "The admin API answers only requests that name their host (a Host header in ASCII).",
        ));
    };
    let site_host = app.site_url.split_once("://").map_or("", |(_, rest)| rest.split('/').next().unwrap_or(""));
    let site_name = host_name(site_host).unwrap_or("");
    let allowed = host_name(host).is_some_and(|name| {
        let ip = name.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>().is_ok();
        ip || name.eq_ignore_ascii_case("localhost") || (!site_name.is_empty() && name.eq_ignore_ascii_case(site_name))
    });
    if !allowed {
        return Err(AdminReply::error(
            403,
            "admin_forbidden",
            format!(
                "The admin API answers requests to an IP address, localhost or the site's host (with a numeric \
                 port), not to {host:?}."
            ),
        ));
    }
    if let Some(origin) = headers.get("origin") {
        let same = origin.to_str().is_ok_and(|origin| {
            origin.eq_ignore_ascii_case(&format!("http://{host}"))
                || origin.eq_ignore_ascii_case(&format!("https://{host}"))
        });
        if !same {
            return Err(AdminReply::error(
                403,
                "admin_forbidden",
                "The admin API refuses requests from pages of other origins.",
            ));
        }
    }
    Ok(())
}

/// `example.com` of `example.com:8080`, `[::1]` of `[::1]:8080`; `None` for anything that is
/// not a host name or address with an optional numeric port (`127.0.0.1:1@evil.example`).
fn host_name(host: &str) -> Option<&str> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            inside.parse::<std::net::Ipv6Addr>().ok()?;
            (&host[..inside.len() + 2], after)
        }
        None => {
            let end = host.find(':').unwrap_or(host.len());
            let name = &host[..end];
            let valid = name.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'.' || byte == b'-');
            (Some(name).filter(|name| valid && !name.is_empty())?, &host[end..])
        }
    };
    match port.strip_prefix(':') {
        None if port.is_empty() => Some(name),
        Some(digits) if (1..=5).contains(&digits.len()) && digits.bytes().all(|byte| byte.is_ascii_digit()) => {
            Some(name)
        }
        _ => None,
    }
}

/// A JSON body (an empty one is `null`); any other type is refused.
async fn read_json(body: Incoming, headers: &HeaderMap, budget: &BodyBudget, app: &App) -> Result<Value, AdminReply> {
    let bytes = read_body(body, budget, app.config.limits.body_timeout)
        .await
        .map_err(|error| {
            AdminReply::error(400, "admin_invalid_body", format!("The body could not be read: {error:?}."))
        })?
        .bytes;
    let empty = bytes.iter().all(u8::is_ascii_whitespace);
    // No body and no type is no body; an empty body of another type is refused like a full one.
    if empty && !headers.contains_key("content-type") {
        return Ok(Value::Null);
    }
    let content_type = headers.get("content-type").and_then(|value| value.to_str().ok()).unwrap_or("");
    if !content_type.to_ascii_lowercase().starts_with("application/json") {
        return Err(AdminReply::error(
            415,
            "admin_invalid_body",
            "The admin API takes JSON bodies (Content-Type: application/json).",
        ));
    }
    if empty {
        return Ok(Value::Null);
    }
    // Counted before it is parsed: no admin body needs more values than all stubs may hold.
    crate::json_limit::parse(&bytes, MAX_BODY_VALUES).map_err(|refusal| match refusal {
        crate::json_limit::Refusal::Syntax(error) => {
            AdminReply::error(400, "admin_invalid_body", format!("The body is not JSON: {error}."))
        }
        too_many => AdminReply::error(400, "admin_invalid_body", format!("The body holds {too_many}.")),
    })
}

/// The most JSON values an admin request's body may hold (twice what all stubs may hold).
const MAX_BODY_VALUES: usize = 2 * crate::stubs::MAX_ALL_VALUES;

fn finish(method: &HttpMethod, reply: AdminReply) -> Response<Full<Bytes>> {
    let (content_type, text) = match reply.body {
        AdminBody::Json(value) => {
            ("application/json; charset=UTF-8", serde_json::to_string(&value).unwrap_or_default())
        }
        AdminBody::Html(page) => {
            return with_status(crate::pages::respond(method, "text/html; charset=utf-8", page), reply.status)
        }
    };
    let length = text.len();
    let body = if method == HttpMethod::HEAD { Bytes::new() } else { Bytes::from(text) };
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static(content_type));
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    if method == HttpMethod::HEAD {
        headers.insert("content-length", HeaderValue::from(length));
    }
    response
}

fn with_status(mut response: Response<Full<Bytes>>, status: u16) -> Response<Full<Bytes>> {
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    response
}

fn site_path(site_url: &str) -> String {
    site_url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map_or(String::new(), |(_, path)| format!("/{}", path.trim_end_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_and_their_refusals() {
        assert_eq!(route("GET", "/__admin/clock").ok().map(|(r, _)| r.op), Some(AdminOp::GetClock));
        assert_eq!(route("PUT", "/__admin/clock").ok().map(|(r, _)| r.op), Some(AdminOp::SetClock));
        let (removal, id) = route("DELETE", "/__admin/faults/7").ok().expect("a route");
        assert_eq!((removal.op, id.as_deref()), (AdminOp::RemoveFault, Some("7")));
        assert_eq!(route("POST", "/__admin/clock").err().map(|r| r.status), Some(405));
        assert_eq!(route("GET", "/__admin/nothing").err().map(|r| r.status), Some(404));
        assert_eq!(route("DELETE", "/__admin/faults/").err().map(|r| r.status), Some(404));
    }

    #[test]
    fn host_names() {
        assert_eq!(host_name("example.com:8080"), Some("example.com"));
        assert_eq!(host_name("[::1]:8080"), Some("[::1]"));
        assert_eq!(host_name("localhost"), Some("localhost"));
        for bad in ["127.0.0.1:1@evil.example", "a:b", "a:", "a:123456", "[::1", "[evil]:1", "a b", ""] {
            assert_eq!(host_name(bad), None, "{bad}");
        }
    }
}
