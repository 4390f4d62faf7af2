//! The stored records: what the server keeps for each event, venue, organizer, term and image.
//!
//! Records hold raw values (the text as written, local and UTC times); how each becomes its
//! JSON representation lives in `views`.

use chrono::NaiveDateTime;

use crate::cost::StoredCost;
use crate::dates::Zone;

/// Post and term IDs.
pub type Id = u64;

/// A stored record's revision (`store::Rec`): unique in the process, across every store and
/// every version of one. A store can be replaced whole under the same render cache (an admin
/// reset, which also gives IDs out again from the start), so a count per store would not do.
/// It lives here, below both the store and the render cache, which keys on it.
pub type Rev = u64;

/// The four languages of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    #[default]
    En,
    Fr,
    De,
    Es,
}

impl Lang {
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Fr, Lang::De, Lang::Es];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::Es => "es",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }
}

/// A post status the CMS registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Publish,
    Future,
    Draft,
    Pending,
    Private,
    Trash,
    AutoDraft,
    Inherit,
}

impl Status {
    pub const ALL: [Status; 8] = [
        Status::Publish,
        Status::Future,
        Status::Draft,
        Status::Pending,
        Status::Private,
        Status::Trash,
        Status::AutoDraft,
        Status::Inherit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Status::Publish => "publish",
            Status::Future => "future",
            Status::Draft => "draft",
            Status::Pending => "pending",
            Status::Private => "private",
            Status::Trash => "trash",
            Status::AutoDraft => "auto-draft",
            Status::Inherit => "inherit",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|status| status.name() == text)
    }

    /// What permissions treat this status as.
    pub fn visibility(self) -> crate::auth::Visibility {
        use crate::auth::Visibility;
        match self {
            Status::Publish => Visibility::Published,
            Status::Future => Visibility::PublishedHidden,
            _ => Visibility::Unpublished,
        }
    }
}

/// What every post (event, venue, organizer) has.
#[derive(Clone, Debug)]
pub struct Post {
    pub id: Id,
    pub author: Id,
    pub status: Status,
    pub lang: Lang,
    pub slug: Box<str>,
    pub title: Box<str>,
    pub content: Box<str>,
    pub excerpt: Box<str>,
    /// Publication date, site-local, and in UTC (`None` for a draft never given one).
    pub date: NaiveDateTime,
    pub date_utc: Option<NaiveDateTime>,
    pub modified: NaiveDateTime,
    pub modified_utc: NaiveDateTime,
    pub image: Option<Id>,
    pub password: Option<Box<str>>,
    /// For an item in the trash: what it was before (the CMS keeps both as trash metadata).
    /// Boxed: few posts are in the trash, and every post stores the field.
    pub trashed: Option<Box<Trashed>>,
}

/// The status and slug a post had before it went to the trash.
#[derive(Clone, Debug)]
pub struct Trashed {
    pub status: Status,
    pub slug: Box<str>,
}

impl Post {
    /// The status that decides who may edit the post: in the trash, the status it had before,
    /// so that trashing never gives anyone rights they did not have.
    pub fn rights_status(&self) -> Status {
        match &self.trashed {
            Some(trashed) if self.status == Status::Trash => trashed.status,
            _ => self.status,
        }
    }
}

/// An event and its schedule.
#[derive(Clone, Debug)]
pub struct Event {
    pub post: Post,
    pub zone: Zone,
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    pub start_utc: NaiveDateTime,
    pub end_utc: NaiveDateTime,
    pub all_day: bool,
    pub cost: StoredCost,
    /// `None`: never set, so the response shows the permalink.
    pub website: Option<Box<str>>,
    pub show_map: bool,
    pub show_map_link: bool,
    pub hide_from_listings: bool,
    pub sticky: bool,
    pub featured: bool,
    pub ticketed: bool,
    pub categories: Vec<Id>,
    pub tags: Vec<Id>,
    pub venue: Option<Id>,
    pub organizers: Vec<Id>,
    pub parent: Option<Id>,
}

