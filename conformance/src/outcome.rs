//! What running a case produced: plain data that the report modules format.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use crate::diff::Diff;
use crate::matcher::Mismatch;
use crate::model::Level;

/// How a case ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", content = "reason", rename_all = "lowercase")]
pub enum Outcome {
    Passed,
    /// The implementation answered, and the answer did not match.
    Failed,
    /// The case could not be carried out: network failure, timeout, template error, bad file.
    Error(String),
    /// Not run: a required feature is absent.
    Skipped(String),
}

impl Outcome {
    pub fn is_success(&self) -> bool {
        matches!(self, Outcome::Passed | Outcome::Skipped(_))
    }

    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Error(_) => "error",
            Outcome::Skipped(_) => "skipped",
        }
    }
}

/// Why a step could not be carried out (as opposed to an answer that did not match).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "kebab-case")]
pub enum StepError {
    /// A template could not be filled in (a missing key, a value that is not a list, ...).
    Template(String),
    /// The case sends credentials the run does not have.
    Credentials(String),
    /// The request timed out.
    Timeout { url: String },
    /// No connection to the server.
    Connect { url: String, detail: String },
    /// The request failed otherwise (sending, or reading the answer).
    Transport { url: String, detail: String },
    /// The answer's body is larger than `--max-response-size`.
    TooLarge { url: String, limit: u64 },
    /// Before the case: the reset command or the embedded server failed.
    Setup(String),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StepError::Template(message) => write!(f, "template error: {message}"),
            StepError::Credentials(message) | StepError::Setup(message) => f.write_str(message),
            StepError::Timeout { url } => write!(f, "timed out: {url}"),
            StepError::Connect { url, detail } => write!(f, "could not connect: {url}: {detail}"),
            StepError::Transport { url, detail } => write!(f, "request failed: {url}: {detail}"),
            StepError::TooLarge { url, limit } => write!(
                f,
                "the answer of {url} is larger than {limit} MiB: it was not read further (raise --max-response-size)"
            ),
        }
    }
}

/// A request as it was sent, enough to reproduce it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SentRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// HTTP Basic credentials (user, password). Reports show the password as `***` unless
    /// `--show-credentials`.
    pub auth: Option<(String, String)>,
    /// The credential name the case used (`editor`, `editor:wrong-password`), for scripts
    /// that take the password from a variable.
    pub auth_name: Option<String>,
    pub body: Option<String>,
}

/// A request as a report keeps it: its body compacted ([`KeptBody`]) so that a step that sent
/// a 64 MiB filler does not keep 64 MiB.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeptRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub auth: Option<(String, String)>,
    pub auth_name: Option<String>,
    pub body: Option<KeptBody>,
}

impl From<SentRequest> for KeptRequest {
    fn from(r: SentRequest) -> KeptRequest {
        KeptRequest {
            method: r.method,
            url: r.url,
            headers: r.headers,
            auth: r.auth,
            auth_name: r.auth_name,
            body: r.body.as_deref().map(KeptBody::new),
        }
    }
}

/// A body kept in a bounded form: pieces of text, a long run of one ASCII character stored as
/// the character and its count (what `{{filler(N)}}` makes), the whole cut at
/// [`KeptBody::MAX_TEXT`] bytes of text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeptBody {
    /// (text, times): the text repeated that many times (1 for plain text).
    pub parts: Vec<(String, usize)>,
    /// The full size in bytes.
    pub size: usize,
    /// False when the text was cut at [`KeptBody::MAX_TEXT`].
    pub complete: bool,
}

impl KeptBody {
    /// The most bytes of text kept (runs aside).
    pub const MAX_TEXT: usize = 256 * 1024;
    /// The shortest run kept as a character and a count.
    const MIN_RUN: usize = 1024;

    pub fn new(text: &str) -> KeptBody {
        let bytes = text.as_bytes();
        let mut parts: Vec<(String, usize)> = Vec::new();
        let mut kept = 0;
        let mut start = 0; // of the current plain text
        let mut i = 0;
        let mut complete = true;
        while i < bytes.len() {
            let b = bytes[i];
            let mut end = i + 1;
            while end < bytes.len() && bytes[end] == b {
                end += 1;
            }
            if b.is_ascii() && end - i >= Self::MIN_RUN {
                if start < i {
                    kept += i - start;
                    parts.push((text[start..i].to_string(), 1));
                }
                parts.push(((b as char).to_string(), end - i));
                start = end;
            } else if kept + (end - start) > Self::MAX_TEXT {
                complete = false;
                break;
            }
            i = end;
        }
        if complete && start < bytes.len() {
            parts.push((text[start..].to_string(), 1));
        } else if !complete {
            let mut cut = Self::MAX_TEXT.saturating_sub(kept).min(bytes.len() - start) + start;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            parts.push((text[start..cut].to_string(), 1));
        }
        KeptBody { parts, size: bytes.len(), complete }
    }

