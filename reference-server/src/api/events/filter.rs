//! The events list's filters other than dates and status (`EventFilter`), and what a search
//! finds in the word index (`SearchHits`).

use std::collections::HashMap;

use roaring::RoaringBitmap;
use serde_json::Value;

use crate::access::{event_sight, is_protected_for, visible_organizers, visible_venue, Reveal, Sight};
use crate::app::Ctx;
use crate::model::{Event, Id, Taxonomy};
use crate::quirks::Quirk;
use crate::store::search::{self, contains_ignoring_case};
use crate::store::{Data, Flag, IdSet};
use crate::validate::{as_bool, as_int, value_text, Args};

/// The list filters other than dates and status.
pub(super) struct EventFilter<'a> {
    /// The `password` the request gives, which reveals a protected event.
    pub(super) password: Option<&'a str>,
    pub(super) search: Vec<String>,
    pub(super) categories: Option<Vec<Id>>,
    pub(super) tags: Option<Vec<Id>>,
    pub(super) venues: Option<Vec<Id>>,
    pub(super) organizers: Option<Vec<Id>>,
    /// The search index's answer for the search words, when it can give one.
    pub(super) hits: Option<SearchHits>,
    pub(super) featured: Option<bool>,
    pub(super) parent: Option<Id>,
    pub(super) geoloc: Option<bool>,
    pub(super) near: Option<(f64, f64)>,
    pub(super) ticketed: Option<bool>,
}

/// The events that hold every search word: anywhere (`all`, each word in the title, excerpt
/// or description), and in the title (`title`, what a protected event is matched on).
pub(super) struct SearchHits {
    pub(super) all: RoaringBitmap,
    pub(super) title: RoaringBitmap,
}

/// Debug builds check what `linked_candidates` promises (see docs/mutants.md): when a filter
/// names linked items or search words, candidates come back, and no more of them than the
/// smallest source holds, each source's events counted one by one.
macro_rules! check_smallest {
    ($linked:expr, $hits:expr, $candidates:expr) => {
        if cfg!(debug_assertions) {
            let count = |index: &HashMap<Id, IdSet>, keys: &[Id]| -> usize {
                keys.iter().filter_map(|key| index.get(key)).map(|set| set.iter().count()).sum()
            };
            let sources = $linked.iter().filter_map(|(index, keys)| keys.as_ref().map(|keys| count(index, keys)));
            let hits = $hits.as_ref().map(|hits| hits.all.iter().count());
            match (sources.chain(hits).min(), &$candidates) {
                (Some(smallest), Some(ids)) => assert!(ids.len() <= smallest, "candidates from the smallest source"),
                (None, None) => {}
                (smallest, ids) => {
                    panic!("candidates {:?} for sources of at least {smallest:?}", ids.as_ref().map(Vec::len))
                }
            }
        }
    };
}

impl SearchHits {
    pub(super) fn of(data: &Data, words: &[String]) -> Option<SearchHits> {
        if words.is_empty() || data.search.overflowed {
            return None;
        }
        let mut hits: Option<SearchHits> = None;
        for word in words {
            let found = data.search.matches(word);
            let all = &found.title | &found.body;
            match &mut hits {
                None => hits = Some(SearchHits { all, title: found.title }),
                Some(hits) => {
                    hits.all &= all;
                    hits.title &= found.title;
                }
            }
        }
        hits
    }

    pub(super) fn holds(&self, id: Id, title_only: bool) -> bool {
        let Some(key) = search::key(id) else { return false };
        if title_only {
            self.title.contains(key)
        } else {
            self.all.contains(key)
        }
    }
}

/// How far from `geoloc_lat`/`geoloc_lng` a venue may be, in kilometres.
const GEOFENCE_KM: f64 = 25.0;

