//! Durable state (`--state FILE`): the store survives restarts.
//!
//! The file is a header line and then records, one per line: the whole store (an image), then
//! every planned write applied since, in order. Each write is recorded from `Data::apply`
//! (under the store's write lock, so records are in the order writes were applied) and handed
//! to a writer thread, which appends what has come in, `fsync`s, and then tells waiting
//! requests how far the file is durable: the server answers a request only once every write
//! it could have seen is on disk (group commit: one `fsync` serves every write that came in
//! meanwhile). A write answered with success is therefore durable, and so is anything an
//! answer showed.
//!
//! When the records since the image outgrow `--state-compact-bytes` and the image itself, a
//! compaction thread writes a new file beside the old one (an image of the store as it is),
//! and the writer appends the records that came after that image, `fsync`s, and renames it
//! into place: the file is always either the old one or the new one, whole.
//!
//! On start the file is replayed. A last record that is cut short or fails its CRC (a write
//! the process did not finish; it was never acknowledged) is dropped with a warning and cut
//! from the file. A damaged record followed by good ones, or a file of another format version,
//! stops the start with a message that says what to do.

mod codec;
pub mod file;
mod place;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use bytes::Bytes;
use parking_lot::Mutex;
use serde_json::{json, Value};
use tokio::sync::watch;

pub use codec::Header;
use codec::{ChangesRec, Record, WholeRec};

use crate::store::{Changes, Data, WriteHook};

/// Lends the compaction thread the store, under its read lock.
pub type WithData = Box<dyn Fn(&mut dyn FnMut(&Data)) -> bool + Send>;

/// How far the file is durable.
#[derive(Clone, Debug, Default)]
struct Durable {
    seq: u64,
    /// Set when a write or `fsync` failed: nothing is recorded after that.
    failed: Option<Arc<str>>,
}

/// What the writer thread is asked to do.
enum Command {
    Append {
        seq: u64,
        line: Bytes,
    },
    /// Take this compacted file (header and an image at `seq`, synced) as the state file.
    Adopt {
        file: File,
        seq: u64,
        image_bytes: u64,
    },
    /// The compaction could not write its file.
    Abandon,
    Stop,
}

/// Where the writer stands after its last batch: the last record it handled, whether a
/// compaction it asked for is under way, whether the file failed.
#[derive(Clone, Copy, Debug, Default)]
struct Quiet {
    seq: u64,
    compacting: bool,
    failed: bool,
}

/// Sizes and counts, for `GET /__admin/state`.
#[derive(Clone, Debug, Default)]
struct Stats {
    file_bytes: u64,
    image_bytes: u64,
    since_image_bytes: u64,
    compactions: u64,
}

/// The recording side, shared by the store's hook, the writer and the compactor.
struct Log {
    tx: Mutex<mpsc::Sender<Command>>,
    /// The number of the last record handed to the writer.
    assigned: AtomicU64,
    durable: watch::Sender<Durable>,
    /// Published by the writer after each batch (for `State::compactions_settled`).
    quiet: watch::Sender<Quiet>,
    stats: Mutex<Stats>,
}

impl Log {
    /// The log of a file as it was read (or made), sending its records to `tx`.
    fn of_loaded(tx: mpsc::Sender<Command>, loaded: &Loaded) -> Arc<Log> {
        let stats = Stats {
            file_bytes: loaded.file_bytes,
            image_bytes: loaded.image_bytes,
            since_image_bytes: loaded.since_image_bytes,
            compactions: 0,
        };
        Arc::new(Log {
            tx: Mutex::new(tx),
            assigned: AtomicU64::new(loaded.seq),
            durable: watch::channel(Durable { seq: loaded.seq, failed: None }).0,
            quiet: watch::channel(Quiet { seq: loaded.seq, ..Quiet::default() }).0,
            stats: Mutex::new(stats),
        })
    }

