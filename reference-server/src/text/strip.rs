//! Removing markup: PHP's `strip_tags`, the CMS's `wp_strip_all_tags`, block-editor
//! delimiters, `sanitize_text_field` and `wp_trim_words`.

use super::bytes::{at_big_z, bytes_to_string, find_from, is_re_space, php_trim, replace_all, starts_at};
use super::entities::esc_html;
use super::scan::{pass, NextFinder, NextOf};

/// Removes HTML tags as PHP's `strip_tags` does: a `<` followed by whitespace is kept as text,
/// quoted `>` inside a tag do not end it, comments `<!-- … -->` go entirely, and an unclosed
/// tag swallows the rest of the text. Text inside `<script>` or `<style>` is kept.
pub(super) fn strip_tags(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let c_space = |i: usize| i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
    // 0 text, 1 tag, 2 processing instruction, 3 declaration, 4 comment
    let mut state = 0u8;
    let mut depth = 0usize;
    let mut in_q: u8 = 0;
    let mut lc: u8 = 0;
    let mut br: i64 = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let prev = |k: usize| if i >= k { b[i - k] } else { 0 };
        match state {
            0 => match c {
                0 => {}
                b'<' => {
                    if in_q != 0 {
                    } else if c_space(i + 1) {
                        out.push(c);
                    } else {
                        lc = b'<';
                        state = 1;
                    }
                }
                b'>' => {
                    if depth > 0 {
                        depth -= 1;
                    } else if in_q == 0 {
                        out.push(c);
                    }
                }
                _ => out.push(c),
            },
            1 => match c {
                b'<' if in_q == 0 && !c_space(i + 1) => depth += 1,
                b'>' => {
                    if depth > 0 {
                        depth -= 1;
                    } else if in_q == 0 {
                        lc = b'>';
                        in_q = 0;
                        state = 0;
                    }
                }
                b'"' | b'\'' if i > 0 && (in_q == 0 || c == in_q) => {
                    in_q = if in_q != 0 { 0 } else { c };
                }
                b'!' if prev(1) == b'<' => {
                    state = 3;
                    lc = c;
                }
                b'?' if prev(1) == b'<' => {
                    br = 0;
                    state = 2;
                }
                _ => {}
            },
            2 => match c {
                b'(' if lc != b'"' && lc != b'\'' => {
                    lc = b'(';
                    br += 1;
                }
                b')' if lc != b'"' && lc != b'\'' => {
                    lc = b')';
                    br -= 1;
                }
                b'>' => {
                    if depth > 0 {
                        depth -= 1;
                    } else if in_q == 0 && br == 0 && lc != b'"' && prev(1) == b'?' {
                        in_q = 0;
                        state = 0;
                    }
                }
                b'"' | b'\'' => {
                    if i >= 1 && prev(1) != b'\\' {
                        if lc == c {
                            lc = 0;
                        } else if lc != b'\\' {
                            lc = c;
                        }
                    }
                    if i > 0 && (in_q == 0 || c == in_q) {
                        in_q = if in_q != 0 { 0 } else { c };
                    }
                }
                b'l' | b'L'
                    if i > 4
                        && prev(1).eq_ignore_ascii_case(&b'm')
                        && prev(2).eq_ignore_ascii_case(&b'x')
                        && prev(3) == b'?'
                        && prev(4) == b'<' =>
                {
                    state = 1;
                }
                _ => {}
            },
            3 => match c {
                b'>' => {
                    if depth > 0 {
                        depth -= 1;
                    } else if in_q == 0 {
                        in_q = 0;
                        state = 0;
                    }
                }
                b'"' | b'\'' if i > 0 && prev(1) != b'\\' && (in_q == 0 || c == in_q) => {
                    in_q = if in_q != 0 { 0 } else { c };
                }
                b'-' if i >= 2 && prev(1) == b'-' && prev(2) == b'!' => state = 4,
                b'E' | b'e' if i > 6 && b[i - 6..i].eq_ignore_ascii_case(b"doctyp") => {
                    state = 1;
                }
                _ => {}
            },
            _ => {
                if c == b'>' && in_q == 0 && i >= 2 && prev(1) == b'-' && prev(2) == b'-' {
                    in_q = 0;
                    state = 0;
                }
            }
        }
        i += 1;
    }
    bytes_to_string(out)
}

