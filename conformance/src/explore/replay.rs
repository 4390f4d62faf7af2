//! Whether a written case replays: run as `conformance --cases DIR --base-url URL` would run
//! it, it must fail on the implementation and pass on the embedded reference server. A case
//! that does not (it pins something of the run, or the difference came from the run's history)
//! is not offered as a shrunk case.

use chrono::{DateTime, Utc};
use reqwest::Client;

use super::lockstep::{Side, MAX_RESPONSE};
use crate::model::Loaded;
use crate::outcome::Outcome;
use crate::runner::{run_case, CaseContext, Settings};

/// Why a case does not replay, or `Ok` when it fails on the implementation (A) and passes on
/// the reference server (B). What a replay creates on the implementation is swept as a run
/// sweeps it (the case has no cleanup steps).
pub async fn check(
    case_text: &str,
    sides: [&Side; 2],
    client: &Client,
    now: DateTime<Utc>,
    word: &str,
) -> Result<(), String> {
    let case = match crate::loader::load_source("explore", "explore.yaml", case_text) {
        Loaded::File(mut file) if file.cases.len() == 1 => file.cases.remove(0),
        Loaded::File(_) => return Err("the written file does not hold one case".to_string()),
        Loaded::Error(error) => {
            let first = error.errors.first().map(|e| e.message.clone()).unwrap_or_default();
            return Err(format!("the written case does not load: {first}"));
        }
    };
    let mut outcomes = Vec::new();
    for (k, side) in sides.iter().enumerate() {
        let settings = Settings { max_response: MAX_RESPONSE, sweep: k == 0, disposable: false, ..Settings::default() };
        let ctx = CaseContext { run_id: word.to_string(), case_id: format!("{word}{k}"), now };
        outcomes.push(run_case(&case, &side.endpoint, client, &ctx, &settings).await.outcome);
    }
    match (&outcomes[0], &outcomes[1]) {
        (Outcome::Failed, Outcome::Passed) => Ok(()),
        (a, b) => Err(format!("replayed, it {} on the implementation and {} on the reference", said(a), said(b))),
    }
}

fn said(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Passed => "passes".to_string(),
        Outcome::Failed => "fails".to_string(),
        Outcome::Error(e) => format!("cannot run ({})", crate::show::cut(e, 80)),
        Outcome::Skipped(e) => format!("is skipped ({})", crate::show::cut(e, 80)),
    }
}
