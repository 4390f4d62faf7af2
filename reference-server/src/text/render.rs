//! Post texts as the API shows them: content, excerpt and title.

use super::autop::wpautop;
use super::bytes::{php_trim, replace_all, replace_pairs};
use super::entities::{convert_chars, convert_invalid_entities};
use super::strip::strip_block_delimiters;
use super::texturize::wptexturize;

/// The post content as the API shows it (the CMS's `the_content` filters, then trimmed).
///
/// Typography first (curly quotes `&#8220;…&#8221;`, `&#8217;`, `--`→`&#8211;`, `...`→
/// `&#8230;`, `9x9`→`9&#215;9`, a bare `&`→`&#038;`; nothing inside `pre`, `code`, `kbd`,
/// `style`, `script`, `tt`), then paragraphs: text separated by blank lines is wrapped in
/// `<p>…</p>` with `\n` between paragraphs, single line breaks become `<br />`, block-level
/// tags are not wrapped, `<pre>` content is left alone. Content written in the block editor's
/// format (`<!-- wp:… -->` delimiters) gets its delimiters removed and no paragraphs added.
/// `""` → `""`.
pub fn render_content(raw: &str) -> String {
    if raw.is_empty() {
        return String::new();
    }
    let text = convert_invalid_entities(raw);
    let text = if text.contains("<!-- wp:") {
        wptexturize(&strip_block_delimiters(&text))
    } else {
        wpautop(&wptexturize(&text))
    };
    let text = replace_pairs(
        &text,
        &[
            (" Wordpress", " WordPress"),
            ("&#8216;Wordpress", "&#8216;WordPress"),
            ("&#8220;Wordpress", "&#8220;WordPress"),
            (">Wordpress", ">WordPress"),
            ("(Wordpress", "(WordPress"),
        ],
    );
    php_trim(&text).to_string()
}

/// The excerpt as the API shows it (the CMS's `the_excerpt` filters on the stored excerpt,
/// then trimmed): `"A short swing teaser"` → `"<p>A short swing teaser</p>"`, `""` → `""`.
///
/// The recordings show that the API does **not** build an excerpt from the content: events,
/// venues and organizers created with a description but no excerpt answer `excerpt: ""`. So
/// `raw_content` is not used here; it is part of the signature for symmetry with
/// [`jsonld_description`], which does fall back to the content.
pub fn render_excerpt(raw_excerpt: &str, raw_content: &str) -> String {
    let _ = raw_content;
    if raw_excerpt.is_empty() {
        return String::new();
    }
    let text = convert_invalid_entities(raw_excerpt);
    let text = wpautop(&convert_chars(&wptexturize(&text)));
    php_trim(&text).to_string()
}

