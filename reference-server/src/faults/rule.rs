//! A fault rule as a client writes it: JSON through the admin API, or `key=value,…` after
//! `--fault` on the command line (the same keys; see the README).

use std::time::Duration;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a rule does to the requests it picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Waits before (or after) handling the request.
    Latency,
    /// Answers an error in the CMS's envelope instead of (or after) handling the request.
    Error,
    /// Closes the connection without an answer, before (or after) handling the request.
    Drop,
    /// Sends the answer's body a few bytes at a time.
    Slow,
}

/// Whether a fault strikes before the request is handled (the store is untouched) or after
/// (a write has happened, and its answer is lost or late).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum When {
    #[default]
    Before,
    After,
}

/// A delay: a fixed number of milliseconds, or a range drawn from for each request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Millis {
    Fixed(u64),
    Range([u64; 2]),
}

/// A rule as written, checked by [`RuleSpec::check`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    pub kind: Kind,
    /// Requests whose path (inside the namespace: `/events/12`; else the whole path) matches
    /// this pattern: `*` is any text, `<id>` digits, `<slug>` one segment. Default: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// `GET`, `POST`… or several (`GET,POST`). Default: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The share of matching requests the rule strikes, 0 to 1, or a percentage (`"5%"`), read
    /// by one parser whether it comes from the command line or the admin API.
    #[serde(default = "always", deserialize_with = "rate")]
    pub rate: f64,
    /// The seed of the rule's draws; default: `--fault-seed` plus the rule's ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default)]
    pub when: When,
    /// Latency: how long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<Millis>,
    /// Error: the HTTP status (400 to 599).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Error: the envelope's `code` and `message` (defaults per status).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Error: a `Retry-After` header, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u32>,
    /// Slow body: bytes per chunk and the wait before each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_bytes: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_delay_ms: Option<u64>,
}

fn always() -> f64 {
    1.0
}

/// A rate as JSON gives it: a number, or a text (`"5%"`, `"0.05"`) read by `rate_of`.
fn rate<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Number(number) => number.as_f64().ok_or_else(|| serde::de::Error::custom(rate_expected(&number))),
        Value::String(text) => rate_of(&text).map_err(serde::de::Error::custom),
        other => Err(serde::de::Error::custom(rate_expected(&other))),
    }
}

/// A rate written as text: a share (`0.05`) or a percentage (`5%`).
fn rate_of(text: &str) -> Result<f64, String> {
    let trimmed = text.trim();
    let share = match trimmed.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f64>().map(|percent| percent / 100.0),
        None => trimmed.parse::<f64>(),
    };
    share.map_err(|_| rate_expected(&text))
}

fn rate_expected(got: &dyn std::fmt::Debug) -> String {
    format!("rate: expected a share from 0 to 1 or a percentage (5%), got {got:?}")
}

/// The longest wait a rule may ask for (per delay, per chunk).
pub const MAX_DELAY_MS: u64 = 600_000;

impl RuleSpec {
    /// Parses a rule from JSON, checked.
    pub fn from_json(value: Value) -> Result<RuleSpec, String> {
        let spec: RuleSpec = serde_json::from_value(value).map_err(|error| error.to_string())?;
        spec.check()?;
        Ok(spec)
    }

    /// Parses the command line's form: `kind=error,status=503,rate=5%,route=/events*`. The kind
    /// may come first without its key (`latency,ms=100-300`).
    pub fn from_flag(text: &str) -> Result<RuleSpec, String> {
        let mut object = Map::new();
        for (index, piece) in text.split(',').map(str::trim).filter(|piece| !piece.is_empty()).enumerate() {
            let (key, value) = match piece.split_once('=') {
                Some((key, value)) => (key.trim(), value.trim()),
                None if index == 0 => ("kind", piece),
                None => return Err(format!("expected KEY=VALUE, got {piece:?}")),
            };
            object.insert(key.to_string(), flag_value(key, value)?);
        }
        RuleSpec::from_json(Value::Object(object)).map_err(|error| format!("fault {text:?}: {error}"))
    }