/// Removes the block editor's `<!-- wp:name {…} -->` / `<!-- /wp:name -->` delimiters.
pub(super) fn strip_block_delimiters(s: &str) -> String {
    pass(s, b"<", |b, i| {
        if !starts_at(b, i, b"<!--") {
            return None;
        }
        let mut j = i + 4;
        let ws_start = j;
        while j < b.len() && is_re_space(b[j]) {
            j += 1;
        }
        if j == ws_start {
            return None;
        }
        if j < b.len() && b[j] == b'/' {
            j += 1;
        }
        if !starts_at(b, j, b"wp:") || !b.get(j + 3).is_some_and(u8::is_ascii_lowercase) {
            return None;
        }
        let end = find_from(b, j, b"-->")?;
        Some((end + 3 - i, Vec::new()))
    })
}

/// The CMS's `sanitize_text_field`.
pub(super) fn sanitize_text_field(raw: &str) -> String {
    let mut t = raw.to_string();
    if t.contains('<') {
        t = escape_lone_less_than(&t);
        t = strip_all_tags(&t);
        t = replace_all(&t, "<\n", "&lt;\n");
    }
    // Runs of [\r\n\t ] become one space.
    let mut collapsed = String::with_capacity(t.len());
    let mut in_ws = false;
    for c in t.chars() {
        if matches!(c, '\r' | '\n' | '\t' | ' ') {
            if !in_ws {
                collapsed.push(' ');
            }
            in_ws = true;
        } else {
            collapsed.push(c);
            in_ws = false;
        }
    }
    let t = php_trim(&collapsed).to_string();
    // Percent-encoded octets are removed until none is left.
    let mut out: Vec<u8> = Vec::with_capacity(t.len());
    let mut found = false;
    for &c in t.as_bytes() {
        out.push(c);
        let n = out.len();
        if n >= 3 && out[n - 3] == b'%' && out[n - 2].is_ascii_hexdigit() && out[n - 1].is_ascii_hexdigit() {
            out.truncate(n - 3);
            found = true;
        }
    }
    let t = bytes_to_string(out);
    if found {
        let mut single = String::with_capacity(t.len());
        let mut prev_space = false;
        for c in t.chars() {
            if c == ' ' && prev_space {
                continue;
            }
            prev_space = c == ' ';
            single.push(c);
        }
        return php_trim(&single).to_string();
    }
    t
}

/// A `<` that does not open a tag (no `>` before the next `<` or the end) is escaped.
fn escape_lone_less_than(s: &str) -> String {
    pass(s, b"<", |b, i| {
        if b[i] != b'<' {
            return None;
        }
        let mut j = i + 1;
        loop {
            if j < b.len() && b[j] == b'<' {
                break;
            }
            if j < b.len() && b[j] == b'>' {
                return Some((j + 1 - i, b[i..=j].to_vec()));
            }
            if at_big_z(b, j) {
                break;
            }
            j += 1;
        }
        let piece = std::str::from_utf8(&b[i..j]).map(esc_html).unwrap_or_default();
        Some((j - i, piece.into_bytes()))
    })
}

/// The CMS's `wp_strip_all_tags`: `<script>`/`<style>` elements go with their content, then
/// all tags go, then the result is trimmed.
fn strip_all_tags(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    let lb = lower.as_bytes();
    let next_gt = NextOf::new(lb, b'>');
    let mut finders = [NextFinder::new(b"</script>"), NextFinder::new(b"</style>")];
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let mut matched = None;
        for (k, name) in [&b"<script"[..], b"<style"].iter().enumerate() {
            if starts_at(lb, i, name) {
                let gt = next_gt.at(i + name.len());
                if gt < lb.len() {
                    if let Some(close) = finders[k].find(lb, gt + 1) {
                        matched = Some(close + name.len() + 2);
                    }
                }
                break;
            }
        }
        match matched {
            Some(end) => i = end,
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    php_trim(&strip_tags(&bytes_to_string(out))).to_string()
}

/// Keeps the first `n` words (split on `[\n\r\t ]+`), joined by single spaces; appends `more`
/// when words were dropped (the CMS's `wp_trim_words` on tag-free text).
pub(super) fn trim_words(s: &str, n: usize, more: &str) -> String {
    let words: Vec<&str> = php_trim(s).split(['\n', '\r', '\t', ' ']).filter(|w| !w.is_empty()).take(n + 1).collect();
    if words.len() > n {
        format!("{}{}", words[..n].join(" "), more)
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRIP_TAGS_VECTORS: &[(&str, &str)] =
        &[("a <b>bold</b> < not a tag <!-- c --> x<y", "a bold < not a tag  x")];

    /// Vectors computed with the CMS's own formatting code (same inputs, its outputs).
    #[test]
    fn reference_vectors() {
        for (i, o) in STRIP_TAGS_VECTORS {
            assert_eq!(strip_tags(i), *o, "strip_tags {i:?}");
        }
    }
}
