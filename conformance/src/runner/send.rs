//! The transport phase: sends a request and reads the answer, never more than
//! `--max-response-size` of it, so that a misbehaving server cannot make the runner allocate
//! without bound; and reads an answer as JSON ([`parse_json`]) only when it holds at most
//! [`MAX_JSON_VALUES`] values, since a parsed value takes far more memory than its bytes (a
//! 60 MB `[0,0,…]` would be 30 million values of 72 bytes each, and more).

use std::net::SocketAddr;
use std::time::Duration;

use base64::Engine;
use hyper_util::client::legacy::connect::HttpInfo;
use reqwest::Client;

use crate::outcome::{SentRequest, StepError};

/// The most values (keys included) an answer may hold for the runner to parse it as JSON; a
/// parsed value takes up to about 150 bytes, so a parsed answer takes at most about 75 MB. The
/// answers of the reference server hold about 15,000 at most.
pub const MAX_JSON_VALUES: usize = 500_000;

/// Why an answer was not read as JSON.
#[derive(Debug)]
pub enum JsonRefusal {
    /// More than [`MAX_JSON_VALUES`] values: not parsed.
    TooManyValues,
    /// Not JSON: the parser's message.
    Syntax(serde_json::Error),
}

/// `text` parsed as JSON, unless it holds more than [`MAX_JSON_VALUES`] values (counted first
/// without allocating).
pub fn parse_json(text: &str) -> Result<serde_json::Value, JsonRefusal> {
    if !values_at_most(text, MAX_JSON_VALUES) {
        return Err(JsonRefusal::TooManyValues);
    }
    serde_json::from_str(text).map_err(JsonRefusal::Syntax)
}

/// Whether the JSON text holds at most `max` values and keys, counted without allocating as
/// the reference server counts a site's answers behind its proxy.
pub fn values_at_most(text: &str, max: usize) -> bool {
    reference_server::json_limit::values_at_most(text.as_bytes(), max)
}

/// An answer as the assertions need it.
pub struct Answer {
    pub status: u16,
    /// Header values of one name joined with `, `.
    pub headers: Vec<(String, String)>,
    /// The body as text; bytes that are not UTF-8 become U+FFFD (see `utf8_error`).
    pub text: String,
    /// The body's size in bytes.
    pub size: usize,
    /// Where the body stops being valid UTF-8 (a byte offset), when it does.
    pub utf8_error: Option<usize>,
}

/// A client for running cases: never follows redirects. Without `keep_alive` no connection is
/// kept for the next request (`--no-keep-alive`).
pub fn client(timeout: Duration, keep_alive: bool) -> Result<Client, String> {
    let builder = Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(timeout);
    let builder = if keep_alive { builder } else { builder.pool_max_idle_per_host(0) };
    builder.build().map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// What to check when the implementation dropped a connection: the usual cause is an earlier
/// answer on the same (kept-alive) connection that left it unusable.
const DROPPED_HINT: &str = "the implementation closed or reset the connection; if the case passes with \
--no-keep-alive, an earlier exchange on the same connection left it unusable (a request body not read \
to its end, a wrong Content-Length)";

/// The hint for a transport failure's detail, when it is a dropped connection.
fn dropped(detail: &str) -> Option<&'static str> {
    let lower = detail.to_ascii_lowercase();
    ["connection closed", "connection reset", "broken pipe", "incomplete message", "unexpected eof"]
        .iter()
        .any(|w| lower.contains(w))
        .then_some(DROPPED_HINT)
}

/// Sends `request`; reads at most `max_bytes` of the answer's body.
pub async fn send(client: &Client, request: &SentRequest, max_bytes: u64) -> Result<Answer, StepError> {
    send_on(client, request, max_bytes).await.0
}

/// [`send`], and the connection the exchange went on (its local address), when it is known:
/// that of the answer, or of the failure when the request got as far as a connection.
pub async fn send_on(
    client: &Client,
    request: &SentRequest,
    max_bytes: u64,
) -> (Result<Answer, StepError>, Option<SocketAddr>) {
    let url = request.url.clone();
    let builder = match build(client, request) {
        Ok(builder) => builder,
        Err(error) => return (Err(error), None),
    };
    let response = match builder.send().await {
        Ok(response) => response,
        Err(e) => return (Err(transport_error(&e, &url)), connection_of_error(&e)),
    };
    let connection = response.extensions().get::<HttpInfo>().map(HttpInfo::local_addr);
    (read(response, &url, max_bytes).await, connection)
}

