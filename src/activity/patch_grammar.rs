//! The `apply_patch` envelope grammar, parsed without touching any file.
//!
//! An agent's `apply_patch` call carries its whole change as one text. previewd only reads that
//! text to learn which files the call declared as added, deleted or updated, so the parser is
//! all-or-nothing: a single grammar error rejects the whole call, because a half-understood
//! patch could attribute changes to the wrong file. Path safety is *not* checked here; the
//! projection drops unsafe sections one by one after a successful parse.
//!
//! Shape (see `file-activity.md`):
//! ```text
//! [<<EOF | <<'EOF' | <<"EOF"]        optional heredoc wrapper, closed by a line ending in EOF
//! *** Begin Patch
//! *** Add File: P        + lines
//! *** Delete File: P
//! *** Update File: P     [*** Move to: Q]   chunks: [@@ | @@ text] then ' ', '-', '+', '' lines
//!                                           [*** End of File]
//! *** End Patch
//! ```

use std::fmt;

const BEGIN_PATCH: &str = "*** Begin Patch";
const END_PATCH: &str = "*** End Patch";
const ADD_FILE: &str = "*** Add File: ";
const DELETE_FILE: &str = "*** Delete File: ";
const UPDATE_FILE: &str = "*** Update File: ";
const MOVE_TO: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";
const HEREDOC_OPENERS: [&str; 3] = ["<<EOF", "<<'EOF'", "<<\"EOF\""];

/// A successfully parsed patch: its sections in the order they appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// One entry per `*** Add/Delete/Update File:` section; never empty.
    pub sections: Vec<PatchSection>,
}

/// One file section of a patch. Paths are the raw, untrusted text after the marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchSection {
    /// `*** Add File: P` followed by `+` lines.
    Add {
        /// The raw path text.
        path: String,
        /// The added lines, each terminated by `\n` (empty when the section has no lines).
        contents: String,
        /// 1-based line of the section header in the original input.
        line: usize,
    },
    /// `*** Delete File: P`.
    Delete {
        /// The raw path text.
        path: String,
        /// 1-based line of the section header in the original input.
        line: usize,
    },
    /// `*** Update File: P`, optionally moved, with at least one chunk.
    Update {
        /// The raw source path text.
        path: String,
        /// The raw destination of an immediate `*** Move to: Q`.
        move_to: Option<String>,
        /// The chunks in order; never empty.
        chunks: Vec<UpdateChunk>,
        /// 1-based line of the section header in the original input.
        line: usize,
    },
}

/// One hunk of an update section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateChunk {
    /// The text after `@@ ` (a locator line), if the chunk had one.
    pub context: Option<String>,
    /// Context and removed lines, in order: the text the chunk expects to find.
    pub old_lines: Vec<String>,
    /// Context and added lines, in order: the text the chunk leaves behind.
    pub new_lines: Vec<String>,
    /// Whether the chunk was closed by `*** End of File`.
    pub end_of_file: bool,
}

impl UpdateChunk {
    /// The chunk's old side as one text (lines joined by `\n`, no trailing newline).
    pub fn old_text(&self) -> String {
        self.old_lines.join("\n")
    }

    /// The chunk's new side as one text (lines joined by `\n`, no trailing newline).
    pub fn new_text(&self) -> String {
        self.new_lines.join("\n")
    }
}

/// Why a patch text was rejected, with the 1-based line of the original input where it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchError {
    /// 1-based line number in the text as given (leading blank lines included).
    pub line: usize,
    /// What was wrong at that line.
    pub kind: PatchErrorKind,
}

/// The grammar rule a patch broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchErrorKind {
    /// The text is empty or only whitespace.
    Empty,
    /// The first line (after an optional heredoc wrapper) is not `*** Begin Patch`.
    MissingBeginPatch,
    /// The last line (before an optional heredoc closer) is not `*** End Patch`.
    MissingEndPatch,
    /// `*** Begin Patch` and `*** End Patch` enclose no file section.
    NoSections,
    /// A line where a section header must be is not `*** Add/Delete/Update File: P`.
    InvalidSectionHeader,
    /// An update section has no chunk.
    EmptyUpdate,
    /// A chunk after the first does not start with `@@` or `@@ text`.
    MissingChunkHeader,
    /// `*** End of File` is the first line of a chunk.
    EndOfFileFirst,
    /// A chunk's first line is neither context, removal, addition nor an empty line.
    UnexpectedLine,
    /// An `@@` header with no chunk lines after it.
    EmptyChunk,
}

