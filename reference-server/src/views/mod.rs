//! How each stored record becomes its JSON representation (reference profile Part B §2).
//!
//! # Layout
//! - `parts`: each record's keys as JSON values, from the records alone.
//! - `snapshot`: what rendering an event, venue or organizer needs, taken under the store's
//!   lock (shared records, and what the caller may see of them).
//! - `assemble`: answers as JSON text from cached fragments of those parts (`cache`), outside
//!   the lock; and the same as values, for protected events and for tests.
//! - here: terms as the term routes show them (small, rendered under the lock).

pub mod assemble;
pub mod parts;
pub mod snapshot;

use serde_json::{json, Map, Value};

pub use assemble::Renderer;
pub use snapshot::EventSnapshot;

use crate::app::Ctx;
use crate::model::{Taxonomy, Term};
use crate::store::Data;

/// What rendering a term needs: the request's addresses and the store (for its parents).
pub struct View<'a> {
    pub ctx: &'a Ctx<'a>,
    pub data: &'a Data,
}

impl View<'_> {
    fn site(&self) -> parts::Site<'_> {
        parts::Site { url: &self.ctx.app.site_url, global_id_base: String::new() }
    }

    /// The public archive address of a term.
    pub fn term_url(&self, term: &Term) -> String {
        let site = self.site().site_in(term.lang);
        match term.taxonomy {
            Taxonomy::Tag => format!("{site}/tag/{}/", term.slug),
            Taxonomy::Category => {
                let mut path = vec![term.slug.to_string()];
                let mut parent = term.parent;
                let mut guard = 0;
                while let Some(up) = self.data.terms.get(&parent).filter(|_| guard < 32) {
                    path.insert(0, up.slug.to_string());
                    parent = up.parent;
                    guard += 1;
                }
                format!("{site}/events/category/{}/", path.join("/"))
            }
        }
    }

    /// A term as the term routes show it; `links` adds the CMS's `_links`.
    pub fn term(&self, term: &Term, links: bool) -> Value {
        let mut map = Map::new();
        map.insert("id".into(), json!(term.id));
        map.insert("count".into(), json!(term.count));
        map.insert("description".into(), json!(&*term.description));
        map.insert("name".into(), json!(&*term.name));
        map.insert("slug".into(), json!(&*term.slug));
        map.insert("taxonomy".into(), json!(term.taxonomy.name()));
        if term.taxonomy == Taxonomy::Category {
            map.insert("parent".into(), json!(term.parent));
        }
        map.insert("meta".into(), json!([]));
        map.insert("url".into(), json!(self.term_url(term)));
        map.insert("urls".into(), parts::term_urls(&self.ctx.api_base, term));
        if links {
            map.insert("_links".into(), self.term_links(term));
        }
        Value::Object(map)
    }

    fn term_links(&self, term: &Term) -> Value {
        let core = format!("{}{}/wp/v2", self.ctx.app.site_url, self.ctx.app.config.root);
        // The core routes name tags by their REST base, categories by their taxonomy.
        let (base, query, post_types): (&str, &str, &[&str]) = match term.taxonomy {
            Taxonomy::Category => ("tribe_events_cat", "tribe_events_cat", &["tribe_events", "tec_calendar_embed"]),
            Taxonomy::Tag => ("tags", "tags", &["posts", "tribe_events", "tec_calendar_embed"]),
        };
        let may_manage = self.ctx.user.is_some_and(|user| match term.taxonomy {
            Taxonomy::Category => user.can_manage_categories(),
            Taxonomy::Tag => user.can_manage_tags(),
        });
        let allow: &[&str] = if may_manage { &["GET", "POST", "PUT", "PATCH", "DELETE"] } else { &["GET"] };
        let mut links = Map::new();
        links.insert(
            "self".into(),
            json!([{"href": format!("{core}/{base}/{}", term.id), "targetHints": {"allow": allow}}]),
        );
        links.insert("collection".into(), json!([{"href": format!("{core}/{base}")}]));
        links.insert("about".into(), json!([{"href": format!("{core}/taxonomies/{}", term.taxonomy.name())}]));
        if term.parent != 0 {
            links.insert("up".into(), json!([{"embeddable": true, "href": format!("{core}/{base}/{}", term.parent)}]));
        }
        let posts: Vec<Value> =
            post_types.iter().map(|kind| json!({"href": format!("{core}/{kind}?{query}={}", term.id)})).collect();
        links.insert("wp:post_type".into(), Value::Array(posts));
        links.insert("curies".into(), json!([{"name": "wp", "href": "https://api.w.org/{rel}", "templated": true}]));
        Value::Object(links)
    }
}

#[cfg(test)]
mod tests;
