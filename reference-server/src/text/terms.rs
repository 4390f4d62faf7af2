//! Category and tag names and descriptions as stored and shown.

use super::entities::specialchars;
use super::kses::kses_basic;
use super::strip::sanitize_text_field;

/// A category or tag `name` as stored and shown (the CMS's save-time filters for term names):
/// tags are stripped, runs of whitespace become one space, `%XX` octets are removed, the text is
/// trimmed, and `&`, `<`, `>` are HTML-escaped (without double-escaping entities): so
/// `"Rock & Roll"` → `"Rock &amp; Roll"`, `"  Music  "` → `"Music"`. Quotes are kept.
/// Apply it on create and update; the term routes and the terms embedded in events show the
/// stored value as is.
pub fn render_term_name(raw: &str) -> String {
    specialchars(&kses_basic(&sanitize_text_field(raw)), false, false)
}

/// A category or tag `description` as stored and shown (the CMS's save-time filter for term
/// descriptions): only the basic inline tags survive (`a` with `href`/`title`, `abbr`,
/// `acronym`, `b`, `blockquote`, `cite`, `code`, `del`, `em`, `i`, `q`, `s`, `strike`,
/// `strong`), other tags are removed with their text kept, `&` not starting an entity becomes
/// `&amp;`, a stray `>` becomes `&gt;`. Not trimmed, no paragraphs (the recordings show
/// `"Every kind of live sound"` back unchanged).
pub fn render_term_description(raw: &str) -> String {
    kses_basic(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_term_texts() {
        for s in ["Music", "outdoor", "Practical workshops", "Every kind of live sound (changed)"] {
            assert_eq!(render_term_name(s), s);
            assert_eq!(render_term_description(s), s);
        }
        assert_eq!(render_term_description(""), "");
    }

    const TERM_NAME_VECTORS: &[(&str, &str)] = &[
        ("  Rock & <b>Roll</b>\n\tclub  ", "Rock &amp; Roll club"),
        ("50%25 off <script>bad()</script> \"quotes\" 'single' a < b", "50 off \"quotes\" 'single' a &lt; b"),
    ];

    const TERM_DESC_VECTORS: &[(&str, &str)] = &[
            ("<p>Para</p> <strong>ok</strong> <a href=\"javascript:alert(1)\" onclick=\"x\" title='t'>l</a> & <em>e</em> >", "Para <strong>ok</strong> <a href=\"alert(1)\" title='t'>l</a> &amp; <em>e</em> &gt;"),
            ("Every kind of live sound", "Every kind of live sound"),
        ];

    /// Vectors computed with the CMS's own formatting code (same inputs, its outputs).
    #[test]
    fn reference_vectors() {
        for (i, o) in TERM_NAME_VECTORS {
            assert_eq!(render_term_name(i), *o, "term name {i:?}");
        }
        for (i, o) in TERM_DESC_VECTORS {
            assert_eq!(render_term_description(i), *o, "term description {i:?}");
        }
    }
}
