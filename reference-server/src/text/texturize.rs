//! Typography ("texturize"): curly quotes, dashes, ellipses, primes, `&#038;`.

use super::bytes::{
    at_big_z, bytes_to_string, ends_at, php_trim, replace_all, replace_pairs, spaces_at, spaces_before, starts_at,
};
use super::scan::{cat, html_split, pass};

const APOS_FLAG: &str = "<!--apos-->";

const OPEN_SQ_FLAG: &str = "<!--osq-->";

const OPEN_Q_FLAG: &str = "<!--oq-->";

const PRIME_FLAG: &str = "<!--wp-prime-or-quote-->";

const APOS: &str = "&#8217;";

const CLOSE_SQ: &str = "&#8217;";

const OPEN_SQ: &str = "&#8216;";

const OPEN_Q: &str = "&#8220;";

const CLOSE_Q: &str = "&#8221;";

const NO_TEXTURIZE_TAGS: [&[u8]; 6] = [b"pre", b"code", b"kbd", b"style", b"script", b"tt"];

/// A bare `&` (one that does not start something entity-like) becomes `&#038;`.
fn amp_to_038(s: &str) -> String {
    let b = s.as_bytes();
    if !b.contains(&b'&') {
        return s.to_string();
    }
    let mut out = Vec::with_capacity(b.len() + 16);
    for i in 0..b.len() {
        if b[i] == b'&' && !entity_like_at(b, i + 1) {
            out.extend_from_slice(b"&#038;");
        } else {
            out.push(b[i]);
        }
    }
    bytes_to_string(out)
}

/// `#\d+;`, `#x[0-9a-f]+;` or `[a-z1-4]{1,8};` (case-insensitive) at `i`.
fn entity_like_at(b: &[u8], i: usize) -> bool {
    if i < b.len() && b[i] == b'#' {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'x' || b[j] == b'X') {
            let s = j + 1;
            j = s;
            while j < b.len() && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            if j > s && j < b.len() && b[j] == b';' {
                return true;
            }
            // "#x" could still be read as digits only when x is absent; fall through.
        }
        let s = i + 1;
        let mut j = s;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        return j > s && j < b.len() && b[j] == b';';
    }
    let mut j = i;
    while j < b.len() && j - i < 8 && (b[j].is_ascii_alphabetic() || (b'1'..=b'4').contains(&b[j])) {
        j += 1;
    }
    j > i && j < b.len() && b[j] == b';'
}

/// Tracks opening and closing of elements whose content must not be texturized.
fn pushpop_element(tag: &[u8], stack: &mut Vec<Vec<u8>>) {
    let (opening, offset) = if tag.len() > 1 && tag[1] != b'/' {
        (true, 1)
    } else if stack.is_empty() {
        return;
    } else {
        (false, 2)
    };
    // The name runs to the first space, else to the tag's last byte; none when that end does
    // not come after the name's start.
    let end = tag.iter().position(|&c| c == b' ').unwrap_or(tag.len().saturating_sub(1));
    let name: &[u8] = tag.get(offset..end).unwrap_or(b"");
    if NO_TEXTURIZE_TAGS.contains(&name) {
        if opening {
            stack.push(name.to_vec());
        } else if stack.last().map(|v| v.as_slice()) == Some(name) {
            stack.pop();
        }
    }
}

