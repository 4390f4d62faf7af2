//! Small byte helpers: PHP-style trimming and replacing, and the position tests the
//! scanners share.

/// Whitespace as the CMS's regular expressions see it (`\s` without the Unicode flag).
pub(super) fn is_re_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// Characters the PHP `trim()` default removes.
fn is_php_trim(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\0' | '\x0B')
}

/// PHP's `trim()` with its default characters: other spaces, such as U+00A0, stay.
pub fn php_trim(s: &str) -> &str {
    s.trim_matches(is_php_trim)
}

/// PHP's `stripslashes()`, which the CMS applies to what a post write stores: a backslash
/// goes and the character after it stays (`\\` gives one backslash), and `\0` gives a NUL.
pub fn stripslashes(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('\0'),
            Some(next) => out.push(next),
            None => {}
        }
    }
    out
}

pub(super) fn bytes_to_string(v: Vec<u8>) -> String {
    match String::from_utf8(v) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// First index `>= from` where `needle` starts in `hay` (none for an empty needle, or when
/// `from` is past the end).
pub(super) fn find_from(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let rest = hay.get(from..)?;
    memchr::memmem::find(rest, needle).map(|at| from + at)
}

pub(super) fn starts_at(hay: &[u8], at: usize, needle: &[u8]) -> bool {
    at <= hay.len() && hay[at..].starts_with(needle)
}

pub(super) fn ends_at(hay: &[u8], end: usize, needle: &[u8]) -> bool {
    end <= hay.len() && hay[..end].ends_with(needle)
}

/// Replaces every occurrence of `from` with `to`, left to right, without overlaps
/// (PHP `str_replace` with one pair).
pub(super) fn replace_all(s: &str, from: &str, to: &str) -> String {
    if s.contains(from) {
        s.replace(from, to)
    } else {
        s.to_string()
    }
}

/// PHP `str_replace` with arrays: each pair in turn over the whole text.
pub(super) fn replace_pairs(s: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = s.to_string();
    for (from, to) in pairs {
        out = replace_all(&out, from, to);
    }
    out
}

/// `\Z`: the end of the subject, or just before a final newline.
pub(super) fn at_big_z(b: &[u8], i: usize) -> bool {
    matches!(b.get(i..), Some([] | [b'\n']))
}

/// The CMS's "spaces" alternative (`[\r\n\t ]|\xC2\xA0|&nbsp;`) matching at `i`.
pub(super) fn spaces_at(b: &[u8], i: usize) -> bool {
    (i < b.len() && matches!(b[i], b'\r' | b'\n' | b'\t' | b' '))
        || starts_at(b, i, b"\xC2\xA0")
        || starts_at(b, i, b"&nbsp;")
}

/// The same alternative ending just before `i`.
pub(super) fn spaces_before(b: &[u8], i: usize) -> bool {
    (i >= 1 && matches!(b[i - 1], b'\r' | b'\n' | b'\t' | b' '))
        || ends_at(b, i, b"\xC2\xA0")
        || ends_at(b, i, b"&nbsp;")
}

#[cfg(test)]
mod tests {
    use super::stripslashes;

    #[test]
    fn stripslashes_is_phps() {
        // Each observed on a real site's post writes, or PHP's documented rule.
        assert_eq!(stripslashes(r"x\y"), "xy");
        assert_eq!(stripslashes(r"a\\b"), r"a\b");
        assert_eq!(stripslashes(r"x \\\\ y"), r"x \\ y");
        assert_eq!(stripslashes(r"1\0"), "1\0");
        assert_eq!(stripslashes(r#"\"q\""#), "\"q\"");
        assert_eq!(stripslashes("end\\"), "end");
        assert_eq!(stripslashes("café"), "café");
    }
}
