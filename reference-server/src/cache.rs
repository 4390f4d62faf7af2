//! A bounded cache of rendered JSON fragments, shared by every request.
//!
//! Rendering a record (its texts through the CMS's formatting, its fields as JSON) is the
//! expensive part of an answer; the same record is shown again and again. Fragments are kept
//! under a key naming the record *and its revision* (`store::Rec`), so a changed record is
//! never served from an old rendering: its new revision simply misses, and the old entry ages
//! out. Nothing here depends on who asks: only what every reader sees alike is cached.
//!
//! Memory is bounded (32 MiB of fragments, what some ten thousand events take), in shards
//! locked apart: in each, entries are evicted in CLOCK order (an entry used since it was last
//! looked at gets a second chance) once their total size passes the shard's share of the
//! budget. An entry larger than a quarter of that share (a long description: 2 MiB of `&` is
//! 23 MB rendered) goes to a pool of its own for large fragments, twice the budget, in which
//! an entry may take at most half; only larger ones are rendered again at each read.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::model::Id;
use crate::model::Rev;

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
    entries: HashMap<Key, Entry, BuildHasherDefault<KeyHasher>>,
    /// Keys in CLOCK order (oldest first); a key whose entry is gone is skipped.
    order: VecDeque<Key>,
    bytes: usize,
}

/// How many independently locked parts a cache of the default budget has, so that requests
/// on different threads seldom wait for each other.
const SHARDS: usize = 16;

/// The shared cache: keys spread over shards by their hash, each with its share of the budget.
pub struct RenderCache {
    /// Tells this cache's fragments from another's in the threads' near caches.
    id: u64,
    /// The budget of each shard.
    budget: usize,
    shards: Box<[Mutex<Inner>]>,
    /// Fragments too large for a shard, within `large_budget`.
    large: Mutex<Inner>,
    large_budget: usize,
    /// Fragments rendered so far (misses), for tests that a reading is not repeated.
    rendered: AtomicU64,
}

impl Default for RenderCache {
    fn default() -> RenderCache {
        RenderCache::with_shards(DEFAULT_BUDGET, SHARDS)
    }
}

impl RenderCache {
    /// A cache of `budget` bytes in one shard.
    pub fn new(budget: usize) -> RenderCache {
        RenderCache::with_shards(budget, 1)
    }

    fn with_shards(budget: usize, shards: usize) -> RenderCache {
        let shards = shards.max(1);
        let id = NEXT_CACHE_ID.fetch_add(1, Ordering::Relaxed);
        RenderCache {
            id,
            budget: budget / shards,
            shards: (0..shards).map(|_| Mutex::new(Inner::default())).collect(),
            large: Mutex::new(Inner::default()),
            large_budget: budget.saturating_mul(2),
            rendered: AtomicU64::new(0),
        }
    }

    /// How many fragments were rendered (not found in the cache) so far.
    pub fn rendered(&self) -> u64 {
        self.rendered.load(Ordering::Relaxed)
    }

    fn shard(&self, key: &Key) -> &Mutex<Inner> {
        let index = (hash_of(key) >> 32) as usize % self.shards.len();
        &self.shards[index]
    }

    /// The fragment under `key`, rendering it with `render` on a miss (outside the cache's
    /// lock: two requests may render the same miss, and the later one is kept).
    ///
    /// Each thread keeps the fragments it used last within reach ([`Near`]): a hit there
    /// touches no lock and no counter that other threads touch too.
    pub fn get_or_render(&self, key: Key, render: impl FnOnce() -> Fragment) -> Held {
        let slot = hash_of(&key) as usize % NEAR_SLOTS;
        if let Some(found) = NEAR.try_with(|near| near.borrow().find(slot, self.id, key)).ok().flatten() {
            return found;
        }
        let fragment = match self.get(key) {
            Some(found) => found,
            None => {
                self.rendered.fetch_add(1, Ordering::Relaxed);
                let fragment = Arc::new(render());
                self.put(key, fragment.clone());
                fragment
            }
        };
        let held = Rc::new(fragment);
        if held.text.len() <= NEAR_MAX_BYTES {
            let _ = NEAR.try_with(|near| near.borrow_mut().keep(slot, self.id, key, held.clone()));
        }
        held
    }

    pub fn get(&self, key: Key) -> Option<Arc<Fragment>> {
        Inner::get(&mut self.shard(&key).lock(), key).or_else(|| Inner::get(&mut self.large.lock(), key))
    }

    fn put(&self, key: Key, fragment: Arc<Fragment>) {
        let cost = fragment.cost();
        if cost <= self.budget / 4 {
            self.shard(&key).lock().put(key, fragment, self.budget);
        } else if cost <= self.large_budget / 2 {
            self.large.lock().put(key, fragment, self.large_budget);
        }
    }

    /// The bytes the cache holds now (fragments and their fixed costs).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|shard| shard.lock().bytes).sum::<usize>() + self.large.lock().bytes
    }
}

impl Inner {
    fn get(&mut self, key: Key) -> Option<Arc<Fragment>> {
        let entry = self.entries.get_mut(&key)?;
        entry.used = true;
        Some(entry.fragment.clone())
    }

