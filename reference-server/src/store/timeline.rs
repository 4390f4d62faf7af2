//! Listed events on a timeline that counts (issue 10): how many events of a language and
//! status start before an instant, or end by one, in a few binary searches, so that the total
//! of a date window and the place of a deep page are found without walking the events.
//!
//! The list is in order of local start (the wall-clock time in each event's own zone), while
//! a window compares UTC times, and the two differ by up to 14 hours. Events are therefore
//! kept in one set per offset (local start less UTC start): within a set, local order is UTC
//! order, and the events starting in a window start at a known local time. Another set per
//! language and status holds the UTC ends.
//!
//! The featured and the ticketed events have timelines of their own too (`Track`), so that a
//! list of those is counted the same way.
//!
//! Kept in step by `Data::count_listing`. An event whose ID does not fit 32 bits or whose
//! times have a fraction of a second is not held; while any is stored, lists walk instead.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;

use super::ranked::{Entry, RankedSet};
use super::Flag;
use crate::model::{Event, Lang, Status};

/// Which events a set holds: of a language and status, and with a flag or all of them.
type Track = (Lang, Status, Option<Flag>);

/// A span (end less start, in seconds) that does not fit an entry: the end is read from the
/// event.
pub const SPAN_UNKNOWN: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Timeline {
    /// Local starts, by language and status, then by offset in seconds; each entry's span is
    /// the event's length in seconds.
    starts: HashMap<Track, BTreeMap<i64, RankedSet>>,
    /// UTC ends, by language and status (and flag).
    ends: HashMap<Track, RankedSet>,
    /// Listed events that are not held.
    not_held: usize,
}

/// Seconds since the epoch, when `at` has no fraction of a second.
pub fn whole_seconds(at: NaiveDateTime) -> Option<i64> {
    let at = at.and_utc();
    (at.timestamp_subsec_nanos() == 0).then(|| at.timestamp())
}

/// The events of one offset: `local - offset` is their UTC start.
pub struct OffsetSet<'t> {
    pub offset: i64,
    pub set: &'t RankedSet,
}

impl Timeline {
    /// Adds (`add`) or takes away a listed event.
    pub(super) fn update(&mut self, event: &Event, add: bool) {
        let times = (whole_seconds(event.start), whole_seconds(event.start_utc), whole_seconds(event.end_utc));
        let (Ok(id), (Some(local), Some(start), Some(end))) = (u32::try_from(event.post.id), times) else {
            let fraction = |at: NaiveDateTime| at.and_utc().timestamp_subsec_nanos() != 0;
            debug_assert!(
                u32::try_from(event.post.id).is_err()
                    || [event.start, event.start_utc, event.end_utc].into_iter().any(fraction),
                "an event is held unless its ID or one of its times does not fit"
            );
            self.not_held = if add { self.not_held + 1 } else { self.not_held.saturating_sub(1) };
            return;
        };
        let offset = local - start;
        let span = u32::try_from(end - start).unwrap_or(SPAN_UNKNOWN);
        let flags = [(Flag::Featured, event.featured), (Flag::Ticketed, event.ticketed)];
        let tracks = flags.into_iter().filter(|(_, set)| *set).map(|(flag, _)| Some(flag));
        for flag in std::iter::once(None).chain(tracks) {
            let track = (event.post.lang, event.post.status, flag);
            let starts = self.starts.entry(track).or_default();
            let by_offset = starts.entry(offset).or_default();
            let ends = self.ends.entry(track).or_default();
            if add {
                by_offset.insert(Entry { at: local, id, span });
                ends.insert(Entry { at: end, id, span: 0 });
            } else {
                by_offset.remove((local, id));
                ends.remove((end, id));
            }
            if by_offset.is_empty() {
                starts.remove(&offset);
            }
            if starts.is_empty() {
                self.starts.remove(&track);
            }
            if ends.is_empty() {
                self.ends.remove(&track);
            }
        }
    }

    /// True when every listed event is held.
    pub fn whole(&self) -> bool {
        self.not_held == 0
    }

    /// The start sets of a language and these statuses (with the flag, if any), one per
    /// offset and status.
    pub fn offsets(&self, lang: Lang, statuses: &[Status], flag: Option<Flag>) -> Vec<OffsetSet<'_>> {
        statuses
            .iter()
            .filter_map(|status| self.starts.get(&(lang, *status, flag)))
            .flatten()
            .map(|(offset, set)| OffsetSet { offset: *offset, set })
            .collect()
    }

    /// How many events of a language and these statuses (with the flag) start (UTC) before `at` seconds.
    pub fn starting_before(&self, lang: Lang, statuses: &[Status], flag: Option<Flag>, at: i64) -> usize {
        self.offsets(lang, statuses, flag)
            .iter()
            .map(|group| group.set.rank((at.saturating_add(group.offset), 0)))
            .sum()
    }

    /// How many events of a language and these statuses (with the flag) end (UTC) at `at` seconds or before.
    pub fn ending_by(&self, lang: Lang, statuses: &[Status], flag: Option<Flag>, at: i64) -> usize {
        statuses
            .iter()
            .filter_map(|status| self.ends.get(&(lang, *status, flag)))
            .map(|set| set.rank((at.saturating_add(1), 0)))
            .sum()
    }
}
