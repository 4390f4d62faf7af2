//! Answers as JSON text, assembled from cached fragments (`cache`) and the few parts that
//! depend on the request: the `rest_url` under the request's base address, which linked items
//! the caller may see, the list envelope. Nothing here holds the store's lock: it works on
//! snapshots (`snapshot`).
//!
//! The same answer as a JSON value (`Renderer::event_value`) comes from the same parts
//! (`parts`); it serves protected events, whose hidden fields are blanked on the value, and
//! tests that check the assembled text against it.

use std::cell::OnceCell;
use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::parts::{self, Site};
use super::snapshot::{EventSnapshot, Linked};
use crate::app::Ctx;
use crate::cache::{Fragment, Held, Key, RenderCache};
use crate::model::{Lang, Organizer, Term, Venue};
use crate::store::Rec;

/// Renders for one request.
pub struct Renderer<'a> {
    ctx: &'a Ctx<'a>,
    cache: &'a RenderCache,
    site: OnceCell<Site<'a>>,
    /// Which base address the request came to, for fragments that show it (term `urls`);
    /// `None` when it is not one the server builds (nothing is cached then).
    base: Option<u8>,
}

/// Appends `text` as a JSON string.
pub fn push_str(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// A JSON object's text without its closing brace (`{"a":1`), or without both braces.
fn object_text(map: Map<String, Value>, keep_open: bool) -> String {
    let mut text = Value::Object(map).to_string();
    text.pop();
    if !keep_open {
        text.remove(0);
    }
    text
}

impl<'a> Renderer<'a> {
    pub fn new(ctx: &'a Ctx<'a>) -> Renderer<'a> {
        Renderer::with_cache(ctx, &ctx.app.store.renders)
    }

    /// A renderer with a cache of its own (benchmarks of cold renderings, tests).
    pub fn with_cache(ctx: &'a Ctx<'a>, cache: &'a RenderCache) -> Renderer<'a> {
        Renderer { ctx, cache, site: OnceCell::new(), base: base_variant(ctx) }
    }

    fn site(&self) -> &Site<'a> {
        self.site.get_or_init(|| Site { url: &self.ctx.app.site_url, global_id_base: self.ctx.app.global_id_base() })
    }

    /// A fragment from the cache, or rendered now (and kept, unless `cache` is false).
    fn fragment(&self, key: Key, cache: bool, render: impl FnOnce() -> Fragment) -> Held {
        if cache {
            self.cache.get_or_render(key, render)
        } else {
            Held::new(std::sync::Arc::new(render()))
        }
    }

    // ----- events -----

    /// The event as JSON text, appended to `out`.
    pub fn event(&self, out: &mut Vec<u8>, snap: &EventSnapshot) {
        if snap.protected {
            // Rare: the blanking works on the value.
            let _ = serde_json::to_writer(&mut *out, &self.event_value(snap));
            return;
        }
        let event = &snap.event;
        let cache = !snap.detached;
        let own = self.fragment(Key::Event(event.post.id, event.rev()), cache, || {
            let head = parts::event_head(self.site(), event);
            let body = parts::event_body(self.site(), event, snap.image.as_deref());
            Fragment::pair(&object_text(head, true), &object_text(body, false))
        });
        out.extend_from_slice(own.first().as_bytes());
        out.extend_from_slice(b",\"rest_url\":");
        let mut url = String::with_capacity(self.ctx.api_base.len() + 28);
        url.push_str(&self.ctx.api_base);
        url.push_str("/events/");
        // Writing to a String cannot fail.
        let _ = write!(url, "{}", event.post.id);
        push_str(out, &url);
        out.push(b',');
        out.extend_from_slice(own.second().as_bytes());
        for (key, terms) in [("categories", &snap.categories), ("tags", &snap.tags)] {
            out.extend_from_slice(b",\"");
            out.extend_from_slice(key.as_bytes());
            out.extend_from_slice(b"\":[");
            for (index, term) in terms.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                self.term(out, term);
            }
            out.push(b']');
        }
        out.extend_from_slice(b",\"venue\":");
        match &snap.venue {
            Some(venue) => self.venue(out, venue, snap.single),
            None => out.extend_from_slice(b"[]"),
        }
        out.extend_from_slice(b",\"organizer\":[");
        for (index, organizer) in snap.organizers.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            self.organizer(out, organizer, snap.single);
        }
        out.extend_from_slice(b"],\"custom_fields\":[]");
        // Structured data is left out for password-protected events, as the plugin does.
        if snap.single && event.post.password.is_none() {
            let ld = self.fragment(Key::EventLd(event.post.id, event.rev()), cache, || {
                let head = parts::event_ld_head(self.site(), event, snap.image.as_deref());
                let tail = parts::event_ld_tail(self.site(), event);
                Fragment::pair(&object_text(head, true), &object_text(tail, false))
            });
            out.extend_from_slice(b",\"json_ld\":");
            out.extend_from_slice(ld.first().as_bytes());
            if let Some(venue) = &snap.venue {
                out.extend_from_slice(b",\"location\":");
                self.venue_ld(out, venue);
            }
            if let Some(organizer) = snap.organizers.first() {
                out.extend_from_slice(b",\"organizer\":");
                self.organizer_ld(out, organizer);
            }
            out.push(b',');
            out.extend_from_slice(ld.second().as_bytes());
            out.push(b'}');
        }
        out.push(b'}');
    }

    /// The event as a JSON value: the same parts as [`Renderer::event`], and what a password
    /// hides blanked when the snapshot says so.
    pub fn event_value(&self, snap: &EventSnapshot) -> Value {
        let event = &snap.event;
        let site = self.site();
        let mut map = parts::event_head(site, event);
        map.insert("rest_url".into(), json!(format!("{}/events/{}", self.ctx.api_base, event.post.id)));
        map.extend(parts::event_body(site, event, snap.image.as_deref()));
        let terms = |terms: &[std::sync::Arc<Rec<Term>>]| -> Value {
            terms.iter().map(|term| parts::embedded_term(&self.ctx.api_base, term)).collect()
        };
        map.insert("categories".into(), terms(&snap.categories));
        map.insert("tags".into(), terms(&snap.tags));
        let venue = snap.venue.as_ref().map(|v| parts::venue(site, &v.record, v.image.as_deref(), snap.single));
        map.insert("venue".into(), venue.unwrap_or(json!([])));
        let organizers: Vec<Value> = snap
            .organizers
            .iter()
            .map(|o| parts::organizer(site, &o.record, o.image.as_deref(), snap.single))
            .collect();
        map.insert("organizer".into(), json!(organizers));
        map.insert("custom_fields".into(), json!([]));
        if snap.single && event.post.password.is_none() {
            let mut ld = parts::event_ld_head(site, event, snap.image.as_deref());
            if let Some(venue) = &snap.venue {
                ld.insert("location".into(), parts::venue_ld(&venue.record, venue.image.as_deref()));
            }
            if let Some(organizer) = snap.organizers.first() {
                ld.insert("organizer".into(), parts::organizer_ld(&organizer.record, organizer.image.as_deref()));
            }
            ld.extend(parts::event_ld_tail(site, event));
            map.insert("json_ld".into(), Value::Object(ld));
        }
        let mut value = Value::Object(map);
        if snap.protected {
            blank_protected(&mut value);
        }
        value
    }

    fn term(&self, out: &mut Vec<u8>, term: &std::sync::Arc<Rec<Term>>) {
        let key = Key::Term(term.id, term.rev(), self.base.unwrap_or(0));
        let fragment = self.fragment(key, self.base.is_some(), || {
            Fragment::new(parts::embedded_term(&self.ctx.api_base, term).to_string())
        });
        out.extend_from_slice(fragment.text().as_bytes());
    }

    // ----- venues and organizers -----

    /// A venue as lists and embeds show it, or as a single read does (`single`).
    pub fn venue(&self, out: &mut Vec<u8>, venue: &Linked<Venue>, single: bool) {
        let record = &venue.record;
        let fragment = self.fragment(Key::Venue(record.post.id, record.rev(), single), true, || {
            Fragment::new(parts::venue(self.site(), record, venue.image.as_deref(), single).to_string())
        });
        out.extend_from_slice(fragment.text().as_bytes());
    }

    pub fn organizer(&self, out: &mut Vec<u8>, organizer: &Linked<Organizer>, single: bool) {
        let record = &organizer.record;
        let fragment = self.fragment(Key::Organizer(record.post.id, record.rev(), single), true, || {
            Fragment::new(parts::organizer(self.site(), record, organizer.image.as_deref(), single).to_string())
        });
        out.extend_from_slice(fragment.text().as_bytes());
    }

    fn venue_ld(&self, out: &mut Vec<u8>, venue: &Linked<Venue>) {
        let record = &venue.record;
        let fragment = self.fragment(Key::VenueLd(record.post.id, record.rev()), true, || {
            Fragment::new(parts::venue_ld(record, venue.image.as_deref()).to_string())
        });
        out.extend_from_slice(fragment.text().as_bytes());
    }

    fn organizer_ld(&self, out: &mut Vec<u8>, organizer: &Linked<Organizer>) {
        let record = &organizer.record;
        let fragment = self.fragment(Key::OrganizerLd(record.post.id, record.rev()), true, || {
            Fragment::new(parts::organizer_ld(record, organizer.image.as_deref()).to_string())
        });
        out.extend_from_slice(fragment.text().as_bytes());
    }
}

