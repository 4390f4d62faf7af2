//! `conformance cases export DIR`: writes the embedded case files into DIR under their names
//! in `cases/`, for people who want to read them, extend them, or run a changed copy with
//! `--cases DIR`.
//!
//! Planned, then applied: every target is checked before the first file is written, so a
//! refused export writes nothing. An existing file is replaced only with `--force` (it is
//! removed first, so a symbolic link is replaced, not written through). Files of DIR that are
//! not in the suite are left alone.

use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Component, Path, PathBuf};

use super::EmbeddedFile;

/// What an export wrote.
#[derive(Debug, PartialEq)]
pub struct Exported {
    /// The files written, by their path under DIR, and whether each replaced a file.
    pub written: Vec<(String, bool)>,
}

/// Writes `files` into `dir` (created if missing). Without `force`, a file that exists stops
/// the export before anything is written.
pub fn export(dir: &Path, files: &[EmbeddedFile], force: bool) -> Result<Exported, String> {
    let plan = plan(dir, files)?;
    let taken: Vec<&str> = plan.iter().filter(|(_, _, exists)| *exists).map(|(file, _, _)| file.path).collect();
    if !taken.is_empty() && !force {
        let shown: Vec<&str> = taken.iter().take(5).copied().collect();
        let more =
            if taken.len() > shown.len() { format!(" and {} more", taken.len() - shown.len()) } else { String::new() };
        return Err(format!(
            "{} already holds {} of the suite's files ({}{more}): nothing was written; give --force to replace them",
            dir.display(),
            taken.len(),
            shown.join(", ")
        ));
    }
    let mut written = Vec::new();
    for (file, target, exists) in plan {
        write_file(file, &target, exists)?;
        written.push((file.path.to_string(), exists));
    }
    Ok(Exported { written })
}

/// Where each file goes, and whether that place is taken by a file; a file that was not
/// embedded whole, or a place taken by a folder, refuses the export.
fn plan<'f>(dir: &Path, files: &'f [EmbeddedFile]) -> Result<Vec<(&'f EmbeddedFile, PathBuf, bool)>, String> {
    let mut plan = Vec::new();
    for file in files {
        if file.size as usize != file.contents.len() {
            return Err(format!(
                "{} has {} bytes, more than a case file may have: it was not embedded, and nothing was written",
                file.shown(),
                file.size
            ));
        }
        let target = target(dir, file.path)?;
        let exists = match fs::symlink_metadata(&target) {
            Ok(meta) if meta.is_dir() => {
                return Err(format!("{} is a folder: nothing was written", target.display()));
            }
            Ok(_) => true,
            Err(e) if e.kind() == ErrorKind::NotFound => false,
            Err(e) => return Err(format!("cannot look at {}: {e}", target.display())),
        };
        plan.push((file, target, exists));
    }
    Ok(plan)
}

/// Writes one file, its folder created, the file it replaces removed first.
fn write_file(file: &EmbeddedFile, target: &Path, exists: bool) -> Result<(), String> {
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    if exists {
        fs::remove_file(target).map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
    }
    let mut out = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    out.write_all(file.contents).map_err(|e| format!("cannot write {}: {e}", target.display()))
}

/// Where a file with this path under `cases/` goes; the path must stay inside `dir`.
fn target(dir: &Path, path: &str) -> Result<PathBuf, String> {
    let relative = Path::new(path);
    if path.is_empty() || !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(format!("the embedded file {path:?} has a path that leaves the folder: nothing was written"));
    }
    Ok(dir.join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("conformance-export-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    const FILES: &[EmbeddedFile] = &[
        EmbeddedFile { path: "a/one.yaml", contents: b"one", size: 3 },
        EmbeddedFile { path: "two.yaml", contents: b"two", size: 3 },
    ];

    #[test]
    fn writes_every_file_and_refuses_to_overwrite_without_force() {
        let dir = temp("force");
        let done = export(&dir, FILES, false).unwrap();
        assert_eq!(done.written, [("a/one.yaml".to_string(), false), ("two.yaml".to_string(), false)]);
        assert_eq!(fs::read(dir.join("a/one.yaml")).unwrap(), b"one");
        // A changed copy is not overwritten, and nothing else is written either.
        fs::write(dir.join("two.yaml"), "mine").unwrap();
        fs::remove_file(dir.join("a/one.yaml")).unwrap();
        let error = export(&dir, FILES, false).unwrap_err();
        assert!(error.contains("already holds 1 of the suite's files (two.yaml): nothing was written"), "{error}");
        assert!(!dir.join("a/one.yaml").exists(), "planned before writing");
        assert_eq!(fs::read_to_string(dir.join("two.yaml")).unwrap(), "mine");
        // --force replaces it; other files of the folder stay.
        fs::write(dir.join("mine.yaml"), "kept").unwrap();
        let done = export(&dir, FILES, true).unwrap();
        assert_eq!(done.written, [("a/one.yaml".to_string(), false), ("two.yaml".to_string(), true)]);
        assert_eq!(fs::read_to_string(dir.join("two.yaml")).unwrap(), "two");
        assert_eq!(fs::read_to_string(dir.join("mine.yaml")).unwrap(), "kept");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn force_replaces_a_link_instead_of_writing_through_it() {
        let dir = temp("link");
        fs::create_dir_all(&dir).unwrap();
        let outside = dir.with_extension("outside");
        fs::write(&outside, "outside").unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("two.yaml")).unwrap();
        export(&dir, FILES, true).unwrap();
        assert_eq!(fs::read_to_string(&outside).unwrap(), "outside");
        assert_eq!(fs::read_to_string(dir.join("two.yaml")).unwrap(), "two");
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_file(&outside);
    }

    #[test]
    fn paths_stay_inside_the_folder_and_folders_are_not_replaced() {
        let dir = temp("paths");
        for path in ["../x.yaml", "/etc/x.yaml", "a/../../x.yaml", ""] {
            let files = [EmbeddedFile { path, contents: b"x", size: 1 }];
            assert!(export(&dir, &files, true).unwrap_err().contains("leaves the folder"), "{path}");
        }
        fs::create_dir_all(dir.join("two.yaml")).unwrap();
        assert!(export(&dir, FILES, true).unwrap_err().contains("is a folder"));
        assert!(!dir.join("a").exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
