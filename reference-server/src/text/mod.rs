//! Text rules of the CMS that the plugin's responses show: slugs, rendered content, excerpts,
//! titles, term texts, HTML escaping and URL validation.
//!
//! Every function is pure, never panics, and runs in time linear in its input. The functions
//! reproduce the CMS (English locale, default options) byte for byte where the recordings show
//! a value, and follow the CMS's documented formatting rules elsewhere.
//!
//! Not reproduced (no recording covers them): smiley-to-image conversion (`:)` stays text),
//! shortcodes (`[gallery]` stays text), the attributes the CMS adds to `<img>` tags in content,
//! and the rendering of dynamic editor blocks (only the block delimiters are removed).
//! Content and excerpt filtering that the CMS applies on save for users without the
//! "unfiltered HTML" right (authors, contributors) is not applied here either.
//!
//! Working on bytes: every pattern in these files is ASCII, so cutting and joining at the positions the
//! scanners find never splits a UTF-8 sequence; outputs are rebuilt with `bytes_to_string`,
//! which cannot fail on well-formed input and falls back to a lossy conversion otherwise.
//!
//! # Layout
//! - What the rest of the server calls: `render` (content, excerpt, title), `jsonld`, `terms`
//!   (term names and descriptions), `slug` (`sanitize_title`), `url` (`is_valid_url`),
//!   `entities` (`esc_html`), all re-exported here.
//! - The CMS's formatting steps they are made of: `texturize`, `autop`, `strip`, `kses`,
//!   `entities`, and `unicode` with `slug_tables` for transliteration.
//! - Shared machinery: `bytes` (PHP-style helpers) and `scan` (one-pass replacement,
//!   next-occurrence tables, splitting HTML into text and elements).

mod autop;
mod bytes;
mod entities;
mod jsonld;
mod kses;
mod render;
#[cfg(test)]
mod robustness;
mod scan;
mod slug;
mod slug_tables;
mod strip;
mod terms;
mod texturize;
mod unicode;
mod url;

pub use bytes::{php_trim, stripslashes};
pub use entities::esc_html;
pub use jsonld::{jsonld_description, jsonld_name};
pub use render::{render_content, render_excerpt, render_title};
pub use slug::{sanitize_slug, sanitize_title};
pub use terms::{render_term_description, render_term_name};
pub use url::is_valid_url;