/// The title as the API shows it (events' `title`, venues' `venue`, organizers' `organizer`):
/// the CMS's `the_title` filters: typography as in [`render_content`] (tags such as `<Live>`
/// are left as they are, so `"Swing Evening <Live>"` comes back unchanged and is **not**
/// entity-encoded), `Wordpress` → `WordPress`, trimmed. Unicode is kept as is.
pub fn render_title(raw: &str) -> String {
    let text = wptexturize(php_trim(raw));
    let text = convert_chars(&text);
    let text = replace_all(php_trim(&text), "Wordpress", "WordPress");
    php_trim(&text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::terms::render_term_name;

    fn render_excerpt_only(s: &str) -> String {
        render_excerpt(s, "")
    }

    #[test]
    fn recorded_descriptions() {
        for (raw, shown) in [
            (
                "<p>A night of <strong>swing</strong>.</p>\n\nAnother paragraph.",
                "<p>A night of <strong>swing</strong>.</p>\n<p>Another paragraph.</p>",
            ),
            (
                "<script>alert(1)</script><p>Text & more</p>",
                "<p><script>alert(1)</script></p>\n<p>Text &#038; more</p>",
            ),
            ("<b>Swing</b> room uptown", "<p><b>Swing</b> room uptown</p>"),
            ("Concert hall", "<p>Concert hall</p>"),
            ("Volunteer <em>swing</em> dancers", "<p>Volunteer <em>swing</em> dancers</p>"),
            ("edited", "<p>edited</p>"),
            ("Hidden notes", "<p>Hidden notes</p>"),
            ("Changed by an editor", "<p>Changed by an editor</p>"),
            ("", ""),
        ] {
            assert_eq!(render_content(raw), shown, "{raw:?}");
        }
        // 10-errors-auth "body over 1 MiB (2 MiB description)": 2097152 × 'x' in one paragraph.
        let big = "x".repeat(2 * 1024 * 1024);
        let shown = render_content(&big);
        assert_eq!(shown.len(), 2_097_159);
        assert!(shown.starts_with("<p>xxx") && shown.ends_with("xxx</p>"));
    }

    /// A long run of `&` (issue 9, C1): each one is escaped, nothing else changes, and the
    /// JSON-LD description escapes the escapes.
    #[test]
    fn long_ampersand_runs_render_exactly() {
        let count = 256 * 1024;
        let raw = "&".repeat(count);
        assert_eq!(render_content(&raw), format!("<p>{}</p>", "&#038;".repeat(count)));
        assert_eq!(render_excerpt(&raw, ""), format!("<p>{}</p>", "&#038;".repeat(count)));
        assert_eq!(
            crate::text::jsonld_description("", &raw),
            format!("&lt;p&gt;{}&lt;/p&gt;\\n", "&amp;".repeat(count))
        );
    }

    #[test]
    fn recorded_excerpts() {
        for (raw, shown) in [
            ("A short swing teaser", "<p>A short swing teaser</p>"),
            ("hidden summary", "<p>hidden summary</p>"),
            ("new excerpt", "<p>new excerpt</p>"),
            ("changed through the slug route", "<p>changed through the slug route</p>"),
        ] {
            assert_eq!(render_excerpt(raw, "some content"), shown);
        }
        // Events, venues and organizers created with a description and no excerpt show "".
        assert_eq!(render_excerpt("", "<script>alert(1)</script><p>Text & more</p>"), "");
        assert_eq!(render_excerpt("", "<b>Swing</b> room uptown"), "");
    }

    #[test]
    fn recorded_titles() {
        for title in [
            "Swing Evening <Live>",
            "Crème Brûlée — Ökosystem ☕",
            "Swing Evening (moved)",
            "Osaka Lunch (form)",
            "Harbour Lights Hall",
            "Music",
            "Family Friendly",
            "Still Unused",
        ] {
            assert_eq!(render_title(title), title);
        }
        // Term names lose tags (stored sanitised) but keep everything else.
        assert_eq!(render_term_name("Swing Evening <Live>"), "Swing Evening");
        assert_eq!(render_term_name("Crème Brûlée — Ökosystem ☕"), "Crème Brûlée — Ökosystem ☕");
    }

    const CONTENT_VECTORS: &[(&str, &str)] = &[
        (
            "Line one\nLine two\n\nPara \"two\" isn't -- here...",
            "<p>Line one<br />\nLine two</p>\n<p>Para &#8220;two&#8221; isn&#8217;t &#8212; here&#8230;</p>",
        ),
        ("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\nafter", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<p>after</p>"),
        ("<pre>keep\n\n  \"this\"</pre>\ntext", "<pre>keep\n\n  \"this\"</pre>\n<p>text</p>"),
        ("intro\n<div>block</div>\noutro", "<p>intro</p>\n<div>block</div>\n<p>outro</p>"),
        ("a<br>\n<br/>b", "<p>a</p>\n<p>b</p>"),
        ("<code>'x' -- y</code> and 'x' -- y", "<p><code>'x' -- y</code> and &#8216;x&#8217; &#8212; y</p>"),
        ("<blockquote>quoted</blockquote>", "<blockquote><p>quoted</p></blockquote>"),
        ("I use Wordpress daily (Wordpress)", "<p>I use WordPress daily (WordPress)</p>"),
        (
            "He said \"9\" and 'tis 6'2\" tall in '99, 1x2 and 0x99",
            "<p>He said &#8220;9&#8221; and &#8217;tis 6&#8217;2&#8243; tall in &#8217;99, 1&#215;2 and 0x99</p>",
        ),
        ("a < b > c & d &amp; e &#8217; f", "<p>a < b > c &#038; d &amp; e &#8217; f</p>"),
        ("text\r\nmore\r\n\r\nnext", "<p>text<br />\nmore</p>\n<p>next</p>"),
        (
            "<script>\nvar a = 1;\n\nvar b;\n</script>\nafter",
            "<p><script>\nvar a = 1;</p>\n<p>var b;\n</script><br />\nafter</p>",
        ),
        ("&#150; &#128; dash", "<p>&#8211; &#8364; dash</p>"),
    ];

    const EXCERPT_VECTORS: &[(&str, &str)] =
        &[("Short & \"sweet\"\nsecond line", "<p>Short &#038; &#8220;sweet&#8221;<br />\nsecond line</p>")];

    const TITLE_VECTORS: &[(&str, &str)] = &[
        (
            "  \"Quoted\" title -- with Wordpress & <b>bold</b>  ",
            "&#8220;Quoted&#8221; title &#8212; with WordPress &#038; <b>bold</b>",
        ),
        ("Rock 'n' Roll...", "Rock &#8216;n&#8217; Roll&#8230;"),
    ];

    #[test]
    fn block_editor_content() {
        assert_eq!(
            render_content("<!-- wp:paragraph -->\n<p>Block one</p>\n<!-- /wp:paragraph -->"),
            "<p>Block one</p>"
        );
    }

    /// Vectors computed with the CMS's own formatting code (same inputs, its outputs).
    #[test]
    fn reference_vectors() {
        for (i, o) in CONTENT_VECTORS {
            assert_eq!(render_content(i), *o, "content {i:?}");
        }
        for (i, o) in EXCERPT_VECTORS {
            assert_eq!(render_excerpt_only(i), *o, "excerpt {i:?}");
        }
        for (i, o) in TITLE_VECTORS {
            assert_eq!(render_title(i), *o, "title {i:?}");
        }
    }
}
