//! The request journal: the last requests the interface answered (method, path, user, status,
//! time, and for refusals the reason in words and a near-miss hint), for the admin API and the
//! journal page. It keeps a fixed number of entries, oldest dropped first, and a fixed number of
//! bytes: an entry's texts are cut at `MAX_TEXT` bytes, and the whole journal holds at most
//! `MAX_BYTES` of them, bodies included. Each entry also keeps the first bytes of the request's
//! and the answer's bodies (`bodies`), given only by [`Journal::get`], one entry at a time, never
//! in a list. A read pages through the entries after a cursor, oldest first, in
//! answers of at most `MAX_READ_BYTES`, and counts the entries the journal no longer holds.
//!
//! Only requests to the interface's pipeline are recorded: the admin API and the site's pages
//! are not (the journal page would otherwise fill the journal with its own polling).

pub mod bodies;
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
    /// Why a browser will not let the page that sent the request read its answer (CORS).
    pub cors: Option<String>,
    /// The stub that answered, if any (`stub 3 (its name)`).
    pub stub: Option<String>,
    /// The request's and the answer's bodies, served one entry at a time ([`Journal::get`]),
    /// not in lists.
    #[serde(skip)]
    pub bodies: Option<std::sync::Arc<bodies::Bodies>>,
    /// What the checking proxy (`--proxy-to`) found wrong with the request or the site's
    /// answer; absent when nothing was (and on every entry of a server that is not a proxy).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

/// One way an exchange through the checking proxy breaks the interface.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Finding {
    /// `request`: the client sent something the interface does not take; `answer`: the site
    /// answered otherwise than the interface says.
    pub side: Side,
    /// What is wrong, in words.
    pub reason: String,
    /// A near miss (`did you mean start_date?`), when there is one.
    pub hint: Option<String>,
}

/// Which side of an exchange a finding is about.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Request,
    Answer,
}

/// The most findings an entry keeps (the rest are counted in the last one).
pub const MAX_FINDINGS: usize = 16;

/// The longest path, reason, hint, user, fault or CORS note an entry keeps, in bytes.
pub const MAX_TEXT: usize = 2048;
/// The most bytes of text the whole journal keeps (older entries go first).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// The most bytes of text one read returns (the reader asks again for the rest).
pub const MAX_READ_BYTES: usize = 4 * 1024 * 1024;

impl Entry {
    /// Cuts every text to `MAX_TEXT` bytes.
    fn bounded(mut self) -> Entry {
        for text in [&mut self.path, &mut self.method, &mut self.time] {
            cut(text);
        }
        let optional =
            [&mut self.user, &mut self.code, &mut self.reason, &mut self.hint, &mut self.fault, &mut self.cors];
        for text in optional.into_iter().chain([&mut self.stub]) {
            if let Some(text) = text.as_mut() {
                cut(text);
            }
        }
        if self.findings.len() > MAX_FINDINGS {
            let more = self.findings.len() - (MAX_FINDINGS - 1);
            self.findings.truncate(MAX_FINDINGS - 1);
            let side = self.findings.last().map_or(Side::Request, |finding| finding.side);
            self.findings.push(Finding { side, reason: format!("and {more} more findings"), hint: None });
        }
        for finding in &mut self.findings {
            cut(&mut finding.reason);
            if let Some(hint) = finding.hint.as_mut() {
                cut(hint);
            }
        }
        self
    }

    /// About the memory the entry holds, and so at least what it takes in an answer (before
    /// JSON escapes).
    fn bytes(&self) -> usize {
        self.light_bytes() + self.bodies.as_ref().map_or(0, |bodies| bodies.bytes())
    }

    /// The same without the bodies: what the entry takes in a list.
    fn light_bytes(&self) -> usize {
        let optional = [&self.user, &self.code, &self.reason, &self.hint, &self.fault, &self.cors, &self.stub];
        let texts: usize = optional.iter().map(|text| text.as_ref().map_or(0, String::capacity)).sum();
        let findings: usize = self
            .findings
            .iter()
            .map(|finding| 40 + finding.reason.capacity() + finding.hint.as_ref().map_or(0, String::capacity))
            .sum();
        200 + self.path.capacity() + self.method.capacity() + self.time.capacity() + texts + findings
    }
}

/// Cuts a text longer than `MAX_TEXT` at a character boundary, saying how much went.
fn cut(text: &mut String) {
    if text.len() <= MAX_TEXT {
        return;
    }
    let total = text.len();
    let mut end = MAX_TEXT - 64;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(&format!("… ({} bytes cut of {total})", total - end));
    // `truncate` keeps the allocation: give the rest back.
    text.shrink_to_fit();
}

