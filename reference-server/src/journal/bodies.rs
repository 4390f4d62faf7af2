//! The bodies a journal entry keeps, served on demand: the first `MAX_BODY` bytes of the
//! request's and of the answer's, as text. Secrets never stay: the values of `password` (and
//! `_wpnonce`) fields of a JSON or form body (a request's or an answer's) are replaced, and a
//! request body of another kind that names a password is not kept at all. Headers (and so `Authorization`) are never kept.

use serde::Serialize;
use serde_json::Value;

/// The most bytes of each body an entry keeps.
pub const MAX_BODY: usize = 16 * 1024;

/// Fields whose values never stay (compared without case and without a `[...]` suffix).
const SECRET_FIELDS: &[&str] = &["password", "_wpnonce"];

/// One body as kept.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Kept {
    /// The body's first bytes as text (invalid UTF-8 replaced), secrets redacted.
    pub text: String,
    /// The whole body's length, in bytes.
    pub bytes: usize,
    /// The text is only the start of the body.
    pub truncated: bool,
    pub content_type: Option<String>,
    /// Secrets were taken out of the text (or the whole body was not kept for them).
    pub redacted: bool,
}

/// The bodies of one request.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Bodies {
    pub request: Option<Kept>,
    pub response: Option<Kept>,
}

impl Bodies {
    pub fn bytes(&self) -> usize {
        [&self.request, &self.response].iter().map(|kept| kept.as_ref().map_or(0, |kept| kept.text.capacity())).sum()
    }
}

/// A request body as the journal keeps it: redacted, then cut.
pub fn request(bytes: &[u8], content_type: Option<&str>) -> Kept {
    let kind = content_type.unwrap_or("").to_ascii_lowercase();
    let (text, redacted) = if kind.starts_with("application/json") || kind.contains("+json") {
        redact_json(bytes)
    } else if kind.starts_with("application/x-www-form-urlencoded") {
        let text = String::from_utf8_lossy(bytes);
        let redacted_text = crate::request_log::redact_pairs(&text);
        let changed = redacted_text != text;
        (redacted_text, changed)
    } else if names_a_secret(bytes) {
        ("[not kept: the body names a password]".to_string(), true)
    } else {
        (String::from_utf8_lossy(bytes).into_owned(), false)
    };
    cut(text, bytes.len(), content_type, redacted)
}

/// An answer's body as the journal keeps it: the interface's answers hold no secrets, but a
/// stub's may, so a JSON answer that names one is redacted as a request is.
pub fn response(bytes: &[u8], content_type: Option<&str>) -> Kept {
    let json = content_type.is_some_and(|kind| kind.to_ascii_lowercase().contains("json"));
    let (text, redacted) = match json && names_a_secret(bytes) {
        true => redact_json(bytes),
        false => (String::from_utf8_lossy(bytes).into_owned(), false),
    };
    cut(text, bytes.len(), content_type, redacted)
}

fn cut(mut text: String, total: usize, content_type: Option<&str>, redacted: bool) -> Kept {
    let truncated = text.len() > MAX_BODY;
    if truncated {
        let mut end = MAX_BODY;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text.shrink_to_fit();
    let content_type = content_type.map(|kind| kind.chars().take(200).collect());
    Kept { text, bytes: total, truncated, content_type, redacted }
}

fn names_a_secret(bytes: &[u8]) -> bool {
    let lower = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    SECRET_FIELDS.iter().any(|secret| lower.contains(secret))
}

/// A JSON body with its secret fields' values replaced (as written when none is there); a body
/// that is not JSON but names a password is not kept.
fn redact_json(bytes: &[u8]) -> (String, bool) {
    let Ok(mut value) = serde_json::from_slice::<Value>(bytes) else {
        if names_a_secret(bytes) {
            return ("[not kept: the body is not JSON and names a password]".to_string(), true);
        }
        return (String::from_utf8_lossy(bytes).into_owned(), false);
    };
    if !redact_value(&mut value) {
        return (String::from_utf8_lossy(bytes).into_owned(), false);
    }
    (serde_json::to_string(&value).unwrap_or_default(), true)
}

/// Replaces the values of secret fields at any depth; whether there were any.
fn redact_value(value: &mut Value) -> bool {
    match value {
        Value::Object(map) => {
            let mut found = false;
            for (key, value) in map.iter_mut() {
                let name = key.split('[').next().unwrap_or("").trim().to_ascii_lowercase();
                if SECRET_FIELDS.contains(&name.as_str()) {
                    *value = Value::String("[redacted]".to_string());
                    found = true;
                } else {
                    found |= redact_value(value);
                }
            }
            found
        }
        Value::Array(items) => items.iter_mut().fold(false, |found, item| redact_value(item) | found),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_stay() {
        let json = request(br#"{"title":"T","password":"s3cret","x":[{"Password":"p2"}]}"#, Some("application/json"));
        assert!(json.redacted && !json.text.contains("s3cret") && !json.text.contains("p2"), "{}", json.text);
        assert!(json.text.contains("\"title\":\"T\""));
        let form = request(b"title=T&password=s3cret", Some("application/x-www-form-urlencoded"));
        assert_eq!(form.text, "title=T&password=[redacted]");
        let broken = request(b"{\"password\": \"s3cret\"", Some("application/json"));
        assert!(!broken.text.contains("s3cret"));
        let other = request(b"--b\r\nname=\"password\"\r\n\r\ns3cret", Some("multipart/form-data; boundary=b"));
        assert!(!other.text.contains("s3cret"));
        let answer = response(br#"{"password":"s3cret","note":"password"}"#, Some("application/json; charset=UTF-8"));
        assert_eq!((answer.text.as_str(), answer.redacted), (r#"{"password":"[redacted]","note":"password"}"#, true));
        let plain = request(br#"{ "title": "T" }"#, Some("application/json"));
        assert_eq!((plain.text.as_str(), plain.redacted), (r#"{ "title": "T" }"#, false));
    }

    #[test]
    fn bodies_are_cut() {
        let long = "é".repeat(MAX_BODY);
        let kept = response(long.as_bytes(), None);
        assert!(kept.truncated && kept.text.len() <= MAX_BODY && kept.bytes == long.len());
        assert!(!response(b"{}", None).truncated);
    }
}
