//! Secrets: the passwords of the run's credentials, kept out of every report (terminal, JUnit,
//! JSON, HTML, repro scripts) and out of `conformance diff`'s, as hurl does. `--show-credentials`
//! turns this off.
//!
//! What is masked (shown as `***`), for every password of the run, whatever its length, and
//! for the Basic token made from it (base64 of `user:password`) and the base64 of the password
//! alone:
//! - the text itself, wherever it appears, inside other words too (so a very short password
//!   masks parts of unrelated words: use passwords of 8 characters or more);
//! - the text with any of its characters written as a JSON string writes them (`\"`, `\\`,
//!   `\/`, `\n`…, `\u00e9` in either case), escaped once or several times over (a JSON text
//!   inside a JSON string);
//! - the text with any of its characters percent-encoded (`%22`, `%c3%a9`, in either case), a
//!   space also as `+`;
//! - the text with any of its characters written as an HTML character reference (`&quot;`,
//!   `&#34;`, `&#x22;`).
//!
//! The encodings may mix within one occurrence. A text the runner cut short (an excerpt ending
//! with `…`) that ends with the first 3 characters or more of a secret, in those forms, has that
//! start masked too. Other transformations of a password (another case, another base64 alphabet
//! or cut, a hash, a text split by the server) are not found.

use base64::Engine;
use regex::Regex;
use serde_json::Value;

/// What a secret is replaced by.
pub const MASK: &str = "***";

/// The secrets of a run.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// One pattern finding every secret in every encoding above; `None` when there is none.
    pattern: Option<Regex>,
    /// The start of a secret (3 characters or more) at the end of a text.
    cut_start: Option<Regex>,
    /// False with `--show-credentials`.
    active: bool,
}

impl Secrets {
    /// No masking (`--show-credentials`).
    pub fn shown() -> Secrets {
        Secrets { pattern: None, cut_start: None, active: false }
    }

    /// The secrets of these credentials: (user, password).
    pub fn of<'a>(credentials: impl IntoIterator<Item = (&'a str, &'a str)>) -> Secrets {
        let base64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
        let mut texts = Vec::new();
        for (user, password) in credentials {
            if !password.is_empty() {
                texts.push(password.to_string());
                texts.push(base64(password));
            }
            texts.push(base64(&format!("{user}:{password}")));
        }
        // Longest first, so that a secret inside another is not masked first.
        texts.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        texts.dedup();
        let alternatives: Vec<String> = texts.iter().map(|t| encoded(t)).collect();
        // The pattern is built from escaped pieces: it always compiles, unless it is too large
        // (passwords of many kilobytes), in which case plain texts are still masked.
        let pattern = Regex::new(&alternatives.join("|"))
            .or_else(|_| Regex::new(&texts.iter().map(|t| regex::escape(t)).collect::<Vec<_>>().join("|")))
            .ok();
        let starts: Vec<String> = texts.iter().filter_map(|t| encoded_start(t)).collect();
        let cut_start = Regex::new(&format!("(?:{})$", starts.join("|"))).ok().filter(|_| !starts.is_empty());
        Secrets { pattern: pattern.filter(|_| !texts.is_empty()), cut_start, active: true }
    }

    /// A password as a report shows it.
    pub fn password(&self, password: &str) -> String {
        if self.active {
            MASK.to_string()
        } else {
            password.to_string()
        }
    }

    /// `text` with every secret masked.
    /// `text` with every secret masked; when it ends with `…` (an excerpt), a secret's start
    /// just before it too.
    pub fn redact(&self, text: &str) -> String {
        let Some(pattern) = &self.pattern else {
            return text.to_string();
        };
        let out = pattern.replace_all(text, MASK).into_owned();
        match out.strip_suffix('…') {
            Some(before) => format!("{}…", self.cut_end(before)),
            None => out,
        }
    }

    /// A part of a longer text (`whole` false: it was cut at its end) with every secret masked,
    /// a secret's start at the cut too.
    pub fn redact_excerpt(&self, text: &str, whole: bool) -> String {
        let out = self.redact(text);
        if whole {
            out
        } else {
            self.cut_end(&out)
        }
    }

    /// `text` with the start of a secret at its very end masked.
    fn cut_end(&self, text: &str) -> String {
        match &self.cut_start {
            Some(start) => start.replace(text, MASK).into_owned(),
            None => text.to_string(),
        }
    }

    /// A JSON value with every string (and key) masked, whatever its place.
    pub fn redact_value(&self, value: Value) -> Value {
        if self.pattern.is_none() {
            return value;
        }
        match value {
            Value::String(text) => Value::String(self.redact(&text)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.redact_value(v)).collect()),
            Value::Object(entries) => {
                Value::Object(entries.into_iter().map(|(k, v)| (self.redact(&k), self.redact_value(v))).collect())
            }
            other => other,
        }
    }
}

/// The pattern of `text` in every encoding the module documents, character by character.
fn encoded(text: &str) -> String {
    let mut out = String::from("(?:");
    for c in text.chars() {
        out.push_str("(?:");
        out.push_str(&char_forms(c).join("|"));
        out.push(')');
    }
    out.push(')');
    out
}