/// The request's base address among those the server builds: 0 for the default one, then one
/// per language prefix; `None` for any other.
fn base_variant(ctx: &Ctx) -> Option<u8> {
    let config = &ctx.app.config;
    let rest = ctx.api_base.strip_prefix(ctx.app.site_url.as_str())?;
    let is_tail = |tail: &str| {
        tail.strip_prefix(config.root.as_str())
            .and_then(|tail| tail.strip_prefix('/'))
            .is_some_and(|namespace| namespace == config.namespace)
    };
    if is_tail(rest) {
        return Some(0);
    }
    Lang::ALL.iter().zip(1u8..).find_map(|(lang, variant)| {
        let tail = rest.strip_prefix('/')?.strip_prefix(lang.code())?;
        is_tail(tail).then_some(variant)
    })
}

/// Replaces what a password protects, at every depth, as the plugin does.
pub fn blank_protected(value: &mut Value) {
    let Value::Object(map) = value else { return };
    for (key, field) in map.iter_mut() {
        let replacement = match key.as_str() {
            "description" | "excerpt" | "cost" | "website" | "address" | "city" | "country" | "province" | "zip"
            | "phone" | "stateprovince" | "email" => Some(json!("")),
            "image" => Some(json!(false)),
            "all_day" | "show_map" | "show_map_link" | "hide_from_listings" | "sticky" | "featured" => {
                Some(Value::Null)
            }
            "cost_details" => {
                Some(json!({"currency_symbol": "", "currency_position": "", "currency_code": "", "values": []}))
            }
            "categories" | "tags" | "venue" | "organizer" | "custom_fields" => Some(json!([])),
            _ => None,
        };
        match replacement {
            Some(replacement) => *field = replacement,
            None => blank_protected(field),
        }
    }
}
