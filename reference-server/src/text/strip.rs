//! Removing markup: PHP's `strip_tags`, the CMS's `wp_strip_all_tags`, block-editor
//! delimiters, `sanitize_text_field` and `wp_trim_words`.

use super::bytes::{at_big_z, bytes_to_string, find_from, is_re_space, php_trim, replace_all, starts_at};
use super::entities::esc_html;
use super::scan::{pass, NextOf};

/// Removes HTML tags as PHP's `strip_tags` does: a `<` followed by whitespace is kept as text,
/// quoted `>` inside a tag do not end it, comments `<!-- … -->` go entirely, and an unclosed
/// tag swallows the rest of the text. Text inside `<script>` or `<style>` is kept.
pub(super) fn strip_tags(text: &str) -> String {
    let b = text.as_bytes();
    let mut stripper =
        Stripper { b, out: Vec::with_capacity(b.len()), state: Within::Text, depth: 0, in_q: 0, lc: 0, br: 0 };
    for i in 0..b.len() {
        match stripper.state {
            Within::Text => stripper.text(i),
            Within::Tag => stripper.tag(i),
            Within::Instruction => stripper.instruction(i),
            Within::Declaration => stripper.declaration(i),
            Within::Comment => stripper.comment(i),
        }
    }
    bytes_to_string(stripper.out)
}

/// Where `strip_tags` is in the text.
#[derive(Clone, Copy)]
enum Within {
    Text,
    Tag,
    /// A processing instruction, `<?…?>`.
    Instruction,
    /// A declaration, `<!…>`.
    Declaration,
    Comment,
}

/// `strip_tags` under way: PHP's state machine, one method per state, each taking one byte.
struct Stripper<'a> {
    b: &'a [u8],
    out: Vec<u8>,
    state: Within,
    /// `<` nested inside a tag, each waiting for its `>`.
    depth: usize,
    /// The quote a tag is inside, or 0.
    in_q: u8,
    /// The last character that mattered to a processing instruction.
    lc: u8,
    /// Open brackets in a processing instruction.
    br: i64,
}

