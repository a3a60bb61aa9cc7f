//! The parser on real `git diff` output (made by `fixtures/patches/make.sh`) and on
//! hand-written `diff -u`, Mercurial and Subversion samples.

use super::fixture;
use crate::diff::{parse_patch, DiffModel, FileDiff, FileStatus, LineKind, WordSpan};

fn parse(name: &str) -> DiffModel {
    parse_patch(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {}", e.message()))
}

fn only_file(name: &str) -> FileDiff {
    let mut model = parse(name);
    assert_eq!(model.files.len(), 1, "{name}");
    model.files.remove(0)
}

fn paths(f: &FileDiff) -> (Option<&str>, Option<&str>) {
    (f.old_path.as_deref(), f.new_path.as_deref())
}

#[test]
fn git_rename_with_similarity_and_edit() {
    let f = only_file("git-rename.patch");
    assert_eq!(f.status, FileStatus::Renamed);
    assert_eq!(
        paths(&f),
        (Some("renamed-src.txt"), Some("renamed-dst.txt"))
    );
    assert_eq!(f.similarity, Some(96));
    assert_eq!((f.additions, f.deletions), (1, 1));
    let h = &f.hunks[0];
    assert_eq!(
        (h.old_start, h.old_count, h.new_start, h.new_count),
        (17, 7, 17, 7)
    );
    assert_eq!(h.section, "line 16");
    let del = h.lines.iter().find(|l| l.kind == LineKind::Delete).unwrap();
    assert_eq!(
        (del.old_line, del.new_line, del.text.as_str()),
        (Some(20), None, "line 20")
    );
    let add = h.lines.iter().find(|l| l.kind == LineKind::Add).unwrap();
    assert_eq!(
        (add.old_line, add.new_line, add.text.as_str()),
        (None, Some(20), "line twenty")
    );
    // `20` → `twenty`: only the number is highlighted.
    assert_eq!(del.spans, vec![WordSpan { start: 5, end: 7 }]);
    assert_eq!(&add.text[add.spans[0].start..add.spans[0].end], "twenty");
    let last = h.lines.last().unwrap();
    assert_eq!((last.old_line, last.new_line), (Some(23), Some(23)));
}

#[test]
fn git_pure_rename_with_spaces_has_no_hunks() {
    let f = only_file("git-pure-rename.patch");
    assert_eq!(f.status, FileStatus::Renamed);
    assert_eq!(
        paths(&f),
        (Some("old dir name.txt"), Some("new dir name.txt"))
    );
    assert_eq!(f.similarity, Some(100));
    assert!(f.hunks.is_empty());
    assert_eq!((f.additions, f.deletions), (0, 0));
}

#[test]
fn git_copy_with_similarity() {
    let f = only_file("git-copy.patch");
    assert_eq!(f.status, FileStatus::Copied);
    assert_eq!(paths(&f), (Some("main.rs"), Some("main-copy.rs")));
    assert_eq!(f.similarity, Some(84));
    assert_eq!((f.additions, f.deletions), (1, 0));
    assert_eq!(f.hunks[0].lines.last().unwrap().text, "// copied");
}

#[test]
fn git_mode_change_only() {
    let f = only_file("git-mode-change.patch");
    assert_eq!(f.status, FileStatus::ModeChanged);
    assert_eq!(paths(&f), (Some("script.sh"), Some("script.sh")));
    assert_eq!(
        (f.old_mode.as_deref(), f.new_mode.as_deref()),
        (Some("100644"), Some("100755"))
    );
    assert!(f.hunks.is_empty());
}

#[test]
fn git_mode_change_with_content_is_modified() {
    let f = only_file("git-mode-and-content.patch");
    assert_eq!(f.status, FileStatus::Modified);
    assert_eq!(
        (f.old_mode.as_deref(), f.new_mode.as_deref()),
        (Some("100644"), Some("100755"))
    );
    assert_eq!((f.additions, f.deletions), (1, 1));
    assert_eq!(f.hunks[0].lines[1].text, "echo new");
}

#[test]
fn git_binary_files_differ() {
    for name in ["git-binary.patch", "git-binary-literal.patch"] {
        let f = only_file(name);
        assert_eq!(f.status, FileStatus::Binary, "{name}");
        assert!(f.is_binary);
        assert_eq!(paths(&f), (Some("blob.bin"), Some("blob.bin")));
        assert!(f.hunks.is_empty());
        assert_eq!((f.additions, f.deletions), (0, 0));
    }
}

#[test]
fn git_quoted_non_ascii_name_with_space() {
    let f = only_file("git-quoted-name.patch");
    assert_eq!(paths(&f), (Some("tést file.txt"), Some("tést file.txt")));
    assert_eq!(f.status, FileStatus::Modified);
    let add = &f.hunks[0].lines[1];
    assert_eq!(add.text, "café crème");
    // The span is on char boundaries even though `è` is two bytes.
    assert_eq!(&add.text[add.spans[0].start..add.spans[0].end], " crème");
}

#[test]
fn git_unquoted_name_with_space_and_trailing_tab() {
    let f = only_file("git-space-name.patch");
    assert_eq!(paths(&f), (Some("space name.txt"), Some("space name.txt")));
    assert_eq!((f.additions, f.deletions), (1, 1));
}

#[test]
fn git_crlf_content_keeps_its_carriage_returns() {
    let f = only_file("git-crlf.patch");
    let texts: Vec<&str> = f.hunks[0].lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["alpha\r", "beta\r", "BETA\r", "gamma\r"]);
    assert_eq!((f.additions, f.deletions), (1, 1));
}

