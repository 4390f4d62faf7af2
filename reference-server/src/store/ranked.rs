//! A sorted set of timed entries that counts (issue 10): how many entries come before a key
//! takes two binary searches, however many the set holds, where a `BTreeMap` would have to
//! walk them. The events lists use it to count and to find a deep page without reading the
//! events before it (see `timeline`).
//!
//! The entries sit in blocks of at most `BLOCK`, each block sorted and every block before the
//! next; beside them, how many entries come before each block. A write moves at most one
//! block's entries and updates the counts of the blocks after it.

/// One entry: a time (seconds), the event's ID and a span the owner gives meaning to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub at: i64,
    pub id: u32,
    pub span: u32,
}

impl Entry {
    /// The order of the set: by time, then ID.
    pub fn key(&self) -> (i64, u32) {
        (self.at, self.id)
    }
}

/// The most entries a block holds. A block grows by doubling up to this (512 entries of 16
/// bytes fill one allocation size class), so that small sets take little.
const BLOCK: usize = 512;

/// The set's promises, checked in debug builds after every write (`$at`: the block written;
/// after a removal, `$removal`: how many blocks there were and how many entries the block kept,
/// before any join): blocks are never empty nor over `BLOCK`, the written block is sorted and
/// in order with its neighbours, the counts before each block add up; a removal joins its block
/// to a neighbour only when the block kept fewer than an eighth of `BLOCK`, and then it does
/// whenever a neighbour has room. Broken, each would only cost time or memory, which
/// no answer shows. (A macro of asserts, as the slug marks' check: see docs/mutants.md.)
macro_rules! check_blocks {
    ($set:expr, $at:expr, $removal:expr) => {
        if cfg!(debug_assertions) {
            let (set, at, removal): (&RankedSet, usize, Option<(usize, usize)>) = (&$set, $at, $removal);
            let mut counted = 0;
            for (index, block) in set.blocks.iter().enumerate() {
                assert!(!block.is_empty() && block.len() <= BLOCK, "block {index} holds {}", block.len());
                assert_eq!(set.before[index], counted, "the count before block {index}");
                counted += block.len();
            }
            assert_eq!((set.before.len(), counted), (set.blocks.len(), set.len), "the set's counts");
            for index in at.saturating_sub(1)..(at + 2).min(set.blocks.len()) {
                let block = &set.blocks[index];
                assert!(block.windows(2).all(|pair| pair[0].key() < pair[1].key()), "block {index} is out of order");
                if let Some(next) = set.blocks.get(index + 1) {
                    assert!(block[block.len() - 1].key() < next[0].key(), "blocks {index} and after overlap");
                }
            }
            if let Some((blocks_before, kept)) = removal {
                let joined = kept > 0 && set.blocks.len() < blocks_before;
                assert!(!joined || kept < BLOCK / 8, "block {at}, left with {kept}, was joined");
                if kept > 0 && kept < BLOCK / 8 && !joined {
                    let fits = |other: usize| set.blocks.get(other).is_some_and(|other| other.len() + kept <= BLOCK);
                    assert!(
                        !fits(at + 1) && (at == 0 || !fits(at - 1)),
                        "block {at}, left with {kept}, was not joined"
                    );
                }
            }
        }
    };
}

#[derive(Debug, Default)]
pub struct RankedSet {
    blocks: Vec<Vec<Entry>>,
    /// How many entries come before each block.
    before: Vec<usize>,
    len: usize,
}

impl RankedSet {
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The block where `key` is or would go: the first whose last entry is not before it
    /// (the last block for keys after every entry). Blocks are never empty.
    fn block_of(&self, key: (i64, u32)) -> usize {
        let found = self.blocks.partition_point(|block| block.last().is_some_and(|last| last.key() < key));
        found.min(self.blocks.len().saturating_sub(1))
    }

