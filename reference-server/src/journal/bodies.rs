//! The bodies a journal entry keeps, served on demand: the first `MAX_BODY` bytes of the
//! request's and of the answer's, as text. Secrets never stay: the values of `password` (and
//! `_wpnonce`) fields of a JSON or form body (a request's or an answer's) are replaced, and a
//! request body of another kind that names a password is not kept at all. Headers (and so `Authorization`) are never kept.

use serde::Serialize;
use serde_json::Value;

/// The most bytes of each body an entry keeps.
pub const MAX_BODY: usize = 16 * 1024;

/// Fields whose values never stay (compared without case, at any depth of a nested name:
/// `password[]`, `event[password]`).
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

/// Text kept of a body: the text, whether it stops before the body's end, whether secrets
/// were taken out.
struct Text {
    text: String,
    short: bool,
    redacted: bool,
}

impl Text {
    fn whole(text: impl Into<String>, redacted: bool) -> Text {
        Text { text: text.into(), short: false, redacted }
    }
}

/// A request body as the journal keeps it: redacted, then cut.
pub fn request(bytes: &[u8], content_type: Option<&str>) -> Kept {
    let kind = content_type.unwrap_or("").to_ascii_lowercase();
    let text = if kind.starts_with("application/json") || kind.contains("+json") {
        redact_json(bytes)
    } else if kind.starts_with("application/x-www-form-urlencoded") {
        // Only the start is kept: a pair cut at its end is cut inside its value, if at all.
        let start = start_of(bytes);
        let text = crate::request_log::redact_pairs(&start.text);
        Text { redacted: text != start.text, text, short: start.short }
    } else if names_a_secret(bytes) {
        Text::whole("[not kept: the body names a password]", true)
    } else {
        start_of(bytes)
    };
    cut(text, bytes.len(), content_type)
}

/// An answer's body as the journal keeps it: the interface's answers hold no secrets, but a
/// stub's may, so a JSON answer that names one is redacted as a request is (answers are
/// written by the server, which escapes no letter of a key).
pub fn response(bytes: &[u8], content_type: Option<&str>) -> Kept {
    let json = content_type.is_some_and(|kind| kind.to_ascii_lowercase().contains("json"));
    let text = if json && names_a_secret(bytes) { redact_json(bytes) } else { start_of(bytes) };
    cut(text, bytes.len(), content_type)
}

/// What replaces a secret in a kept text.
const MASK: &str = "[redacted]";

/// Masks `secrets` (credentials a request carried: a password, a token) wherever the kept text
/// repeats them: as written, written inside a JSON string, or percent-encoded. Empty secrets
/// are skipped; longer ones go first, so that one inside another is not masked first.
pub fn mask(kept: &mut Kept, secrets: &[String]) {
    let mut forms: Vec<String> = Vec::new();
    for secret in secrets.iter().filter(|secret| !secret.is_empty()) {
        let json = serde_json::to_string(secret).unwrap_or_default();
        let percent = percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC).to_string();
        let inside = json.get(1..json.len().saturating_sub(1)).unwrap_or("").to_string();
        forms.extend([secret.clone(), inside, percent]);
    }
    forms.retain(|form| !form.is_empty());
    forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
    forms.dedup();
    for form in &forms {
        if kept.text.contains(form.as_str()) {
            kept.text = kept.text.replace(form.as_str(), MASK);
            kept.redacted = true;
        }
    }
    if kept.truncated {
        mask_cut_start(kept, &forms);
    }
}

/// A kept text cut short that ends with the start of a secret (3 characters or more) has that
/// start masked too: the rest of the secret is in the part not kept.
fn mask_cut_start(kept: &mut Kept, forms: &[String]) {
    let cut = forms
        .iter()
        .flat_map(|form| form.char_indices().skip(3).map(|(at, _)| &form[..at]).chain([form.as_str()]))
        .filter(|start| start.chars().count() >= 3 && kept.text.ends_with(*start))
        .map(str::len)
        .max();
    if let Some(length) = cut {
        kept.text.truncate(kept.text.len() - length);
        kept.text.push_str(MASK);
        kept.redacted = true;
    }
}

/// The first `MAX_BODY` bytes as text (not copying the rest), ending at a character's end.
fn start_of(bytes: &[u8]) -> Text {
    let mut end = bytes.len().min(MAX_BODY);
    if end < bytes.len() {
        if let Err(error) = std::str::from_utf8(&bytes[..end]) {
            if error.error_len().is_none() {
                end = error.valid_up_to();
            }
        }
    }
    let text = String::from_utf8_lossy(&bytes[..end]).into_owned();
    Text { text, short: end < bytes.len(), redacted: false }
}