/// The request as the client sends it: method, headers, credentials, body.
fn build(client: &Client, request: &SentRequest) -> Result<reqwest::RequestBuilder, StepError> {
    let method = reqwest::Method::from_bytes(request.method.as_bytes()).map_err(|_| StepError::Transport {
        url: request.url.clone(),
        detail: format!("`{}` is not an HTTP method", request.method),
    })?;
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
    Ok(builder)
}

/// Reads the answer: its status, its headers (the values of one name joined), at most
/// `max_bytes` of its body.
async fn read(mut response: reqwest::Response, url: &str, max_bytes: u64) -> Result<Answer, StepError> {
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
    let too_large = || StepError::TooLarge { url: url.to_string(), limit: max_bytes / (1024 * 1024) };
    if response.content_length().is_some_and(|length| length > max_bytes) {
        return Err(too_large());
    }
    // The announced size (bounded above) is reserved at once: no doubling on the way.
    let mut bytes = Vec::with_capacity(response.content_length().unwrap_or(0) as usize);
    while let Some(chunk) = response.chunk().await.map_err(|e| transport_error(&e, url))? {
        if (bytes.len() + chunk.len()) as u64 > max_bytes {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    let size = bytes.len();
    let (text, utf8_error) = match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(offset))
        }
    };
    Ok(Answer { status, headers, text, size, utf8_error })
}

/// The connection a failed request went on (its local address), when it got as far as one:
/// the client's error carries the connection's information.
fn connection_of_error(e: &reqwest::Error) -> Option<SocketAddr> {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if let Some(client_error) = s.downcast_ref::<hyper_util::client::legacy::Error>() {
            let connected = client_error.connect_info()?;
            let mut extensions = Default::default();
            connected.get_extras(&mut extensions);
            return extensions.get::<HttpInfo>().map(HttpInfo::local_addr);
        }
        source = s.source();
    }
    None
}

/// `error` with `note` (what went on its connection before) after its hint, when it is a
/// dropped connection; any other error as it is. The cause table groups by the first words,
/// which stay those of the failure and the hint.
pub(crate) fn with_connection_note(error: StepError, note: &str) -> StepError {
    match error {
        StepError::Transport { url, detail } if dropped(&detail).is_some() && detail.ends_with(')') => {
            StepError::Transport { url, detail: format!("{detail}; {note}") }
        }
        other => other,
    }
}

/// Whether a transport failure's detail is a dropped connection.
pub(crate) fn is_dropped_detail(detail: &str) -> bool {
    dropped(detail).is_some()
}

/// A request that could not be carried out: what failed, the address, the cause.
pub(crate) fn transport_error(e: &reqwest::Error, url: &str) -> StepError {
    let mut detail = String::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    let detail = detail.split_whitespace().collect::<Vec<_>>().join(" ");
    let url = url.to_string();
    if e.is_timeout() {
        StepError::Timeout { url }
    } else if e.is_connect() {
        StepError::Connect { url, detail }
    } else if e.is_builder() {
        StepError::Transport { url, detail: format!("could not build the request: {detail}") }
    } else {
        let detail = match dropped(&detail) {
            Some(hint) => format!("{detail} ({hint})"),
            None => detail,
        };
        StepError::Transport { url, detail }
    }
}

/// [`transport_error`] as one line, for pre-flight.
pub(crate) fn describe_error(e: &reqwest::Error, url: &str) -> String {
    transport_error(e, url).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h13_an_answer_of_too_many_values_is_not_parsed() {
        assert!(values_at_most(r#"{"a": [1, 2, {"b": "x,y:[{"}]}"#, 8));
        assert!(
            !values_at_most(r#"{"a": [1, 2, {"b": "x,y:[{"}]}"#, 7),
            "8 values: the object, a, the list, 1, 2, the object, b, its text"
        );
        assert!(values_at_most(r#""\",[,{,:""#, 1), "inside a string, escaped quote included");
        let huge = format!("{{\"events\":[{}0]}}", "0,".repeat(MAX_JSON_VALUES));
        assert!(matches!(parse_json(&huge), Err(JsonRefusal::TooManyValues)));
        let fine = format!("{{\"events\":[{}0]}}", "0,".repeat(MAX_JSON_VALUES - 10));
        assert_eq!(parse_json(&fine).unwrap()["events"].as_array().unwrap().len(), MAX_JSON_VALUES - 9);
        assert!(matches!(parse_json("{"), Err(JsonRefusal::Syntax(_))));
    }

    #[test]
    fn a_dropped_connection_says_what_to_check() {
        assert!(dropped("connection closed before message completed").unwrap().contains("--no-keep-alive"));
        assert!(dropped("Connection reset by peer (os error 104)").is_some());
        assert!(dropped("invalid HTTP version parsed").is_none());
    }
}
