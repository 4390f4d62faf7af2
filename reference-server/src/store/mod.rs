//! The in-memory store: records, ID allocation and the indexes that keep lists fast.
//!
//! Nothing here knows HTTP. Events are indexed by UTC start (lists walk that order), and the
//! links between events and venues, organizers and terms are kept in both directions so no
//! filter has to scan every event. Records are shared and versioned (`rec`): readers take what
//! they need under the lock and render it after. Every write costs O(log n) amortised in the
//! size of the store: term counts are kept as events change, slugs know their free suffixes
//! (`slugs`), and names, titles and image addresses are indexed for duplicate checks.
//!
//! # Layout
//! - `rec`: `Rec<T>`, a record and its revision.
//! - `idmap`: records by post ID, as a vector; `idset`: sets of event IDs, as bitmaps.
//! - `slugs`: slug owners and free suffixes per kind and language.
//! - `sharded`: a hash map in shards, so that growing a big one never stalls a write.
//! - `search`: the word index of event texts behind `search`.
//! - `linked`: venues and organizers in list order, with counts.
//! - `sets`: listed events as ID sets (by language and status, flags, passwords, date
//!   windows), so lists filtered on set memberships count without reading events.
//! - `timeline` (over `ranked`, sorted sets that count): listed events by local start per
//!   offset and by UTC end, so a date window's total and a deep page's place are counted.

mod builders;
mod durable;
mod idmap;
mod idset;
pub mod linked;
pub mod ranked;
mod rec;
pub mod search;
pub mod sets;
mod sharded;
mod slugs;
pub mod timeline;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use chrono::NaiveDateTime;
use parking_lot::RwLock;

pub use durable::WriteHook;
pub use idmap::IdMap;
pub use idset::IdSet;
pub use rec::{Rec, Rev};
pub use sets::TimeWindow;
use slugs::Slugs;

use crate::cache::RenderCache;
use crate::model::{
    Event, Id, Image, ImageMeta, ImageSize, Lang, Organizer, Post, PostKind, Status, Taxonomy, Term, Venue,
};

/// The shared store: one lock, read for reads and write for writes; and the cache of what
/// its records look like rendered (keyed by record revisions, so it needs no lock of the
/// store's).
#[derive(Default)]
pub struct Store {
    data: RwLock<Data>,
    /// Rendered items kept across requests (see `cache`); its keys name record revisions, so
    /// it needs no lock of the data.
    pub renders: RenderCache,
}

impl Store {
    pub fn new(data: Data) -> Store {
        Store { data: RwLock::new(data), renders: RenderCache::default() }
    }

    pub fn read(&self) -> parking_lot::RwLockReadGuard<'_, Data> {
        self.data.read()
    }

    pub fn write(&self) -> parking_lot::RwLockWriteGuard<'_, Data> {
        self.data.write()
    }
}

/// Which slug namespace a slug lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlugKind {
    Event,
    Venue,
    Organizer,
    Category,
    Tag,
}

impl From<Taxonomy> for SlugKind {
    fn from(taxonomy: Taxonomy) -> SlugKind {
        match taxonomy {
            Taxonomy::Category => SlugKind::Category,
            Taxonomy::Tag => SlugKind::Tag,
        }
    }
}

/// What a list needs to know of an event to decide whether it is in, kept in the start-order
/// index itself so that walking a window touches no event record.
#[derive(Clone, Copy, Debug)]
pub struct Listing {
    pub start_utc: NaiveDateTime,
    pub end_utc: NaiveDateTime,
    pub author: Id,
    pub lang: Lang,
    pub status: Status,
    pub hidden: bool,
    /// The event has a password (filters on what it hides then read the record).
    pub password: bool,
}

impl Listing {
    fn of(event: &Event) -> Listing {
        Listing {
            start_utc: event.start_utc,
            end_utc: event.end_utc,
            author: event.post.author,
            lang: event.post.lang,
            status: event.post.status,
            hidden: event.hide_from_listings,
            password: event.post.password.is_some(),
        }
    }
}

/// An event flag that lists filter on, with an index of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flag {
    Featured,
    Ticketed,
}

/// The IDs a pending write may give out: the next free post and term IDs, taken in order.
/// A write plans under the store's write lock, so nobody else takes them in between.
#[derive(Clone, Copy, Debug)]
pub struct IdReserve {
    post: Id,
    term: Id,
}

