//! The JSON-LD `name` and `description` of events, venues and organizers.

use super::autop::wpautop;
use super::entities::{esc_html, esc_js, normalize_entities};
use super::render::render_title;
use super::strip::{strip_tags, trim_words};

/// The JSON-LD `name` of an event, venue or organizer: the displayed title, prefixed the way
/// the CMS prefixes titles of protected (`"Protected: "`) and private (`"Private: "`) posts,
/// then HTML-escaped. The recordings show `"Swing Evening &lt;Live&gt;"` and
/// `"Private: Private Event"`.
pub fn jsonld_name(raw_title: &str, private: bool, password_protected: bool) -> String {
    let title = render_title(raw_title);
    let title = if password_protected {
        format!("Protected: {title}")
    } else if private {
        format!("Private: {title}")
    } else {
        title
    };
    esc_html(&title)
}

/// The JSON-LD `description` of an event, venue or organizer. Unlike the REST `excerpt`, this
/// one falls back to the content: the excerpt if there is one, else the content cut to 55
/// words (with `" [&hellip;]"` when cut); tags removed (their text kept), paragraphs added,
/// then escaped for a script context (`&lt;p&gt;…&lt;/p&gt;` and a literal backslash-n for each
/// line break). Recorded: excerpt `"A short swing teaser"` →
/// `"&lt;p&gt;A short swing teaser&lt;/p&gt;\\n"`; no excerpt and no content → `""`.
pub fn jsonld_description(raw_excerpt: &str, raw_content: &str) -> String {
    let has_excerpt = !raw_excerpt.is_empty() && raw_excerpt != "0";
    let source = if has_excerpt { raw_excerpt } else { raw_content };
    if source.is_empty() {
        return String::new();
    }
    let mut text = strip_tags(source);
    if !has_excerpt {
        text = trim_words(&text, 55, " [&hellip;]");
    }
    // The CMS's `esc_js` normalises entities (dropping `&#0;`) after the paragraphs are made.
    esc_js(&normalize_entities(&wpautop(&text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_json_ld() {
        assert_eq!(jsonld_name("Swing Evening <Live>", false, false), "Swing Evening &lt;Live&gt;");
        assert_eq!(jsonld_name("Private Event", true, false), "Private: Private Event");
        assert_eq!(jsonld_name("Crème Brûlée — Ökosystem ☕", false, false), "Crème Brûlée — Ökosystem ☕");
        assert_eq!(
            jsonld_description("A short swing teaser", "<p>A night of <strong>swing</strong>.</p>"),
            "&lt;p&gt;A short swing teaser&lt;/p&gt;\\n"
        );
        assert_eq!(
            jsonld_description("", "<script>alert(1)</script><p>Text & more</p>"),
            "&lt;p&gt;alert(1)Text &amp; more&lt;/p&gt;\\n"
        );
        assert_eq!(jsonld_description("", "<b>Swing</b> room uptown"), "&lt;p&gt;Swing room uptown&lt;/p&gt;\\n");
        assert_eq!(
            jsonld_description("", "Volunteer <em>swing</em> dancers"),
            "&lt;p&gt;Volunteer swing dancers&lt;/p&gt;\\n"
        );
        assert_eq!(jsonld_description("", ""), "");
    }

    #[test]
    fn jsonld_description_cuts_long_content() {
        let content = (1..=60).map(|n| format!("w{n}")).collect::<Vec<_>>().join(" ");
        let d = jsonld_description("", &content);
        assert!(d.starts_with("&lt;p&gt;w1 w2 "));
        assert!(d.ends_with("w55 [&hellip;]&lt;/p&gt;\\n"));
    }
}
