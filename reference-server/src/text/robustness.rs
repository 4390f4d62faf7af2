//! Every public text function on odd and large inputs: no panic, and time linear in the
//! input (a quadratic path would not finish).

use super::strip::strip_tags;
use super::*;

fn all_functions(s: &str) {
    let _ = sanitize_title(s);
    let _ = sanitize_slug(s);
    let _ = render_content(s);
    let _ = render_excerpt(s, s);
    let _ = render_title(s);
    let _ = esc_html(s);
    let _ = strip_tags(s);
    let _ = is_valid_url(s);
    let _ = render_term_name(s);
    let _ = render_term_description(s);
    let _ = jsonld_name(s, true, true);
    let _ = jsonld_description(s, s);
    let _ = jsonld_description("", s);
}

/// Inputs at the edges of markup, entities, URLs and Unicode.
const ODD_INPUTS: &[&str] = &[
    "",
    "<",
    ">",
    "&",
    "&#",
    "&#x",
    "&#0;",
    "&#1",
    "%",
    "%e",
    "'",
    "\"",
    "-",
    "--",
    "x",
    "0",
    "0x",
    "9x",
    "<p",
    "</",
    "<!--",
    "<!-",
    "<![CDATA[",
    "<pre",
    "</pre>",
    "<br",
    "<p><li",
    "<script",
    "<?",
    "<!x",
    "\u{301}",
    "e\u{301}\u{327}\u{308}",
    "ÿ",
    "\u{10ffff}",
    "\0",
    "\r",
    "\r\n\r\n",
    "\u{a0}",
    "&nbsp;",
    "'99'",
    "\"9\"",
    "http://[",
    "http://[::1",
    "a:",
    ":",
    "http://a:",
    "http://@",
    "<a href='javascript:x'>",
    "<a href=\"feed:feed:feed:x\">",
    "<!-- wp:",
    "<!-- wp:x",
    "<pre wp-pre-tag-0></pre>",
    "&#x110000;",
    "&#99999999;",
];

#[test]
fn odd_inputs_do_not_panic() {
    for s in ODD_INPUTS {
        all_functions(s);
    }
}

#[test]
fn megabyte_inputs_finish() {
    let patterns = [
        "x",
        "<",
        "<p><li",
        "<script",
        "<style>",
        "<svg",
        "&",
        "&a",
        "1.1,",
        "1x",
        "'",
        "\"",
        "-",
        "--",
        "\n",
        "\n\n",
        " \n",
        "<br />\n",
        "<!--",
        "<pre>",
        "</pre>",
        "<p>",
        "</p>",
        "<div>",
        "é",
        "e\u{301}",
        "☕",
        "%",
        "%41",
        "<a href=",
        "<b>",
        "\u{301}\u{327}",
        "<![CDATA[",
        "&#1",
        "---ab---",
        "<option",
        "<object>",
        "<audio",
        "<figcaption",
    ];
    // One megabyte for the plain cases; the adversarial patterns at 32 KiB keep the
    // (unoptimised) test build fast while still catching quadratic behaviour.
    all_functions(&"x".repeat(1_000_000));
    let _ = sanitize_title(&"é<b>".repeat(200_000));
    for p in patterns {
        all_functions(&p.repeat(32 * 1024 / p.len()));
    }
}