impl IdReserve {
    pub fn post(&mut self) -> Id {
        self.post += 1;
        self.post
    }

    pub fn term(&mut self) -> Id {
        self.term += 1;
        self.term
    }
}

/// Everything one write changes, as complete records (IDs and unique slugs given out),
/// checked in full before any of it is applied: `Data::apply` cannot fail, so a write either
/// changes all of this or, refused before, nothing.
#[derive(Debug)]
pub struct Changes {
    pub ids: IdReserve,
    pub images: Vec<Image>,
    pub terms: Vec<Term>,
    pub venues: Vec<Venue>,
    pub organizers: Vec<Organizer>,
    pub events: Vec<Event>,
    pub deleted_term: Option<Id>,
}

/// Events that last longer than this are also indexed by their end (see `Data::long_events`).
pub const SHORT_EVENT: chrono::Duration = chrono::Duration::days(2);

/// Everything the server knows.
#[derive(Default)]
pub struct Data {
    next_post_id: Id,
    next_term_id: Id,
    /// What each post ID is, by ID (post IDs are given out one after the other, so a byte per
    /// ID is all this takes).
    kinds: Vec<Option<PostKind>>,
    pub events: IdMap<Arc<Rec<Event>>>,
    /// Every event by (local start, ID): the order of the events list. The plugin sorts by
    /// the wall-clock start in each event's own zone, which is at most 14 hours from UTC.
    pub events_by_start: BTreeMap<(NaiveDateTime, Id), Listing>,
    pub venues: BTreeMap<Id, Arc<Rec<Venue>>>,
    pub organizers: BTreeMap<Id, Arc<Rec<Organizer>>>,
    /// Venues and organizers in list order.
    pub linked_order: linked::LinkedOrder,
    pub terms: BTreeMap<Id, Arc<Rec<Term>>>,
    pub images: HashMap<Id, Arc<Image>>,
    slugs: Slugs,
    pub venue_events: HashMap<Id, IdSet>,
    pub organizer_events: HashMap<Id, IdSet>,
    pub term_events: HashMap<Id, IdSet>,
    pub parent_events: HashMap<Id, IdSet>,
    /// The child categories of each category.
    term_children: HashMap<Id, BTreeSet<Id>>,
    /// Terms by taxonomy, language and lowercase name (duplicate checks).
    term_names: HashMap<(Taxonomy, Lang, String), BTreeSet<Id>>,
    /// Venues and organizers by kind, language and trimmed lowercase title (duplicate checks).
    titles: HashMap<(PostKind, Lang, String), BTreeSet<Id>>,
    /// Images by address (an image is made once per address).
    image_urls: HashMap<Box<str>, Id>,
    /// The events' titles, excerpts and descriptions, by word.
    pub search: search::SearchIndex,
    /// Listed (not hidden) events on a timeline that counts: a date window's total and the
    /// place of a deep page, however many events the store holds.
    pub timeline: timeline::Timeline,
    /// Listed featured and ticketed events, in the order of `events_by_start`: a list filtered
    /// on the flag walks these only.
    pub flagged: BTreeMap<(Flag, NaiveDateTime, Id), Listing>,
    /// Listed events longer than `SHORT_EVENT`, by UTC end and ID, with their local start:
    /// those that end after a window, although they start inside it, are found here.
    pub long_events: BTreeMap<(NaiveDateTime, Id), (NaiveDateTime, Listing)>,
    /// Listed events as ID sets.
    pub sets: sets::EventSets,
    /// Told of every change (the durable state of `--state`); see `WriteHook`.
    hook: Option<Arc<dyn WriteHook>>,
}

impl Data {
    /// An empty change set, to plan a write on this store.
    pub fn changes(&self) -> Changes {
        Changes {
            ids: IdReserve { post: self.next_post_id, term: self.next_term_id },
            images: Vec::new(),
            terms: Vec::new(),
            venues: Vec::new(),
            organizers: Vec::new(),
            events: Vec::new(),
            deleted_term: None,
        }
    }

