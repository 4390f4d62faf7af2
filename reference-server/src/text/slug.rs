//! Slugs: the CMS's `sanitize_title` in the "save" context (transliteration, percent-encoding,
//! dashes).

use super::bytes::{replace_all, starts_at};
use super::scan::{cat, pass, NextOf};
use super::slug_tables::ACCENTS;
use super::strip::strip_tags;
use super::unicode::compose;

/// The slug the CMS derives from a title (its `sanitize_title` in the "save" context).
///
/// Accented Latin letters are transliterated (`é`→`e`, `ü`→`u`, `æ`→`ae`, `ß`→`s`: the site's
/// locale is English, where the CMS maps `ß` to a single `s`), tags are stripped, the text is
/// lowercased, characters that stay non-ASCII are percent-encoded in lowercase hex (`☕` →
/// `%e2%98%95`) and the encoded form is cut at 200 bytes; en and em dashes, no-break spaces and
/// `/` become `-`, curly quotes and a few symbols vanish, `.` becomes `-`, everything outside
/// `[%a-z0-9 _-]` is dropped, spaces become `-`, dashes collapse and are trimmed.
///
/// Returns `""` when nothing is left (e.g. `"!!!"`); the CMS then falls back to the post ID
/// for a published post.
pub fn sanitize_title(title: &str) -> String {
    sanitize_title_with_dashes(&remove_accents(title))
}

/// The slug stored for a slug a client sends explicitly: the CMS runs the same sanitising as
/// for titles (`"swing-evening"` stays, `"Swing Evening"` → `"swing-evening"`); an already
/// percent-encoded slug keeps its octets, lowercased (`%E2%98%95` → `%e2%98%95`).
pub fn sanitize_slug(slug: &str) -> String {
    sanitize_title(slug)
}

/// Transliterates accented letters (the CMS's `remove_accents`, English locale), after
/// composing base letters with following combining marks.
fn remove_accents(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    let composed = compose(s);
    let mut out = String::with_capacity(composed.len());
    for c in composed {
        match ACCENTS.binary_search_by(|(k, _)| k.cmp(&c)) {
            Ok(idx) => out.push_str(ACCENTS[idx].1),
            Err(_) => out.push(c),
        }
    }
    out
}

