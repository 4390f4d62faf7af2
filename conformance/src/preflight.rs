//! Pre-flight: before the first case runs against an outside server, one look at the namespace
//! index says whether the address is an API root of this interface, and one authenticated look
//! per credential set whether the credentials are accepted.
//!
//! Without it a server that is down, or a `--base-url` with the namespace twice, fails every
//! case one by one (and a case that expects "some 4xx" even passes against a 404). Each
//! problem is one line saying what was tried, what was found and what was expected, with a
//! hint for the usual mistakes: the namespace already in `--base-url`, another namespace, no
//! REST root path.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::runner::send::describe_error;
use crate::runner::Endpoint;

/// The most of an answer pre-flight reads: a namespace index is far smaller.
const MAX_BODY: usize = 4 * 1024 * 1024;

/// The usual REST root path of the CMS, tried when `--base-url` has no path.
const USUAL_ROOT: &str = "/wp-json";

/// An answer, as far as pre-flight looks at it.
struct Answer {
    status: StatusCode,
    location: Option<String>,
    html: bool,
    json: Option<Value>,
    empty: bool,
}

impl Answer {
    /// The answer is the namespace index of `namespace`.
    fn is_index_of(&self, namespace: &str) -> bool {
        self.status == StatusCode::OK
            && self.json.as_ref().and_then(|j| j.get("namespace")).and_then(Value::as_str) == Some(namespace)
    }

    fn code(&self) -> Option<&str> {
        self.json.as_ref()?.get("code")?.as_str()
    }

    /// What the answer was, for the message: `404 with code rest_no_route`, `200 with an HTML page`.
    fn found(&self) -> String {
        let status = self.status.as_u16();
        let what = if let Some(code) = self.code() {
            format!("with code {code}")
        } else if let Some(location) = &self.location {
            format!("redirecting to {location}")
        } else if let Some(json) = &self.json {
            match json.get("namespace").and_then(Value::as_str) {
                Some(other) => format!("with the index of the namespace {other}"),
                None => "with JSON that is not a namespace index".to_string(),
            }
        } else if self.html {
            "with an HTML page".to_string()
        } else if self.empty {
            "with an empty body".to_string()
        } else {
            "with a body that is not JSON".to_string()
        };
        format!("{status} {what}")
    }
}

/// Sends a GET; `Err` is the one-line reason it could not be carried out.
async fn get(client: &Client, url: &str, auth: Option<(&str, &str)>) -> Result<Answer, String> {
    let mut request = client.get(url);
    if let Some((user, password)) = auth {
        request = request.basic_auth(user, Some(password));
    }
    let mut response = request.send().await.map_err(|e| describe_error(&e, url))?;
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let location = header("location");
    let content_type = header("content-type").unwrap_or_default().to_ascii_lowercase();
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| describe_error(&e, url))? {
        if body.len() + chunk.len() > MAX_BODY {
            break;
        }
        body.extend_from_slice(&chunk);
    }
    let text = String::from_utf8_lossy(&body);
    let start = text.trim_start();
    let html = content_type.contains("html") || start.starts_with('<');
    Ok(Answer { status, location, html, json: serde_json::from_str(start).ok(), empty: start.is_empty() })
}

/// A namespace in the REST root's `namespaces` list that looks like the one meant: the one with
/// the most segments in common with it, at least two (`tribe/events/v1` or `calendar/events/v2`
/// for `calendar/events/v1`; not `wp/v2`).
fn candidate(root: &Answer, namespace: &str) -> Option<String> {
    let list = root.json.as_ref()?.get("namespaces")?.as_array()?;
    let words: Vec<&str> = namespace.split('/').collect();
    let common = |other: &str| other.split('/').filter(|w| words.contains(w)).count();
    let mut best: Option<(usize, &str)> = None;
    for other in list.iter().filter_map(Value::as_str).filter(|n| *n != namespace) {
        let score = common(other);
        if score >= 2 && best.is_none_or(|(top, _)| score > top) {
            best = Some((score, other));
        }
    }
    best.map(|(_, other)| other.to_string())
}

