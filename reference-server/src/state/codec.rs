//! The records of the state file as JSON: a planned write (`changes`) or the whole store
//! (`whole`). Every stored value is kept as it was stored, never recomputed on load: dates
//! that came from the clock, slugs, the trash's memory of a former status and slug, the ID
//! counters. The on-disk form is its own (mirror types, not the in-memory records), so the
//! records can change shape without changing the file format; a new field of a record fails
//! to compile here until it is persisted.

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cost::store_cost;
use crate::dates::Zone;
use crate::model::{
    Event, Id, Image, ImageMeta, ImageSize, Lang, Organizer, Post, Status, Taxonomy, Term, Trashed, Venue,
};
use crate::store::{Changes, Data, IdReserve};

/// One line of the file after the header.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// 1, 2, 3… in the order the changes were applied; a whole image carries the number of
    /// the last change it holds.
    pub seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<ChangesRec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole: Option<WholeRec>,
}

/// The header: the first line of every state file.
#[derive(Debug, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// The server version that wrote the file.
    pub server: String,
    pub site_url: String,
    pub timezone: String,
}

impl Header {
    pub fn new(site_url: &str, timezone: &str) -> Header {
        Header {
            format: FORMAT.to_string(),
            version: VERSION,
            server: env!("CARGO_PKG_VERSION").to_string(),
            site_url: site_url.to_string(),
            timezone: timezone.to_string(),
        }
    }
}

pub const FORMAT: &str = "reference-server state";
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangesRec {
    /// The last post and term IDs given out once the change is applied.
    ids: [Id; 2],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    images: Vec<ImageRec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    terms: Vec<TermRec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    venues: Vec<VenueRec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    organizers: Vec<OrganizerRec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    events: Vec<EventRec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deleted_term: Option<Id>,
}

