//! What kind of file a path names, decided by its extension (and, for text kinds, by a NUL
//! byte in the first 8 KiB, which makes it `binary`).

use serde::Serialize;

use crate::config::Limits;

/// The detected kind of a workspace file; decides the size limit and the views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// `.html`, `.htm`.
    Html,
    /// `.md`, `.markdown`.
    Markdown,
    /// Source code or configuration with a known syntax.
    Source,
    /// Plain text without a syntax.
    Text,
    /// A raster image or SVG.
    Image,
    /// A Word document (`.docx`, `.docm`).
    Docx,
    /// A PowerPoint deck (`.pptx`, `.pptm`).
    Pptx,
    /// An Excel workbook (`.xlsx`, `.xlsm`).
    Xlsx,
    /// A CSV or TSV table (`.csv`, `.tsv`). Not a text kind: UTF-16 tables hold NUL bytes.
    Csv,
    /// A PDF document (`.pdf`).
    Pdf,
    /// A text-kind file whose first 8 KiB hold a NUL byte.
    Binary,
    /// Anything else: metadata only.
    Other,
}

/// How many leading bytes are inspected for a NUL byte.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs",
    "py",
    "pyi",
    "js",
    "mjs",
    "cjs",
    "jsx",
    "ts",
    "tsx",
    "mts",
    "cts",
    "go",
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hpp",
    "hh",
    "hxx",
    "java",
    "kt",
    "kts",
    "scala",
    "swift",
    "m",
    "mm",
    "cs",
    "fs",
    "rb",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "jl",
    "dart",
    "zig",
    "nim",
    "ex",
    "exs",
    "erl",
    "hrl",
    "hs",
    "ml",
    "mli",
    "clj",
    "cljs",
    "lisp",
    "el",
    "scm",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "sql",
    "css",
    "scss",
    "sass",
    "less",
    "vue",
    "svelte",
    "json",
    "jsonc",
    "json5",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "xml",
    "xsl",
    "xsd",
    "plist",
    "gradle",
    "cmake",
    "mk",
    "make",
    "dockerfile",
    "tf",
    "hcl",
    "proto",
    "graphql",
    "gql",
    "tex",
    "bib",
    "diff",
    "patch",
    "d",
    "pas",
    "f90",
    "f",
    "for",
    "ada",
    "adb",
    "ads",
    "v",
    "sv",
    "vhd",
    "vhdl",
    "groovy",
    "rst",
    "adoc",
    "csv",
    "tsv",
    "properties",
    "env",
    "lock",
    "svelte",
    "astro",
];

const TEXT_EXTENSIONS: &[&str] = &["txt", "text", "log", "out", "err"];

const SOURCE_FILE_NAMES: &[&str] = &[
    "makefile",
    "dockerfile",
    "containerfile",
    "gemfile",
    "rakefile",
    "cmakelists.txt",
    "justfile",
    "procfile",
    "vagrantfile",
    ".gitignore",
    ".gitattributes",
    ".editorconfig",
    ".dockerignore",
    ".env",
    ".bashrc",
    ".zshrc",
    ".profile",
];

const TEXT_FILE_NAMES: &[&str] = &[
    "license",
    "licence",
    "copying",
    "readme",
    "authors",
    "contributors",
    "notice",
    "changelog",
    "todo",
];

const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "bmp", "svg"];

impl FileKind {
    /// Detects the kind from a file name (its extension, or a few well-known names).
    pub fn from_file_name(name: &str) -> FileKind {
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        match ext {
            "html" | "htm" => return FileKind::Html,
            "md" | "markdown" => return FileKind::Markdown,
            "docx" | "docm" => return FileKind::Docx,
            "pptx" | "pptm" => return FileKind::Pptx,
            "xlsx" | "xlsm" => return FileKind::Xlsx,
            "csv" | "tsv" => return FileKind::Csv,
            "pdf" => return FileKind::Pdf,
            _ => {}
        }
        if IMAGE_EXTENSIONS.contains(&ext) {
            FileKind::Image
        } else if SOURCE_FILE_NAMES.contains(&lower.as_str()) || SOURCE_EXTENSIONS.contains(&ext) {
            FileKind::Source
        } else if TEXT_EXTENSIONS.contains(&ext) || TEXT_FILE_NAMES.contains(&lower.as_str()) {
            FileKind::Text
        } else {
            FileKind::Other
        }
    }

