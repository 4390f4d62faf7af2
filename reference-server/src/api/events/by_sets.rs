//! The events list when every filter is a set membership: search words, `featured`,
//! `ticketed` (issue 10). The events that pass are an intersection of the store's ID sets
//! (`store::sets`: the caller's language and statuses, the flags, the window) and the search
//! index's answer, so the total is counted without reading an event; only events with a
//! password are looked at one by one, and only for callers who might read them. The page
//! is then found by walking the list order until it is full or, when few events pass, by
//! sorting just those: whichever reads fewer entries.

use chrono::NaiveDateTime;
use roaring::RoaringBitmap;

use super::counted::InWindow;
use super::filter::{EventFilter, SearchHits};
use super::{StatusFilter, Window};
use crate::access::{is_protected_for, Reveal};
use crate::api::lists::Page;
use crate::app::Ctx;
use crate::model::{Id, Status};
use crate::store::{sets, Data, Flag};

/// What reading one event (to sort by its start) costs, in steps of a walk of the index.
const LOOKUP_COST: u64 = 4;

#[cfg(test)]
thread_local! {
    /// Set by tests to compare the answers with those of the walk (the timeline's too).
    pub static DISABLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// How many answers came from the sets (with a page read by sorting, and by walking).
    pub static USED: std::cell::Cell<[usize; 2]> = const { std::cell::Cell::new([0; 2]) };
}

/// The IDs of the page's events, in list order, and the total; `None` when some filter is
/// not a set membership (the list then reads candidates or walks the window).
pub(super) fn select(
    ctx: &Ctx,
    data: &Data,
    filter: &EventFilter,
    statuses: &StatusFilter,
    window: &Window,
    page: &Page,
) -> Option<(Vec<Id>, usize)> {
    #[cfg(test)]
    if DISABLED.with(std::cell::Cell::get) {
        return None;
    }
    if data.sets.overflowed || !statuses.author_blind() || !filter.only_set_filters() {
        return None;
    }
    let hits = if filter.search.is_empty() { None } else { Some(filter.hits.as_ref()?) };
    let in_window = data.window_set(window);
    let mut members = members(ctx, data, filter, statuses, &in_window, hits);
    drop_protected(ctx, data, filter, hits, &mut members);
    let total = members.len() as usize;
    if page.offset() >= total {
        return Some((Vec::new(), total));
    }
    let wanted = page.offset().saturating_add(page.per_page).min(total);
    let flag = filter.flag();
    let by_sorting = sorting_reads_less(data, &in_window, flag, total, wanted);
    #[cfg(test)]
    USED.with(|used| {
        let mut counts = used.get();
        counts[usize::from(!by_sorting)] += 1;
        used.set(counts);
    });
    let ordered = if by_sorting {
        sorted(data, &members, wanted)
    } else {
        walked(ctx, data, &members, window, flag, &statuses.allowed, wanted)
    };
    Some((ordered.into_iter().skip(page.offset()).collect(), total))
}

/// The intersection of the sets that must hold an event, from the smallest (the big ones are
/// read, not copied), less those that must not.
fn members(
    ctx: &Ctx,
    data: &Data,
    filter: &EventFilter,
    statuses: &StatusFilter,
    in_window: &RoaringBitmap,
    hits: Option<&SearchHits>,
) -> RoaringBitmap {
    let listed = data.sets.listed(ctx.lang, &statuses.allowed);
    let mut wanted_in: Vec<&RoaringBitmap> = vec![in_window, &listed];
    let mut wanted_out: Vec<&RoaringBitmap> = Vec::new();
    for (flag, wanted) in [(Flag::Featured, filter.featured), (Flag::Ticketed, filter.ticketed)] {
        match wanted {
            Some(true) => wanted_in.push(data.sets.flagged(flag)),
            Some(false) => wanted_out.push(data.sets.flagged(flag)),
            None => {}
        }
    }
    if let Some(hits) = hits {
        wanted_in.push(&hits.all);
    }
    wanted_in.sort_by_cached_key(|set| set.len());
    let mut members = wanted_in[0] & wanted_in[1];
    for set in &wanted_in[2..] {
        members &= *set;
    }
    for set in wanted_out {
        members -= set;
    }
    members
}

