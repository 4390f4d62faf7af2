//! The pieces of each record's representation, as JSON values, from the records alone (no
//! store, no request): every renderer of the server builds on these, in the order the
//! representation shows its keys (reference profile Part B §2).

use serde_json::{json, Map, Value};

use crate::cost::render_cost;
use crate::dates::{details, format_wp, iso_with_offset};
use crate::model::{Event, Id, Image, Lang, Organizer, Post, Status, Taxonomy, Term, Venue};
use crate::text::{jsonld_description, jsonld_name, render_content, render_excerpt, render_title};
use crate::validate::is_empty;

const NEVER_PUBLISHED: &str = "0000-00-00 00:00:00";

/// What renderings need to know of the site: the same for every request.
pub struct Site<'a> {
    /// `http://host:port` (no trailing slash).
    pub url: &'a str,
    /// `host[/path]`, as `global_id` shows it.
    pub global_id_base: String,
}

impl Site<'_> {
    fn global_id(&self, id: Id) -> String {
        format!("{}?id={id}", self.global_id_base)
    }

    /// The site address in an item's language: a translation plugin puts the language's
    /// directory before the path (`/fr/event/…`); the default language has none.
    pub fn site_in(&self, lang: Lang) -> String {
        if lang == Lang::default() {
            self.url.to_string()
        } else {
            format!("{}/{}", self.url, lang.code())
        }
    }

    /// The public address of a post: pretty for published posts, plain otherwise.
    pub fn post_url(&self, post: &Post, base: &str, post_type: &str) -> String {
        match post.status {
            Status::Publish | Status::Private if !post.slug.is_empty() => {
                format!("{}/{base}/{}/", self.site_in(post.lang), post.slug)
            }
            _ => format!("{}/?post_type={post_type}&p={}", self.url, post.id),
        }
    }

    pub fn event_url(&self, event: &Event) -> String {
        self.post_url(&event.post, "event", "tribe_events")
    }
}

fn post_head(map: &mut Map<String, Value>, post: &Post) {
    map.insert("author".into(), json!(post.author.to_string()));
    map.insert("status".into(), json!(post.status.name()));
    map.insert("date".into(), json!(format_wp(post.date)));
    map.insert("date_utc".into(), json!(post.date_utc.map_or(NEVER_PUBLISHED.to_string(), format_wp)));
    map.insert("modified".into(), json!(format_wp(post.modified)));
    map.insert("modified_utc".into(), json!(format_wp(post.modified_utc)));
}

/// The image object.
pub fn image(image: &Image) -> Value {
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
    value
}

/// An event's keys before `rest_url`: `id` to `url`.
pub fn event_head(site: &Site, event: &Event) -> Map<String, Value> {
    let post = &event.post;
    let mut map = Map::new();
    map.insert("id".into(), json!(post.id));
    map.insert("global_id".into(), json!(site.global_id(post.id)));
    map.insert("global_id_lineage".into(), json!([site.global_id(post.id)]));
    post_head(&mut map, post);
    map.insert("url".into(), json!(site.event_url(event)));
    map
}

/// An event's own keys after `rest_url`: `title` to `featured` (`image` is the event's image
/// record, if it has one the media library knows).
pub fn event_body(site: &Site, event: &Event, image_record: Option<&Image>) -> Map<String, Value> {
    let post = &event.post;
    let mut map = Map::new();
    map.insert("title".into(), json!(render_title(&post.title)));
    map.insert("description".into(), json!(render_content(&post.content)));
    map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, &post.content)));
    map.insert("slug".into(), json!(&*post.slug));
    map.insert("image".into(), image_record.map_or(json!(false), image));
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
        None => site.event_url(event),
    };
    map.insert("website".into(), json!(website));
    map.insert("show_map".into(), json!(event.show_map));
    map.insert("show_map_link".into(), json!(event.show_map_link));
    map.insert("hide_from_listings".into(), json!(event.hide_from_listings));
    map.insert("sticky".into(), json!(event.sticky));
    map.insert("featured".into(), json!(event.featured));
    map
}

/// An event's JSON-LD keys before its location and organizer: `@context` to `endDate`.
pub fn event_ld_head(site: &Site, event: &Event, image_record: Option<&Image>) -> Map<String, Value> {
    let mut ld = Map::new();
    ld.insert("@context".into(), json!("http://schema.org"));
    ld.insert("@type".into(), json!("Event"));
    let private = event.post.status == Status::Private;
    ld.insert("name".into(), json!(jsonld_name(&event.post.title, private, event.post.password.is_some())));
    ld.insert("description".into(), json!(jsonld_description(&event.post.excerpt, &event.post.content)));
    if let Some(image) = image_record {
        ld.insert("image".into(), json!(&*image.url));
    }
    ld.insert("url".into(), json!(site.event_url(event)));
    ld.insert("eventAttendanceMode".into(), json!("https://schema.org/OfflineEventAttendanceMode"));
    ld.insert("eventStatus".into(), json!("https://schema.org/EventScheduled"));
    ld.insert("startDate".into(), json!(iso_with_offset(event.start, &event.zone)));
    ld.insert("endDate".into(), json!(iso_with_offset(event.end, &event.zone)));
    ld
}

/// An event's JSON-LD keys after its location and organizer.
pub fn event_ld_tail(site: &Site, event: &Event) -> Map<String, Value> {
    let mut ld = Map::new();
    ld.insert("performer".into(), json!("Organization"));
    if let Some(price) = crate::cost::offer_price(&event.cost) {
        let url = site.event_url(event);
        ld.insert(
            "offers".into(),
            json!({"@type": "Offer", "price": price, "priceCurrency": "USD", "url": url, "category": "primary", "availability": "inStock", "validFrom": format!("{}T00:00:00+00:00", event.post.date.format("%Y-%m-%d"))}),
        );
    }
    ld
}

