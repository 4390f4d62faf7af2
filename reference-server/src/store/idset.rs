//! A set of event IDs as a compressed bitmap: the events linked to a venue, organizer, term or
//! parent event. A bitmap keeps an ID in about two bytes where a `BTreeSet` takes some twenty
//! (issue 10: memory per stored event). IDs beyond 32 bits, which a store hands out only
//! after four billion posts, go to an ordinary set beside it, so the set is exact for any ID.

use std::collections::BTreeSet;

use roaring::RoaringBitmap;

use crate::model::Id;

#[derive(Clone, Debug, Default)]
pub struct IdSet {
    small: RoaringBitmap,
    large: BTreeSet<Id>,
}

impl IdSet {
    pub fn insert(&mut self, id: Id) {
        match u32::try_from(id) {
            Ok(small) => {
                self.small.insert(small);
            }
            Err(_) => {
                self.large.insert(id);
            }
        }
    }

    pub fn remove(&mut self, id: &Id) {
        match u32::try_from(*id) {
            Ok(small) => {
                self.small.remove(small);
            }
            Err(_) => {
                self.large.remove(id);
            }
        }
    }

    #[cfg(test)]
    pub fn contains(&self, id: &Id) -> bool {
        match u32::try_from(*id) {
            Ok(small) => self.small.contains(small),
            Err(_) => self.large.contains(id),
        }
    }

    pub fn len(&self) -> usize {
        self.small.len() as usize + self.large.len()
    }

    pub fn is_empty(&self) -> bool {
        self.small.is_empty() && self.large.is_empty()
    }

    /// The IDs in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Id> + '_ {
        self.small.iter().map(Id::from).chain(self.large.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_ids_alike() {
        let mut set = IdSet::default();
        for id in [7, u64::from(u32::MAX), u64::from(u32::MAX) + 1, 3, u64::MAX, 7] {
            set.insert(id);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), [3, 7, u64::from(u32::MAX), u64::from(u32::MAX) + 1, u64::MAX]);
        assert_eq!(set.len(), 5);
        assert!(set.contains(&u64::MAX) && set.contains(&3) && !set.contains(&4));
        for id in [3, u64::MAX, 7, u64::from(u32::MAX), u64::from(u32::MAX) + 1] {
            set.remove(&id);
        }
        assert!(set.is_empty());
    }
}