    fn send(&self, line_of: impl FnOnce(u64) -> Vec<u8>) {
        let tx = self.tx.lock();
        let seq = self.assigned.load(Ordering::SeqCst) + 1;
        let line = Bytes::from(line_of(seq));
        if tx.send(Command::Append { seq, line }).is_ok() {
            self.assigned.store(seq, Ordering::SeqCst);
        } else {
            self.fail("the state file's writer has stopped".to_string());
        }
    }

    fn fail(&self, message: String) {
        tracing::error!(target: "reference_server::state", "{message}; the server takes no more writes until it restarts");
        self.durable.send_modify(|durable| {
            durable.failed.get_or_insert_with(|| message.into());
        });
    }
}

impl WriteHook for Log {
    fn applied(&self, changes: &Changes) {
        self.send(|seq| record_line(&Record { seq, changes: Some(ChangesRec::of(changes)), whole: None }));
    }

    fn replaced(&self, data: &Data) {
        self.send(|seq| image_line(data, seq));
    }
}

fn record_line(record: &Record) -> Vec<u8> {
    // Serialising plain structs of strings and numbers cannot fail.
    file::frame(&serde_json::to_vec(record).unwrap_or_default())
}

fn image_line(data: &Data, seq: u64) -> Vec<u8> {
    record_line(&Record { seq, changes: None, whole: Some(WholeRec::of(data)) })
}

fn header_line(header: &Header) -> Vec<u8> {
    file::frame(&serde_json::to_vec(header).unwrap_or_default())
}

/// A state file read and replayed, not yet recording.
pub struct Opening {
    /// The real file (symlinks followed).
    path: PathBuf,
    loaded: Option<Loaded>,
    /// Held while the server lives: no other server opens the file meanwhile.
    lock: File,
}

struct Loaded {
    data: Option<Data>,
    /// The site's address when the file was written (its header's).
    site_url: String,
    seq: u64,
    file_bytes: u64,
    image_bytes: u64,
    since_image_bytes: u64,
}

