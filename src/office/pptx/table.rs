//! Tables (`a:tbl` in a `p:graphicFrame`): the grid, merged cells, cell fills and
//! borders, and the table style (`ppt/tableStyles.xml`, or PowerPoint's default style
//! when the deck names it without defining it).

use crate::office::xml::{parse_xml, Element, XmlDoc, XmlOptions};
use crate::office::Ns;

use super::color::number;
use super::fill::{fill_in, line, style_fill, style_line, Images};
use super::model::{Fill, Line, Table, TableCell, TableRow, VerticalAnchor};
use super::text::{
    has_content, overlay_list, overlay_runs, text_body, BodyProps, Levels, Links, RunProps, TextCtx,
};

/// Most rows and columns kept: past these a table is not a slide's.
const MAX_ROWS: usize = 1_000;
const MAX_COLS: usize = 200;

/// The style PowerPoint gives new tables ("Medium Style 2 – Accent 1").
const DEFAULT_STYLE_ID: &str = "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}";

/// That style written out, for decks that name it without defining it: light accent
/// bands, an accent header row with white bold text, white inner borders.
const DEFAULT_STYLE_XML: &str = r#"<a:tblStyle xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" styleId="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}">
<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"/><a:schemeClr val="dk1"/></a:tcTxStyle><a:tcStyle><a:tcBdr>
<a:left><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:left>
<a:right><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:right>
<a:top><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:top>
<a:bottom><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom>
<a:insideH><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:insideH>
<a:insideV><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:insideV>
</a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="20000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:wholeTbl>
<a:band1H><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="40000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:band1H>
<a:band1V><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="40000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:band1V>
<a:lastCol><a:tcTxStyle b="on"><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:lastCol>
<a:firstCol><a:tcTxStyle b="on"><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstCol>
<a:lastRow><a:tcTxStyle b="on"><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr><a:top><a:ln w="38100"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:top></a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:lastRow>
<a:firstRow><a:tcTxStyle b="on"><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr><a:bottom><a:ln w="38100"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom></a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstRow>
</a:tblStyle>"#;

/// Parses the built-in default style (a constant, so it always parses).
pub(super) fn default_style_doc() -> Option<XmlDoc> {
    parse_xml(
        "builtin-table-style.xml",
        DEFAULT_STYLE_XML.as_bytes(),
        &XmlOptions {
            max_depth: 64,
            max_nodes: 10_000,
            understood: &[],
        },
    )
    .ok()
}

/// What one part of a table style (`a:wholeTbl`, `a:firstRow` …) sets.
#[derive(Debug, Clone, Default)]
struct StylePart {
    fill: Option<Fill>,
    text: RunProps,
    /// left, right, top, bottom, insideH, insideV; `Some(None)` removes a border.
    borders: [Option<Option<Line>>; 6],
}

const BORDER_NAMES: [&str; 6] = ["left", "right", "top", "bottom", "insideH", "insideV"];

impl StylePart {
    fn read(el: Element<'_>, ctx: &TableCtx<'_, '_>) -> StylePart {
        let colors = &ctx.text.colors;
        let mut part = StylePart::default();
        if let Some(tx) = el.child(Ns::A, "tcTxStyle") {
            let mut run = RunProps::default();
            let on = |v: Option<&str>| v.map(|v| v == "on");
            let mut rpr_like = RunProps::default();
            for c in tx.elements() {
                match c.name() {
                    "fontRef" => {
                        if let Some(color) = colors.child_color(c) {
                            rpr_like.color = Some(color);
                        }
                        rpr_like.latin = match c.attr(Ns::None, "idx") {
                            Some("major") => Some("+mj-lt".to_owned()),
                            Some("minor") => Some("+mn-lt".to_owned()),
                            _ => None,
                        };
                    }
                    "font" => {
                        rpr_like.latin = c
                            .child(Ns::A, "latin")
                            .and_then(|l| l.attr(Ns::None, "typeface"))
                            .map(str::to_owned);
                    }
                    _ => {
                        if let Some(color) = colors.color(c) {
                            rpr_like.color = Some(color);
                        }
                    }
                }
            }
            run.overlay(&rpr_like);
            run.set_flags(on(tx.attr(Ns::None, "b")), on(tx.attr(Ns::None, "i")));
            part.text = run;
        }
        if let Some(style) = el.child(Ns::A, "tcStyle") {
            if let Some(bdr) = style.child(Ns::A, "tcBdr") {
                for (i, name) in BORDER_NAMES.iter().enumerate() {
                    let Some(side) = bdr.child(Ns::A, name) else {
                        continue;
                    };
                    part.borders[i] = if let Some(ln) = side.child(Ns::A, "ln") {
                        Some(line(ln, colors, None))
                    } else {
                        side.child(Ns::A, "lnRef")
                            .map(|r| style_line(r, ctx.text.theme, colors))
                    };
                }
            }
            let mut none = |_: &str| super::model::ImageSource::Missing {
                target: String::new(),
            };
            if let Some(f) = style.child(Ns::A, "fill") {
                part.fill = fill_in(f, colors, &mut none, None);
            } else if let Some(r) = style.child(Ns::A, "fillRef") {
                part.fill = style_fill(r, ctx.text.theme, colors, &mut none);
            }
        }
        part
    }
}

