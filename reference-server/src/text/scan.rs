//! Regex-like scanning: one-pass replacement, next-occurrence tables, and splitting HTML
//! into text and elements.

use super::bytes::{bytes_to_string, find_from, is_re_space, starts_at};

/// Whitespace as the CMS's regular expressions see it, as trigger bytes of [`pass`].
pub(super) const RE_SPACES: &[u8] = b" \t\n\x0b\x0c\r";

/// One regex-like pass: at every position where `m` returns `Some((len, replacement))` the
/// matched bytes are replaced; scanning resumes after the match.
///
/// `m` can only match where the text holds one of the `triggers` bytes (the first byte of
/// what it looks for): the bytes between two triggers are copied without calling it, so a
/// pass over a text that has none costs a copy. Debug test builds check the promise: there `m` is also
/// asked at every other position, and must decline.
pub(super) fn pass<F>(s: &str, triggers: &[u8], mut m: F) -> String
where
    F: FnMut(&[u8], usize) -> Option<(usize, Vec<u8>)>,
{
    let b = s.as_bytes();
    let mut table = [false; 256];
    for &t in triggers {
        table[usize::from(t)] = true;
    }
    let next_trigger = |from: usize| -> usize {
        let rest = &b[from..];
        let found = match *triggers {
            [] => None,
            [a] => memchr::memchr(a, rest),
            [a, c] => memchr::memchr2(a, c, rest),
            [a, c, d] => memchr::memchr3(a, c, d, rest),
            _ => rest.iter().position(|&x| table[usize::from(x)]),
        };
        found.map_or(b.len(), |at| from + at)
    };
    let mut out = Vec::with_capacity(b.len() + 16);
    let mut i = 0;
    loop {
        let next = next_trigger(i);
        if cfg!(all(test, debug_assertions)) {
            for at in i..next {
                assert!(m(b, at).is_none_or(|(len, _)| len == 0), "a pass matched at {at}, outside its triggers");
            }
        }
        out.extend_from_slice(&b[i..next]);
        i = next;
        if i >= b.len() {
            break;
        }
        if let Some((len, rep)) = m(b, i) {
            // No matcher matches the empty string (it would stop the scan).
            debug_assert!(len > 0, "a pass matched nothing at {i}");
            out.extend_from_slice(&rep);
            i += len;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    bytes_to_string(out)
}

pub(super) fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The next position of one byte at or after any position (the length when none), from the
/// sorted positions of that byte: memory in proportion to how often the byte occurs, not to
/// the text's length (a table per position cost eight bytes for every byte of the text).
pub(super) struct NextOf {
    positions: Vec<usize>,
    len: usize,
}

impl NextOf {
    pub(super) fn new(b: &[u8], c: u8) -> NextOf {
        NextOf { positions: memchr::memchr_iter(c, b).collect(), len: b.len() }
    }

    /// The same for the starts of a string that cannot overlap itself (such as `</p>`):
    /// `next` then finds the first occurrence at or after a position.
    pub(super) fn needle(b: &[u8], needle: &[u8]) -> NextOf {
        NextOf { positions: memchr::memmem::find_iter(b, needle).collect(), len: b.len() }
    }

    /// The first position at or after `i` holding the byte, if any.
    pub(super) fn next(&self, i: usize) -> Option<usize> {
        let k = self.positions.partition_point(|&p| p < i);
        self.positions.get(k).copied()
    }

    /// The first position at or after `i` holding the byte, or the text's length.
    pub(super) fn at(&self, i: usize) -> usize {
        self.next(i).unwrap_or(self.len)
    }

    /// The last position before `i` holding the byte, if any.
    pub(super) fn before(&self, i: usize) -> Option<usize> {
        let k = self.positions.partition_point(|&p| p < i);
        k.checked_sub(1).map(|k| self.positions[k])
    }
}

/// The end of the whitespace run starting at any position (the position itself when it holds
/// no whitespace), computed on demand. The last two runs found are remembered, so a pass that
/// asks at every position of a long run, or looks one run ahead, scans each byte once.
pub(super) struct WsEnd<'a> {
    b: &'a [u8],
    runs: std::cell::Cell<[(usize, usize); 2]>,
}

impl<'a> WsEnd<'a> {
    pub(super) fn new(b: &'a [u8]) -> WsEnd<'a> {
        WsEnd { b, runs: std::cell::Cell::new([(usize::MAX, usize::MAX); 2]) }
    }

    pub(super) fn at(&self, i: usize) -> usize {
        let b = self.b;
        if i >= b.len() {
            return b.len();
        }
        if !is_re_space(b[i]) {
            return i;
        }
        let mut runs = self.runs.get();
        if let Some(run) = runs.iter().find(|(start, end)| *start <= i && i <= *end) {
            return run.1;
        }
        let mut j = i;
        while j < b.len() && is_re_space(b[j]) {
            // The rest of this run is known: extend it backwards.
            if let Some(slot) = runs.iter().position(|(start, _)| *start == j) {
                let end = runs[slot].1;
                runs[slot].0 = i;
                self.runs.set(runs);
                return end;
            }
            j += 1;
        }
        runs[1] = runs[0];
        runs[0] = (i, j);
        self.runs.set(runs);
        j
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `pass` finds the trigger bytes with `memchr` for one to three triggers and with a table
    /// for more: the ways differ only in speed. Replacing every trigger byte gives the same
    /// text as a byte-by-byte model for every number of triggers, so deleting one of the
    /// search arms of `pass` (the table then serves) changes nothing (scripts/mutants/
    /// equivalent.txt lists those mutants with this test).
    #[test]
    fn pass_stops_at_every_trigger_whichever_way_it_searches() {
        let text = "a<b c\n>d\te&f<g\r\nh  <<&&\x0b\x0c end é ☕ 0x9";
        let sets: [&[u8]; 8] = [b"", b"<", b"<&", b"<&\n", b"<&\n ", RE_SPACES, b"0123456789", b"abcdefgh"];
        for triggers in sets {
            let got = pass(text, triggers, |b, i| triggers.contains(&b[i]).then(|| (1, b"#".to_vec())));
            let model: String =
                text.chars().map(|c| if c.is_ascii() && triggers.contains(&(c as u8)) { '#' } else { c }).collect();
            assert_eq!(got, model, "triggers {triggers:?}");
        }
    }
}
