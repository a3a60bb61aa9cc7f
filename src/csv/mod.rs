//! CSV and TSV files as one-sheet workbooks: the encoding is found (a BOM, valid UTF-8,
//! BOM-less UTF-16, else `chardetng`'s guess decoded with `encoding_rs`), the delimiter
//! sniffed (comma, semicolon, tab or pipe), fields read with RFC 4180 quoting (embedded
//! delimiters, doubled quotes and newlines inside quotes), ragged rows kept as they are,
//! and the first row guessed to be a header or not (the viewer can toggle it).
//!
//! Fields keep their text exactly; a field that reads as a number is marked so it aligns
//! right like a spreadsheet number. The limits are the workbook's: cells per sheet (past
//! it, the first rows with a note) and bytes per cell (longer fields are cut).
//!
//! Field ends and quotes are found with `memchr` (already in the tree through the regex
//! and XML crates), which scans a word at a time instead of a byte.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::office::xlsx::model::{Cell, CellKind, ColumnRange, Row, Sheet, Workbook};
use crate::office::OfficeLimits;

pub mod live;

/// The most columns a CSV row may have (a worksheet's width); further fields are dropped.
const MAX_COLS: usize = 1 << 14;

/// How much of the text the delimiter sniffer and the header guess look at.
const SNIFF_BYTES: usize = 64 * 1024;

/// The text of a CSV file and the name of the encoding it was read in.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, &'static str) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return (text, enc.name());
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), "UTF-8");
    }
    if let Some(enc) = utf16_without_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(bytes);
        return (text, enc.name());
    }
    let sample = &bytes[..bytes.len().min(1 << 20)];
    let enc = guess_legacy(sample, sample.len() == bytes.len());
    let (text, _) = enc.decode_without_bom_handling(bytes);
    (text, enc.name())
}

/// `chardetng`'s guess for text that is neither UTF-8 nor UTF-16; `whole` says whether
/// `sample` is the whole file.
fn guess_legacy(sample: &[u8], whole: bool) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(sample, whole);
    let enc = detector.guess(None, true);
    // encoding_rs decodes GBK as the whole of GB18030 (the WHATWG rule); name it so.
    if enc == encoding_rs::GBK {
        encoding_rs::GB18030
    } else {
        enc
    }
}

/// The encoding of a file from its first bytes only, for a file read piece by piece, and
/// the length of its BOM: a BOM, else UTF-8 if the sample is valid UTF-8 (a sequence cut
/// at its end allowed), else BOM-less UTF-16, else `chardetng`'s guess. Unlike
/// [`decode`], a stray invalid byte past the sample shows as U+FFFD instead of moving the
/// whole file to a legacy encoding.
fn sniff_encoding(sample: &[u8], whole: bool) -> (&'static Encoding, usize) {
    if let Some((enc, bom_len)) = Encoding::for_bom(sample) {
        return (enc, bom_len);
    }
    match std::str::from_utf8(sample) {
        Ok(_) => return (encoding_rs::UTF_8, 0),
        Err(e) if e.error_len().is_none() && !whole => return (encoding_rs::UTF_8, 0),
        Err(_) => {}
    }
    if let Some(enc) = utf16_without_bom(sample) {
        return (enc, 0);
    }
    (guess_legacy(sample, whole), 0)
}