/// What a read returns.
pub struct Read {
    /// The entries after the cursor, oldest first.
    pub entries: Vec<Entry>,
    /// The last `seq` given out.
    pub last: u64,
    /// More entries after the cursor wait for the next read.
    pub more: bool,
    /// Entries after the cursor that the journal no longer holds (dropped to keep it bounded,
    /// or cleared).
    pub missed: u64,
}

/// The journal: a bounded ring of entries.
pub struct Journal {
    capacity: usize,
    max_bytes: usize,
    inner: Mutex<Inner>,
}

struct Inner {
    last: u64,
    entries: VecDeque<Entry>,
    bytes: usize,
}

impl Journal {
    pub fn new(capacity: usize) -> Journal {
        Journal::with_bytes(capacity, MAX_BYTES)
    }

    fn with_bytes(capacity: usize, max_bytes: usize) -> Journal {
        Journal { capacity, max_bytes, inner: Mutex::new(Inner { last: 0, entries: VecDeque::new(), bytes: 0 }) }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Adds an entry (its `seq` is given here).
    pub fn record(&self, entry: Entry) {
        if self.capacity == 0 {
            return;
        }
        let mut entry = entry.bounded();
        let size = entry.bytes();
        let mut inner = self.inner.lock();
        inner.last += 1;
        entry.seq = inner.last;
        while !inner.entries.is_empty() && (inner.entries.len() >= self.capacity || inner.bytes + size > self.max_bytes)
        {
            let dropped = inner.entries.pop_front().map_or(0, |old| old.bytes());
            inner.bytes -= dropped;
        }
        inner.bytes += size;
        inner.entries.push_back(entry);
    }

    /// The bytes the journal holds now.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.inner.lock().bytes
    }

    /// With a cursor: the first `limit` entries after `since`, oldest first (the reader asks
    /// again from the last one while `more`). Without one: the last `limit` entries.
    pub fn read(&self, since: Option<u64>, limit: usize) -> Read {
        let inner = self.inner.lock();
        let last = inner.last;
        let after = since.unwrap_or(0);
        // Entries are in `seq` order: the ones after the cursor are a tail of the ring.
        let first = inner.entries.partition_point(|entry| entry.seq <= after);
        let held = inner.entries.len() - first;
        let start = if since.is_some() { first } else { first + held.saturating_sub(limit) };
        let mut entries = Vec::new();
        let mut bytes = 0;
        for entry in inner.entries.range(start..).take(limit) {
            if !entries.is_empty() && bytes + entry.light_bytes() > MAX_READ_BYTES {
                break;
            }
            bytes += entry.light_bytes();
            entries.push(Entry { bodies: None, ..entry.clone() });
        }
        let more = since.is_some() && start + entries.len() < inner.entries.len();
        let oldest = inner.entries.get(first).map_or(last + 1, |entry| entry.seq);
        let missed = if since.is_some() { oldest.saturating_sub(after + 1) } else { 0 };
        Read { entries, last, more, missed }
    }

    /// The entry numbered `seq`, with its bodies, while the journal holds it.
    pub fn get(&self, seq: u64) -> Option<Entry> {
        let inner = self.inner.lock();
        let index = inner.entries.binary_search_by_key(&seq, |entry| entry.seq).ok()?;
        inner.entries.get(index).cloned()
    }

