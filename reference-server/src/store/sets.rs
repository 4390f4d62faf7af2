//! Listed events as sets of IDs (compressed bitmaps), for the events lists whose filters are
//! all set memberships (search words, `featured`, `ticketed`): their total is the size of an
//! intersection, so no event record is read to count them (issue 10).
//!
//! Kept in step by `Data::count_listing`, for listed events only (not hidden from listings):
//! - by language and status;
//! - the featured and the ticketed ones;
//! - the ones with a password (a filter may have to look at those one by one);
//! - for a few date windows, the events inside each: a window's set is made on first use by
//!   walking the window, then kept in step by every change like the others. The default
//!   window of a list moves once a day, so a handful is enough; the oldest goes first.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use chrono::NaiveDateTime;
use parking_lot::Mutex;
use roaring::RoaringBitmap;

use super::{Data, Flag};
use crate::model::{Event, Lang, Status};

/// How many window sets are kept.
const WINDOWS: usize = 8;

/// A date window of the events list, in UTC: an event is in when its start and end pass
/// every bound that is set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeWindow {
    pub start_min: Option<NaiveDateTime>,
    pub end_max: Option<NaiveDateTime>,
    pub starts_after: Option<NaiveDateTime>,
    pub starts_before: Option<NaiveDateTime>,
    pub ends_after: Option<NaiveDateTime>,
    pub ends_before: Option<NaiveDateTime>,
}

impl TimeWindow {
    pub fn contains(&self, event: &Event) -> bool {
        self.contains_times(event.start_utc, event.end_utc)
    }

    pub fn contains_times(&self, start: NaiveDateTime, end: NaiveDateTime) -> bool {
        self.start_min.is_none_or(|at| start >= at)
            && self.end_max.is_none_or(|at| end <= at)
            && self.starts_after.is_none_or(|at| start > at)
            && self.starts_before.is_none_or(|at| start < at)
            && self.ends_after.is_none_or(|at| end > at)
            && self.ends_before.is_none_or(|at| end < at)
    }

    /// Where a walk of the start-order index (local starts) may begin, and past which local
    /// start nothing is in: local starts are within 14 hours of UTC ones, and local times
    /// may fold back.
    pub fn walk_bounds(&self) -> (NaiveDateTime, Option<NaiveDateTime>) {
        let earliest = self.start_min.map(|at| at - chrono::Duration::hours(15));
        (earliest.unwrap_or(NaiveDateTime::MIN), self.end_max.map(|at| at + chrono::Duration::hours(48)))
    }
}

/// The sets.
#[derive(Default)]
pub struct EventSets {
    by_lang_status: HashMap<(Lang, Status), RoaringBitmap>,
    featured: RoaringBitmap,
    ticketed: RoaringBitmap,
    passworded: RoaringBitmap,
    windows: Mutex<Vec<(TimeWindow, Arc<RoaringBitmap>)>>,
    /// An event ID too large for a set was stored: the sets are not whole, lists walk.
    pub overflowed: bool,
}

/// An event's ID as the sets keep it.
pub fn key(id: crate::model::Id) -> Option<u32> {
    u32::try_from(id).ok()
}

fn put(set: &mut RoaringBitmap, id: u32, add: bool) {
    if add {
        set.insert(id);
    } else {
        set.remove(id);
    }
}

impl EventSets {
    /// Adds (`add`) or takes away a listed event.
    pub(super) fn update(&mut self, event: &Event, add: bool) {
        let Some(id) = key(event.post.id) else {
            self.overflowed = true;
            return;
        };
        let group = (event.post.lang, event.post.status);
        let set = self.by_lang_status.entry(group).or_default();
        put(set, id, add);
        if set.is_empty() {
            self.by_lang_status.remove(&group);
        }
        if event.featured {
            put(&mut self.featured, id, add);
        }
        if event.ticketed {
            put(&mut self.ticketed, id, add);
        }
        if event.post.password.is_some() {
            put(&mut self.passworded, id, add);
        }
        for (window, set) in self.windows.get_mut().iter_mut() {
            if window.contains(event) {
                // No reader holds it: writes hold the store's write lock.
                put(Arc::make_mut(set), id, add);
            }
        }
    }

    /// The listed events of this language in any of these statuses: the kept set itself when
    /// there is one status.
    pub fn listed(&self, lang: Lang, statuses: &[Status]) -> Cow<'_, RoaringBitmap> {
        if let [status] = statuses {
            if let Some(set) = self.by_lang_status.get(&(lang, *status)) {
                return Cow::Borrowed(set);
            }
        }
        let mut all = RoaringBitmap::new();
        for status in statuses {
            if let Some(set) = self.by_lang_status.get(&(lang, *status)) {
                all |= set;
            }
        }
        Cow::Owned(all)
    }

    pub fn flagged(&self, flag: Flag) -> &RoaringBitmap {
        match flag {
            Flag::Featured => &self.featured,
            Flag::Ticketed => &self.ticketed,
        }
    }

    pub fn passworded(&self) -> &RoaringBitmap {
        &self.passworded
    }
}

impl Data {
    /// The listed events inside `window`, from the kept sets or (then kept) by walking it.
    pub fn window_set(&self, window: &TimeWindow) -> Arc<RoaringBitmap> {
        if let Some((_, set)) = self.sets.windows.lock().iter().find(|(kept, _)| kept == window) {
            return Arc::clone(set);
        }
        // Made under the store's read lock, so no write comes between the walk and keeping it.
        let (from, last) = window.walk_bounds();
        let mut set = RoaringBitmap::new();
        for ((start, id), listing) in self.events_by_start.range((from, 0)..) {
            if last.is_some_and(|last| *start > last) {
                break;
            }
            if !listing.hidden && window.contains_times(listing.start_utc, listing.end_utc) {
                if let Some(id) = key(*id) {
                    set.insert(id);
                }
            }
        }
        let set = Arc::new(set);
        let mut windows = self.sets.windows.lock();
        if !windows.iter().any(|(kept, _)| kept == window) {
            if windows.len() >= WINDOWS {
                windows.remove(0);
            }
            windows.push((window.clone(), Arc::clone(&set)));
        }
        debug_assert_eq!(windows.iter().filter(|(kept, _)| kept == window).count(), 1, "a window's set is kept, once");
        set
    }
}