#[test]
fn whole_patch_with_crlf_line_ends_reads_like_lf() {
    let lf = parse("git-word-change.patch");
    let crlf = parse_patch(&fixture("git-word-change.patch").replace('\n', "\r\n")).unwrap();
    assert_eq!(crlf, lf);
}

#[test]
fn git_no_newline_at_end_of_file() {
    let f = only_file("git-no-newline.patch");
    let flags: Vec<(LineKind, &str, bool)> = f.hunks[0]
        .lines
        .iter()
        .map(|l| (l.kind, l.text.as_str(), l.no_newline))
        .collect();
    assert_eq!(
        flags,
        [
            (LineKind::Context, "keep me", false),
            (LineKind::Delete, "old tail", true),
            (LineKind::Add, "new tail", true),
        ]
    );
}

#[test]
fn git_new_and_deleted_files() {
    let model = parse("git-new-deleted.patch");
    let [added, deleted] = &model.files[..] else {
        panic!("two files expected, got {}", model.files.len());
    };
    assert_eq!(added.status, FileStatus::Added);
    assert_eq!(paths(added), (None, Some("added.txt")));
    assert_eq!(added.new_mode.as_deref(), Some("100644"));
    assert_eq!((added.additions, added.deletions), (2, 0));
    assert_eq!((added.hunks[0].old_start, added.hunks[0].old_count), (0, 0));
    assert_eq!(deleted.status, FileStatus::Deleted);
    assert_eq!(paths(deleted), (Some("deleted.txt"), None));
    assert_eq!(deleted.old_mode.as_deref(), Some("100644"));
    assert_eq!((deleted.additions, deleted.deletions), (0, 2));
}

#[test]
fn git_empty_new_file_has_no_hunks() {
    let f = only_file("git-empty-new-file.patch");
    assert_eq!(f.status, FileStatus::Added);
    assert_eq!(paths(&f), (None, Some("empty.txt")));
    assert!(f.hunks.is_empty());
}

#[test]
fn git_word_change_span() {
    let f = only_file("git-word-change.patch");
    let lines = &f.hunks[0].lines;
    assert_eq!(lines[1].kind, LineKind::Delete);
    assert!(
        lines[1].spans.is_empty(),
        "nothing was removed, only inserted"
    );
    let add = &lines[2];
    assert_eq!(add.spans.len(), 1);
    assert_eq!(
        &add.text[add.spans[0].start..add.spans[0].end],
        ", brave new"
    );
}

#[test]
fn git_all_matches_git_numstat() {
    let model = parse("git-all.patch");
    let numstat = fixture("git-all.numstat");
    let expected: Vec<(String, String)> = numstat
        .lines()
        .map(|l| {
            let (a, d) = l.split_once('\t').unwrap();
            (a.to_string(), d.to_string())
        })
        .collect();
    assert_eq!(model.files.len(), expected.len());
    assert_eq!(model.files.len(), 13);
    for (file, (a, d)) in model.files.iter().zip(&expected) {
        if a == "-" {
            assert!(file.is_binary, "{}", file.display_path());
        } else {
            assert_eq!(file.additions.to_string(), *a, "{}", file.display_path());
            assert_eq!(file.deletions.to_string(), *d, "{}", file.display_path());
        }
    }
    let statuses: Vec<(&str, FileStatus)> = model
        .files
        .iter()
        .map(|f| (f.display_path(), f.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("added.txt", FileStatus::Added),
            ("blob.bin", FileStatus::Binary),
            ("crlf.txt", FileStatus::Modified),
            ("deleted.txt", FileStatus::Deleted),
            ("empty.txt", FileStatus::Added),
            ("main.rs", FileStatus::Modified),
            ("new dir name.txt", FileStatus::Renamed),
            ("no-newline.txt", FileStatus::Modified),
            ("renamed-dst.txt", FileStatus::Renamed),
            ("script.sh", FileStatus::ModeChanged),
            ("space name.txt", FileStatus::Modified),
            ("tool.sh", FileStatus::Modified),
            ("tést file.txt", FileStatus::Modified),
        ]
    );
}