/// What a table needs from the slide.
pub(super) struct TableCtx<'a, 'b> {
    pub(super) text: &'a TextCtx<'b>,
    /// The deck's `a:tblStyleLst`, if it has one.
    pub(super) styles: Option<Element<'a>>,
    /// The built-in default style.
    pub(super) builtin: Option<Element<'a>>,
    /// Base text levels (presentation defaults).
    pub(super) levels: &'a Levels,
}

/// Reads an `a:tbl`.
pub(super) fn table(
    tbl: Element<'_>,
    ctx: &TableCtx<'_, '_>,
    images: &mut Images<'_>,
    links: &mut Links<'_>,
) -> Table {
    let columns: Vec<i64> = tbl
        .child(Ns::A, "tblGrid")
        .into_iter()
        .flat_map(|g| g.children_named(Ns::A, "gridCol"))
        .take(MAX_COLS)
        .map(|c| {
            c.attr(Ns::None, "w")
                .and_then(number)
                .map_or(0, |w| (w as i64).clamp(0, 51_206_400))
        })
        .collect();
    let props = tbl.child(Ns::A, "tblPr");
    let flag = |n: &str| {
        props
            .and_then(|p| p.attr(Ns::None, n))
            .is_some_and(|v| matches!(v, "1" | "true"))
    };
    let (first_row, last_row, first_col, last_col, band_row, band_col) = (
        flag("firstRow"),
        flag("lastRow"),
        flag("firstCol"),
        flag("lastCol"),
        flag("bandRow"),
        flag("bandCol"),
    );
    let style_id = props
        .and_then(|p| p.child(Ns::A, "tableStyleId"))
        .map(|s| s.text().trim().to_owned());
    let style_el = style_id.as_deref().and_then(|id| {
        ctx.styles
            .and_then(|s| {
                s.children_named(Ns::A, "tblStyle")
                    .find(|t| t.attr(Ns::None, "styleId") == Some(id))
            })
            .or_else(|| (id == DEFAULT_STYLE_ID).then_some(ctx.builtin).flatten())
    });
    let part = |name: &str| {
        style_el
            .and_then(|s| s.child(Ns::A, name))
            .map(|e| StylePart::read(e, ctx))
    };
    let whole = part("wholeTbl");
    let parts = StyleParts {
        band1h: part("band1H"),
        band2h: part("band2H"),
        band1v: part("band1V"),
        band2v: part("band2V"),
        first_row: part("firstRow"),
        last_row: part("lastRow"),
        first_col: part("firstCol"),
        last_col: part("lastCol"),
    };
    // A table-level fill (`a:tblPr/a:solidFill`) sits under the style's cell fills.
    let mut none = |_: &str| super::model::ImageSource::Missing {
        target: String::new(),
    };
    let table_fill = props.and_then(|p| fill_in(p, &ctx.text.colors, &mut none, None));

    let row_els: Vec<Element<'_>> = tbl.children_named(Ns::A, "tr").take(MAX_ROWS).collect();
    let n_rows = row_els.len();
    let n_cols = columns.len();
    let mut rows = Vec::with_capacity(n_rows);
    for (r, tr) in row_els.iter().enumerate() {
        let height = tr
            .attr(Ns::None, "h")
            .and_then(number)
            .map_or(0, |h| (h as i64).clamp(0, 51_206_400));
        let mut cells = Vec::new();
        for (c, tc) in tr.children_named(Ns::A, "tc").take(MAX_COLS).enumerate() {
            // Layers, lowest first: whole table, bands, first/last column, last/first row.
            let mut layers: Vec<&StylePart> = Vec::new();
            layers.extend(whole.as_ref());
            let body_row = if first_row { r.checked_sub(1) } else { Some(r) };
            if band_row && !(first_row && r == 0) && !(last_row && r + 1 == n_rows) {
                if let Some(br) = body_row {
                    layers.extend(if br % 2 == 0 {
                        &parts.band1h
                    } else {
                        &parts.band2h
                    });
                }
            }
            if band_col {
                let bc = if first_col { c.checked_sub(1) } else { Some(c) };
                if let Some(bc) = bc {
                    layers.extend(if bc % 2 == 0 {
                        &parts.band1v
                    } else {
                        &parts.band2v
                    });
                }
            }
            if first_col && c == 0 {
                layers.extend(&parts.first_col);
            }
            if last_col && c + 1 == n_cols.max(1) {
                layers.extend(&parts.last_col);
            }
            if last_row && r + 1 == n_rows {
                layers.extend(&parts.last_row);
            }
            if first_row && r == 0 {
                layers.extend(&parts.first_row);
            }
            cells.push(cell(
                tc,
                &layers,
                (r, c, n_rows, n_cols),
                table_fill.as_ref(),
                ctx,
                images,
                links,
            ));
        }
        rows.push(TableRow { height, cells });
    }
    Table { columns, rows }
}

