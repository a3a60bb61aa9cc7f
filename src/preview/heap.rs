//! Measuring what a parsed model holds on the heap.
//!
//! previewd's allocator is the system allocator with one addition: each thread keeps a
//! running count of the bytes it has allocated minus those it has freed. [`measure`] reads
//! that count around a closure on one thread, so the difference is what the closure left
//! allocated: for a parse, the model it returned (temporary buffers freed before it
//! returns do not count). The snapshot store charges that figure instead of guessing.
//!
//! What is counted is an estimate of the allocator's real use, not an exact one: each
//! allocation is rounded up the way glibc's malloc sizes its chunks (8 bytes of header,
//! 16-byte granules, 32 bytes at least), and fragmentation is not counted. Memory the
//! closure frees that another thread allocated makes the count smaller, which a parse (one
//! thread, fresh objects) never does; the count is clamped at zero.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator with a per-thread count of live bytes.
pub struct MeteredAlloc;

#[global_allocator]
static ALLOCATOR: MeteredAlloc = MeteredAlloc;

thread_local! {
    // `const` and without a destructor: usable from any allocation, even during thread
    // teardown.
    static NET: Cell<i64> = const { Cell::new(0) };
}

/// What glibc's malloc uses for a request of `size` bytes.
fn chunk(size: usize) -> i64 {
    let with_header = size.saturating_add(8).div_ceil(16).saturating_mul(16);
    with_header.max(32) as i64
}

fn add(delta: i64) {
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(delta)));
}

// SAFETY: every call is forwarded unchanged to `System`; the bookkeeping allocates nothing.
unsafe impl GlobalAlloc for MeteredAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(chunk(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(chunk(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-chunk(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(chunk(new_size) - chunk(layout.size()));
        }
        p
    }
}

/// Runs `f` and returns its result with the bytes it left allocated on this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = NET.with(Cell::get);
    let value = f();
    let after = NET.with(Cell::get);
    (value, after.saturating_sub(before).max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_kept_is_counted_and_what_is_freed_is_not() {
        let (kept, bytes) = measure(|| {
            let scratch = vec![0u8; 1 << 20];
            drop(scratch);
            vec![1u8; 100_000]
        });
        assert_eq!(kept.len(), 100_000);
        assert!((100_000..100_100).contains(&bytes), "{bytes}");
        let (strings, bytes) = measure(|| (0..1000).map(|i| i.to_string()).collect::<Vec<_>>());
        // 1000 small strings cost a 32-byte chunk each, plus the vector of their headers.
        assert!(bytes >= 1000 * 32 + 1000 * 24, "{bytes}");
        drop(strings);
    }
}