    /// Adds an entry; false (and no change) when one with its key is there.
    pub fn insert(&mut self, entry: Entry) -> bool {
        let key = entry.key();
        if self.blocks.is_empty() {
            self.blocks.push(Vec::new());
            self.before.push(0);
        }
        let mut at = self.block_of(key);
        let Err(mut position) = self.blocks[at].binary_search_by(|held| held.key().cmp(&key)) else {
            return false;
        };
        if self.blocks[at].len() >= BLOCK {
            if at + 1 == self.blocks.len() && position == BLOCK {
                // Past the last entry (events created in time order): a new block, so that
                // the full one stays full.
                self.blocks.push(Vec::new());
                self.before.push(self.len);
                at += 1;
                position = 0;
            } else {
                // Split the full block in two halves.
                let tail: Vec<Entry> = self.blocks[at].drain(BLOCK / 2..).collect();
                self.blocks.insert(at + 1, tail);
                self.before.insert(at + 1, self.before[at] + BLOCK / 2);
                if position > BLOCK / 2 {
                    at += 1;
                    position -= BLOCK / 2;
                }
            }
        }
        // The block grows as a Vec does, by doubling from 4: never past a whole block, which
        // is a power of two and is split before it would grow beyond.
        self.blocks[at].insert(position, entry);
        for before in &mut self.before[at + 1..] {
            *before += 1;
        }
        self.len += 1;
        check_blocks!(self, at, None);
        true
    }

    /// Takes away the entry with this key, if there is one.
    pub fn remove(&mut self, key: (i64, u32)) -> Option<Entry> {
        if self.blocks.is_empty() {
            return None;
        }
        let at = self.block_of(key);
        let position = self.blocks[at].binary_search_by(|held| held.key().cmp(&key)).ok()?;
        let entry = self.blocks[at].remove(position);
        for before in &mut self.before[at + 1..] {
            *before -= 1;
        }
        self.len -= 1;
        let (blocks_before, kept) = (self.blocks.len(), self.blocks[at].len());
        if self.blocks[at].is_empty() {
            self.blocks.remove(at);
            self.before.remove(at);
        } else if self.blocks[at].len() < BLOCK / 8 {
            // A small block joins a neighbour that has room, so that sparse blocks do not
            // hold memory after many removals.
            let joined = [at + 1, at.wrapping_sub(1)].into_iter().find(|&other| {
                self.blocks.get(other).is_some_and(|other| other.len() + self.blocks[at].len() <= BLOCK)
            });
            if let Some(other) = joined {
                let (first, second) = if other > at { (at, other) } else { (other, at) };
                let moved = std::mem::take(&mut self.blocks[second]);
                self.blocks[first].extend(moved);
                self.blocks.remove(second);
                self.before.remove(second);
            }
        }
        check_blocks!(self, at, Some((blocks_before, kept)));
        Some(entry)
    }

    /// How many entries come before `key`.
    pub fn rank(&self, key: (i64, u32)) -> usize {
        let at = self.blocks.partition_point(|block| block.last().is_some_and(|last| last.key() < key));
        match self.blocks.get(at) {
            Some(block) => self.before[at] + block.partition_point(|held| held.key() < key),
            None => self.len,
        }
    }

    /// The entries from `key` on, in order.
    pub fn walk_from(&self, key: (i64, u32)) -> Cursor<'_> {
        let block = self.blocks.partition_point(|block| block.last().is_some_and(|last| last.key() < key));
        let position = self.blocks.get(block).map_or(0, |held| held.partition_point(|held| held.key() < key));
        Cursor { set: self, block, position }
    }

    /// The bytes the set holds beyond its own header.
    #[cfg(test)]
    pub fn held_bytes(&self) -> usize {
        self.blocks.iter().map(|block| block.capacity() * std::mem::size_of::<Entry>()).sum::<usize>()
            + self.blocks.capacity() * std::mem::size_of::<Vec<Entry>>()
            + self.before.capacity() * std::mem::size_of::<usize>()
    }
}

/// A walk of a set in order, from some entry on.
#[derive(Clone, Debug)]
pub struct Cursor<'s> {
    set: &'s RankedSet,
    block: usize,
    position: usize,
}

impl<'s> Iterator for Cursor<'s> {
    type Item = &'s Entry;

