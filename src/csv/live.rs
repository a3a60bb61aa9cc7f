//! A large CSV or TSV table read in the background, so its first screen does not wait for
//! the whole file.
//!
//! The door opens the file as for any read (the path checks, the inode check, the kind's
//! size limit against `fstat`); from that one open handle a thread then reads it piece by
//! piece, hashes each piece, decodes it and turns its complete records into rows of a
//! sheet that the grid's routes read meanwhile (behind a read-write lock held for one piece
//! at a time). `POST /api/v1/previews` answers once the first blocks of rows are in; the
//! viewer reads `grid/meta.json` again until it says the table is complete, and a row block
//! past the rows read so far waits for them (for a bounded time) instead of failing.
//!
//! # The hash and the snapshot's secrets
//!
//! The SHA-256 of the file is known only once its last byte is read, so a streamed snapshot
//! answers the POST with `sha256: null`; the digest is computed as the pieces come in and
//! shown by `grid/meta.json` (`sha256`) and the Info view from then on. Nothing secret
//! depends on it: a snapshot's id and token are drawn from the operating system's random
//! generator whatever the file holds (10 and 24 bytes), and the token is bound to its
//! snapshot because only the token's hash is kept in that snapshot's entry. The digest only
//! lets two snapshots of the same bytes share their content; a streamed snapshot never
//! shares (its key would be known too late, and content must not be shared before its bytes
//! are verified), so the same file previewed twice is read twice.
//!
//! # Bounds
//!
//! The bytes read stop at the kind's limit (`too_large`, as for a whole read, the file may
//! grow after `fstat`); the table keeps the workbook limits (cells per sheet, bytes per
//! cell) like [`super::parse_csv`]. A record longer than a piece makes the next read as long
//! as what is pending, so a file of one huge line is scanned a bounded number of times (the
//! pieces grow geometrically). At most [`MAX_LOADS`] tables load at once; past that a
//! preview is read whole, as small ones are. The thread holds the table weakly: when the
//! snapshot is evicted, the load stops at its next piece.
//!
//! # Sharing the two cores
//!
//! The reading thread runs at a lower CPU priority (nice 10) than the service's other
//! threads: while it reads the rest of a file, the requests of the first screen (the
//! shell, the grid, `meta.json`, row blocks) and the browser that paints them come first,
//! and the read still takes every cycle nobody else wants. Its write lock is handed over
//! fairly between batches, so a waiting reader gets in after at most one batch.
//!
//! The same table, lock and progress serve workbooks ([`crate::office::xlsx::live`]):
//! [`LiveTable::spawn`] runs any loader on such a thread.

use std::fs::File;
use std::io::Read;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use encoding_rs::{CoderResult, Decoder, Encoding};
use parking_lot::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use super::{empty_book, is_tsv, records_in, sniff_delimiter, sniff_encoding, Builder};
use crate::error::Error;
use crate::office::xlsx::model::Workbook;
use crate::office::OfficeLimits;

/// Most tables loading at once.
pub const MAX_LOADS: usize = 4;

/// Rows a POST waits for before it answers (two blocks of the grid: the first screen).
pub const FIRST_ROWS: u32 = 400;

/// Longest a view that needs the whole file (`raw`, `model.json`) waits for its read.
pub const READ_WAIT: Duration = Duration::from_secs(30);

/// The first read: enough for the encoding and delimiter sniffers and the first screen.
const FIRST_READ: usize = 64 * 1024;

/// Later reads.
const PIECE: usize = 512 * 1024;

/// Records read into the table per hold of its write lock.
const BATCH: usize = 1000;

static LOADING: AtomicUsize = AtomicUsize::new(0);

/// How far a load has come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// The sheet whose rows are being read (a CSV table's only one; the first visible
    /// sheet of a workbook). Other sheets are whole once the table lists them.
    pub sheet: usize,
    /// Rows of that sheet read so far (row numbers below this are final).
    pub rows: u32,
    /// Bytes read so far.
    pub bytes_read: u64,
    /// No more rows will come to that sheet (the file is read, or a limit stopped the
    /// table).
    pub indexed: bool,
    /// The load has ended: bytes and digest are known, or it failed.
    pub complete: bool,
    /// The file could not be read to its end (too large by then, or a read error).
    pub failed: bool,
}

