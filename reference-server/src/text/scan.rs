//! Regex-like scanning: one-pass replacement, next-occurrence tables, and splitting HTML
//! into text and elements.

use super::bytes::{bytes_to_string, find_from, is_re_space, starts_at};

/// One regex-like pass: at every position where `m` returns `Some((len, replacement))` the
/// matched bytes are replaced; scanning resumes after the match.
pub(super) fn pass<F>(s: &str, mut m: F) -> String
where
    F: FnMut(&[u8], usize) -> Option<(usize, Vec<u8>)>,
{
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 16);
    let mut i = 0;
    while i < b.len() {
        match m(b, i) {
            Some((len, rep)) if len > 0 => {
                out.extend_from_slice(&rep);
                i += len;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    bytes_to_string(out)
}

pub(super) fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// For every position, the index of the next `c` at or after it (`len` when none).
pub(super) fn next_of(b: &[u8], c: u8) -> Vec<usize> {
    let mut v = vec![b.len(); b.len() + 1];
    for i in (0..b.len()).rev() {
        v[i] = if b[i] == c { i } else { v[i + 1] };
    }
    v
}

/// For every position, the end of the whitespace run starting there.
pub(super) fn ws_end_table(b: &[u8]) -> Vec<usize> {
    let mut v = vec![b.len(); b.len() + 1];
    for i in (0..b.len()).rev() {
        v[i] = if is_re_space(b[i]) { v[i + 1] } else { i };
    }
    v
}

/// Keeps the first occurrence of `needle` at or after a position, for increasing positions.
pub(super) struct NextFinder<'a> {
    needle: &'a [u8],
    cached: Option<Option<usize>>,
}

impl<'a> NextFinder<'a> {
    pub(super) fn new(needle: &'a [u8]) -> Self {
        NextFinder { needle, cached: None }
    }
    pub(super) fn find(&mut self, b: &[u8], from: usize) -> Option<usize> {
        match self.cached {
            Some(None) => return None,
            Some(Some(at)) if at >= from => return Some(at),
            _ => {}
        }
        let r = find_from(b, from, self.needle);
        self.cached = Some(r);
        r
    }
}

/// Splits `s` into text runs and "elements" the way the CMS's formatting code does: an element
/// starts at any `<` and runs to the next `>` (or the end); `<!--` runs to `-->` (or the end);
/// with `cdata`, `<![CDATA[` runs to `]]>`. Returns `(is_element, piece)` pairs, no empty pieces.
pub(super) fn html_split(s: &str, cdata: bool) -> Vec<(bool, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        let p = i + off;
        let end = if starts_at(b, p + 1, b"!--") {
            find_from(b, p + 2, b"-->").map_or(b.len(), |e| e + 3)
        } else if cdata && starts_at(b, p + 1, b"![CDATA[") {
            find_from(b, p + 9, b"]]>").map_or(b.len(), |e| e + 3)
        } else {
            b[p + 1..].iter().position(|&c| c == b'>').map_or(b.len(), |e| p + 1 + e + 1)
        };
        if p > text_start {
            out.push((false, &s[text_start..p]));
        }
        out.push((true, &s[p..end]));
        text_start = end;
        i = end;
        if i >= b.len() {
            break;
        }
    }
    if text_start < b.len() {
        out.push((false, &s[text_start..]));
    }
    out
}
