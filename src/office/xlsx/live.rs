//! A large workbook read in the background, so its first screen does not wait for the
//! whole sheet: the XLSX side of [`crate::csv::live`], on the same [`LiveTable`].
//!
//! A zip is read from its end (the central directory), so the file itself is read whole
//! first (bounded by the kind's size limit, hashed as for any read); what is streamed is
//! the inflation and parse of its parts. The parse is the whole one ([`parse_into`]) with a
//! [`Build`] that keeps the workbook in the live table's lock: the workbook part, theme and
//! styles as trees, then the shared strings, then the sheets in tab order. The first
//! visible worksheet is shown as it is read: its part is inflated as a stream, and every
//! [`BATCH_EVENTS`] XML events the sheet read so far is put in the table and the lock is
//! handed over fairly to the readers waiting for it (a row block, the meta), so the POST
//! answers once its first rows are in and `grid/meta.json` says `rowsKnown` and
//! `complete` as for a CSV table. The other sheets are listed once read whole.
//!
//! # Shared strings come first, bounded
//!
//! A cell of the first row may name any entry of the shared-string table, so the table is
//! read before any row is shown. It is streamed from the inflater (never inflated whole)
//! under the package guard: its part's inflated size stops at `office.max_part_bytes` and
//! the compression-ratio cap, its entries at `office.max_shared_strings` (past it the
//! workbook is refused, as when read whole) and each string at `office.max_cell_bytes`.
//! A POST waits for it and the first rows at most `work.deadline_ms`, as long as a whole
//! parse may take (so a table past a limit is refused by the POST, as when read whole);
//! past that it answers, and the grid shows the rows once they come. Readers are let in
//! between the table's batches too.
//!
//! # Limits
//!
//! Every guard of a whole parse holds, since it is the same parse. What differs is when a
//! part fails after the first rows were shown (malformed XML, or a cap, deep in the sheet):
//! the rows before stay, with a warning that the workbook could not be read to its end,
//! where a whole parse refuses the file.

use std::fs::File;
use std::io::Read;
use std::sync::{Arc, Weak};

use parking_lot::RwLockWriteGuard;
use sha2::{Digest, Sha256};

use super::model::{Sheet, Visibility, Workbook};
use super::parse::{parse_into, Build, SheetReader};
use super::stream::{self, Ev};
use crate::csv::live::{LiveTable, Loaded, Outcome};
use crate::error::Error;
use crate::office::{OfficeLimits, OfficePackage, OfficeResult};
use crate::preview::office::office_error;

/// XML events read between two hand-overs of the table's lock (a few hundred rows).
pub const BATCH_EVENTS: u32 = 4096;

/// Starts reading the workbook `file` (opened by the door; `size` from its `fstat`, at
/// most `limit` bytes accepted) on a thread of its own; `None` when enough tables are
/// loading already (the caller then reads it whole).
pub fn start(
    file: File,
    size: u64,
    limit: u64,
    name: &str,
    limits: &OfficeLimits,
) -> Option<Arc<LiveTable>> {
    let limits = limits.clone();
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let book = Workbook::empty(stem.chars().take(31).collect(), "xlsx");
    LiveTable::spawn(size, book, "xlsx-load", move |table| {
        load(&file, limit, &limits, table)
    })
}

fn load(file: &File, limit: u64, limits: &OfficeLimits, table: &Weak<LiveTable>) -> Outcome {
    let mut bytes = Vec::new();
    if let Err(e) = file.take(limit + 1).read_to_end(&mut bytes) {
        return Outcome::Failed(crate::workspace::read_error(e));
    }
    if bytes.len() as u64 > limit {
        return Outcome::Failed(Error::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let Some(live) = table.upgrade() else {
        return Outcome::Failed(Error::Internal);
    };
    live.report(|p| p.bytes_read = bytes.len() as u64);
    let parsed = OfficePackage::open(&bytes, limits).and_then(|package| {
        let mut build = Live {
            live: &live,
            guard: live.write(),
            shown: None,
        };
        parse_into(&package, &mut build)
    });
    match parsed {
        Ok(()) => Outcome::Read(Loaded {
            bytes: Arc::from(bytes.into_boxed_slice()),
            sha256,
        }),
        Err(e) => {
            live.write().warnings.push(format!(
                "The workbook could not be read to its end ({}); the rows before that are shown.",
                e.reason()
            ));
            Outcome::Failed(office_error(e))
        }
    }
}

/// The parse's side of a live table: it holds the write lock and hands it over between
/// batches of events.
struct Live<'t> {
    live: &'t LiveTable,
    guard: RwLockWriteGuard<'t, Workbook>,
    /// The sheet shown as it is read, once it has started.
    shown: Option<usize>,
}

impl std::ops::Deref for Live<'_> {
    type Target = Workbook;
    fn deref(&self) -> &Workbook {
        &self.guard
    }
}