    fn next(&mut self) -> Option<&'s Entry> {
        loop {
            let block = self.set.blocks.get(self.block)?;
            if let Some(entry) = block.get(self.position) {
                self.position += 1;
                return Some(entry);
            }
            self.block += 1;
            self.position = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::seed::rng::Rng;

    fn check(set: &RankedSet, model: &BTreeMap<(i64, u32), u32>, rng: &mut Rng) {
        assert_eq!(set.len(), model.len());
        let held: Vec<Entry> = set.walk_from((i64::MIN, 0)).copied().collect();
        let expected: Vec<Entry> = model.iter().map(|(&(at, id), &span)| Entry { at, id, span }).collect();
        assert_eq!(held, expected);
        for _ in 0..50 {
            let key = (rng.below(5_000) as i64 - 100, rng.below(50) as u32);
            assert_eq!(set.rank(key), model.range(..key).count(), "rank of {key:?}");
            let after: Vec<(i64, u32)> = set.walk_from(key).take(7).map(Entry::key).collect();
            let expected: Vec<(i64, u32)> = model.range(key..).take(7).map(|(key, _)| *key).collect();
            assert_eq!(after, expected, "from {key:?}");
        }
    }

    #[test]
    fn ranks_and_walks_agree_with_an_ordered_map_through_inserts_and_removals() {
        let mut rng = Rng(0x5EED_0F2A_110C_8A01);
        let mut set = RankedSet::default();
        let mut model = BTreeMap::new();
        // Rounds that grow the set past many blocks, then shrink it to almost nothing.
        for (round, (inserts, removals)) in
            [(3_000, 500), (4_000, 1_000), (200, 6_000), (2_500, 100)].iter().enumerate()
        {
            for _ in 0..*inserts {
                let entry = Entry { at: rng.below(4_800) as i64, id: rng.below(40) as u32, span: round as u32 };
                let fresh = !model.contains_key(&entry.key());
                assert_eq!(set.insert(entry), fresh);
                model.entry(entry.key()).or_insert(entry.span);
            }
            check(&set, &model, &mut rng);
            for _ in 0..*removals {
                let key = (rng.below(4_800) as i64, rng.below(40) as u32);
                assert_eq!(set.remove(key).map(|entry| entry.span), model.remove(&key));
            }
            check(&set, &model, &mut rng);
        }
        // Sparse blocks were joined: after the shrinking round the set held less.
        for key in model.keys().copied().collect::<Vec<_>>() {
            assert!(set.remove(key).is_some());
        }
        assert!(set.is_empty());
        assert_eq!(set.walk_from((i64::MIN, 0)).count(), 0);
        assert_eq!(set.rank((i64::MAX, u32::MAX)), 0);
    }

    fn bytes_per_entry(set: &RankedSet) -> f64 {
        set.held_bytes() as f64 / set.len() as f64 / std::mem::size_of::<Entry>() as f64
    }

    #[test]
    fn entries_in_time_order_fill_their_blocks() {
        let mut set = RankedSet::default();
        for at in 0..100_000 {
            set.insert(Entry { at, id: 1, span: 0 });
        }
        assert!(bytes_per_entry(&set) <= 1.05, "{} entries' room per entry", bytes_per_entry(&set));
        assert_eq!(set.rank((50_000, 0)), 50_000);
    }

    #[test]
    fn entries_in_any_order_take_at_most_twice_their_room_and_small_sets_little() {
        let mut rng = Rng(0x0DD0_7DE2_5EED_0003);
        let mut set = RankedSet::default();
        for _ in 0..100_000 {
            set.insert(Entry { at: rng.below(1 << 40) as i64, id: 1, span: 0 });
        }
        assert!(bytes_per_entry(&set) <= 2.0, "{} entries' room per entry", bytes_per_entry(&set));
        let mut small = RankedSet::default();
        for at in 0..3 {
            small.insert(Entry { at, id: 1, span: 0 });
        }
        assert!(small.held_bytes() <= 256, "three entries take {} bytes", small.held_bytes());
    }
}