/// How a load ended.
pub enum Outcome {
    /// The whole file was read: its bytes and digest.
    Read(Loaded),
    /// It could not be read to its end (the rows before are kept, with a warning).
    Failed(Error),
}

/// The file's bytes and digest, once the whole file is read.
#[derive(Debug)]
pub struct Loaded {
    /// Every byte read.
    pub bytes: Arc<[u8]>,
    /// Lower-case hex SHA-256 of them.
    pub sha256: String,
}

type Hook = Box<dyn FnOnce() + Send>;

/// The hook to run when the load ends, and whether it has.
#[derive(Default)]
struct Ending {
    ended: bool,
    hook: Option<Hook>,
}

/// A table being read in the background, and what it has read so far.
pub struct LiveTable {
    book: RwLock<Workbook>,
    progress: watch::Sender<Progress>,
    loaded: OnceLock<Loaded>,
    error: Mutex<Option<Error>>,
    ending: Mutex<Ending>,
    heap: AtomicU64,
    size: u64,
}

impl std::fmt::Debug for LiveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveTable")
            .field("progress", &self.progress())
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

struct Slot;

impl Drop for Slot {
    fn drop(&mut self) {
        LOADING.fetch_sub(1, Ordering::SeqCst);
    }
}

impl LiveTable {
    /// Starts reading `file` (opened by the door; `size` from its `fstat`, at most `limit`
    /// bytes accepted) on a thread of its own; `None` when [`MAX_LOADS`] tables are
    /// loading already.
    pub fn start(
        file: File,
        size: u64,
        limit: u64,
        name: &str,
        limits: &OfficeLimits,
    ) -> Option<Arc<LiveTable>> {
        let job = Job {
            file,
            size,
            limit,
            tsv: is_tsv(name),
            limits: limits.clone(),
        };
        Self::spawn(size, empty_book(name), "csv-load", move |table| {
            job.run(table)
        })
    }

    /// Runs `load` on a thread of its own (at a lower priority), on a table that starts as
    /// `book`; `None` when [`MAX_LOADS`] tables are loading already. `load` holds the table
    /// weakly (it should stop when nobody else holds it) and says how the load ended.
    pub fn spawn(
        size: u64,
        book: Workbook,
        thread: &str,
        load: impl FnOnce(&Weak<LiveTable>) -> Outcome + Send + 'static,
    ) -> Option<Arc<LiveTable>> {
        if LOADING.fetch_add(1, Ordering::SeqCst) >= MAX_LOADS {
            LOADING.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        let slot = Slot;
        let table = Arc::new(LiveTable {
            book: RwLock::new(book),
            progress: watch::Sender::new(Progress::default()),
            loaded: OnceLock::new(),
            error: Mutex::new(None),
            ending: Mutex::new(Ending::default()),
            heap: AtomicU64::new(0),
            size,
        });
        let weak = Arc::downgrade(&table);
        let spawned = std::thread::Builder::new()
            .name(thread.into())
            .spawn(move || {
                let _slot = slot;
                lower_priority();
                let (outcome, heap) = crate::preview::heap::measure(|| load(&weak));
                if let Some(table) = weak.upgrade() {
                    table.heap.store(heap, Ordering::Relaxed);
                    table.end(outcome);
                }
            });
        if spawned.is_err() {
            tracing::warn!("cannot start a thread to read a table");
            return None;
        }
        Some(table)
    }

    /// The table as read so far (held briefly: the load waits for it between pieces).
    pub fn book(&self) -> RwLockReadGuard<'_, Workbook> {
        self.book.read()
    }