/// A hint for the usual mistakes, found with at most two more requests.
async fn hint(client: &Client, endpoint: &Endpoint) -> Option<String> {
    let namespace = endpoint.namespace.trim_matches('/');
    let base = endpoint.base_url.trim_end_matches('/');
    if let Some(shorter) = base.strip_suffix(&format!("/{namespace}")) {
        return Some(format!("--base-url already ends with the namespace: give --base-url {shorter}"));
    }
    if let Ok(root) = get(client, &format!("{base}/"), None).await {
        if let Some(other) = candidate(&root, namespace) {
            return Some(format!(
                "the REST root {base}/ lists the namespace {other}: give --namespace {other} if that is the interface"
            ));
        }
    }
    let path = reqwest::Url::parse(base).map(|u| u.path().trim_matches('/').to_string()).unwrap_or_default();
    if path.is_empty() {
        let guess = format!("{base}{USUAL_ROOT}");
        if get(client, &format!("{guess}/{namespace}"), None).await.is_ok_and(|a| a.is_index_of(namespace)) {
            return Some(format!("the API answers under the REST root {USUAL_ROOT}: give --base-url {guess}"));
        }
        return Some(format!("--base-url has no REST root path (the CMS's is usually {USUAL_ROOT})"));
    }
    None
}

/// Checks that `endpoint` answers as an API root of this interface and accepts every
/// credential set; `Err` is one line to print before stopping.
pub async fn check(client: &Client, endpoint: &Endpoint) -> Result<(), String> {
    let namespace = endpoint.namespace.trim_matches('/');
    let url = endpoint.namespace_url();
    let answer =
        get(client, &url, None).await.map_err(|e| format!("pre-flight: cannot reach the implementation: {e}"))?;
    if !answer.is_index_of(namespace) {
        let mut message = format!(
            "pre-flight: GET {url} answered {}; expected 200 with the namespace index of {namespace} \
             (a JSON object whose \"namespace\" is \"{namespace}\"): check --base-url and --namespace",
            answer.found()
        );
        if let Some(hint) = hint(client, endpoint).await {
            message.push_str("; ");
            message.push_str(&hint);
        }
        return Err(message);
    }
    for (role, (user, password)) in &endpoint.credentials {
        let answer = get(client, &url, Some((user, password)))
            .await
            .map_err(|e| format!("pre-flight: cannot reach the implementation: {e}"))?;
        if matches!(answer.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            return Err(format!(
                "pre-flight: the credentials for {role} were refused: GET {url} as {user} answered {}: check --auth {role}=USER:PASSWORD",
                answer.found()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root(namespaces: Value) -> Answer {
        let json = Some(json!({ "namespaces": namespaces }));
        Answer { status: StatusCode::OK, location: None, html: false, json, empty: false }
    }

    #[test]
    fn a_likely_namespace_is_found_in_the_root_index() {
        let list = json!(["oembed/1.0", "tribe/events/v1", "tribe/views/v2", "wp/v2"]);
        assert_eq!(candidate(&root(list.clone()), "calendar/events/v1").as_deref(), Some("tribe/events/v1"));
        assert_eq!(candidate(&root(list.clone()), "tribe/events/v2").as_deref(), Some("tribe/events/v1"));
        assert_eq!(candidate(&root(list), "calendar/things/v3").as_deref(), None);
        assert_eq!(
            candidate(&root(json!(["wp/v2", "calendar/events/v1"])), "calendar/events/v2").as_deref(),
            Some("calendar/events/v1")
        );
        assert_eq!(
            candidate(&root(json!(["wp/v2", "calendar/v1"])), "calendar/events/v1").as_deref(),
            Some("calendar/v1")
        );
        assert_eq!(candidate(&root(json!(["calendar/events/v1"])), "calendar/events/v1"), None);
        assert_eq!(candidate(&root(json!("not a list")), "calendar/events/v1"), None);
    }

    #[test]
    fn what_was_found_is_said_in_a_few_words() {
        let answer = |status: u16, json: Option<Value>, html: bool| Answer {
            status: StatusCode::from_u16(status).unwrap(),
            location: None,
            html,
            json,
            empty: false,
        };
        assert_eq!(answer(404, Some(json!({"code": "rest_no_route"})), false).found(), "404 with code rest_no_route");
        assert_eq!(answer(404, None, true).found(), "404 with an HTML page");
        assert_eq!(
            answer(200, Some(json!({"namespace": "wp/v2"})), false).found(),
            "200 with the index of the namespace wp/v2"
        );
        assert_eq!(answer(200, Some(json!([1])), false).found(), "200 with JSON that is not a namespace index");
        assert!(answer(200, Some(json!({"namespace": "a/b"})), false).is_index_of("a/b"));
        assert!(!answer(201, Some(json!({"namespace": "a/b"})), false).is_index_of("a/b"));
    }
}
