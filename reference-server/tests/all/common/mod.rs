//! What every integration test shares: a fresh in-process server per test, an HTTP client
//! with HTTP Basic users, and small JSON helpers.
//!
//! Each test module uses a different subset of these helpers.
#![allow(dead_code)]

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use reference_server::{serve, Config, RunningServer};
use reqwest::header::HeaderMap;
use reqwest::Method;
use serde_json::{json, Value};

/// The fixed instant tests run at: Sunday 2026-11-22 10:00:00 UTC.
pub const NOW: &str = "2026-11-22T10:00:00Z";

/// The server's "now" as a UTC date-time.
pub fn now() -> DateTime<Utc> {
    NOW.parse().expect("valid clock")
}

/// A wall-clock time `days` days (and `hours` hours) after the test clock, as
/// `YYYY-MM-DD HH:MM:SS` (UTC, which is the default site time zone).
pub fn at(days: i64, hours: i64) -> String {
    (now() + Duration::days(days) + Duration::hours(hours)).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Only the date part of [`at`].
pub fn day(days: i64) -> String {
    (now() + Duration::days(days)).format("%Y-%m-%d").to_string()
}

/// A default configuration with the fixed clock.
pub fn config() -> Config {
    Config { clock: Some(now()), ..Config::ephemeral() }
}

/// A running server and a client for it.
pub struct Srv {
    pub server: RunningServer,
    pub client: reqwest::Client,
}

/// A response, read completely.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// Asserts the status and returns the body, with the body in the panic message.
    #[track_caller]
    pub fn expect(&self, status: u16) -> &Value {
        assert_eq!(self.status, status, "unexpected status; body: {}", self.text);
        &self.json
    }

    /// Asserts an error envelope: status, `code` and `data.status`.
    #[track_caller]
    pub fn expect_error(&self, status: u16, code: &str) -> &Value {
        assert_eq!(self.status, status, "unexpected status; body: {}", self.text);
        assert_eq!(self.json["code"], code, "unexpected code; body: {}", self.text);
        assert_eq!(self.json["data"]["status"], status, "data.status; body: {}", self.text);
        assert!(self.json["message"].as_str().is_some_and(|m| !m.is_empty()), "message; body: {}", self.text);
        assert_json_content_type(self);
        &self.json
    }
}

/// Every answer is JSON with the CMS's exact content type.
#[track_caller]
pub fn assert_json_content_type(resp: &Resp) {
    assert_eq!(resp.header("content-type"), Some("application/json; charset=UTF-8"), "content type of {}", resp.text);
}

/// The password of a default user.
pub fn password_of(user: &str) -> String {
    format!("{user}-password")
}

/// A request being built: method, URL, user, body.
pub struct Req<'a> {
    srv: &'a Srv,
    builder: reqwest::RequestBuilder,
}

impl Req<'_> {
    pub fn user(mut self, user: &str) -> Self {
        self.builder = self.builder.basic_auth(user, Some(password_of(user)));
        self
    }

    pub fn login(mut self, user: &str, password: &str) -> Self {
        self.builder = self.builder.basic_auth(user, Some(password));
        self
    }

    pub fn maybe_user(self, user: Option<&str>) -> Self {
        match user {
            Some(user) => self.user(user),
            None => self,
        }
    }

    pub fn json(mut self, body: &Value) -> Self {
        self.builder = self.builder.json(body);
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.builder = self.builder.header(name, value);
        self
    }

    pub fn body(mut self, content_type: &str, body: impl Into<reqwest::Body>) -> Self {
        self.builder = self.builder.header("content-type", content_type).body(body);
        self
    }

    pub fn form(mut self, pairs: &[(&str, &str)]) -> Self {
        let body: String =
            pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&");
        self.builder = self.builder.header("content-type", "application/x-www-form-urlencoded").body(body);
        self
    }

    pub async fn send(self) -> Resp {
        let _ = self.srv;
        let response = self.builder.send().await.expect("request sent");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body read");
        let json = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::Null) };
        Resp { status, headers, text, json }
    }
}

/// Percent-encodes a query or form component.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Starts a server with the fixed clock and default users.
pub async fn start() -> Srv {
    start_with(config()).await
}

pub async fn start_with(config: Config) -> Srv {
    let server = serve(config).await.expect("server starts");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    Srv { server, client }
}

impl Srv {
    /// `{site}{root}/{namespace}`.
    pub fn api(&self) -> &str {
        self.server.api_url()
    }

    pub fn site(&self) -> &str {
        self.server.site_url()
    }

