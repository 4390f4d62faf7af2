//! What running a case produced: plain data that the report modules format.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

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

/// A request as it was sent, enough to reproduce it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SentRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// HTTP Basic credentials (user, password).
    pub auth: Option<(String, String)>,
    pub body: Option<String>,
}

/// One step (or one iteration of a repeated step) as it ran.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StepRecord {
    /// `steps[1]`, `cleanup[0]`, with ` index 2` for iterations.
    pub label: String,
    pub request: Option<SentRequest>,
    pub status: Option<u16>,
    pub body: Option<String>,
    pub mismatches: Vec<Mismatch>,
    /// Why the step could not be carried out.
    pub error: Option<String>,
    /// Why a cleanup step was skipped.
    pub skipped: Option<String>,
    /// The expected view of the `json` pattern and the actual body, when `json` mismatched.
    #[serde(skip)]
    pub diff: Option<(Value, Value)>,
}

impl StepRecord {
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