impl Opening {
    /// Reads and replays the file, if it exists and is not empty; cuts a torn last record.
    pub fn open(given: &Path) -> Result<Opening, String> {
        let shown = given.display().to_string();
        let path = &place::resolve(given)?;
        place::check_kind(path).map_err(|message| format!("the state file {message}"))?;
        let lock = place::lock(path, &shown)?;
        let _ = std::fs::remove_file(file::temporary_path(path));
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(error) => return Err(format!("cannot read the state file {shown}: {error}")),
        };
        if bytes.is_empty() {
            return Ok(Opening { path: path.to_path_buf(), loaded: None, lock });
        }
        let (loaded, torn) = replay(&bytes).map_err(|message| format!("state file {shown}: {message}"))?;
        if let Some((offset, length)) = torn {
            tracing::warn!(
                target: "reference_server::state",
                "{shown}: dropped a torn last record ({length} bytes at offset {offset}): a write the server did not finish before it stopped, never acknowledged"
            );
            let cut = || -> std::io::Result<()> {
                let file = OpenOptions::new().write(true).open(path)?;
                file.set_len(offset as u64)?;
                file.sync_all()
            };
            cut().map_err(|error| format!("cannot cut the torn record from {shown}: {error}"))?;
        }
        Ok(Opening { path: path.to_path_buf(), loaded: Some(loaded), lock })
    }

    /// The site's address the file's links were written for; `None` for a new file.
    pub fn site_url(&self) -> Option<&str> {
        self.loaded.as_ref().map(|loaded| loaded.site_url.as_str())
    }

    /// The store the file holds; `None` for a new file.
    pub fn take_data(&mut self) -> Option<Data> {
        self.loaded.as_mut().and_then(|loaded| loaded.data.take())
    }

    /// Starts recording `data`'s changes: a new file gets its header and an image of `data`,
    /// and so does a file written for another site address (the header then tells the next
    /// start which address the file's links are for).
    pub fn start(
        self,
        data: &mut Data,
        header: &Header,
        compact_bytes: u64,
        with_data: WithData,
    ) -> Result<State, String> {
        let shown = self.path.display().to_string();
        let header_site = header.site_url.clone();
        let header = header_line(header);
        let (file, loaded) = match self.loaded {
            Some(loaded) if loaded.site_url != header_site => {
                let image = image_line(data, loaded.seq);
                let file = file::write_atomically(&self.path, &[&header, &image])
                    .map_err(|error| format!("cannot rewrite the state file {shown}: {error}"))?;
                let bytes = (header.len() + image.len()) as u64;
                let image_bytes = image.len() as u64;
                (file, Loaded { file_bytes: bytes, image_bytes, since_image_bytes: 0, ..loaded })
            }
            Some(loaded) => {
                let file = OpenOptions::new()
                    .append(true)
                    .open(&self.path)
                    .map_err(|error| format!("cannot open the state file {shown}: {error}"))?;
                (file, loaded)
            }
            None => {
                let image = image_line(data, 0);
                let file = file::write_atomically(&self.path, &[&header, &image])
                    .map_err(|error| format!("cannot create the state file {shown}: {error}"))?;
                let bytes = (header.len() + image.len()) as u64;
                let loaded = Loaded {
                    data: None,
                    site_url: header_site,
                    seq: 0,
                    file_bytes: bytes,
                    image_bytes: image.len() as u64,
                    since_image_bytes: 0,
                };
                (file, loaded)
            }
        };
        let (tx, rx) = mpsc::channel();
        let log = Log::of_loaded(tx, &loaded);
        let (trigger, triggered) = mpsc::channel();
        let writer = Writer {
            file,
            path: self.path.clone(),
            log: log.clone(),
            retained: Vec::new(),
            trigger,
            compacting: false,
            compact_bytes,
            handled: loaded.seq,
        };
        let writer = std::thread::Builder::new()
            .name("state-writer".into())
            .spawn(move || writer.run(rx))
            .map_err(|error| format!("cannot start the state writer: {error}"))?;
        let compactor = Compactor { path: self.path.clone(), header, log: log.clone(), with_data };
        let compactor = std::thread::Builder::new()
            .name("state-compactor".into())
            .spawn(move || compactor.run(triggered))
            .map_err(|error| format!("cannot start the state compactor: {error}"))?;
        data.set_hook(Some(log.clone()));
        let threads = Mutex::new(vec![writer, compactor]);
        Ok(State { path: self.path, log, threads, lock: Mutex::new(Some(self.lock)) })
    }
}