    /// A request to a path under the API (`/events?x=1`).
    pub fn req(&self, method: Method, path: &str) -> Req<'_> {
        self.raw(method, &format!("{}{path}", self.api()))
    }

    /// A request to an absolute URL.
    pub fn raw(&self, method: Method, url: &str) -> Req<'_> {
        Req { srv: self, builder: self.client.request(method, url) }
    }

    /// A request to a path under the site (`/fr/wp-json/...`).
    pub fn site_req(&self, method: Method, path: &str) -> Req<'_> {
        self.raw(method, &format!("{}{path}", self.site()))
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.req(Method::GET, path).send().await
    }

    pub async fn get_as(&self, user: &str, path: &str) -> Resp {
        self.req(Method::GET, path).user(user).send().await
    }

    pub async fn post(&self, user: Option<&str>, path: &str, body: &Value) -> Resp {
        self.req(Method::POST, path).maybe_user(user).json(body).send().await
    }

    pub async fn put(&self, user: Option<&str>, path: &str, body: &Value) -> Resp {
        self.req(Method::PUT, path).maybe_user(user).json(body).send().await
    }

    pub async fn patch(&self, user: Option<&str>, path: &str, body: &Value) -> Resp {
        self.req(Method::PATCH, path).maybe_user(user).json(body).send().await
    }

    pub async fn delete(&self, user: Option<&str>, path: &str) -> Resp {
        self.req(Method::DELETE, path).maybe_user(user).send().await
    }

    /// Creates an item as `user` and returns it (asserting 201).
    pub async fn create(&self, user: &str, collection: &str, body: Value) -> Value {
        let resp = self.post(Some(user), &format!("/{collection}"), &body).await;
        assert_eq!(resp.status, 201, "create {collection} {body}: {}", resp.text);
        resp.json
    }

    /// Creates an event as admin with a title and start/end `days` from now at 10:00–12:00 UTC.
    pub async fn event(&self, title: &str, days: i64, extra: Value) -> Value {
        self.event_as("admin", title, days, extra).await
    }

    pub async fn event_as(&self, user: &str, title: &str, days: i64, extra: Value) -> Value {
        let mut body = json!({"title": title, "start_date": at(days, 0), "end_date": at(days, 2)});
        merge(&mut body, extra);
        self.create(user, "events", body).await
    }

    pub async fn venue(&self, name: &str, extra: Value) -> Value {
        let mut body = json!({"venue": name});
        merge(&mut body, extra);
        self.create("admin", "venues", body).await
    }

    pub async fn organizer(&self, name: &str, extra: Value) -> Value {
        let mut body = json!({"organizer": name});
        merge(&mut body, extra);
        self.create("admin", "organizers", body).await
    }

    pub async fn category(&self, name: &str, extra: Value) -> Value {
        let mut body = json!({"name": name});
        merge(&mut body, extra);
        self.create("admin", "categories", body).await
    }

    pub async fn tag(&self, name: &str, extra: Value) -> Value {
        let mut body = json!({"name": name});
        merge(&mut body, extra);
        self.create("admin", "tags", body).await
    }

    /// The `id`s of the items of a list response under `key`, sorted.
    pub async fn list_ids(&self, user: Option<&str>, path: &str, key: &str) -> Vec<u64> {
        let resp = self.req(Method::GET, path).maybe_user(user).send().await;
        assert_eq!(resp.status, 200, "GET {path}: {}", resp.text);
        ids(&resp.json[key])
    }
}

/// Adds the members of `extra` (an object) to `body`.
pub fn merge(body: &mut Value, extra: Value) {
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        for (key, value) in extra {
            body.insert(key, value);
        }
    }
}

/// The `id` of an item.
#[track_caller]
pub fn id(item: &Value) -> u64 {
    item["id"].as_u64().unwrap_or_else(|| panic!("no id in {item}"))
}

/// The sorted `id`s of a JSON array of items.
pub fn ids(items: &Value) -> Vec<u64> {
    let mut ids: Vec<u64> =
        items.as_array().map(|a| a.iter().filter_map(|i| i["id"].as_u64()).collect()).unwrap_or_default();
    ids.sort_unstable();
    ids
}

/// Sorted IDs from a list of items.
pub fn sorted(mut ids: Vec<u64>) -> Vec<u64> {
    ids.sort_unstable();
    ids
}

/// Parses a `YYYY-MM-DD HH:MM:SS` string.
pub fn wp(text: &Value) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text.as_str().expect("date string"), "%Y-%m-%d %H:%M:%S").expect("wp date")
}

/// The names of a JSON object's keys.
pub fn keys(value: &Value) -> Vec<String> {
    value.as_object().map(|map| map.keys().cloned().collect()).unwrap_or_default()
}
