//! Hostile Word files through the real `previewd preview` binary, one child process per
//! file, so each refusal's peak memory is the process's own and measured by the kernel
//! (`wait4` → `ru_maxrss`), not estimated in-process.
//!
//! The issue's bound is "under 64 MiB extra memory": extra over the same command on a
//! tiny valid document, measured in the same test on the same binary. Times are printed,
//! never asserted (no timing assertions in tests); `benches/README.md` records them:
//! `cargo test --release --test office_memory -- --nocapture`.

use std::io::{Cursor, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const MIB: usize = 1024 * 1024;
/// The issue's allowance over the baseline, in KiB (the unit of `ru_maxrss`).
const EXTRA_KIB: i64 = 64 * 1024;

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;

const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

/// A main document part wrapping `body` (the inside of `w:body`).
fn document_xml(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>{body}</w:body></w:document>"#
    )
}

/// Builds a zip in memory with the crate's own writer.
struct Zip(ZipWriter<Cursor<Vec<u8>>>);

impl Zip {
    fn new() -> Self {
        Self(ZipWriter::new(Cursor::new(Vec::new())))
    }

    fn entry(mut self, name: &str, bytes: impl AsRef<[u8]>, method: CompressionMethod) -> Self {
        let options = SimpleFileOptions::default().compression_method(method);
        self.0.start_file(name, options).unwrap();
        self.0.write_all(bytes.as_ref()).unwrap();
        self
    }

    fn file(self, name: &str, bytes: impl AsRef<[u8]>) -> Self {
        self.entry(name, bytes, CompressionMethod::Deflated)
    }

    fn stored(self, name: &str, bytes: impl AsRef<[u8]>) -> Self {
        self.entry(name, bytes, CompressionMethod::Stored)
    }

    /// A deflated entry of `len` zero bytes, written in chunks so the test itself stays
    /// small.
    fn zeros(mut self, name: &str, len: usize) -> Self {
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        self.0.start_file(name, options).unwrap();
        let chunk = vec![0u8; MIB];
        for _ in 0..len / MIB {
            self.0.write_all(&chunk).unwrap();
        }
        self.0.write_all(&chunk[..len % MIB]).unwrap();
        self
    }

    /// The package parts every Word file has, around `body`.
    fn docx(body: &str) -> Self {
        Self::new()
            .file("[Content_Types].xml", CONTENT_TYPES)
            .file("_rels/.rels", PACKAGE_RELS)
            .file("word/document.xml", document_xml(body))
    }

    fn finish(self) -> Vec<u8> {
        self.0.finish().unwrap().into_inner()
    }
}

/// Replaces every occurrence of `from` by `to` (same length): forges names and bytes the
/// writer would refuse to produce.
fn patch(mut bytes: Vec<u8>, from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let hits: Vec<usize> = bytes
        .windows(from.len())
        .enumerate()
        .filter(|(_, w)| *w == from)
        .map(|(i, _)| i)
        .collect();
    assert!(!hits.is_empty(), "pattern not found");
    for i in hits {
        bytes[i..i + to.len()].copy_from_slice(to);
    }
    bytes
}

/// Sets the uncompressed size that the local and central headers of `name` declare, so
/// only counting while inflating can catch the bomb.
fn forge_declared_size(mut bytes: Vec<u8>, name: &str, size: u32) -> Vec<u8> {
    let mut forged = 0;
    for i in 0..bytes.len().saturating_sub(46) {
        let (name_at, len_at, size_at) = match &bytes[i..i + 4] {
            b"PK\x03\x04" => (30, 26, 22),
            b"PK\x01\x02" => (46, 28, 24),
            _ => continue,
        };
        let len = u16::from_le_bytes([bytes[i + len_at], bytes[i + len_at + 1]]) as usize;
        if bytes.get(i + name_at..i + name_at + len) == Some(name.as_bytes()) {
            bytes[i + size_at..i + size_at + 4].copy_from_slice(&size.to_le_bytes());
            forged += 1;
        }
    }
    assert_eq!(forged, 2, "local and central header of {name}");
    bytes
}

/// A compound file (`D0 CF 11 E0`) with one directory entry named `stream`.
fn compound_file(stream: &str) -> Vec<u8> {
    let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    bytes.resize(4096, 0);
    let name: Vec<u8> = stream
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    bytes[1024..1024 + name.len()].copy_from_slice(&name);
    bytes[1024 + 64..1024 + 66].copy_from_slice(&((name.len() + 2) as u16).to_le_bytes());
    bytes
}

/// What one run of the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident set of the child, KiB.
    max_rss_kib: i64,
    wall: Duration,
}

/// Runs `previewd preview FILE --format json` and reaps the child with `wait4`, which
/// returns the child's own resource usage (std's `wait` would discard it).
fn preview_json(file: &Path) -> Run {
    let out_path = file.with_extension("stdout");
    let err_path = file.with_extension("stderr");
    let started = Instant::now();
    // Output goes to files, not pipes: nothing has to drain a pipe while we block in wait4.
    let child = Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(["preview", file.to_str().unwrap(), "--format", "json"])
        .env_remove("PREVIEWD_CONFIG")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data that wait4 fills in; status is a valid out pointer.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    // The child is reaped; dropping the handle neither waits nor kills.
    drop(child);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        // Killed by a signal (a panic that aborts, the OOM killer): never a valid answer.
        -libc::WTERMSIG(status)
    };
    Run {
        code,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        // Linux reports ru_maxrss in KiB.
        max_rss_kib: usage.ru_maxrss,
        wall,
    }
}