/// The pattern of any start of `text` of 3 characters or more, in every encoding (nested
/// optional groups: `a b c (?: d (?: e)?)?`); `None` for a text of 3 characters or fewer (the
/// whole text is masked anyway) or one too long to nest.
fn encoded_start(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 3 || chars.len() > 200 {
        return None;
    }
    let group = |c: char| format!("(?:{})", char_forms(c).join("|"));
    let mut tail = String::new();
    for &c in chars[3..].iter().rev() {
        tail = format!("(?:{}{tail})?", group(c));
    }
    Some(format!("{}{}{}{tail}", group(chars[0]), group(chars[1]), group(chars[2])))
}

/// The forms one character may take.
fn char_forms(c: char) -> Vec<String> {
    let mut forms = vec![regex::escape(&c.to_string())];
    // Percent-encoded, byte by byte.
    let mut utf8 = [0; 4];
    forms.push(c.encode_utf8(&mut utf8).bytes().map(|b| format!("%{}", hex(u32::from(b), 2))).collect());
    if c == ' ' {
        forms.push(r"\+".into());
    }
    // JSON escapes, once or nested (each layer doubles the backslashes).
    let short = match c {
        '"' | '\\' | '/' => Some(regex::escape(&c.to_string())),
        '\u{8}' => Some("b".into()),
        '\u{c}' => Some("f".into()),
        '\n' => Some("n".into()),
        '\r' => Some("r".into()),
        '\t' => Some("t".into()),
        _ => None,
    };
    if let Some(short) = short {
        forms.push(format!(r"\\+{short}"));
    }
    let mut units = [0; 2];
    forms.push(c.encode_utf16(&mut units).iter().map(|u| format!(r"\\+u{}", hex(u32::from(*u), 4))).collect());
    // HTML character references.
    let code = c as u32;
    forms.push(format!("&#0*{code};"));
    forms.push(format!("&#[xX]0*{};", hex(code, 1)));
    let named = match c {
        '"' => Some("quot"),
        '&' => Some("amp"),
        '<' => Some("lt"),
        '>' => Some("gt"),
        '\'' => Some("apos"),
        _ => None,
    };
    if let Some(name) = named {
        forms.push(format!("&{name};"));
    }
    forms
}

/// `value` as hexadecimal digits (at least `width`), each letter matching either case.
fn hex(value: u32, width: usize) -> String {
    format!("{value:0width$x}")
        .chars()
        .map(|d| if d.is_ascii_digit() { d.to_string() } else { format!("[{d}{}]", d.to_ascii_uppercase()) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_their_basic_tokens_are_masked() {
        let secrets = Secrets::of([("editor", "editor-password"), ("x", "abc")]);
        assert_eq!(secrets.password("abc"), "***");
        assert_eq!(secrets.redact("a editor-password b"), "a *** b");
        assert_eq!(secrets.redact("Basic ZWRpdG9yOmVkaXRvci1wYXNzd29yZA=="), "Basic ***");
        let shown = Secrets::shown();
        assert_eq!(shown.password("abc"), "abc");
        assert_eq!(shown.redact("editor-password"), "editor-password");
    }

    #[test]
    fn h4_a_password_cut_short_by_an_excerpt_is_masked_too() {
        let secrets = Secrets::of([("ed", "Sup3r\"Secret")]);
        assert_eq!(secrets.redact("got \"xxSup3r\\\"Se…"), "got \"xx***…");
        assert_eq!(secrets.redact("got \"xxSup…"), "got \"xx***…");
        assert_eq!(secrets.redact("got \"xxSu…"), "got \"xxSu…", "2 characters are not enough to tell");
        assert_eq!(secrets.redact("got \"xxSup3r"), "got \"xxSup3r", "not cut: a word that starts the same");
        assert_eq!(secrets.redact_excerpt("{\"p\":\"Sup3r%22S", false), "{\"p\":\"***");
        let body = super::super::bounded_body(&format!("{}Sup3r", "x".repeat(65533)), 70_000, &secrets);
        assert!(body.ends_with("xx***\n… (cut: 70000 bytes in full)"), "{}", &body[65000..]);
    }

    #[test]
    fn h4_short_passwords_are_masked_too() {
        let secrets = Secrets::of([("x", "abc")]);
        assert_eq!(secrets.redact(r#"{"password":"abc"} ?p=abc"#), r#"{"password":"***"} ?p=***"#);
    }

    #[test]
    fn h4_escaped_and_encoded_passwords_are_masked() {
        let secrets = Secrets::of([("ed", "Sup3r\"Secret/Pass é")]);
        for text in [
            r#"Sup3r\"Secret\/Pass \u00e9"#,     // PHP's json_encode
            r#"Sup3r\"Secret/Pass \u00E9"#,      // upper-case hex
            r#"Sup3r\\\"Secret/Pass é"#,         // escaped twice
            "Sup3r%22Secret%2FPass%20%C3%A9",    // percent-encoded
            "Sup3r%22Secret/Pass+%c3%a9",        // a query string's form
            "Sup3r&quot;Secret&#47;Pass &#xe9;", // HTML
        ] {
            assert_eq!(secrets.redact(&format!("<{text}>")), "<***>", "{text}");
        }
        let token = base64::engine::general_purpose::STANDARD.encode("ed:Sup3r\"Secret/Pass é");
        assert_eq!(secrets.redact(&token.replace('/', "\\/")), "***", "{token}");
        let value = serde_json::json!({"kind": {"detail": {"url": "http://h/?p=Sup3r%22Secret%2FPass%20%C3%A9"}}});
        assert_eq!(secrets.redact_value(value).to_string(), r#"{"kind":{"detail":{"url":"http://h/?p=***"}}}"#);
    }
}