/// Replays a file: the store it holds, and the torn tail if any (offset and length).
fn replay(bytes: &[u8]) -> Result<(Loaded, Option<(usize, usize)>), String> {
    let lines = file::lines(bytes);
    let not_ours =
        "it is not a state file of reference-server (its first line is not a state header): give another --state file";
    let header: Header = lines
        .first()
        .and_then(|line| line.json)
        .and_then(|json| serde_json::from_slice(json).ok())
        .ok_or_else(|| not_ours.to_string())?;
    if header.format != codec::FORMAT {
        return Err(not_ours.to_string());
    }
    if header.version != codec::VERSION {
        return Err(format!(
            "it is in state format version {} (written by reference-server {}), and this server ({}) reads version {}: \
             start this server with another --state file, or run the version that wrote it",
            header.version,
            header.server,
            env!("CARGO_PKG_VERSION"),
            codec::VERSION
        ));
    }
    let mut data: Option<Data> = None;
    let mut seq = 0;
    let mut image_bytes = 0;
    let mut since_image_bytes = 0;
    let mut first_bad: Option<usize> = None;
    for (index, line) in lines.iter().enumerate().skip(1) {
        let end = lines.get(index + 1).map_or(bytes.len(), |next| next.offset);
        let Some(json) = line.json else {
            first_bad.get_or_insert(line.offset);
            continue;
        };
        if let Some(bad) = first_bad {
            return Err(format!(
                "the record at byte {bad} is damaged and good records follow it, so it is not a write cut short by a \
                 crash: the file is corrupt. To keep the records before it, cut the file at byte {bad} \
                 (truncate -s {bad} FILE); or start with another --state file"
            ));
        }
        let at = line.offset;
        let record: Record =
            serde_json::from_slice(json).map_err(|error| format!("the record at byte {at} does not read: {error}"))?;
        if data.is_some() && record.seq <= seq {
            return Err(format!("the record at byte {at} is out of order (number {} after {seq})", record.seq));
        }
        let size = (end - line.offset) as u64;
        match (record.whole, record.changes) {
            (Some(whole), None) => {
                data = Some(whole.into_data().map_err(|error| format!("the image at byte {at}: {error}"))?);
                image_bytes = size;
                since_image_bytes = 0;
            }
            (None, Some(changes)) => {
                let target = data.as_mut().ok_or_else(|| format!("the record at byte {at} comes before any image"))?;
                target.apply(changes.into_changes().map_err(|error| format!("the record at byte {at}: {error}"))?);
                since_image_bytes += size;
            }
            _ => return Err(format!("the record at byte {at} is neither an image nor a change")),
        }
        seq = record.seq;
    }
    let Some(data) = data else {
        return Err("it holds no image of the store: give another --state file".to_string());
    };
    let file_bytes = first_bad.unwrap_or(bytes.len());
    let torn = first_bad.map(|offset| (offset, bytes.len() - offset));
    let loaded = Loaded {
        data: Some(data),
        site_url: header.site_url,
        seq,
        file_bytes: file_bytes as u64,
        image_bytes,
        since_image_bytes,
    };
    Ok((loaded, torn))
}

/// The durable state of a running server.
pub struct State {
    path: PathBuf,
    log: Arc<Log>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    /// The file's lock, let go at `close`.
    lock: Mutex<Option<File>>,
}

impl State {
    /// Waits until every write handed to the file so far is durable (or the file failed).
    pub async fn settled(&self) -> Result<(), String> {
        let target = self.log.assigned.load(Ordering::SeqCst);
        let mut receiver = self.log.durable.subscribe();
        let durable = receiver
            .wait_for(|durable| durable.seq >= target || durable.failed.is_some())
            .await
            .map(|durable| durable.clone())
            .unwrap_or_default();
        match durable.failed {
            Some(message) if durable.seq < target => Err(message.to_string()),
            _ => Ok(()),
        }
    }

    /// Waits until the writer has handled every record handed to it so far and no compaction
    /// is under way or due (or the file failed): then the file is an image and at most
    /// `--state-compact-bytes` (or the image's size) of records after it. For tests, which
    /// wait for this instead of for some time.
    pub async fn compactions_settled(&self) {
        let target = self.log.assigned.load(Ordering::SeqCst);
        let mut receiver = self.log.quiet.subscribe();
        let _ = receiver.wait_for(|quiet| quiet.failed || (quiet.seq >= target && !quiet.compacting)).await;
    }

    /// Why the file cannot be written, once a write or `fsync` failed.
    pub fn failure(&self) -> Option<String> {
        self.log.durable.borrow().failed.as_ref().map(|message| message.to_string())
    }

    /// What `GET /__admin/state` shows.
    pub fn describe(&self) -> Value {
        let stats = self.log.stats.lock().clone();
        let durable = self.log.durable.borrow().clone();
        json!({
            "file": self.path.display().to_string(),
            "file_bytes": stats.file_bytes,
            "image_bytes": stats.image_bytes,
            "bytes_since_image": stats.since_image_bytes,
            "compactions": stats.compactions,
            "records": self.log.assigned.load(Ordering::SeqCst),
            "durable": durable.seq,
            "failed": durable.failed.as_deref(),
        })
    }

    /// Writes what is pending and stops the threads.
    pub fn close(&self) {
        let _ = self.log.tx.lock().send(Command::Stop);
        for thread in self.threads.lock().drain(..) {
            let _ = thread.join();
        }
        self.lock.lock().take();
    }
}

