//! A plain date window (`start_date` and `end_date` only) counted by whole local days (issue
//! 10): the days well inside it hold only events inside it, except long events that end after
//! it, so their events are counted from the store's per-day counts instead of walked. The
//! total of an unfiltered list comes from these counts, and a deep page skips the days before
//! it the same way.

use std::collections::HashMap;
use std::ops::Bound;

use chrono::{NaiveDate, NaiveDateTime};

use super::Window;
use crate::model::{Id, Lang, Status};
use crate::store::{Data, Listing, SHORT_EVENT};

/// A local start is within 14 hours of the UTC one.
const SLACK: chrono::Duration = chrono::Duration::hours(15);

/// The whole local days of a window whose short events are inside it for sure.
struct InnerDays {
    from: NaiveDateTime,
    until: NaiveDateTime,
    first: NaiveDate,
    last: NaiveDate,
    /// The first instant of `first` and the one after `last`.
    start: NaiveDateTime,
    end: NaiveDateTime,
}

impl InnerDays {
    /// `None` when the window is not a plain one or has no such day.
    fn of(window: &Window) -> Option<InnerDays> {
        let plain = window.starts_after.is_none()
            && window.starts_before.is_none()
            && window.ends_after.is_none()
            && window.ends_before.is_none();
        let (Some(from), Some(until)) = (window.start_min, window.end_max) else { return None };
        if !plain {
            return None;
        }
        // A short event lasts at most SHORT_EVENT: short events starting on these days are
        // inside the window.
        let first = (from + SLACK).date().succ_opt()?;
        let last = (until - SLACK - SHORT_EVENT).date().pred_opt()?;
        if first > last {
            return None;
        }
        let start = first.and_hms_opt(0, 0, 0)?;
        let end = last.succ_opt()?.and_hms_opt(0, 0, 0)?;
        Some(InnerDays { from, until, first, last, start, end })
    }

    /// The listed events of a day, as its counts have them (long events included).
    fn counted(counts: &[u32], allowed: &[Status]) -> usize {
        allowed.iter().map(|status| counts[status.index()] as usize).sum()
    }

    /// The long events of these days that end after the window, by local start day: they are
    /// in the days' counts but not in the window.
    fn out(&self, data: &Data, lang: Lang, allowed: &[Status]) -> HashMap<NaiveDate, usize> {
        let mut out: HashMap<NaiveDate, usize> = HashMap::new();
        for (_, (start, listing)) in data.long_events.range((Bound::Excluded((self.until, Id::MAX)), Bound::Unbounded))
        {
            if (self.start..self.end).contains(start) && listing.lang == lang && allowed.contains(&listing.status) {
                *out.entry(start.date()).or_default() += 1;
            }
        }
        out
    }
}

/// The number of listed events in a plain date window, without walking it: whole local days
/// well inside the window are summed from the per-day counts, less the long events that start
/// on those days but end after the window; the days near its edges are checked one by one.
/// `None` when the window is not a plain one.
pub fn counted_total(
    data: &Data,
    lang: Lang,
    allowed: &[Status],
    window: &Window,
    listed: &dyn Fn(&Listing) -> bool,
) -> Option<usize> {
    let days = InnerDays::of(window)?;
    let middle: usize = data
        .day_counts
        .range((lang, days.first)..=(lang, days.last))
        .map(|(_, counts)| InnerDays::counted(counts, allowed))
        .sum();
    let out: usize = days.out(data, lang, allowed).values().sum();
    let edges = data
        .events_by_start
        .range((days.from - SLACK, 0)..(days.start, 0))
        .chain(data.events_by_start.range((days.end, 0)..=(days.until + SLACK, Id::MAX)))
        .filter(|(_, listing)| listed(listing))
        .count();
    Some(middle.saturating_sub(out) + edges)
}

/// Where the walk for a page of a plain window without event filters may start: the whole
/// inner days before the page are counted instead of walked. The local start to walk from and
/// how many listed events come before it (at most `offset`); `None` when no day is skipped.
pub fn skip_whole_days(
    data: &Data,
    lang: Lang,
    allowed: &[Status],
    window: &Window,
    offset: usize,
    listed: &dyn Fn(&Listing) -> bool,
) -> Option<(NaiveDateTime, usize)> {
    let days = InnerDays::of(window)?;
    // The days before the inner ones are walked, but only as far as the page: when they hold
    // `offset` events or more, no day is skipped (the first page never skips one).
    let before = data
        .events_by_start
        .range((days.from - SLACK, 0)..(days.start, 0))
        .filter(|(_, listing)| listed(listing))
        .take(offset)
        .count();
    if before >= offset {
        return None;
    }
    let out = days.out(data, lang, allowed);
    let (mut skipped, mut resume) = (before, None);
    for ((_, day), counts) in data.day_counts.range((lang, days.first)..=(lang, days.last)) {
        let listed_that_day = InnerDays::counted(counts, allowed).saturating_sub(out.get(day).copied().unwrap_or(0));
        if skipped + listed_that_day > offset {
            break;
        }
        skipped += listed_that_day;
        resume = Some(day.succ_opt()?.and_hms_opt(0, 0, 0)?);
    }
    resume.map(|resume| (resume, skipped))
}