impl<'a> EventFilter<'a> {
    pub(super) fn from_args(ctx: &Ctx, data: &Data, args: &Args, password: Option<&'a str>) -> EventFilter<'a> {
        // Sorted, for membership tests by binary search (a category with thousands of
        // descendants stays cheap to test).
        let sorted = |mut ids: Vec<Id>| {
            ids.sort_unstable();
            ids.dedup();
            ids
        };
        let ids = |name: &str| -> Option<Vec<Id>> {
            args.list(name).map(|items| sorted(items.iter().filter_map(as_int).map(|id| id as Id).collect()))
        };
        // The plugin's `tags-first-only` quirk: of tags given as an array, only the first counts.
        let tags_first =
            ctx.app.config.quirks.on(Quirk::TagsFirstOnly) && matches!(args.get("tags"), Some(Value::Array(_)));
        let terms = |name: &str, taxonomy: Taxonomy| -> Option<Vec<Id>> {
            args.list(name).map(|items| {
                let taken = if tags_first && taxonomy == Taxonomy::Tag { 1 } else { items.len() };
                let ids: Vec<Id> = items
                    .iter()
                    .take(taken)
                    .filter_map(|item| data.find_term(taxonomy, ctx.lang, &value_text(item)))
                    .collect();
                // A category includes its descendants.
                sorted(if taxonomy == Taxonomy::Category { data.with_descendants(&ids) } else { ids })
            })
        };
        let geo_on = ctx.app.config.features.geoloc;
        let near = match (
            args.get("geoloc_lat").and_then(crate::validate::as_number),
            args.get("geoloc_lng").and_then(crate::validate::as_number),
        ) {
            (Some(lat), Some(lng)) if geo_on => Some((lat, lng)),
            _ => None,
        };
        let search: Vec<String> =
            args.str("search").map(|text| text.split_whitespace().map(str::to_lowercase).collect()).unwrap_or_default();
        EventFilter {
            password,
            hits: SearchHits::of(data, &search),
            search,
            categories: terms("categories", Taxonomy::Category),
            tags: terms("tags", Taxonomy::Tag),
            venues: ids("venue"),
            organizers: ids("organizer"),
            featured: args.bool("featured"),
            parent: args.int("post_parent").map(|id| id as Id),
            geoloc: args.get("geoloc").and_then(as_bool).filter(|_| geo_on),
            near,
            ticketed: args.bool("ticketed").filter(|_| ctx.app.config.features.tickets),
        }
    }

    /// The events linked to the items a filter names or holding the search words, from the
    /// smallest index that applies (only that one is read); `None` when no such filter is
    /// given.
    pub(super) fn linked_candidates(&self, data: &Data) -> Option<Vec<Id>> {
        let parent: Option<Vec<Id>> = self.parent.map(|parent| vec![parent]);
        let linked = [
            (&data.term_events, &self.categories),
            (&data.term_events, &self.tags),
            (&data.venue_events, &self.venues),
            (&data.organizer_events, &self.organizers),
            (&data.parent_events, &parent),
        ];
        // Sizes first (a set knows its length): an item with thousands of events costs
        // nothing when another filter names fewer.
        let size = |index: &HashMap<Id, IdSet>, keys: &[Id]| -> usize {
            keys.iter().filter_map(|key| index.get(key)).map(IdSet::len).sum()
        };
        let smallest = linked
            .iter()
            .filter_map(|(index, keys)| keys.as_ref().map(|keys| (size(index, keys), *index, keys.as_slice())))
            .min_by_key(|(size, _, _)| *size);
        let from_hits = self.hits.as_ref().map(|hits| hits.all.len() as usize);
        let candidates = match smallest {
            Some((size, index, keys)) if from_hits.is_none_or(|hits| size <= hits) => {
                let mut ids: Vec<Id> = keys.iter().filter_map(|key| index.get(key)).flat_map(IdSet::iter).collect();
                ids.sort_unstable();
                ids.dedup();
                Some(ids)
            }
            _ => self.hits.as_ref().map(|hits| hits.all.iter().map(Id::from).collect()),
        };
        check_smallest!(linked, self.hits, candidates);
        candidates
    }

    /// The flag whose index a walk may use: `featured=true` or `ticketed=true`.
    pub(super) fn flag(&self) -> Option<Flag> {
        if self.featured == Some(true) {
            Some(Flag::Featured)
        } else if self.ticketed == Some(true) {
            Some(Flag::Ticketed)
        } else {
            None
        }
    }

    /// True when the flag of [`EventFilter::flag`] is the only filter on the event itself.
    pub(super) fn only_flag(&self) -> bool {
        let other_flag = match self.flag() {
            Some(Flag::Featured) => self.ticketed.is_some(),
            Some(Flag::Ticketed) => self.featured.is_some(),
            None => return false,
        };
        !other_flag && self.search.is_empty() && self.no_linked_or_place_filter()
    }

    /// True when the filters are search words and flags only, and at least one is given
    /// (see `by_sets`).
    pub(super) fn only_set_filters(&self) -> bool {
        (!self.search.is_empty() || self.featured.is_some() || self.ticketed.is_some())
            && self.no_linked_or_place_filter()
    }

    /// True when no filter names linked items (terms, venues, organizers, a parent) or a place.
    pub(super) fn no_linked_or_place_filter(&self) -> bool {
        self.categories.is_none()
            && self.tags.is_none()
            && self.venues.is_none()
            && self.organizers.is_none()
            && self.parent.is_none()
            && self.geoloc.is_none()
            && self.near.is_none()
    }

    /// True when no filter looks at the event record itself.
    pub(super) fn is_trivial(&self) -> bool {
        self.search.is_empty() && self.featured.is_none() && self.ticketed.is_none() && self.no_linked_or_place_filter()
    }

    /// True when a filter looks at what a password hides (links, flags; `search` is apart:
    /// it may still match the title, which lists show anyway).
    pub(super) fn looks_at_protected(&self) -> bool {
        self.categories.is_some()
            || self.tags.is_some()
            || self.venues.is_some()
            || self.organizers.is_some()
            || self.featured.is_some()
            || self.geoloc.is_some()
            || self.near.is_some()
    }

    pub(super) fn admits(&self, ctx: &Ctx, data: &Data, event: &Event) -> bool {
        let any = |wanted: &Option<Vec<Id>>, have: &[Id]| {
            wanted.as_ref().is_none_or(|ids| have.iter().any(|id| ids.binary_search(id).is_ok()))
        };
        let post = &event.post;
        // A protected event is selected on nothing its password hides for a caller who could
        // not read it (no password, no right to edit it): filters must not be an oracle on
        // protected content. A search still matches its title, which the list shows anyway.
        let protected = (self.looks_at_protected() || !self.search.is_empty())
            && is_protected_for(ctx, post, Reveal { password: self.password, edit_context: true });
        if protected && self.looks_at_protected() {
            return false;
        }
        let searched: &[&str] = if protected { &[&post.title] } else { &[&post.title, &post.excerpt, &post.content] };
        let in_texts = || self.search.iter().all(|word| searched.iter().any(|text| contains_ignoring_case(text, word)));
        let found = match &self.hits {
            Some(hits) => hits.holds(post.id, protected),
            None => in_texts(),
        };
        // The word index answers what reading the texts answers (checked in debug builds).
        debug_assert!(
            self.hits.is_none() || found == in_texts(),
            "the word index and the texts disagree on {}",
            post.id
        );
        if !found {
            return false;
        }
        // Links count only to linked items the caller may read (looked at only when a filter
        // names them, so other filters cost what they did).
        let venue_matches = || {
            self.venues.as_ref().is_none_or(|ids| {
                visible_venue(ctx, data, event).is_some_and(|venue| ids.binary_search(&venue.post.id).is_ok())
            })
        };
        let organizers_match = || {
            self.organizers.as_ref().is_none_or(|ids| {
                visible_organizers(ctx, data, event).any(|organizer| ids.binary_search(&organizer.post.id).is_ok())
            })
        };
        let venue_geo = || visible_venue(ctx, data, event).and_then(|venue| venue.geo);
        any(&self.categories, &event.categories)
            && any(&self.tags, &event.tags)
            && venue_matches()
            && organizers_match()
            && self.featured.is_none_or(|featured| event.featured == featured)
            && self.parent.is_none_or(|parent| {
                // A parent the caller may not read selects nothing.
                let readable = data
                    .events
                    .get(&parent)
                    .is_some_and(|parent| event_sight(ctx, parent, Reveal::default()) != Sight::Hidden);
                event.parent == Some(parent) && readable
            })
            && self.geoloc.is_none_or(|wanted| venue_geo().is_some() == wanted)
            && self.near.is_none_or(|(lat, lng)| {
                venue_geo().is_some_and(|(vlat, vlng)| distance_km(lat, lng, vlat, vlng) <= GEOFENCE_KM)
            })
            && self.ticketed.is_none_or(|ticketed| event.ticketed == ticketed)
    }
}

/// Great-circle distance.
fn distance_km(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let (lat1, lat2) = (lat1.to_radians(), lat2.to_radians());
    let dlat = lat2 - lat1;
    let dlng = (lng2 - lng1).to_radians();
    let a = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    6371.0 * 2.0 * a.sqrt().min(1.0).asin()
}
