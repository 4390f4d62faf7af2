//! What the `/doc` tests share: a server and client, an OpenAPI 3.0 schema checker (the subset
//! of JSON Schema the document uses), and a structural check of the document itself.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

use reference_server::{serve, Config, RunningServer};
use reqwest::Method;
use serde_json::Value;

/// The instant the tests run at, so computed defaults (the date window) are stable.
pub const NOW: &str = "2026-11-22T10:00:00Z";

pub fn config() -> Config {
    Config { clock: Some(NOW.parse().expect("clock")), ..Config::ephemeral() }
}

pub async fn start(config: Config) -> (RunningServer, reqwest::Client) {
    let server = serve(config).await.expect("server starts");
    (server, reqwest::Client::new())
}

/// One request and its response, read completely.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub method: Method,
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

/// What a scripted request sends.
pub enum Body {
    None,
    Json(Value),
    Form(Vec<(String, String)>),
    Raw(&'static str, Vec<u8>),
}

pub async fn send(
    client: &reqwest::Client,
    method: Method,
    url: &str,
    user: Option<(&str, &str)>,
    body: Body,
) -> Exchange {
    let mut request = client.request(method.clone(), url);
    if let Some((name, password)) = user {
        request = request.basic_auth(name, Some(password));
    }
    request = match body {
        Body::None => request,
        Body::Json(value) => request.json(&value),
        Body::Form(pairs) => request.form(&pairs),
        Body::Raw(content_type, bytes) => request.header("content-type", content_type).body(bytes),
    };
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let content_type = headers.get("content-type").and_then(|value| value.to_str().ok()).map(str::to_string);
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Exchange { method, url: url.to_string(), status, content_type, headers, body }
}

pub async fn get_json(client: &reqwest::Client, url: &str) -> Value {
    let exchange = send(client, Method::GET, url, None, Body::None).await;
    assert_eq!(exchange.status, 200, "GET {url}: {}", exchange.body);
    exchange.body
}

// ----- the schema checker lives in the library -----

// Each test file that includes this module uses a part of it.
#[allow(unused_imports)]
pub use reference_server::openapi_check::{response_schema, violations};

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const TYPES: &[&str] = &["string", "integer", "number", "boolean", "array", "object"];

/// Structural checks of an OpenAPI 3.0 document beyond its JSON shape: every reference
/// resolves, path templates and path parameters agree, operation IDs are unique, parameters
/// are unique by name and location, response codes are HTTP statuses, `required` names only
/// declared properties of closed objects, defaults fit their schemas.
pub fn structural_problems(doc: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let version = doc["openapi"].as_str().unwrap_or_default();
    if !version.starts_with("3.0.") {
        problems.push(format!("openapi version {version:?}"));
    }
    for key in ["title", "version"] {
        if !doc["info"][key].is_string() {
            problems.push(format!("info.{key} missing"));
        }
    }
    if doc["servers"].as_array().is_none_or(|servers| servers.is_empty() || !servers[0]["url"].is_string()) {
        problems.push("servers[0].url missing".to_string());
    }
    walk_refs(doc, doc, "$", &mut problems);
    let mut operation_ids = HashSet::new();
    let Some(paths) = doc["paths"].as_object() else {
        problems.push("no paths".to_string());
        return problems;
    };
    for (path, item) in paths {
        if !path.starts_with('/') {
            problems.push(format!("path {path:?} does not start with /"));
        }
        let templated: BTreeSet<String> =
            path.split('{').skip(1).filter_map(|part| part.split_once('}')).map(|(name, _)| name.to_string()).collect();
        let item = item.as_object().expect("path item");
        for (method, operation) in item {
            if !METHODS.contains(&method.as_str()) {
                problems.push(format!("{path}: unknown method {method}"));
                continue;
            }
            let here = format!("{method} {path}");
            match operation["operationId"].as_str() {
                Some(id) if !operation_ids.insert(id.to_string()) => {
                    problems.push(format!("{here}: operationId {id} twice"))
                }
                None => problems.push(format!("{here}: no operationId")),
                _ => {}
            }
            let mut seen = HashSet::new();
            let mut path_params = BTreeSet::new();
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().unwrap_or_default().to_string();
                let location = parameter["in"].as_str().unwrap_or_default().to_string();
                if !["query", "path", "header", "cookie"].contains(&location.as_str()) {
                    problems.push(format!("{here}: parameter {name} in {location:?}"));
                }
                if !seen.insert((name.clone(), location.clone())) {
                    problems.push(format!("{here}: parameter {name} in {location} twice"));
                }
                if location == "path" {
                    if parameter["required"] != Value::Bool(true) {
                        problems.push(format!("{here}: path parameter {name} not required"));
                    }
                    path_params.insert(name.clone());
                }
                if parameter["description"].as_str().is_none_or(|text| text.is_empty()) {
                    problems.push(format!("{here}: parameter {name} has no description"));
                }
                match parameter.get("schema") {
                    Some(schema) => check_schema(doc, schema, &format!("{here} parameter {name}"), &mut problems),
                    None => problems.push(format!("{here}: parameter {name} has no schema")),
                }
            }
            if path_params != templated {
                problems.push(format!("{here}: path parameters {path_params:?} but template {templated:?}"));
            }
            if let Some(body) = operation.get("requestBody") {
                for (media, content) in body["content"].as_object().into_iter().flatten() {
                    check_schema(doc, &content["schema"], &format!("{here} body {media}"), &mut problems);
                }
            }
            let Some(responses) = operation["responses"].as_object().filter(|map| !map.is_empty()) else {
                problems.push(format!("{here}: no responses"));
                continue;
            };
            for (code, response) in responses {
                if !(code == "default" || code.parse::<u16>().is_ok_and(|n| (100..600).contains(&n))) {
                    problems.push(format!("{here}: response code {code:?}"));
                }
                if !response["description"].is_string() {
                    problems.push(format!("{here} {code}: no description"));
                }
                for (media, content) in response["content"].as_object().into_iter().flatten() {
                    check_schema(doc, &content["schema"], &format!("{here} {code} {media}"), &mut problems);
                }
            }
        }
    }
    for (name, schema) in doc["components"]["schemas"].as_object().into_iter().flatten() {
        check_schema(doc, schema, &format!("schema {name}"), &mut problems);
    }
    problems
}