    /// Keeps `fragment`, then evicts in CLOCK order until the entries fit `budget`.
    fn put(&mut self, key: Key, fragment: Arc<Fragment>, budget: usize) {
        let cost = fragment.cost();
        match self.entries.insert(key, Entry { fragment, used: false }) {
            Some(old) => self.bytes -= old.fragment.cost(),
            None => self.order.push_back(key),
        }
        self.bytes += cost;
        while self.bytes > budget {
            let Some(oldest) = self.order.pop_front() else { break };
            let Some(entry) = self.entries.get_mut(&oldest) else { continue };
            if entry.used {
                entry.used = false;
                self.order.push_back(oldest);
            } else if let Some(gone) = self.entries.remove(&oldest) {
                self.bytes -= gone.fragment.cost();
            }
        }
    }
}

fn hash_of(key: &Key) -> u64 {
    let mut hasher = KeyHasher::default();
    key.hash(&mut hasher);
    hasher.finish()
}

/// A fragment as a thread holds it: counted within the thread only.
pub type Held = Rc<Arc<Fragment>>;

/// The slots of each thread's near cache, and the largest fragment one keeps: together they
/// bound what a thread holds beyond the shared budget (8 MiB).
const NEAR_SLOTS: usize = 1024;
const NEAR_MAX_BYTES: usize = 8 * 1024;

static NEXT_CACHE_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static NEAR: RefCell<Near> = const { RefCell::new(Near { slots: Vec::new() }) };
}

/// A thread's own small cache in front of the shared one, one key per slot (a newer key
/// takes the slot). Fragments never change under a key (keys name revisions), so what a
/// thread holds is never stale; it is only evicted.
struct Near {
    slots: Vec<Option<(u64, Key, Held)>>,
}

impl Near {
    fn find(&self, slot: usize, cache: u64, key: Key) -> Option<Held> {
        match self.slots.get(slot) {
            Some(Some((owner, held_key, held))) if *owner == cache && *held_key == key => Some(held.clone()),
            _ => None,
        }
    }

    fn keep(&mut self, slot: usize, cache: u64, key: Key, held: Held) {
        if self.slots.is_empty() {
            self.slots.resize_with(NEAR_SLOTS, || None);
        }
        self.slots[slot] = Some((cache, key, held));
    }
}

