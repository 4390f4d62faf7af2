//! What rendering a record needs, taken under the store's lock: the shared records
//! themselves (so the lock can be let go before anything is rendered or serialized) and what
//! the caller may see of them, decided by the read rule (`access`) while the store is at hand.

use std::sync::Arc;

use crate::access::{visible_organizers, visible_venue};
use crate::app::Ctx;
use crate::model::{Event, Id, Image, Organizer, Term, Venue};
use crate::store::{Data, Rec};

/// A venue or organizer and its image.
#[derive(Clone)]
pub struct Linked<T> {
    pub record: Arc<Rec<T>>,
    pub image: Option<Arc<Image>>,
}

impl<T> Linked<T> {
    fn of(data: &Data, record: &Arc<Rec<T>>, image: Option<Id>) -> Linked<T> {
        Linked { record: record.clone(), image: image.and_then(|id| data.images.get(&id)).cloned() }
    }
}

pub fn venue(data: &Data, id: Id) -> Option<Linked<Venue>> {
    data.venues.get(&id).map(|venue| Linked::of(data, venue, venue.post.image))
}

pub fn organizer(data: &Data, id: Id) -> Option<Linked<Organizer>> {
    data.organizers.get(&id).map(|organizer| Linked::of(data, organizer, organizer.post.image))
}

/// An event as one caller sees it.
pub struct EventSnapshot {
    pub event: Arc<Rec<Event>>,
    pub image: Option<Arc<Image>>,
    /// Its terms, in the order the event shows them.
    pub categories: Vec<Arc<Rec<Term>>>,
    pub tags: Vec<Arc<Rec<Term>>>,
    /// Its venue and organizers the caller may read (`access`).
    pub venue: Option<Linked<Venue>>,
    pub organizers: Vec<Linked<Organizer>>,
    /// What its password hides is blanked.
    pub protected: bool,
    /// A single read: with `json_ld` (and the venue's and organizers').
    pub single: bool,
    /// The record's own fragments are not kept in the cache: it is not (yet, or any longer)
    /// the store's, or the answer is a write's (reads fill the cache, writes do not).
    pub detached: bool,
}

impl EventSnapshot {
    /// The event `event` of the store, for this caller; `protected` blanks what its password
    /// hides.
    pub fn take(ctx: &Ctx, data: &Data, event: &Arc<Rec<Event>>, protected: bool, single: bool) -> EventSnapshot {
        EventSnapshot::build(ctx, data, event.clone(), protected, single, false)
    }

    /// The same, for a write's answer: what the write stored is not kept rendered (the cache
    /// is for what is read again).
    pub fn written(mut self) -> EventSnapshot {
        self.detached = true;
        self
    }

    /// A record the store does not hold as it is here (a trashed event's answer, shown before
    /// the write is applied).
    pub fn detached(ctx: &Ctx, data: &Data, event: Event, single: bool) -> EventSnapshot {
        EventSnapshot::build(ctx, data, Rec::new(0, event), false, single, true)
    }

    fn build(
        ctx: &Ctx,
        data: &Data,
        event: Arc<Rec<Event>>,
        protected: bool,
        single: bool,
        detached: bool,
    ) -> EventSnapshot {
        let terms = |ids: &[Id]| {
            let mut terms: Vec<Arc<Rec<Term>>> = ids.iter().filter_map(|id| data.terms.get(id)).cloned().collect();
            super::parts::sort_terms(&mut terms);
            terms
        };
        // Only what the caller may read directly is embedded (`access`).
        let venue = visible_venue(ctx, data, &event).map(|venue| Linked::of(data, venue, venue.post.image));
        let organizers = visible_organizers(ctx, data, &event)
            .map(|organizer| Linked::of(data, organizer, organizer.post.image))
            .collect();
        EventSnapshot {
            image: event.post.image.and_then(|id| data.images.get(&id)).cloned(),
            categories: terms(&event.categories),
            tags: terms(&event.tags),
            venue,
            organizers,
            protected,
            single,
            detached,
            event,
        }
    }
}
