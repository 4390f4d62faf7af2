//! Parsing JSON within a bound on its number of values: a parsed value takes far more memory
//! than its text (`[0,0,…]` is two bytes a value as text and 32 bytes or more parsed), so a
//! text is counted first, without allocating, and only parsed when it holds few enough.

use serde_json::Value;

/// The most values (keys included) a text the server did not write (a site's answer behind
/// the proxy) may hold to be parsed, as the conformance runner bounds its own answers: a
/// parsed value takes up to about 150 bytes, so one parse takes at most about 75 MB.
pub const MAX_VALUES: usize = 500_000;

/// Why a text was not parsed.
#[derive(Debug)]
pub enum Refusal {
    /// More values than the bound: not parsed.
    TooManyValues(usize),
    /// Not JSON.
    Syntax(serde_json::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooManyValues(max) => write!(f, "more than {max} JSON values"),
            Refusal::Syntax(error) => write!(f, "{error}"),
        }
    }
}

/// `bytes` parsed as JSON, unless they hold more than `max` values.
pub fn parse(bytes: &[u8], max: usize) -> Result<Value, Refusal> {
    if !values_at_most(bytes, max) {
        return Err(Refusal::TooManyValues(max));
    }
    serde_json::from_slice(bytes).map_err(Refusal::Syntax)
}

/// Whether the JSON text holds at most `max` values and keys: every one but the first follows
/// a `[`, `{`, `,` or `:` outside a string, so their count bounds them (a text that is not
/// JSON is counted the same way; its parse then fails).
pub fn values_at_most(bytes: &[u8], max: usize) -> bool {
    let mut count = 1usize;
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' | b',' | b':' => {
                count += 1;
                if count > max {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// How many values (keys included, counted as `values_at_most` counts a text) a parsed value
/// holds, counting no further than `stop`.
pub fn count(value: &Value, stop: usize) -> usize {
    let mut seen = 0usize;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        seen += 1;
        if seen >= stop {
            return seen;
        }
        match value {
            Value::Array(items) => pending.extend(items.iter()),
            Value::Object(map) => {
                seen += map.len();
                pending.extend(map.values());
            }
            _ => {}
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_outside_strings() {
        assert!(values_at_most(b"[0,0,0]", 4));
        assert!(!values_at_most(b"[0,0,0]", 3));
        assert!(values_at_most(br#"{"a":"[,,,:\"{"}"#, 3));
        assert!(!values_at_most(br#"{"a":"x","b":1}"#, 4));
        assert!(matches!(parse(b"[0,0,0,0]", 3), Err(Refusal::TooManyValues(3))));
        assert!(matches!(parse(b"[0,", 10), Err(Refusal::Syntax(_))));
        assert_eq!(parse(b"[0,1]", 3).unwrap(), serde_json::json!([0, 1]));
    }

    #[test]
    fn a_parsed_value_is_counted_as_its_text() {
        for text in [&b"[0,0,0]"[..], br#"{"a":[1,{"b":2}],"c":"d"}"#, b"7", br#"{"a":[[1]]}"#] {
            let value: Value = serde_json::from_slice(text).unwrap();
            let counted = count(&value, usize::MAX);
            assert!(values_at_most(text, counted), "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(count(&serde_json::json!([0, 0, 0]), usize::MAX), 4);
        assert_eq!(count(&serde_json::json!({"a": 1, "b": [2]}), usize::MAX), 6);
        assert_eq!(count(&serde_json::json!([0, 0, 0, 0, 0]), 3), 3);
    }
}
