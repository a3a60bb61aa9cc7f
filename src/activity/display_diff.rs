//! The one display diff per turn and path, composed from that turn's declared fragments.
//!
//! A turn may touch a file several times (a write, then edits). The Changes view shows one
//! diff for it. Fragments are folded into "pieces", each an old/new pair:
//! 1. an exact duplicate of an earlier pair is dropped (the same change reported twice);
//!    whole-document creates are exempt, as rule 2 already makes a repeat a no-op and a
//!    document restated after another (`v1`, `v2`, `v1`) must end at `v1`;
//! 2. a full-document create replaces an earlier create piece (the last write wins);
//! 3. a fragment whose old text equals a piece's new text chains onto it (`a→b`, `b→c` is
//!    `a→c`), the most recent piece first;
//! 4. a fragment whose old text occurs exactly once across all pieces' new texts is replayed
//!    there by substring replacement;
//! 5. anything else becomes an independent piece.
//!
//! One piece is a composed before/after pair. Several pieces are shown side by side, joined
//! by a blank line, and marked as independent fragments so the view never claims they are
//! one cumulative patch.
//!
//! Rule 4 searches every piece and copies the one it edits, so its cost grows with the
//! document times the number of edits: a large write followed by many small edits could
//! cost a request minutes. The bytes it may search and copy per composition are capped
//! ([`REPLAY_WORK_BYTES`]); past that, fragments are kept as independent pieces (rule 5),
//! which is still a true picture, only a less compact one.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::records::TextPair;

/// One declared fragment as the composer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffStep<'a> {
    /// The text before.
    pub old_text: &'a str,
    /// The text after.
    pub new_text: &'a str,
    /// Whether this is a whole-document create (a `write` or an added file), which replaces
    /// an earlier one instead of composing with it.
    pub full_document: bool,
}

/// What the diff viewer shows for one turn and path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum DisplayDiff {
    /// Every fragment composed into one before/after pair.
    #[serde(rename_all = "camelCase")]
    Composed {
        /// The text before the turn's changes (the whole document when it was written).
        old_text: String,
        /// The text after the turn's changes.
        new_text: String,
    },
    /// Fragments that could not be composed; shown together, not as one patch.
    #[serde(rename_all = "camelCase")]
    Fragments {
        /// The pieces' old texts joined by a blank line, for a single diff editor.
        old_text: String,
        /// The pieces' new texts joined by a blank line, for a single diff editor.
        new_text: String,
        /// The pieces themselves, in order, for a viewer that renders them apart.
        fragments: Vec<TextPair>,
    },
}

impl DisplayDiff {
    /// The text shown on the old side.
    pub fn old_text(&self) -> &str {
        match self {
            DisplayDiff::Composed { old_text, .. } | DisplayDiff::Fragments { old_text, .. } => {
                old_text
            }
        }
    }

    /// The text shown on the new side.
    pub fn new_text(&self) -> &str {
        match self {
            DisplayDiff::Composed { new_text, .. } | DisplayDiff::Fragments { new_text, .. } => {
                new_text
            }
        }
    }
}

struct Piece {
    old_text: String,
    new_text: String,
    create: bool,
}

/// Bytes rule 4 may search and copy for one composition: hundreds of times an ordinary
/// turn's texts, and a few hundred milliseconds of work at most.
pub const REPLAY_WORK_BYTES: usize = 256 * 1024 * 1024;

/// Composes fragments in order into the display diff; `None` when there is nothing to show.
pub fn compose_display_diff(steps: &[DiffStep<'_>]) -> Option<DisplayDiff> {
    compose_with_budget(steps, REPLAY_WORK_BYTES)
}

/// [`compose_display_diff`] with `budget` bytes of rule-4 work.
fn compose_with_budget(steps: &[DiffStep<'_>], mut budget: usize) -> Option<DisplayDiff> {
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut pieces: Vec<Piece> = Vec::new();
    for step in steps {
        // A whole document restated after something else (v1, v2, v1) is a real change, and
        // replacing a create with itself changes nothing, so creates skip the duplicate test.
        if !seen.insert((step.old_text, step.new_text)) && !step.full_document {
            continue;
        }
        if step.full_document {
            if let Some(piece) = pieces.iter_mut().rev().find(|piece| piece.create) {
                piece.new_text = step.new_text.to_string();
                continue;
            }
            pieces.push(Piece {
                old_text: step.old_text.to_string(),
                new_text: step.new_text.to_string(),
                create: true,
            });
            continue;
        }
        if let Some(piece) = pieces
            .iter_mut()
            .rev()
            .find(|piece| piece.new_text == step.old_text)
        {
            piece.new_text = step.new_text.to_string();
            continue;
        }
        // A search reads every piece; a replay copies one.
        let held: usize = pieces.iter().map(|p| p.new_text.len()).sum();
        let work = held.saturating_mul(2).saturating_add(step.new_text.len());
        if work <= budget {
            budget -= work;
            if let Some(piece) = unique_holder(&mut pieces, step.old_text) {
                piece.new_text = piece.new_text.replacen(step.old_text, step.new_text, 1);
                continue;
            }
        }
        pieces.push(Piece {
            old_text: step.old_text.to_string(),
            new_text: step.new_text.to_string(),
            create: false,
        });
    }
    match pieces.len() {
        0 => None,
        1 => pieces.pop().map(|piece| DisplayDiff::Composed {
            old_text: piece.old_text,
            new_text: piece.new_text,
        }),
        _ => Some(DisplayDiff::Fragments {
            old_text: join_with_blank_line(pieces.iter().map(|p| p.old_text.as_str())),
            new_text: join_with_blank_line(pieces.iter().map(|p| p.new_text.as_str())),
            fragments: pieces
                .into_iter()
                .map(|p| TextPair::new(p.old_text, p.new_text))
                .collect(),
        }),
    }
}

/// The piece whose new text holds `needle` when it occurs exactly once across all pieces
/// (overlapping occurrences count, so `aa` in `aaa` is ambiguous).
fn unique_holder<'p>(pieces: &'p mut [Piece], needle: &str) -> Option<&'p mut Piece> {
    if needle.is_empty() {
        return None;
    }
    let mut holder = None;
    let mut total = 0usize;
    for (index, piece) in pieces.iter().enumerate() {
        let found = count_occurrences(&piece.new_text, needle, 2 - total);
        if found > 0 {
            holder = Some(index);
            total += found;
        }
        if total > 1 {
            return None;
        }
    }
    holder.and_then(move |index| pieces.get_mut(index))
}

