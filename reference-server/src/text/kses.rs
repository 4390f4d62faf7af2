//! The CMS's HTML filter (`wp_kses`) with its basic tag list, for term descriptions.

use super::bytes::{find_from, is_re_space, php_trim, starts_at};
use super::entities::normalize_entities;
use super::scan::pass;

/// Tags and attributes the CMS keeps in term descriptions.
const BASIC_TAGS: [(&str, &[&str]); 14] = [
    ("a", &["href", "title"]),
    ("abbr", &["title"]),
    ("acronym", &["title"]),
    ("b", &[]),
    ("blockquote", &["cite"]),
    ("cite", &[]),
    ("code", &[]),
    ("del", &["datetime"]),
    ("em", &[]),
    ("i", &[]),
    ("q", &["cite"]),
    ("s", &[]),
    ("strike", &[]),
    ("strong", &[]),
];

const ALLOWED_PROTOCOLS: [&str; 22] = [
    "http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs", "gopher", "nntp", "feed", "telnet", "mms",
    "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn",
];

/// The CMS's HTML filter (`wp_kses`) with its basic tag list.
pub(super) fn kses_basic(raw: &str) -> String {
    kses_depth(raw, 0)
}

fn kses_depth(raw: &str, depth: usize) -> String {
    let cleaned: String =
        raw.chars().filter(|&c| !matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}')).collect();
    let text = normalize_entities(&cleaned);
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        let (end, piece_is_comment) = if starts_at(b, i, b"<!--") {
            // `<!--.*?(-->|$)` without crossing a line break; otherwise a plain element.
            let nl = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
            match find_from(b, i + 4, b"-->") {
                Some(e) if e < nl => (e + 3, true),
                _ if nl >= b.len() || nl + 1 == b.len() => (nl, true),
                _ => (element_end(b, i), false),
            }
        } else if b[i] == b'<' {
            (element_end(b, i), false)
        } else if b[i] == b'>' {
            out.push_str(&text[copied..i]);
            out.push_str("&gt;");
            i += 1;
            copied = i;
            continue;
        } else {
            i += 1;
            continue;
        };
        out.push_str(&text[copied..i]);
        let piece = text[i..end].replace("\\\"", "\"");
        if piece_is_comment || piece.starts_with("<!--") {
            out.push_str(&kses_comment(&piece, depth));
        } else {
            out.push_str(&kses_element(&piece));
        }
        i = end;
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// `<[^>]*(>|$)` starting at `i`.
fn element_end(b: &[u8], i: usize) -> usize {
    b[i + 1..].iter().position(|&c| c == b'>').map_or(b.len(), |p| i + 1 + p + 1)
}

fn kses_comment(piece: &str, depth: usize) -> String {
    let mut s = piece.replace("<!--", "").replace("-->", "");
    if depth < 4 {
        for _ in 0..8 {
            let next = kses_depth(&s, depth + 1);
            if next == s {
                break;
            }
            s = next;
        }
    }
    if s.is_empty() {
        return String::new();
    }
    let mut collapsed = String::with_capacity(s.len());
    let mut prev_dash = false;
    for c in s.chars() {
        if c == '-' && prev_dash {
            continue;
        }
        prev_dash = c == '-';
        collapsed.push(c);
    }
    if collapsed.ends_with('-') {
        collapsed.pop();
    } else if collapsed.ends_with("-\n") {
        collapsed.remove(collapsed.len() - 2);
    }
    format!("<!--{collapsed}-->")
}

fn kses_element(piece: &str) -> String {
    let Some((closing, name_start, j)) = element_head(piece.as_bytes()) else {
        return String::new();
    };
    let elem = &piece[name_start..j];
    let mut attr_end = piece.len();
    if piece.ends_with('>') {
        attr_end -= 1;
    }
    let attrs = &piece[j..attr_end.max(j)];
    if attrs.contains('>') {
        return String::new();
    }
    let lower = elem.to_ascii_lowercase();
    let Some((_, allowed)) = BASIC_TAGS.iter().find(|(n, _)| *n == lower) else {
        return String::new();
    };
    if closing {
        return format!("</{elem}>");
    }
    let xhtml_slash = xhtml_slash(attrs);
    if allowed.is_empty() {
        return format!("<{elem}{xhtml_slash}>");
    }
    let kept = kept_attributes(attrs, allowed);
    format!("<{elem}{kept}{xhtml_slash}>")
}

/// `^<\s*(/\s*)?([a-zA-Z0-9-]+)`: whether the tag closes, and where its name starts and ends;
/// None without a name.
fn element_head(b: &[u8]) -> Option<(bool, usize, usize)> {
    let mut j = 1;
    while j < b.len() && is_re_space(b[j]) {
        j += 1;
    }
    let closing = j < b.len() && b[j] == b'/';
    if closing {
        j += 1;
        while j < b.len() && is_re_space(b[j]) {
            j += 1;
        }
    }
    let name_start = j;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
        j += 1;
    }
    (j > name_start).then_some((closing, name_start, j))
}