    /// Applies a planned write. Linked items go in before the events that link to them.
    pub fn apply(&mut self, changes: Changes) {
        if let Some(hook) = &self.hook {
            hook.applied(&changes);
        }
        self.next_post_id = self.next_post_id.max(changes.ids.post);
        self.next_term_id = self.next_term_id.max(changes.ids.term);
        for image in changes.images {
            self.put_image(image);
        }
        for term in changes.terms {
            self.put_term(term);
        }
        for venue in changes.venues {
            self.put_venue(venue);
        }
        for organizer in changes.organizers {
            self.put_organizer(organizer);
        }
        for event in changes.events {
            self.put_event(event);
        }
        if let Some(id) = changes.deleted_term {
            self.delete_term(id);
        }
    }

    fn set_kind(&mut self, id: Id, kind: PostKind) {
        let Ok(at) = usize::try_from(id) else { return };
        if at >= self.kinds.len() {
            self.kinds.resize(at + 1, None);
        }
        self.kinds[at] = Some(kind);
    }

    pub fn kind(&self, id: Id) -> Option<PostKind> {
        usize::try_from(id).ok().and_then(|at| self.kinds.get(at)).copied().flatten()
    }

    /// The common parts of an event, venue or organizer, found by ID and kind.
    pub fn post(&self, id: Id) -> Option<&Post> {
        match self.kind(id)? {
            PostKind::Event => self.events.get(&id).map(|e| &e.post),
            PostKind::Venue => self.venues.get(&id).map(|v| &v.post),
            PostKind::Organizer => self.organizers.get(&id).map(|o| &o.post),
            PostKind::Image | PostKind::Page => None,
        }
    }

    /// Reserves the next post ID (events, venues, organizers and images share them).
    pub fn allocate_post_id(&mut self) -> Id {
        self.next_post_id += 1;
        self.next_post_id
    }

    pub fn allocate_term_id(&mut self) -> Id {
        self.next_term_id += 1;
        self.next_term_id
    }

    /// A new revision, for a record about to be stored.
    fn rev(&mut self) -> Rev {
        rec::next_rev()
    }

    // ----- slugs -----

    pub fn slug_owner(&self, kind: SlugKind, lang: Lang, slug: &str) -> Option<Id> {
        self.slugs.owner(kind, lang, slug)
    }

    /// `wanted`, or `wanted-2`, `wanted-3`… whichever is free for this kind and language
    /// (an item keeps its own slug) and not among the slugs `taken` by a pending write, within
    /// `MAX_SLUG` bytes: the CMS shortens the base to make room for the suffix.
    pub fn unique_slug_besides(
        &self,
        kind: SlugKind,
        lang: Lang,
        wanted: &str,
        own: Option<Id>,
        taken: &dyn Fn(&str) -> bool,
    ) -> String {
        let own_slug = own
            .and_then(|id| self.slug_of(kind, id))
            .filter(|slug| own.is_some_and(|id| self.slug_owner(kind, lang, slug) == Some(id)));
        let own = own.map(|id| (id, own_slug.unwrap_or("")));
        self.slugs.unique(kind, lang, wanted, own, taken)
    }

    /// The slug the item `id` of this kind has now.
    fn slug_of(&self, kind: SlugKind, id: Id) -> Option<&str> {
        match kind {
            SlugKind::Event => self.events.get(&id).map(|e| &*e.post.slug),
            SlugKind::Venue => self.venues.get(&id).map(|v| &*v.post.slug),
            SlugKind::Organizer => self.organizers.get(&id).map(|o| &*o.post.slug),
            SlugKind::Category | SlugKind::Tag => self.terms.get(&id).map(|t| &*t.slug),
        }
    }

    fn set_slug(&mut self, kind: SlugKind, lang: Lang, old: &str, new: &str, id: Id) {
        if !old.is_empty() && self.slug_owner(kind, lang, old) == Some(id) {
            self.slugs.remove(kind, lang, old);
        }
        if !new.is_empty() {
            self.slugs.insert(kind, lang, new, id);
        }
    }

    // ----- events -----