/// Cuts the text at `MAX_BODY` bytes (replacement characters may have made it longer).
fn cut(kept: Text, total: usize, content_type: Option<&str>) -> Kept {
    let Text { mut text, mut short, redacted } = kept;
    if text.len() > MAX_BODY {
        let mut end = MAX_BODY;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        short = true;
    }
    text.shrink_to_fit();
    let content_type = content_type.map(|kind| kind.chars().take(200).collect());
    Kept { text, bytes: total, truncated: short, content_type, redacted }
}

/// Whether the body names a secret field anywhere (any case), without copying it.
fn names_a_secret(bytes: &[u8]) -> bool {
    SECRET_FIELDS
        .iter()
        .any(|secret| bytes.windows(secret.len()).any(|window| window.eq_ignore_ascii_case(secret.as_bytes())))
}

/// A JSON body with its secret fields' values replaced (its start as written when none is
/// there; the whole is parsed, so an escaped key is found too); a body that is not JSON but
/// names a password is not kept.
fn redact_json(bytes: &[u8]) -> Text {
    // Parsed within a bound (a site's answer behind the proxy may be huge): past it, the text
    // counts as unread.
    let Ok(mut value) = crate::json_limit::parse(bytes, crate::json_limit::MAX_VALUES) else {
        // Unread, an escaped key (`pass\u0077ord`) could be a password too.
        if names_a_secret(bytes) || bytes.windows(2).any(|pair| pair == b"\\u") {
            return Text::whole("[not kept: the body is not JSON and names a password]", true);
        }
        return start_of(bytes);
    };
    if !redact_value(&mut value) {
        return start_of(bytes);
    }
    Text::whole(serde_json::to_string(&value).unwrap_or_default(), true)
}

/// Replaces the values of secret fields at any depth; whether there were any.
fn redact_value(value: &mut Value) -> bool {
    match value {
        Value::Object(map) => {
            let mut found = false;
            for (key, value) in map.iter_mut() {
                let name = key.to_ascii_lowercase();
                if name.split(['[', ']']).any(|part| SECRET_FIELDS.contains(&part.trim())) {
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
    fn forwarded_secrets_are_masked() {
        let secrets = ["Pa ss\"w0rd".to_string(), "dG9rZW4=".to_string(), String::new()];
        let text = r#"{"a":"Pa ss\"w0rd","b":"Pa%20ss%22w0rd","c":"Basic dG9rZW4=","d":"Pa ss"w0rd"}"#;
        let mut kept = response(text.as_bytes(), Some("application/json"));
        mask(&mut kept, &secrets);
        assert_eq!(kept.text, r#"{"a":"[redacted]","b":"[redacted]","c":"Basic [redacted]","d":"[redacted]"}"#);
        assert!(kept.redacted);
        // A secret cut at the end of the kept text: its start is masked.
        let long = format!("{}Pa ss\"w0rd", "x".repeat(MAX_BODY - 5));
        let mut cut = response(long.as_bytes(), None);
        mask(&mut cut, &secrets);
        assert!(
            cut.truncated && cut.text.ends_with("x[redacted]") && !cut.text.contains("Pa s"),
            "{}",
            &cut.text[MAX_BODY - 20..]
        );
        let mut plain = response(b"nothing here", None);
        mask(&mut plain, &secrets);
        assert_eq!((plain.text.as_str(), plain.redacted), ("nothing here", false));
    }

    #[test]
    fn bodies_are_cut() {
        let long = "é".repeat(MAX_BODY);
        let kept = response(long.as_bytes(), None);
        assert!(kept.truncated && kept.text.len() <= MAX_BODY && kept.bytes == long.len());
        assert!(!response(b"{}", None).truncated);
        let exact = "x".repeat(MAX_BODY);
        assert!(!response(exact.as_bytes(), None).truncated);
        // A character cut in two at the end is left out whole.
        let split = format!("{}é", "x".repeat(MAX_BODY - 1));
        let kept = response(split.as_bytes(), None);
        assert!(kept.truncated && kept.text.len() == MAX_BODY - 1 && !kept.text.contains('\u{FFFD}'));
        for escaped in [&br#"{"pass\u0077ord":"s3cret"}"#[..], br#"{"pass\u0077ord":"s3cret""#] {
            let kept = request(escaped, Some("application/json"));
            assert!(kept.redacted && !kept.text.contains("s3cret"), "{}", kept.text);
        }
    }
}