fn walk_refs(doc: &Value, value: &Value, at: &str, problems: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
                let found = reference.strip_prefix('#').and_then(|pointer| doc.pointer(pointer));
                if found.is_none() {
                    problems.push(format!("{at}: unresolved $ref {reference}"));
                }
            }
            for (key, item) in map {
                walk_refs(doc, item, &format!("{at}.{key}"), problems);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk_refs(doc, item, &format!("{at}[{index}]"), problems);
            }
        }
        _ => {}
    }
}

fn check_schema(doc: &Value, schema: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(map) = schema.as_object() else {
        problems.push(format!("{at}: schema is not an object"));
        return;
    };
    if map.contains_key("$ref") {
        return;
    }
    if let Some(name) = map.get("type") {
        if !name.as_str().is_some_and(|name| TYPES.contains(&name)) {
            problems.push(format!("{at}: type {name}"));
        }
        if name == "array" && !map.contains_key("items") {
            problems.push(format!("{at}: array without items"));
        }
    }
    if let Some(default) = map.get("default") {
        let found = violations(doc, schema, default);
        if !found.is_empty() {
            problems.push(format!("{at}: default {default} does not fit: {found:?}"));
        }
    }
    if let Some(required) = map.get("required").and_then(Value::as_array) {
        let properties = map.get("properties").and_then(Value::as_object);
        for name in required {
            let declared =
                properties.is_some_and(|properties| properties.contains_key(name.as_str().unwrap_or_default()));
            if !declared && map.get("additionalProperties") == Some(&Value::Bool(false)) {
                problems.push(format!("{at}: required {name} is not a property"));
            }
        }
    }
    for (key, item) in map {
        match key.as_str() {
            "properties" => {
                for (name, property) in item.as_object().into_iter().flatten() {
                    check_schema(doc, property, &format!("{at}.{name}"), problems);
                }
            }
            "items" | "not" => check_schema(doc, item, &format!("{at}.{key}"), problems),
            "additionalProperties" if item.is_object() => check_schema(doc, item, &format!("{at}.*"), problems),
            "allOf" | "anyOf" | "oneOf" => {
                for (index, sub) in item.as_array().into_iter().flatten().enumerate() {
                    check_schema(doc, sub, &format!("{at}.{key}[{index}]"), problems);
                }
            }
            _ => {}
        }
    }
}
