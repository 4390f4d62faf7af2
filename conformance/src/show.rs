//! Short renderings of values and texts for messages, shared by the matcher, the pattern
//! builder, the runner and the reports (it sits below all of them).

use serde_json::Value;

/// Longest compact JSON shown in a message, in characters.
const MAX_SHOWN: usize = 160;

/// Longest text excerpt shown in a message, in characters.
const MAX_EXCERPT: usize = 200;

/// Compact JSON, cut to a readable length.
pub fn compact(value: &Value) -> String {
    cut(&value.to_string(), MAX_SHOWN)
}

/// The start of a long text, trimmed, for messages.
pub fn excerpt(text: &str) -> String {
    cut(text.trim(), MAX_EXCERPT)
}

/// `text` cut to `max` characters, with `…` when something was cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// `text` cut to at most `max` bytes, at a character boundary; a cut text holds no more memory
/// than its length.
pub fn cut_bytes(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        // The memory of the cut part is given back (a kept record may outlive the body).
        text.shrink_to_fit();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_at_a_character_boundary() {
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut("hé", 2), "hé");
        assert_eq!(excerpt("  a  "), "a");
        assert_eq!(compact(&serde_json::json!({"a": 1})), r#"{"a":1}"#);
        assert_eq!(compact(&Value::String("x".repeat(500))).chars().count(), MAX_SHOWN + 1);
    }
}
