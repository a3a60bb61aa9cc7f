//! [`DiffModel`] → git-style unified patch text, the inverse of `patch::parse_patch`.
//!
//! Used by the property test (diff, render, parse back, compare) and handy for a CLI that
//! wants to print a before/after diff as a patch. Names that git would quote are quoted the
//! same way, so the output round-trips through both git and our parser.

use std::fmt::Write;

use super::model::{DiffModel, FileDiff, FileStatus, Hunk, LineKind};

pub(crate) fn render(model: &DiffModel) -> String {
    let mut out = String::new();
    for file in &model.files {
        render_file(&mut out, file);
    }
    out
}

fn render_file(out: &mut String, file: &FileDiff) {
    let old = file
        .old_path
        .as_deref()
        .or(file.new_path.as_deref())
        .unwrap_or("file");
    let new = file
        .new_path
        .as_deref()
        .or(file.old_path.as_deref())
        .unwrap_or("file");
    let _ = writeln!(
        out,
        "diff --git {} {}",
        quote(&format!("a/{old}")),
        quote(&format!("b/{new}"))
    );
    // Without hunks nothing but this line says the file was added or deleted, so a mode
    // is made up (100644) when the model has none; with hunks `/dev/null` says it.
    let needs_marker = file.hunks.is_empty() || file.is_binary;
    match file.status {
        FileStatus::Added => {
            if let Some(mode) = file
                .new_mode
                .as_deref()
                .or(needs_marker.then_some("100644"))
            {
                let _ = writeln!(out, "new file mode {mode}");
            }
        }
        FileStatus::Deleted => {
            if let Some(mode) = file
                .old_mode
                .as_deref()
                .or(needs_marker.then_some("100644"))
            {
                let _ = writeln!(out, "deleted file mode {mode}");
            }
        }
        _ => {
            if let (Some(a), Some(b)) = (&file.old_mode, &file.new_mode) {
                if a != b {
                    let _ = writeln!(out, "old mode {a}\nnew mode {b}");
                }
            }
        }
    }
    if matches!(file.status, FileStatus::Renamed | FileStatus::Copied) {
        if let Some(similarity) = file.similarity {
            let _ = writeln!(out, "similarity index {similarity}%");
        }
        let verb = if file.status == FileStatus::Renamed {
            "rename"
        } else {
            "copy"
        };
        let _ = writeln!(out, "{verb} from {}\n{verb} to {}", quote(old), quote(new));
    }
    let minus = match file.status {
        FileStatus::Added => "/dev/null".to_string(),
        _ => quote(&format!("a/{old}")),
    };
    let plus = match file.status {
        FileStatus::Deleted => "/dev/null".to_string(),
        _ => quote(&format!("b/{new}")),
    };
    if file.is_binary {
        let _ = writeln!(out, "Binary files {minus} and {plus} differ");
        return;
    }
    if file.hunks.is_empty() {
        return;
    }
    // Git ends a name holding a space with a tab, so `diff -u` style readers can tell
    // where the name stops.
    let tab = |name: &str| if name.contains(' ') { "\t" } else { "" };
    let _ = writeln!(out, "--- {minus}{}", tab(&minus));
    let _ = writeln!(out, "+++ {plus}{}", tab(&plus));
    for hunk in &file.hunks {
        render_hunk(out, hunk);
    }
}

fn render_hunk(out: &mut String, hunk: &Hunk) {
    let range = |start: usize, count: usize| {
        if count == 1 {
            start.to_string()
        } else {
            format!("{start},{count}")
        }
    };
    let _ = write!(
        out,
        "@@ -{} +{} @@",
        range(hunk.old_start, hunk.old_count),
        range(hunk.new_start, hunk.new_count)
    );
    if !hunk.section.is_empty() {
        let _ = write!(out, " {}", hunk.section);
    }
    out.push('\n');
    for line in &hunk.lines {
        out.push(match line.kind {
            LineKind::Context => ' ',
            LineKind::Add => '+',
            LineKind::Delete => '-',
        });
        out.push_str(&line.text);
        out.push('\n');
        if line.no_newline {
            out.push_str("\\ No newline at end of file\n");
        }
    }
}

/// Quotes a name the way git does when it holds a quote, a backslash, a control character
/// or non-ASCII bytes (octal escapes); otherwise returns it unchanged.
fn quote(name: &str) -> String {
    let needs = name
        .bytes()
        .any(|b| b == b'"' || b == b'\\' || b < 0x20 || b == 0x7f || b >= 0x80);
    if !needs {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for b in name.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}