/// A fast hash for keys (multiply and rotate, as rustc's own maps use). Keys are numbers the
/// store assigns (IDs and revisions), not text a client chooses, so a hash that an attacker
/// could steer into collisions is no risk here.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // The multiplications leave the low bits poorly mixed, and the map's buckets are
        // chosen by them: a final mix (MurmurHash3's) spreads every input bit over the output.
        let mut hash = self.0;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
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
        assert_eq!(cache.rendered(), 40);
        let pair = Fragment::pair("{\"a\":1", ",\"b\":2");
        assert_eq!((pair.first(), pair.second()), ("{\"a\":1", ",\"b\":2"));
    }

    #[test]
    fn h14_large_fragments_are_kept_in_a_pool_of_their_own() {
        let budget = 10 * (100 + ENTRY_OVERHEAD);
        let cache = RenderCache::new(budget);
        // Over a quarter of the budget, within half of the large pool's (twice the budget).
        let large = "z".repeat(budget / 2);
        for round in 0..3 {
            cache.get_or_render(Key::Event(7, 1), || Fragment::new(large.clone()));
            assert_eq!(cache.rendered(), 1, "round {round}: rendered once, then read from the pool");
        }
        // The pool stays within its budget: older large entries make room.
        for id in 10..20 {
            cache.get_or_render(Key::Event(id, 1), || Fragment::new(large.clone()));
            assert!(cache.bytes() <= 3 * budget, "{}", cache.bytes());
        }
        assert!(cache.get(Key::Event(19, 1)).is_some());
    }

    #[test]
    fn a_sharded_cache_keeps_within_its_budget_and_uses_every_shard() {
        let budget = 16 * 10 * (100 + ENTRY_OVERHEAD);
        let cache = RenderCache::with_shards(budget, 16);
        for id in 0..1000 {
            cache.get_or_render(Key::Event(id, 1), || Fragment::new("x".repeat(100)));
            assert!(cache.bytes() <= budget);
        }
        assert!(cache.get(Key::Event(999, 1)).is_some());
        assert!(cache.shards.iter().all(|shard| !shard.lock().entries.is_empty()), "keys spread over the shards");
    }

    /// What the test caches render: a text that names the key, of a length chosen by the key
    /// (from a few bytes to over half of the large pool of a small cache), in two pieces.
    fn model(key: Key) -> (String, String) {
        let name = format!("{key:?}");
        let length = [8, 120, 1_500, 9_000, 40_000][name.bytes().map(usize::from).sum::<usize>() % 5];
        let first = format!("{name}:{}", "a".repeat(length));
        (first, format!("/{name}"))
    }

    /// A walk over 600 keys of every kind, some of them read again and again, as the pipeline
    /// asks for fragments.
    fn walk(steps: usize) -> impl Iterator<Item = Key> {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        (0..steps).map(move |_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let pick = state >> 33;
            let (id, rev) = (if pick % 3 == 0 { pick % 8 } else { pick % 100 }, (pick >> 8) % 2 + 1);
            match (pick >> 12) % 7 {
                0 => Key::Event(id, rev),
                1 => Key::EventLd(id, rev),
                2 => Key::Venue(id, rev, pick & 1 == 0),
                3 => Key::Organizer(id, rev, pick & 1 == 0),
                4 => Key::VenueLd(id, rev),
                5 => Key::OrganizerLd(id, rev),
                _ => Key::Term(id, rev, (pick % 3) as u8),
            }
        })
    }

    /// Every shard's and the large pool's bytes are the sum of their entries' costs (a
    /// fragment's length plus the fixed cost), within their budget, and each entry is in the
    /// CLOCK order.
    fn check_accounting(cache: &RenderCache) {
        let pools = cache.shards.iter().map(|shard| (shard, cache.budget));
        for (pool, budget) in pools.chain(std::iter::once((&cache.large, cache.large_budget))) {
            let inner = pool.lock();
            let held: usize = inner.entries.values().map(|entry| entry.fragment.text.len() + ENTRY_OVERHEAD).sum();
            assert_eq!(inner.bytes, held, "the bytes held are the sum of the entries' costs");
            assert!(inner.bytes <= budget, "{} bytes over a budget of {budget}", inner.bytes);
            assert!(inner.entries.keys().all(|key| inner.order.contains(key)), "every entry is in the order");
        }
    }

    /// The cache changes only how fast an answer is made, never what it says: whatever the
    /// budget (none at all, small, the default) and the shards, every read gives the fragment
    /// that rendering gives, in its two pieces. (So a change that only makes the cache keep
    /// less, or more, or keep it elsewhere, is invisible to a client: such mutants are listed
    /// in scripts/mutants/equivalent.txt with this test, which passes with each of them.)
    #[test]
    fn answers_are_those_of_rendering_whatever_the_budget() {
        for (budget, shards) in [(0, 1), (4 * 1024, 1), (64 * 1024, 4), (DEFAULT_BUDGET, SHARDS)] {
            let cache = RenderCache::with_shards(budget, shards);
            for key in walk(3_000) {
                let (first, second) = model(key);
                let held = cache.get_or_render(key, || Fragment::pair(&first, &second));
                assert_eq!((held.first(), held.second()), (first.as_str(), second.as_str()), "{key:?}");
                assert_eq!(held.text(), format!("{first}{second}"));
            }
        }
    }

    /// The memory the cache holds is what it counts, within its budget, whether entries are
    /// added, replaced (two requests rendered the same miss) or evicted.
    #[test]
    fn the_bytes_counted_are_the_bytes_held() {
        for (budget, shards) in [(0, 1), (4 * 1024, 1), (64 * 1024, 4), (1024 * 1024, SHARDS)] {
            let cache = RenderCache::with_shards(budget, shards);
            for (step, key) in walk(2_000).enumerate() {
                let (first, second) = model(key);
                cache.get_or_render(key, || Fragment::pair(&first, &second));
                if step % 7 == 0 {
                    // The later of two renderings of one miss replaces the earlier.
                    cache.put(key, Arc::new(Fragment::new(format!("{first}{second}!"))));
                }
                check_accounting(&cache);
            }
        }
        let fragment = Fragment::new("x".repeat(10));
        assert_eq!(fragment.cost(), 10 + ENTRY_OVERHEAD);
        assert_eq!(DEFAULT_BUDGET, 32 << 20);
    }

    /// A thread finds a fragment it used last without the shared cache, even when the shared
    /// cache keeps nothing; a fragment over 8 KiB it does not keep.
    #[test]
    fn a_thread_keeps_what_it_used_last() {
        let cache = RenderCache::new(0);
        let small = Key::Event(1, 1);
        cache.get_or_render(small, || Fragment::new("s".repeat(NEAR_MAX_BYTES)));
        cache.get_or_render(small, || unreachable!("kept by the thread"));
        let large = Key::Event(2, 1);
        cache.get_or_render(large, || Fragment::new("l".repeat(NEAR_MAX_BYTES + 1)));
        cache.get_or_render(large, || Fragment::new("l".repeat(NEAR_MAX_BYTES + 1)));
        assert_eq!(cache.rendered(), 3);
        assert_eq!(NEAR_MAX_BYTES, 8192);
    }

    #[test]
    fn each_cache_finds_its_own_fragments_through_the_near_cache() {
        let (one, two) = (RenderCache::default(), RenderCache::default());
        let key = Key::Event(7, 1);
        assert_eq!(one.get_or_render(key, || Fragment::new("one".into())).text(), "one");
        assert_eq!(two.get_or_render(key, || Fragment::new("two".into())).text(), "two");
        assert_eq!(one.get_or_render(key, || unreachable!("kept")).text(), "one");
        assert_eq!(two.get_or_render(key, || unreachable!("kept")).text(), "two");
        // Another revision is another key.
        assert_eq!(one.get_or_render(Key::Event(7, 2), || Fragment::new("new".into())).text(), "new");
    }
}