    /// The table, for its loader to write (readers wait meanwhile: hold it for a batch,
    /// or hand it over with [`RwLockWriteGuard::bump`]).
    pub fn write(&self) -> RwLockWriteGuard<'_, Workbook> {
        self.book.write()
    }

    /// Lets the loader say how far it has come (waiting readers are woken).
    pub fn report(&self, update: impl FnOnce(&mut Progress)) {
        self.progress.send_modify(update);
    }

    /// How far the load has come.
    pub fn progress(&self) -> Progress {
        *self.progress.borrow()
    }

    /// Waits until rows below `rows` are read (or no more will come), at most `limit`;
    /// returns the progress then.
    pub async fn wait_rows(&self, rows: u32, limit: Duration) -> Progress {
        self.wait(limit, |p| p.rows >= rows || p.indexed).await
    }

    /// Waits until the load has ended, at most `limit`; returns the progress then.
    pub async fn wait_complete(&self, limit: Duration) -> Progress {
        self.wait(limit, |p| p.complete).await
    }

    async fn wait(&self, limit: Duration, done: impl Fn(&Progress) -> bool) -> Progress {
        let mut rx = self.progress.subscribe();
        let _ = tokio::time::timeout(limit, rx.wait_for(|p| done(p))).await;
        self.progress()
    }

    /// The file's bytes and digest once it is read whole.
    pub fn loaded(&self) -> Option<&Loaded> {
        self.loaded.get()
    }

    /// Why the file could not be read to its end, taken once (a POST that has not answered
    /// yet answers with it).
    pub fn take_error(&self) -> Option<Error> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// The bytes the snapshot store charges: what the load left on the heap once it has
    /// ended, about twice the bytes read before (the file and the table's text).
    pub fn weight(&self) -> u64 {
        let p = self.progress();
        if p.complete {
            self.heap.load(Ordering::Relaxed)
        } else {
            p.bytes_read.saturating_mul(2)
        }
    }

    /// Runs `hook` once the load has ended (now, if it has); it has run before the
    /// progress says `complete`.
    pub fn on_complete(&self, hook: impl FnOnce() + Send + 'static) {
        let mut ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
        if ending.ended {
            drop(ending);
            hook();
        } else {
            ending.hook = Some(Box::new(hook));
        }
    }

    fn end(&self, outcome: Outcome) {
        let failed = match outcome {
            Outcome::Read(loaded) => {
                let _ = self.loaded.set(loaded);
                false
            }
            Outcome::Failed(e) => {
                *self.error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                true
            }
        };
        // A hook added from now on runs at once; one added before is taken here.
        let hook = {
            let mut ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
            ending.ended = true;
            ending.hook.take()
        };
        if let Some(hook) = hook {
            hook();
        }
        self.progress.send_modify(|p| {
            p.indexed = true;
            p.complete = true;
            p.failed = failed;
        });
    }
}

struct Job {
    file: File,
    size: u64,
    limit: u64,
    tsv: bool,
    limits: OfficeLimits,
}

/// What the reading thread keeps between pieces.
struct Reader {
    raw: Vec<u8>,
    hasher: Sha256,
    decoder: Option<(Decoder, &'static Encoding)>,
    /// Bytes of `raw` given to the decoder.
    decoded: usize,
    /// Decoded text not yet read as records.
    text: String,
    builder: Option<Builder>,
}

impl Job {
    fn run(self, table: &Weak<LiveTable>) -> Outcome {
        let mut r = Reader {
            raw: Vec::with_capacity(self.size.min(self.limit) as usize + 1),
            hasher: Sha256::new(),
            decoder: None,
            decoded: 0,
            text: String::new(),
            builder: None,
        };
        let mut want = FIRST_READ;
        loop {
            let room = (self.limit + 1).saturating_sub(r.raw.len() as u64) as usize;
            let ask = want.min(room);
            let before = r.raw.len();
            r.raw.reserve(ask);
            if let Err(e) = (&self.file).take(ask as u64).read_to_end(&mut r.raw) {
                return self.fail(table, &mut r, crate::workspace::read_error(e));
            }
            let got = r.raw.len() - before;
            r.hasher.update(&r.raw[before..]);
            if r.raw.len() as u64 > self.limit {
                let e = Error::TooLarge {
                    size: r.raw.len() as u64,
                    limit: self.limit,
                };
                return self.fail(table, &mut r, e);
            }
            let eof = got < ask;
            let Some(live) = table.upgrade() else {
                // Nobody holds the snapshot any more.
                return Outcome::Failed(Error::Internal);
            };
            self.piece(&live, &mut r, eof);
            if eof {
                let mut book = live.book.write();
                let enc = r.decoder.as_ref().map_or("UTF-8", |(_, e)| e.name());
                if let Some(b) = r.builder.as_mut() {
                    b.finish(&mut book, enc, self.tsv);
                }
                drop(book);
                let sha256 = hex::encode(std::mem::take(&mut r.hasher).finalize());
                return Outcome::Read(Loaded {
                    bytes: Arc::from(std::mem::take(&mut r.raw).into_boxed_slice()),
                    sha256,
                });
            }
            // A record longer than a piece: read as much again, so it is rescanned a
            // bounded number of times.
            want = PIECE.max(r.text.len());
        }
    }