impl PatchErrorKind {
    fn describe(self) -> &'static str {
        match self {
            PatchErrorKind::Empty => "the patch is empty",
            PatchErrorKind::MissingBeginPatch => "expected `*** Begin Patch` as the first line",
            PatchErrorKind::MissingEndPatch => "expected `*** End Patch` as the last line",
            PatchErrorKind::NoSections => "the patch has no file section",
            PatchErrorKind::InvalidSectionHeader => {
                "expected `*** Add File: `, `*** Delete File: ` or `*** Update File: `"
            }
            PatchErrorKind::EmptyUpdate => "the update section has no chunk",
            PatchErrorKind::MissingChunkHeader => "a chunk after the first must start with `@@`",
            PatchErrorKind::EndOfFileFirst => "`*** End of File` cannot be a chunk's first line",
            PatchErrorKind::UnexpectedLine => {
                "a chunk line must start with ' ', '-' or '+', or be empty"
            }
            PatchErrorKind::EmptyChunk => "the chunk has no lines",
        }
    }
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind.describe())
    }
}

impl std::error::Error for PatchError {}

/// The lines being parsed, each with its 1-based number in the original input.
struct Lines<'a> {
    lines: Vec<(usize, &'a str)>,
    pos: usize,
}

impl<'a> Lines<'a> {
    fn peek(&self) -> Option<(usize, &'a str)> {
        self.lines.get(self.pos).copied()
    }

    fn advance(&mut self) {
        self.pos += 1;
    }
}

/// Parses an `apply_patch` text. Any grammar error rejects the whole text.
pub fn parse_patch(input: &str) -> Result<Patch, PatchError> {
    let trimmed = input.trim();
    // Line numbers refer to the text as given, so count the newlines the trim removed.
    let leading = input.len() - input.trim_start().len();
    let first_line_number = 1 + input
        .get(..leading)
        .map_or(0, |prefix| prefix.matches('\n').count());
    if trimmed.is_empty() {
        return Err(PatchError {
            line: 1,
            kind: PatchErrorKind::Empty,
        });
    }
    let mut numbered: Vec<(usize, &str)> = trimmed
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .map(|(index, line)| (first_line_number + index, line))
        .collect();

    let wrapped = numbered.len() >= 2
        && numbered
            .first()
            .is_some_and(|(_, first)| HEREDOC_OPENERS.contains(first))
        && numbered
            .last()
            .is_some_and(|(_, last)| last.ends_with("EOF"));
    if wrapped {
        numbered.pop();
        numbered.remove(0);
    }

    let Some(&(begin_line, begin)) = numbered.first() else {
        // Only a wrapper was given: the missing Begin is reported where the body should start.
        return Err(PatchError {
            line: first_line_number + 1,
            kind: PatchErrorKind::MissingBeginPatch,
        });
    };
    if begin.trim() != BEGIN_PATCH {
        return Err(PatchError {
            line: begin_line,
            kind: PatchErrorKind::MissingBeginPatch,
        });
    }
    // A single line is both first and last, so it cannot also be the End line.
    let (end, last) = numbered.last().copied().unwrap_or((begin_line, begin));
    if numbered.len() < 2 || last.trim() != END_PATCH {
        return Err(PatchError {
            line: end,
            kind: PatchErrorKind::MissingEndPatch,
        });
    }

    let body = numbered
        .get(1..numbered.len().saturating_sub(1))
        .unwrap_or_default()
        .to_vec();
    let mut lines = Lines {
        lines: body,
        pos: 0,
    };
    let mut sections = Vec::new();
    while let Some((line_number, raw)) = lines.peek() {
        lines.advance();
        let header = raw.trim();
        if let Some(path) = header.strip_prefix(ADD_FILE) {
            let contents = parse_add_lines(&mut lines);
            sections.push(PatchSection::Add {
                path: path.trim().to_string(),
                contents,
                line: line_number,
            });
        } else if let Some(path) = header.strip_prefix(DELETE_FILE) {
            sections.push(PatchSection::Delete {
                path: path.trim().to_string(),
                line: line_number,
            });
        } else if let Some(path) = header.strip_prefix(UPDATE_FILE) {
            let move_to = match lines.peek() {
                Some((_, next)) => next
                    .trim()
                    .strip_prefix(MOVE_TO)
                    .map(|dest| dest.trim().to_string()),
                None => None,
            };
            if move_to.is_some() {
                lines.advance();
            }
            let chunks = parse_update_chunks(&mut lines, line_number)?;
            sections.push(PatchSection::Update {
                path: path.trim().to_string(),
                move_to,
                chunks,
                line: line_number,
            });
        } else {
            return Err(PatchError {
                line: line_number,
                kind: PatchErrorKind::InvalidSectionHeader,
            });
        }
    }
    if sections.is_empty() {
        return Err(PatchError {
            line: end,
            kind: PatchErrorKind::NoSections,
        });
    }
    Ok(Patch { sections })
}

