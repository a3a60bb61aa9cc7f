//! Property tests: a before/after diff, rendered as a unified patch and parsed back, keeps
//! its counts and lines; applying its hunks to the old text gives the new text; and the
//! parser never panics on arbitrary text.

use proptest::prelude::*;

use crate::diff::{diff_texts, parse_patch, DiffModel, LineKind};

/// Texts built from a few lines that repeat (so the diff has matches to find), including
/// empty lines, non-ASCII, carriage returns and lines that look like patch headers.
fn text() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec![
        "a",
        "b",
        "c",
        "",
        "fn main() {",
        "}",
        "é ü",
        "x\r",
        "--- a/x",
        "+++ b/x",
        "@@ -1 +1 @@",
        "\\ no",
        "  indented",
        "diff --git a/q b/q",
    ]);
    (prop::collection::vec(line, 0..40), any::<bool>()).prop_map(|(lines, trailing_newline)| {
        let mut text = lines.join("\n");
        if trailing_newline && !text.is_empty() {
            text.push('\n');
        }
        text
    })
}

/// Rebuilds the new text from the old one and the model's hunks, as `patch` would.
fn apply(before: &str, model: &DiffModel) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut next_old = 0; // 0-based index of the next old line not yet copied
    let file = &model.files[0];
    for hunk in &file.hunks {
        let first_old = if hunk.old_count == 0 {
            hunk.old_start
        } else {
            hunk.old_start - 1
        };
        for line in &old[next_old..first_old] {
            out.push_str(line);
        }
        next_old = first_old;
        for line in &hunk.lines {
            match line.kind {
                LineKind::Context | LineKind::Add => {
                    out.push_str(&line.text);
                    if !line.no_newline {
                        out.push('\n');
                    }
                }
                LineKind::Delete => {}
            }
            if line.kind != LineKind::Add {
                next_old += 1;
            }
        }
    }
    for line in &old[next_old..] {
        out.push_str(line);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn render_then_parse_keeps_counts_and_lines(before in text(), after in text()) {
        prop_assume!(before != after);
        let model = diff_texts(Some("dir/file name.txt"), &before, &after);
        let patch = model.to_unified();
        let parsed = parse_patch(&patch).expect("rendered patch parses");
        prop_assert_eq!(parsed.files.len(), 1);
        let (a, b) = (&model.files[0], &parsed.files[0]);
        prop_assert_eq!((a.additions, a.deletions), (b.additions, b.deletions));
        prop_assert_eq!(&a.hunks, &b.hunks);
        prop_assert_eq!(b.new_path.as_deref(), Some("dir/file name.txt"));
    }

    #[test]
    fn applying_the_hunks_gives_the_new_text(before in text(), after in text()) {
        prop_assume!(before != after);
        let model = diff_texts(None, &before, &after);
        prop_assert_eq!(apply(&before, &model), after);
        // Counts agree with the lines on each side.
        let file = &model.files[0];
        let adds = file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == LineKind::Add).count();
        prop_assert_eq!(adds, file.additions);
    }

    #[test]
    fn parser_never_panics(text in "(?s).{0,600}") {
        let _ = parse_patch(&text);
    }

    #[test]
    fn parsed_spans_are_valid(words_a in "[a-zé ,.]{0,60}", words_b in "[a-zé ,.]{0,60}") {
        let patch = format!("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-{words_a}\n+{words_b}\n");
        let model = parse_patch(&patch).unwrap();
        for line in &model.files[0].hunks[0].lines {
            for span in &line.spans {
                prop_assert!(span.start < span.end && span.end <= line.text.len());
                prop_assert!(line.text.is_char_boundary(span.start) && line.text.is_char_boundary(span.end));
            }
        }
    }
}
