//! Garbage, truncated and oversized patches: refused with the contract's messages or read
//! as far as they make sense, never a panic, never work beyond the input's size.

use crate::diff::view::{render, ViewOptions};
use crate::diff::{parse_patch, DiffDefaults, DiffErrorKind, DiffModel, FileStatus, LineKind};

const NO_FILES: &str = "Patch input did not contain any file diffs.";

fn refused(text: &str) -> String {
    parse_patch(text)
        .expect_err("patch must be refused")
        .message()
        .to_string()
}

/// Checks what every parsed model must satisfy, whatever the input.
fn assert_consistent(model: &DiffModel) {
    for file in &model.files {
        let mut adds = 0;
        let mut dels = 0;
        for hunk in &file.hunks {
            let old = hunk
                .lines
                .iter()
                .filter(|l| l.kind != LineKind::Add)
                .count();
            let new = hunk
                .lines
                .iter()
                .filter(|l| l.kind != LineKind::Delete)
                .count();
            assert_eq!((hunk.old_count, hunk.new_count), (old, new));
            assert!(!hunk.lines.is_empty());
            for line in &hunk.lines {
                match line.kind {
                    LineKind::Add => adds += 1,
                    LineKind::Delete => dels += 1,
                    LineKind::Context => {}
                }
                for span in &line.spans {
                    assert!(span.start < span.end && span.end <= line.text.len());
                    assert!(
                        line.text.is_char_boundary(span.start)
                            && line.text.is_char_boundary(span.end)
                    );
                }
            }
        }
        assert_eq!((file.additions, file.deletions), (adds, dels));
    }
}

/// A small deterministic generator, so failures reproduce without a seed file.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(0x5eed);
    for round in 0..300 {
        let len = (rng.next() % 4096) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        match parse_patch(&text) {
            Ok(model) => assert_consistent(&model),
            Err(e) => assert_eq!(e.kind(), DiffErrorKind::PatchEmpty, "round {round}"),
        }
    }
}

#[test]
fn random_patch_like_lines_never_panic() {
    let pieces = [
        "diff --git a/x b/x",
        "diff --git \"a/\\303\" \"b/\\30",
        "diff -r abc",
        "Index: f",
        "====",
        "--- a/x",
        "+++ b/x",
        "--- ",
        "+++ ",
        "@@ -1,3 +1,3 @@",
        "@@ -0,0 +1 @@",
        "@@ -1,999999999 +1 @@",
        "@@ -18446744073709551615,2 +1 @@",
        " context",
        "-gone",
        "+new é",
        "",
        "\\ No newline at end of file",
        "rename from a",
        "rename to \"b",
        "new file mode 100644",
        "deleted file mode 100644",
        "old mode 100644",
        "new mode 100755",
        "similarity index 999%",
        "Binary files a/x and b/x differ",
        "GIT binary patch",
        "literal 0",
        "\r",
    ];
    let mut rng = Lcg(42);
    for _ in 0..2000 {
        let n = (rng.next() % 40) as usize;
        let mut text = String::new();
        for _ in 0..n {
            text.push_str(pieces[(rng.next() as usize) % pieces.len()]);
            text.push(if rng.next().is_multiple_of(7) {
                '\r'
            } else {
                '\n'
            });
        }
        if let Ok(model) = parse_patch(&text) {
            assert_consistent(&model);
        }
    }
}

#[test]
fn lone_plus_header_is_no_file() {
    assert_eq!(refused("+++ b/x\n"), NO_FILES);
    assert_eq!(refused("+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"), NO_FILES);
}

#[test]
fn lone_minus_header_is_no_file() {
    assert_eq!(refused("--- a/x"), NO_FILES);
}

#[test]
fn empty_and_prose_are_no_file() {
    assert_eq!(refused(""), NO_FILES);
    assert_eq!(refused("\n\n\n"), NO_FILES);
    assert_eq!(
        refused("Fixed the bug in the diff viewer.\nThanks!"),
        NO_FILES
    );
}