/// What a case must answer.
enum Expect {
    /// Exit 1 and `previewd: {code}: …{reason}…` on stderr.
    Refused {
        code: &'static str,
        reasons: &'static [&'static str],
    },
    /// Exit 0 with a model whose JSON contains this text.
    Renders { contains: &'static str },
}

/// A node flood: `paragraphs` empty paragraphs after an incompressible comment of `pad`
/// characters, which keeps the part under the 100:1 compression-ratio guard so that only
/// the paragraph and node caps stand between it and the parser's memory.
fn flood(paragraphs: usize, pad: usize) -> Vec<u8> {
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut x: u64 = 7;
    let noise: String = (0..pad)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            char::from(ALNUM[(x >> 33) as usize % ALNUM.len()])
        })
        .collect();
    let body = format!(
        "<!--{noise}--><w:p><w:r><w:t>hello</w:t></w:r></w:p>{}",
        "<w:p/>".repeat(paragraphs)
    );
    Zip::docx(&body).finish()
}

fn refused(code: &'static str, reasons: &'static [&'static str]) -> Expect {
    Expect::Refused { code, reasons }
}

fn hostile_cases() -> Vec<(&'static str, Vec<u8>, Expect)> {
    let billion_laughs = {
        let mut dtd = String::from("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        for i in 1..10 {
            let refs = format!("&lol{};", i - 1).repeat(10);
            dtd.push_str(&format!("<!ENTITY lol{i} \"{refs}\">"));
        }
        dtd.push_str("]><lolz>&lol9;</lolz>");
        Zip::new()
            .file("[Content_Types].xml", CONTENT_TYPES)
            .file("_rels/.rels", PACKAGE_RELS)
            .file("word/document.xml", dtd)
            .finish()
    };
    let many_entries = (0..10_001)
        .fold(Zip::docx(""), |zip, i| zip.stored(&format!("x/{i}"), b""))
        .finish();
    let valid = Zip::docx("<w:p><w:r><w:t>hello</w:t></w:r></w:p>").finish();
    let external_image = Zip::docx(concat!(
        r#"<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">"#,
        r#"<wp:extent cx="1270000" cy="635000"/><wp:docPr id="1" name="Picture 1"/>"#,
        r#"<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">"#,
        r#"<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:link="rIdExt"/></pic:blipFill></pic:pic>"#,
        r#"</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
    ))
    .file(
        "word/_rels/document.xml.rels",
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdExt" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://192.0.2.1/tracker.png" TargetMode="External"/></Relationships>"#,
    )
    .finish();

    let bomb = Zip::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .zeros("word/document.xml", 65 * MIB)
        .finish();
    assert!(bomb.len() < 200 * 1024, "the bomb is small: {}", bomb.len());
    // The same kind of bomb whose headers claim 1000 bytes: nothing can be refused up
    // front, so inflation must stop on its own counters, not after 60 MiB.
    let lying_bomb = forge_declared_size(
        Zip::new()
            .file("[Content_Types].xml", CONTENT_TYPES)
            .file("_rels/.rels", PACKAGE_RELS)
            .zeros("word/document.xml", 60 * MIB)
            .finish(),
        "word/document.xml",
        1000,
    );

    vec![
        (
            "tiny valid docx (baseline)",
            valid.clone(),
            Expect::Renders { contains: "hello" },
        ),
        (
            "zip bomb: 65 MiB part",
            bomb,
            refused(
                "corrupt",
                &["part word/document.xml inflates past the per-part limit of 64 MiB"],
            ),
        ),
        (
            "zip bomb, header claims 1000 B",
            lying_bomb,
            // The zip reader counts what it inflates against the declared size and stops
            // one chunk past it, so the lie itself is the refusal.
            refused(
                "corrupt",
                &["part word/document.xml cannot be inflated (damaged zip): File is larger than its declared uncompressed size"],
            ),
        ),
        (
            "10,004 entries",
            many_entries,
            refused(
                "corrupt",
                &["the zip lists 10004 entries, over the limit of 10000"],
            ),
        ),
        (
            "part named ../x",
            patch(
                Zip::docx("").file("zz/x", "<x/>").finish(),
                b"zz/x",
                b"../x",
            ),
            refused("corrupt", &["entry name contains a `.` or `..` segment"]),
        ),
        (
            "duplicate part names",
            patch(
                Zip::docx("")
                    .file("word/a.xml", "<a/>")
                    .file("word/b.xml", "<b/>")
                    .finish(),
                b"word/b.xml",
                b"word/a.xml",
            ),
            refused("corrupt", &["the zip lists the same entry name twice"]),
        ),
        (
            "billion-laughs DTD",
            billion_laughs,
            refused("corrupt", &["DOCTYPE"]),
        ),
        (
            "5,000 nested w:p",
            Zip::docx(&format!(
                "{}{}",
                "<w:p>".repeat(5_000),
                "</w:p>".repeat(5_000)
            ))
            .finish(),
            refused(
                "corrupt",
                &["XML in part word/document.xml is nested deeper than the limit of 256 levels"],
            ),
        ),
        (
            "truncated zip (last byte cut)",
            valid[..valid.len() - 1].to_vec(),
            refused("corrupt", &["damaged zip archive"]),
        ),
        (
            "bad CRC",
            patch(
                Zip::new()
                    .file("[Content_Types].xml", CONTENT_TYPES)
                    .file("_rels/.rels", PACKAGE_RELS)
                    .stored(
                        "word/document.xml",
                        document_xml("<w:p><w:r><w:t>checksum me</w:t></w:r></w:p>"),
                    )
                    .finish(),
                b"checksum me",
                b"checksum ME",
            ),
            refused(
                "corrupt",
                &["part word/document.xml failed its CRC check (damaged zip)"],
            ),
        ),
        (
            "encrypted (CFB EncryptedPackage)",
            compound_file("EncryptedPackage"),
            refused("encrypted", &["the document is password-protected"]),
        ),
        (
            "legacy .doc (CFB WordDocument)",
            compound_file("WordDocument"),
            refused("unsupported", &["legacy .doc/.ppt (binary Office format)"]),
        ),
        (
            "45,000 empty paragraphs (paragraph cap)",
            flood(45_000, 4_000),
            refused("corrupt", &["the document has more than 40000 paragraphs"]),
        ),
        (
            "700,000 empty paragraphs (under the node cap)",
            flood(700_000, 80_000),
            refused("corrupt", &["the document has more than 40000 paragraphs"]),
        ),
        (
            "2,100,000 empty paragraphs (node cap)",
            flood(2_100_000, 200_000),
            refused("corrupt", &["more than the limit of 750000 nodes"]),
        ),
        (
            "external image target",
            external_image,
            // Rendered as a placeholder that names the link; never fetched (the network
            // side is covered by the service tests).
            Expect::Renders {
                contains: "http://192.0.2.1/tracker.png",
            },
        ),
    ]
}

#[test]
fn hostile_docx_files_are_refused_by_the_cli_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut baseline_kib = None;
    println!("| input | file size | exit | peak RSS | extra over baseline | wall time | stderr |");
    println!("|---|---|---|---|---|---|---|");
    for (i, (name, bytes, expect)) in hostile_cases().into_iter().enumerate() {
        let file = dir.path().join(format!("case{i}.docx"));
        std::fs::write(&file, &bytes).unwrap();
        let run = preview_json(&file);
        // The first case is the tiny valid document: its peak is the baseline.
        let baseline = *baseline_kib.get_or_insert(run.max_rss_kib);
        let extra = run.max_rss_kib - baseline;
        println!(
            "| {name} | {} KiB | {} | {:.1} MiB | {:+.1} MiB | {:.1} ms | `{}` |",
            bytes.len().div_ceil(1024),
            run.code,
            run.max_rss_kib as f64 / 1024.0,
            extra as f64 / 1024.0,
            run.wall.as_secs_f64() * 1000.0,
            run.stderr.trim().chars().take(90).collect::<String>(),
        );
        match expect {
            Expect::Refused { code, reasons } => {
                if run.code != 1 {
                    failures.push(format!(
                        "{name}: exit {} (stderr {:?})",
                        run.code, run.stderr
                    ));
                }
                let prefix = format!("previewd: {code}: ");
                if !run.stderr.starts_with(&prefix) {
                    failures.push(format!("{name}: stderr {:?} lacks {prefix:?}", run.stderr));
                }
                if !reasons.iter().any(|r| run.stderr.contains(r)) {
                    failures.push(format!(
                        "{name}: stderr {:?} names none of {reasons:?}",
                        run.stderr
                    ));
                }
                if !run.stdout.is_empty() {
                    failures.push(format!("{name}: a refusal printed a model"));
                }
            }
            Expect::Renders { contains } => {
                if run.code != 0 {
                    failures.push(format!(
                        "{name}: exit {} (stderr {:?})",
                        run.code, run.stderr
                    ));
                }
                match serde_json::from_str::<serde_json::Value>(&run.stdout) {
                    Ok(model) if model["sections"].is_array() => {}
                    _ => failures.push(format!("{name}: stdout is not a document model")),
                }
                if !run.stdout.contains(contains) {
                    failures.push(format!("{name}: the model does not contain {contains:?}"));
                }
            }
        }
        if extra > EXTRA_KIB {
            failures.push(format!(
                "{name}: peak RSS {} KiB is {extra} KiB over the baseline of {baseline} KiB (limit {EXTRA_KIB} KiB)",
                run.max_rss_kib
            ));
        }
    }
    // A zero here would mean wait4 reported nothing and every bound above held vacuously.
    let baseline = baseline_kib.unwrap();
    assert!(
        baseline > 1024,
        "the baseline peak RSS of {baseline} KiB is not a real process's"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
