//! The capture phase: the values a step keeps for later steps, from the JSON body (a JSONPath)
//! or a header.

use serde_json::Value;

use super::send::Answer;
use crate::env::Env;
use crate::matcher::Mismatch;
use crate::model::{Capture, Step};
use crate::outcome::StepError;
use crate::yaml::Pos;

/// What the captures of a step gave.
#[derive(Default)]
pub struct Captured {
    pub values: Vec<(String, Value)>,
    /// A capture that found nothing is a mismatch: later steps would use a value that is not there.
    pub mismatches: Vec<Mismatch>,
    pub error: Option<StepError>,
}

/// Runs the captures of `step` on the answer (`json` is its body, when it parsed).
pub fn capture(step: &Step, env: &Env, answer: &Answer, json: Option<&Value>) -> Captured {
    let mut out = Captured::default();
    for (name, capture) in &step.capture {
        let missing = |expected: String, actual: &str| Mismatch {
            path: format!("capture {name}"),
            expected,
            actual: actual.to_string(),
            at: Pos::NONE,
        };
        match capture {
            Capture::Header(header) => match answer.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(header)) {
                Some((_, value)) => out.values.push((name.clone(), Value::String(value.clone()))),
                None => out.mismatches.push(missing(format!("a `{header}` header"), "no such header")),
            },
            Capture::Path(path) => {
                let Some(body) = json else { continue };
                let compiled = match path.resolve(env) {
                    Ok(compiled) => compiled,
                    Err(e) => {
                        out.error.get_or_insert(StepError::Template(e));
                        continue;
                    }
                };
                let nodes = compiled.query(body).all();
                match nodes.len() {
                    0 => out.mismatches.push(missing(format!("`{}` to select a value", path.source), "nothing")),
                    1 => out.values.push((name.clone(), nodes[0].clone())),
                    _ => out.values.push((name.clone(), Value::Array(nodes.into_iter().cloned().collect()))),
                }
            }
        }
    }
    out
}
