//! Venues and organizers in the order their lists show them (newest publication date first,
//! then highest ID), with counts per language and status: a list without filters reads its
//! page and its total here instead of sorting every item (issue 10).

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;

use crate::model::{Id, Lang, Post, PostKind, Status};

/// Where a venue or organizer stands in the order.
#[derive(Clone, Copy)]
pub struct Place {
    lang: Lang,
    date: NaiveDateTime,
    status: Status,
}

impl Place {
    pub fn of(post: &Post) -> Place {
        Place { lang: post.lang, date: post.date, status: post.status }
    }
}

#[derive(Default)]
pub struct LinkedOrder {
    order: BTreeMap<(PostKind, Lang, NaiveDateTime, Id), Status>,
    counts: HashMap<(PostKind, Lang, Status), usize>,
}

impl LinkedOrder {
    /// Moves an item from its old place (if it had one) to its new one.
    pub fn update(&mut self, kind: PostKind, id: Id, old: Option<Place>, new: Place) {
        if let Some(old) = old {
            self.order.remove(&(kind, old.lang, old.date, id));
            let key = (kind, old.lang, old.status);
            if let Some(count) = self.counts.get_mut(&key) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    self.counts.remove(&key);
                }
            }
        }
        self.order.insert((kind, new.lang, new.date, id), new.status);
        *self.counts.entry((kind, new.lang, new.status)).or_default() += 1;
    }

    /// How many items of this kind and language have one of these (distinct) statuses.
    pub fn total(&self, kind: PostKind, lang: Lang, statuses: &[Status]) -> usize {
        statuses.iter().map(|status| self.counts.get(&(kind, lang, *status)).copied().unwrap_or(0)).sum()
    }

    /// The items of this kind and language, newest first, with their status.
    pub fn newest_first(&self, kind: PostKind, lang: Lang) -> impl Iterator<Item = (Id, Status)> + '_ {
        self.order
            .range((kind, lang, NaiveDateTime::MIN, 0)..=(kind, lang, NaiveDateTime::MAX, Id::MAX))
            .rev()
            .map(|((_, _, _, id), status)| (*id, *status))
    }
}
