//! Where the state file is, what it is, and who holds it: a `--state` path is followed through
//! symlinks to the real file (so compaction renames beside the target and the link stays a
//! link), must be a regular file (a device or a FIFO would be read without end, or hang), and
//! is locked for the server's life (`FILE.lock`, which records the holder's PID), so that a
//! second server on the same file refuses to start instead of overwriting its records.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Symlinks followed at most, as the kernel does.
const MAX_LINKS: usize = 40;

/// The file `path` names, its symlinks followed (the target may not exist yet).
pub fn resolve(path: &Path) -> Result<PathBuf, String> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)
                    .map_err(|error| format!("cannot read the symlink {}: {error}", current.display()))?;
                // A relative target is relative to the link's directory; `join` keeps an
                // absolute one as it is.
                current = match current.parent() {
                    Some(parent) => parent.join(target),
                    None => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(format!("{}: too many levels of symbolic links", path.display()))
}

/// Refuses anything but a regular file (or a path where none exists yet).
pub fn check_kind(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(format!(
            "{} is not a regular file (a directory, a device or a FIFO): give the path of a regular file, or of \
             one to create",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Opens a new file readable and writable by its owner only (it holds event passwords).
pub fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The lock file of a state file: `FILE.lock`, beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|name| name.to_os_string()).unwrap_or_default();
    name.push(".lock");
    path.with_file_name(name)
}

/// Takes the lock of the state file at `path` (already resolved) for as long as the returned
/// file is open, and writes this process's PID into it; refuses if another process holds it.
pub fn lock(path: &Path, shown: &str) -> Result<File, String> {
    let lock_path = lock_path(path);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(&lock_path)
        .map_err(|error| format!("cannot open the lock file {} of {shown}: {error}", lock_path.display()))?;
    if !try_lock(&file).map_err(|error| format!("cannot lock {}: {error}", lock_path.display()))? {
        let mut holder = String::new();
        let _ = Read::by_ref(&mut file).take(64).read_to_string(&mut holder);
        let holder = match holder.trim().parse::<u32>() {
            Ok(pid) => format!("PID {pid}"),
            Err(_) => "a process that did not record its PID".to_string(),
        };
        return Err(format!(
            "the state file {shown} is in use by another reference-server ({holder}, per {}): stop it first, or \
             give this one another --state file",
            lock_path.display()
        ));
    }
    let recorded = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| writeln!(file, "{}", std::process::id()));
    recorded.map_err(|error| format!("cannot write the lock file {}: {error}", lock_path.display()))?;
    Ok(file)
}

/// An exclusive `flock` without waiting: `Ok(false)` if another open file holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: `flock` only reads the descriptor, which `file` keeps open for the call.
    let result = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if result == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        Some(code) if code == libc::EWOULDBLOCK => Ok(false),
        _ => Err(error),
    }
}

/// Elsewhere the lock file only records the PID: nothing stops a second server.
#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_refused_while_another_open_file_holds_it() {
        let dir = std::env::temp_dir().join(format!("reference-server-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("calendar.state");
        let held = lock(&path, "calendar.state").expect("the first lock");
        let refused = lock(&path, "calendar.state").expect_err("the second lock");
        assert!(refused.contains(&format!("PID {}", std::process::id())), "{refused}");
        drop(held);
        assert!(lock(&path, "calendar.state").is_ok(), "free again");
        let _ = std::fs::remove_dir_all(dir);
    }
}
