//! Diff operations from `similar`, checked before use.
//!
//! Everything downstream indexes lines and tokens by the ops' positions, so they must
//! cover both sequences in order without gaps. `similar`'s compacted output (nicer block
//! placement) is used when it does; some 2.x releases misplace ops after compacting, and
//! then the raw Myers result is taken instead, and as a last resort one replace of
//! everything. Either way the caller gets a valid script and never an out-of-range index.
//!
//! Myers costs O((N + M) · D): two inputs with nothing in common cost the product of their
//! lengths (16,000 unrelated lines took 34 s in a debug build). With a deadline, the search
//! stops refining once it passes and whatever is left becomes one delete and one insert: a
//! valid, less minimal script, in bounded time.

use std::hash::Hash;
use std::time::Instant;

use similar::algorithms::{diff_slices_deadline, Capture, Replace};
use similar::{capture_diff_slices_deadline, Algorithm, DiffOp};

/// A valid edit script from `old` to `new`: ops in order, each starting where the previous
/// ended, covering both sequences completely. Past `deadline` the rest is not minimal.
pub(crate) fn diff_ops<T: Eq + Hash + Ord>(
    old: &[T],
    new: &[T],
    deadline: Option<Instant>,
) -> Vec<DiffOp> {
    let ops = capture_diff_slices_deadline(Algorithm::Myers, old, new, deadline);
    if is_valid(&ops, old.len(), new.len()) {
        return ops;
    }
    let mut hook = Replace::new(Capture::new());
    // The capture hook cannot fail (its error type is `Infallible`).
    let _ = diff_slices_deadline(Algorithm::Myers, &mut hook, old, new, deadline);
    let ops = hook.into_inner().into_ops();
    if is_valid(&ops, old.len(), new.len()) {
        return ops;
    }
    replace_all(old.len(), new.len())
}

fn is_valid(ops: &[DiffOp], old_len: usize, new_len: usize) -> bool {
    let (mut o, mut n) = (0, 0);
    for op in ops {
        let (old, new) = (op.old_range(), op.new_range());
        if old.start != o || new.start != n {
            return false;
        }
        if matches!(op, DiffOp::Equal { .. }) && old.len() != new.len() {
            return false;
        }
        o = old.end;
        n = new.end;
    }
    o == old_len && n == new_len
}

fn replace_all(old_len: usize, new_len: usize) -> Vec<DiffOp> {
    match (old_len, new_len) {
        (0, 0) => Vec::new(),
        (0, _) => vec![DiffOp::Insert {
            old_index: 0,
            new_index: 0,
            new_len,
        }],
        (_, 0) => vec![DiffOp::Delete {
            old_index: 0,
            old_len,
            new_index: 0,
        }],
        _ => vec![DiffOp::Replace {
            old_index: 0,
            old_len,
            new_index: 0,
            new_len,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_scripts_cover_both_sides() {
        let old = ["a", "b", "c", "d"];
        let new = ["a", "x", "c", "d", "e"];
        let ops = diff_ops(&old, &new, None);
        assert!(is_valid(&ops, 4, 5));
        assert_eq!(
            ops.first().map(|op| op.tag()),
            Some(similar::DiffTag::Equal)
        );
    }

    #[test]
    fn a_passed_deadline_still_gives_a_valid_script() {
        // Unrelated lines with one shared line in the middle: unbounded Myers finds it;
        // with the deadline already gone it is not searched for, and the script is still
        // complete and in order.
        let mut old: Vec<String> = (0..400).map(|i| format!("a{i}")).collect();
        let mut new: Vec<String> = (0..400).map(|i| format!("b{i}")).collect();
        old[200] = "shared".into();
        new[200] = "shared".into();
        let minimal = diff_ops(&old, &new, None);
        assert!(is_valid(&minimal, 400, 400));
        assert!(minimal.iter().any(|op| op.tag() == similar::DiffTag::Equal));
        let bounded = diff_ops(&old, &new, Some(Instant::now()));
        assert!(is_valid(&bounded, 400, 400));
        assert!(bounded.iter().all(|op| op.tag() != similar::DiffTag::Equal));
    }

    #[test]
    fn broken_scripts_are_refused() {
        let gap = [
            DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: 1,
            },
            DiffOp::Insert {
                old_index: 2,
                new_index: 1,
                new_len: 1,
            },
        ];
        assert!(!is_valid(&gap, 1, 2));
        assert!(!is_valid(&[], 1, 0));
        assert!(is_valid(&replace_all(3, 2), 3, 2));
        assert!(is_valid(&replace_all(0, 2), 0, 2));
        assert!(is_valid(&replace_all(0, 0), 0, 0));
    }
}
