//! The suite the runner carries: every case file of the repository's `cases/` folder,
//! embedded when the runner is built (`build.rs`), so an installed `conformance` runs the
//! whole suite from any folder. Without `--cases` it is what runs, what `--list` and
//! `conformance coverage` read, and what `conformance cases export` writes out.
//!
//! Its files keep the names they have in the repository: messages and reports show them as
//! `cases/events/create.yaml:12:3`, and their test names are the same as with `--cases cases`.
//!
//! - [`export`]: `conformance cases export DIR`.

pub mod export;

use std::path::Path;

use crate::loader;
use crate::model::Loaded;

/// One embedded case file.
pub struct EmbeddedFile {
    /// Its path under `cases/`, with `/` separators (`events/create.yaml`).
    pub path: &'static str,
    /// Its bytes; empty when it is larger than a case file may be (`size` says how large).
    pub contents: &'static [u8],
    /// Its size in bytes.
    pub size: u64,
}

impl EmbeddedFile {
    /// How messages and reports name it: `cases/events/create.yaml`.
    pub fn shown(&self) -> String {
        format!("cases/{}", self.path)
    }

    /// Its text, or why it cannot be read (as when it is read from a folder).
    pub fn text(&self) -> Result<String, String> {
        if self.size > loader::MAX_FILE_BYTES {
            return Err(loader::too_big(self.size));
        }
        String::from_utf8(self.contents.to_vec())
            .map_err(|_| "cannot read the file: stream did not contain valid UTF-8".to_string())
    }
}

mod generated {
    use super::EmbeddedFile;
    include!(concat!(env!("OUT_DIR"), "/suite.rs"));
}

/// How messages name the embedded suite, where they would name a folder.
pub const LABEL: &str = "the embedded suite";

/// The embedded case files, in the order a folder's are loaded.
pub fn files() -> &'static [EmbeddedFile] {
    generated::FILES
}

/// A digest of the embedded files' paths and content (16 hex digits, FNV-1a): two runners
/// that print the same one carry the same suite.
pub fn digest() -> &'static str {
    generated::DIGEST
}

/// The last commit that changed the embedded folder, when git knew it at build time, and
/// whether the folder also had changes not committed.
pub fn commit() -> Option<(&'static str, bool)> {
    generated::COMMIT.map(|commit| (commit, generated::UNCOMMITTED_CHANGES))
}

/// Loads the embedded suite as [`loader::load_dir`] loads a folder.
pub fn load() -> Vec<Loaded> {
    load_from(files())
}

fn load_from(files: &[EmbeddedFile]) -> Vec<Loaded> {
    let files = files.iter().map(|f| (loader::test_name(Path::new(f.path)), f.shown(), f)).collect();
    loader::load_files(files, |file| file.text())
}

/// The number of cases in `loaded` (a file that did not load counts as none).
pub fn case_count(loaded: &[Loaded]) -> usize {
    loaded
        .iter()
        .map(|l| match l {
            Loaded::File(f) => f.cases.len(),
            Loaded::Error(_) => 0,
        })
        .sum()
}

/// What `conformance --version` prints: the runner's version, then the suite's digest, size
/// and commit, e.g. `conformance 0.1.0, suite 0dd4573360766530: 505 cases in 52 files (cases/ as
/// of commit 0fbe03712a7c)`.
pub fn version_line() -> String {
    let loaded = load();
    let broken = loaded.iter().filter(|l| matches!(l, Loaded::Error(_))).count();
    let mut line = format!(
        "conformance {}, suite {}: {} cases in {} files",
        env!("CARGO_PKG_VERSION"),
        digest(),
        case_count(&loaded),
        files().len()
    );
    if broken > 0 {
        line.push_str(&format!(" ({broken} of them do not load)"));
    }
    if let Some((commit, changed)) = commit() {
        let commit = commit.get(..12).unwrap_or(commit);
        let changed = if changed { ", with changes not committed" } else { "" };
        line.push_str(&format!(" (cases/ as of commit {commit}{changed})"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_suite_is_the_cases_folder() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
        let on_disk = loader::find_files(&folder).unwrap();
        let embedded: Vec<(String, &str)> =
            files().iter().map(|f| (loader::test_name(Path::new(f.path)), f.path)).collect();
        assert_eq!(on_disk.len(), embedded.len());
        for ((path, name), (embedded_name, rel)) in on_disk.iter().zip(&embedded) {
            assert_eq!(name, embedded_name, "same order and names");
            assert_eq!(std::fs::read(path).unwrap(), files().iter().find(|f| f.path == *rel).unwrap().contents);
        }
        assert_eq!(digest().len(), 16);
        let loaded = load();
        assert!(loaded.iter().all(|l| matches!(l, Loaded::File(_))), "every embedded file loads");
        assert!(case_count(&loaded) > 400);
        let Loaded::File(first) = &loaded[0] else { unreachable!() };
        assert!(first.path.starts_with("cases/") && first.path.ends_with(".yaml"), "{}", first.path);
    }

    #[test]
    fn embedded_files_fail_to_load_as_folder_files_do() {
        let big = EmbeddedFile { path: "big.yaml", contents: &[], size: loader::MAX_FILE_BYTES + 1 };
        assert!(big.text().unwrap_err().contains("more than the 8388608 a case file may have"));
        let binary = EmbeddedFile { path: "bin.yaml", contents: &[0xff, 0xfe], size: 2 };
        assert!(binary.text().unwrap_err().contains("UTF-8"));
        let text = EmbeddedFile { path: "t.yaml", contents: b"level: must", size: 11 };
        assert_eq!(text.text().unwrap(), "level: must");
        // Errors name the file by its path under cases/, with the line and column.
        let file = |path, contents: &'static [u8]| EmbeddedFile { path, contents, size: contents.len() as u64 };
        let broken = [
            file("events/bad.yaml", b"level: must\ncases:\n  - name: a\n    stepz: []\n"),
            file("events/bad.yml", b"level: must\ncases: []\n"),
        ];
        let loaded = load_from(&broken);
        let messages: Vec<String> = loaded
            .iter()
            .map(|l| match l {
                Loaded::Error(e) => e.to_string(),
                Loaded::File(f) => panic!("{} loaded", f.path),
            })
            .collect();
        assert!(messages[0].contains("\ncases/events/bad.yaml:4:5: cases[0]: unknown field `stepz`"), "{messages:?}");
        assert!(messages[1].contains("cases/events/bad.yml:1:1: another file also has the test name `events/bad`"));
    }
}