/// `" /"` when the attributes end with the XHTML slash.
fn xhtml_slash(attrs: &str) -> &'static str {
    let ab = attrs.as_bytes();
    let mut k = ab.len();
    while k > 0 && is_re_space(ab[k - 1]) {
        k -= 1;
    }
    if k > 0 && ab[k - 1] == b'/' {
        " /"
    } else {
        ""
    }
}

/// The allowed attributes, each after a space, without `<` and `>`.
fn kept_attributes(attrs: &str, allowed: &[&str]) -> String {
    let mut kept = String::new();
    for (name, whole) in kses_hair(attrs) {
        if allowed.contains(&name.to_ascii_lowercase().as_str()) {
            kept.push(' ');
            kept.push_str(&whole);
        }
    }
    kept.replace(['<', '>'], "")
}

/// Attribute parsing as the CMS does it; returns `(name, rebuilt attribute)` pairs, first
/// occurrence of a name only.
fn kses_hair(attr: &str) -> Vec<(String, String)> {
    let mut hair = Hair { attr, b: attr.as_bytes(), out: Vec::new(), name: String::new() };
    let mut i = 0;
    let mut mode = HairMode::Name;
    while i < hair.b.len() {
        let step = match mode {
            HairMode::Name => hair.name_at(i).map(|j| (j, HairMode::AfterName)),
            HairMode::AfterName => hair.after_name(i),
            HairMode::Value => hair.value_at(i).map(|j| (j, HairMode::Name)),
        };
        (i, mode) = step.unwrap_or_else(|| (hair.skip_malformed(i), HairMode::Name));
    }
    if mode == HairMode::AfterName {
        hair.push(hair.name.clone());
    }
    hair.out
}

/// What `kses_hair` looks for next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HairMode {
    Name,
    /// `=` or the whitespace that ends an attribute without a value.
    AfterName,
    Value,
}

/// `kses_hair` under way: each step takes the position it starts at and returns where the
/// next one starts, or `None` when the text there is not what it looks for.
struct Hair<'a> {
    attr: &'a str,
    b: &'a [u8],
    out: Vec<(String, String)>,
    /// The name of the attribute being read.
    name: String,
}

