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
    let b = piece.as_bytes();
    // ^<\s*(/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$
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
    if j == name_start {
        return String::new();
    }
    let elem = &piece[name_start..j];
    let mut attr_end = b.len();
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
    let ab = attrs.as_bytes();
    let mut k = ab.len();
    while k > 0 && is_re_space(ab[k - 1]) {
        k -= 1;
    }
    let xhtml_slash = if k > 0 && ab[k - 1] == b'/' { " /" } else { "" };
    if allowed.is_empty() {
        return format!("<{elem}{xhtml_slash}>");
    }
    let mut kept = String::new();
    for (name, whole) in kses_hair(attrs) {
        if allowed.contains(&name.to_ascii_lowercase().as_str()) {
            kept.push(' ');
            kept.push_str(&whole);
        }
    }
    let kept = kept.replace(['<', '>'], "");
    format!("<{elem}{kept}{xhtml_slash}>")
}

/// Attribute parsing as the CMS does it; returns `(name, rebuilt attribute)` pairs, first
/// occurrence of a name only.
fn kses_hair(attr: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let b = attr.as_bytes();
    let mut i = 0;
    let mut mode = 0;
    let mut name = String::new();
    let push = |out: &mut Vec<(String, String)>, name: &str, whole: String| {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), whole));
        }
    };
    let ws_run = |i: usize| {
        let mut j = i;
        while j < b.len() && is_re_space(b[j]) {
            j += 1;
        }
        j
    };
    // `(\s+|/?$)` after a value: returns the end of what the CMS removes, or None.
    let after_value = |j: usize| -> Option<usize> {
        let w = ws_run(j);
        if w > j {
            return Some(w);
        }
        if j == b.len() || (j + 1 == b.len() && b[j] == b'\n') {
            return Some(j);
        }
        if b[j] == b'/' && (j + 1 == b.len() || (j + 2 == b.len() && b[j + 1] == b'\n')) {
            return Some(j);
        }
        None
    };
    while i < b.len() {
        let mut working = false;
        match mode {
            0 => {
                if b[i].is_ascii_alphabetic() || b[i] == b'_' {
                    let mut j = i + 1;
                    while j < b.len() && (b[j].is_ascii_alphanumeric() || b"-_:.".contains(&b[j])) {
                        j += 1;
                    }
                    name = attr[i..j].to_string();
                    i = j;
                    working = true;
                    mode = 1;
                }
            }
            1 => {
                let w = ws_run(i);
                if w < b.len() && b[w] == b'=' {
                    i = ws_run(w + 1);
                    working = true;
                    mode = 2;
                } else if w > i {
                    push(&mut out, &name, name.clone());
                    i = w;
                    working = true;
                    mode = 0;
                }
            }
            _ => {
                if b[i] == b'"' || b[i] == b'\'' {
                    let q = b[i];
                    if let Some(p) = b[i + 1..].iter().position(|&c| c == q) {
                        let close = i + 1 + p;
                        if let Some(end) = after_value(close + 1) {
                            let mut value = attr[i + 1..close].to_string();
                            if matches!(name.to_ascii_lowercase().as_str(), "href" | "cite") {
                                value = bad_protocol(&value);
                            }
                            let qc = char::from(q);
                            push(&mut out, &name, format!("{name}={qc}{value}{qc}"));
                            // The CMS removes the value and following whitespace, not a '/'.
                            let w = ws_run(close + 1);
                            i = if w > close + 1 || close + 1 >= b.len() { w } else { end };
                            working = true;
                            mode = 0;
                        }
                    }
                } else {
                    let mut j = i;
                    while j < b.len() && !is_re_space(b[j]) && b[j] != b'"' && b[j] != b'\'' {
                        j += 1;
                    }
                    if j > i {
                        if let Some(_end) = after_value(j) {
                            let mut value = attr[i..j].to_string();
                            if matches!(name.to_ascii_lowercase().as_str(), "href" | "cite") {
                                value = bad_protocol(&value);
                            }
                            push(&mut out, &name, format!("{name}=\"{value}\""));
                            i = ws_run(j);
                            working = true;
                            mode = 0;
                        }
                    }
                }
            }
        }
        if !working {
            // Skip a malformed token: quoted strings and non-spaces, then spaces.
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
            i = ws_run(j);
            mode = 0;
        }
    }
    if mode == 1 {
        push(&mut out, &name, name.clone());
    }
    out
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

/// Length of a colon written as an entity (`&#58;`, `&#x3a;`, any leading zeros) at `i`,
/// with or without its `;`.
fn colon_entity_at(b: &[u8], i: usize) -> Option<(usize, bool)> {
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
    let want: &[u8] = if hex { b"3a" } else { b"58" };
    if j + 2 > b.len() || !b[j..j + 2].eq_ignore_ascii_case(want) {
        return None;
    }
    j += 2;
    if j < b.len() && b[j] == b';' {
        return Some((j + 1 - i, true));
    }
    let blocked = j < b.len() && (b[j].is_ascii_digit() || (hex && b[j].is_ascii_hexdigit()));
    (!blocked).then_some((j - i, false))
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
        if let Some((len, _)) = colon_entity_at(b, i) {
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

/// `&#NN;` and `&#xNN;` become the characters they stand for.
fn decode_numeric_entities(s: &str) -> String {
    pass(s, b"&", |b, i| {
        if !starts_at(b, i, b"&#") {
            return None;
        }
        let hex = i + 2 < b.len() && (b[i + 2] == b'x' || b[i + 2] == b'X');
        let ds = if hex { i + 3 } else { i + 2 };
        let n = b[ds..].iter().take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }).count();
        if n == 0 || ds + n >= b.len() || b[ds + n] != b';' {
            return None;
        }
        let digits = std::str::from_utf8(&b[ds..ds + n]).ok()?;
        let v = u32::from_str_radix(digits, if hex { 16 } else { 10 }).ok()?;
        let c = char::from_u32(v)?;
        let mut buf = [0u8; 4];
        Some((ds + n + 1 - i, c.encode_utf8(&mut buf).as_bytes().to_vec()))
    })
}