/// Everything the store holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WholeRec {
    /// The site's pages (posts outside the calendar), which only take IDs.
    pages: Vec<Id>,
    records: ChangesRec,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PostRec {
    id: Id,
    author: Id,
    status: String,
    lang: String,
    slug: String,
    title: String,
    content: String,
    excerpt: String,
    date: NaiveDateTime,
    date_utc: Option<NaiveDateTime>,
    modified: NaiveDateTime,
    modified_utc: NaiveDateTime,
    image: Option<Id>,
    password: Option<String>,
    /// The status and slug before the trash.
    trashed: Option<(String, String)>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventRec {
    post: PostRec,
    zone: String,
    start: NaiveDateTime,
    end: NaiveDateTime,
    start_utc: NaiveDateTime,
    end_utc: NaiveDateTime,
    all_day: bool,
    /// The written cost entries (symbol and position are read from them again).
    cost: Vec<String>,
    website: Option<String>,
    show_map: bool,
    show_map_link: bool,
    hide_from_listings: bool,
    sticky: bool,
    featured: bool,
    ticketed: bool,
    categories: Vec<Id>,
    tags: Vec<Id>,
    venue: Option<Id>,
    organizers: Vec<Id>,
    parent: Option<Id>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct VenueRec {
    post: PostRec,
    address: String,
    city: String,
    country: String,
    province: String,
    state: String,
    zip: String,
    phone: String,
    stateprovince: String,
    website: String,
    show_map: Option<bool>,
    show_map_link: Option<bool>,
    /// Latitude and longitude as decimal text: exact through any JSON reader.
    geo: Option<(String, String)>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OrganizerRec {
    post: PostRec,
    phone: String,
    website: String,
    email: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TermRec {
    id: Id,
    taxonomy: String,
    name: String,
    slug: String,
    description: String,
    parent: Id,
    lang: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageRec {
    id: Id,
    url: String,
    extension: String,
    meta: Option<ImageMetaRec>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageMetaRec {
    width: u32,
    height: u32,
    filesize: u64,
    sizes: Vec<ImageSizeRec>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageSizeRec {
    name: String,
    width: u32,
    height: u32,
    filesize: u64,
    url: String,
}

// ----- to disk -----

impl ChangesRec {
    pub fn of(changes: &Changes) -> ChangesRec {
        let Changes { ids, images, terms, venues, organizers, events, deleted_term } = changes;
        let (post, term) = ids.last();
        ChangesRec {
            ids: [post, term],
            images: images.iter().map(image_rec).collect(),
            terms: terms.iter().map(term_rec).collect(),
            venues: venues.iter().map(venue_rec).collect(),
            organizers: organizers.iter().map(organizer_rec).collect(),
            events: events.iter().map(event_rec).collect(),
            deleted_term: *deleted_term,
        }
    }
}

impl WholeRec {
    /// The whole store, items in ID order (the same store gives the same bytes).
    pub fn of(data: &Data) -> WholeRec {
        let (post, term) = data.counters();
        let mut images: Vec<&Image> = data.images.values().map(|image| &**image).collect();
        images.sort_by_key(|image| image.id);
        let mut events: Vec<&Event> = data.events.values().map(|event| &***event).collect();
        events.sort_by_key(|event| event.post.id);
        WholeRec {
            pages: data.pages(),
            records: ChangesRec {
                ids: [post, term],
                images: images.into_iter().map(image_rec).collect(),
                terms: data.terms.values().map(|term| term_rec(term)).collect(),
                venues: data.venues.values().map(|venue| venue_rec(venue)).collect(),
                organizers: data.organizers.values().map(|organizer| organizer_rec(organizer)).collect(),
                events: events.into_iter().map(event_rec).collect(),
                deleted_term: None,
            },
        }
    }
}

fn post_rec(post: &Post) -> PostRec {
    let Post {
        id,
        author,
        status,
        lang,
        slug,
        title,
        content,
        excerpt,
        date,
        date_utc,
        modified,
        modified_utc,
        image,
        password,
        trashed,
    } = post;
    PostRec {
        id: *id,
        author: *author,
        status: status.name().to_string(),
        lang: lang.code().to_string(),
        slug: slug.to_string(),
        title: title.to_string(),
        content: content.to_string(),
        excerpt: excerpt.to_string(),
        date: *date,
        date_utc: *date_utc,
        modified: *modified,
        modified_utc: *modified_utc,
        image: *image,
        password: password.as_ref().map(|p| p.to_string()),
        trashed: trashed.as_ref().map(|t| (t.status.name().to_string(), t.slug.to_string())),
    }
}

fn event_rec(event: &Event) -> EventRec {
    let Event {
        post,
        zone,
        start,
        end,
        start_utc,
        end_utc,
        all_day,
        cost,
        website,
        show_map,
        show_map_link,
        hide_from_listings,
        sticky,
        featured,
        ticketed,
        categories,
        tags,
        venue,
        organizers,
        parent,
    } = event;
    EventRec {
        post: post_rec(post),
        zone: zone.name(),
        start: *start,
        end: *end,
        start_utc: *start_utc,
        end_utc: *end_utc,
        all_day: *all_day,
        cost: cost.entries().map(str::to_string).collect(),
        website: website.as_ref().map(|w| w.to_string()),
        show_map: *show_map,
        show_map_link: *show_map_link,
        hide_from_listings: *hide_from_listings,
        sticky: *sticky,
        featured: *featured,
        ticketed: *ticketed,
        categories: categories.clone(),
        tags: tags.clone(),
        venue: *venue,
        organizers: organizers.clone(),
        parent: *parent,
    }
}

fn venue_rec(venue: &Venue) -> VenueRec {
    let Venue {
        post,
        address,
        city,
        country,
        province,
        state,
        zip,
        phone,
        stateprovince,
        website,
        show_map,
        show_map_link,
        geo,
    } = venue;
    VenueRec {
        post: post_rec(post),
        address: address.to_string(),
        city: city.to_string(),
        country: country.to_string(),
        province: province.to_string(),
        state: state.to_string(),
        zip: zip.to_string(),
        phone: phone.to_string(),
        stateprovince: stateprovince.to_string(),
        website: website.to_string(),
        show_map: *show_map,
        show_map_link: *show_map_link,
        geo: geo.map(|(lat, lng)| (lat.to_string(), lng.to_string())),
    }
}

fn organizer_rec(organizer: &Organizer) -> OrganizerRec {
    let Organizer { post, phone, website, email } = organizer;
    OrganizerRec {
        post: post_rec(post),
        phone: phone.to_string(),
        website: website.to_string(),
        email: email.to_string(),
    }
}

fn term_rec(term: &Term) -> TermRec {
    // `count` is derived: the store recounts it from the events.
    let Term { id, taxonomy, name, slug, description, parent, lang, count: _ } = term;
    TermRec {
        id: *id,
        taxonomy: taxonomy_name(*taxonomy).to_string(),
        name: name.to_string(),
        slug: slug.to_string(),
        description: description.to_string(),
        parent: *parent,
        lang: lang.code().to_string(),
    }
}

fn image_rec(image: &Image) -> ImageRec {
    let Image { id, url, extension, meta } = image;
    ImageRec {
        id: *id,
        url: url.to_string(),
        extension: extension.to_string(),
        meta: meta.as_ref().map(|meta| ImageMetaRec {
            width: meta.width,
            height: meta.height,
            filesize: meta.filesize,
            sizes: meta
                .sizes
                .iter()
                .map(|size| ImageSizeRec {
                    name: size.name.to_string(),
                    width: size.width,
                    height: size.height,
                    filesize: size.filesize,
                    url: size.url.to_string(),
                })
                .collect(),
        }),
    }
}

fn taxonomy_name(taxonomy: Taxonomy) -> &'static str {
    match taxonomy {
        Taxonomy::Category => "category",
        Taxonomy::Tag => "tag",
    }
}

// ----- from disk -----

type Decoded<T> = Result<T, String>;

/// The largest ID counter a file may hold: far more IDs than any run gives out, and small
/// enough that the store's table of post kinds (a byte per ID) stays bounded, and that
/// counting on cannot wrap.
pub const MAX_ID: Id = u32::MAX as Id;

impl ChangesRec {
    /// Refuses counters past `MAX_ID` and items whose ID is past their counter.
    fn check_ids(&self, pages: &[Id]) -> Decoded<()> {
        let [post, term] = self.ids;
        if post > MAX_ID || term > MAX_ID {
            return Err(format!("an ID counter ({post}, {term}) is past the largest this server gives out ({MAX_ID})"));
        }
        let posts = (self.images.iter().map(|image| image.id))
            .chain(self.venues.iter().map(|venue| venue.post.id))
            .chain(self.organizers.iter().map(|organizer| organizer.post.id))
            .chain(self.events.iter().map(|event| event.post.id))
            .chain(pages.iter().copied());
        if let Some(id) = posts.into_iter().find(|id| *id > post) {
            return Err(format!("post ID {id} is past the ID counter ({post})"));
        }
        if let Some(id) = self.terms.iter().map(|term| term.id).find(|id| *id > term) {
            return Err(format!("term ID {id} is past the ID counter ({term})"));
        }
        Ok(())
    }

    pub fn into_changes(self) -> Decoded<Changes> {
        self.check_ids(&[])?;
        Ok(Changes {
            ids: IdReserve::at(self.ids[0], self.ids[1]),
            images: self.images.into_iter().map(image).collect::<Decoded<_>>()?,
            terms: self.terms.into_iter().map(term).collect::<Decoded<_>>()?,
            venues: self.venues.into_iter().map(venue).collect::<Decoded<_>>()?,
            organizers: self.organizers.into_iter().map(organizer).collect::<Decoded<_>>()?,
            events: self.events.into_iter().map(event).collect::<Decoded<_>>()?,
            deleted_term: self.deleted_term,
        })
    }
}

impl WholeRec {
    pub fn into_data(self) -> Decoded<Data> {
        self.records.check_ids(&self.pages)?;
        Ok(Data::restore(&self.pages, self.records.into_changes()?))
    }
}

fn status(name: &str) -> Decoded<Status> {
    Status::parse(name).ok_or_else(|| format!("unknown post status {name:?}"))
}

fn lang(code: &str) -> Decoded<Lang> {
    Lang::parse(code).ok_or_else(|| format!("unknown language {code:?}"))
}

fn post(rec: PostRec) -> Decoded<Post> {
    Ok(Post {
        id: rec.id,
        author: rec.author,
        status: status(&rec.status)?,
        lang: lang(&rec.lang)?,
        slug: rec.slug.into(),
        title: rec.title.into(),
        content: rec.content.into(),
        excerpt: rec.excerpt.into(),
        date: rec.date,
        date_utc: rec.date_utc,
        modified: rec.modified,
        modified_utc: rec.modified_utc,
        image: rec.image,
        password: rec.password.map(Into::into),
        trashed: match rec.trashed {
            Some((former, slug)) => Some(Box::new(Trashed { status: status(&former)?, slug: slug.into() })),
            None => None,
        },
    })
}

fn event(rec: EventRec) -> Decoded<Event> {
    let entries = Value::Array(rec.cost.into_iter().map(Value::String).collect());
    Ok(Event {
        post: post(rec.post)?,
        zone: Zone::parse(&rec.zone).ok_or_else(|| format!("unknown time zone {:?}", rec.zone))?,
        start: rec.start,
        end: rec.end,
        start_utc: rec.start_utc,
        end_utc: rec.end_utc,
        all_day: rec.all_day,
        cost: store_cost(&entries).unwrap_or_default(),
        website: rec.website.map(Into::into),
        show_map: rec.show_map,
        show_map_link: rec.show_map_link,
        hide_from_listings: rec.hide_from_listings,
        sticky: rec.sticky,
        featured: rec.featured,
        ticketed: rec.ticketed,
        categories: rec.categories,
        tags: rec.tags,
        venue: rec.venue,
        organizers: rec.organizers,
        parent: rec.parent,
    })
}

fn venue(rec: VenueRec) -> Decoded<Venue> {
    let coordinate = |text: &str| text.parse::<f64>().map_err(|_| format!("not a coordinate: {text:?}"));
    Ok(Venue {
        post: post(rec.post)?,
        address: rec.address.into(),
        city: rec.city.into(),
        country: rec.country.into(),
        province: rec.province.into(),
        state: rec.state.into(),
        zip: rec.zip.into(),
        phone: rec.phone.into(),
        stateprovince: rec.stateprovince.into(),
        website: rec.website.into(),
        show_map: rec.show_map,
        show_map_link: rec.show_map_link,
        geo: match rec.geo {
            Some((lat, lng)) => Some((coordinate(&lat)?, coordinate(&lng)?)),
            None => None,
        },
    })
}

fn organizer(rec: OrganizerRec) -> Decoded<Organizer> {
    Ok(Organizer {
        post: post(rec.post)?,
        phone: rec.phone.into(),
        website: rec.website.into(),
        email: rec.email.into(),
    })
}

fn term(rec: TermRec) -> Decoded<Term> {
    let taxonomy = match rec.taxonomy.as_str() {
        "category" => Taxonomy::Category,
        "tag" => Taxonomy::Tag,
        other => return Err(format!("unknown taxonomy {other:?}")),
    };
    Ok(Term {
        id: rec.id,
        taxonomy,
        name: rec.name.into(),
        slug: rec.slug.into(),
        description: rec.description.into(),
        parent: rec.parent,
        lang: lang(&rec.lang)?,
        count: 0,
    })
}

fn image(rec: ImageRec) -> Decoded<Image> {
    let meta = match rec.meta {
        Some(meta) => Some(ImageMeta {
            width: meta.width,
            height: meta.height,
            filesize: meta.filesize,
            sizes: meta
                .sizes
                .into_iter()
                .map(|size| {
                    // The media library's size names are fixed words.
                    let name = match size.name.as_str() {
                        "thumbnail" => "thumbnail",
                        "medium" => "medium",
                        "medium_large" => "medium_large",
                        "large" => "large",
                        other => return Err(format!("unknown image size {other:?}")),
                    };
                    Ok(ImageSize {
                        name,
                        width: size.width,
                        height: size.height,
                        filesize: size.filesize,
                        url: size.url.into(),
                    })
                })
                .collect::<Decoded<_>>()?,
        }),
        None => None,
    };
    Ok(Image { id: rec.id, url: rec.url.into(), extension: rec.extension.into(), meta })
}
