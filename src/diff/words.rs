//! Intra-line ("word") highlighting: which parts of a deleted line and the added line that
//! replaced it actually differ.
//!
//! Within a run of changes, the i-th deleted line pairs with the i-th added line. Each pair
//! is split into tokens (a run of letters/digits/underscores, a run of whitespace, or any
//! single other character), the common prefix and suffix are stripped, and the middle is
//! diffed with `similar`. The work is bounded twice over: lines longer than
//! [`MAX_WORD_DIFF_LINE_BYTES`] get no spans, and a budget shared by the whole model caps the
//! token comparisons, after which pairs fall back to the prefix/suffix split alone (linear).

use similar::DiffOp;

use super::model::{DiffLine, Hunk, LineKind, WordSpan};
use super::ops::diff_ops;

/// Lines longer than this (bytes) get no word spans: minified code or data lines would cost
/// much and show a wall of highlights anyway.
pub const MAX_WORD_DIFF_LINE_BYTES: usize = 2_000;

/// Token comparisons (old middle × new middle) one model may spend on word diffs.
const WORD_DIFF_BUDGET: usize = 20_000_000;

/// Token comparisons a single pair may spend before it falls back to prefix/suffix only.
const PAIR_BUDGET: usize = 200 * 200;

/// Shared cost counter so a hostile input cannot make word diffs quadratic in total.
pub(crate) struct WordBudget {
    left: usize,
}

impl WordBudget {
    pub(crate) fn new() -> Self {
        WordBudget {
            left: WORD_DIFF_BUDGET,
        }
    }
}

/// Fills `spans` on paired deleted/added lines of `hunk`.
pub(crate) fn annotate_hunk(hunk: &mut Hunk, budget: &mut WordBudget) {
    let lines = &mut hunk.lines;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].kind == LineKind::Context {
            i += 1;
            continue;
        }
        // A change block: deletions then additions (either may be empty).
        let del_start = i;
        while i < lines.len() && lines[i].kind == LineKind::Delete {
            i += 1;
        }
        let add_start = i;
        while i < lines.len() && lines[i].kind == LineKind::Add {
            i += 1;
        }
        let pairs = (add_start - del_start).min(i - add_start);
        for k in 0..pairs {
            let (head, tail) = lines.split_at_mut(add_start);
            pair_spans(&mut head[del_start + k], &mut tail[k], budget);
        }
    }
}

fn pair_spans(old: &mut DiffLine, new: &mut DiffLine, budget: &mut WordBudget) {
    if old.text.len() > MAX_WORD_DIFF_LINE_BYTES || new.text.len() > MAX_WORD_DIFF_LINE_BYTES {
        return;
    }
    let a = tokenize(&old.text);
    let b = tokenize(&new.text);
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let a_mid = &a[prefix..a.len() - suffix];
    let b_mid = &b[prefix..b.len() - suffix];

    let mut old_changed = vec![false; a_mid.len()];
    let mut new_changed = vec![false; b_mid.len()];
    let cost = a_mid.len().saturating_mul(b_mid.len());
    if cost <= PAIR_BUDGET && cost <= budget.left {
        budget.left -= cost;
        // No deadline: the pair and model budgets above already bound the work.
        for op in diff_ops(a_mid, b_mid, None) {
            match op {
                DiffOp::Equal { .. } => {}
                _ => {
                    old_changed[op.old_range()].fill(true);
                    new_changed[op.new_range()].fill(true);
                }
            }
        }
    } else {
        old_changed.fill(true);
        new_changed.fill(true);
    }

    // Nothing but whitespace in common: the whole line changed, and the line colour already
    // says so; spans would only add noise.
    let shares_word = a.iter().enumerate().any(|(i, t)| {
        let in_mid = i >= prefix && i - prefix < old_changed.len();
        let changed = in_mid && old_changed[i - prefix];
        !changed && !is_space(t)
    });
    if !shares_word {
        return;
    }
    old.spans = to_spans(&a, prefix, &old_changed);
    new.spans = to_spans(&b, prefix, &new_changed);
}

/// Turns per-token flags of the middle into merged byte ranges. Two changed runs separated
/// only by unchanged whitespace merge, so `foo bar` → `baz qux` is one highlight.
fn to_spans(tokens: &[&str], prefix: usize, changed_mid: &[bool]) -> Vec<WordSpan> {
    let mut spans: Vec<WordSpan> = Vec::new();
    let mut offset: usize = tokens[..prefix].iter().map(|t| t.len()).sum();
    let mut pending_gap: Option<usize> = None; // end of last span, when only spaces followed
    for (i, token) in tokens[prefix..prefix + changed_mid.len()]
        .iter()
        .enumerate()
    {
        let start = offset;
        offset += token.len();
        if changed_mid[i] {
            match spans.last_mut() {
                Some(last) if last.end == start || pending_gap == Some(last.end) => {
                    last.end = offset
                }
                _ => spans.push(WordSpan { start, end: offset }),
            }
            pending_gap = None;
        } else if is_space(token) {
            if let Some(last) = spans.last() {
                if last.end == start {
                    pending_gap = Some(last.end);
                }
            }
        } else {
            pending_gap = None;
        }
    }
    spans
}

fn is_space(token: &str) -> bool {
    token.chars().all(char::is_whitespace)
}

#[derive(PartialEq, Eq)]
enum Class {
    Word,
    Space,
    Other,
}

fn class(c: char) -> Class {
    if c.is_alphanumeric() || c == '_' {
        Class::Word
    } else if c.is_whitespace() {
        Class::Space
    } else {
        Class::Other
    }
}

/// Splits a line into word, whitespace and punctuation tokens; slices of the input, so
/// every token boundary is a char boundary.
pub(crate) fn tokenize(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = 0;
    let mut current: Option<Class> = None;
    for (i, c) in text.char_indices() {
        let k = class(c);
        let split = match &current {
            None => false,
            Some(prev) => *prev != k || k == Class::Other,
        };
        if split {
            tokens.push(&text[start..i]);
            start = i;
        }
        current = Some(k);
    }
    if start < text.len() {
        tokens.push(&text[start..]);
    }
    tokens
}