/// Percent-encodes the non-ASCII characters (lowercase hex), stopping before the encoded text
/// would pass `limit` bytes.
fn utf8_uri_encode(s: &str, limit: usize) -> String {
    let mut out = String::with_capacity(s.len().min(limit) + 8);
    let mut buf = [0u8; 4];
    for c in s.chars() {
        if c.is_ascii() {
            if out.len() + 1 > limit {
                break;
            }
            out.push(c);
        } else {
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            if out.len() + 3 * bytes.len() > limit {
                break;
            }
            for &byte in bytes {
                out.push('%');
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 15)]));
            }
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Encoded characters that become a dash in slugs (no-break and typographic spaces, en and
/// em dashes and their entities, `/`).
const SLUG_TO_DASH: [&str; 24] = [
    "%c2%a0",
    "%e2%80%93",
    "%e2%80%94",
    "&nbsp;",
    "&#160;",
    "&ndash;",
    "&#8211;",
    "&mdash;",
    "&#8212;",
    "/",
    "%e2%80%80",
    "%e2%80%81",
    "%e2%80%82",
    "%e2%80%83",
    "%e2%80%84",
    "%e2%80%85",
    "%e2%80%86",
    "%e2%80%87",
    "%e2%80%88",
    "%e2%80%89",
    "%e2%80%8a",
    "%e2%80%a8",
    "%e2%80%a9",
    "%e2%80%af",
];

/// Encoded characters dropped from slugs: soft hyphen, inverted marks, angle and curly quotes,
/// bullet, ©, ®, °, …, ™, accents, zero-width and direction marks, BOM, object replacement.
const SLUG_DROP: [&str; 40] = [
    "%c2%ad",
    "%c2%a1",
    "%c2%bf",
    "%c2%ab",
    "%c2%bb",
    "%e2%80%b9",
    "%e2%80%ba",
    "%e2%80%98",
    "%e2%80%99",
    "%e2%80%9c",
    "%e2%80%9d",
    "%e2%80%9a",
    "%e2%80%9b",
    "%e2%80%9e",
    "%e2%80%9f",
    "%e2%80%a2",
    "%c2%a9",
    "%c2%ae",
    "%c2%b0",
    "%e2%80%a6",
    "%e2%84%a2",
    "%c2%b4",
    "%cb%8a",
    "%cc%81",
    "%cd%81",
    "%cc%80",
    "%cc%84",
    "%cc%8c",
    "%e2%80%8b",
    "%e2%80%8c",
    "%e2%80%8d",
    "%e2%80%8e",
    "%e2%80%8f",
    "%e2%80%aa",
    "%e2%80%ab",
    "%e2%80%ac",
    "%e2%80%ad",
    "%e2%80%ae",
    "%ef%bb%bf",
    "%ef%bf%bc",
];

fn sanitize_title_with_dashes(title: &str) -> String {
    let t = strip_tags(title);
    // Keep %XX octets, drop other percent signs (the CMS marks octets as ---XX--- meanwhile,
    // so a literal ---XX--- in the text also turns into %XX).
    let t = pass(&t, b"%", |b, i| {
        (b[i] == b'%' && i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit())
            .then(|| (3, cat(&[b"---", &b[i + 1..i + 3], b"---"])))
    });
    let t = t.replace('%', "");
    let t = pass(&t, b"-", |b, i| {
        (starts_at(b, i, b"---")
            && i + 8 <= b.len()
            && b[i + 3].is_ascii_hexdigit()
            && b[i + 4].is_ascii_hexdigit()
            && &b[i + 5..i + 8] == b"---")
            .then(|| (8, cat(&[b"%", &b[i + 3..i + 5]])))
    });
    let t = utf8_uri_encode(&t.to_lowercase(), 200).to_ascii_lowercase();
    let mut t = t;
    for from in SLUG_TO_DASH {
        t = replace_all(&t, from, "-");
    }
    for from in SLUG_DROP {
        t = replace_all(&t, from, "");
    }
    let t = replace_all(&t, "%c3%97", "x");
    // Entities (&…;) go.
    let b = t.as_bytes();
    let next_semi = NextOf::new(b, b';');
    let next_nl = NextOf::new(b, b'\n');
    let t = pass(&t, b"&", |b, i| {
        if b[i] != b'&' {
            return None;
        }
        // `&.+?;`: at least one byte before the `;`, and no line break up to it.
        let semi = next_semi.at(i + 2);
        (semi < b.len() && next_nl.at(i + 1) > semi).then(|| (semi + 1 - i, Vec::new()))
    });
    let mut out = String::with_capacity(t.len());
    let mut last_dash = false;
    for c in t.chars() {
        let c = match c {
            '.' | ' ' | '-' => '-',
            '%' | 'a'..='z' | '0'..='9' | '_' => c,
            _ => continue,
        };
        if c == '-' {
            if last_dash {
                continue;
            }
            last_dash = true;
        } else {
            last_dash = false;
        }
        out.push(c);
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_slugs_from_titles() {
        for (title, slug) in [
            ("Minimal Event", "minimal-event"),
            ("Cost string with postfix symbol", "cost-string-with-postfix-symbol"),
            ("ISO Dates Event", "iso-dates-event"),
            ("Offset Zone Event", "offset-zone-event"),
            ("Bulk Event 1", "bulk-event-1"),
            ("Crème Brûlée — Ökosystem ☕", "creme-brulee-okosystem-%e2%98%95"),
            ("Harbour Lights Hall", "harbour-lights-hall"),
            ("Salle Bleue", "salle-bleue"),
            ("Swing Club", "swing-club"),
            ("Empty Category", "empty-category"),
            ("Family Friendly", "family-friendly"),
            ("Big", "big"),
        ] {
            assert_eq!(sanitize_title(title), slug, "{title}");
        }
    }

    #[test]
    fn recorded_explicit_slugs() {
        for slug in ["swing-evening", "music", "family", "renamed-category", "swing-evening-moved"] {
            assert_eq!(sanitize_slug(slug), slug);
        }
        assert_eq!(sanitize_slug("creme-brulee-okosystem-%E2%98%95"), "creme-brulee-okosystem-%e2%98%95");
        assert_eq!(sanitize_slug("Swing Evening"), "swing-evening");
    }

    const SLUG_VECTORS: &[(&str, &str)] = &[
            ("Hello World!", "hello-world"),
            ("  --Multiple   spaces--and---dashes  ", "multiple-spaces-and-dashes"),
            ("Tom & Jerry's \"Big\" Day", "tom-jerrys-big-day"),
            ("100% Natural / Organic", "100-natural-organic"),
            ("Ελληνικά και Русский", "%ce%b5%ce%bb%ce%bb%ce%b7%ce%bd%ce%b9%ce%ba%ce%ac-%ce%ba%ce%b1%ce%b9-%d1%80%d1%83%d1%81%d1%81%d0%ba%d0%b8%d0%b9"),
            ("<b>Bold</b> move", "bold-move"),
            ("Déjà vu — Ærø Œuvre ß Ø ŁÓDŹ ñ Ç", "deja-vu-aero-oeuvre-s-o-lodz-n-c"),
            ("snake_case.name", "snake_case-name"),
            ("e\u{301}le\u{300}ve", "eleve"),
            ("%E2%98%95 coffee %zz", "%e2%98%95-coffee-zz"),
            ("Price 5×10 ©2024 ™ “quoted” ‘single’ …", "price-5x10-2024-quoted-single"),
            ("☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕☕", "%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95%e2%98%95"),
        ];

    #[test]
    fn slug_length_limit() {
        assert_eq!(sanitize_title(&"a".repeat(250)), "a".repeat(200));
        // Encoded characters are never cut in the middle: 22 × 9 bytes fit in 200.
        assert_eq!(sanitize_title(&"☕".repeat(80)), "%e2%98%95".repeat(22));
        assert_eq!(sanitize_title("!!!"), "");
        assert_eq!(sanitize_title(""), "");
    }

    #[test]
    fn transliteration_details() {
        // The site's locale is English: ß → s (only German locales use ss).
        assert_eq!(sanitize_title("Straße"), "strase");
        // Combining marks are composed first, then transliterated.
        assert_eq!(sanitize_title("e\u{301}te\u{301}"), "ete");
        assert_eq!(sanitize_title("A\u{30a}ngstro\u{308}m"), "angstrom");
        assert_eq!(sanitize_title("e\u{301}\u{327}"), "%c8%a9");
    }

    /// Vectors computed with the CMS's own formatting code (same inputs, its outputs).
    #[test]
    fn reference_vectors() {
        for (i, o) in SLUG_VECTORS {
            assert_eq!(sanitize_title(i), *o, "slug {i:?}");
        }
    }

    /// The CMS's `sanitize_title_with_dashes` on texts of `&`, `;`, line breaks, a letter, spaces
    /// and dots, with its regular expressions: entities (`&.+?;`, not across a line break) go,
    /// dots and spaces become dashes, other characters go, runs of dashes become one, the ends
    /// lose theirs.
    fn entities_and_dashes_model(s: &str) -> String {
        let s = regex::Regex::new("&.+?;").unwrap().replace_all(s, "").replace('.', "-");
        let mut out = String::new();
        for c in s.chars() {
            let c = match c {
                ' ' | '-' => '-',
                'a'..='z' => c,
                _ => continue,
            };
            if c == '-' && out.ends_with('-') {
                continue;
            }
            out.push(c);
        }
        out.trim_matches('-').to_string()
    }

    /// Every text of up to 5 of those characters gives the model's slug. (Where an entity
    /// would end, the `;` found is never a line break and the text has none past its end, so
    /// the bounds of the test for a line break up to the `;` may be loose by one, and looking
    /// for it from the `&` itself finds the same one: this test passes with those mutants.)
    #[test]
    fn entities_go_as_the_cms_removes_them() {
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last.iter().flat_map(|s| ['&', ';', '\n', 'a', ' ', '.'].map(|c| format!("{s}{c}"))).collect();
            texts.extend(last.iter().cloned());
        }
        for text in texts {
            assert_eq!(sanitize_title_with_dashes(&text), entities_and_dashes_model(&text), "{text:?}");
        }
    }
}