#[test]
fn headers_without_changes_are_no_file() {
    assert_eq!(refused("diff --git a/x b/x\n"), NO_FILES);
    assert_eq!(
        refused(&"diff --git a/x b/x\nindex 1..2 100644\n".repeat(10_000)),
        NO_FILES
    );
    assert_eq!(refused("Index: x\n=====\n"), NO_FILES);
}

#[test]
fn hunk_without_file_header_is_no_file() {
    assert_eq!(refused("@@ -1 +1 @@\n-a\n+b\n"), NO_FILES);
}

#[test]
fn huge_counts_in_a_hunk_header_read_only_what_is_there() {
    let model = parse_patch("--- a/x\n+++ b/x\n@@ -1,999999999 +1 @@\n-old\n+new\n").unwrap();
    let hunk = &model.files[0].hunks[0];
    assert_eq!((hunk.old_count, hunk.new_count), (1, 1));
    assert_eq!((model.files[0].additions, model.files[0].deletions), (1, 1));
}

#[test]
fn overflowing_hunk_header_is_ignored() {
    let text = "--- a/x\n+++ b/x\n@@ -1,99999999999999999999999 +1 @@\n-old\n+new\n";
    assert_eq!(refused(text), NO_FILES);
    // usize::MAX fits the type but not the header's bound: adding a count to it would
    // overflow wherever a hunk's end is computed.
    let text = "--- a/x\n+++ b/x\n@@ -18446744073709551615,2 +18446744073709551615,2 @@\n a\n b\n";
    assert_eq!(refused(text), NO_FILES);
    let text = "--- a/x\n+++ b/x\n@@ -18446744073709551615 +1 @@\n-a\n+b\n";
    assert_eq!(refused(text), NO_FILES);
}

#[test]
fn the_largest_hunk_header_numbers_render() {
    let max = u32::MAX;
    let text = format!("--- a/x\n+++ b/x\n@@ -{max},{max} +{max},2 @@\n a\n-b\n+c\n");
    let model = parse_patch(&text).unwrap();
    let lines = &model.files[0].hunks[0].lines;
    assert_eq!(lines[1].old_line, Some(max as usize + 1));
    // Tests build with overflow checks on: any unchecked `start + count` would panic here.
    let html = render(
        &model,
        &ViewOptions::from_defaults(&DiffDefaults::default(), "big"),
    );
    assert!(
        html.contains(&format!(">{max}<")),
        "the number column shows it"
    );
}

#[test]
fn truncated_hunk_keeps_its_lines_and_the_next_file_still_parses() {
    let text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n same\n-old\ndiff --git a/y b/y\nnew file mode 100644\n--- /dev/null\n+++ b/y\n@@ -0,0 +1 @@\n+hi\n";
    let model = parse_patch(text).unwrap();
    assert_eq!(model.files.len(), 2);
    let x = &model.files[0];
    assert_eq!((x.hunks[0].old_count, x.hunks[0].new_count), (2, 1));
    assert_eq!((x.additions, x.deletions), (0, 1));
    assert_eq!(model.files[1].status, FileStatus::Added);
    assert_eq!(model.files[1].new_path.as_deref(), Some("y"));
}

#[test]
fn truncated_hunk_at_end_of_input() {
    let model = parse_patch("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b").unwrap();
    let hunk = &model.files[0].hunks[0];
    assert_eq!(hunk.lines.len(), 2);
    assert_eq!(hunk.lines[1].text, "b");
}

#[test]
fn dash_dash_content_inside_a_hunk_is_content() {
    // `--- x` as a deleted line `-- x`, followed by `+++ y` as an added `++ y`.
    let text = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n keep\n";
    let model = parse_patch(text).unwrap();
    assert_eq!(model.files.len(), 1);
    let texts: Vec<&str> = model.files[0].hunks[0]
        .lines
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(texts, ["-- x", "++ y", "keep"]);
}

#[test]
fn unterminated_quoted_names_do_not_panic() {
    let text = "diff --git \"a/x \"b/x\n--- \"a/x\n+++ \"b/x\\\n@@ -1 +1 @@\n-a\n+b\n";
    let model = parse_patch(text).unwrap();
    assert_eq!(model.files[0].additions, 1);
}

