//! Stopping a raster that runs past its deadline.
//!
//! hayro offers no cancellation hook: `render` takes no callback, its drawing device is
//! private to the crate, and the interpreter settings hold only font and CMap resolvers and
//! a warning sink. One thing every page that is slow because of its structure does over and
//! over is resolve objects (each `Do` of a form, each Type 3 glyph's CharProc, each pattern
//! and font looks its object up), and every lookup reads the file's bytes through
//! `PdfData::as_ref` (`XRef::get_with` in hayro-syntax). previewd hands hayro those bytes
//! as [`SharedBytes`], so that accessor is where a render is stopped: while a render runs
//! under [`run`], each read of the bytes on its thread checks the deadline and, once it
//! has passed, unwinds out of hayro to [`run`].
//!
//! What this does not stop: a page whose one content stream draws a great many paths
//! without looking anything up, and the final rasterization of what was drawn. Those are
//! bounded by the stream size caps and the pixel caps, and the service keeps its
//! late-render cap for them (`server::pdf`).
//!
//! Unwinding out of hayro is safe for everything a render owns (its caches and pixmap are
//! dropped), but not always for the shared document: hayro-syntax rebuilds a broken
//! cross-reference table under a write lock, reading the bytes as it goes, and an unwind
//! there poisons the lock for every later lookup. So after a stopped render the caller
//! checks the document with [`is_usable`] and opens it again when it is not.

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use hayro::hayro_syntax::object::Object;
use hayro::hayro_syntax::Pdf;

/// What a render under [`run`] may still spend: a deadline and a number of reads of the
/// file's bytes (the latter lets tests stop a render at an exact point).
#[derive(Debug, Clone, Copy)]
struct Budget {
    deadline: Instant,
    reads: u64,
}

thread_local! {
    /// The budget of the render running on this thread, if any.
    static BUDGET: Cell<Option<Budget>> = const { Cell::new(None) };
}

/// The unwind payload of a stopped render (`resume_unwind` skips the panic hook, so a
/// stop prints nothing).
struct Interrupted;

/// Why [`run`] did not return a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The deadline (or the read budget) passed.
    Deadline,
    /// The renderer panicked (a bug in it; logged).
    Panic,
}

/// Called on every read of the file's bytes: unwinds when the running render is over
/// budget. The budget is cleared first, so nothing read while unwinding stops again (a
/// second unwind would abort the process).
fn check() {
    BUDGET.with(|cell| {
        let Some(mut budget) = cell.get() else {
            return;
        };
        budget.reads = budget.reads.saturating_sub(1);
        if budget.reads == 0 || Instant::now() >= budget.deadline {
            cell.set(None);
            resume_unwind(Box::new(Interrupted));
        }
        cell.set(Some(budget));
    });
}

/// Clears the thread's budget however `run` ends.
struct Disarm(Option<Budget>);

impl Drop for Disarm {
    fn drop(&mut self) {
        BUDGET.with(|cell| cell.set(self.0));
    }
}

/// Runs `render` with reads of the file's bytes on this thread stopping it at `deadline`.
pub fn run<T>(deadline: Instant, render: impl FnOnce() -> T) -> Result<T, Stopped> {
    run_budgeted(deadline, u64::MAX, render)
}

/// [`run`] that also stops at the `reads`-th read of the bytes.
pub(crate) fn run_budgeted<T>(
    deadline: Instant,
    reads: u64,
    render: impl FnOnce() -> T,
) -> Result<T, Stopped> {
    let previous = BUDGET.with(|cell| cell.replace(Some(Budget { deadline, reads })));
    let _disarm = Disarm(previous);
    catch_unwind(AssertUnwindSafe(render)).map_err(|payload| {
        if payload.is::<Interrupted>() {
            Stopped::Deadline
        } else {
            tracing::warn!("the PDF renderer panicked");
            Stopped::Panic
        }
    })
}

/// Whether `pdf` still resolves objects after a render was stopped inside it (a poisoned
/// cross-reference lock makes every lookup panic).
pub fn is_usable(pdf: &Pdf) -> bool {
    let xref = pdf.xref();
    catch_unwind(AssertUnwindSafe(|| {
        std::hint::black_box(xref.get::<Object<'_>>(xref.root_id()));
    }))
    .is_ok()
}

/// The snapshot's bytes, shared with the parser without a copy; reading them is where a
/// render over its budget stops.
pub(crate) struct SharedBytes(pub(crate) Arc<[u8]>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        check();
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn reads_past_the_deadline_stop_the_render_and_later_reads_do_not() {
        let bytes = SharedBytes(Arc::from(&b"%PDF-1.7"[..]));
        let later = Instant::now() + Duration::from_secs(3600);
        assert_eq!(run(later, || bytes.as_ref().len()), Ok(8));
        let past = Instant::now();
        let stopped = run(past, || {
            let _ = bytes.as_ref();
            unreachable!("the read past the deadline unwinds")
        });
        assert_eq!(stopped, Err(Stopped::Deadline));
        // Outside a render, reads are free.
        assert_eq!(bytes.as_ref().len(), 8);
        let third = run_budgeted(later, 3, || {
            for _ in 0..10 {
                let _ = bytes.as_ref();
            }
        });
        assert_eq!(third, Err(Stopped::Deadline));
        assert_eq!(
            run(later, || -> u8 { std::panic::resume_unwind(Box::new(1u8)) }),
            Err(Stopped::Panic)
        );
    }
}