    /// Inserts or replaces an event, keeping every index and term count in step.
    pub fn put_event(&mut self, mut event: Event) {
        let id = event.post.id;
        // Stored for long: no spare capacity.
        event.categories.shrink_to_fit();
        event.tags.shrink_to_fit();
        event.organizers.shrink_to_fit();
        let old = self.events.remove(&id);
        if let Some(old) = &old {
            self.unlink_event(old);
            self.count_terms(old, -1);
        }
        let (post, old_post) = (&event.post, old.as_ref().map(|old| &old.post));
        let same_text = old_post
            .is_some_and(|old| old.title == post.title && old.excerpt == post.excerpt && old.content == post.content);
        if !same_text {
            if let Some(old) = &old {
                self.search.update(old, false);
            }
            self.search.update(&event, true);
        }
        self.set_kind(id, PostKind::Event);
        let old_slug = old.as_ref().map(|o| o.post.slug.to_string()).unwrap_or_default();
        self.set_slug(SlugKind::Event, event.post.lang, &old_slug, &event.post.slug, id);
        self.events_by_start.insert((event.start, id), Listing::of(&event));
        self.count_listing(&event, true);
        if let Some(venue) = event.venue {
            self.venue_events.entry(venue).or_default().insert(id);
        }
        for organizer in &event.organizers {
            self.organizer_events.entry(*organizer).or_default().insert(id);
        }
        for term in event.categories.iter().chain(&event.tags) {
            self.term_events.entry(*term).or_default().insert(id);
        }
        if let Some(parent) = event.parent {
            self.parent_events.entry(parent).or_default().insert(id);
        }
        self.count_terms(&event, 1);
        let rev = self.rev();
        self.events.insert(id, Rec::new(rev, event));
    }

    /// A term's count is the number of published events assigned to it: an event adds itself
    /// (`+1`) when stored and takes itself back (`-1`) when replaced.
    fn count_terms(&mut self, event: &Event, change: i64) {
        if event.post.status != Status::Publish {
            return;
        }
        let mut terms: Vec<Id> = event.categories.iter().chain(&event.tags).copied().collect();
        terms.sort_unstable();
        terms.dedup();
        for id in terms {
            let rev = self.rev();
            if let Some(term) = self.terms.get_mut(&id) {
                Rec::edit(term, rev, |term| term.count = term.count.saturating_add_signed(change));
            }
        }
    }

    fn unlink_event(&mut self, event: &Event) {
        let id = event.post.id;
        self.events_by_start.remove(&(event.start, id));
        self.count_listing(event, false);
        if let Some(venue) = event.venue {
            remove_event_link(&mut self.venue_events, venue, id);
        }
        for organizer in &event.organizers {
            remove_event_link(&mut self.organizer_events, *organizer, id);
        }
        for term in event.categories.iter().chain(&event.tags) {
            remove_event_link(&mut self.term_events, *term, id);
        }
        if let Some(parent) = event.parent {
            remove_event_link(&mut self.parent_events, parent, id);
        }
    }

    /// Adds an event to (or takes it from) the timeline, the flag indexes, the long-event
    /// index and the ID sets.
    fn count_listing(&mut self, event: &Event, add: bool) {
        if event.hide_from_listings {
            return;
        }
        let id = event.post.id;
        self.sets.update(event, add);
        for (flag, set) in [(Flag::Featured, event.featured), (Flag::Ticketed, event.ticketed)] {
            if !set {
                continue;
            }
            if add {
                self.flagged.insert((flag, event.start, id), Listing::of(event));
            } else {
                self.flagged.remove(&(flag, event.start, id));
            }
        }
        if event.end_utc - event.start_utc > SHORT_EVENT {
            if add {
                self.long_events.insert((event.end_utc, id), (event.start, Listing::of(event)));
            } else {
                self.long_events.remove(&(event.end_utc, id));
            }
        }
        self.timeline.update(event, add);
    }

    // ----- venues and organizers -----

    pub fn put_venue(&mut self, venue: Venue) {
        let id = venue.post.id;
        let old = self.venues.get(&id).map(|v| (v.post.slug.to_string(), v.post.lang, title_key(&v.post.title)));
        let place = self.venues.get(&id).map(|v| linked::Place::of(&v.post));
        self.linked_order.update(PostKind::Venue, id, place, linked::Place::of(&venue.post));
        self.set_kind(id, PostKind::Venue);
        self.index_title(PostKind::Venue, id, old.as_ref().map(|(_, lang, key)| (*lang, key.as_str())), &venue.post);
        let old_slug = old.map(|(slug, ..)| slug).unwrap_or_default();
        self.set_slug(SlugKind::Venue, venue.post.lang, &old_slug, &venue.post.slug, id);
        let rev = self.rev();
        self.venues.insert(id, Rec::new(rev, venue));
    }