struct StyleParts {
    band1h: Option<StylePart>,
    band2h: Option<StylePart>,
    band1v: Option<StylePart>,
    band2v: Option<StylePart>,
    first_row: Option<StylePart>,
    last_row: Option<StylePart>,
    first_col: Option<StylePart>,
    last_col: Option<StylePart>,
}

fn cell(
    tc: Element<'_>,
    layers: &[&StylePart],
    (r, c, n_rows, n_cols): (usize, usize, usize, usize),
    table_fill: Option<&Fill>,
    ctx: &TableCtx<'_, '_>,
    images: &mut Images<'_>,
    links: &mut Links<'_>,
) -> TableCell {
    let span = |n: &str| {
        tc.attr(Ns::None, n)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(1)
            .clamp(1, MAX_ROWS as u32)
    };
    let merged = ["hMerge", "vMerge"]
        .iter()
        .any(|n| matches!(tc.attr(Ns::None, n), Some("1" | "true")));
    let tcpr = tc.child(Ns::A, "tcPr");

    let mut fill = table_fill.cloned().unwrap_or_default();
    let mut text_run = RunProps::default();
    // Style borders: outer edges take left/right/top/bottom, inner ones insideV/insideH.
    let mut borders: [Option<Line>; 4] = Default::default();
    let edge = [
        if c == 0 { 0 } else { 5 },
        if r == 0 { 2 } else { 4 },
        if c + 1 >= n_cols { 1 } else { 5 },
        if r + 1 >= n_rows { 3 } else { 4 },
    ];
    for layer in layers {
        if let Some(f) = &layer.fill {
            fill = f.clone();
        }
        text_run.overlay(&layer.text);
        for (side, &slot) in edge.iter().enumerate() {
            // A part's own outer edge wins over its inside lines for its cells.
            let own = [0, 2, 1, 3][side];
            if let Some(b) = layer.borders[own]
                .clone()
                .or_else(|| layer.borders[slot].clone())
            {
                borders[side] = b;
            }
        }
    }
    let colors = &ctx.text.colors;
    let mut body = BodyProps::default();
    if let Some(p) = tcpr {
        if let Some(f) = fill_in(p, colors, images, None) {
            fill = f;
        }
        for (side, name) in ["lnL", "lnT", "lnR", "lnB"].iter().enumerate() {
            if let Some(ln) = p.child(Ns::A, name) {
                borders[side] = line(ln, colors, borders[side].clone());
            }
        }
        let mar = |n: &str, d: i64| {
            p.attr(Ns::None, n)
                .and_then(number)
                .map_or(d, |v| (v as i64).clamp(0, 51_206_400))
        };
        body.set_default_insets([
            mar("marL", 91_440),
            mar("marT", 45_720),
            mar("marR", 91_440),
            mar("marB", 45_720),
        ]);
        body.set_anchor(match p.attr(Ns::None, "anchor") {
            Some("ctr") => VerticalAnchor::Middle,
            Some("b") => VerticalAnchor::Bottom,
            _ => VerticalAnchor::Top,
        });
        if let Some(v) = p.attr(Ns::None, "vert") {
            body.set_vertical(v);
        }
    }
    body.set_default_insets([91_440, 45_720, 91_440, 45_720]);

    // Cells rarely carry their own list style: share the base levels unless one does.
    let tx = tc.child(Ns::A, "txBody");
    let list = tx.and_then(|t| t.child(Ns::A, "lstStyle"));
    let text = if has_content(list) {
        let mut levels = ctx.levels.clone();
        overlay_runs(&mut levels, &text_run);
        if let Some(l) = list {
            overlay_list(&mut levels, l, colors);
        }
        text_body(tx.unwrap_or(tc), &levels, None, &body, ctx.text, links)
    } else {
        // Without a txBody this reads no paragraphs: an empty cell.
        let source = tx.unwrap_or(tc);
        let mut t = text_body(source, ctx.levels, Some(&text_run), &body, ctx.text, links);
        if tx.is_none() {
            t.paragraphs.clear();
        }
        t
    };
    TableCell {
        col_span: span("gridSpan"),
        row_span: span("rowSpan"),
        merged,
        fill,
        borders,
        text,
    }
}