impl Hair<'_> {
    /// Keeps an attribute unless one of the same name came first.
    fn push(&mut self, whole: String) {
        if !self.out.iter().any(|(n, _)| *n == self.name) {
            self.out.push((self.name.clone(), whole));
        }
    }

    /// The end of the run of whitespace at `i`.
    fn ws_run(&self, i: usize) -> usize {
        let mut j = i;
        while j < self.b.len() && is_re_space(self.b[j]) {
            j += 1;
        }
        j
    }

    /// `(\s+|/?$)` after a value: returns the end of what the CMS removes, or None.
    fn after_value(&self, j: usize) -> Option<usize> {
        let b = self.b;
        let w = self.ws_run(j);
        if w > j {
            return Some(w);
        }
        // (A final newline is whitespace, taken above.)
        if j == b.len() {
            return Some(j);
        }
        if b[j] == b'/' && (j + 1 == b.len() || (j + 2 == b.len() && b[j + 1] == b'\n')) {
            return Some(j);
        }
        None
    }

    fn name_at(&mut self, i: usize) -> Option<usize> {
        let b = self.b;
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b"-_:.".contains(&b[j])) {
            j += 1;
        }
        self.name = self.attr[i..j].to_string();
        Some(j)
    }

    /// After a name: `=` leads to a value; whitespace ends an attribute without one.
    fn after_name(&mut self, i: usize) -> Option<(usize, HairMode)> {
        let w = self.ws_run(i);
        if w < self.b.len() && self.b[w] == b'=' {
            Some((self.ws_run(w + 1), HairMode::Value))
        } else if w > i {
            self.push(self.name.clone());
            Some((w, HairMode::Name))
        } else {
            None
        }
    }

    fn value_at(&mut self, i: usize) -> Option<usize> {
        if self.b[i] == b'"' || self.b[i] == b'\'' {
            self.quoted_value(i)
        } else {
            self.bare_value(i)
        }
    }

    /// A value as the attribute keeps it: URLs of `href` and `cite` lose bad protocols.
    fn clean_value(&self, value: &str) -> String {
        if matches!(self.name.to_ascii_lowercase().as_str(), "href" | "cite") {
            bad_protocol(value)
        } else {
            value.to_string()
        }
    }

    fn quoted_value(&mut self, i: usize) -> Option<usize> {
        let b = self.b;
        let q = b[i];
        let close = i + 1 + b[i + 1..].iter().position(|&c| c == q)?;
        let end = self.after_value(close + 1)?;
        let value = self.clean_value(&self.attr[i + 1..close]);
        let qc = char::from(q);
        self.push(format!("{}={qc}{value}{qc}", self.name));
        // The CMS removes the value and following whitespace, not a '/': `end` is where that
        // whitespace ends (see `what_follows_a_value_ends_with_its_whitespace`).
        Some(end)
    }

    fn bare_value(&mut self, i: usize) -> Option<usize> {
        let b = self.b;
        let mut j = i;
        while j < b.len() && !is_re_space(b[j]) && b[j] != b'"' && b[j] != b'\'' {
            j += 1;
        }
        if j == i {
            return None;
        }
        self.after_value(j)?;
        let value = self.clean_value(&self.attr[i..j]);
        self.push(format!("{}=\"{value}\"", self.name));
        Some(self.ws_run(j))
    }

    /// Skips a malformed token: quoted strings and non-spaces, then spaces.
    fn skip_malformed(&self, i: usize) -> usize {
        let b = self.b;
        let mut j = i;
        loop {
            if j < b.len() && (b[j] == b'"' || b[j] == b'\'') {
                let q = b[j];
                j = b[j + 1..].iter().position(|&c| c == q).map_or(b.len(), |p| j + 1 + p + 1);
            } else if j < b.len() && !is_re_space(b[j]) {
                j += 1;
            } else {
                break;
            }
        }
        self.ws_run(j)
    }
}

/// Removes URL schemes outside the allowed list (`javascript:alert(1)` → `alert(1)`).
fn bad_protocol(v: &str) -> String {
    let mut s: String =
        v.chars().filter(|&c| !matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}')).collect();
    let mut iterations = 0;
    loop {
        let original = s.clone();
        s = bad_protocol_once(&s);
        iterations += 1;
        if original == s {
            return s;
        }
        if iterations >= 6 {
            return String::new();
        }
    }
}

fn bad_protocol_once(s: &str) -> String {
    bad_protocol_once_n(s, 1)
}

/// Length of a colon written as an entity (`&#58;`, `&#x3a;`, any leading zeros) at `i`. As in
/// the CMS, the `;` is required (the text is normalised: a `&#58` without it is `&amp;#58`).
fn colon_entity_at(b: &[u8], i: usize) -> Option<usize> {
    if !starts_at(b, i, b"&#") {
        return None;
    }
    let mut j = i + 2;
    let hex = j < b.len() && (b[j] == b'x' || b[j] == b'X');
    if hex {
        j += 1;
    }
    while j < b.len() && b[j] == b'0' {
        j += 1;
    }
    let want: &[u8] = if hex { b"3a;" } else { b"58;" };
    (j + 3 <= b.len() && b[j..j + 3].eq_ignore_ascii_case(want)).then_some(j + 3 - i)
}

