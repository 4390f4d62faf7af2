//! The files the runner reads and writes for the user (`--expectations`, `--rerun-failed`, case
//! files, and the `--json`, `--html`, `--junit` and `--write-expectations` outputs): regular
//! files only, read within a bound. A FIFO would make the run wait for a writer or reader that
//! never comes, and a device such as `/dev/zero` never ends; both are refused with a message
//! instead.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

/// The most bytes read from an `--expectations` file or a `--rerun-failed` report: 64 MiB, far
/// above what the suite can produce (a `--json` report of a run whose every case failed holds
/// a few MiB; `--json-full` can reach tens).
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Opening without blocking: a FIFO that slipped in after the check then fails or shows up in
/// the handle's metadata, instead of waiting for the other end.
#[cfg(target_os = "linux")]
const NON_BLOCKING: i32 = 0o4000;
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd"))]
const NON_BLOCKING: i32 = 0x0004;
#[cfg(not(any(
    target_os = "linux",
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
)))]
const NON_BLOCKING: i32 = 0;

/// What a path that is there but is no regular file is, for messages.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let file_type = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

fn not_regular(path: &Path, meta: &std::fs::Metadata) -> String {
    format!("{} is {}: give a regular file", path.display(), kind(meta))
}

fn with_flags(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(NON_BLOCKING);
    }
    options
}

/// Reads a regular file of at most `limit` bytes (a symbolic link to one is followed). The
/// error says what the path is when it is no regular file, or how large it is when too large.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    let file = with_flags(OpenOptions::new().read(true))
        .open(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let meta = file.metadata().map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    if meta.len() > limit {
        return Err(too_large(path, limit));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, limit));
    }
    Ok(bytes)
}

fn too_large(path: &Path, limit: u64) -> String {
    format!("{} is larger than {limit} bytes, more than the runner reads from such a file", path.display())
}

/// [`read_regular`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_regular(path, limit)?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))
}

/// Opens a report file for writing: created, or emptied when it is a regular file already (a
/// symbolic link to one is followed, as a shell's `>` does). A FIFO, a device, a socket or a
/// folder is refused.
pub fn create_output(path: &Path) -> Result<File, String> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(format!("cannot write {}", not_regular(path, &meta)));
        }
    }
    let file = with_flags(OpenOptions::new().write(true).create(true).truncate(true))
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    match file.metadata() {
        Ok(meta) if meta.is_file() => Ok(file),
        Ok(meta) => Err(format!("cannot write {}", not_regular(path, &meta))),
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

/// Checks, before a run, that a report file can be one: a path that is there must be a regular
/// file (or a symbolic link to one).
pub fn check_output(path: &Path, option: &str) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(format!("{option}: cannot write {}", not_regular(path, &meta))),
        _ => Ok(()),
    }
}

/// Writes `text` into a report file ([`create_output`]).
pub fn write_output(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut file = create_output(path)?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Creates `path` as a new file, failing when anything is there already (`O_CREAT | O_EXCL`: a
/// symbolic link, dangling or not, is neither followed nor replaced). `mode` is its Unix mode.
pub fn create_new(path: &Path, mode: u32) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

/// The most files of one name in an output folder (`NAME.EXT`, `NAME-2.EXT`, …).
pub const MAX_SAME_NAME: usize = 1000;

/// Creates a new file `STEM.EXT` in `dir`, or `STEM-2.EXT`, `STEM-3.EXT`… when an entry of that
/// name is there (a file, a folder or a symbolic link, which is left alone); the path created.
pub fn create_new_in(dir: &Path, stem: &str, ext: &str, mode: u32) -> Result<(std::path::PathBuf, File), String> {
    for n in 1..=MAX_SAME_NAME {
        let path = if n == 1 { dir.join(format!("{stem}.{ext}")) } else { dir.join(format!("{stem}-{n}.{ext}")) };
        match create_new(&path, mode) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
        }
    }
    Err(format!("cannot write {stem}.{ext} in {}: {MAX_SAME_NAME} files of its name are in the way", dir.display()))
}

/// Creates an output folder (`what` names its option), or checks the one there: a symbolic
/// link is refused (the files would land wherever it points), and so is anything but a folder.
pub fn output_folder(dir: &Path, what: &str) -> Result<(), String> {
    // Without a trailing `/`, which would make the system follow a link.
    let dir: std::path::PathBuf = dir.components().collect();
    let dir = dir.as_path();
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            Err(format!("the {what} folder {} is a symbolic link: give the folder itself", dir.display()))
        }
        Ok(meta) if !meta.is_dir() => Err(format!("the {what} folder {} is not a folder", dir.display())),
        Ok(_) => Ok(()),
        Err(_) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the {what} folder {}: {e}", dir.display()))
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_large_files_are_refused() {
        let error = read_regular(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(error.contains("is a device"), "{error}");
        let error = read_regular(Path::new("/"), 10).unwrap_err();
        assert!(error.contains("is a folder"), "{error}");
        let error = create_output(Path::new("/dev/null")).unwrap_err();
        assert!(error.contains("is a device"), "{error}");
        let dir = std::env::temp_dir().join(format!("conformance-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        write_output(&file, "0123456789").unwrap();
        assert_eq!(read_text(&file, 10).unwrap(), "0123456789");
        assert!(read_regular(&file, 9).unwrap_err().contains("larger than 9 bytes"));
        // New files only: a planted link is left alone, and the next name is taken.
        std::os::unix::fs::symlink(&file, dir.join("out.yaml")).unwrap();
        let (path, _) = create_new_in(&dir, "out", "yaml", 0o644).unwrap();
        assert_eq!(path, dir.join("out-2.yaml"));
        assert_eq!(read_text(&file, 10).unwrap(), "0123456789");
        let link = dir.join("linked");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        assert!(output_folder(&link, "--out").unwrap_err().contains("is a symbolic link"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