    /// Checks what serde cannot: the fields the kind needs, and their bounds.
    pub fn check(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.rate) || self.rate.is_nan() {
            return Err(format!("rate must be between 0 and 1 (or 0% and 100%), got {}", self.rate));
        }
        if let Some(route) = &self.route {
            pattern(route)?;
        }
        if let Some(method) = &self.method {
            if method.len() > 64 || method.split(',').any(|m| m.trim().is_empty()) {
                return Err(format!("method must be a method or a comma list of them, got {method:?}"));
            }
        }
        let unused = |name: &str, given: bool| {
            if given {
                Err(format!("{name} does not apply to a {:?} rule", self.kind).to_lowercase())
            } else {
                Ok(())
            }
        };
        match self.kind {
            Kind::Latency => {
                match self.ms {
                    None => return Err("a latency rule needs ms (a number, or [min, max])".to_string()),
                    Some(Millis::Fixed(ms)) if ms > MAX_DELAY_MS => return Err(too_long(ms)),
                    Some(Millis::Range([low, high])) if low > high || high > MAX_DELAY_MS => {
                        return Err(format!("ms range must be [min, max] with min ≤ max ≤ {MAX_DELAY_MS}"))
                    }
                    _ => {}
                }
                unused("status", self.status.is_some())?;
                unused("chunk_bytes", self.chunk_bytes.is_some())?;
            }
            Kind::Error => {
                match self.status {
                    Some(400..=599) => {}
                    Some(other) => return Err(format!("status must be 400 to 599, got {other}")),
                    None => return Err("an error rule needs status (400 to 599)".to_string()),
                }
                if self.code.as_ref().is_some_and(|code| code.is_empty() || code.len() > 100) {
                    return Err("code must be 1 to 100 characters".to_string());
                }
                if self.message.as_ref().is_some_and(|message| message.len() > 1000) {
                    return Err("message must be at most 1000 characters".to_string());
                }
                unused("ms", self.ms.is_some())?;
            }
            Kind::Drop => {
                unused("ms", self.ms.is_some())?;
                unused("status", self.status.is_some())?;
            }
            Kind::Slow => {
                match (self.chunk_bytes, self.chunk_delay_ms) {
                    (Some(1..), Some(delay)) if delay <= MAX_DELAY_MS => {}
                    (Some(1..), Some(delay)) => return Err(too_long(delay)),
                    _ => return Err("a slow rule needs chunk_bytes (at least 1) and chunk_delay_ms".to_string()),
                }
                // A slow body is always the answer's, whatever `when` says.
                unused("status", self.status.is_some())?;
            }
        }
        if self.kind != Kind::Error {
            unused("code", self.code.is_some())?;
            unused("message", self.message.is_some())?;
            unused("retry_after", self.retry_after.is_some())?;
        }
        if self.kind != Kind::Slow {
            unused("chunk_bytes", self.chunk_bytes.is_some())?;
            unused("chunk_delay_ms", self.chunk_delay_ms.is_some())?;
        }
        Ok(())
    }

    /// The delay a draw picks (latency rules).
    pub fn delay(&self, draw: u64) -> Duration {
        let ms = match self.ms {
            Some(Millis::Fixed(ms)) => ms,
            Some(Millis::Range([low, high])) => low + draw % (high - low + 1),
            None => 0,
        };
        Duration::from_millis(ms)
    }
}

fn too_long(ms: u64) -> String {
    format!("a delay of {ms} ms is longer than the {MAX_DELAY_MS} ms allowed")
}