    pub fn put_organizer(&mut self, organizer: Organizer) {
        let id = organizer.post.id;
        let old = self.organizers.get(&id).map(|o| (o.post.slug.to_string(), o.post.lang, title_key(&o.post.title)));
        let place = self.organizers.get(&id).map(|o| linked::Place::of(&o.post));
        self.linked_order.update(PostKind::Organizer, id, place, linked::Place::of(&organizer.post));
        self.set_kind(id, PostKind::Organizer);
        let old_key = old.as_ref().map(|(_, lang, key)| (*lang, key.as_str()));
        self.index_title(PostKind::Organizer, id, old_key, &organizer.post);
        let old_slug = old.map(|(slug, ..)| slug).unwrap_or_default();
        self.set_slug(SlugKind::Organizer, organizer.post.lang, &old_slug, &organizer.post.slug, id);
        let rev = self.rev();
        self.organizers.insert(id, Rec::new(rev, organizer));
    }

    /// Moves a venue or organizer in the title index from its old title to its new one.
    fn index_title(&mut self, kind: PostKind, id: Id, old: Option<(Lang, &str)>, post: &crate::model::Post) {
        if let Some((lang, key)) = old {
            let key = (kind, lang, key.to_string());
            if let Some(ids) = self.titles.get_mut(&key) {
                ids.remove(&id);
                if ids.is_empty() {
                    self.titles.remove(&key);
                }
            }
        }
        self.titles.entry((kind, post.lang, title_key(&post.title))).or_default().insert(id);
    }

    /// The venues or organizers of a language whose title is `title`, trimmed and ignoring
    /// case, by ascending ID.
    pub fn titled(&self, kind: PostKind, lang: Lang, title: &str) -> impl Iterator<Item = Id> + '_ {
        self.titles.get(&(kind, lang, title_key(title))).into_iter().flatten().copied()
    }

    pub fn put_image(&mut self, image: Image) {
        self.set_kind(image.id, PostKind::Image);
        self.image_urls.entry(image.url.clone()).or_insert(image.id);
        self.images.insert(image.id, Arc::new(image));
    }

    /// The image made from this address, if any.
    pub fn image_by_url(&self, url: &str) -> Option<Id> {
        self.image_urls.get(url).copied()
    }

    // ----- terms -----

    /// Inserts or replaces a term. Its count is the store's (the published events assigned
    /// to it), whatever the record says.
    pub fn put_term(&mut self, mut term: Term) {
        let id = term.id;
        let kind = SlugKind::from(term.taxonomy);
        let old = self.terms.get(&id).cloned();
        let old_slug = old.as_ref().map(|t| t.slug.to_string()).unwrap_or_default();
        self.set_slug(kind, term.lang, &old_slug, &term.slug, id);
        term.count = match &old {
            Some(old) => old.count,
            None => self.term_events.get(&id).map_or(0, |events| {
                events.iter().filter(|id| self.events.get(id).is_some_and(|e| e.post.status == Status::Publish)).count()
                    as u64
            }),
        };
        if let Some(old) = &old {
            self.unindex_term(old);
        }
        self.index_term(&term);
        let rev = self.rev();
        self.terms.insert(id, Rec::new(rev, term));
    }

    fn index_term(&mut self, term: &Term) {
        self.term_names.entry((term.taxonomy, term.lang, term.name.to_lowercase())).or_default().insert(term.id);
        if term.parent != 0 {
            self.term_children.entry(term.parent).or_default().insert(term.id);
        }
    }

    fn unindex_term(&mut self, term: &Term) {
        let key = (term.taxonomy, term.lang, term.name.to_lowercase());
        if let Some(ids) = self.term_names.get_mut(&key) {
            ids.remove(&term.id);
            if ids.is_empty() {
                self.term_names.remove(&key);
            }
        }
        if term.parent != 0 {
            remove_link(&mut self.term_children, term.parent, term.id);
        }
    }

    /// Deletes a term for good: events lose it and its children move to the top level.
    pub fn delete_term(&mut self, id: Id) -> Option<Term> {
        let term = self.terms.remove(&id)?;
        self.slugs.remove(SlugKind::from(term.taxonomy), term.lang, &term.slug);
        self.unindex_term(&term);
        for event_id in self.term_events.remove(&id).unwrap_or_default().iter() {
            let rev = self.rev();
            if let Some(event) = self.events.get_mut(&event_id) {
                Rec::edit(event, rev, |event| {
                    event.categories.retain(|t| *t != id);
                    event.tags.retain(|t| *t != id);
                });
            }
        }
        for child in self.term_children.remove(&id).unwrap_or_default() {
            let rev = self.rev();
            if let Some(child) = self.terms.get_mut(&child) {
                Rec::edit(child, rev, |child| child.parent = 0);
            }
        }
        Some(Term::clone(&term))
    }

    /// The category and all its descendants (each once, whatever the tree's shape).
    pub fn with_descendants(&self, roots: &[Id]) -> Vec<Id> {
        let mut seen: std::collections::HashSet<Id> = roots.iter().copied().collect();
        let mut ids: Vec<Id> = roots.to_vec();
        let mut index = 0;
        while index < ids.len() {
            for child in self.term_children.get(&ids[index]).into_iter().flatten() {
                if seen.insert(*child) {
                    ids.push(*child);
                }
            }
            index += 1;
        }
        ids
    }

    /// Finds a term of a taxonomy by ID or, failing that, by slug (any language first the
    /// request's own).
    pub fn find_term(&self, taxonomy: Taxonomy, lang: Lang, key: &str) -> Option<Id> {
        let key = key.trim();
        if let Some(id) = self.slug_owner(SlugKind::from(taxonomy), lang, key) {
            return Some(id);
        }
        if let Ok(id) = key.parse::<Id>() {
            if self.terms.get(&id).is_some_and(|t| t.taxonomy == taxonomy) {
                return Some(id);
            }
        }
        Lang::ALL.into_iter().find_map(|other| self.slug_owner(SlugKind::from(taxonomy), other, key))
    }

    /// A term of this taxonomy with this name under this parent, in this language.
    pub fn term_named(&self, taxonomy: Taxonomy, lang: Lang, name: &str, parent: Option<Id>) -> Option<Id> {
        self.term_names
            .get(&(taxonomy, lang, name.to_lowercase()))
            .into_iter()
            .flatten()
            .copied()
            .find(|id| parent.is_none_or(|p| self.terms.get(id).is_some_and(|t| t.parent == p)))
    }
}

