//! The state file's lines: `CRC JSON\n`, where CRC is the CRC-32 of the JSON in eight hex
//! digits. The first line is the header, every other one a record. A line that is cut short
//! or whose CRC does not match is torn: a write the process did not finish before it died.

use std::fs::File;
use std::io::Write;
use std::path::Path;

/// A line of the file for this JSON.
pub fn frame(json: &[u8]) -> Vec<u8> {
    let mut line = Vec::with_capacity(json.len() + 10);
    line.extend_from_slice(format!("{:08x} ", crc32(json)).as_bytes());
    line.extend_from_slice(json);
    line.push(b'\n');
    line
}

/// A line of the file, read back.
pub struct Line<'a> {
    /// Where the line starts, in bytes from the start of the file.
    pub offset: usize,
    /// The JSON, if the line is whole and its CRC matches.
    pub json: Option<&'a [u8]>,
}

/// The lines of a file's bytes; a last line without its newline is torn.
pub fn lines(bytes: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        let (end, whole) = match bytes[offset..].iter().position(|b| *b == b'\n') {
            Some(length) => (offset + length, true),
            None => (bytes.len(), false),
        };
        let json = whole.then(|| checked(&bytes[offset..end])).flatten();
        lines.push(Line { offset, json });
        offset = end + 1;
    }
    lines
}

fn checked(line: &[u8]) -> Option<&[u8]> {
    let (crc, json) = (line.get(..8)?, line.get(9..)?);
    if line.get(8) != Some(&b' ') {
        return None;
    }
    let crc = u32::from_str_radix(std::str::from_utf8(crc).ok()?, 16).ok()?;
    (crc32(json) == crc).then_some(json)
}

/// Writes a complete file next to `path` and renames it into place, so that `path` always
/// holds either the old file or the new one, whole; both the file and the rename are made
/// durable before this returns.
pub fn write_atomically(path: &Path, contents: &[&[u8]]) -> std::io::Result<File> {
    let temporary = temporary_path(path);
    let mut file = super::place::create_private(&temporary)?;
    for piece in contents {
        file.write_all(piece)?;
    }
    file.sync_all()?;
    std::fs::rename(&temporary, path)?;
    sync_directory(path)?;
    Ok(file)
}

/// Where a new file is written before it is renamed into place.
pub fn temporary_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_name().map(|name| name.to_os_string()).unwrap_or_default();
    name.push(".new");
    path.with_file_name(name)
}

/// Makes a rename in the file's directory durable.
pub fn sync_directory(path: &Path) -> std::io::Result<()> {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    File::open(directory)?.sync_all()
}

/// CRC-32 (IEEE 802.3, the one of zip and PNG).
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut index = 0;
        while index < 256 {
            let mut value = index as u32;
            let mut bit = 0;
            while bit < 8 {
                value = if value & 1 == 1 { 0xEDB8_8320 ^ (value >> 1) } else { value >> 1 };
                bit += 1;
            }
            table[index] = value;
            index += 1;
        }
        table
    };
    let mut crc = 0xFFFF_FFFFu32;
    for byte in bytes {
        crc = TABLE[((crc ^ u32::from(*byte)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn lines_are_checked_and_a_cut_last_line_is_torn() {
        let mut bytes = frame(br#"{"a":1}"#);
        bytes.extend(frame(br#"{"b":2}"#));
        let whole = bytes.len();
        bytes.extend(&frame(br#"{"c":3}"#)[..6]);
        let read = lines(&bytes);
        assert_eq!(read.len(), 3);
        assert_eq!(read[0].json, Some(&br#"{"a":1}"#[..]));
        assert_eq!(read[1].json, Some(&br#"{"b":2}"#[..]));
        assert_eq!(read[2].offset, whole);
        assert!(read[2].json.is_none());
        let mut flipped = frame(br#"{"a":1}"#);
        flipped[10] = b'b';
        assert!(lines(&flipped)[0].json.is_none());
    }
}