#[test]
fn every_fixture_survives_render_and_reparse() {
    let names = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/patches"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".patch"))
        .collect::<Vec<_>>();
    assert!(names.len() >= 19, "{names:?}");
    for name in names {
        let model = parse(&name);
        let again = parse_patch(&model.to_unified()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, model, "{name}");
    }
}

#[test]
fn plain_diff_u_with_timestamps() {
    let model = parse("plain-diff-u.patch");
    let [hello, notes] = &model.files[..] else {
        panic!("two files expected");
    };
    assert_eq!(paths(hello), (Some("hello.c.orig"), Some("hello.c")));
    assert_eq!(hello.status, FileStatus::Modified);
    assert_eq!((hello.additions, hello.deletions), (2, 1));
    assert_eq!(hello.hunks[0].lines[1].text, "", "an empty context line");
    assert_eq!(hello.hunks[0].lines.len(), 7);
    assert_eq!(notes.status, FileStatus::Added);
    assert_eq!(paths(notes), (None, Some("notes.txt")));
    assert_eq!((notes.additions, notes.deletions), (2, 0));
}

#[test]
fn plain_diff_ru_with_command_lines_and_binary() {
    let model = parse("plain-diff-ru.patch");
    let [config, logo] = &model.files[..] else {
        panic!("two files expected, got {:?}", model.files);
    };
    assert_eq!(
        paths(config),
        (Some("old/config.ini"), Some("new/config.ini"))
    );
    assert_eq!((config.additions, config.deletions), (1, 1));
    let add = &config.hunks[0].lines[2];
    assert_eq!(&add.text[add.spans[0].start..add.spans[0].end], "9090");
    assert_eq!(logo.status, FileStatus::Binary);
    assert_eq!(paths(logo), (Some("old/logo.png"), Some("new/logo.png")));
}

#[test]
fn mercurial_export() {
    let model = parse("hg.patch");
    let [app, module, icon] = &model.files[..] else {
        panic!("three files expected, got {:?}", model.files);
    };
    assert_eq!(paths(app), (Some("src/app.py"), Some("src/app.py")));
    assert_eq!((app.additions, app.deletions), (1, 1));
    assert_eq!(app.hunks[0].lines.len(), 5);
    assert_eq!(module.status, FileStatus::Added);
    assert_eq!(paths(module), (None, Some("src/new_module.py")));
    assert_eq!(icon.status, FileStatus::Binary);
    assert_eq!(
        paths(icon),
        (Some("assets/icon.png"), Some("assets/icon.png"))
    );
}

#[test]
fn subversion_diff() {
    let model = parse("svn.patch");
    type Row<'a> = (Option<&'a str>, Option<&'a str>, FileStatus, usize, usize);
    let summary: Vec<Row<'_>> = model
        .files
        .iter()
        .map(|f| {
            (
                f.old_path.as_deref(),
                f.new_path.as_deref(),
                f.status,
                f.additions,
                f.deletions,
            )
        })
        .collect();
    // The property-only change to script.sh carries no content and is left out.
    assert_eq!(
        summary,
        [
            (
                Some("trunk/readme.txt"),
                Some("trunk/readme.txt"),
                FileStatus::Modified,
                2,
                1
            ),
            (None, Some("trunk/added.txt"), FileStatus::Added, 1, 0),
            (Some("trunk/removed.txt"), None, FileStatus::Deleted, 0, 1),
            (
                Some("trunk/logo.png"),
                Some("trunk/logo.png"),
                FileStatus::Binary,
                0,
                0
            ),
        ]
    );
}

#[test]
fn model_serializes_for_the_cli() {
    let model = parse("git-rename.patch");
    let v = serde_json::to_value(&model).unwrap();
    let f = &v["files"][0];
    assert_eq!(f["oldPath"], "renamed-src.txt");
    assert_eq!(f["newPath"], "renamed-dst.txt");
    assert_eq!(f["status"], "renamed");
    assert_eq!(f["similarity"], 96);
    assert_eq!(
        (f["additions"].as_u64(), f["deletions"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(f["fullTextKnown"], false);
    assert!(f.get("fullText").is_none());
    let h = &f["hunks"][0];
    assert_eq!(
        (h["oldStart"].as_u64(), h["newCount"].as_u64()),
        (Some(17), Some(7))
    );
    assert_eq!(h["lines"][3]["kind"], "delete");
    assert_eq!(h["lines"][3]["oldLine"], 20);
    assert!(h["lines"][3].get("newLine").is_none());
    assert_eq!(h["lines"][3]["spans"][0]["start"], 5);
    assert!(h["lines"][0].get("noNewline").is_none());
}