/// UTF-16 without a BOM: ASCII-heavy text has a zero byte in every other position.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 4 {
        return None;
    }
    let pairs = sample.len() / 2;
    let even_zero = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_zero = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    if odd_zero * 10 >= pairs * 7 && even_zero * 10 < pairs {
        Some(encoding_rs::UTF_16LE)
    } else if even_zero * 10 >= pairs * 7 && odd_zero * 10 < pairs {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// Reads records from `text`, calling `on(fields)` for each; stops when `on` says so.
/// Quotes are honoured only at the start of a field, as RFC 4180 has them.
fn records(text: &str, delim: char, on: impl FnMut(&[Cow<'_, str>]) -> bool) {
    records_in(text, delim, true, on);
}

/// [`records`] over one piece of a text that may go on: when `last` is false, a record
/// that reaches the end of `text` (an open quote, a line without its end, a `\r` whose
/// `\n` may follow) is not read, since the next piece may continue it. Returns the byte
/// offset after the last record read, where the next piece's text must start.
fn records_in(
    text: &str,
    delim: char,
    last: bool,
    mut on: impl FnMut(&[Cow<'_, str>]) -> bool,
) -> usize {
    let b = text.as_bytes();
    let d = delim as u8;
    let mut fields: Vec<Cow<'_, str>> = Vec::new();
    let mut i = 0;
    let mut record_start = 0;
    let n = b.len();
    while i < n {
        // One field.
        if b[i] == b'"' {
            let mut out = String::new();
            let mut j = i + 1;
            let mut start = j;
            loop {
                match memchr_quote(&b[j..]) {
                    // A quote at the very end may be the first of a doubled pair.
                    Some(k) if !last && j + k + 1 == n => return record_start,
                    Some(k) => {
                        let q = j + k;
                        out.push_str(&text[start..q]);
                        if q + 1 < n && b[q + 1] == b'"' {
                            out.push('"');
                            j = q + 2;
                            start = j;
                        } else {
                            j = q + 1;
                            break;
                        }
                    }
                    None if !last => return record_start,
                    None => {
                        out.push_str(&text[start..]);
                        j = n;
                        break;
                    }
                }
            }
            // Text after the closing quote up to the delimiter is kept (lenient).
            let rest_end = memchr::memchr3(d, b'\n', b'\r', &b[j..]).map_or(n, |p| j + p);
            out.push_str(&text[j..rest_end]);
            fields.push(Cow::Owned(out));
            i = rest_end;
        } else {
            let end = memchr::memchr3(d, b'\n', b'\r', &b[i..]).map_or(n, |p| i + p);
            fields.push(Cow::Borrowed(&text[i..end]));
            i = end;
        }
        if i == n && !last {
            return record_start;
        }
        if i < n && b[i] == d {
            i += 1;
            if i == n {
                if !last {
                    return record_start;
                }
                fields.push(Cow::Borrowed(""));
            }
            continue;
        }
        // End of record.
        if i < n && b[i] == b'\r' {
            i += 1;
            if i == n && !last {
                return record_start;
            }
        }
        if i < n && b[i] == b'\n' {
            i += 1;
        }
        record_start = i;
        if !on(&fields) {
            return i;
        }
        fields.clear();
    }
    if !fields.is_empty() {
        on(&fields);
    }
    n
}

fn memchr_quote(b: &[u8]) -> Option<usize> {
    memchr::memchr(b'"', b)
}

/// The delimiter that splits the first lines into the most consistent number (> 1) of
/// fields; `prefer` wins ties (tab for `.tsv`).
pub fn sniff_delimiter(text: &str, prefer: char) -> char {
    let mut sample_end = text.len().min(SNIFF_BYTES);
    while !text.is_char_boundary(sample_end) {
        sample_end -= 1;
    }
    let sample = &text[..sample_end];
    let mut best = (prefer, 0usize, 0usize);
    for cand in [prefer, ',', ';', '\t', '|'] {
        let mut counts: Vec<usize> = Vec::new();
        records(sample, cand, |f| {
            counts.push(f.len());
            counts.len() < 50
        });
        // The last record of a cut sample may be partial.
        if sample_end < text.len() && counts.len() > 1 {
            counts.pop();
        }
        let mut freq: std::collections::HashMap<usize, usize> = Default::default();
        for &c in &counts {
            *freq.entry(c).or_default() += 1;
        }
        let (mode, hits) = freq
            .into_iter()
            .filter(|(c, _)| *c > 1)
            .max_by_key(|&(c, h)| (h, c))
            .unwrap_or((1, 0));
        // Most lines agreeing wins, then more fields; earlier candidates win ties.
        if (hits, mode) > (best.2, best.1) {
            best = (cand, mode, hits);
        }
    }
    best.0
}

/// Whether a file its name calls plain text (`.txt`, `.log`, `README`…) holds a table, so
/// it is shown as one (`text/csv` content without a `.csv` name). Deliberately
/// conservative, since prose must never turn into a table: the first 64 KiB must be valid
/// UTF-8 and split, on one of comma, tab, semicolon or pipe, into at least five records
/// that all have the same number (≥ 2) of fields, with hardly any field after a delimiter
/// starting with a space (prose puts one after its commas); two-field records also need a
/// tab, or a column of numbers.
pub fn looks_like_table(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let whole = sample.len() == bytes.len();
    let text = match std::str::from_utf8(sample) {
        Ok(t) => t,
        // A character cut by the sample's end is fine; anything else is not UTF-8.
        Err(e) if e.error_len().is_none() && !whole => {
            std::str::from_utf8(&sample[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    [',', '\t', ';', '|']
        .into_iter()
        .any(|delim| consistent_table(text, delim, whole))
}

/// Whether the first records of `text` read as a table with this delimiter (see
/// [`looks_like_table`]).
fn consistent_table(text: &str, delim: char, whole: bool) -> bool {
    let (mut records, mut width, mut same) = (0usize, 0usize, true);
    let (mut later_fields, mut spaced) = (0usize, 0usize);
    let mut numeric = Vec::new();
    records_in(text, delim, whole, |fields| {
        if records == 0 {
            width = fields.len();
            numeric = vec![true; width];
        }
        same &= fields.len() == width;
        for (i, f) in fields.iter().enumerate().skip(1) {
            later_fields += 1;
            spaced += usize::from(f.starts_with(' '));
            // The first record may be a header.
            if records > 0 && i < numeric.len() {
                numeric[i] &= is_numeric(f);
            }
        }
        if records > 0 {
            if let (Some(first), Some(n)) = (fields.first(), numeric.first_mut()) {
                *n &= is_numeric(first);
            }
        }
        records += 1;
        same && records < 50
    });
    let numbers = numeric.iter().any(|&n| n);
    same && records >= 5
        && width >= 2
        && spaced * 10 <= later_fields
        && (width > 2 || delim == '\t' || numbers)
}

/// Whether a field reads as a number: digits with an optional sign, decimal point,
/// exponent, thousands separators or a trailing percent sign.
pub fn is_numeric(field: &str) -> bool {
    let s = field.trim();
    let s = s.strip_suffix('%').unwrap_or(s);
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s.is_empty() || !s.as_bytes()[0].is_ascii_digit() && !s.starts_with('.') {
        return false;
    }
    if s.parse::<f64>().is_ok_and(f64::is_finite) {
        return !s.eq_ignore_ascii_case("inf") && !s.eq_ignore_ascii_case("nan");
    }
    // 1,234,567.89
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let groups: Vec<&str> = int.split(',').collect();
    groups.len() > 1
        && (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3)
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a CSV or TSV file into a one-sheet workbook named after the file.
pub fn parse_csv(bytes: &[u8], name: &str, limits: &OfficeLimits) -> Workbook {
    let (text, encoding) = decode(bytes);
    let is_tsv = is_tsv(name);
    let delim = sniff_delimiter(&text, if is_tsv { '\t' } else { ',' });
    let mut book = empty_book(name);
    let mut builder = Builder::new(limits, delim);
    let sheet = &mut book.sheets[0];
    records(&text, delim, |fields| builder.record(sheet, fields));
    builder.finish(&mut book, encoding, is_tsv);
    book
}

/// Whether `name` is a tab-separated file by its extension (tab then wins ties).
fn is_tsv(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".tsv")
}

/// A workbook of one empty sheet named after the file, as a CSV table starts.
fn empty_book(name: &str) -> Workbook {
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    Workbook::empty(stem.chars().take(31).collect(), "csv")
}

/// Rows whose field lengths set the column widths (the header guess reads fewer).
const MEASURED_ROWS: u32 = 200;

/// Turns records into the rows of a sheet, one record at a time, so a table can be read
/// whole ([`parse_csv`]) or piece by piece while it streams in ([`live`]).
struct Builder {
    max_sheet_cells: usize,
    max_cell_bytes: usize,
    delim: char,
    /// Records seen (the next record's row number).
    records: u32,
    widths: Vec<usize>,
    /// Whether the widths and the header guess are in the sheet yet.
    settled: bool,
    wide: bool,
    cut: bool,
    /// Set once a limit stopped the table: later records are not read.
    stopped: bool,
}

impl Builder {
    fn new(limits: &OfficeLimits, delim: char) -> Builder {
        Builder {
            max_sheet_cells: limits.max_sheet_cells,
            max_cell_bytes: limits.max_cell_bytes,
            delim,
            records: 0,
            widths: Vec::new(),
            settled: false,
            wide: false,
            cut: false,
            stopped: false,
        }
    }

    /// Adds one record as the next row; false once a limit stops the table.
    fn record(&mut self, sheet: &mut Sheet, fields: &[Cow<'_, str>]) -> bool {
        let r = self.records;
        if self.stopped
            || sheet.cells.len() + fields.len().min(MAX_COLS) > self.max_sheet_cells
            || r >= (1 << 20)
        {
            if !self.stopped {
                sheet.truncated_at = Some(r);
            }
            self.stopped = true;
            return false;
        }
        if fields.len() > MAX_COLS {
            self.wide = true;
        }
        let first = sheet.cells.len() as u32;
        let mut any = false;
        for (c, f) in fields.iter().take(MAX_COLS).enumerate() {
            if f.is_empty() {
                continue;
            }
            let mut s: Cow<'_, str> = Cow::Borrowed(f.as_ref());
            if s.len() > self.max_cell_bytes {
                let mut owned = s.into_owned();
                crate::office::xlsx::cut_text(&mut owned, self.max_cell_bytes);
                s = Cow::Owned(owned);
                self.cut = true;
            }
            let Some(idx) = sheet.pool.push(&s) else {
                break;
            };
            if r < MEASURED_ROWS {
                if self.widths.len() <= c {
                    self.widths.resize(c + 1, 0);
                }
                self.widths[c] = self.widths[c].max(s.chars().count().min(60));
            }
            let kind = if is_numeric(&s) {
                CellKind::NumericText
            } else {
                CellKind::Text
            };
            sheet.cells.push(Cell {
                value: u64::from(idx),
                col: c as u16,
                style: 0,
                kind,
            });
            sheet.col_count = sheet.col_count.max(c as u32 + 1);
            any = true;
        }
        if any {
            sheet.rows.push(Row {
                r,
                first,
                height: 0.0,
                hidden: false,
            });
            sheet.row_count = r + 1;
        }
        self.records += 1;
        if self.records == MEASURED_ROWS {
            self.settle(sheet);
        }
        true
    }

    /// Puts the column widths and the header guess into the sheet, once: after the rows
    /// they are measured on, so a table read piece by piece shows them from its first
    /// answer on.
    fn settle(&mut self, sheet: &mut Sheet) {
        if std::mem::replace(&mut self.settled, true) {
            return;
        }
        for (c, w) in self.widths.iter().enumerate() {
            let px = (*w as f32 * 7.0 + 12.0).clamp(40.0, 420.0);
            sheet.columns.push(ColumnRange {
                first: c as u32,
                last: c as u32,
                width: px,
                hidden: false,
            });
        }
        sheet.header_row = guess_header(sheet);
        if sheet.header_row {
            sheet.frozen_rows = 1;
        }
    }

    /// Ends the table: widths and header if fewer rows than measured came, memory given
    /// back, and the notes on encoding, delimiter and limits.
    fn finish(&mut self, book: &mut Workbook, encoding: &str, is_tsv: bool) {
        let sheet = &mut book.sheets[0];
        self.settle(sheet);
        sheet.cells.shrink_to_fit();
        sheet.rows.shrink_to_fit();
        sheet.pool.shrink();
        let warnings = &mut book.warnings;
        if encoding != "UTF-8" {
            warnings.push(format!("Read as {encoding}."));
        }
        if self.wide {
            warnings.push(format!(
                "Rows have more than {MAX_COLS} fields; the rest are not shown."
            ));
        }
        if self.cut {
            warnings.push(format!(
                "Fields longer than {} bytes are cut.",
                self.max_cell_bytes
            ));
        }
        let delim_name = match self.delim {
            '\t' => "tab",
            ';' => "semicolon",
            '|' => "pipe",
            _ => "comma",
        };
        if (is_tsv && self.delim != '\t') || (!is_tsv && self.delim != ',') {
            warnings.push(format!("Fields are separated by a {delim_name}."));
        }
    }
}

/// A header row: the first row is all text (no numbers, no gaps) while some column has
/// numbers below it, or its values are all distinct labels over more rows.
fn guess_header(sheet: &Sheet) -> bool {
    if sheet.rows.len() < 2 || sheet.rows[0].r != 0 {
        return false;
    }
    let head = sheet.cells_of(0);
    let all_text = head.iter().all(|c| c.kind == CellKind::Text)
        && head.len() as u32 == sheet.col_count
        && !head.is_empty();
    if !all_text {
        return false;
    }
    let mut numeric_below = false;
    for i in 1..sheet.rows.len().min(50) {
        if sheet
            .cells_of(i)
            .iter()
            .any(|c| c.kind == CellKind::NumericText)
        {
            numeric_below = true;
            break;
        }
    }
    let mut labels: Vec<&str> = head
        .iter()
        .map(|c| sheet.pool.get(c.value as u32))
        .collect();
    let n = labels.len();
    labels.sort_unstable();
    labels.dedup();
    numeric_below || (labels.len() == n && n > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, d: char) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        records(text, d, |f| {
            out.push(f.iter().map(|s| s.to_string()).collect());
            true
        });
        out
    }

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(
            rows("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",x,\n", ','),
            vec![
                vec!["a".to_string(), "b,c".into(), "say \"hi\"".into()],
                vec!["two\nlines".into(), "x".into(), "".into()],
            ]
        );
        assert_eq!(rows("a;b\nc", ';'), vec![vec!["a", "b"], vec!["c"]]);
    }

    #[test]
    fn delimiters_are_sniffed() {
        assert_eq!(sniff_delimiter("a;b;c\n1;2;3\n", ','), ';');
        assert_eq!(sniff_delimiter("a\tb\n1\t2\n", ','), '\t');
        assert_eq!(sniff_delimiter("a|b|c\n1|2|3\n", ','), '|');
        assert_eq!(sniff_delimiter("a,b\n\"1;2\",3\n", ','), ',');
        // Decimal commas inside a semicolon file.
        assert_eq!(sniff_delimiter("x;y\n1,5;2,5\n3,5;4\n", ','), ';');
    }

    #[test]
    fn numbers_are_recognised() {
        for yes in ["1", "-2.5", "1e5", "1,234,567.5", "12%", ".5"] {
            assert!(is_numeric(yes), "{yes}");
        }
        for no in ["", "abc", "1,23", "inf", "NaN", "12a", "2024-01-01"] {
            assert!(!is_numeric(no), "{no}");
        }
    }

    #[test]
    fn encodings_are_found() {
        let (t, e) = decode(b"\xEF\xBB\xBFa,b");
        assert_eq!((t.as_ref(), e), ("a,b", "UTF-8"));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("名,x".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16).0, "名,x");
        let (gb, _, _) =
            encoding_rs::GB18030.encode("城市,人口\n北京,2189\n上海,2487\n广州,1868\n深圳,1756\n");
        let (t, e) = decode(&gb);
        assert!(t.starts_with("城市,人口"), "{t} {e}");
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode("café,crème brûlée,naïve\n");
        assert_eq!(decode(&latin).0, "café,crème brûlée,naïve\n");
    }

    #[test]
    fn tables_are_told_from_prose_by_content() {
        for table in [
            "name,score,team\nann,3,red\nbob,4,blue\ncy,5,red\ndee,6,blue\neve,7,red\n",
            "when\tvalue\n2024-01-01\t3\n2024-01-02\t4\n2024-01-03\t5\n2024-01-04\t6\n",
            "id;amount\n1;2,5\n2;3,5\n3;4\n4;5\n5;6\n",
            "\u{feff}a|b|c\n1|2|3\n4|5|6\n7|8|9\n10|11|12\n",
        ] {
            assert!(looks_like_table(table.as_bytes()), "{table}");
        }
        for prose in [
            // Commas in prose are followed by spaces, and their counts vary.
            "Roses are red, violets are blue,\nsugar is sweet, and so are you.\nThe end, my friend.\nOne more, line.\nAnd a last, one.\n",
            "Dear team, the build is green. Thanks, all.\nNext week, we ship.\nQuestions, anyone?\nBye, for now.\nRegards, Ann\n",
            // Log lines: one comma each, no numbers in a column, no tab.
            "started server,ok\nloaded config,ok\nopened db,ok\nwarmed cache,ok\nready,ok\n",
            // Too few records.
            "a,b,c\n1,2,3\n",
            "",
        ] {
            assert!(!looks_like_table(prose.as_bytes()), "{prose}");
        }
        // Not UTF-8.
        assert!(!looks_like_table(b"a,b,c\n\xff,2,3\n1,2,3\n1,2,3\n1,2,3\n"));
    }

    #[test]
    fn headers_are_guessed() {
        let l = OfficeLimits::default();
        let book = parse_csv(b"name,score\nann,3\nbob,4\n", "s.csv", &l);
        assert!(book.sheets[0].header_row);
        let book = parse_csv(b"1,2\n3,4\n", "s.csv", &l);
        assert!(!book.sheets[0].header_row);
    }

    #[test]
    fn limits_cut_rows_and_fields() {
        let l = OfficeLimits {
            max_sheet_cells: 10,
            max_cell_bytes: 8,
            ..OfficeLimits::default()
        };
        let text = "a,b\n".repeat(100) + "0123456789abcdef,x\n";
        let book = parse_csv(text.as_bytes(), "s.csv", &l);
        assert_eq!(book.sheets[0].truncated_at, Some(5));
        assert_eq!(book.sheets[0].cells.len(), 10);
        let long = parse_csv(b"0123456789abcdef\n", "s.csv", &l);
        assert_eq!(long.sheets[0].pool.get(0), "01234567\u{2026}");
    }
}