/// A venue; empty strings mean "not set" (the response leaves those keys out).
#[derive(Clone, Debug)]
pub struct Venue {
    pub post: Post,
    pub address: Box<str>,
    pub city: Box<str>,
    pub country: Box<str>,
    pub province: Box<str>,
    pub state: Box<str>,
    pub zip: Box<str>,
    pub phone: Box<str>,
    pub stateprovince: Box<str>,
    pub website: Box<str>,
    pub show_map: Option<bool>,
    pub show_map_link: Option<bool>,
    pub geo: Option<(f64, f64)>,
}

/// An organizer; empty strings mean "not set".
#[derive(Clone, Debug)]
pub struct Organizer {
    pub post: Post,
    pub phone: Box<str>,
    pub website: Box<str>,
    pub email: Box<str>,
}

impl Venue {
    /// The address and contact fields under their write-field names, in the order the
    /// representation shows them.
    pub fn text_fields(&self) -> [(&'static str, &str); 9] {
        [
            ("address", &self.address),
            ("city", &self.city),
            ("country", &self.country),
            ("province", &self.province),
            ("state", &self.state),
            ("zip", &self.zip),
            ("phone", &self.phone),
            ("website", &self.website),
            ("stateprovince", &self.stateprovince),
        ]
    }

    /// The same fields, to write.
    pub fn text_fields_mut(&mut self) -> [(&'static str, &mut Box<str>); 9] {
        [
            ("address", &mut self.address),
            ("city", &mut self.city),
            ("country", &mut self.country),
            ("province", &mut self.province),
            ("state", &mut self.state),
            ("zip", &mut self.zip),
            ("phone", &mut self.phone),
            ("website", &mut self.website),
            ("stateprovince", &mut self.stateprovince),
        ]
    }
}

impl Organizer {
    /// The contact fields under their write-field names, in the representation's order.
    pub fn text_fields(&self) -> [(&'static str, &str); 3] {
        [("phone", &self.phone), ("website", &self.website), ("email", &self.email)]
    }

    /// The same fields, to write.
    pub fn text_fields_mut(&mut self) -> [(&'static str, &mut Box<str>); 3] {
        [("phone", &mut self.phone), ("website", &mut self.website), ("email", &mut self.email)]
    }
}

/// The two taxonomies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Taxonomy {
    Category,
    Tag,
}

impl Taxonomy {
    /// The taxonomy's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Taxonomy::Category => "tribe_events_cat",
            Taxonomy::Tag => "post_tag",
        }
    }
}

/// A category or tag.
#[derive(Clone, Debug)]
pub struct Term {
    pub id: Id,
    pub taxonomy: Taxonomy,
    pub name: Box<str>,
    pub slug: Box<str>,
    pub description: Box<str>,
    pub parent: Id,
    pub lang: Lang,
    /// Published events assigned to the term.
    pub count: u64,
}

/// An image in the media library (made from a URL given on write; never fetched).
#[derive(Clone, Debug)]
pub struct Image {
    pub id: Id,
    pub url: Box<str>,
    pub extension: Box<str>,
    /// Known dimensions and generated sizes (sample images only; URLs are never fetched).
    pub meta: Option<ImageMeta>,
}

/// What the media library knows about an uploaded image.
#[derive(Clone, Debug)]
pub struct ImageMeta {
    pub width: u32,
    pub height: u32,
    /// The size of the file in bytes.
    pub filesize: u64,
    /// Named smaller copies.
    pub sizes: Vec<ImageSize>,
}

/// A smaller copy of an image the media library made.
#[derive(Clone, Debug)]
pub struct ImageSize {
    pub name: &'static str,
    pub width: u32,
    pub height: u32,
    pub filesize: u64,
    pub url: Box<str>,
}

/// What a post ID refers to (posts of every kind share one ID space).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PostKind {
    Event,
    Venue,
    Organizer,
    Image,
    /// A plain post or page of the site (not part of the calendar).
    Page,
}
