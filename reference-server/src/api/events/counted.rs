//! A plain date window (`start_date` and `end_date` only) answered from the store's timeline
//! (issue 10): its total is counted and its page found without walking the events before
//! it, however many the store holds.
//!
//! With `a` and `b` the window's UTC bounds, an event is in when it starts at `a` or later and
//! ends by `b`. Counting:
//!   in = (ending by b) - (starting before a) + (starting before a and ending after b),
//! and the last term holds only events longer than the window, which the long-event index
//! lists. The page at offset `p` starts at the `p`-th event in local order: the timeline says
//! how many listed events start (locally) before any key, so a binary search finds the key,
//! and the page is read by merging the offsets' sets from there.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Bound;

use chrono::NaiveDateTime;

use super::Window;
use crate::model::{Event, Id, Lang, Status};
use crate::store::ranked::{Cursor, RankedSet};
use crate::store::timeline::{whole_seconds, OffsetSet, SPAN_UNKNOWN};
use crate::store::{Data, Flag, Listing, SHORT_EVENT};

/// The events a list shows, of those the timeline holds: a language, statuses that do not
/// depend on who wrote the event, and perhaps a flag.
pub struct Selection<'a> {
    pub lang: Lang,
    pub allowed: &'a [Status],
    pub flag: Option<Flag>,
    /// Events of these in the window that the list leaves out all the same (protected events
    /// on a flag filter), by local start (seconds) and ID, sorted.
    pub left_out: Vec<(i64, u32)>,
}

impl Selection<'_> {
    /// Whether a listed event of the long-event index is of these.
    fn holds(&self, data: &Data, id: Id, listing: &Listing) -> bool {
        listing.lang == self.lang
            && self.allowed.contains(&listing.status)
            && self.flag.is_none_or(|flag| data.events.get(&id).is_some_and(|event| has_flag(event, flag)))
    }
}

fn has_flag(event: &Event, flag: Flag) -> bool {
    match flag {
        Flag::Featured => event.featured,
        Flag::Ticketed => event.ticketed,
    }
}

#[cfg(test)]
thread_local! {
    /// How many list answers came from the timeline (without a flag, with one).
    pub static USED: std::cell::Cell<[usize; 2]> = const { std::cell::Cell::new([0; 2]) };
}

/// How many events starting in the same second a page walks past rather than search by ID.
const TIES_WALKED: usize = 64;

/// A window's bounds in whole seconds: starts from `from` on (`a` rounded up), ends up to
/// `until` (`b` rounded down). `None` when the window is not a plain one or the timeline does
/// not hold every listed event.
fn plain(data: &Data, window: &Window) -> Option<(NaiveDateTime, NaiveDateTime, i64, i64)> {
    let plain = window.starts_after.is_none()
        && window.starts_before.is_none()
        && window.ends_after.is_none()
        && window.ends_before.is_none();
    let (Some(a), Some(b)) = (window.start_min, window.end_max) else { return None };
    if !plain || !data.timeline.whole() {
        return None;
    }
    let floor = |at: NaiveDateTime| at.and_utc().timestamp();
    let from = floor(a) + i64::from(whole_seconds(a).is_none());
    Some((a, b, from, floor(b)))
}

/// The listed events of a language and these statuses in a plain window, counted. `None`
/// when the window is not a plain one or is shorter than a long event (then a walk is cheap).
/// The statuses must not depend on who wrote the event.
pub fn counted_total(data: &Data, selection: &Selection, window: &Window) -> Option<usize> {
    let (a, b, from, until) = plain(data, window)?;
    if b - a < SHORT_EVENT {
        return None;
    }
    let Selection { lang, allowed, flag, .. } = *selection;
    let ending = data.timeline.ending_by(lang, allowed, flag, until);
    let starting_before = data.timeline.starting_before(lang, allowed, flag, from);
    // Events over the whole window are longer than it, so longer than a short event.
    let over = data
        .long_events
        .range((Bound::Excluded((b, Id::MAX)), Bound::Unbounded))
        .filter(|((_, id), (_, listing))| listing.start_utc < a && selection.holds(data, *id, listing))
        .count();
    Some((ending + over).saturating_sub(starting_before + selection.left_out.len()))
}

/// One offset's events in the window: they start locally at `first` or later, and the
/// first `skipped` entries of the set are before that.
struct Group<'t> {
    offset: i64,
    set: &'t RankedSet,
    first: (i64, u32),
    skipped: usize,
}

/// The listed events of a plain window, on the timeline.
pub struct InWindow<'d> {
    data: &'d Data,
    /// The window's bounds, as given and in whole seconds (see `plain`).
    a: NaiveDateTime,
    b: NaiveDateTime,
    from: i64,
    until: i64,
    groups: Vec<Group<'d>>,
    /// The lowest offset of the groups.
    lowest: i64,
}