impl std::ops::DerefMut for Live<'_> {
    fn deref_mut(&mut self) -> &mut Workbook {
        &mut self.guard
    }
}

impl Live<'_> {
    /// Streams `part` into `on`, calling `between` (with the lock held) every
    /// [`BATCH_EVENTS`] events, just before the lock is handed over.
    fn stream_with(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        on: &mut dyn FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
        between: &mut dyn FnMut(&mut Workbook, bool),
    ) -> OfficeResult<()> {
        let depth = package.limits().max_xml_depth;
        let head = package.read_part_prefix(part, 2)?;
        if stream::is_utf16(&head) {
            // Rare (Excel writes UTF-8): read whole, as a whole parse does.
            let bytes = package.read_part(part)?;
            return stream::read(part, &bytes, depth, on);
        }
        let guard = &mut self.guard;
        let mut events = 0u32;
        package.stream_part(part, |source| {
            stream::read_from(part, source, depth, |ev| {
                let go_on = on(ev)?;
                events += 1;
                if events.is_multiple_of(BATCH_EVENTS) {
                    between(guard, false);
                    // A book without sheets yet (a hidden first sheet) is not shown.
                    if !guard.sheets.is_empty() {
                        RwLockWriteGuard::bump(guard);
                    }
                    between(guard, true);
                }
                Ok(go_on)
            })
        })
    }
}