impl Stripper<'_> {
    fn c_space(&self, i: usize) -> bool {
        i < self.b.len() && matches!(self.b[i], b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
    }

    /// The byte `k` places before `i`, or 0 before the start.
    fn prev(&self, i: usize, k: usize) -> u8 {
        if i >= k {
            self.b[i - k]
        } else {
            0
        }
    }

    /// A `>` closes a nested `<` if there is one; true when it closes nothing.
    fn closes_nothing(&mut self) -> bool {
        if self.depth > 0 {
            self.depth -= 1;
            false
        } else {
            true
        }
    }

    /// Opens or closes a quote with `c`.
    fn toggle_quote(&mut self, c: u8) {
        self.in_q = if self.in_q != 0 { 0 } else { c };
    }

    /// A `>` in the text: kept unless it closes a nested `<` or sits in quotes.
    fn stray_close(&mut self) {
        if self.closes_nothing() && self.in_q == 0 {
            self.out.push(b'>');
        }
    }

    fn tag_close(&mut self) {
        if self.closes_nothing() && self.in_q == 0 {
            self.lc = b'>';
            self.in_q = 0;
            self.state = Within::Text;
        }
    }

    /// A `>` ends a processing instruction after `?`, outside quotes and brackets.
    fn instruction_close(&mut self, i: usize) {
        if self.closes_nothing() && self.in_q == 0 && self.br == 0 && self.lc != b'"' && self.prev(i, 1) == b'?' {
            self.in_q = 0;
            self.state = Within::Text;
        }
    }

    fn declaration_close(&mut self) {
        if self.closes_nothing() && self.in_q == 0 {
            self.in_q = 0;
            self.state = Within::Text;
        }
    }

    fn text(&mut self, i: usize) {
        let c = self.b[i];
        match c {
            0 => {}
            b'<' => {
                if self.in_q != 0 {
                } else if self.c_space(i + 1) {
                    self.out.push(c);
                } else {
                    self.lc = b'<';
                    self.state = Within::Tag;
                }
            }
            b'>' => self.stray_close(),
            _ => self.out.push(c),
        }
    }

    fn tag(&mut self, i: usize) {
        let c = self.b[i];
        match c {
            b'<' if self.in_q == 0 && !self.c_space(i + 1) => self.depth += 1,
            b'>' => self.tag_close(),
            b'"' | b'\'' if i > 0 && (self.in_q == 0 || c == self.in_q) => self.toggle_quote(c),
            b'!' if self.prev(i, 1) == b'<' => {
                self.state = Within::Declaration;
                self.lc = c;
            }
            b'?' if self.prev(i, 1) == b'<' => {
                self.br = 0;
                self.state = Within::Instruction;
            }
            _ => {}
        }
    }

    fn instruction(&mut self, i: usize) {
        let c = self.b[i];
        let lc = self.lc;
        match c {
            b'(' if lc != b'"' && lc != b'\'' => {
                self.lc = b'(';
                self.br += 1;
            }
            b')' if lc != b'"' && lc != b'\'' => {
                self.lc = b')';
                self.br -= 1;
            }
            b'>' => self.instruction_close(i),
            b'"' | b'\'' => self.instruction_quote(i, c),
            b'l' | b'L' if i > 4 && self.after_xml_opening(i) => self.state = Within::Tag,
            _ => {}
        }
    }

    /// A quote in a processing instruction; one after a backslash changes nothing (PHP's
    /// `strip_tags` lets an escaped quote count only inside a tag).
    fn instruction_quote(&mut self, i: usize, c: u8) {
        if i == 0 || self.prev(i, 1) == b'\\' {
            return;
        }
        if self.lc == c {
            self.lc = 0;
        } else if self.lc != b'\\' {
            self.lc = c;
        }
        if self.in_q == 0 || c == self.in_q {
            self.toggle_quote(c);
        }
    }

    /// Whether the bytes before `i` are `<?xm` (any case for `xm`): `<?xml` is a tag.
    fn after_xml_opening(&self, i: usize) -> bool {
        self.prev(i, 1).eq_ignore_ascii_case(&b'm')
            && self.prev(i, 2).eq_ignore_ascii_case(&b'x')
            && self.prev(i, 3) == b'?'
            && self.prev(i, 4) == b'<'
    }

    fn declaration(&mut self, i: usize) {
        let c = self.b[i];
        match c {
            b'>' => self.declaration_close(),
            b'"' | b'\'' if self.prev(i, 1) != b'\\' && (self.in_q == 0 || c == self.in_q) => self.toggle_quote(c),
            b'-' if self.prev(i, 1) == b'-' && self.prev(i, 2) == b'!' => self.state = Within::Comment,
            b'E' | b'e' if i.checked_sub(6).is_some_and(|at| self.b[at..i].eq_ignore_ascii_case(b"doctyp")) => {
                self.state = Within::Tag
            }
            _ => {}
        }
    }

    fn comment(&mut self, i: usize) {
        if self.b[i] == b'>' && self.in_q == 0 && i >= 2 && self.prev(i, 1) == b'-' && self.prev(i, 2) == b'-' {
            self.in_q = 0;
            self.state = Within::Text;
        }
    }
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
    let finders = [NextOf::needle(lb, b"</script>"), NextOf::needle(lb, b"</style>")];
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let mut matched = None;
        for (k, name) in [&b"<script"[..], b"<style"].iter().enumerate() {
            if starts_at(lb, i, name) {
                let gt = next_gt.at(i + name.len());
                if gt < lb.len() {
                    // b[gt] is '>', so no closing tag starts there.
                    if let Some(close) = finders[k].next(gt) {
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

    /// In a processing instruction, a quote after a backslash neither opens nor closes a quoted
    /// part (PHP's `strip_tags`: only inside a tag does an escaped quote count), so the `?>`
    /// after it ends the instruction. Outputs of PHP 8.2's `strip_tags`.
    #[test]
    fn escaped_quotes_in_instructions() {
        for (i, o) in [
            ("v <? \\\"q ?> u", "v  u"),
            ("v <? \\\"q\\\" ?> u", "v  u"),
            ("v <? \\'q ?> u <? 'a\\'b' ?> w", "v  u  w"),
            ("x <? \"'\" ?> z ?> w", "x "),
            ("<a title=\\\"x>\">t</a>", "t"),
        ] {
            assert_eq!(strip_tags(i), o, "strip_tags {i:?}");
        }
    }
}
