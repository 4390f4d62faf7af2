//! A map from post ID to record, as a vector indexed by ID: post IDs are given out one after
//! the other, so the vector has few holes, a lookup is one index, and walking IDs in order
//! (as the search index hands them out) walks memory in order.

use std::ops::Index;

use crate::model::Id;

pub struct IdMap<V> {
    slots: Vec<Option<V>>,
    len: usize,
}

impl<V> Default for IdMap<V> {
    fn default() -> IdMap<V> {
        IdMap { slots: Vec::new(), len: 0 }
    }
}

fn slot(id: Id) -> Option<usize> {
    usize::try_from(id).ok()
}

impl<V> IdMap<V> {
    pub fn get(&self, id: &Id) -> Option<&V> {
        self.slots.get(slot(*id)?)?.as_ref()
    }

    pub fn get_mut(&mut self, id: &Id) -> Option<&mut V> {
        self.slots.get_mut(slot(*id)?)?.as_mut()
    }

    /// Inserts `value` under `id`; an ID beyond what a vector can index is not stored.
    pub fn insert(&mut self, id: Id, value: V) -> Option<V> {
        let at = slot(id)?;
        if at >= self.slots.len() {
            self.slots.resize_with(at + 1, || None);
        }
        let old = self.slots[at].replace(value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn remove(&mut self, id: &Id) -> Option<V> {
        let old = self.slots.get_mut(slot(*id)?)?.take();
        if old.is_some() {
            self.len -= 1;
        }
        old
    }

    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Every `(ID, value)`, by ascending ID.
    pub fn iter(&self) -> impl Iterator<Item = (Id, &V)> {
        self.slots.iter().enumerate().filter_map(|(at, value)| value.as_ref().map(|value| (at as Id, value)))
    }

    #[cfg(test)]
    pub fn keys(&self) -> impl Iterator<Item = Id> + '_ {
        self.iter().map(|(id, _)| id)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.slots.iter().flatten()
    }
}

impl<V> Index<&Id> for IdMap<V> {
    type Output = V;

    fn index(&self, id: &Id) -> &V {
        self.get(id).expect("no record with this ID")
    }
}