    /// Forgets every entry (numbering goes on).
    pub fn clear(&self) {
        let mut inner = self.inner.lock();
        inner.entries.clear();
        inner.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> Entry {
        Entry { path: path.to_string(), ..Entry::default() }
    }

    #[test]
    fn an_entry_counts_every_text_it_holds() {
        let full = Entry {
            time: "2026-12-07T15:30:00.000Z".into(),
            method: "GET".into(),
            path: "/events".into(),
            user: Some("editor".into()),
            reason: Some("why".into()),
            findings: vec![Finding { side: Side::Request, reason: "unknown".into(), hint: Some("hint".into()) }],
            ..Entry::default()
        };
        // 200 for the fixed fields, then each text's bytes, and 40 a finding.
        assert_eq!(full.light_bytes(), 200 + 24 + 3 + 7 + 6 + 3 + (40 + 7 + 4));
        assert_eq!(entry("/a").light_bytes(), 202);
        assert_eq!(full.bytes(), full.light_bytes(), "no bodies");
    }

    #[test]
    fn keeps_the_last_entries_and_reads_after_a_cursor() {
        let journal = Journal::new(3);
        for path in ["/a", "/b", "/c", "/d"] {
            journal.record(entry(path));
        }
        let read = journal.read(Some(0), 10);
        assert_eq!(read.last, 4);
        assert_eq!(read.entries.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(), ["/b", "/c", "/d"]);
        assert_eq!(read.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3, 4]);
        assert_eq!((read.more, read.missed), (false, 1));
        let read = journal.read(Some(2), 10);
        assert_eq!((read.entries.len(), read.missed), (2, 0));
        // A page: the oldest after the cursor, and more to come.
        let read = journal.read(Some(0), 1);
        assert_eq!((read.entries[0].path.as_str(), read.more), ("/b", true));
        // Without a cursor: the newest.
        assert_eq!(journal.read(None, 1).entries[0].path, "/d");
        journal.clear();
        assert!(journal.read(Some(0), 10).entries.is_empty());
        assert_eq!(journal.read(Some(3), 10).missed, 1);
        journal.record(entry("/e"));
        assert_eq!(journal.read(Some(0), 10).entries[0].seq, 5);
    }

    #[test]
    fn bodies_are_served_one_entry_at_a_time_and_count_in_the_bound() {
        let journal = Journal::with_bytes(1000, 100 * 1024);
        let text = "x".repeat(bodies::MAX_BODY);
        let kept = bodies::response(text.as_bytes(), None);
        for _ in 0..10 {
            let bodies = bodies::Bodies { request: Some(kept.clone()), response: Some(kept.clone()) };
            journal.record(Entry { bodies: Some(std::sync::Arc::new(bodies)), ..entry("/a") });
        }
        assert!(journal.bytes() <= 100 * 1024, "{}", journal.bytes());
        let read = journal.read(Some(0), 100);
        assert!(read.entries.len() < 10 && read.entries.iter().all(|entry| entry.bodies.is_none()));
        let last = journal.get(10).expect("the last entry is held");
        let response = last.bodies.expect("its bodies").response.clone().expect("a response");
        assert_eq!(response.text.len(), bodies::MAX_BODY);
        assert!(journal.get(1).is_none() && journal.get(11).is_none());
    }

    #[test]
    fn findings_are_bounded_in_number_and_in_bytes() {
        let journal = Journal::new(10);
        let finding = |reason: String| Finding { side: Side::Answer, reason, hint: Some("é".repeat(3000)) };
        let findings = (0..40).map(|n| finding(format!("{n} {}", "x".repeat(5000)))).collect();
        journal.record(Entry { findings, ..entry("/a") });
        let kept = journal.read(Some(0), 10).entries.remove(0).findings;
        assert_eq!(kept.len(), MAX_FINDINGS);
        assert_eq!(kept[MAX_FINDINGS - 1].reason, format!("and {} more findings", 40 - (MAX_FINDINGS - 1)));
        for finding in &kept {
            assert!(
                finding.reason.len() <= MAX_TEXT && finding.hint.as_ref().is_none_or(|hint| hint.len() <= MAX_TEXT)
            );
        }
        assert!(journal.bytes() < MAX_FINDINGS * (2 * MAX_TEXT + 40) + 400, "{}", journal.bytes());
    }

    #[test]
    fn a_journal_of_no_entries_records_nothing() {
        let journal = Journal::new(0);
        journal.record(entry("/a"));
        assert!(journal.read(Some(0), 10).entries.is_empty());
    }

    #[test]
    fn h12_texts_are_cut_and_the_journal_is_bounded_in_bytes() {
        let journal = Journal::with_bytes(1000, 64 * 1024);
        let long = format!("/{}", "é".repeat(40_000));
        for _ in 0..100 {
            journal.record(Entry { reason: Some(long.clone()), hint: Some(long.clone()), ..entry(&long) });
        }
        assert!(journal.bytes() <= 64 * 1024, "{}", journal.bytes());
        let read = journal.read(Some(0), 1000);
        assert!(!read.entries.is_empty() && read.entries.len() < 100);
        for entry in &read.entries {
            assert!(entry.path.len() <= MAX_TEXT && entry.path.ends_with(" bytes cut of 80001)"), "{}", entry.path);
            // The memory too, not only the length.
            assert!(entry.path.capacity() <= MAX_TEXT, "{}", entry.path.capacity());
            assert!(entry.reason.as_ref().unwrap().len() <= MAX_TEXT);
            assert!(entry.hint.as_ref().unwrap().len() <= MAX_TEXT);
        }
    }
}