impl Build for Live<'_> {
    fn stream(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        on: &mut dyn FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
    ) -> OfficeResult<()> {
        self.stream_with(package, part, on, &mut |_, _| {})
    }

    fn worksheet(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        reader: &mut SheetReader<'_>,
    ) -> OfficeResult<()> {
        if self.shown.is_some() || reader.sheet.visibility != Visibility::Visible {
            return self.stream(package, part, &mut |ev| reader.event(ev));
        }
        // The first visible sheet: in the table while it is read. Its slot holds the
        // sheet read so far while the lock is handed over, and an empty one meanwhile.
        let index = self.guard.sheets.len();
        self.shown = Some(index);
        self.guard
            .sheets
            .push(Sheet::new(reader.sheet.name.clone()));
        self.guard.active = index;
        let live = self.live;
        live.report(|p| {
            p.sheet = index;
            p.rows = 0;
        });
        let reader = std::cell::RefCell::new(reader);
        let result = self.stream_with(
            package,
            part,
            &mut |ev| reader.borrow_mut().event(ev),
            &mut |book, back| {
                let mut reader = reader.borrow_mut();
                // Counted before the sheet goes into the table (the reader then holds
                // the empty slot until it is handed back).
                let rows = if back { None } else { reader.rows_final() };
                std::mem::swap(&mut reader.sheet, &mut book.sheets[index]);
                if let Some(rows) = rows {
                    live.report(|p| p.rows = p.rows.max(rows));
                }
            },
        );
        // The parse finishes the sheet (sorting, links, comments) and lists it whole.
        self.guard.sheets.pop();
        live.report(|p| {
            p.rows = p.rows.max(reader.borrow().sheet.row_count);
            p.indexed = true;
        });
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, Write};
    use std::time::Duration;

    /// A workbook of `rows` rows: A holds the row number, B a shared string, the sheet
    /// has a merged cell and a conditional rule (both after the cells), and a hidden
    /// first sheet and a third sheet come around it.
    fn workbook(rows: u32) -> Vec<u8> {
        use zip::write::SimpleFileOptions;
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = SimpleFileOptions::default();
        let mut put = |name: &str, text: &str| {
            zip.start_file(name, o).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        };
        put(
            "[Content_Types].xml",
            r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#,
        );
        put(
            "_rels/.rels",
            r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
        );
        put(
            "xl/workbook.xml",
            r#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Hidden" sheetId="1" state="hidden" r:id="r1"/><sheet name="Big" sheetId="2" r:id="r2"/><sheet name="Last" sheetId="3" r:id="r3"/></sheets></workbook>"#,
        );
        put(
            "xl/_rels/workbook.xml.rels",
            r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="r3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet3.xml"/><Relationship Id="r4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#,
        );
        put(
            "xl/sharedStrings.xml",
            r#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>even</t></si><si><t>odd</t></si></sst>"#,
        );
        let small = r#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>1</v></c></row></sheetData></worksheet>"#;
        put("xl/worksheets/sheet1.xml", small);
        put("xl/worksheets/sheet3.xml", small);
        let mut big = String::from(
            r#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
        );
        for r in 1..=rows {
            big.push_str(&format!(
                r#"<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" t="s"><v>{}</v></c></row>"#,
                r % 2
            ));
        }
        big.push_str(r#"</sheetData><mergeCells count="1"><mergeCell ref="C1:D2"/></mergeCells><conditionalFormatting sqref="A1:A10"><cfRule type="cellIs" operator="greaterThan" priority="1"><formula>5</formula></cfRule></conditionalFormatting></worksheet>"#);
        put("xl/worksheets/sheet2.xml", &big);
        zip.finish().unwrap().into_inner()
    }

    fn file_of(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f.rewind().unwrap();
        f
    }

    #[tokio::test]
    async fn a_streamed_workbook_is_the_workbook_parsed_whole() {
        let bytes = workbook(30_000);
        let limits = OfficeLimits::default();
        let whole = super::super::parse_xlsx(&bytes, &limits).unwrap();
        let live = start(
            file_of(&bytes),
            bytes.len() as u64,
            1 << 30,
            "big.xlsx",
            &limits,
        )
        .unwrap();
        // The first visible sheet is shown while it is read.
        let first = live.wait_rows(400, Duration::from_secs(60)).await;
        assert_eq!(first.sheet, 1, "{first:?}");
        assert!(first.rows >= 400, "{first:?}");
        let done = live.wait_complete(Duration::from_secs(60)).await;
        assert!(done.complete && done.indexed && !done.failed, "{done:?}");
        assert_eq!(done.rows, 30_000);
        let book = live.book();
        assert_eq!(book.sheets.len(), 3);
        assert_eq!(book.active, whole.active);
        for (a, b) in whole.sheets.iter().zip(book.sheets.iter()) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.row_count, b.row_count);
            let cells = |s: &Sheet| -> Vec<(u64, u16, u16, u8)> {
                s.cells
                    .iter()
                    .map(|c| (c.value, c.col, c.style, c.kind as u8))
                    .collect()
            };
            assert_eq!(cells(a), cells(b));
            assert_eq!(a.merges, b.merges);
            assert_eq!(a.conditional.len(), b.conditional.len());
        }
        assert_eq!(book.shared.len(), 2);
        let loaded = live.loaded().unwrap();
        assert_eq!(&loaded.bytes[..], &bytes[..]);
        assert_eq!(loaded.sha256, hex::encode(Sha256::digest(&bytes)));
    }

    #[tokio::test]
    async fn readers_see_the_rows_read_so_far() {
        let bytes = workbook(200_000);
        let live = start(
            file_of(&bytes),
            bytes.len() as u64,
            1 << 30,
            "big.xlsx",
            &OfficeLimits::default(),
        )
        .unwrap();
        let p = live.wait_rows(1_000, Duration::from_secs(60)).await;
        assert_eq!(p.sheet, 1);
        // Rows below the count reported are in the table, whole (both cells).
        let (rows, cells) = {
            let book = live.book();
            let sheet = &book.sheets[1];
            (p.rows, sheet.cells_of(p.rows as usize - 1).len())
        };
        assert!(rows >= 1_000);
        assert_eq!(cells, 2);
        let done = live.wait_complete(Duration::from_secs(60)).await;
        assert!(!done.failed, "{done:?}");
    }

    #[tokio::test]
    async fn a_sheet_part_past_its_cap_keeps_the_rows_before_with_a_warning() {
        let bytes = workbook(40_000);
        let limits = OfficeLimits {
            max_part_bytes: 1 << 20,
            ..OfficeLimits::default()
        };
        // Read whole, the workbook is refused.
        assert!(super::super::parse_xlsx(&bytes, &limits).is_err());
        let live = start(
            file_of(&bytes),
            bytes.len() as u64,
            1 << 30,
            "big.xlsx",
            &limits,
        )
        .unwrap();
        let done = live.wait_complete(Duration::from_secs(60)).await;
        assert!(done.failed && done.complete, "{done:?}");
        assert!(
            matches!(live.take_error(), Some(Error::Corrupt(ref r)) if r.contains("per-part limit")),
            "the cap is the reason"
        );
        let book = live.book();
        assert!(
            book.warnings
                .iter()
                .any(|w| w.contains("could not be read to its end")),
            "{:?}",
            book.warnings
        );
        assert!(live.loaded().is_none());
    }
}