    /// Whether this kind is shown as text (and so subject to binary sniffing).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            FileKind::Html | FileKind::Markdown | FileKind::Source | FileKind::Text
        )
    }

    /// Whether the bytes of this kind are kept after the read (`Other` and `Binary` are only
    /// hashed).
    pub fn keeps_bytes(self) -> bool {
        !matches!(self, FileKind::Other | FileKind::Binary)
    }

    /// The size limit for this kind.
    pub fn limit(self, limits: &Limits) -> u64 {
        match self {
            FileKind::Html | FileKind::Markdown | FileKind::Source | FileKind::Text => {
                limits.text_bytes
            }
            FileKind::Docx | FileKind::Pptx | FileKind::Xlsx => limits.office_bytes,
            FileKind::Csv => limits.csv_bytes,
            FileKind::Pdf => limits.pdf_bytes,
            FileKind::Image => limits.image_bytes,
            FileKind::Binary | FileKind::Other => limits.other_hash_bytes,
        }
    }

    /// The lower-case name used in JSON and URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Html => "html",
            FileKind::Markdown => "markdown",
            FileKind::Source => "source",
            FileKind::Text => "text",
            FileKind::Image => "image",
            FileKind::Docx => "docx",
            FileKind::Pptx => "pptx",
            FileKind::Xlsx => "xlsx",
            FileKind::Csv => "csv",
            FileKind::Pdf => "pdf",
            FileKind::Binary => "binary",
            FileKind::Other => "other",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            FileKind::Html => "HTML",
            FileKind::Markdown => "Markdown",
            FileKind::Source => "Source",
            FileKind::Text => "Text",
            FileKind::Image => "Image",
            FileKind::Docx => "Word document",
            FileKind::Pptx => "PowerPoint deck",
            FileKind::Xlsx => "Excel workbook",
            FileKind::Csv => "CSV table",
            FileKind::Pdf => "PDF document",
            FileKind::Binary => "Binary",
            FileKind::Other => "File",
        }
    }
}

/// Whether `bytes` look binary: a NUL byte within the first [`BINARY_SNIFF_BYTES`].
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_decide() {
        assert_eq!(FileKind::from_file_name("a.HTML"), FileKind::Html);
        assert_eq!(FileKind::from_file_name("a.htm"), FileKind::Html);
        assert_eq!(FileKind::from_file_name("README.md"), FileKind::Markdown);
        assert_eq!(FileKind::from_file_name("x.docm"), FileKind::Docx);
        assert_eq!(FileKind::from_file_name("x.pptx"), FileKind::Pptx);
        assert_eq!(FileKind::from_file_name("x.XLSM"), FileKind::Xlsx);
        assert_eq!(FileKind::from_file_name("x.tsv"), FileKind::Csv);
        assert_eq!(FileKind::from_file_name("Report.PDF"), FileKind::Pdf);
        assert_eq!(FileKind::from_file_name("x.svg"), FileKind::Image);
        assert_eq!(FileKind::from_file_name("main.rs"), FileKind::Source);
        assert_eq!(FileKind::from_file_name("Makefile"), FileKind::Source);
        assert_eq!(FileKind::from_file_name("LICENSE"), FileKind::Text);
        assert_eq!(FileKind::from_file_name("notes.txt"), FileKind::Text);
        assert_eq!(FileKind::from_file_name("blob.bin"), FileKind::Other);
        assert_eq!(FileKind::from_file_name("noext"), FileKind::Other);
    }

    #[test]
    fn nul_in_the_first_8k_is_binary() {
        assert!(looks_binary(b"abc\0def"));
        assert!(!looks_binary(b"plain text"));
        let mut late = vec![b'a'; BINARY_SNIFF_BYTES];
        late.push(0);
        assert!(!looks_binary(&late));
    }
}