#[test]
fn very_long_header_line_is_linear() {
    let spaces = " ".repeat(1_000_001);
    let text = format!("diff --git a/{spaces} b/{spaces}\nold mode 100644\nnew mode 100755\n");
    let model = parse_patch(&text).unwrap();
    assert_eq!(model.files[0].status, FileStatus::ModeChanged);
}

#[test]
fn long_changed_lines_skip_word_spans() {
    let old = "a ".repeat(2_000);
    let new = format!("{}b", "a ".repeat(1_999));
    let text = format!("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-{old}\n+{new}\n");
    let model = parse_patch(&text).unwrap();
    assert!(model.files[0].hunks[0]
        .lines
        .iter()
        .all(|l| l.spans.is_empty()));
}

#[test]
fn many_expensive_pairs_stay_bounded() {
    // 2,000 pairs of 400-token lines with nothing in common but spaces: word diffs fall
    // back to whole-line changes, and the test finishes quickly.
    let mut text = String::from("--- a/f\n+++ b/f\n@@ -1,2000 +1,2000 @@\n");
    let old = "x ".repeat(400);
    let new = "y ".repeat(400);
    for _ in 0..2000 {
        text.push('-');
        text.push_str(&old);
        text.push('\n');
    }
    for _ in 0..2000 {
        text.push('+');
        text.push_str(&new);
        text.push('\n');
    }
    let model = parse_patch(&text).unwrap();
    assert_eq!(model.files[0].additions, 2000);
    assert_consistent(&model);
}

fn mode_change_files(n: usize) -> String {
    (0..n)
        .map(|i| format!("diff --git a/f{i} b/f{i}\nold mode 100644\nnew mode 100755\n"))
        .collect()
}

#[test]
fn file_limit_boundary() {
    assert_eq!(
        parse_patch(&mode_change_files(128)).unwrap().files.len(),
        128
    );
    let err = parse_patch(&mode_change_files(129)).unwrap_err();
    assert_eq!(
        err.message(),
        "Patch input contains too many files (max 128)."
    );
    assert_eq!(err.kind(), DiffErrorKind::PatchTooManyFiles);
}

fn added_lines_patch(lines: usize) -> String {
    let mut text = format!("diff --git a/big b/big\nnew file mode 100644\n--- /dev/null\n+++ b/big\n@@ -0,0 +1,{lines} @@\n");
    for i in 0..lines {
        text.push_str(&format!("+{i}\n"));
    }
    text
}

#[test]
fn row_limit_boundary() {
    let model = parse_patch(&added_lines_patch(120_000)).unwrap();
    assert_eq!(model.row_count(), 120_000);
    let err = parse_patch(&added_lines_patch(120_001)).unwrap_err();
    assert_eq!(
        err.message(),
        "Patch input is too large to render (max 120000 lines)."
    );
    assert_eq!(err.kind(), DiffErrorKind::PatchTooLarge);
}

#[test]
fn row_limit_sums_over_files() {
    let half = added_lines_patch(60_000);
    let other = half.replace("big", "big2");
    assert!(parse_patch(&format!("{half}{other}")).is_ok());
    let err = parse_patch(&format!(
        "{half}{other}{}",
        added_lines_patch(1).replace("big", "big3")
    ))
    .unwrap_err();
    assert_eq!(err.kind(), DiffErrorKind::PatchTooLarge);
}

#[test]
fn file_limit_is_reported_before_row_limit() {
    // 130 files of 1,000 rows each break both limits; the file count is reported.
    let text: String = (0..130)
        .map(|i| {
            let mut f = format!("--- a/f{i}\n+++ b/f{i}\n@@ -0,0 +1,1000 @@\n");
            for _ in 0..1000 {
                f.push_str("+x\n");
            }
            f
        })
        .collect();
    assert_eq!(
        parse_patch(&text).unwrap_err().message(),
        "Patch input contains too many files (max 128)."
    );
}
