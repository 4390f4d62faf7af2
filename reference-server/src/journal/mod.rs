//! The request journal: the last requests the interface answered (method, path, user, status,
//! time, and for refusals the reason in words and a near-miss hint), for the admin API and the
//! journal page. It keeps a fixed number of entries, oldest dropped first.
//!
//! Only requests to the interface's pipeline are recorded: the admin API and the site's pages
//! are not (the journal page would otherwise fill the journal with its own polling).

pub mod hints;

use std::collections::VecDeque;

use parking_lot::Mutex;
use serde::Serialize;

/// One answered (or dropped) request.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Entry {
    /// 1, 2, 3… in the order requests finished; a reader asks for entries after the last it saw.
    pub seq: u64,
    /// When the request came in (real time, UTC, RFC 3339 with milliseconds).
    pub time: String,
    pub method: String,
    /// Path and query, with secret parameters redacted as in the log.
    pub path: String,
    /// The user the credentials named (also when they were refused).
    pub user: Option<String>,
    /// `None` when the connection was dropped without an answer (an injected fault).
    pub status: Option<u16>,
    pub duration_ms: f64,
    /// The error code of a refusal.
    pub code: Option<String>,
    /// Which check refused and why, in words.
    pub reason: Option<String>,
    /// For a request that matched no route: the route it came close to.
    pub hint: Option<String>,
    /// The fault injected into this request, if any.
    pub fault: Option<String>,
}

/// The journal: a bounded ring of entries.
pub struct Journal {
    capacity: usize,
    inner: Mutex<Inner>,
}

struct Inner {
    last: u64,
    entries: VecDeque<Entry>,
}

impl Journal {
    pub fn new(capacity: usize) -> Journal {
        Journal { capacity, inner: Mutex::new(Inner { last: 0, entries: VecDeque::new() }) }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Adds an entry (its `seq` is given here).
    pub fn record(&self, mut entry: Entry) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock();
        inner.last += 1;
        entry.seq = inner.last;
        if inner.entries.len() >= self.capacity {
            inner.entries.pop_front();
        }
        inner.entries.push_back(entry);
    }

    /// The last `limit` entries after `since`, oldest first, and the last `seq` given out.
    pub fn read(&self, since: u64, limit: usize) -> (Vec<Entry>, u64) {
        let inner = self.inner.lock();
        let newer = inner.entries.iter().filter(|entry| entry.seq > since);
        let count = newer.clone().count();
        let entries = newer.skip(count.saturating_sub(limit)).cloned().collect();
        (entries, inner.last)
    }

    /// Forgets every entry (numbering goes on).
    pub fn clear(&self) {
        self.inner.lock().entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> Entry {
        Entry { path: path.to_string(), ..Entry::default() }
    }

    #[test]
    fn keeps_the_last_entries_and_reads_after_a_cursor() {
        let journal = Journal::new(3);
        for path in ["/a", "/b", "/c", "/d"] {
            journal.record(entry(path));
        }
        let (entries, last) = journal.read(0, 10);
        assert_eq!(last, 4);
        assert_eq!(entries.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(), ["/b", "/c", "/d"]);
        assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3, 4]);
        let (entries, _) = journal.read(2, 10);
        assert_eq!(entries.len(), 2);
        let (entries, _) = journal.read(0, 1);
        assert_eq!(entries[0].path, "/d");
        journal.clear();
        assert!(journal.read(0, 10).0.is_empty());
        journal.record(entry("/e"));
        assert_eq!(journal.read(0, 10).0[0].seq, 5);
    }

    #[test]
    fn a_journal_of_no_entries_records_nothing() {
        let journal = Journal::new(0);
        journal.record(entry("/a"));
        assert!(journal.read(0, 10).0.is_empty());
    }
}