/// The CMS's `wptexturize`.
pub(super) fn wptexturize(text: &str) -> String {
    if text.is_empty() || text == "0" {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut stack: Vec<Vec<u8>> = Vec::new();
    for (is_elem, piece) in html_split(text, false) {
        if is_elem {
            if piece.starts_with("<!--") {
                out.push_str(piece);
            } else {
                let fixed = amp_to_038(piece);
                pushpop_element(fixed.as_bytes(), &mut stack);
                out.push_str(&fixed);
            }
        } else if php_trim(piece).is_empty() || !stack.is_empty() {
            out.push_str(piece);
        } else {
            out.push_str(&texturize_run(piece));
        }
    }
    out
}

fn texturize_run(run: &str) -> String {
    let mut s = replace_pairs(
        run,
        &[
            ("...", "&#8230;"),
            ("``", OPEN_Q),
            ("''", CLOSE_Q),
            (" (tm)", " &#8482;"),
            ("'tain't", "&#8217;tain&#8217;t"),
            ("'twere", "&#8217;twere"),
            ("'twas", "&#8217;twas"),
            ("'tis", "&#8217;tis"),
            ("'twill", "&#8217;twill"),
            ("'til", "&#8217;til"),
            ("'bout", "&#8217;bout"),
            ("'nuff", "&#8217;nuff"),
            ("'round", "&#8217;round"),
            ("'cause", "&#8217;cause"),
            ("'em", "&#8217;em"),
        ],
    );
    if s.contains('\'') {
        s = apos_passes(&s);
        s = primes(&s, b'\'', "&#8242;", OPEN_SQ_FLAG, CLOSE_SQ);
        s = replace_all(&s, APOS_FLAG, APOS);
        s = replace_all(&s, OPEN_SQ_FLAG, OPEN_SQ);
    }
    if s.contains('"') {
        s = quote_passes(&s);
        s = primes(&s, b'"', "&#8243;", OPEN_Q_FLAG, CLOSE_Q);
        s = replace_all(&s, OPEN_Q_FLAG, OPEN_Q);
    }
    if s.contains('-') {
        s = dash_passes(&s);
    }
    s = times_pass(&s);
    amp_to_038(&s)
}

/// Closing-punctuation lookahead used by the quote rules:
/// `\Z|[.,:;!?)}\-\]]|&gt;|spaces`.
fn closer_at(b: &[u8], i: usize) -> bool {
    at_big_z(b, i) || b.get(i).is_some_and(|c| b".,:;!?)}-]".contains(c)) || starts_at(b, i, b"&gt;") || spaces_at(b, i)
}

fn digit_at(b: &[u8], i: usize) -> bool {
    i < b.len() && b[i].is_ascii_digit()
}

fn apos_passes(s: &str) -> String {
    // '99' and '99" at the end of a quotation.
    let s = pass(s, b"'", |b, i| {
        if b[i] == b'\'' && digit_at(b, i + 1) && digit_at(b, i + 2) && i + 3 < b.len() {
            let close: &[u8] = match b[i + 3] {
                b'\'' => CLOSE_SQ.as_bytes(),
                _ => return None,
            };
            if closer_at(b, i + 4) {
                return Some((4, cat(&[APOS_FLAG.as_bytes(), &b[i + 1..i + 3], close])));
            }
        }
        None
    });
    let s = pass(&s, b"'", |b, i| {
        if b[i] == b'\''
            && digit_at(b, i + 1)
            && digit_at(b, i + 2)
            && i + 3 < b.len()
            && b[i + 3] == b'"'
            && closer_at(b, i + 4)
        {
            return Some((4, cat(&[APOS_FLAG.as_bytes(), &b[i + 1..i + 3], CLOSE_Q.as_bytes()])));
        }
        None
    });
    // '99, '99s: an abbreviated year (but not '9, '99%, '999 or '99.0).
    let s = pass(&s, b"'", |b, i| {
        if b[i] == b'\'' && digit_at(b, i + 1) && digit_at(b, i + 2) {
            let j = i + 3;
            let ok = at_big_z(b, j)
                || !((j < b.len() && (b[j] == b'%' || b[j].is_ascii_digit()))
                    || (j < b.len() && (b[j] == b'.' || b[j] == b',') && digit_at(b, j + 1)));
            if ok {
                return Some((1, APOS_FLAG.as_bytes().to_vec()));
            }
        }
        None
    });
    // Quoted numbers like '0.42'.
    let s = pass(&s, b"'", |b, i| {
        if b[i] == b'\'' && (i == 0 || spaces_before(b, i)) && digit_at(b, i + 1) {
            let mut k = i + 2;
            while k < b.len() && (b[k].is_ascii_digit() || b[k] == b'.' || b[k] == b',') {
                k += 1;
            }
            if k < b.len() && b[k] == b'\'' {
                return Some((k + 1 - i, cat(&[OPEN_SQ_FLAG.as_bytes(), &b[i + 1..k], CLOSE_SQ.as_bytes()])));
            }
        }
        None
    });
    // Opening single quote.
    let s = pass(&s, b"'", |b, i| {
        if b[i] == b'\'' && (i == 0 || b"([{\"-".contains(&b[i - 1]) || ends_at(b, i, b"&lt;") || spaces_before(b, i)) {
            return Some((1, OPEN_SQ_FLAG.as_bytes().to_vec()));
        }
        None
    });
    // Apostrophe inside a word (one after spaces was taken as an opening quote just above).
    pass(&s, b"'", |b, i| {
        if b[i] == b'\'' {
            let j = i + 1;
            let blocked = at_big_z(b, j)
                || (j < b.len() && b".,:;!?\"'(){}[]-".contains(&b[j]))
                || starts_at(b, j, b"&lt;")
                || starts_at(b, j, b"&gt;")
                || spaces_at(b, j);
            if !blocked {
                return Some((1, APOS_FLAG.as_bytes().to_vec()));
            }
        }
        None
    })
}

fn quote_passes(s: &str) -> String {
    // Quoted numbers like "42".
    let s = pass(s, b"\"", |b, i| {
        if b[i] == b'"' && (i == 0 || spaces_before(b, i)) && digit_at(b, i + 1) {
            let mut k = i + 2;
            while k < b.len() && (b[k].is_ascii_digit() || b[k] == b'.' || b[k] == b',') {
                k += 1;
            }
            if k < b.len() && b[k] == b'"' {
                return Some((k + 1 - i, cat(&[OPEN_Q_FLAG.as_bytes(), &b[i + 1..k], CLOSE_Q.as_bytes()])));
            }
        }
        None
    });
    // Opening double quote, not followed by a space.
    pass(&s, b"\"", |b, i| {
        if b[i] == b'"'
            && (i == 0 || b"([{-".contains(&b[i - 1]) || ends_at(b, i, b"&lt;") || spaces_before(b, i))
            && !spaces_at(b, i + 1)
        {
            return Some((1, OPEN_Q_FLAG.as_bytes().to_vec()));
        }
        None
    })
}

/// Replaces `needle` bytes (or the prime flag) where `pred` holds; returns the count.
fn replace_where<F>(s: &str, pat: &[u8], rep: &str, pred: F) -> (String, usize)
where
    F: Fn(&[u8], usize) -> bool,
{
    let mut count = 0;
    let out = pass(s, &pat[..1], |b, i| {
        if starts_at(b, i, pat) && pred(b, i) {
            count += 1;
            Some((pat.len(), rep.as_bytes().to_vec()))
        } else {
            None
        }
    });
    (out, count)
}

/// Decides, for each remaining quote character, whether it is a prime (9' = nine feet)
/// or a closing quote.
fn primes(hay: &str, needle: u8, prime: &str, open_flag: &str, close: &str) -> String {
    let nd = [needle];
    let flag = PRIME_FLAG.as_bytes();
    let quote_pred = |b: &[u8], i: usize| closer_at(b, i + 1);
    let prime_pred = |b: &[u8], i: usize| i > 0 && b[i - 1].is_ascii_digit();
    let mut pieces: Vec<String> = Vec::new();
    for (key, sentence) in hay.split(open_flag).enumerate() {
        let mut s = sentence.to_string();
        if !s.as_bytes().contains(&needle) {
            pieces.push(s);
            continue;
        }
        if key != 0 && !s.contains(close) {
            let (t, count) = replace_where(&s, &nd, PRIME_FLAG, quote_pred);
            s = t;
            if count > 1 {
                let (t, count2) = replace_where(&s, flag, close, |b, i| !prime_pred(b, i));
                s = t;
                if count2 == 0 {
                    let dot = format!("{PRIME_FLAG}.");
                    let pos = if s.contains(&dot) { s.rfind(&dot) } else { s.rfind(PRIME_FLAG) };
                    if let Some(pos) = pos {
                        s = format!("{}{}{}", &s[..pos], close, &s[pos + PRIME_FLAG.len()..]);
                    }
                }
                s = replace_where(&s, &nd, prime, prime_pred).0;
                s = replace_where(&s, flag, prime, prime_pred).0;
                s = replace_all(&s, PRIME_FLAG, close);
            } else if count == 1 {
                s = replace_all(&s, PRIME_FLAG, close);
                s = replace_where(&s, &nd, prime, prime_pred).0;
            } else {
                s = replace_where(&s, &nd, prime, prime_pred).0;
            }
        } else {
            s = replace_where(&s, &nd, prime, prime_pred).0;
            s = replace_where(&s, &nd, close, quote_pred).0;
        }
        if needle == b'"' && s.contains('"') {
            s = replace_all(&s, "\"", close);
        }
        pieces.push(s);
    }
    pieces.join(open_flag)
}

fn dash_passes(s: &str) -> String {
    let em = "&#8212;".as_bytes();
    let en = "&#8211;".as_bytes();
    let s = replace_all(s, "---", "&#8212;");
    let start_or_space = |b: &[u8], i: usize| i == 0 || spaces_before(b, i);
    let end_or_space = |b: &[u8], i: usize| at_big_z(b, i) || spaces_at(b, i);
    let s = pass(&s, b"-", |b, i| {
        if starts_at(b, i, b"--") && start_or_space(b, i) && end_or_space(b, i + 2) {
            Some((2, em.to_vec()))
        } else {
            None
        }
    });
    let s = pass(
        &s,
        b"-",
        |b, i| if starts_at(b, i, b"--") && !ends_at(b, i, b"xn") { Some((2, en.to_vec())) } else { None },
    );
    pass(&s, b"-", |b, i| {
        if b[i] == b'-' && start_or_space(b, i) && end_or_space(b, i + 1) {
            Some((1, en.to_vec()))
        } else {
            None
        }
    })
}

fn is_word_byte(b: &[u8], i: usize) -> bool {
    i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_')
}

/// `9x9` → `9&#215;9` (but never `0x9999`).
fn times_pass(s: &str) -> String {
    let b = s.as_bytes();
    let has = (1..b.len()).any(|i| b[i] == b'x' && b[i - 1].is_ascii_digit() && digit_at(b, i + 1));
    if !has {
        return s.to_string();
    }
    // run_end[i]: end of the run of [0-9.,] starting at i.
    let mut run_end = vec![0usize; b.len() + 1];
    run_end[b.len()] = b.len();
    for i in (0..b.len()).rev() {
        run_end[i] = if b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b',' { run_end[i + 1] } else { i };
    }
    // The backward search for the closing word boundary depends only on where the second
    // number starts; remember the last answer so long runs are walked once.
    let mut memo: Option<(usize, Option<usize>)> = None;
    pass(s, b"0123456789", |b, i| {
        if !b[i].is_ascii_digit() || (i > 0 && is_word_byte(b, i - 1)) {
            return None;
        }
        // b[i] is a digit, so its run ends where the next byte's does.
        let g1_end = run_end[i];
        if b[i] == b'0' && g1_end == i + 1 {
            return None;
        }
        if g1_end >= b.len() || b[g1_end] != b'x' || !digit_at(b, g1_end + 1) {
            return None;
        }
        let g2_start = g1_end + 1;
        let end = match memo {
            Some((start, found)) if start == g2_start => found,
            _ => {
                // b[g2_start] is a digit: its run is the one of the bytes after it.
                let mut e = run_end[g2_start];
                let mut found = None;
                while e > g2_start {
                    if is_word_byte(b, e - 1) != is_word_byte(b, e) {
                        found = Some(e);
                        break;
                    }
                    e -= 1;
                }
                memo = Some((g2_start, found));
                found
            }
        };
        let e = end?;
        let rep = cat(&[&b[i..g1_end], b"&#215;", &b[g2_start..e]]);
        Some((e - i, rep))
    })
}