    /// Decodes the bytes read since the last piece and reads the complete records among
    /// them into the table.
    fn piece(&self, live: &LiveTable, r: &mut Reader, eof: bool) {
        if r.decoder.is_none() {
            if r.raw.len() < FIRST_READ && !eof {
                return;
            }
            let (enc, bom) = sniff_encoding(&r.raw, eof);
            r.decoder = Some((enc.new_decoder_without_bom_handling(), enc));
            r.decoded = bom;
        }
        if let Some((decoder, _)) = r.decoder.as_mut() {
            decode_into(decoder, &r.raw[r.decoded..], &mut r.text, eof);
            r.decoded = r.raw.len();
        }
        if r.builder.is_none() {
            if r.text.len() < super::SNIFF_BYTES && !eof {
                return;
            }
            let delim = sniff_delimiter(&r.text, if self.tsv { '\t' } else { ',' });
            r.builder = Some(Builder::new(&self.limits, delim));
        }
        let Some(builder) = r.builder.as_mut() else {
            return;
        };
        let bytes_read = r.raw.len() as u64;
        // The write lock is held for one batch of records at a time, so a reader (a row
        // block, the meta) waits for a batch at most, never for a whole piece.
        let mut at = 0;
        while !builder.stopped {
            let mut book = live.book.write();
            let sheet = &mut book.sheets[0];
            let mut n = 0;
            at += records_in(&r.text[at..], builder.delim, eof, |f| {
                n += 1;
                builder.record(sheet, f) && n < BATCH
            });
            // Handed over fairly: a reader waiting for the lock gets it before the next
            // batch, instead of racing this thread for it.
            RwLockWriteGuard::unlock_fair(book);
            let (rows, stopped) = (builder.records, builder.stopped);
            live.progress.send_modify(|p| {
                p.rows = rows;
                p.bytes_read = bytes_read;
                p.indexed |= stopped;
            });
            if n < BATCH {
                break;
            }
        }
        if builder.stopped {
            // A limit stopped the table: the rest is read for the raw bytes and the digest.
            r.text.clear();
            live.progress.send_modify(|p| p.bytes_read = bytes_read);
        } else {
            r.text.drain(..at);
        }
    }