fn bad_protocol_once_n(s: &str, count: usize) -> String {
    let b = s.as_bytes();
    // Find the first ':' or colon entity; the part before it is the scheme.
    let mut i = 0;
    let mut split = None;
    while i < b.len() {
        if b[i] == b':' {
            split = Some((i, i + 1));
            break;
        }
        if let Some(len) = colon_entity_at(b, i) {
            split = Some((i, i + len));
            break;
        }
        i += 1;
    }
    let Some((at, after)) = split else {
        return s.to_string();
    };
    let before = &s[..at];
    if before.contains("/?") {
        return s.to_string();
    }
    let mut rest = php_trim(&s[after..]).to_string();
    let scheme: String = decode_numeric_entities(before)
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0B' | '\x0C'))
        .filter(|&c| !matches!(c, '\u{0}'..='\u{8}' | '\u{E}'..='\u{1F}'))
        .collect::<String>()
        .to_ascii_lowercase();
    let protocol = if ALLOWED_PROTOCOLS.contains(&scheme.as_str()) { format!("{scheme}:") } else { String::new() };
    if protocol == "feed:" {
        if count > 2 {
            return String::new();
        }
        rest = bad_protocol_once_n(&rest, count + 1);
        if rest.is_empty() {
            return rest;
        }
    }
    format!("{protocol}{rest}")
}

/// `&#NN;` and `&#xNN;` become the characters they stand for. The text is normalised
/// (`normalize_entities`), so a hexadecimal one is written with a lowercase `x`.
fn decode_numeric_entities(s: &str) -> String {
    pass(s, b"&", |b, i| {
        if !starts_at(b, i, b"&#") {
            return None;
        }
        let hex = b.get(i + 2) == Some(&b'x');
        let ds = i + 2 + usize::from(hex);
        let n = b[ds..].iter().take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }).count();
        let digits = std::str::from_utf8(&b[ds..ds + n]).ok()?;
        let c = char::from_u32(u32::from_str_radix(digits, if hex { 16 } else { 10 }).ok()?)?;
        let mut buf = [0u8; 4];
        (b.get(ds + n) == Some(&b';')).then(|| (ds + n + 1 - i, c.encode_utf8(&mut buf).as_bytes().to_vec()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of `alphabet` of up to `max` bytes.
    fn strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    alphabet.iter().map(move |&c| {
                        let mut t = s.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// `&#0*58;` or `&#[xX]0*3[aA];` at `i`, by trying every end.
    fn colon_entity_model(b: &[u8], i: usize) -> Option<usize> {
        (1..=b.len() - i).find(|&n| {
            let s = String::from_utf8_lossy(&b[i..i + n]).to_ascii_lowercase();
            let (rest, want) = match s.strip_prefix("&#x") {
                Some(rest) => (rest, "3a;"),
                None => match s.strip_prefix("&#") {
                    Some(rest) => (rest, "58;"),
                    None => return false,
                },
            };
            rest.trim_start_matches('0') == want
        })
    }

    /// `colon_entity_at` finds the colon entities the model finds, at every position of every
    /// string of up to 6 bytes of their characters, texts that end in the middle of one
    /// included. (The server only gives it normalised values, where `&#` and zeros are always
    /// followed by another digit and a `;`, so letting the loop over the zeros look one byte
    /// past the end changes no answer of the interface; it panics here.)
    #[test]
    fn colon_entities_are_found_as_the_model_finds_them() {
        for s in strings(b"&#xX058a;", 6) {
            for i in 0..s.len() {
                assert_eq!(
                    colon_entity_at(&s, i),
                    colon_entity_model(&s, i),
                    "{:?} at {i}",
                    String::from_utf8_lossy(&s)
                );
            }
        }
    }

    /// What follows a quoted value (`after_value`) is either not accepted or ends where the
    /// whitespace run after the value ends: so `quoted_value`'s choice between that end and the
    /// end of the whitespace run never changes where the next attribute is read from, whatever
    /// its condition says (its mutants are equivalent).
    #[test]
    fn what_follows_a_value_ends_with_its_whitespace() {
        for s in strings(b" \t\n/\"'a=", 6) {
            let attr = String::from_utf8(s).unwrap();
            let hair = Hair { attr: &attr, b: attr.as_bytes(), out: Vec::new(), name: String::new() };
            for j in 0..=attr.len() {
                assert!(hair.after_value(j).is_none_or(|e| e == hair.ws_run(j)), "{attr:?} at {j}");
            }
        }
    }
}
