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

#[cfg(test)]
mod tests {
    #[test]
    fn comments_and_blank_lines() {
        let set = super::parse("# known\nevents/a::one\n\n  events/b::two  # flaky\n");
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["events/a::one", "events/b::two"]);
    }
}