/// Collects the `+` lines of an add section; the first other line ends it.
fn parse_add_lines(lines: &mut Lines<'_>) -> String {
    let mut contents = String::new();
    while let Some((_, raw)) = lines.peek() {
        let Some(added) = raw.strip_prefix('+') else {
            break;
        };
        contents.push_str(added);
        contents.push('\n');
        lines.advance();
    }
    contents
}

/// Parses the chunks of an update section up to the next `***` line or the end of the body.
fn parse_update_chunks(
    lines: &mut Lines<'_>,
    header_line: usize,
) -> Result<Vec<UpdateChunk>, PatchError> {
    let mut chunks = Vec::new();
    while let Some((line_number, raw)) = lines.peek() {
        if raw.trim().is_empty() {
            lines.advance();
            continue;
        }
        if raw.trim_end() == END_OF_FILE {
            return Err(PatchError {
                line: line_number,
                kind: PatchErrorKind::EndOfFileFirst,
            });
        }
        if raw.starts_with("***") {
            break;
        }
        let context = if raw == "@@" {
            Some(None)
        } else {
            raw.strip_prefix("@@ ").map(|text| Some(text.to_string()))
        };
        let context = match context {
            Some(context) => {
                lines.advance();
                context
            }
            None if chunks.is_empty() => None,
            None => {
                return Err(PatchError {
                    line: line_number,
                    kind: PatchErrorKind::MissingChunkHeader,
                })
            }
        };
        chunks.push(parse_chunk_lines(lines, context, line_number)?);
    }
    if chunks.is_empty() {
        return Err(PatchError {
            line: header_line,
            kind: PatchErrorKind::EmptyUpdate,
        });
    }
    Ok(chunks)
}