/// Counts occurrences of a non-empty `needle`, overlapping ones included, stopping at `limit`.
fn count_occurrences(haystack: &str, needle: &str, limit: usize) -> usize {
    let mut count = 0;
    let mut start = 0;
    while count < limit {
        let Some(found) = haystack.get(start..).and_then(|rest| rest.find(needle)) else {
            break;
        };
        count += 1;
        let at = start + found;
        // Step one whole char past the match start so the next search stays on a boundary.
        let step = haystack
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .map_or(1, char::len_utf8);
        start = at + step;
    }
    count
}

/// Joins texts so exactly one blank line separates them, whatever their line endings.
fn join_with_blank_line<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (index, text) in texts.enumerate() {
        if index > 0 {
            let newline = if out.ends_with("\r\n") || text.contains("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            if !out.ends_with('\n') {
                out.push_str(newline);
            }
            out.push_str(newline);
        }
        out.push_str(text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn edit<'a>(old_text: &'a str, new_text: &'a str) -> DiffStep<'a> {
        DiffStep {
            old_text,
            new_text,
            full_document: false,
        }
    }

    fn write(content: &str) -> DiffStep<'_> {
        DiffStep {
            old_text: "",
            new_text: content,
            full_document: true,
        }
    }

    fn composed(old: &str, new: &str) -> Option<DisplayDiff> {
        Some(DisplayDiff::Composed {
            old_text: old.into(),
            new_text: new.into(),
        })
    }

    #[test]
    fn nothing_to_show() {
        assert_eq!(compose_display_diff(&[]), None);
    }

    #[test]
    fn single_fragment_is_composed() {
        assert_eq!(compose_display_diff(&[edit("a", "b")]), composed("a", "b"));
    }

    #[test]
    fn exact_duplicates_are_dropped() {
        let steps = [edit("a", "b"), edit("a", "b")];
        assert_eq!(compose_display_diff(&steps), composed("a", "b"));
        let writes = [write("x\n"), write("x\n")];
        assert_eq!(compose_display_diff(&writes), composed("", "x\n"));
    }

    #[test]
    fn later_create_replaces_earlier_create() {
        let steps = [write("v1\n"), edit("v1", "v1b"), write("v2\n")];
        assert_eq!(compose_display_diff(&steps), composed("", "v2\n"));
    }

    #[test]
    fn a_restated_document_after_another_wins() {
        let steps = [write("v1"), write("v2"), write("v1")];
        assert_eq!(compose_display_diff(&steps), composed("", "v1"));
    }

    #[test]
    fn chains_compose() {
        let steps = [edit("a", "b"), edit("b", "c"), edit("c", "d")];
        assert_eq!(compose_display_diff(&steps), composed("a", "d"));
    }

    #[test]
    fn chain_onto_an_earlier_piece() {
        let steps = [edit("one", "ONE"), edit("two", "TWO"), edit("ONE", "1")];
        assert_eq!(
            compose_display_diff(&steps).map(|d| d.new_text().to_string()),
            Some("1\n\nTWO".to_string())
        );
    }

    #[test]
    fn unique_substring_replays_onto_the_document() {
        let steps = [
            write("fn a() {}\nfn b() {}\n"),
            edit("fn b() {}", "fn c() {}"),
        ];
        assert_eq!(
            compose_display_diff(&steps),
            composed("", "fn a() {}\nfn c() {}\n")
        );
    }

    #[test]
    fn ambiguous_substring_stays_independent() {
        let steps = [write("x\nx\n"), edit("x", "y")];
        assert_eq!(
            compose_display_diff(&steps),
            Some(DisplayDiff::Fragments {
                old_text: "\n\nx".into(),
                new_text: "x\nx\n\ny".into(),
                fragments: vec![TextPair::new("", "x\nx\n"), TextPair::new("x", "y")],
            })
        );
    }

    #[test]
    fn overlapping_occurrences_are_ambiguous() {
        let steps = [write("aaa"), edit("aa", "b")];
        assert!(matches!(
            compose_display_diff(&steps),
            Some(DisplayDiff::Fragments { .. })
        ));
        assert_eq!(count_occurrences("aaa", "aa", 5), 2);
        assert_eq!(count_occurrences("ééé", "é", 5), 3);
    }

    #[test]
    fn substring_unique_across_pieces_only() {
        // `k` appears in two independent pieces, so replaying it would be a guess.
        let steps = [edit("p", "k1"), edit("q", "k2"), edit("k", "z")];
        let diff = compose_display_diff(&steps);
        assert!(
            matches!(&diff, Some(DisplayDiff::Fragments { fragments, .. }) if fragments.len() == 3)
        );
    }

    #[test]
    fn past_the_replay_budget_fragments_stay_independent() {
        let document = "fn a() {}\nfn b() {}\nfn c() {}\n";
        let steps = [
            write(document),
            edit("fn b() {}", "fn bb() {}"),
            edit("fn c() {}", "fn cc() {}"),
        ];
        // Enough for the first replay only (two reads of the document and a copy).
        let one = 2 * document.len() + "fn bb() {}".len();
        match compose_with_budget(&steps, one) {
            Some(DisplayDiff::Fragments { fragments, .. }) => {
                assert_eq!(fragments.len(), 2);
                assert_eq!(fragments[0].new_text, "fn a() {}\nfn bb() {}\nfn c() {}\n");
                assert_eq!(fragments[1].old_text, "fn c() {}");
            }
            other => panic!("expected fragments, got {other:?}"),
        }
        // With the real budget both replay onto the document.
        assert_eq!(
            compose_display_diff(&steps),
            composed("", "fn a() {}\nfn bb() {}\nfn cc() {}\n")
        );
    }

    #[test]
    fn independent_fragments_join_with_one_blank_line() {
        let steps = [edit("a\n", "b\n"), edit("c", "d"), edit("e\r\n", "f\r\n")];
        assert_eq!(
            compose_display_diff(&steps),
            Some(DisplayDiff::Fragments {
                old_text: "a\n\nc\r\n\r\ne\r\n".into(),
                new_text: "b\n\nd\r\n\r\nf\r\n".into(),
                fragments: vec![
                    TextPair::new("a\n", "b\n"),
                    TextPair::new("c", "d"),
                    TextPair::new("e\r\n", "f\r\n"),
                ],
            })
        );
    }

    #[test]
    fn serialises_with_a_kind_tag() {
        let json = serde_json::to_value(composed("a", "b")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "composed", "oldText": "a", "newText": "b"})
        );
    }

    /// A document and a list of edits, each edit given as (start char, length, replacement).
    fn document_and_edits() -> impl Strategy<Value = (String, Vec<(usize, usize, String)>)> {
        let text = proptest::collection::vec(
            prop_oneof![Just('a'), Just('b'), Just('\n'), Just('é'), Just('✓')],
            1..60,
        )
        .prop_map(|chars| chars.into_iter().collect::<String>());
        let edits = proptest::collection::vec((0usize..80, 1usize..12, "[ab\n✓]{0,6}"), 0..12);
        (text, edits)
    }

    proptest! {
        #[test]
        fn chained_display_diff_ends_at_the_edited_text((text, edits) in document_and_edits()) {
            let mut document = text.clone();
            let mut owned: Vec<(String, String)> = Vec::new();
            for (counter, (start, len, replacement)) in edits.into_iter().enumerate() {
                let chars: Vec<char> = document.chars().collect();
                if chars.is_empty() {
                    break;
                }
                let start = start % chars.len();
                // Grow the chosen span until it occurs once, as the edit tool requires.
                let mut end = (start + len).min(chars.len());
                let old = loop {
                    let candidate: String = chars.get(start..end).unwrap_or_default().iter().collect();
                    if count_occurrences(&document, &candidate, 2) == 1 || end == chars.len() {
                        break candidate;
                    }
                    end += 1;
                };
                if count_occurrences(&document, &old, 2) != 1 {
                    continue;
                }
                // The counter keeps every pair distinct: the spec drops exact duplicate pairs.
                let new = format!("{replacement}#{counter}");
                document = document.replacen(&old, &new, 1);
                owned.push((old, new));
            }
            let mut steps = vec![write(&text)];
            steps.extend(owned.iter().map(|(old, new)| edit(old, new)));
            let diff = compose_display_diff(&steps);
            prop_assert_eq!(diff, composed("", &document));
        }
    }
}
