//! How each stored record becomes its JSON representation (reference profile Part B §2).

use serde_json::{json, Map, Value};

use crate::access::{visible_organizers, visible_venue};
use crate::app::Ctx;
use crate::cost::render_cost;
use crate::dates::{details, format_wp, iso_with_offset};
use crate::model::{Event, Id, Lang, Organizer, Post, Status, Taxonomy, Term, Venue};
use crate::store::Data;
use crate::text::{jsonld_description, jsonld_name, render_content, render_excerpt, render_title};
use crate::validate::is_empty;

/// What a rendering needs: the request's addresses and the store.
pub struct View<'a> {
    pub ctx: &'a Ctx<'a>,
    pub data: &'a Data,
    /// Single reads carry `json_ld` (and so do the venue and organizers embedded in them).
    pub single: bool,
}

const NEVER_PUBLISHED: &str = "0000-00-00 00:00:00";

impl View<'_> {
    fn site(&self) -> &str {
        &self.ctx.app.site_url
    }

    fn global_id(&self, id: Id) -> String {
        format!("{}?id={id}", self.ctx.app.global_id_base())
    }

    /// The site address in an item's language: a translation plugin puts the language's
    /// directory before the path (`/fr/event/…`); the default language has none.
    fn site_in(&self, lang: Lang) -> String {
        if lang == Lang::default() {
            self.site().to_string()
        } else {
            format!("{}/{}", self.site(), lang.code())
        }
    }

    /// The public address of a post: pretty for published posts, plain otherwise.
    pub fn post_url(&self, post: &Post, base: &str, post_type: &str) -> String {
        match post.status {
            Status::Publish | Status::Private if !post.slug.is_empty() => {
                format!("{}/{base}/{}/", self.site_in(post.lang), post.slug)
            }
            _ => format!("{}/?post_type={post_type}&p={}", self.site(), post.id),
        }
    }

    fn post_head(&self, map: &mut Map<String, Value>, post: &Post) {
        map.insert("author".into(), json!(post.author.to_string()));
        map.insert("status".into(), json!(post.status.name()));
        map.insert("date".into(), json!(format_wp(post.date)));
        map.insert("date_utc".into(), json!(post.date_utc.map_or(NEVER_PUBLISHED.to_string(), format_wp)));
        map.insert("modified".into(), json!(format_wp(post.modified)));
        map.insert("modified_utc".into(), json!(format_wp(post.modified_utc)));
    }

    /// The image object, or `None` when the ID is not a known image.
    pub fn image(&self, id: Option<Id>) -> Option<Value> {
        let image = self.data.images.get(&id?)?;
        let mut value = json!({"url": &*image.url, "id": image.id, "extension": &*image.extension});
        if let Some(meta) = &image.meta {
            value["width"] = json!(meta.width);
            value["height"] = json!(meta.height);
            value["filesize"] = json!(meta.filesize);
            let sizes: Map<String, Value> = meta
                .sizes
                .iter()
                .map(|size| {
                    let mime = format!("image/{}", image.extension);
                    let value = json!({"width": size.width, "height": size.height, "mime-type": mime, "filesize": size.filesize, "url": &*size.url});
                    (size.name.to_string(), value)
                })
                .collect();
            value["sizes"] = Value::Object(sizes);
        }
        Some(value)
    }

    pub fn event_url(&self, event: &Event) -> String {
        self.post_url(&event.post, "event", "tribe_events")
    }

    /// The full event representation. `protected` blanks what a password hides.
    pub fn event(&self, event: &Event, protected: bool) -> Value {
        let post = &event.post;
        let url = self.event_url(event);
        let mut map = Map::new();
        map.insert("id".into(), json!(post.id));
        map.insert("global_id".into(), json!(self.global_id(post.id)));
        map.insert("global_id_lineage".into(), json!([self.global_id(post.id)]));
        self.post_head(&mut map, post);
        map.insert("url".into(), json!(url));
        map.insert("rest_url".into(), json!(format!("{}/events/{}", self.ctx.api_base, post.id)));
        map.insert("title".into(), json!(render_title(&post.title)));
        map.insert("description".into(), json!(render_content(&post.content)));
        map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, &post.content)));
        map.insert("slug".into(), json!(&*post.slug));
        map.insert("image".into(), self.image(post.image).unwrap_or(json!(false)));
        map.insert("all_day".into(), json!(event.all_day));
        for (key, at) in [
            ("start_date", event.start),
            ("end_date", event.end),
            ("utc_start_date", event.start_utc),
            ("utc_end_date", event.end_utc),
        ] {
            map.insert(key.into(), json!(format_wp(at)));
            map.insert(format!("{key}_details"), details(at));
        }
        map.insert("timezone".into(), json!(event.zone.name()));
        map.insert("timezone_abbr".into(), json!(event.zone.abbreviation(event.start)));
        let (cost, cost_details) = render_cost(&event.cost);
        map.insert("cost".into(), json!(cost));
        map.insert("cost_details".into(), cost_details);
        let website = match &event.website {
            Some(site) => site.to_string(),
            None => url.clone(),
        };
        map.insert("website".into(), json!(website));
        map.insert("show_map".into(), json!(event.show_map));
        map.insert("show_map_link".into(), json!(event.show_map_link));
        map.insert("hide_from_listings".into(), json!(event.hide_from_listings));
        map.insert("sticky".into(), json!(event.sticky));
        map.insert("featured".into(), json!(event.featured));
        let categories: Vec<Value> = self.embedded_terms(&event.categories);
        let tags: Vec<Value> = self.embedded_terms(&event.tags);
        map.insert("categories".into(), json!(categories));
        map.insert("tags".into(), json!(tags));
        // Only what the caller may read directly is embedded (`access`).
        let venue = visible_venue(self.ctx, self.data, event).map(|venue| self.venue(venue, false));
        map.insert("venue".into(), venue.unwrap_or(json!([])));
        let organizers: Vec<Value> =
            visible_organizers(self.ctx, self.data, event).map(|organizer| self.organizer(organizer, false)).collect();
        map.insert("organizer".into(), json!(organizers));
        map.insert("custom_fields".into(), json!([]));
        // Structured data is left out for password-protected events, as the plugin does.
        if self.single && event.post.password.is_none() {
            map.insert("json_ld".into(), self.event_json_ld(event, &url));
        }
        let mut value = Value::Object(map);
        if protected {
            blank_protected(&mut value);
        }
        value
    }

    fn event_json_ld(&self, event: &Event, url: &str) -> Value {
        let mut ld = Map::new();
        ld.insert("@context".into(), json!("http://schema.org"));
        ld.insert("@type".into(), json!("Event"));
        let private = event.post.status == Status::Private;
        ld.insert("name".into(), json!(jsonld_name(&event.post.title, private, event.post.password.is_some())));
        ld.insert("description".into(), json!(jsonld_description(&event.post.excerpt, &event.post.content)));
        if let Some(image) = event.post.image.and_then(|id| self.data.images.get(&id)) {
            ld.insert("image".into(), json!(&*image.url));
        }
        ld.insert("url".into(), json!(url));
        ld.insert("eventAttendanceMode".into(), json!("https://schema.org/OfflineEventAttendanceMode"));
        ld.insert("eventStatus".into(), json!("https://schema.org/EventScheduled"));
        ld.insert("startDate".into(), json!(iso_with_offset(event.start, &event.zone)));
        ld.insert("endDate".into(), json!(iso_with_offset(event.end, &event.zone)));
        if let Some(venue) = visible_venue(self.ctx, self.data, event) {
            ld.insert("location".into(), self.venue_json_ld(venue));
        }
        let organizers: Vec<Value> =
            visible_organizers(self.ctx, self.data, event).map(|o| self.organizer_json_ld(o)).collect();
        if let Some(first) = organizers.first() {
            ld.insert("organizer".into(), first.clone());
        }
        ld.insert("performer".into(), json!("Organization"));
        if let Some(price) = crate::cost::offer_price(&event.cost) {
            ld.insert(
                "offers".into(),
                json!({"@type": "Offer", "price": price, "priceCurrency": "USD", "url": url, "category": "primary", "availability": "inStock", "validFrom": format!("{}T00:00:00+00:00", event.post.date.format("%Y-%m-%d"))}),
            );
        }
        Value::Object(ld)
    }

    fn venue_json_ld(&self, venue: &Venue) -> Value {
        let region = if venue.stateprovince.is_empty() { &venue.state } else { &venue.stateprovince };
        let mut address = Map::new();
        address.insert("@type".into(), json!("PostalAddress"));
        for (key, value) in [
            ("streetAddress", &venue.address),
            ("addressLocality", &venue.city),
            ("addressRegion", region),
            ("postalCode", &venue.zip),
            ("addressCountry", &venue.country),
        ] {
            if !value.is_empty() {
                address.insert(key.into(), json!(&**value));
            }
        }
        let mut ld = Map::new();
        ld.insert("@type".into(), json!("Place"));
        ld.insert("name".into(), json!(jsonld_name(&venue.post.title, false, false)));
        ld.insert("description".into(), json!(jsonld_description(&venue.post.excerpt, &venue.post.content)));
        if let Some(image) = venue.post.image.and_then(|id| self.data.images.get(&id)) {
            ld.insert("image".into(), json!(&*image.url));
        }
        ld.insert("url".into(), json!(""));
        ld.insert("address".into(), Value::Object(address));
        ld.insert("telephone".into(), json!(&*venue.phone));
        ld.insert("sameAs".into(), json!(&*venue.website));
        Value::Object(ld)
    }

    fn organizer_json_ld(&self, organizer: &Organizer) -> Value {
        let mut ld = Map::new();
        ld.insert("@type".into(), json!("Person"));
        ld.insert("name".into(), json!(jsonld_name(&organizer.post.title, false, false)));
        ld.insert("description".into(), json!(jsonld_description(&organizer.post.excerpt, &organizer.post.content)));
        if let Some(image) = organizer.post.image.and_then(|id| self.data.images.get(&id)) {
            ld.insert("image".into(), json!(&*image.url));
        }
        ld.insert("url".into(), json!(&*organizer.website));
        ld.insert("telephone".into(), json!(&*organizer.phone));
        ld.insert("email".into(), json!(&*organizer.email));
        ld.insert("sameAs".into(), json!(&*organizer.website));
        Value::Object(ld)
    }

    /// Terms as embedded in an event (the CMS's term object with `id` and `urls`).
    fn embedded_terms(&self, ids: &[Id]) -> Vec<Value> {
        let mut terms: Vec<&Term> = ids.iter().filter_map(|id| self.data.terms.get(id)).map(|t| t.value()).collect();
        terms.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.id.cmp(&b.id)));
        terms
            .into_iter()
            .map(|term| {
                json!({
                    "name": &*term.name,
                    "slug": &*term.slug,
                    "term_group": 0,
                    "term_taxonomy_id": term.id,
                    "taxonomy": term.taxonomy.name(),
                    "description": &*term.description,
                    "parent": term.parent,
                    "count": term.count,
                    "filter": "raw",
                    "id": term.id,
                    "urls": self.term_urls(term),
                })
            })
            .collect()
    }

    fn term_collection(&self, term: &Term) -> String {
        let segment = match term.taxonomy {
            Taxonomy::Category => "categories",
            Taxonomy::Tag => "tags",
        };
        format!("{}/{segment}", self.ctx.api_base)
    }

    fn term_urls(&self, term: &Term) -> Value {
        let collection = self.term_collection(term);
        let mut urls = Map::new();
        urls.insert("self".into(), json!(format!("{collection}/{}", term.id)));
        urls.insert("collection".into(), json!(collection));
        if term.parent != 0 {
            urls.insert("up".into(), json!(format!("{collection}/{}", term.parent)));
        }
        Value::Object(urls)
    }

    /// The public archive address of a term.
    pub fn term_url(&self, term: &Term) -> String {
        let site = self.site_in(term.lang);
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
        map.insert("urls".into(), self.term_urls(term));
        if links {
            map.insert("_links".into(), self.term_links(term));
        }
        Value::Object(map)
    }

    fn term_links(&self, term: &Term) -> Value {
        let core = format!("{}{}/wp/v2", self.site(), self.ctx.app.config.root);
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

    /// A venue; empty fields are left out, as the plugin filters them.
    pub fn venue(&self, venue: &Venue, protected: bool) -> Value {
        let post = &venue.post;
        let mut map = Map::new();
        map.insert("id".into(), json!(post.id));
        self.post_head(&mut map, post);
        map.insert("url".into(), json!(self.post_url(post, "venue", "tribe_venue")));
        map.insert("venue".into(), json!(render_title(&post.title)));
        map.insert("description".into(), json!(render_content(&post.content)));
        map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, "")));
        map.insert("slug".into(), json!(&*post.slug));
        if let Some(image) = self.image(post.image) {
            map.insert("image".into(), image);
        }
        for (key, value) in venue.text_fields() {
            map.insert(key.into(), json!(value));
        }
        if let Some((lat, lng)) = venue.geo {
            map.insert("geo_lat".into(), json!(lat));
            map.insert("geo_lng".into(), json!(lng));
        }
        map.retain(|_, value| !is_empty(value));
        if self.single {
            map.insert("json_ld".into(), self.venue_json_ld(venue));
        }
        map.insert("show_map".into(), json!(venue.show_map.unwrap_or(true)));
        map.insert("show_map_link".into(), json!(venue.show_map_link.unwrap_or(true)));
        map.insert("global_id".into(), json!(self.global_id(post.id)));
        map.insert("global_id_lineage".into(), json!([self.global_id(post.id)]));
        let mut value = Value::Object(map);
        if protected {
            blank_protected(&mut value);
        }
        value
    }

    /// An organizer; empty fields are left out.
    pub fn organizer(&self, organizer: &Organizer, protected: bool) -> Value {
        let post = &organizer.post;
        let mut map = Map::new();
        map.insert("id".into(), json!(post.id));
        self.post_head(&mut map, post);
        map.insert("url".into(), json!(self.post_url(post, "organizer", "tribe_organizer")));
        map.insert("organizer".into(), json!(render_title(&post.title)));
        map.insert("description".into(), json!(render_content(&post.content)));
        map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, "")));
        map.insert("slug".into(), json!(&*post.slug));
        if let Some(image) = self.image(post.image) {
            map.insert("image".into(), image);
        }
        for (key, value) in organizer.text_fields() {
            map.insert(key.into(), json!(value));
        }
        if self.single {
            map.insert("json_ld".into(), self.organizer_json_ld(organizer));
        }
        map.insert("global_id".into(), json!(self.global_id(post.id)));
        map.insert("global_id_lineage".into(), json!([self.global_id(post.id)]));
        map.retain(|_, value| !is_empty(value));
        let mut value = Value::Object(map);
        if protected {
            blank_protected(&mut value);
        }
        value
    }
}

/// Replaces what a password protects, at every depth, as the plugin does.
fn blank_protected(value: &mut Value) {
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
