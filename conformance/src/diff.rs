//! The diff a failing `json` expectation shows: the expected view against the actual body,
//! pretty-printed, as a few lines around the changes. It is computed once, when the step
//! fails, and kept bounded (lines and line length), so a huge body never makes a huge report;
//! it compares the first [`MAX_INPUT`] bytes of each side's pretty-printed text at most, so a
//! huge body never takes a huge diff either.

use serde::Serialize;
use serde_json::Value;
use similar::TextDiff;

use crate::show::cut;

/// Most diff lines kept; the rest is counted.
pub const MAX_LINES: usize = 60;

/// Longest diff line kept, in characters.
pub const MAX_LINE: usize = 300;

/// One line of a unified diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffLine {
    pub kind: LineKind,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// `--- expected`, `+++ actual`.
    Header,
    /// `@@ -1,3 +1,3 @@`.
    Hunk,
    Context,
    Removed,
    Added,
}

/// A bounded unified diff.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Diff {
    pub lines: Vec<DiffLine>,
    /// Lines beyond [`MAX_LINES`], not kept.
    pub cut_lines: usize,
}

/// The most bytes of each side's pretty-printed text that are compared.
pub const MAX_INPUT: usize = 1024 * 1024;

/// A writer that keeps the first `MAX_INPUT` bytes and then refuses more.
struct Bounded(Vec<u8>);

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = MAX_INPUT.saturating_sub(self.0.len());
        if room == 0 {
            return Err(std::io::Error::other("cut"));
        }
        let n = buf.len().min(room);
        self.0.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `value` pretty-printed, its first [`MAX_INPUT`] bytes, ending with a line break (a cut text
/// ends with a line that says so).
fn pretty(value: &Value) -> String {
    let mut out = Bounded(Vec::new());
    let whole = serde_json::to_writer_pretty(&mut out, value).is_ok();
    let text = String::from_utf8_lossy(&out.0).into_owned();
    if whole {
        text + "\n"
    } else {
        let kept = text.rfind('\n').map_or("", |end| &text[..end]);
        format!("{kept}\n… (cut: the diff compares the first {MAX_INPUT} bytes)\n")
    }
}

/// The diff of `expected` against `actual`, pretty-printed, 3 lines of context.
pub fn diff(expected: &Value, actual: &Value) -> Diff {
    let left = pretty(expected);
    let right = pretty(actual);
    // A deadline keeps a huge body from stalling the run; the diff is then coarser.
    let text_diff = TextDiff::configure().timeout(std::time::Duration::from_secs(2)).diff_lines(&left, &right);
    let unified = text_diff.unified_diff().context_radius(3).header("expected", "actual").to_string();
    let mut out = Diff::default();
    for line in unified.lines() {
        if out.lines.len() == MAX_LINES {
            out.cut_lines += 1;
            continue;
        }
        let kind = if line.starts_with("---") || line.starts_with("+++") {
            LineKind::Header
        } else if line.starts_with("@@") {
            LineKind::Hunk
        } else if line.starts_with('-') {
            LineKind::Removed
        } else if line.starts_with('+') {
            LineKind::Added
        } else {
            LineKind::Context
        };
        out.lines.push(DiffLine { kind, text: cut(line, MAX_LINE) });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_diff_is_cut_around_changes_and_bounded() {
        let mut expected = serde_json::Map::new();
        for i in 0..200 {
            expected.insert(format!("k{i:03}"), json!(i));
        }
        let actual = Value::Object(expected.clone());
        expected.insert("k100".into(), json!("changed"));
        let d = diff(&Value::Object(expected), &actual);
        let text: Vec<&str> = d.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(text.contains(&"-  \"k100\": \"changed\","), "{text:?}");
        assert!(text.contains(&"+  \"k100\": 100,"), "{text:?}");
        assert!(!text.iter().any(|l| l.contains("k010")), "far lines are cut: {text:?}");
        let huge = diff(&json!({"a": "x".repeat(10_000_000)}), &json!({"a": "y"}));
        assert!(huge.lines.iter().all(|l| l.text.chars().count() <= MAX_LINE + 1));
    }

    #[test]
    fn h13_a_huge_body_is_diffed_on_its_first_bytes_only() {
        let many = Value::Array(vec![json!(0); 2_000_000]);
        assert!(pretty(&many).len() <= MAX_INPUT + 100);
        assert!(pretty(&many).ends_with("… (cut: the diff compares the first 1048576 bytes)\n"));
        let d = diff(&json!({"events": []}), &json!({"events": many}));
        assert!(d.lines.len() <= MAX_LINES && d.cut_lines > 0, "{d:?}");
    }
}