/// How a venue or organizer title is compared for duplicates: trimmed, ignoring case.
fn title_key(title: &str) -> String {
    title.trim().to_lowercase()
}

/// The longest slug the CMS stores, in bytes of its stored (percent-encoded) form.
pub const MAX_SLUG: usize = 200;

/// The longest start of `slug` within `max` bytes that does not cut a percent-encoded
/// character (`%e2%98%95` is one character, kept or dropped whole).
pub fn truncate_slug(slug: &str, max: usize) -> &str {
    if slug.len() <= max {
        return slug;
    }
    let bytes = slug.as_bytes();
    let hex = |at: usize| -> Option<u8> {
        let pair = slug.get(at + 1..at + 3)?;
        (bytes[at] == b'%').then(|| u8::from_str_radix(pair, 16).ok()).flatten()
    };
    let mut end = 0;
    while end < bytes.len() {
        let step = match hex(end) {
            Some(lead) => {
                let units = match lead {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF7 => 4,
                    _ => 1,
                };
                let mut length = 3;
                while length < units * 3 && hex(end + length).is_some() {
                    length += 3;
                }
                length
            }
            None => slug[end..].chars().next().map_or(1, char::len_utf8),
        };
        if end + step > max {
            break;
        }
        end += step;
    }
    &slug[..end]
}

fn remove_event_link(index: &mut HashMap<Id, IdSet>, key: Id, id: Id) {
    if let Some(set) = index.get_mut(&key) {
        set.remove(&id);
        if set.is_empty() {
            index.remove(&key);
        }
    }
}

fn remove_link(index: &mut HashMap<Id, BTreeSet<Id>>, key: Id, id: Id) {
    if let Some(set) = index.get_mut(&key) {
        set.remove(&id);
        if set.is_empty() {
            index.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests;
