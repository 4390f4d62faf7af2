//! A hash map in shards (issue 10). A hash map that outgrows its table builds a new one in a
//! single step, and the store does that under its write lock: a map of a million slugs took
//! about a tenth of a second, which one create paid while every other request waited. Split
//! into 64 maps by a hash of the key, each step moves a 64th of the entries.

use std::borrow::Borrow;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

const SHARDS: usize = 64;

#[derive(Debug)]
pub struct ShardedMap<K, V> {
    shards: Vec<HashMap<K, V>>,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap { shards: (0..SHARDS).map(|_| HashMap::new()).collect() }
    }
}

/// The shard of a key: the top bits of a hash that does not depend on the maps' own (random)
/// hashers, so that each shard's table sees evenly spread hashes.
fn shard_of<Q: Hash + ?Sized>(key: &Q) -> usize {
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    (hasher.finish() >> (64 - SHARDS.trailing_zeros())) as usize
}

impl<K: Hash + Eq, V> ShardedMap<K, V> {
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shards[shard_of(key)].get(key)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.get(key).is_some()
    }

    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let shard = shard_of(&key);
        self.shards[shard].insert(key, value)
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shards[shard_of(key)].remove(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.shards.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sharded_map_holds_what_a_map_holds_and_uses_every_shard() {
        let mut sharded: ShardedMap<Box<str>, u64> = ShardedMap::default();
        let mut plain: HashMap<Box<str>, u64> = HashMap::new();
        for n in 0..20_000u64 {
            let key: Box<str> = format!("event-{}", n % 7_919).into();
            if n % 3 == 0 {
                assert_eq!(sharded.remove(&*key), plain.remove(&*key));
            } else {
                assert_eq!(sharded.insert(key.clone(), n), plain.insert(key, n));
            }
        }
        for n in 0..7_919 {
            let key = format!("event-{n}");
            assert_eq!(sharded.get(key.as_str()), plain.get(key.as_str()));
            assert_eq!(sharded.contains_key(key.as_str()), plain.contains_key(key.as_str()));
        }
        assert_eq!(sharded.iter().count(), plain.len());
        assert!(sharded.shards.iter().all(|shard| shard.len() > plain.len() / SHARDS / 2), "keys spread over shards");
    }
}
