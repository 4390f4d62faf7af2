//! Stored records are shared and versioned: `Arc<Rec<T>>`.
//!
//! A write replaces a record with a new `Arc` and never changes one in place while anyone else
//! holds it, so a reader can take the records it needs under the store's lock and render them
//! after letting it go. Each version carries a revision no other version of any record has
//! had: caches of rendered records key on it and never serve an old rendering.

use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub use crate::model::Rev;

static LAST_REV: AtomicU64 = AtomicU64::new(0);

/// A revision no record has had yet.
pub fn next_rev() -> Rev {
    LAST_REV.fetch_add(1, Ordering::Relaxed) + 1
}

/// One version of a record.
#[derive(Clone)]
pub struct Rec<T> {
    rev: Rev,
    value: T,
}

impl<T> Rec<T> {
    pub fn new(rev: Rev, value: T) -> Arc<Rec<T>> {
        Arc::new(Rec { rev, value })
    }

    pub fn rev(&self) -> Rev {
        self.rev
    }

    pub fn value(&self) -> &T {
        &self.value
    }
}

impl<T: Clone> Rec<T> {
    /// Changes a record in place when nobody else holds it (else on a copy), as a new
    /// revision.
    pub fn edit(this: &mut Arc<Rec<T>>, rev: Rev, change: impl FnOnce(&mut T)) {
        let rec = Arc::make_mut(this);
        rec.rev = rev;
        change(&mut rec.value);
    }
}

impl<T> Deref for Rec<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

/// The record's own representation: two stores with the same records print the same,
/// whatever their revisions (store fingerprints rely on it).
impl<T: fmt::Debug> fmt::Debug for Rec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}