pub fn venue_ld(venue: &Venue, image_record: Option<&Image>) -> Value {
    // The plugin's region: the stored state-or-province, else the state in the United States,
    // else the province (a state given outside the United States is not a region).
    let region = if !venue.stateprovince.is_empty() {
        &venue.stateprovince
    } else if &*venue.country == "United States" {
        &venue.state
    } else {
        &venue.province
    };
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
    if let Some(image) = image_record {
        ld.insert("image".into(), json!(&*image.url));
    }
    ld.insert("url".into(), json!(""));
    ld.insert("address".into(), Value::Object(address));
    ld.insert("telephone".into(), json!(&*venue.phone));
    ld.insert("sameAs".into(), json!(&*venue.website));
    Value::Object(ld)
}

pub fn organizer_ld(organizer: &Organizer, image_record: Option<&Image>) -> Value {
    let mut ld = Map::new();
    ld.insert("@type".into(), json!("Person"));
    ld.insert("name".into(), json!(jsonld_name(&organizer.post.title, false, false)));
    ld.insert("description".into(), json!(jsonld_description(&organizer.post.excerpt, &organizer.post.content)));
    if let Some(image) = image_record {
        ld.insert("image".into(), json!(&*image.url));
    }
    ld.insert("url".into(), json!(&*organizer.website));
    ld.insert("telephone".into(), json!(&*organizer.phone));
    ld.insert("email".into(), json!(&*organizer.email));
    ld.insert("sameAs".into(), json!(&*organizer.website));
    Value::Object(ld)
}

/// A venue; empty fields are left out, as the plugin filters them. `single` adds its JSON-LD.
pub fn venue(site: &Site, venue: &Venue, image_record: Option<&Image>, single: bool) -> Value {
    let post = &venue.post;
    let mut map = Map::new();
    map.insert("id".into(), json!(post.id));
    post_head(&mut map, post);
    map.insert("url".into(), json!(site.post_url(post, "venue", "tribe_venue")));
    map.insert("venue".into(), json!(render_title(&post.title)));
    map.insert("description".into(), json!(render_content(&post.content)));
    map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, "")));
    map.insert("slug".into(), json!(&*post.slug));
    if let Some(record) = image_record {
        map.insert("image".into(), image(record));
    }
    for (key, value) in venue.text_fields() {
        map.insert(key.into(), json!(value));
    }
    if let Some((lat, lng)) = venue.geo {
        map.insert("geo_lat".into(), json!(lat));
        map.insert("geo_lng".into(), json!(lng));
    }
    map.retain(|_, value| !is_empty(value));
    if single {
        map.insert("json_ld".into(), venue_ld(venue, image_record));
    }
    map.insert("show_map".into(), json!(venue.show_map.unwrap_or(true)));
    map.insert("show_map_link".into(), json!(venue.show_map_link.unwrap_or(true)));
    map.insert("global_id".into(), json!(site.global_id(post.id)));
    map.insert("global_id_lineage".into(), json!([site.global_id(post.id)]));
    Value::Object(map)
}

/// An organizer; empty fields are left out. `single` adds its JSON-LD.
pub fn organizer(site: &Site, organizer: &Organizer, image_record: Option<&Image>, single: bool) -> Value {
    let post = &organizer.post;
    let mut map = Map::new();
    map.insert("id".into(), json!(post.id));
    post_head(&mut map, post);
    map.insert("url".into(), json!(site.post_url(post, "organizer", "tribe_organizer")));
    map.insert("organizer".into(), json!(render_title(&post.title)));
    map.insert("description".into(), json!(render_content(&post.content)));
    map.insert("excerpt".into(), json!(render_excerpt(&post.excerpt, "")));
    map.insert("slug".into(), json!(&*post.slug));
    if let Some(record) = image_record {
        map.insert("image".into(), image(record));
    }
    for (key, value) in organizer.text_fields() {
        map.insert(key.into(), json!(value));
    }
    if single {
        map.insert("json_ld".into(), organizer_ld(organizer, image_record));
    }
    map.insert("global_id".into(), json!(site.global_id(post.id)));
    map.insert("global_id_lineage".into(), json!([site.global_id(post.id)]));
    map.retain(|_, value| !is_empty(value));
    Value::Object(map)
}

/// The collection address of a term's taxonomy under an API base.
pub fn term_collection(api_base: &str, term: &Term) -> String {
    let segment = match term.taxonomy {
        Taxonomy::Category => "categories",
        Taxonomy::Tag => "tags",
    };
    format!("{api_base}/{segment}")
}

pub fn term_urls(api_base: &str, term: &Term) -> Value {
    let collection = term_collection(api_base, term);
    let mut urls = Map::new();
    urls.insert("self".into(), json!(format!("{collection}/{}", term.id)));
    urls.insert("collection".into(), json!(collection));
    if term.parent != 0 {
        urls.insert("up".into(), json!(format!("{collection}/{}", term.parent)));
    }
    Value::Object(urls)
}

/// A term as embedded in an event (the CMS's term object with `id` and `urls`).
pub fn embedded_term(api_base: &str, term: &Term) -> Value {
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
        "urls": term_urls(api_base, term),
    })
}

/// The order an event shows its terms in: by name ignoring case, then by ID.
pub fn sort_terms(terms: &mut [std::sync::Arc<crate::store::Rec<Term>>]) {
    terms.sort_by_cached_key(|term| (term.name.to_lowercase(), term.id));
}