/// A command-line value as the JSON the admin API takes.
fn flag_value(key: &str, value: &str) -> Result<Value, String> {
    let number = |text: &str| -> Result<Value, String> {
        text.parse::<u64>()
            .map(Value::from)
            .or_else(|_| text.parse::<f64>().map(Value::from))
            .map_err(|_| format!("{key}: expected a number, got {text:?}"))
    };
    match key {
        // Read as the admin API reads it (`rate`), so both say the same.
        "rate" => Ok(Value::String(value.to_string())),
        "ms" => match value.split_once('-') {
            Some((low, high)) => Ok(Value::Array(vec![number(low.trim())?, number(high.trim())?])),
            None => number(value),
        },
        "seed" | "status" | "retry_after" | "chunk_bytes" | "chunk_delay_ms" => number(value),
        _ => Ok(Value::String(value.to_string())),
    }
}

/// The regular expression of a route pattern: `*` any text, `<id>` digits, `<slug>` one
/// segment, the rest literal; whole path, any case.
pub fn pattern(route: &str) -> Result<Regex, String> {
    if route.len() > 256 {
        return Err("route must be at most 256 characters".to_string());
    }
    let mut expression = String::from("(?i)^");
    let mut rest = route;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('*') {
            expression.push_str(".*");
            rest = after;
        } else if let Some(after) = rest.strip_prefix("<id>") {
            expression.push_str(r"\d+");
            rest = after;
        } else if let Some(after) = rest.strip_prefix("<slug>") {
            expression.push_str("[^/]+");
            rest = after;
        } else {
            let next =
                rest.char_indices().skip(1).find(|(_, c)| *c == '*' || *c == '<').map_or(rest.len(), |(at, _)| at);
            expression.push_str(&regex::escape(&rest[..next]));
            rest = &rest[next..];
        }
    }
    expression.push('$');
    Regex::new(&expression).map_err(|error| format!("route: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_flag_form_is_the_json_form() {
        let flag = RuleSpec::from_flag("kind=error,status=503,rate=5%,route=/events*,method=POST").unwrap();
        let json = RuleSpec::from_json(
            json!({"kind": "error", "status": 503, "rate": 0.05, "route": "/events*", "method": "POST"}),
        )
        .unwrap();
        assert_eq!(flag, json);
        let latency = RuleSpec::from_flag("latency,ms=100-300").unwrap();
        assert_eq!(latency.ms, Some(Millis::Range([100, 300])));
        assert_eq!(RuleSpec::from_flag("drop,when=after,rate=0.5").unwrap().when, When::After);
    }

    #[test]
    fn also_the_admin_api_takes_a_rate_as_the_command_line_does() {
        let flag = RuleSpec::from_flag("error,status=503,rate=5%").unwrap();
        for rate in [json!("5%"), json!("5 %"), json!("0.05"), json!(0.05)] {
            let spec = RuleSpec::from_json(json!({"kind": "error", "status": 503, "rate": rate})).unwrap();
            assert_eq!(spec, flag, "{rate}");
        }
        let from_flag = RuleSpec::from_flag("error,status=503,rate=lots").unwrap_err();
        let from_json = RuleSpec::from_json(json!({"kind": "error", "status": 503, "rate": "lots"})).unwrap_err();
        assert_eq!(from_flag, format!("fault \"error,status=503,rate=lots\": {from_json}"));
        assert_eq!(from_json, "rate: expected a share from 0 to 1 or a percentage (5%), got \"lots\"");
        let too_much = RuleSpec::from_json(json!({"kind": "error", "status": 503, "rate": "150%"})).unwrap_err();
        assert!(too_much.starts_with("rate must be between 0 and 1"), "{too_much}");
        assert!(RuleSpec::from_json(json!({"kind": "error", "status": 503, "rate": true})).is_err());
    }

    #[test]
    fn rules_that_make_no_sense_are_refused() {
        for bad in [
            json!({"kind": "latency"}),
            json!({"kind": "latency", "ms": [300, 100]}),
            json!({"kind": "latency", "ms": 10_000_000}),
            json!({"kind": "error"}),
            json!({"kind": "error", "status": 200}),
            json!({"kind": "error", "status": 503, "rate": 2}),
            json!({"kind": "slow", "chunk_bytes": 0, "chunk_delay_ms": 10}),
            json!({"kind": "drop", "ms": 10}),
            json!({"kind": "drop", "typo": 1}),
            json!({"kind": "explode"}),
        ] {
            assert!(RuleSpec::from_json(bad.clone()).is_err(), "{bad}");
        }
        assert!(RuleSpec::from_flag("error,status").is_err());
        assert!(RuleSpec::from_flag("error,status=abc").is_err());
    }

    /// The documented bounds, at the bound and one past it: a route of 256 characters, a delay
    /// (fixed, a range's end, a slow chunk's) of 600,000 ms, a code of 100 characters and a
    /// message of 1000.
    #[test]
    fn bounds_hold_at_the_bound_and_refuse_past_it() {
        let route = |length: usize| format!("/{}", "e".repeat(length - 1));
        let cases = [
            (
                json!({"kind": "error", "status": 503, "route": route(256)}),
                json!({"kind": "error", "status": 503, "route": route(257)}),
            ),
            (json!({"kind": "latency", "ms": MAX_DELAY_MS}), json!({"kind": "latency", "ms": MAX_DELAY_MS + 1})),
            (
                json!({"kind": "latency", "ms": [5, MAX_DELAY_MS]}),
                json!({"kind": "latency", "ms": [5, MAX_DELAY_MS + 1]}),
            ),
            (json!({"kind": "latency", "ms": [5, 5]}), json!({"kind": "latency", "ms": [6, 5]})),
            (
                json!({"kind": "slow", "chunk_bytes": 1, "chunk_delay_ms": MAX_DELAY_MS}),
                json!({"kind": "slow", "chunk_bytes": 1, "chunk_delay_ms": MAX_DELAY_MS + 1}),
            ),
            (json!({"kind": "error", "status": 400}), json!({"kind": "error", "status": 399})),
            (json!({"kind": "error", "status": 599}), json!({"kind": "error", "status": 600})),
            (
                json!({"kind": "error", "status": 503, "code": "c".repeat(100)}),
                json!({"kind": "error", "status": 503, "code": "c".repeat(101)}),
            ),
            (
                json!({"kind": "error", "status": 503, "message": "m".repeat(1000)}),
                json!({"kind": "error", "status": 503, "message": "m".repeat(1001)}),
            ),
        ];
        for (at, past) in cases {
            assert!(RuleSpec::from_json(at.clone()).is_ok(), "{at}");
            assert!(RuleSpec::from_json(past.clone()).is_err(), "{past}");
        }
        // A slow rule's `when` is accepted either way, and its body is the answer's.
        let before = json!({"kind": "slow", "chunk_bytes": 1, "chunk_delay_ms": 1, "when": "before"});
        assert!(RuleSpec::from_json(before).is_ok());
    }

    #[test]
    fn route_patterns() {
        let events = pattern("/events/<id>").unwrap();
        assert!(events.is_match("/events/12"));
        assert!(events.is_match("/EVENTS/12"));
        assert!(!events.is_match("/events/jazz"));
        assert!(!events.is_match("/events/12/x"));
        let any = pattern("/events*").unwrap();
        assert!(any.is_match("/events") && any.is_match("/events/by-slug/x"));
        assert!(!any.is_match("/venues"));
        assert!(pattern("/a.b").unwrap().is_match("/a.b") && !pattern("/a.b").unwrap().is_match("/axb"));
    }

    #[test]
    fn range_delays_stay_in_their_range() {
        let spec = RuleSpec::from_flag("latency,ms=100-102").unwrap();
        for draw in 0..50 {
            let ms = spec.delay(draw).as_millis();
            assert!((100..=102).contains(&ms), "{ms}");
        }
    }
}