    /// The first `max` bytes of the body, and whether that is all of it.
    pub fn excerpt(&self, max: usize) -> (String, bool) {
        let mut out = String::new();
        for (text, times) in &self.parts {
            for _ in 0..*times {
                if out.len() + text.len() > max {
                    let mut cut = max - out.len();
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    out.push_str(&text[..cut]);
                    return (out, false);
                }
                out.push_str(text);
            }
        }
        (out, self.complete)
    }
}

/// One step (or one iteration of a repeated step) as it ran.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StepRecord {
    /// `steps[1]`, `cleanup[0]`, with ` index 2` for iterations.
    pub label: String,
    pub request: Option<KeptRequest>,
    pub status: Option<u16>,
    /// The answer's body as text (bytes that are not UTF-8 shown as U+FFFD), its first
    /// [`StepRecord::MAX_BODY`] bytes; reports cut it further.
    pub body: Option<String>,
    /// The body's full size in bytes, kept when the body itself is dropped or cut.
    pub body_size: usize,
    pub mismatches: Vec<Mismatch>,
    /// Why the step could not be carried out.
    pub error: Option<StepError>,
    /// Why a cleanup step was skipped.
    pub skipped: Option<String>,
    /// The diff of the expected view of the `json` pattern and the actual body, when `json`
    /// mismatched.
    pub diff: Option<Diff>,
    /// Whether the step checks more than its status (headers, the body, captures, the
    /// implementation's document): a `--repro` script, which judges only the status, then
    /// cannot say the step is fixed.
    #[serde(skip)]
    pub checks_beyond_status: bool,
    /// What of the step's `assume` (a precondition the interface does not promise) did not
    /// hold: the case is then skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmet: Option<String>,
}

impl StepRecord {
    /// The most bytes of an answer's body a record keeps.
    pub const MAX_BODY: usize = 256 * 1024;

    pub fn ok(&self) -> bool {
        self.mismatches.is_empty() && self.error.is_none()
    }
}

/// Everything known about one case after it ran.
#[derive(Clone, Debug, Serialize)]
pub struct CaseReport {
    pub name: String,
    pub file: String,
    /// `None` for a file that could not be loaded.
    pub level: Option<Level>,
    pub spec: Vec<String>,
    pub tags: Vec<String>,
    #[serde(flatten)]
    pub outcome: Outcome,
    #[serde(serialize_with = "seconds")]
    pub duration: Duration,
    /// The steps that ran; the last one failed when the case failed.
    pub steps: Vec<StepRecord>,
    pub cleanup: Vec<StepRecord>,
    /// Set by `--expectations`: the case is listed as known to fail.
    pub expected_failure: bool,
    /// The embedded reference server the case ran against, as it was started (for `--repro`).
    pub server: Option<ServerRecord>,
}

/// How an embedded reference server was started: enough to start the same one again.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServerRecord {
    /// `127.0.0.1:PORT`.
    pub listen: String,
    pub namespace: String,
    pub language_param: String,
    /// Features it was started without (those of `--without` the reference server can drop).
    pub without: Vec<String>,
    /// The plugin's quirks it reproduced (`--quirk`, `--like`); empty for the reference.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quirks: Vec<String>,
    /// The instant its clock started at, RFC 3339.
    pub clock: String,
    /// Its users: (name, password, role); the reference server's defaults.
    pub users: Vec<(String, String, String)>,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl CaseReport {
    /// The step that failed the case, if any.
    pub fn failed_step(&self) -> Option<&StepRecord> {
        self.steps.iter().rev().find(|s| !s.ok())
    }

    /// Cleanup steps that did not go well (shown, never failing the case).
    pub fn cleanup_problems(&self) -> impl Iterator<Item = &StepRecord> {
        self.cleanup.iter().filter(|s| !s.ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filler_body_is_kept_as_a_run_and_a_huge_text_is_cut() {
        let body = format!("{{\"d\":\"{}\"}}", "x".repeat(9_000_000));
        let kept = KeptBody::new(&body);
        assert!(kept.complete);
        assert_eq!(
            kept.parts,
            vec![("{\"d\":\"".to_string(), 1), ("x".to_string(), 9_000_000), ("\"}".to_string(), 1)]
        );
        assert_eq!(kept.size, body.len());
        assert_eq!(kept.excerpt(10), ("{\"d\":\"xxxx".to_string(), false));
        let text: String = (0..400_000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let kept = KeptBody::new(&text);
        assert!(!kept.complete);
        assert_eq!(kept.parts.iter().map(|(t, n)| t.len() * n).sum::<usize>(), KeptBody::MAX_TEXT);
        assert_eq!(kept.size, 400_000);
    }
}