impl<'d> InWindow<'d> {
    /// `None` as for [`counted_total`].
    pub fn of(
        data: &'d Data,
        lang: Lang,
        allowed: &[Status],
        flag: Option<Flag>,
        window: &Window,
    ) -> Option<InWindow<'d>> {
        let (a, b, from, until) = plain(data, window)?;
        let groups: Vec<Group> = data
            .timeline
            .offsets(lang, allowed, flag)
            .into_iter()
            .map(|OffsetSet { offset, set }| {
                let first = (from.saturating_add(offset), 0);
                Group { offset, set, first, skipped: set.rank(first) }
            })
            .collect();
        let lowest = groups.iter().map(|group| group.offset).min().unwrap_or(0);
        Some(InWindow { data, a, b, from, until, groups, lowest })
    }

    /// The events in list order from `key` (local start and ID) on.
    pub fn walk_from(&self, key: (i64, u32)) -> InOrder<'_> {
        let walks: Vec<Cursor> = self.groups.iter().map(|group| group.set.walk_from(key.max(group.first))).collect();
        let mut heap = BinaryHeap::with_capacity(walks.len());
        let mut order = InOrder { window: self, walks, heap: BinaryHeap::new() };
        for (at, walk) in order.walks.iter_mut().enumerate() {
            if let Some(entry) = walk.next() {
                heap.push(Reverse((entry.key(), at, entry.span)));
            }
        }
        order.heap = heap;
        order
    }
}

/// The next entry of a walk: its key, the walk's place and the entry's span.
type Next = ((i64, u32), usize, u32);

/// A walk of a window's events in list order: the offsets' sets merged.
pub struct InOrder<'w> {
    window: &'w InWindow<'w>,
    walks: Vec<Cursor<'w>>,
    /// The next entry of each walk: its key, the walk and the entry's span.
    heap: BinaryHeap<Reverse<Next>>,
}

impl Iterator for InOrder<'_> {
    type Item = Id;

    fn next(&mut self) -> Option<Id> {
        loop {
            let Reverse(((local, id), at, span)) = self.heap.pop()?;
            if let Some(next) = self.walks[at].next() {
                self.heap.push(Reverse((next.key(), at, next.span)));
            }
            // In the sets are events that end after the window.
            let window = self.window;
            let ends_in = match span {
                SPAN_UNKNOWN => window.data.events.get(&Id::from(id)).is_some_and(|event| event.end_utc <= window.b),
                span => local - window.groups[at].offset + i64::from(span) <= window.until,
            };
            if ends_in {
                return Some(Id::from(id));
            }
        }
    }
}

/// The IDs of the page of a plain window (`per_page` events after the first `offset`), in
/// list order; `None` as for [`counted_total`].
pub fn page(data: &Data, selection: &Selection, window: &Window, offset: usize, per_page: usize) -> Option<Vec<Id>> {
    let in_window = InWindow::of(data, selection.lang, selection.allowed, selection.flag, window)?;
    let (a, b, from, until) = (in_window.a, in_window.b, in_window.from, in_window.until);
    if in_window.groups.is_empty() {
        return Some(Vec::new());
    }
    // Long events that start in the window and end after it: in the sets, not in the list;
    // nor are the events the selection leaves out.
    let mut out: Vec<(i64, u32)> = data
        .long_events
        .range((Bound::Excluded((b, Id::MAX)), Bound::Unbounded))
        .filter(|((_, id), (_, listing))| listing.start_utc >= a && selection.holds(data, *id, listing))
        .filter_map(|((_, id), (local, _))| Some((whole_seconds(*local)?, u32::try_from(*id).ok()?)))
        .chain(selection.left_out.iter().copied())
        .collect();
    out.sort_unstable();
    // How many listed events come before `key` in list order. A short event that ends after
    // the window starts (UTC) after `until - SHORT_EVENT`, so locally after `last`: up to
    // there, the long ones are all the sets hold beyond the list.
    let before = |key: (i64, u32)| -> usize {
        let held: usize = in_window.groups.iter().map(|group| group.set.rank(key).saturating_sub(group.skipped)).sum();
        held.saturating_sub(out.partition_point(|held| *held < key))
    };
    let last = until.saturating_sub(SHORT_EVENT.num_seconds()).saturating_add(in_window.lowest);
    let mut start = (from.saturating_add(in_window.lowest), 0);
    if offset > 0 && start.0 < last {
        // The last second whose start comes at or before the page, then the last ID in it.
        let (mut low, mut high) = (start.0, last);
        while low < high {
            let middle = low + (high - low + 1) / 2;
            if before((middle, 0)) <= offset {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        start = (low, 0);
        // Many events may start in the same second: then the ID too.
        let (mut low, mut high) = (0u32, u32::MAX);
        let crowded = before((start.0.saturating_add(1), 0)) - before(start) > TIES_WALKED;
        while crowded && low < high {
            let middle = low + (high - low).div_ceil(2);
            if before((start.0, middle)) <= offset {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        start.1 = low;
    }
    let skip = offset - before(start).min(offset);
    // The searches' promise, checked in debug builds: a page that starts before `last` is
    // reached by skipping no more than one second's ties (a wrong bound would only cost time).
    debug_assert!(
        skip <= TIES_WALKED || before((last, 0)) <= offset,
        "a page at {offset} walks {skip} events from {start:?}"
    );
    let mut left_out: Vec<u32> = selection.left_out.iter().map(|(_, id)| *id).collect();
    left_out.sort_unstable();
    let shown = |id: &Id| u32::try_from(*id).is_ok_and(|id| left_out.binary_search(&id).is_err());
    Some(in_window.walk_from(start).filter(shown).skip(skip).take(per_page).collect())
}