/// As `EventFilter::admits` decides: for a caller who may not read a protected event, a
/// filter on what its password hides selects nothing and a search matches its title only.
fn drop_protected(
    ctx: &Ctx,
    data: &Data,
    filter: &EventFilter,
    hits: Option<&SearchHits>,
    members: &mut RoaringBitmap,
) {
    let looks = filter.looks_at_protected();
    if !looks && hits.is_none() {
        return;
    }
    // Without a password or a user, every event with a password is protected.
    let anonymous = ctx.user.is_none() && filter.password.is_none();
    let reveal = Reveal { password: filter.password, edit_context: true };
    for key in &*members & data.sets.passworded() {
        let protected = anonymous
            || data.events.get(&Id::from(key)).is_some_and(|event| is_protected_for(ctx, &event.post, reveal));
        if protected && (looks || hits.is_some_and(|hits| !hits.title.contains(key))) {
            members.remove(key);
        }
    }
}

/// Whether sorting the `total` passing events reads fewer entries than walking the list
/// order to the `wanted`-th: a walk meets a passing event once in (population / total).
fn sorting_reads_less(data: &Data, in_window: &RoaringBitmap, flag: Option<Flag>, total: usize, wanted: usize) -> bool {
    let population = match flag {
        Some(flag) => in_window.intersection_len(data.sets.flagged(flag)),
        None => in_window.len(),
    };
    let walk_steps = (wanted as u64).saturating_mul(population) / (total as u64);
    (total as u64).saturating_mul(LOOKUP_COST) <= walk_steps
}

/// The first `wanted` members in list order, by reading each member's start.
fn sorted(data: &Data, members: &RoaringBitmap, wanted: usize) -> Vec<Id> {
    let mut passing: Vec<(NaiveDateTime, Id)> = members
        .iter()
        .filter_map(|key| data.events.get(&Id::from(key)))
        .map(|event| (event.start, event.post.id))
        .collect();
    let end = wanted.min(passing.len());
    if end == 0 {
        return Vec::new();
    }
    passing.select_nth_unstable(end - 1);
    passing[..end].sort_unstable();
    passing[..end].iter().map(|(_, id)| *id).collect()
}

/// The first `wanted` members in list order, by walking the flag's index, or the window's
/// events on the timeline, or else the start-order index.
fn walked(
    ctx: &Ctx,
    data: &Data,
    members: &RoaringBitmap,
    window: &Window,
    flag: Option<Flag>,
    allowed: &[Status],
    wanted: usize,
) -> Vec<Id> {
    let is_member = |id: &Id| sets::key(*id).is_some_and(|key| members.contains(key));
    if flag.is_none() {
        if let Some(in_window) = InWindow::of(data, ctx.lang, allowed, None, window) {
            return in_window.walk_from((i64::MIN, 0)).filter(is_member).take(wanted).collect();
        }
    }
    let (from, last) = window.walk_bounds();
    let walk: Box<dyn Iterator<Item = (NaiveDateTime, Id)>> = match flag {
        Some(flag) => Box::new(
            data.flagged
                .range((flag, from, 0)..=(flag, NaiveDateTime::MAX, Id::MAX))
                .map(|((_, start, id), _)| (*start, *id)),
        ),
        None => Box::new(data.events_by_start.range((from, 0)..).map(|((start, id), _)| (*start, *id))),
    };
    let mut ordered = Vec::with_capacity(wanted);
    for (start, id) in walk {
        if last.is_some_and(|last| start > last) || ordered.len() == wanted {
            break;
        }
        if sets::key(id).is_some_and(|key| members.contains(key)) {
            ordered.push(id);
        }
    }
    ordered
}
