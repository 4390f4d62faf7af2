//! Expectation files: test names known to fail on the implementation under test.

use std::collections::BTreeSet;
use std::path::Path;

/// Reads one test name a line; `#` starts a comment, blank lines are ignored. A name that holds
/// a `#` (or starts with `"`, has spaces at an end, or holds a control character) is written
/// as a JSON string, `"…"`, with `\"`, `\\` and the other JSON escapes; a comment may follow it.
pub fn parse(text: &str) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with('"') {
            let name = quoted(line).ok_or_else(|| {
                format!(
                    "line {}: a name that starts with \" is a JSON string (\"…\", with \\\" and \\\\ inside), then nothing but a # comment",
                    number + 1
                )
            })?;
            names.insert(name);
            continue;
        }
        let name = line.split_once('#').map_or(line, |(before, _)| before).trim();
        if !name.is_empty() {
            names.insert(name.to_string());
        }
    }
    Ok(names)
}

/// The name a line written as a JSON string holds, when the line is only that string and a
/// comment.
fn quoted(line: &str) -> Option<String> {
    let mut stream = serde_json::Deserializer::from_str(line).into_iter::<String>();
    let name = stream.next()?.ok()?;
    let rest = line[stream.byte_offset()..].trim_start();
    (rest.is_empty() || rest.starts_with('#')).then_some(name)
}

/// Whether a name must be written as a JSON string to read back as itself.
fn needs_quotes(name: &str) -> bool {
    name.contains('#') || name.starts_with('"') || name.trim() != name || name.chars().any(char::is_control)
}

/// Reads an expectation file.
pub fn load(path: &Path) -> Result<BTreeSet<String>, String> {
    let text =
        crate::files::read_text(path, crate::files::MAX_INPUT_BYTES).map_err(|e| format!("--expectations: {e}"))?;
    parse(&text).map_err(|e| format!("the expectations file {}: {e}", path.display()))
}

/// The failed cases of a `--json` report (outcome `failed` or `error`), for `--rerun-failed`.
pub fn failed_in_report(path: &Path) -> Result<BTreeSet<String>, String> {
    let shown = path.display();
    let text =
        crate::files::read_regular(path, crate::files::MAX_INPUT_BYTES).map_err(|e| format!("--rerun-failed: {e}"))?;
    let report: serde_json::Value = serde_json::from_slice(&text)
        .map_err(|e| format!("--rerun-failed: {shown} is not a JSON report of this runner ({e})"))?;
    let cases = report
        .get("cases")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| format!("--rerun-failed: {shown} has no `cases` list: give a report written by --json"))?;
    let failed: BTreeSet<String> = cases
        .iter()
        .filter(|case| matches!(case.get("outcome").and_then(|o| o.as_str()), Some("failed" | "error")))
        .filter_map(|case| case.get("name").and_then(|n| n.as_str()).map(String::from))
        .collect();
    if failed.is_empty() {
        return Err(format!("--rerun-failed: no case failed in {shown}: nothing to rerun"));
    }
    Ok(failed)
}

/// The text of an expectations file listing `names` (`--write-expectations`): one a line, a
/// name that [`parse`] would not read back as itself written as a JSON string.
pub fn render(names: &[&str], source: &str) -> String {
    let mut out = format!(
        "# Known failures, written by `conformance --write-expectations` ({} cases of {source}).\n\
         # Give it to --expectations: these cases then do not fail the run, and one that passes does,\n\
         # so the list can only shrink. A name in \"…\" is a JSON string (it holds a #).\n",
        names.len()
    );
    for name in names {
        if needs_quotes(name) {
            out.push_str(&serde_json::to_string(name).unwrap_or_default());
        } else {
            out.push_str(name);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn comments_and_blank_lines() {
        let set = super::parse("# known\nevents/a::one\n\n  events/b::two  # flaky\n").unwrap();
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["events/a::one", "events/b::two"]);
    }

    #[test]
    fn a_written_file_reads_back_as_the_same_names() {
        let names = [
            "events/a::one",
            "venues/b::two: with a colon",
            "x::with # hash",
            "text/d::a bare ampersand becomes &#038;, entities stay",
            "y::two\nlines",
            "\"z::quoted\" \\ and a tab\t",
            " padded ",
        ];
        let text = super::render(&names, "the embedded suite");
        let read = super::parse(&text).unwrap();
        let mut expected: Vec<&str> = names.to_vec();
        expected.sort_unstable();
        assert_eq!(read.iter().map(String::as_str).collect::<Vec<_>>(), expected, "{text}");
        assert!(text.contains("(7 cases of the embedded suite)"), "{text}");
        assert!(text.contains("\nevents/a::one\n"), "plain names stay plain: {text}");
    }

    #[test]
    fn a_quoted_name_may_carry_a_comment_and_nothing_else() {
        let set = super::parse("\"a::b # c\"   # known\n").unwrap();
        assert_eq!(set.into_iter().collect::<Vec<_>>(), ["a::b # c"]);
        let error = super::parse("a::x\n\"a::b\" more\n").unwrap_err();
        assert!(error.starts_with("line 2: "), "{error}");
        assert!(super::parse("\"unterminated\n").is_err());
    }

    #[test]
    fn the_failed_cases_of_a_report() {
        let dir = std::env::temp_dir().join(format!("conformance-rerun-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let report = dir.join("report.json");
        let cases = r#"{"cases": [{"name": "a::x", "outcome": "failed"}, {"name": "b::y", "outcome": "passed"},
                       {"name": "c::z", "outcome": "error"}, {"name": "d::w", "outcome": "skipped"}]}"#;
        std::fs::write(&report, cases).unwrap();
        let failed = super::failed_in_report(&report).unwrap();
        assert_eq!(failed.into_iter().collect::<Vec<_>>(), ["a::x", "c::z"]);
        std::fs::write(&report, r#"{"cases": [{"name": "a::x", "outcome": "passed"}]}"#).unwrap();
        assert!(super::failed_in_report(&report).unwrap_err().contains("nothing to rerun"));
        std::fs::write(&report, "not json").unwrap();
        assert!(super::failed_in_report(&report).unwrap_err().contains("is not a JSON report"));
        std::fs::write(&report, "[]").unwrap();
        assert!(super::failed_in_report(&report).unwrap_err().contains("no `cases` list"));
        assert!(super::failed_in_report(&dir.join("missing.json")).unwrap_err().contains("cannot read"));
        #[cfg(unix)]
        {
            let error = super::failed_in_report(std::path::Path::new("/dev/zero")).unwrap_err();
            assert!(error.contains("is a device"), "{error}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