/// The thread that appends records and `fsync`s.
struct Writer {
    file: File,
    path: PathBuf,
    log: Arc<Log>,
    /// The records since the file's image, to copy after a newer image.
    retained: Vec<(u64, Bytes)>,
    trigger: mpsc::Sender<()>,
    compacting: bool,
    compact_bytes: u64,
    /// The last record handed to it.
    handled: u64,
}

impl Writer {
    fn run(mut self, commands: mpsc::Receiver<Command>) {
        let mut failed = false;
        while let Ok(first) = commands.recv() {
            let mut batch = vec![first];
            while batch.len() < 4096 {
                match commands.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
            let mut pending = Vec::new();
            let mut last = None;
            let mut stop = false;
            for command in batch {
                match command {
                    Command::Append { seq, line } => {
                        pending.extend_from_slice(&line);
                        self.retained.push((seq, line));
                        last = Some(seq);
                        self.handled = seq;
                    }
                    Command::Adopt { file, seq, image_bytes } => {
                        if !failed {
                            failed = self.flush(&mut pending, last.take()).is_err();
                        }
                        if !failed {
                            failed = self.adopt(file, seq, image_bytes).is_err();
                        }
                        self.compacting = false;
                    }
                    Command::Abandon => self.compacting = false,
                    Command::Stop => stop = true,
                }
            }
            if !failed {
                failed = self.flush(&mut pending, last).is_err();
            }
            if failed {
                self.retained.clear();
            } else {
                self.maybe_compact();
            }
            self.log.quiet.send_replace(Quiet { seq: self.handled, compacting: self.compacting, failed });
            if stop {
                break;
            }
        }
    }

    /// Appends and syncs what is pending, then tells the waiting requests.
    fn flush(&mut self, pending: &mut Vec<u8>, last: Option<u64>) -> Result<(), ()> {
        let Some(last) = last else { return Ok(()) };
        let written = self.file.write_all(pending).and_then(|()| self.file.sync_data());
        if let Err(error) = written {
            self.log.fail(format!("cannot write the state file {}: {error}", self.path.display()));
            return Err(());
        }
        {
            let mut stats = self.log.stats.lock();
            stats.file_bytes += pending.len() as u64;
            stats.since_image_bytes += pending.len() as u64;
        }
        pending.clear();
        self.log.durable.send_modify(|durable| durable.seq = durable.seq.max(last));
        Ok(())
    }

    fn maybe_compact(&mut self) {
        let stats = self.log.stats.lock().clone();
        if !self.compacting && stats.since_image_bytes > self.compact_bytes.max(stats.image_bytes) {
            self.compacting = self.trigger.send(()).is_ok();
        }
    }

    /// Completes a compaction: the records after the new image go after it, then the new file
    /// takes the old one's place.
    fn adopt(&mut self, mut file: File, seq: u64, image_bytes: u64) -> Result<(), ()> {
        let temporary = file::temporary_path(&self.path);
        let tail: Vec<Bytes> = self.retained.iter().filter(|(at, _)| *at > seq).map(|(_, line)| line.clone()).collect();
        let tail_bytes: u64 = tail.iter().map(|line| line.len() as u64).sum();
        let copied = tail.iter().try_for_each(|line| file.write_all(line)).and_then(|()| file.sync_all());
        if let Err(error) = copied.and_then(|()| std::fs::rename(&temporary, &self.path)) {
            // The old file is still in place and whole: keep writing to it.
            tracing::warn!(target: "reference_server::state", "compaction failed, the state file stays as it was: {error}");
            let _ = std::fs::remove_file(&temporary);
            return Ok(());
        }
        // From here the new file is the state file: appends must go to it.
        self.file = file;
        self.retained.retain(|(at, _)| *at > seq);
        let file_bytes = self.file.metadata().map(|meta| meta.len()).unwrap_or(0);
        {
            let mut stats = self.log.stats.lock();
            stats.file_bytes = file_bytes;
            stats.image_bytes = image_bytes;
            stats.since_image_bytes = tail_bytes;
            stats.compactions += 1;
        }
        if let Err(error) = file::sync_directory(&self.path) {
            self.log.fail(format!("cannot make the compacted state file {} durable: {error}", self.path.display()));
            return Err(());
        }
        tracing::info!(
            target: "reference_server::state",
            "compacted {}: {file_bytes} bytes (an image at record {seq} and {} records after it)",
            self.path.display(),
            tail.len()
        );
        Ok(())
    }
}

/// The thread that writes images of the store for compaction.
struct Compactor {
    path: PathBuf,
    header: Vec<u8>,
    log: Arc<Log>,
    with_data: WithData,
}

impl Compactor {
    fn run(self, triggered: mpsc::Receiver<()>) {
        while triggered.recv().is_ok() {
            // The image and its number are taken under the store's read lock: no write is
            // applied in between, so the image holds exactly the records up to `seq`.
            let mut image = None;
            let log = &self.log;
            let alive = (self.with_data)(&mut |data: &Data| {
                let seq = log.assigned.load(Ordering::SeqCst);
                image = Some((seq, image_line(data, seq)));
            });
            let Some((seq, image)) = image.filter(|_| alive) else { break };
            let temporary = file::temporary_path(&self.path);
            let written = place::create_private(&temporary).and_then(|mut file| {
                file.write_all(&self.header)?;
                file.write_all(&image)?;
                file.sync_all()?;
                Ok(file)
            });
            let file = match written {
                Ok(file) => file,
                Err(error) => {
                    tracing::warn!(target: "reference_server::state", "compaction failed: {error}");
                    let _ = std::fs::remove_file(&temporary);
                    // The writer may ask again later.
                    if self.log.tx.lock().send(Command::Abandon).is_err() {
                        break;
                    }
                    continue;
                }
            };
            let image_bytes = image.len() as u64;
            if self.log.tx.lock().send(Command::Adopt { file, seq, image_bytes }).is_err() {
                let _ = std::fs::remove_file(&temporary);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log whose file cannot be written (`/dev/full` answers every write with "no space").
    fn failing_log() -> (Arc<Log>, std::thread::JoinHandle<()>) {
        let file = OpenOptions::new().append(true).open("/dev/full").expect("/dev/full");
        let (tx, rx) = mpsc::channel();
        let (durable, _) = watch::channel(Durable::default());
        let log = Arc::new(Log {
            tx: Mutex::new(tx),
            assigned: AtomicU64::new(0),
            durable,
            quiet: watch::channel(Quiet::default()).0,
            stats: Mutex::new(Stats::default()),
        });
        let (trigger, _triggered) = mpsc::channel();
        let writer = Writer {
            file,
            path: PathBuf::from("/dev/full"),
            log: log.clone(),
            retained: Vec::new(),
            trigger,
            compacting: false,
            compact_bytes: u64::MAX,
            handled: 0,
        };
        (log, std::thread::spawn(move || writer.run(rx)))
    }

    #[tokio::test]
    async fn a_write_that_cannot_reach_the_disk_is_never_acknowledged() {
        let (log, writer) = failing_log();
        let threads = Mutex::new(vec![writer]);
        let state = State { path: PathBuf::from("/dev/full"), log: log.clone(), threads, lock: Mutex::new(None) };
        assert!(state.settled().await.is_ok(), "nothing pending");
        log.replaced(&Data::default());
        let failure = state.settled().await.expect_err("the write failed");
        assert!(failure.contains("cannot write the state file"), "{failure}");
        assert!(state.failure().is_some());
        assert_eq!(state.describe()["durable"], 0);
        // Later writes are not acknowledged either.
        log.replaced(&Data::default());
        assert!(state.settled().await.is_err());
        state.close();
    }
}