/// Parses one chunk's lines after its optional `@@` header.
fn parse_chunk_lines(
    lines: &mut Lines<'_>,
    context: Option<String>,
    chunk_line: usize,
) -> Result<UpdateChunk, PatchError> {
    let mut chunk = UpdateChunk {
        context,
        old_lines: Vec::new(),
        new_lines: Vec::new(),
        end_of_file: false,
    };
    let mut parsed = 0usize;
    while let Some((line_number, raw)) = lines.peek() {
        if raw.trim_end() == END_OF_FILE {
            if parsed == 0 {
                return Err(PatchError {
                    line: line_number,
                    kind: PatchErrorKind::EndOfFileFirst,
                });
            }
            chunk.end_of_file = true;
            lines.advance();
            break;
        }
        if raw.is_empty() {
            chunk.old_lines.push(String::new());
            chunk.new_lines.push(String::new());
        } else if let Some(text) = raw.strip_prefix(' ') {
            chunk.old_lines.push(text.to_string());
            chunk.new_lines.push(text.to_string());
        } else if let Some(text) = raw.strip_prefix('-') {
            chunk.old_lines.push(text.to_string());
        } else if let Some(text) = raw.strip_prefix('+') {
            chunk.new_lines.push(text.to_string());
        } else if parsed == 0 {
            // A header line right after `@@` means the chunk is empty; anything else is stray.
            let error = if raw.starts_with("***") {
                PatchError {
                    line: chunk_line,
                    kind: PatchErrorKind::EmptyChunk,
                }
            } else {
                PatchError {
                    line: line_number,
                    kind: PatchErrorKind::UnexpectedLine,
                }
            };
            return Err(error);
        } else {
            break;
        }
        parsed += 1;
        lines.advance();
    }
    if parsed == 0 {
        return Err(PatchError {
            line: chunk_line,
            kind: PatchErrorKind::EmptyChunk,
        });
    }
    Ok(chunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sections(text: &str) -> Vec<PatchSection> {
        match parse_patch(text) {
            Ok(patch) => patch.sections,
            Err(err) => panic!("expected a valid patch, got {err} for {text:?}"),
        }
    }

    fn error(text: &str) -> (usize, PatchErrorKind) {
        match parse_patch(text) {
            Ok(patch) => panic!("expected an error, got {patch:?} for {text:?}"),
            Err(err) => (err.line, err.kind),
        }
    }

    fn update(old: &[&str], new: &[&str]) -> UpdateChunk {
        UpdateChunk {
            context: None,
            old_lines: old.iter().map(|s| s.to_string()).collect(),
            new_lines: new.iter().map(|s| s.to_string()).collect(),
            end_of_file: false,
        }
    }

    #[test]
    fn valid_patches_table() {
        let add_ab = vec![PatchSection::Add {
            path: "a.txt".into(),
            contents: "a\nb\n".into(),
            line: 2,
        }];
        let cases: Vec<(&str, &str, Vec<PatchSection>)> = vec![
            (
                "plain add",
                "*** Begin Patch\n*** Add File: a.txt\n+a\n+b\n*** End Patch",
                add_ab.clone(),
            ),
            (
                "CRLF line endings",
                "*** Begin Patch\r\n*** Add File: a.txt\r\n+a\r\n+b\r\n*** End Patch\r\n",
                add_ab.clone(),
            ),
            (
                "surrounding whitespace trimmed",
                "  \n*** Begin Patch  \n*** Add File: a.txt\n+a\n+b\n  *** End Patch\n\n",
                vec![PatchSection::Add {
                    path: "a.txt".into(),
                    contents: "a\nb\n".into(),
                    line: 3,
                }],
            ),
            (
                "heredoc <<EOF",
                "<<EOF\n*** Begin Patch\n*** Add File: a.txt\n+a\n+b\n*** End Patch\nEOF",
                vec![PatchSection::Add {
                    path: "a.txt".into(),
                    contents: "a\nb\n".into(),
                    line: 3,
                }],
            ),
            (
                "heredoc <<'EOF'",
                "<<'EOF'\n*** Begin Patch\n*** Delete File: d\n*** End Patch\nEOF",
                vec![PatchSection::Delete {
                    path: "d".into(),
                    line: 3,
                }],
            ),
            (
                "heredoc <<\"EOF\" closed by a line ending in EOF",
                "<<\"EOF\"\n*** Begin Patch\n*** Delete File: d\n*** End Patch\n'EOF",
                vec![PatchSection::Delete {
                    path: "d".into(),
                    line: 3,
                }],
            ),
            (
                "add with no lines is an empty file",
                "*** Begin Patch\n*** Add File: e\n*** End Patch",
                vec![PatchSection::Add {
                    path: "e".into(),
                    contents: String::new(),
                    line: 2,
                }],
            ),
            (
                "update: first chunk without @@, context/remove/add/empty lines",
                "*** Begin Patch\n*** Update File: u\n ctx\n-old\n+new\n\n*** End Patch",
                vec![PatchSection::Update {
                    path: "u".into(),
                    move_to: None,
                    chunks: vec![update(&["ctx", "old", ""], &["ctx", "new", ""])],
                    line: 2,
                }],
            ),
            (
                "update with move and two chunks, @@ text locator, blank lines between",
                "*** Begin Patch\n*** Update File: a\n*** Move to: b\n\n@@ fn x\n-1\n+2\n*** End of File\n \t\n@@\n-3\n+4\n*** End Patch",
                vec![PatchSection::Update {
                    path: "a".into(),
                    move_to: Some("b".into()),
                    chunks: vec![
                        UpdateChunk {
                            context: Some("fn x".into()),
                            end_of_file: true,
                            ..update(&["1"], &["2"])
                        },
                        update(&["3"], &["4"]),
                    ],
                    line: 2,
                }],
            ),
            (
                "End of File closes a chunk and is not content",
                "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End of File\n@@\n-z\n*** End Patch",
                vec![PatchSection::Update {
                    path: "a".into(),
                    move_to: None,
                    chunks: vec![
                        UpdateChunk {
                            end_of_file: true,
                            ..update(&["x"], &["y"])
                        },
                        update(&["z"], &[]),
                    ],
                    line: 2,
                }],
            ),
            (
                "a *** line ends the update section",
                "*** Begin Patch\n*** Update File: a\n-x\n*** Delete File: b\n*** End Patch",
                vec![
                    PatchSection::Update {
                        path: "a".into(),
                        move_to: None,
                        chunks: vec![update(&["x"], &[])],
                        line: 2,
                    },
                    PatchSection::Delete {
                        path: "b".into(),
                        line: 4,
                    },
                ],
            ),
            (
                "a stray line after parsed chunk lines ends the chunk, then @@ opens the next",
                "*** Begin Patch\n*** Update File: a\n-x\n@@ two\n+y\n*** End Patch",
                vec![PatchSection::Update {
                    path: "a".into(),
                    move_to: None,
                    chunks: vec![
                        update(&["x"], &[]),
                        UpdateChunk {
                            context: Some("two".into()),
                            ..update(&[], &["y"])
                        },
                    ],
                    line: 2,
                }],
            ),
            (
                "multi-byte text is kept whole",
                "*** Begin Patch\n*** Add File: ü/ß.txt\n+✓ ünï\n*** End Patch",
                vec![PatchSection::Add {
                    path: "ü/ß.txt".into(),
                    contents: "✓ ünï\n".into(),
                    line: 2,
                }],
            ),
        ];
        for (name, text, expected) in cases {
            assert_eq!(sections(text), expected, "case: {name}");
        }
    }

    #[test]
    fn invalid_patches_table() {
        use PatchErrorKind::*;
        let cases: Vec<(&str, &str, usize, PatchErrorKind)> = vec![
            ("empty", " \n\t", 1, Empty),
            ("no begin", "*** Add File: a\n+x\n*** End Patch", 1, MissingBeginPatch),
            ("no end", "*** Begin Patch\n*** Add File: a\n+x", 3, MissingEndPatch),
            ("begin only", "*** Begin Patch", 1, MissingEndPatch),
            ("zero sections", "*** Begin Patch\n*** End Patch", 2, NoSections),
            (
                "wrapper opener not exact",
                "<<EOF \n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
                1,
                MissingBeginPatch,
            ),
            (
                "wrapper without closer",
                "<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch",
                1,
                MissingBeginPatch,
            ),
            ("wrapper only", "<<EOF\nEOF", 2, MissingBeginPatch),
            (
                "CRLF with zero sections keeps line numbers",
                "\r\n*** Begin Patch\r\n*** End Patch\r\n",
                3,
                NoSections,
            ),
            (
                "unknown section header",
                "*** Begin Patch\n*** Rename File: a\n*** End Patch",
                2,
                InvalidSectionHeader,
            ),
            (
                "stray line at section level",
                "*** Begin Patch\n*** Add File: a\n+x\nstray\n*** End Patch",
                4,
                InvalidSectionHeader,
            ),
            (
                "blank line between sections",
                "*** Begin Patch\n*** Delete File: a\n\n*** Delete File: b\n*** End Patch",
                3,
                InvalidSectionHeader,
            ),
            (
                "delete takes no lines",
                "*** Begin Patch\n*** Delete File: a\n+x\n*** End Patch",
                3,
                InvalidSectionHeader,
            ),
            (
                "move to not right after update",
                "*** Begin Patch\n*** Delete File: a\n*** Move to: b\n*** End Patch",
                3,
                InvalidSectionHeader,
            ),
            (
                "header without space after colon",
                "*** Begin Patch\n*** Add File:a\n*** End Patch",
                2,
                InvalidSectionHeader,
            ),
            (
                "empty update",
                "*** Begin Patch\n*** Update File: a\n*** End Patch",
                2,
                EmptyUpdate,
            ),
            (
                "empty update with move",
                "*** Begin Patch\n*** Update File: a\n*** Move to: b\n\n*** End Patch",
                2,
                EmptyUpdate,
            ),
            (
                "missing @@ on a second chunk",
                "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n-y\n*** End Patch",
                6,
                MissingChunkHeader,
            ),
            (
                "stray line after a chunk",
                "*** Begin Patch\n*** Update File: a\n-x\nstray\n*** End Patch",
                4,
                MissingChunkHeader,
            ),
            (
                "End of File first in a chunk",
                "*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch",
                4,
                EndOfFileFirst,
            ),
            (
                "End of File first without @@",
                "*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch",
                3,
                EndOfFileFirst,
            ),
            (
                "stray line first in the first chunk",
                "*** Begin Patch\n*** Update File: a\nstray\n*** End Patch",
                3,
                UnexpectedLine,
            ),
            (
                "stray line first after @@",
                "*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch",
                4,
                UnexpectedLine,
            ),
            (
                "empty chunk at the end of the body",
                "*** Begin Patch\n*** Update File: a\n-x\n@@\n*** End Patch",
                4,
                EmptyChunk,
            ),
            (
                "empty chunk before another section",
                "*** Begin Patch\n*** Update File: a\n@@\n*** Delete File: b\n*** End Patch",
                3,
                EmptyChunk,
            ),
            (
                "End Patch in the middle",
                "*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Delete File: b\n*** End Patch",
                3,
                InvalidSectionHeader,
            ),
        ];
        for (name, text, line, kind) in cases {
            assert_eq!(error(text), (line, kind), "case: {name}");
        }
    }

    #[test]
    fn one_bad_section_rejects_the_whole_patch() {
        let text =
            "*** Begin Patch\n*** Add File: good.txt\n+ok\n*** Update File: b\n@@\n*** End Patch";
        assert_eq!(error(text), (5, PatchErrorKind::EmptyChunk));
    }

    #[test]
    fn chunk_texts_join_lines_without_trailing_newline() {
        let chunk = update(&["a", "b"], &["a", "c", ""]);
        assert_eq!(chunk.old_text(), "a\nb");
        assert_eq!(chunk.new_text(), "a\nc\n");
    }

    /// Lines built from the grammar's own tokens, so random patches reach deep rules.
    fn patch_like() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let token = prop_oneof![
            Just("*** Begin Patch".to_string()),
            Just("*** End Patch".to_string()),
            Just("*** Add File: a".to_string()),
            Just("*** Delete File: ../b".to_string()),
            Just("*** Update File: c".to_string()),
            Just("*** Move to: d".to_string()),
            Just("*** End of File".to_string()),
            Just("@@".to_string()),
            Just("@@ ctx".to_string()),
            Just("<<EOF".to_string()),
            Just("EOF".to_string()),
            "[ +\\-]?[a-zé✓\\r]{0,3}",
        ];
        proptest::collection::vec(token, 0..14).prop_map(|lines| lines.join("\n"))
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_accepts_only_well_formed(text in patch_like()) {
            if let Ok(patch) = parse_patch(&text) {
                proptest::prop_assert!(!patch.sections.is_empty());
                let trimmed = text.trim();
                proptest::prop_assert!(trimmed.contains(BEGIN_PATCH) && trimmed.contains(END_PATCH));
                for section in &patch.sections {
                    if let PatchSection::Update { chunks, .. } = section {
                        proptest::prop_assert!(!chunks.is_empty());
                        for chunk in chunks {
                            proptest::prop_assert!(!chunk.old_lines.is_empty() || !chunk.new_lines.is_empty());
                        }
                    }
                }
            }
        }

        #[test]
        fn never_panics_on_any_text(text in "\\PC{0,200}") {
            let _ = parse_patch(&text);
        }
    }

    #[test]
    fn error_message_names_the_line() {
        let err = parse_patch("*** Begin Patch\n*** End Patch").unwrap_err();
        assert_eq!(err.to_string(), "line 2: the patch has no file section");
    }
}
