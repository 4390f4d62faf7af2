//! Secrets: the passwords of the run's credentials, kept out of every report (terminal, JUnit,
//! JSON, HTML, repro scripts), as hurl does. A password shows as `***`; so does the
//! `Authorization: Basic` token made from it, wherever it appears (an echoed header, a body).
//! `--show-credentials` turns this off.

use base64::Engine;

/// What a secret is replaced by.
pub const MASK: &str = "***";

/// Shorter passwords are masked where they are a password (`-u user:***`, the JSON report's
/// `auth`) but not searched for in free text, where masking every `ab` would garble the
/// report.
const MIN_SEARCHED: usize = 4;

/// The secrets of a run.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Longest first, so that a secret inside another is not masked first.
    texts: Vec<String>,
    /// False with `--show-credentials`.
    active: bool,
}

impl Secrets {
    /// No masking (`--show-credentials`).
    pub fn shown() -> Secrets {
        Secrets { texts: Vec::new(), active: false }
    }

    /// The secrets of these credentials: (user, password).
    pub fn of<'a>(credentials: impl IntoIterator<Item = (&'a str, &'a str)>) -> Secrets {
        let mut texts = Vec::new();
        for (user, password) in credentials {
            if password.len() >= MIN_SEARCHED {
                texts.push(password.to_string());
            }
            texts.push(base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}")));
        }
        texts.sort_by_key(|t| std::cmp::Reverse(t.len()));
        texts.dedup();
        Secrets { texts, active: true }
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
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.texts {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), MASK);
            }
        }
        out
    }
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
        assert_eq!(secrets.redact("abc stays: too short to search for"), "abc stays: too short to search for");
        let shown = Secrets::shown();
        assert_eq!(shown.password("abc"), "abc");
        assert_eq!(shown.redact("editor-password"), "editor-password");
    }
}
