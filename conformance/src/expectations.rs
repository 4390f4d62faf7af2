//! Expectation files: test names known to fail on the implementation under test.

use std::collections::BTreeSet;
use std::path::Path;

/// Reads one test name a line; `#` starts a comment, blank lines are ignored.
pub fn parse(text: &str) -> BTreeSet<String> {
    text.lines()
        .map(|line| line.split_once('#').map_or(line, |(before, _)| before).trim())
        .filter(|line| !line.is_empty())
        .map(String::from)
        .collect()
}

/// Reads an expectation file.
pub fn load(path: &Path) -> Result<BTreeSet<String>, String> {
    std::fs::read_to_string(path)
        .map(|text| parse(&text))
        .map_err(|e| format!("cannot read the expectations file {}: {e}", path.display()))
}

/// The failed cases of a `--json` report (outcome `failed` or `error`), for `--rerun-failed`.
pub fn failed_in_report(path: &Path) -> Result<BTreeSet<String>, String> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| format!("--rerun-failed: cannot read {shown}: {e}"))?;
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

/// The text of an expectations file listing `names` (`--write-expectations`). A name that the
/// format cannot hold (a `#`, which starts a comment, or a line break) is left out, and the
/// header says how many were.
pub fn render(names: &[&str], source: &str) -> String {
    let (fit, unfit): (Vec<&str>, Vec<&str>) =
        names.iter().partition(|name| !name.contains('#') && !name.contains(['\n', '\r']));
    let mut out = format!(
        "# Known failures, written by `conformance --write-expectations` ({} cases of {source}).\n\
         # Give it to --expectations: these cases then do not fail the run, and one that passes does,\n\
         # so the list can only shrink.\n",
        fit.len()
    );
    if !unfit.is_empty() {
        out.push_str(&format!(
            "# {} failed cases are not listed: their names hold a # or a line break.\n",
            unfit.len()
        ));
    }
    for name in fit {
        out.push_str(name);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn comments_and_blank_lines() {
        let set = super::parse("# known\nevents/a::one\n\n  events/b::two  # flaky\n");
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["events/a::one", "events/b::two"]);
    }

    #[test]
    fn a_written_file_reads_back_as_the_same_names() {
        let names = ["events/a::one", "venues/b::two: with a colon", "x::with # hash", "y::two\nlines"];
        let text = super::render(&names, "the embedded suite");
        let read = super::parse(&text);
        assert_eq!(read.into_iter().collect::<Vec<_>>(), ["events/a::one", "venues/b::two: with a colon"]);
        assert!(text.contains("# 2 failed cases are not listed"), "{text}");
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
        let _ = std::fs::remove_dir_all(&dir);
    }
}
