//! A bounded cache of rendered JSON fragments, shared by every request.
//!
//! Rendering a record (its texts through the CMS's formatting, its fields as JSON) is the
//! expensive part of an answer; the same record is shown again and again. Fragments are kept
//! under a key naming the record *and its revision* (`store::Rec`), so a changed record is
//! never served from an old rendering: its new revision simply misses, and the old entry ages
//! out. Nothing here depends on who asks: only what every reader sees alike is cached.
//!
//! Memory is bounded (32 MiB of fragments, what some ten thousand events take): entries are evicted in CLOCK order (an entry used since it was last
//! looked at gets a second chance) once their total size passes the budget, and an entry
//! larger than a quarter of the budget is not kept at all.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::model::Id;
use crate::store::Rev;

/// The budget of the cache, in bytes of fragments (plus a fixed cost per entry).
pub const DEFAULT_BUDGET: usize = 32 * 1024 * 1024;

/// What an entry costs besides its bytes (key, map slot, queue slot, allocation headers).
const ENTRY_OVERHEAD: usize = 96;

/// What a fragment renders: a record at a revision, in one of its forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// An event's own fields, in two pieces (before and after `rest_url`).
    Event(Id, Rev),
    /// An event's JSON-LD, in two pieces (before and after its location and organizer).
    EventLd(Id, Rev),
    /// A venue or organizer as lists and embeds show it (`false`) or as a single read does,
    /// with its JSON-LD (`true`).
    Venue(Id, Rev, bool),
    Organizer(Id, Rev, bool),
    /// A venue's or organizer's JSON-LD object.
    VenueLd(Id, Rev),
    OrganizerLd(Id, Rev),
    /// A term as events embed it, for one of the request's base addresses (its `urls`).
    Term(Id, Rev, u8),
}

/// A rendered fragment: JSON text, in two pieces split at `split` when the form has two.
#[derive(Debug)]
pub struct Fragment {
    text: Box<str>,
    split: usize,
}

impl Fragment {
    pub fn new(text: String) -> Fragment {
        let split = text.len();
        Fragment { text: text.into_boxed_str(), split }
    }

    pub fn pair(first: &str, second: &str) -> Fragment {
        Fragment { text: format!("{first}{second}").into_boxed_str(), split: first.len() }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn first(&self) -> &str {
        &self.text[..self.split]
    }

    pub fn second(&self) -> &str {
        &self.text[self.split..]
    }

    fn cost(&self) -> usize {
        self.text.len() + ENTRY_OVERHEAD
    }
}

struct Entry {
    fragment: Arc<Fragment>,
    used: bool,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Entry>,
    /// Keys in CLOCK order (oldest first); a key whose entry is gone is skipped.
    order: VecDeque<Key>,
    bytes: usize,
}

/// The shared cache.
pub struct RenderCache {
    budget: usize,
    inner: Mutex<Inner>,
}

impl Default for RenderCache {
    fn default() -> RenderCache {
        RenderCache::new(DEFAULT_BUDGET)
    }
}

impl RenderCache {
    pub fn new(budget: usize) -> RenderCache {
        RenderCache { budget, inner: Mutex::new(Inner::default()) }
    }

    /// The fragment under `key`, rendering it with `render` on a miss (outside the cache's
    /// lock: two requests may render the same miss, and the later one is kept).
    pub fn get_or_render(&self, key: Key, render: impl FnOnce() -> Fragment) -> Arc<Fragment> {
        if let Some(found) = self.get(key) {
            return found;
        }
        let fragment = Arc::new(render());
        self.put(key, fragment.clone());
        fragment
    }

    pub fn get(&self, key: Key) -> Option<Arc<Fragment>> {
        let mut inner = self.inner.lock();
        let entry = inner.entries.get_mut(&key)?;
        entry.used = true;
        Some(entry.fragment.clone())
    }

    fn put(&self, key: Key, fragment: Arc<Fragment>) {
        let cost = fragment.cost();
        if cost > self.budget / 4 {
            return;
        }
        let mut inner = self.inner.lock();
        let inner = &mut *inner;
        match inner.entries.insert(key, Entry { fragment, used: false }) {
            Some(old) => inner.bytes -= old.fragment.cost(),
            None => inner.order.push_back(key),
        }
        inner.bytes += cost;
        while inner.bytes > self.budget {
            let Some(oldest) = inner.order.pop_front() else { break };
            let Some(entry) = inner.entries.get_mut(&oldest) else { continue };
            if entry.used {
                entry.used = false;
                inner.order.push_back(oldest);
            } else if let Some(gone) = inner.entries.remove(&oldest) {
                inner.bytes -= gone.fragment.cost();
            }
        }
    }

    /// The bytes the cache holds now (fragments and their fixed costs).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.inner.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_within_its_budget_and_gives_used_entries_a_second_chance() {
        let cache = RenderCache::new(10 * (100 + ENTRY_OVERHEAD));
        let text = "x".repeat(100);
        cache.get_or_render(Key::Event(1, 1), || Fragment::new(text.clone()));
        for id in 2..40 {
            // The first entry stays in use.
            assert!(cache.get(Key::Event(1, 1)).is_some(), "entry 1 evicted before {id}");
            cache.get_or_render(Key::Event(id, 1), || Fragment::new(text.clone()));
            assert!(cache.bytes() <= 10 * (100 + ENTRY_OVERHEAD));
        }
        assert!(cache.get(Key::Event(2, 1)).is_none(), "an unused old entry is evicted");
        assert!(cache.get(Key::Event(39, 1)).is_some());
        // Too large to keep.
        let big = cache.get_or_render(Key::Event(99, 1), || Fragment::new("y".repeat(4000)));
        assert_eq!(big.text().len(), 4000);
        assert!(cache.get(Key::Event(99, 1)).is_none());
        let pair = Fragment::pair("{\"a\":1", ",\"b\":2");
        assert_eq!((pair.first(), pair.second()), ("{\"a\":1", ",\"b\":2"));
    }
}