    fn fail(&self, table: &Weak<LiveTable>, r: &mut Reader, e: Error) -> Outcome {
        if let Some(live) = table.upgrade() {
            let mut book = live.book.write();
            let enc = r.decoder.as_ref().map_or("UTF-8", |(_, e)| e.name());
            if let Some(b) = r.builder.as_mut() {
                b.finish(&mut book, enc, self.tsv);
            }
            book.warnings.push(
                "The file could not be read to its end (it grew past the size limit, or a read failed); the rows before that are shown.".into(),
            );
        }
        Outcome::Failed(e)
    }
}

/// Lowers the calling thread's CPU priority to nice 10 (on Linux a thread has its own),
/// so a background read yields the cores to requests and to the browser painting them.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its integer arguments; `who = 0` is this thread.
    unsafe {
        let _ = libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Decodes all of `src` onto the end of `text` (`last`: no more input follows).
fn decode_into(decoder: &mut Decoder, mut src: &[u8], text: &mut String, last: bool) {
    loop {
        let need = decoder
            .max_utf8_buffer_length(src.len())
            .unwrap_or(src.len().saturating_mul(3) + 16);
        text.reserve(need);
        let (result, read, _) = decoder.decode_to_string(src, text, last);
        src = &src[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn table_of(bytes: &[u8], name: &str, limits: &OfficeLimits) -> Arc<LiveTable> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        use std::io::Seek;
        f.rewind().unwrap();
        LiveTable::start(f, bytes.len() as u64, 1 << 30, name, limits).unwrap()
    }

    async fn done(t: &LiveTable) -> Progress {
        t.wait_complete(Duration::from_secs(60)).await
    }

    #[tokio::test]
    async fn a_streamed_table_is_the_table_read_whole() {
        // Quoted newlines, doubled quotes, CRLF ends and a long field fall across the
        // piece boundaries of a file of several pieces.
        let mut text = String::from("name,note,amount\r\n");
        for i in 0..40_000 {
            let long = if i % 5_000 == 0 {
                "x".repeat(70_000)
            } else {
                String::new()
            };
            text.push_str(&format!(
                "row {i},\"said \"\"hi\"\"\nthen left{long}\",{}.{:02}\r\n",
                i % 977,
                i % 100
            ));
        }
        let limits = OfficeLimits::default();
        let whole = super::super::parse_csv(text.as_bytes(), "t.csv", &limits);
        let live = table_of(text.as_bytes(), "t.csv", &limits);
        let p = done(&live).await;
        assert!(p.complete && !p.failed, "{p:?}");
        assert_eq!(p.rows, 40_001);
        let book = live.book();
        let (a, b) = (&whole.sheets[0], &book.sheets[0]);
        assert_eq!(a.row_count, b.row_count);
        assert_eq!(a.cells.len(), b.cells.len());
        assert_eq!(a.header_row, b.header_row);
        assert_eq!(a.columns.len(), b.columns.len());
        for i in [0usize, 1, 2, 4_999, 5_001, 39_999, 40_000] {
            let text_of = |s: &crate::office::xlsx::model::Sheet| -> Vec<String> {
                s.cells_of(i)
                    .iter()
                    .map(|c| s.pool.get(c.value as u32).to_string())
                    .collect()
            };
            assert_eq!(text_of(a), text_of(b), "row {i}");
        }
        assert_eq!(whole.warnings, book.warnings);
        let loaded = live.loaded().unwrap();
        assert_eq!(&loaded.bytes[..], text.as_bytes());
        assert_eq!(loaded.sha256, hex::encode(Sha256::digest(text.as_bytes())));
    }

    #[tokio::test]
    async fn a_legacy_encoding_is_found_from_the_first_piece() {
        let mut text = String::from("城市;人口\n");
        for i in 0..30_000 {
            text.push_str(&format!("北京{i};{i}\n"));
        }
        let (gb, _, _) = encoding_rs::GB18030.encode(&text);
        let live = table_of(&gb, "cities.csv", &OfficeLimits::default());
        done(&live).await;
        let book = live.book();
        let sheet = &book.sheets[0];
        assert_eq!(sheet.row_count, 30_001);
        assert_eq!(
            sheet.pool.get(sheet.cells_of(30_000)[0].value as u32),
            "北京29999"
        );
        assert!(
            book.warnings
                .iter()
                .any(|w| w.to_ascii_lowercase().contains("gb18030")),
            "{:?}",
            book.warnings
        );
        assert!(book.warnings.iter().any(|w| w.contains("semicolon")));
    }

    #[tokio::test]
    async fn a_file_past_its_limit_fails_with_too_large_and_keeps_its_rows() {
        let text = "a,b\n1,2\n".repeat(100_000);
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        use std::io::Seek;
        f.rewind().unwrap();
        // The size from fstat was under the limit; the file grew since.
        let live = LiveTable::start(f, 1000, 200_000, "g.csv", &OfficeLimits::default()).unwrap();
        let p = done(&live).await;
        assert!(p.failed && p.complete, "{p:?}");
        assert!(matches!(
            live.take_error(),
            Some(Error::TooLarge { limit: 200_000, .. })
        ));
        assert!(live.loaded().is_none());
        assert!(live.book().sheets[0].row_count > 1000);
    }

    #[tokio::test]
    async fn a_waiting_reader_gets_rows_as_they_come() {
        let text = "id,v\n".to_string() + &"7,8\n".repeat(300_000);
        let live = table_of(text.as_bytes(), "w.csv", &OfficeLimits::default());
        let p = live.wait_rows(250_000, Duration::from_secs(60)).await;
        assert!(p.rows >= 250_000, "{p:?}");
        let hooked = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let h = hooked.clone();
        live.on_complete(move || h.store(true, Ordering::SeqCst));
        done(&live).await;
        assert!(hooked.load(Ordering::SeqCst));
        assert!(live.weight() > text.len() as u64, "{}", live.weight());
    }
}
