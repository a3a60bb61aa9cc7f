//! [`Document`] → HTML: a pure function of the model and [`RenderOptions`].
//!
//! The page is semantic HTML (headings, paragraphs, tables, `ins`/`del`, links) with CSS
//! classes from [`STYLESHEET`] and inline styles for the document's own formatting. Every
//! text and attribute is escaped; CSS values come only from validated model fields (hex
//! colours, numbers, font names reduced to safe characters). Links are live only for
//! http, https and mailto URLs and for bookmarks inside the document; anything else is
//! shown as inert text. Images point at media parts through the options and are never
//! fetched from outside; linked (external) pictures become placeholders naming the link.
//!
//! Pages are frames of the section's paper size: a new frame starts at each section
//! that starts on a new page and at explicit page breaks between top-level paragraphs.
//! There is no line layout, so a long run of text makes a tall frame.

use crate::markup::{encode_path, escape_into};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use super::fields::field_name;
use super::layout::{column_layout, paginate, ColumnLayout, ColumnSet, Page, PageItem};
use super::model::Anchor;
use super::model::{
    Align, Block, Border, BreakKind, ChartFrame, CommentMarkKind, Document, HeaderFooterRefs,
    Image, ImageSource, Inline, LineSpacing, LinkTarget, ListSuffix, MediaPart, NoteKind,
    PageSetup, Paragraph, RunFormat, Section, TabAlign, TabLeader, Table, VerticalText, Width,
    WordArt,
};
use super::tabs::{self, PlacedTab};
use crate::office::fonts::resolve::legacy_symbol;
use crate::office::fonts::FontPlan;

/// Single line spacing, as a multiple of the text size, of a face the machine lacks:
/// the usual value of the common Latin faces (Arial, Times New Roman, Cambria). The
/// page and every text box set it (`render.css`), so a paragraph of such a face need
/// not.
const SINGLE_LINE: f32 = 1.15;

/// The opening tag of a page frame's body.
const BODY_OPEN: &str = "<div class=\"docx-body\">";

/// The stylesheet the rendered HTML expects.
pub const STYLESHEET: &str = include_str!("render.css");

/// The viewer script that breaks page frames into pages where the browser's lines fall
/// (`viewers/docx/docx-pages.js`): the host page loads it after the document; a standalone
/// page carries it inline.
pub const PAGES_JS: &str = include_str!("../../../viewers/docx/docx-pages.js");

/// How to render a document.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// URL prefix under which media parts are served (`{prefix}{part}`, part
    /// percent-encoded), e.g. `"media/"`.
    pub media_prefix: String,
    /// URLs for specific media parts (e.g. `data:` URLs for a standalone page); these win
    /// over `media_prefix`.
    pub media_urls: HashMap<String, String>,
    /// Show tracked insertions and deletions marked (else the page starts with deletions
    /// hidden; a viewer toggles the `docx-hide-revisions` class).
    pub show_revisions: bool,
    /// Render the comments panel.
    pub comments: bool,
    /// Wrap the page in a complete HTML document with the stylesheet.
    pub standalone: bool,
    /// Font stacks and served faces (`crate::office::fonts`); empty: stacks by name.
    pub fonts: FontPlan,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            media_prefix: "media/".to_owned(),
            media_urls: HashMap::new(),
            show_revisions: true,
            comments: true,
            standalone: false,
            fonts: Default::default(),
        }
    }
}

/// Renders the document to HTML.
pub fn render_html(doc: &Document, opts: &RenderOptions) -> String {
    let mut r = Renderer {
        doc,
        opts,
        out: String::with_capacity(64 * 1024),
        media: doc.media.iter().map(|m| (m.part.as_str(), m)).collect(),
        comment_numbers: doc
            .comments
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.as_str(), i + 1))
            .collect(),
        page: 0,
        pages: 0,
        note_label: None,
        open_comments: Vec::new(),
        comment_ranges_shown: HashSet::new(),
        comment_refs_shown: HashSet::new(),
        pitch: None,
        line_multiple: None,
        scratch: Vec::new(),
        setup: None,
        nested: 0,
        line_top: None,
        footer_lifted: Vec::new(),
    };
    if opts.standalone {
        r.out
            .push_str("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
        let title = doc.properties.title.as_deref().unwrap_or("Document");
        escape_into(&mut r.out, title);
        r.out.push_str("</title><style>");
        r.out.push_str(STYLESHEET);
        r.out.push_str("</style></head><body>");
    }
    r.out.push_str(&opts.fonts.style_element());
    r.document();
    if opts.standalone {
        // A standalone page carries the pagination script inline (no server to load it
        // from; a script body cannot contain `</script`, and this one does not).
        r.out.push_str("<script>");
        r.out.push_str(PAGES_JS);
        r.out.push_str("</script></body></html>\n");
    }
    r.out
}

struct Renderer<'d, 'o> {
    doc: &'d Document,
    opts: &'o RenderOptions,
    out: String,
    media: HashMap<&'d str, &'d MediaPart>,
    comment_numbers: HashMap<&'d str, usize>,
    /// Current page number (1-based) while rendering a frame.
    page: usize,
    pages: usize,
    /// The label of the note being rendered, for its own mark.
    note_label: Option<&'d str>,
    /// Comments whose range is open at this point of the body, in the order they began.
    open_comments: Vec<String>,
    /// Comments whose highlighted range (its first piece carries the anchor) or
    /// reference mark has been written, so the panel can link back to it.
    comment_ranges_shown: HashSet<String>,
    comment_refs_shown: HashSet<String>,
    /// Line pitch of the document grid of the section being drawn, when its lines snap.
    pitch: Option<f32>,
    /// The multiple of single spacing the lines of the paragraph being drawn take, when
    /// they take one (off the grid, not an exact or least height), and the single line
    /// of the paragraph box's face: a run in a face with another line sets that multiple
    /// of its own.
    line_multiple: Option<(f32, f32)>,
    /// Emptied `style="…"` buffers to reuse: a fresh `String` per run, paragraph and
    /// cell (grown a few bytes at a time) was a tenth of rendering time.
    scratch: Vec<String>,
    /// Paper and margins of the page frame being drawn: the reference box of floating
    /// objects (`super::anchor`).
    setup: Option<&'d PageSetup>,
    /// How deep in table cells and text boxes the renderer is: an object anchored there
    /// is placed inside its cell or box, not on the page.
    nested: usize,
    /// Where on the page the first line of the paragraph being drawn starts, when that
    /// is known without laying it out (the header's first paragraph): an object placed
    /// from the page then floats from there, and the text wraps beside it.
    line_top: Option<f32>,
    /// The objects of the footer being drawn that the header drew instead
    /// ([`Renderer::header`]); compared by address only.
    footer_lifted: Vec<*const Inline>,
}

/// A piece of a paragraph laid out in order by [`Renderer::paragraph_inlines`].
enum Piece<'a> {
    /// An inline rendered as usual.
    Leaf(&'a Inline),
    /// Part of a text split at a decimal tab's point.
    Part(&'a str, &'a RunFormat),
    /// A tab.
    Tab,
    /// A break: it ends the line (and the line's tab boxes).
    Break(&'a Inline),
}

/// A piece with its context: the wrappers around it (hyperlinks, insertions,
/// deletions), the comment ranges open over it and where it sits on its line.
struct Flat<'a> {
    piece: Piece<'a>,
    wraps: Vec<usize>,
    /// Index into [`Flattened::comments`].
    comments: usize,
    line: usize,
    /// Pieces between tab `k` and tab `k + 1` of a line are segment `k`.
    seg: usize,
    /// After the point of a decimal tab's text.
    after_point: bool,
}

#[derive(Default)]
struct Flattened<'a> {
    items: Vec<Flat<'a>>,
    wrappers: Vec<&'a Inline>,
    /// Successive states of the open comment ranges.
    comments: Vec<Vec<String>>,
    /// Tab boxes of all lines, numbered in order.
    boxes: Vec<TabBox>,
    line: usize,
    seg: usize,
}

impl<'a> Flattened<'a> {
    fn push(&mut self, piece: Piece<'a>, wraps: &[usize]) {
        self.items.push(Flat {
            piece,
            wraps: wraps.to_vec(),
            comments: self.comments.len().saturating_sub(1),
            line: self.line,
            seg: self.seg,
            after_point: false,
        });
    }
}

/// An element opened around pieces of a laid-out paragraph, outermost first: a tab box,
/// a segment inside it, wrappers, comment highlights.
#[derive(Debug, Clone, PartialEq)]
enum Frame {
    /// Tab box by number.
    TabBox(usize),
    /// The text before the box's stop (`false`) or aligned at it (`true`).
    Seg(usize, bool),
    /// Index into [`Flattened::wrappers`].
    Wrap(usize),
    /// A comment range by comment id.
    Comment(String),
}

/// A box spanning from the previous stop (or the line start) to a custom stop.
struct TabBox {
    width: f32,
    stop: PlacedTab,
}

impl<'d> Renderer<'d, '_> {
    /// An empty buffer for a `style` attribute; hand it back with [`Self::give_back`].
    fn take_buf(&mut self) -> String {
        self.scratch
            .pop()
            .unwrap_or_else(|| String::with_capacity(256))
    }

    fn give_back(&mut self, mut buf: String) {
        buf.clear();
        self.scratch.push(buf);
    }

    fn document(&mut self) {
        let doc = self.doc;
        let pages = paginate(&doc.sections);
        self.pages = pages.len();
        self.out.push_str("<article class=\"docx");
        if !self.opts.show_revisions {
            self.out.push_str(" docx-hide-revisions");
        }
        self.out.push('"');
        // Default tab stops: tab characters advance to multiples of this.
        let _ = write!(self.out, " style=\"tab-size:{}pt", num(self.default_tab()));
        // Text no style sizes: the page frame's size (its CSS default is the viewer's).
        if let Some(size) = doc.unsized_text {
            let _ = write!(self.out, ";--docx-size:{}pt", num(size));
        }
        self.out.push('"');
        if let Some(title) = &doc.properties.title {
            self.out.push_str(" aria-label=\"");
            escape_into(&mut self.out, title);
            self.out.push('"');
        }
        self.out.push('>');
        if !doc.warnings.is_empty() {
            self.out
                .push_str("<div class=\"docx-warnings\" role=\"note\"><ul>");
            for w in &doc.warnings {
                self.out.push_str("<li>");
                escape_into(&mut self.out, w);
                self.out.push_str("</li>");
            }
            self.out.push_str("</ul></div>");
        }
        let headers = inherited_refs(&doc.sections, |s| &s.headers);
        let footers = inherited_refs(&doc.sections, |s| &s.footers);
        for (n, page) in pages.iter().enumerate() {
            self.page = n + 1;
            let Some(section) = doc.sections.get(page.section) else {
                continue;
            };
            let p = &section.page;
            let kind = self.page_kind(section, page);
            let _ = write!(
                self.out,
                "<section class=\"docx-page\" aria-label=\"Page {}\" style=\"--page-w:{}pt;--page-h:{}pt;--m-top:{}pt;--m-right:{}pt;--m-bottom:{}pt;--m-left:{}pt;--hdr:{}pt;--ftr:{}pt\"{}{}>",
                n + 1,
                num(p.width),
                num(p.height),
                num(p.margin_top),
                num(p.margin_right),
                num(p.margin_bottom),
                num(p.margin_left),
                num(p.header_distance),
                num(p.footer_distance),
                if p.landscape { " data-landscape" } else { "" },
                if kind == 1 { " data-docx-title-page" } else { "" }
            );
            self.pitch = p.line_pitch;
            self.setup = Some(p);
            if let Some(borders) = section
                .page_borders
                .as_ref()
                .filter(|b| b.shows_on(page.index_in_section))
            {
                let style = borders.css(p, |v| num(v).to_string(), border_css);
                let _ = write!(
                    self.out,
                    "<div class=\"docx-page-border\" aria-hidden=\"true\" style=\"{style}\"></div>"
                );
            }
            self.header(
                pick(&headers[page.section], kind),
                pick(&footers[page.section], kind),
            );
            self.out.push_str(BODY_OPEN);
            for set in &page.sets {
                self.column_set(section, set);
            }
            self.out.push_str("</div>");
            self.pitch = p.line_pitch;
            if let Some(part) = pick(&footers[page.section], kind) {
                self.header_footer(part, "footer", &[]);
            }
            // The viewer script breaks a frame whose text runs past the page into pages;
            // the section's later pages take the usual header and footer, not the first
            // page's (kind 1) that this frame shows. With different odd and even headers,
            // which one a page takes depends on its number, known only once the script
            // has laid the pages out: every frame carries both, and the script swaps in
            // the one of each page's parity.
            let even_odd = self.doc.even_and_odd_headers;
            if kind == 1 || even_odd {
                self.furniture_template("docx-later-pages", &headers, &footers, page.section, 0);
            }
            if even_odd {
                self.furniture_template("docx-even-pages", &headers, &footers, page.section, 2);
            }
            self.out.push_str("</section>");
        }
        self.page = 0;
        self.setup = None;
        self.pitch = None;
        // A range never closed ends with the body.
        self.open_comments.clear();
        self.notes(NoteKind::Footnote);
        self.notes(NoteKind::Endnote);
        if self.opts.comments {
            self.comments();
        }
        self.out.push_str("</article>");
    }

    /// One section's content on a page, in that section's columns. One-column sets on
    /// the page's own margins go straight into the body; others get a box of their own.
    fn column_set(&mut self, page_section: &Section, set: &ColumnSet<'d>) {
        let Some(section) = self.doc.sections.get(set.section) else {
            return;
        };
        let layout = column_layout(section, set);
        self.pitch = section.page.line_pitch;
        let mut style = self.take_buf();
        // A continuous section keeps its own left and right margins on a shared page.
        let (left, right) = (
            section.page.margin_left - page_section.page.margin_left,
            section.page.margin_right - page_section.page.margin_right,
        );
        if left.abs() >= 0.05 {
            decl_pt(&mut style, "margin-left", left);
        }
        if right.abs() >= 0.05 {
            decl_pt(&mut style, "margin-right", right);
        }
        let rule = "0.75pt solid #000000";
        match layout {
            ColumnLayout::Single => {}
            ColumnLayout::Equal => {
                let count = section.page.columns.to_string();
                decl(&mut style, "column-count", &count);
                let gap = if section.column_widths.len() > 1 {
                    // Unequal columns drawn equal: their mean gap.
                    let gaps = &section.column_widths[..section.column_widths.len() - 1];
                    gaps.iter().map(|c| c.space).sum::<f32>() / gaps.len() as f32
                } else {
                    section.page.column_space
                };
                decl_pt(&mut style, "column-gap", gap);
                if section.page.column_separator {
                    decl(&mut style, "column-rule", rule);
                }
            }
            ColumnLayout::Grid => {
                style.push_str("grid-template-columns:");
                let last = section.column_widths.len() - 1;
                for (i, c) in section.column_widths.iter().enumerate() {
                    let _ = write!(style, "{}pt", num(c.width));
                    if i < last {
                        let _ = write!(style, " {}pt ", num(c.space));
                    }
                }
                style.push(';');
            }
        }
        let boxed = layout != ColumnLayout::Single || !style.is_empty();
        if boxed {
            self.out.push_str(match layout {
                ColumnLayout::Single => "<div class=\"docx-set\"",
                ColumnLayout::Equal => "<div class=\"docx-set docx-columns\"",
                ColumnLayout::Grid => "<div class=\"docx-set docx-columns-grid\"",
            });
            self.out.push_str(" style=\"");
            self.out.push_str(&style);
            self.out.push_str("\">");
        }
        self.give_back(style);
        if layout == ColumnLayout::Grid {
            self.grid_columns(section, set);
        } else {
            // The empty paragraph that only carries a multi-column section's break is its
            // mark, not a line of a column: balancing leaves it out (as LibreOffice does).
            let shown = match set.items.split_last() {
                Some((PageItem::Block(Block::Paragraph(p)), rest))
                    if layout == ColumnLayout::Equal
                        && p.list.is_none()
                        && p.inlines.iter().all(is_invisible) =>
                {
                    rest
                }
                _ => &set.items[..],
            };
            for item in shown {
                self.page_item(item);
            }
        }
        if boxed {
            self.out.push_str("</div>");
        }
    }

    /// Unequal columns: the set's content cut at its column breaks, one grid column per
    /// piece; pieces past the last column start a new row, as the next page would.
    fn grid_columns(&mut self, section: &Section, set: &ColumnSet<'d>) {
        let n = section.column_widths.len().max(1);
        let mut items = set.items.iter().peekable();
        let mut k = 0;
        while items.peek().is_some() {
            let col = k % n;
            let _ = write!(
                self.out,
                "<div class=\"docx-column\" style=\"grid-column:{};grid-row:{}",
                2 * col + 1,
                k / n + 1
            );
            if col > 0 && section.page.column_separator {
                // The line runs down the middle of the gap before the column.
                let half = section.column_widths[col - 1].space / 2.0;
                let _ = write!(
                    self.out,
                    ";border-left:0.75pt solid #000000;padding-left:{h}pt;margin-left:-{h}pt",
                    h = num(half)
                );
            }
            self.out.push_str("\">");
            for item in items.by_ref() {
                if matches!(item, PageItem::ColumnBreak) {
                    break;
                }
                self.page_item(item);
            }
            self.out.push_str("</div>");
            k += 1;
        }
    }

    fn page_item(&mut self, item: &PageItem<'d>) {
        match item {
            PageItem::Block(b) => self.block(b),
            PageItem::Split(p, range, first) => {
                let inlines = p.inlines.get(range.clone()).unwrap_or(&[]);
                self.paragraph(p, inlines, *first);
            }
            PageItem::ColumnBreak => self
                .out
                .push_str("<div class=\"docx-column-start\" aria-hidden=\"true\"></div>"),
        }
    }

    /// A `<template>` of class `class` holding the header and footer of `kind` (see
    /// [`Self::page_kind`]) of section `section`, for the pages script; none when the
    /// section has neither.
    fn furniture_template(
        &mut self,
        class: &str,
        headers: &[HeaderFooterRefs],
        footers: &[HeaderFooterRefs],
        section: usize,
        kind: usize,
    ) {
        let (header, footer) = (pick(&headers[section], kind), pick(&footers[section], kind));
        if header.is_none() && footer.is_none() {
            return;
        }
        let _ = write!(self.out, "<template class=\"{class}\">");
        self.header(header, footer);
        if let Some(part) = footer {
            self.header_footer(part, "footer", &[]);
        }
        self.out.push_str("</template>");
    }

    /// Which header/footer a page uses: 0 default, 1 first, 2 even.
    fn page_kind(&self, section: &Section, page: &Page<'_>) -> usize {
        if section.title_page && page.index_in_section == 0 {
            1
        } else if self.doc.even_and_odd_headers && self.page.is_multiple_of(2) {
            2
        } else {
            0
        }
    }

    /// The page's header, holding also the footer's objects that are placed from the page
    /// and wrap text. Word wraps the body's lines around such objects of the footer as of
    /// the header, but only the header shares the body's formatting context (the footer is
    /// positioned at the page's bottom, see render.css), so they are drawn here, floating
    /// from the header's top, which is known; the footer leaves them out. Their place is
    /// the page's either way. A page without a header gets an empty one to hold them.
    fn header(&mut self, header: Option<&str>, footer: Option<&str>) {
        let doc = self.doc;
        let lifted = footer
            .and_then(|f| doc.headers_footers.iter().find(|h| h.part == f))
            .map(|hf| lifted_floats(&hf.blocks))
            .unwrap_or_default();
        if lifted.is_empty() {
            if let Some(part) = header {
                self.header_footer(part, "header", &[]);
            }
            return;
        }
        match header.filter(|h| doc.headers_footers.iter().any(|x| x.part == *h)) {
            Some(part) => self.header_footer(part, "header", &lifted),
            None => {
                self.out.push_str("<header class=\"docx-header\">");
                self.lifted(&lifted);
                self.out.push_str("</header>");
            }
        }
    }

    /// Draws the footer's lifted objects ([`Self::header`]) at the header's top.
    fn lifted(&mut self, lifted: &[(&'d Inline, &'d RunFormat)]) {
        self.line_top = self.setup.map(|p| p.header_distance);
        for (inline, base) in lifted {
            self.inline(inline, base);
        }
        self.line_top = None;
    }

    fn header_footer(&mut self, part: &str, tag: &str, lifted: &[(&'d Inline, &'d RunFormat)]) {
        let Some(hf) = self.doc.headers_footers.iter().find(|h| h.part == part) else {
            return;
        };
        let _ = write!(self.out, "<{tag} class=\"docx-{tag}\">");
        self.lifted(lifted);
        if tag == "footer" {
            self.footer_lifted = lifted_floats(&hf.blocks)
                .into_iter()
                .map(|(i, _)| i as *const Inline)
                .collect();
        }
        // Body comment ranges open across the page do not extend into its header.
        let body_comments = std::mem::take(&mut self.open_comments);
        for (i, b) in hf.blocks.iter().enumerate() {
            // The header's first line starts the header distance from the page's top,
            // below its paragraph's space before.
            self.line_top = match (b, self.setup) {
                (Block::Paragraph(p), Some(page)) if i == 0 && tag == "header" => {
                    Some(page.header_distance + p.format.space_before)
                }
                _ => None,
            };
            self.block(b);
        }
        self.line_top = None;
        self.footer_lifted.clear();
        self.open_comments = body_comments;
        let _ = write!(self.out, "</{tag}>");
    }

    fn notes(&mut self, kind: NoteKind) {
        let doc = self.doc;
        let (notes, title, prefix) = match kind {
            NoteKind::Footnote => (&doc.footnotes, "Footnotes", "fn"),
            NoteKind::Endnote => (&doc.endnotes, "Endnotes", "en"),
        };
        if notes.is_empty() {
            return;
        }
        let _ = write!(
            self.out,
            "<section class=\"docx-notes\" aria-label=\"{title}\"><h2>{title}</h2>"
        );
        for note in notes {
            let id = anchor_id(&note.id);
            let _ = write!(
                self.out,
                "<div class=\"docx-note\" id=\"docx-{prefix}-{id}\"><a class=\"docx-note-back\" href=\"#docx-{prefix}ref-{id}\">"
            );
            escape_into(&mut self.out, &note.label);
            self.out.push_str("</a>");
            self.note_label = Some(&note.label);
            for b in &note.blocks {
                self.block(b);
            }
            self.note_label = None;
            self.out.push_str("</div>");
        }
        self.out.push_str("</section>");
    }

    fn comments(&mut self) {
        let doc = self.doc;
        if doc.comments.is_empty() {
            return;
        }
        self.out
            .push_str("<aside class=\"docx-comments\" aria-label=\"Comments\"><h2>Comments</h2>");
        for (i, c) in doc.comments.iter().enumerate() {
            let anchor = anchor_id(&c.id);
            let _ = write!(
                self.out,
                "<div class=\"docx-comment\" id=\"docx-comment-{anchor}\"><div class=\"docx-comment-meta\">"
            );
            // The number leads back to the commented text (else to the reference mark).
            let back = if self.comment_ranges_shown.contains(&c.id) {
                Some("crange")
            } else if self.comment_refs_shown.contains(&c.id) {
                Some("cref")
            } else {
                None
            };
            match back {
                Some(kind) => {
                    let _ = write!(
                        self.out,
                        "<a class=\"docx-comment-back\" href=\"#docx-{kind}-{anchor}\">[{}]</a> ",
                        i + 1
                    );
                }
                None => {
                    let _ = write!(self.out, "[{}] ", i + 1);
                }
            }
            escape_into(&mut self.out, &c.author);
            if let Some(date) = &c.date {
                self.out.push_str(" · ");
                escape_into(&mut self.out, date);
            }
            self.out.push_str("</div>");
            for b in &c.blocks {
                self.block(b);
            }
            self.out.push_str("</div>");
        }
        self.out.push_str("</aside>");
    }

    // ----- blocks --------------------------------------------------------------------

    fn block(&mut self, block: &Block) {
        match block {
            Block::Paragraph(p) => self.paragraph(p, &p.inlines, true),
            Block::Table(t) => self.table(t),
            Block::Placeholder(p) => {
                self.out
                    .push_str("<div class=\"docx-placeholder\" role=\"note\">");
                escape_into(&mut self.out, &p.label);
                self.out.push_str("</div>");
            }
        }
    }

    /// A paragraph, or part of one (`first` is false for the part after a page break:
    /// it carries no list label and no space before).
    fn paragraph(&mut self, p: &Paragraph, inlines: &[Inline], first: bool) {
        let level = p.heading_level.unwrap_or(0);
        // A text box holds blocks, which a <p> cannot contain.
        let tag = match level {
            1..=6 => ["h1", "h2", "h3", "h4", "h5", "h6"][usize::from(level) - 1],
            _ if has_text_box(inlines) => "div",
            _ => "p",
        };
        self.out.push('<');
        self.out.push_str(tag);
        self.out.push_str(" class=\"docx-p");
        // Word gives every paragraph its mark's line, also one holding only floating
        // objects (a header of a picture in an empty paragraph still pushes the body
        // down), where CSS would make no line at all.
        let empty = inlines.iter().all(|i| is_invisible(i) || is_floating(i));
        if empty && p.list.is_none() {
            self.out.push_str(" docx-empty");
        }
        if let Some(style) = &p.style_id {
            self.out.push_str(" docx-s-");
            push_css_ident(&mut self.out, style);
        }
        self.out.push('"');
        if level > 6 {
            let _ = write!(self.out, " role=\"heading\" aria-level=\"{level}\"");
        }
        if p.format.bidi {
            self.out.push_str(" dir=\"rtl\"");
        }
        // For the pages script (`docx-pages.js`): where it may not break.
        if p.format.keep_next {
            self.out.push_str(" data-keep-next");
        }
        if p.format.keep_lines {
            self.out.push_str(" data-keep-lines");
        }
        let mut style = self.take_buf();
        // The paragraph mark's own formatting sizes an empty paragraph (its only glyph)
        // and never reaches the text (ECMA-376 §17.3.1.29).
        let own = if empty {
            &p.mark_format
        } else {
            &p.text_format
        };
        // The paragraph's own formatting, as the paragraph box carries it. Its size is
        // also the height of the empty line box CSS starts every line with, and Word's
        // lines are only as tall as their text: when all the text is smaller (a 12 pt
        // style holding 7.5 pt runs), the box takes the largest run's size. A text
        // decoration is drawn by the box that sets it, across everything inside, and a
        // run cannot take it off: the box leaves lines to its runs (a style with
        // strike-through under runs that turn it off had struck them all).
        let smaller = largest_text_size(inlines)
            .filter(|s| !empty && own.size.is_some_and(|o| *s < o))
            .or(own.size);
        // Word's line is as tall as the tallest face on it, and CSS makes it the union of
        // its runs' boxes and the paragraph's own empty one, split by each box's face: the
        // paragraph box is set in the face of most of its text (a Calibri style holding
        // Verdana runs had made every line the taller Calibri strut's), with that face's
        // single line times the multiple, and a run in another face takes the multiple of
        // its own face's line (`Self::text`). On a document grid the line is whole grid
        // lines that fit the tallest face.
        let faces = text_faces(inlines);
        // (Text in the page's face, `None`, would take the box's: the box keeps its own
        // face then.)
        let main_face = faces
            .iter()
            .max_by_key(|(_, chars)| *chars)
            .map(|(f, _)| f)
            .filter(|_| faces.iter().all(|(f, _)| f.is_some()));
        let lines = LineFaces {
            own: self.face_line(main_face.map_or(own.font.as_deref(), |f| f.as_deref())),
            tallest: faces
                .iter()
                .map(|(f, _)| self.face_line(f.as_deref()))
                .reduce(f32::max)
                .unwrap_or_else(|| self.face_line(own.font.as_deref())),
        };
        let own = &RunFormat {
            size: smaller,
            font: main_face.map_or_else(|| own.font.clone(), |f| f.clone()),
            underline: None,
            underline_color: None,
            strike: false,
            double_strike: false,
            ..own.clone()
        };
        let outer_multiple = self.line_multiple;
        self.line_multiple = paragraph_style(&mut style, p, first, self.pitch, own.size, lines)
            .map(|m| (m, lines.own));
        run_style(&mut style, own, None, &self.opts.fonts);
        if !style.is_empty() {
            self.out.push_str(" style=\"");
            escape_into(&mut self.out, &style);
            self.out.push('"');
        }
        self.out.push('>');
        // A label followed by a tab (or nothing) keeps the first word beside it: the
        // label and a word joiner share a box that does not wrap, since CSS breaks after
        // any inline block and would leave the label alone above a word wider than the
        // line (Word breaks such a word at the margin instead). A space suffix may wrap.
        let glued = p
            .list
            .as_ref()
            .is_some_and(|l| first && l.suffix != ListSuffix::Space);
        if glued {
            self.out.push_str("<span class=\"docx-list-keep\">");
        }
        if let (Some(list), true) = (&p.list, first) {
            self.out.push_str("<span class=\"docx-list-label\"");
            let mut label_style = std::mem::take(&mut style);
            label_style.clear();
            // The label is drawn with the paragraph mark's formatting.
            run_style(
                &mut label_style,
                &p.mark_format,
                Some(own),
                &self.opts.fonts,
            );
            if let Some(font) = list.font.as_deref() {
                font_family(
                    &mut label_style,
                    label_face(font, &list.text),
                    &self.opts.fonts,
                );
                // Office's symbol fonts are about as tall as the text faces, so their
                // bullets leave the line as the text sets it; the faces drawn in their
                // place are taller (OpenSymbol's descent is 0.31 em, Carlito's 0.27),
                // and made each list item's first line about a point taller.
                if legacy_symbol(font) {
                    label_style.push_str("line-height:0;");
                }
            }
            // The label and its tab reach the stop Word's tab goes to, so the text lines
            // up as in Word.
            if list.suffix == ListSuffix::Tab {
                let mut format = p.mark_format.clone();
                if let Some(font) = &list.font {
                    format.font = Some(font.clone());
                }
                let width =
                    estimated_width(&Piece::Part(&list.text, &format), own, &self.opts.fonts);
                let _ = write!(
                    label_style,
                    "min-width:{}pt;",
                    num(label_tab(&p.format, width, self.default_tab()))
                );
            }
            if !label_style.is_empty() {
                self.out.push_str(" style=\"");
                escape_into(&mut self.out, &label_style);
                self.out.push('"');
            }
            style = label_style;
            self.out.push('>');
            escape_into(&mut self.out, &list.text);
            self.out.push_str("</span>");
            if list.suffix == ListSuffix::Space {
                self.out.push(' ');
            }
        }
        if glued {
            // The joiner is layout, not text: a copy leaves it out (the label stays).
            self.out
                .push_str("<span class=\"docx-wj\">\u{2060}</span></span>");
        }
        self.give_back(style);
        self.paragraph_inlines(p, inlines, first, own);
        self.line_multiple = outer_multiple;
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }

    /// The distance between default tab stops, in points.
    fn default_tab(&self) -> f32 {
        if self.doc.default_tab_stop > 0.0 {
            self.doc.default_tab_stop
        } else {
            36.0
        }
    }

    /// Word's single line spacing of text in face `face` (`None`: the page's default
    /// face) as a multiple of its size ([`LineMetrics::line`]); a face the machine lacks
    /// counts as [`SINGLE_LINE`].
    ///
    /// [`LineMetrics::line`]: crate::office::fonts::LineMetrics::line
    fn face_line(&self, face: Option<&str>) -> f32 {
        self.opts
            .fonts
            .line_metrics(face)
            .map_or(SINGLE_LINE, |m| m.line)
    }

    fn table(&mut self, t: &Table) {
        // A floating table on the page is placed like a square-wrapped drawing, in a box
        // of its own; in a cell or a text box it stays in the flow.
        let float = t.float.as_ref().filter(|_| self.nested == 0);
        // A share of the text width is resolved against the page: the box the table
        // floats in must have the table's own width.
        let resolved;
        let mut t = t;
        if let (Some(_), Some(Width::Percent(p)), Some(page)) = (float, t.width, self.setup) {
            let text = (page.width - page.margin_left - page.margin_right).max(0.0);
            resolved = Table {
                width: Some(Width::Points(text * p.min(100.0) / 100.0)),
                ..t.clone()
            };
            t = &resolved;
        }
        if let Some(a) = float {
            self.float_box(t, a);
        }
        self.nested += 1;
        self.table_body(t);
        self.nested -= 1;
        if float.is_some() {
            self.out.push_str("</div>");
        }
    }

    /// Opens the box a floating table is placed in (the caller closes it).
    fn float_box(&mut self, t: &Table, a: &super::model::Anchor) {
        let grid: f32 = t.columns.iter().sum();
        let width = match t.width {
            // A fixed layout never draws the table narrower than its grid.
            Some(Width::Points(w)) if w > 0.0 && t.fixed_layout => w.max(grid),
            Some(Width::Points(w)) if w > 0.0 => w,
            _ => grid,
        };
        // The table's height is not known before layout: its rows' stored heights are
        // the best guess (it matters only for a table aligned to a bottom).
        let height: f32 = t.rows.iter().filter_map(|r| r.height).sum();
        let mut style = format!("display:block;width:{}pt;", num(width));
        // One that opens the page's body (a letterhead) stands on the body's first line,
        // at the top margin: placed from the page, it floats from there and the text
        // wraps around it rather than running under it.
        let line_top = self.line_top;
        if self.out.ends_with(BODY_OPEN) && line_top.is_none() {
            self.line_top = self.setup.map(|p| p.margin_top);
        }
        self.place(&mut style, a, width, height);
        self.line_top = line_top;
        let _ = write!(
            self.out,
            "<div class=\"docx-table-float\" style=\"{style}\">"
        );
    }

    fn table_body(&mut self, t: &Table) {
        self.out.push_str("<table class=\"docx-table");
        if t.fixed_layout {
            self.out.push_str(" docx-fixed");
        }
        self.out.push('"');
        // A right-to-left table mirrors its columns; the cells go back to left-to-right
        // so that only paragraphs marked `w:bidi` run the other way.
        if t.right_to_left {
            self.out.push_str(" dir=\"rtl\"");
        }
        let (lead, trail) = if t.right_to_left {
            ("right", "left")
        } else {
            ("left", "right")
        };
        let mut style = self.take_buf();
        match t.width {
            Some(Width::Points(w)) if w > 0.0 => {
                let _ = write!(style, "width:{}pt;", num(w));
            }
            Some(Width::Percent(p)) if p > 0.0 => {
                let _ = write!(style, "width:{}%;", num(p.min(100.0)));
            }
            _ => {}
        }
        // `jc` and `tblInd` are read from the table's leading edge, the right one in a
        // right-to-left table (whose page still runs left to right).
        match (t.align, t.right_to_left) {
            (Align::Center, _) => style.push_str("margin-left:auto;margin-right:auto;"),
            (Align::Right, false) => style.push_str("margin-left:auto;"),
            (Align::Right, true) => {}
            // The left margin is what remains (negative when the table is wider than
            // the text, as it then reaches past the left margin): a right margin would
            // be the one CSS drops, the page running left to right.
            (_, true) => match t.width {
                Some(Width::Points(w)) if w > 0.0 => {
                    let _ = write!(style, "margin-left:calc(100% - {}pt);", num(w + t.indent));
                }
                Some(Width::Percent(p)) if p > 0.0 => {
                    let _ = write!(
                        style,
                        "margin-left:calc({}% - {}pt);",
                        num(100.0 - p.min(100.0)),
                        num(t.indent)
                    );
                }
                _ if t.indent != 0.0 => {
                    let _ = write!(
                        style,
                        "margin-left:auto;position:relative;right:{}pt;",
                        num(t.indent)
                    );
                }
                _ => style.push_str("margin-left:auto;"),
            },
            _ if t.indent != 0.0 => {
                let _ = write!(style, "margin-left:{}pt;", num(t.indent));
            }
            _ => {}
        }
        if !style.is_empty() {
            self.out.push_str(" style=\"");
            self.out.push_str(&style);
            self.out.push('"');
        }
        self.out.push('>');
        if !t.columns.is_empty() {
            self.out.push_str("<colgroup>");
            for w in &t.columns {
                let _ = write!(self.out, "<col style=\"width:{}pt\">", num(*w));
            }
            self.out.push_str("</colgroup>");
        }
        let grid = t.columns.len() as u32;
        let rows = t.rows.len();
        for (r, row) in t.rows.iter().enumerate() {
            self.out.push_str("<tr");
            if let Some(h) = row.height.filter(|h| *h > 0.0) {
                let prop = if row.exact_height {
                    "height"
                } else {
                    "min-height"
                };
                // Table rows honour `height` as a minimum in CSS tables.
                let _ = write!(self.out, " style=\"height:{}pt\" data-{prop}", num(h));
            }
            if let Some(rev) = &row.revision {
                let _ = write!(
                    self.out,
                    " class=\"{}\"",
                    if rev.inserted {
                        "docx-row-ins"
                    } else {
                        "docx-row-del"
                    }
                );
            }
            self.out.push('>');
            let mut col = row.grid_before;
            for (i, cell) in row.cells.iter().enumerate() {
                let start = col;
                col = col.saturating_add(cell.col_span);
                if cell.merged_continuation {
                    continue;
                }
                let tag = if row.header { "th" } else { "td" };
                let _ = write!(self.out, "<{tag}");
                if t.right_to_left {
                    self.out.push_str(" dir=\"ltr\"");
                }
                if cell.col_span > 1 {
                    let _ = write!(self.out, " colspan=\"{}\"", cell.col_span);
                }
                if cell.row_span > 1 {
                    let _ = write!(self.out, " rowspan=\"{}\"", cell.row_span);
                }
                let last_row = r + (cell.row_span.max(1) as usize) >= rows;
                let last_col = col >= grid.max(1) || i + 1 == row.cells.len();
                style.clear();
                for (name, border) in [
                    (
                        "top",
                        cell_side(
                            &cell.borders.top,
                            &t.borders.top,
                            &t.borders.inside_h,
                            r == 0,
                        ),
                    ),
                    (
                        "bottom",
                        cell_side(
                            &cell.borders.bottom,
                            &t.borders.bottom,
                            &t.borders.inside_h,
                            last_row,
                        ),
                    ),
                    (
                        lead,
                        cell_side(
                            &cell.borders.left,
                            &t.borders.left,
                            &t.borders.inside_v,
                            start == 0,
                        ),
                    ),
                    (
                        trail,
                        cell_side(
                            &cell.borders.right,
                            &t.borders.right,
                            &t.borders.inside_v,
                            last_col,
                        ),
                    ),
                ] {
                    if let Some(b) = border {
                        border_css(&mut style, name, b);
                    }
                }
                let m = cell.margins.unwrap_or(t.cell_margins);
                let (pad_right, pad_left) = if t.right_to_left {
                    (m.left, m.right)
                } else {
                    (m.right, m.left)
                };
                let _ = write!(
                    style,
                    "padding:{}pt {}pt {}pt {}pt;",
                    num(m.top),
                    num(pad_right),
                    num(m.bottom),
                    num(pad_left)
                );
                if let Some(fill) = &cell.shading {
                    let _ = write!(style, "background-color:{fill};");
                }
                if let Some(dir) = cell.vertical {
                    // Turned text starts at the bottom (up) or top (down) of the cell, as
                    // its first paragraph's alignment reads along it.
                    let align = cell.blocks.iter().find_map(|b| match b {
                        Block::Paragraph(p) => Some(p.format.align),
                        _ => None,
                    });
                    let v = match (align, dir) {
                        (Some(Align::Center), _) => "middle",
                        (Some(Align::Right), VerticalText::Up) => "top",
                        (Some(Align::Right), VerticalText::Down) => "bottom",
                        (_, VerticalText::Up) => "bottom",
                        (_, VerticalText::Down) => "top",
                    };
                    let _ = write!(style, "vertical-align:{v};");
                } else if let Some(v) = cell.v_align.as_deref() {
                    let v = match v {
                        "center" => "middle",
                        "bottom" => "bottom",
                        _ => "top",
                    };
                    let _ = write!(style, "vertical-align:{v};");
                }
                if let Some(Width::Points(w)) = cell.width.filter(|_| t.columns.is_empty()) {
                    let _ = write!(style, "width:{}pt;", num(w));
                }
                self.out.push_str(" style=\"");
                self.out.push_str(&style);
                self.out.push_str("\">");
                // Vertical text: lines set down the cell, turned as Word turns them (the
                // row grows to the text's length); the cell's own alignment (top, centre,
                // bottom) reads across the turned lines, whose top faces left (up) or
                // right (down).
                if let Some(dir) = cell.vertical {
                    let side = match (cell.v_align.as_deref(), dir) {
                        (Some("center"), _) => "margin:0 auto",
                        (Some("bottom"), VerticalText::Up) => "margin-left:auto",
                        (Some("bottom"), VerticalText::Down) => "margin-right:auto",
                        (_, VerticalText::Up) => "margin-right:auto",
                        (_, VerticalText::Down) => "margin-left:auto",
                    };
                    let class = match dir {
                        VerticalText::Up => "docx-vertical docx-vertical-up",
                        VerticalText::Down => "docx-vertical",
                    };
                    let _ = write!(self.out, "<div class=\"{class}\" style=\"{side}\">");
                }
                // A row of exact height (`hRule="exact"`) keeps it: Word cuts off what does
                // not fit, where a CSS row would grow to its content.
                let exact = row
                    .height
                    .filter(|h| row.exact_height && *h > 0.0)
                    .filter(|_| cell.row_span <= 1 && cell.vertical.is_none())
                    .map(|h| (h - m.top - m.bottom).max(0.0));
                if let Some(h) = exact {
                    let _ = write!(
                        self.out,
                        "<div class=\"docx-exact\" style=\"max-height:{}pt\">",
                        num(h)
                    );
                }
                for b in &cell.blocks {
                    self.block(b);
                }
                // Content of cells covered by this one's vertical merge (normally empty)
                // is shown here rather than lost.
                for below in 1..cell.row_span as usize {
                    if let Some(covered) = t
                        .rows
                        .get(r + below)
                        .and_then(|row| covered_cell(row, start))
                    {
                        for b in &covered.blocks {
                            if !is_empty_block(b) {
                                self.block(b);
                            }
                        }
                    }
                }
                if cell.vertical.is_some() {
                    self.out.push_str("</div>");
                }
                if exact.is_some() {
                    self.out.push_str("</div>");
                }
                let _ = write!(self.out, "</{tag}>");
            }
            self.out.push_str("</tr>");
        }
        self.out.push_str("</table>");
        self.give_back(style);
    }

    // ----- laid-out paragraphs ----------------------------------------------------------
    //
    // Tabs to custom stops and comment highlights need more than one pass over a
    // paragraph, so such paragraphs are first flattened into pieces that each know their
    // wrappers, open comments and place on the line, then written in order, closing and
    // reopening elements where the context changes. Text always stays in document order.
    //
    // Tab layout, without text measurement: each line (the paragraph up to a break) is
    // cut at its tabs into segments. Tabs that reach a custom stop (chosen on estimated
    // widths, see `tabs.rs`) become inline flex boxes of known width, one per stop,
    // spanning from the previous stop (or the line start) to the stop: a box holds the
    // left-aligned text before its stop, the leader (or blank space) and, for a right,
    // centre or decimal stop, the text aligned at the stop. Text after a left stop starts
    // where the box ends, which is the stop unless the text before it is wider (then it
    // follows it: Word would move to a later stop). Tabs past the last custom stop stay
    // tab characters, placed by the browser at multiples of the default stop (`tab-size`,
    // measured from the paragraph's indent; Word measures from the margin, the same for
    // the usual indents). Limits: only the line's first visual line is laid out by stop
    // (text that wraps continues at the indent, as in Word, but a box's own text wraps
    // inside the box); centred text may overlap neighbours that crowd it; bar tabs draw
    // nothing; right-to-left, centred and right-aligned paragraphs keep plain tabs.

    /// The inlines of a paragraph: laid out when it has tabs to custom stops or comment
    /// ranges, else written as they come; `base` is the formatting of the paragraph's
    /// box, which runs inherit.
    fn paragraph_inlines(
        &mut self,
        p: &Paragraph,
        inlines: &[Inline],
        first: bool,
        base: &RunFormat,
    ) {
        let f = &p.format;
        let layout_tabs = matches!(f.align, Align::Left | Align::Justify | Align::Distribute)
            && !f.bidi
            && (!f.tabs.is_empty() || f.indent_first_line < 0.0)
            && contains(inlines, &|i| matches!(i, Inline::Tab));
        let ranges = self.opts.comments
            && !self.doc.comments.is_empty()
            && (!self.open_comments.is_empty()
                || contains(inlines, &|i| {
                    matches!(
                        i,
                        Inline::CommentMark {
                            mark: CommentMarkKind::Start | CommentMarkKind::End,
                            ..
                        }
                    )
                }));
        if !layout_tabs && !ranges {
            self.inlines(inlines, base);
            return;
        }
        let mut flat = Flattened::default();
        flat.comments.push(self.open_comments.clone());
        self.flatten(inlines, &mut Vec::new(), &mut flat);

        // Which stop each tab goes to, line by line.
        let stops = if layout_tabs {
            tabs::paragraph_stops(&f.tabs, f.indent_left, f.indent_first_line < 0.0)
        } else {
            Vec::new()
        };
        let lines = flat.line + 1;
        let mut widths: Vec<Vec<f32>> = vec![vec![0.0]; lines];
        for item in &flat.items {
            let line = &mut widths[item.line];
            // A tab opens the next segment, even when nothing follows it.
            let last = item.seg + usize::from(matches!(item.piece, Piece::Tab));
            if line.len() <= last {
                line.resize(last + 1, 0.0);
            }
            line[item.seg] += estimated_width(&item.piece, base, &self.opts.fonts);
        }
        let boxes = &mut flat.boxes;
        // Per line: the number of its first box and the stops of its boxed tabs.
        let mut plans: Vec<(usize, Vec<PlacedTab>)> = Vec::with_capacity(lines);
        // Per line: whether its last tab was dropped (see below).
        let mut trailing_tab: Vec<bool> = Vec::with_capacity(lines);
        for (line, w) in widths.iter().enumerate() {
            let x0 = if line == 0 && first {
                match &p.list {
                    Some(l) if l.suffix == ListSuffix::Tab && f.indent_first_line < 0.0 => 0.0,
                    Some(l) => {
                        f.indent_first_line.max(0.0)
                            + tabs::estimate(l.text.chars().count() + 1, base.size.unwrap_or(11.0))
                    }
                    None => f.indent_first_line,
                }
            } else {
                0.0
            };
            let mut placed = if stops.is_empty() {
                Vec::new()
            } else {
                tabs::place_line(&stops, x0, w)
            };
            // A line's last tab with nothing drawn after it and no leader shows nothing:
            // Word ends it at the line's edge, so a float beside the line (a header's
            // picture) leaves the line where it is. As a box of its stop's width it
            // pushed the line below the float (`powertools-DB006`'s header).
            let trailing = placed.len() + 1 == w.len()
                && w.last().is_some_and(|x| *x == 0.0)
                && placed.last().is_some_and(|t| t.leader.is_none());
            if trailing {
                placed.pop();
            }
            let first_box = boxes.len();
            let mut from = x0;
            for stop in &placed {
                boxes.push(TabBox {
                    width: (stop.x - from).max(0.0),
                    stop: *stop,
                });
                from = stop.x;
            }
            plans.push((first_box, placed));
            trailing_tab.push(trailing);
        }
        split_decimals(&mut flat, &plans);

        let mut open: Vec<Frame> = Vec::new();
        let items = std::mem::take(&mut flat.items);
        for item in &items {
            let (first_box, placed) = &plans[item.line];
            let m = placed.len();
            let j = item.seg;
            let mut path = Vec::new();
            if let Piece::Tab = item.piece {
                if j == m && trailing_tab[item.line] {
                    continue;
                }
                if j < m {
                    // A tab to a custom stop: its box's leader.
                    let b = first_box + j;
                    path.push(Frame::TabBox(b));
                    self.sync_frames(&mut open, &path, &flat);
                    self.out.push_str("<span class=\"docx-leader");
                    if let Some(leader) = flat.boxes[b].stop.leader {
                        self.out.push_str(match leader {
                            TabLeader::Dot => " docx-leader-dot",
                            TabLeader::Hyphen => " docx-leader-hyphen",
                            TabLeader::Underscore => " docx-leader-underscore",
                            TabLeader::MiddleDot => " docx-leader-middledot",
                            TabLeader::Heavy => " docx-leader-heavy",
                        });
                    }
                    self.out.push_str("\"></span>");
                    continue;
                }
            }
            let aligned_at_stop = j >= 1
                && j <= m
                && placed[j - 1].align != TabAlign::Left
                && !(placed[j - 1].align == TabAlign::Decimal && item.after_point);
            if !matches!(item.piece, Piece::Break(_)) {
                if aligned_at_stop {
                    path.push(Frame::TabBox(first_box + j - 1));
                    path.push(Frame::Seg(first_box + j - 1, true));
                } else if j < m {
                    path.push(Frame::TabBox(first_box + j));
                    path.push(Frame::Seg(first_box + j, false));
                }
            }
            path.extend(item.wraps.iter().map(|w| Frame::Wrap(*w)));
            path.extend(
                flat.comments[item.comments]
                    .iter()
                    .map(|c| Frame::Comment(c.clone())),
            );
            self.sync_frames(&mut open, &path, &flat);
            match &item.piece {
                Piece::Leaf(inline) | Piece::Break(inline) => self.inline(inline, base),
                Piece::Part(text, format) => self.text(text, format, base),
                Piece::Tab => self.out.push_str("<span class=\"docx-tab\">\t</span>"),
            }
        }
        self.sync_frames(&mut open, &[], &flat);
    }

    /// Flattens `inlines` into pieces, following comment range marks.
    fn flatten<'a>(
        &mut self,
        inlines: &'a [Inline],
        wraps: &mut Vec<usize>,
        f: &mut Flattened<'a>,
    ) {
        for inline in inlines {
            match inline {
                Inline::Hyperlink { children, .. }
                | Inline::Inserted { children, .. }
                | Inline::Deleted { children, .. } => {
                    f.wrappers.push(inline);
                    wraps.push(f.wrappers.len() - 1);
                    self.flatten(children, wraps, f);
                    wraps.pop();
                }
                Inline::Field {
                    instruction,
                    children,
                } if !self.is_page_number(instruction) => self.flatten(children, wraps, f),
                Inline::CommentMark { id, mark } if *mark != CommentMarkKind::Reference => {
                    if !self.opts.comments || !self.comment_numbers.contains_key(id.as_str()) {
                        continue;
                    }
                    let open = &mut self.open_comments;
                    let before = open.len();
                    if *mark == CommentMarkKind::Start {
                        if !open.contains(id) {
                            open.push(id.clone());
                        }
                    } else {
                        open.retain(|o| o != id);
                    }
                    if open.len() != before {
                        f.comments.push(open.clone());
                    }
                }
                Inline::Tab => {
                    f.push(Piece::Tab, wraps);
                    f.seg += 1;
                }
                Inline::Break { .. } => {
                    f.push(Piece::Break(inline), wraps);
                    f.line += 1;
                    f.seg = 0;
                }
                _ => f.push(Piece::Leaf(inline), wraps),
            }
        }
    }

    /// Closes the frames of `open` that `path` does not share and opens the rest of it.
    fn sync_frames(&mut self, open: &mut Vec<Frame>, path: &[Frame], flat: &Flattened<'_>) {
        let common = open.iter().zip(path).take_while(|(a, b)| a == b).count();
        while open.len() > common {
            match open.pop() {
                Some(Frame::Wrap(w)) => self.close_wrapper(flat.wrappers[w]),
                Some(Frame::Comment(_)) => self.out.push_str("</mark>"),
                Some(_) => self.out.push_str("</span>"),
                None => {}
            }
        }
        for frame in &path[common..] {
            match frame {
                Frame::TabBox(b) => {
                    let b = &flat.boxes[*b];
                    // A box ending in text aligned at its stop has the stop's width (its
                    // other text wraps inside); one before a left stop grows past it
                    // when its text is wider.
                    let (class, prop) = if b.stop.align == TabAlign::Left {
                        ("docx-tabbox", "min-width")
                    } else {
                        ("docx-tabbox docx-tabbox-to-stop", "width")
                    };
                    let _ = write!(
                        self.out,
                        "<span class=\"{class}\" style=\"{prop}:{}pt\">",
                        num(b.width)
                    );
                }
                Frame::Seg(_, false) => self.out.push_str("<span class=\"docx-tabseg\">"),
                Frame::Seg(b, true) => {
                    self.out
                        .push_str(if flat.boxes[*b].stop.align == TabAlign::Center {
                            "<span class=\"docx-tabseg docx-tab-center\">"
                        } else {
                            "<span class=\"docx-tabseg docx-tab-end\">"
                        })
                }
                Frame::Wrap(w) => self.open_wrapper(flat.wrappers[*w]),
                Frame::Comment(id) => {
                    let anchor = anchor_id(id);
                    let _ = write!(
                        self.out,
                        "<mark class=\"docx-comment-range\" data-comment=\"{anchor}\""
                    );
                    if self.comment_ranges_shown.insert(id.clone()) {
                        let _ = write!(self.out, " id=\"docx-crange-{anchor}\"");
                    }
                    self.out.push('>');
                }
            }
            open.push(frame.clone());
        }
    }

    /// Whether a field shows the page number or count (rendered here, not its result).
    fn is_page_number(&self, instruction: &str) -> bool {
        self.page > 0
            && matches!(
                field_name(instruction).as_str(),
                "PAGE" | "NUMPAGES" | "SECTIONPAGES"
            )
    }

    // ----- inlines -------------------------------------------------------------------

    fn inlines(&mut self, inlines: &[Inline], base: &RunFormat) {
        for inline in inlines {
            self.inline(inline, base);
        }
    }

    fn inline(&mut self, inline: &Inline, base: &RunFormat) {
        // A size relative to the page is resolved first, against this page; the copy
        // has a fixed size, so it goes through the arms below like any other.
        if self.footer_lifted.iter().any(|l| std::ptr::eq(*l, inline)) {
            return;
        }
        if let Some(sized) = self.page_sized(inline) {
            return self.inline(&sized, base);
        }
        match inline {
            Inline::Text { text, format } => self.text(text, format, base),
            Inline::Symbol { text, format, .. } => self.text(text, format, base),
            Inline::Tab => self.out.push_str("<span class=\"docx-tab\">\t</span>"),
            Inline::Break { kind } => match kind {
                BreakKind::Page => self.out.push_str("<br class=\"docx-page-break\">"),
                BreakKind::Column => self.out.push_str("<br class=\"docx-column-break\">"),
                BreakKind::Line => self.out.push_str("<br>"),
            },
            Inline::Math(m) => self.out.push_str(&m.to_mathml()),
            Inline::Image(img) => self.image(img),
            Inline::TextBox(b) if b.line.is_some() => self.line_shape(b),
            Inline::TextBox(b) => {
                self.out
                    .push_str("<span class=\"docx-textbox\" role=\"group\"");
                let mut style = String::new();
                if let Some(w) = b.width {
                    let _ = write!(style, "width:{}pt;", num(w));
                }
                if let Some(h) = b.height {
                    let _ = write!(style, "min-height:{}pt;", num(h));
                }
                // A preset other than a rectangle, or a custom outline, is drawn as SVG
                // behind its text; the box itself then paints nothing.
                let shape = geometry_svg(b, self.out.len());
                if let Some(shape) = &shape {
                    style.push_str(&shape.style);
                } else {
                    if let Some(fill) = &b.fill {
                        match b.fill_opacity {
                            Some(a) => {
                                let _ = write!(
                                    style,
                                    "background-color:{}{:02X};",
                                    fill.as_str(),
                                    alpha_byte(a)
                                );
                            }
                            None => decl(&mut style, "background-color", fill),
                        }
                    }
                    let insets = if b.blocks.is_empty() && b.fill.is_some() {
                        Some([0.0; 4])
                    } else {
                        b.insets
                    };
                    if let Some([l, t, r, bottom]) = insets {
                        let _ = write!(
                            style,
                            "padding:{}pt {}pt {}pt {}pt;",
                            num(t),
                            num(r),
                            num(bottom),
                            num(l)
                        );
                    }
                    if let Some(line) = &b.outline {
                        border_css(&mut style, "", line);
                    }
                    if let Some((from, to, angle)) = &b.gradient {
                        // CSS angles start at the top (0deg = upwards); DrawingML's at the left.
                        let _ = write!(
                            style,
                            "background-image:linear-gradient({}deg,{from},{to});",
                            num(angle + 90.0)
                        );
                    }
                }
                match b.text_anchor.as_deref() {
                    Some("ctr") => style.push_str(
                        "display:inline-flex;flex-direction:column;justify-content:center;",
                    ),
                    Some("b") => style.push_str(
                        "display:inline-flex;flex-direction:column;justify-content:flex-end;",
                    ),
                    _ => {}
                }
                rotate(&mut style, b.rotation);
                if let Some(a) = &b.anchor {
                    let (w, h) = (b.width.unwrap_or(0.0), b.height.unwrap_or(0.0));
                    self.place(&mut style, a, w, h);
                }
                if !style.is_empty() {
                    let _ = write!(self.out, " style=\"{style}\"");
                }
                self.out.push('>');
                if let Some(shape) = &shape {
                    self.out.push_str(&shape.svg);
                }
                self.nested += 1;
                for block in &b.blocks {
                    self.block(block);
                }
                self.nested -= 1;
                self.out.push_str("</span>");
            }
            Inline::Group(g) => self.group(g, base),
            Inline::Chart(c) => self.chart(c),
            Inline::WordArt(w) => self.word_art(w),
            Inline::Diagram(d) => self.diagram(d),
            Inline::CheckBox(c) => {
                let _ = write!(
                    self.out,
                    "<span class=\"docx-checkbox\" role=\"checkbox\" aria-checked=\"{}\" aria-readonly=\"true\">",
                    c.checked
                );
                self.text(&c.text, &c.format, base);
                self.out.push_str("</span>");
            }
            Inline::Placeholder(p) => {
                self.out
                    .push_str("<span class=\"docx-placeholder\" role=\"img\" aria-label=\"");
                escape_into(&mut self.out, &p.label);
                self.out.push_str("\">");
                escape_into(&mut self.out, &p.label);
                self.out.push_str("</span>");
            }
            Inline::Hyperlink { children, .. } => {
                self.open_wrapper(inline);
                self.inlines(children, base);
                self.close_wrapper(inline);
            }
            Inline::Field {
                instruction,
                children,
            } => {
                let name = field_name(instruction);
                let page_number = match name.as_str() {
                    "PAGE" if self.page > 0 => Some(self.page),
                    "NUMPAGES" | "SECTIONPAGES" if self.page > 0 => Some(self.pages),
                    _ => None,
                };
                match page_number {
                    Some(n) => {
                        let format = children.iter().find_map(|c| match c {
                            Inline::Text { format, .. } => Some(format),
                            _ => None,
                        });
                        // The viewer script numbers it again once it has laid out pages.
                        let field = if name == "PAGE" { "PAGE" } else { "NUMPAGES" };
                        let _ = write!(
                            self.out,
                            "<span class=\"docx-pgnum\" data-field=\"{field}\">"
                        );
                        self.text(&n.to_string(), format.unwrap_or(base), base);
                        self.out.push_str("</span>");
                    }
                    None => self.inlines(children, base),
                }
            }
            Inline::Inserted { children, .. } | Inline::Deleted { children, .. } => {
                self.open_wrapper(inline);
                self.inlines(children, base);
                self.close_wrapper(inline);
            }
            Inline::NoteReference {
                kind, id, label, ..
            } => {
                let prefix = if *kind == NoteKind::Footnote {
                    "fn"
                } else {
                    "en"
                };
                let id = anchor_id(id);
                let _ = write!(
                    self.out,
                    "<sup class=\"docx-note-ref\"><a href=\"#docx-{prefix}-{id}\" id=\"docx-{prefix}ref-{id}\">"
                );
                escape_into(&mut self.out, label);
                self.out.push_str("</a></sup>");
            }
            Inline::NoteMark { .. } => {
                if let Some(label) = self.note_label {
                    self.out.push_str("<sup class=\"docx-note-mark\">");
                    escape_into(&mut self.out, label);
                    self.out.push_str("</sup>");
                }
            }
            Inline::CommentMark { id, mark } => {
                if !self.opts.comments {
                    return;
                }
                // Range starts and ends are laid out by `paragraph_inlines`.
                if let (CommentMarkKind::Reference, Some(n)) =
                    (mark, self.comment_numbers.get(id.as_str()).copied())
                {
                    let anchor = anchor_id(id);
                    let _ = write!(
                        self.out,
                        "<a class=\"docx-comment-ref\" href=\"#docx-comment-{anchor}\""
                    );
                    if self.comment_refs_shown.insert(id.clone()) {
                        let _ = write!(self.out, " id=\"docx-cref-{anchor}\"");
                    }
                    let _ = write!(self.out, ">[{n}]</a>");
                }
            }
            Inline::Bookmark { name } => {
                let _ = write!(
                    self.out,
                    "<a class=\"docx-bookmark\" id=\"docx-bm-{}\"></a>",
                    anchor_id(name)
                );
            }
        }
    }

    /// Opens the element of a hyperlink, insertion or deletion (nothing for others).
    fn open_wrapper(&mut self, inline: &Inline) {
        match inline {
            Inline::Hyperlink {
                target, tooltip, ..
            } => {
                let href = match target {
                    LinkTarget::External { url } => safe_href(url),
                    LinkTarget::Internal { anchor } => {
                        Some(format!("#docx-bm-{}", anchor_id(anchor)))
                    }
                };
                match href {
                    Some(href) => {
                        self.out.push_str("<a href=\"");
                        escape_into(&mut self.out, &href);
                        self.out.push('"');
                        if href.starts_with("http") {
                            self.out
                                .push_str(" rel=\"noopener noreferrer\" target=\"_blank\"");
                        }
                    }
                    None => {
                        // Not a scheme we follow: inert, the address shown on hover.
                        self.out.push_str("<span class=\"docx-link-inert\"");
                        if let LinkTarget::External { url } = target {
                            self.out.push_str(" title=\"");
                            escape_into(&mut self.out, url);
                            self.out.push('"');
                        }
                    }
                }
                if let Some(tip) = tooltip {
                    self.out.push_str(" data-tooltip=\"");
                    escape_into(&mut self.out, tip);
                    self.out.push('"');
                }
                self.out.push('>');
            }
            Inline::Inserted { revision, .. } | Inline::Deleted { revision, .. } => {
                let (tag, class) = if matches!(inline, Inline::Inserted { .. }) {
                    ("ins", "docx-ins")
                } else {
                    ("del", "docx-del")
                };
                let _ = write!(self.out, "<{tag} class=\"{class}\"");
                let mut title = String::new();
                if let Some(a) = &revision.author {
                    title.push_str(a);
                }
                if let Some(d) = &revision.date {
                    if !title.is_empty() {
                        title.push_str(", ");
                    }
                    title.push_str(d);
                }
                if !title.is_empty() {
                    self.out.push_str(" title=\"");
                    escape_into(&mut self.out, &title);
                    self.out.push('"');
                }
                if let Some(d) = &revision.date {
                    self.out.push_str(" datetime=\"");
                    escape_into(&mut self.out, d);
                    self.out.push('"');
                }
                self.out.push('>');
            }
            _ => {}
        }
    }

    /// Closes what [`Self::open_wrapper`] opened.
    fn close_wrapper(&mut self, inline: &Inline) {
        match inline {
            Inline::Hyperlink { target, .. } => {
                let closing = if self.out_is_link(target) {
                    "</a>"
                } else {
                    "</span>"
                };
                self.out.push_str(closing);
            }
            Inline::Inserted { .. } => self.out.push_str("</ins>"),
            Inline::Deleted { .. } => self.out.push_str("</del>"),
            _ => {}
        }
    }

    fn out_is_link(&self, target: &LinkTarget) -> bool {
        match target {
            LinkTarget::External { url } => safe_href(url).is_some(),
            LinkTarget::Internal { .. } => true,
        }
    }

    fn text(&mut self, text: &str, format: &RunFormat, base: &RunFormat) {
        let mut style = self.take_buf();
        run_style(&mut style, format, Some(base), &self.opts.fonts);
        if let Some((m, own)) = self.line_multiple {
            let line = self.face_line(format.font.as_deref());
            if (own - line).abs() > 5e-5 {
                line_height(&mut style, m * line);
            }
        }
        let wrap = match format.vertical_align {
            Some(super::model::VerticalAlign::Superscript) => Some("sup"),
            Some(super::model::VerticalAlign::Subscript) => Some("sub"),
            None => None,
        };
        if let Some(tag) = wrap {
            let _ = write!(self.out, "<{tag}>");
        }
        let span = !style.is_empty() || format.hidden || format.rtl;
        if span {
            self.out.push_str("<span");
            if format.hidden {
                self.out.push_str(" class=\"docx-hidden\"");
            }
            if format.rtl {
                self.out.push_str(" dir=\"rtl\"");
            }
            if !style.is_empty() {
                self.out.push_str(" style=\"");
                escape_into(&mut self.out, &style);
                self.out.push('"');
            }
            self.out.push('>');
        }
        self.give_back(style);
        escape_into(&mut self.out, text);
        if span {
            self.out.push_str("</span>");
        }
        if let Some(tag) = wrap {
            let _ = write!(self.out, "</{tag}>");
        }
    }

    /// A SmartArt diagram: inline, its SVG; anchored, the SVG in a box placed like any
    /// other float.
    fn diagram(&mut self, d: &super::model::DiagramFrame) {
        let svg = crate::office::smartart::render::svg(&d.diagram);
        let Some(a) = &d.anchor else {
            self.out.push_str(&svg);
            return;
        };
        let (w, h) = (d.diagram.width as f32, d.diagram.height as f32);
        let mut style = format!(
            "display:inline-block;width:{}pt;height:{}pt;",
            num(w),
            num(h)
        );
        self.place(&mut style, a, w, h);
        let _ = write!(self.out, "<span class=\"docx-diagram\" style=\"{style}\">");
        self.out.push_str(&svg);
        self.out.push_str("</span>");
    }

    /// A chart frame: the chart engine's SVG at the frame's size, or a placeholder
    /// naming the chart when it has nothing to draw.
    fn chart(&mut self, c: &ChartFrame) {
        let label = crate::office::chart::accessible_label(&c.chart);
        let mut style = format!(
            "display:inline-block;width:{}pt;height:{}pt;",
            num(c.width),
            num(c.height)
        );
        if let Some(a) = &c.anchor {
            self.place(&mut style, a, c.width, c.height);
        }
        let _ = write!(
            self.out,
            "<span class=\"docx-chart\" style=\"{style}\" role=\"img\" aria-label=\""
        );
        escape_into(&mut self.out, &label);
        self.out.push_str("\">");
        // The chart's text in its own typeface, through the document's font plan.
        let stack = self.opts.fonts.stack(&c.chart.font).unwrap_or_default();
        // Unique in the page: the output's length so far.
        let id_prefix = format!("docx-chart{}", self.out.len());
        let mut opts = crate::office::chart::SvgOptions {
            class: "docx-chart-svg",
            id_prefix: &id_prefix,
            fill_container: true,
            ..crate::office::chart::SvgOptions::default()
        };
        if !stack.is_empty() {
            opts.font_family = &stack;
        }
        // Labels, legends and axis room measured in the face the page draws them in.
        let fonts = &self.opts.fonts;
        let measure = |t: &str| fonts.text_width_em(Some(&c.chart.font), false, t);
        opts.measure = Some(crate::office::chart::Measure(&measure));
        match crate::office::chart::render_svg(
            &c.chart,
            f64::from(c.width),
            f64::from(c.height),
            &opts,
        ) {
            Some(svg) => self.out.push_str(&svg),
            None => escape_into(&mut self.out, &label),
        }
        self.out.push_str("</span>");
    }

    fn image(&mut self, img: &Image) {
        let mut style = String::new();
        if img.width > 0.0 && img.height > 0.0 {
            let _ = write!(
                style,
                "width:{}pt;aspect-ratio:{}/{};",
                num(img.width),
                num(img.width),
                num(img.height)
            );
        }
        rotate(&mut style, img.rotation);
        if let Some(a) = &img.anchor {
            self.place(&mut style, a, img.width, img.height);
        }
        let alt = img.alt.as_deref().unwrap_or("");
        let url = match &img.source {
            ImageSource::Part { part } => {
                let media = self.media.get(part.as_str());
                if media.is_some_and(|m| m.displayable) {
                    Some(self.opts.media_urls.get(part).cloned().unwrap_or_else(|| {
                        format!("{}{}", self.opts.media_prefix, encode_path(part))
                    }))
                } else {
                    let kind = media
                        .and_then(|m| m.format)
                        .map(|f| format!("{f:?} image").to_uppercase())
                        .unwrap_or_else(|| "IMAGE".to_owned());
                    self.placeholder(&style, &format!("{kind} (not displayable)"), alt);
                    return;
                }
            }
            ImageSource::External { url } => {
                self.placeholder(&style, &format!("Linked image not loaded: {url}"), alt);
                return;
            }
            ImageSource::Missing { .. } => {
                self.placeholder(&style, "Missing image", alt);
                return;
            }
        };
        self.out.push_str("<img src=\"");
        escape_into(&mut self.out, url.as_deref().unwrap_or(""));
        self.out.push_str("\" alt=\"");
        escape_into(&mut self.out, alt);
        self.out.push('"');
        if !style.is_empty() {
            self.out.push_str(" style=\"");
            escape_into(&mut self.out, &style);
            self.out.push('"');
        }
        self.out.push_str(" loading=\"lazy\">");
    }

    /// A line or connector: an SVG stroke across its box (straight, elbow or S-curve),
    /// mirrored as the shape's flips say, with its arrowheads.
    /// A group of drawings: one box of its size, placed like any drawing, with each
    /// drawing at its place inside.
    fn group(&mut self, g: &super::model::ShapeGroup, base: &RunFormat) {
        let mut style = format!("width:{}pt;height:{}pt;", num(g.width), num(g.height));
        if let Some(a) = &g.anchor {
            self.place(&mut style, a, g.width, g.height);
        }
        let _ = write!(
            self.out,
            "<span class=\"docx-group\" role=\"group\" style=\"{style}\">"
        );
        self.nested += 1;
        for c in &g.children {
            let _ = write!(
                self.out,
                "<span class=\"docx-group-item\" style=\"left:{}pt;top:{}pt",
                num(c.x),
                num(c.y)
            );
            // A shape in a group keeps its size: text that does not fit runs over it.
            if let Inline::TextBox(b) = &c.inline {
                if let (Some(w), Some(h)) = (b.width, b.height) {
                    let _ = write!(self.out, ";width:{}pt;height:{}pt", num(w), num(h));
                }
            }
            self.out.push_str("\">");
            self.inline(&c.inline, base);
            self.out.push_str("</span>");
        }
        self.nested -= 1;
        self.out.push_str("</span>");
    }

    fn line_shape(&mut self, b: &super::model::TextBox) {
        let Some(line) = &b.line else {
            return;
        };
        let (w, h) = (b.width.unwrap_or(0.0), b.height.unwrap_or(0.0));
        let mut style = format!(
            "display:inline-block;overflow:visible;width:{}pt;height:{}pt;",
            num(w),
            num(h)
        );
        rotate(&mut style, b.rotation);
        if let Some(a) = &b.anchor {
            self.place(&mut style, a, w, h);
        }
        let (color, width) = match &b.outline {
            Some(o) if o.style != "none" => (
                o.color
                    .map_or_else(|| "#000000".to_owned(), |c| c.to_string()),
                o.width.max(0.25),
            ),
            _ => ("#000000".to_owned(), 0.75),
        };
        // End points in the box's own points, before the flips.
        let (x0, y0, x1, y1) = match (line.flip_h, line.flip_v) {
            (false, false) => (0.0, 0.0, w, h),
            (true, false) => (w, 0.0, 0.0, h),
            (false, true) => (0.0, h, w, 0.0),
            (true, true) => (w, h, 0.0, 0.0),
        };
        let mx = (x0 + x1) / 2.0;
        let d = match line.kind.as_str() {
            "bent" => format!(
                "M{} {}H{}V{}H{}",
                num(x0),
                num(y0),
                num(mx),
                num(y1),
                num(x1)
            ),
            "curved" => format!(
                "M{} {}C{} {} {} {} {} {}",
                num(x0),
                num(y0),
                num(mx),
                num(y0),
                num(mx),
                num(y1),
                num(x1),
                num(y1)
            ),
            _ => format!("M{} {}L{} {}", num(x0), num(y0), num(x1), num(y1)),
        };
        let _ = write!(
            self.out,
            "<svg class=\"docx-line\" viewBox=\"0 0 {} {}\" style=\"{style}\" aria-hidden=\"true\"><path d=\"{d}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{}\"/>",
            num(w.max(0.01)),
            num(h.max(0.01)),
            num(width)
        );
        // Arrowheads: a small triangle at each end that has one, along the last segment.
        let size = (width * 3.0).max(4.5);
        let ends = [
            (
                line.head_arrow,
                x0,
                y0,
                if line.kind == "straight" {
                    (x1, y1)
                } else {
                    (mx, y0)
                },
            ),
            (
                line.tail_arrow,
                x1,
                y1,
                if line.kind == "straight" {
                    (x0, y0)
                } else {
                    (mx, y1)
                },
            ),
        ];
        for (on, x, y, (fx, fy)) in ends {
            if !on {
                continue;
            }
            let (dx, dy) = (x - fx, y - fy);
            let len = (dx * dx + dy * dy).sqrt();
            if len.is_nan() || len <= 0.0 {
                continue;
            }
            let (ux, uy) = (dx / len, dy / len);
            let (bx, by) = (x - ux * size, y - uy * size);
            let (px, py) = (-uy * size / 2.0, ux * size / 2.0);
            let _ = write!(
                self.out,
                "<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{color}\"/>",
                num(x),
                num(y),
                num(bx + px),
                num(by + py),
                num(bx - px),
                num(by - py)
            );
        }
        self.out.push_str("</svg>");
    }

    /// A text path: an SVG whose text is stretched to the box (`textLength`), under the
    /// page text when it is a watermark (Word puts those behind).
    fn word_art(&mut self, w: &WordArt) {
        let mut style = format!(
            "display:inline-block;overflow:visible;width:{}pt;height:{}pt;",
            num(w.width),
            num(w.height)
        );
        rotate(&mut style, w.rotation);
        if let Some(a) = &w.anchor {
            self.place(&mut style, a, w.width, w.height);
        }
        let _ = write!(
            self.out,
            "<svg class=\"docx-wordart\" viewBox=\"0 0 {w_} {h}\" preserveAspectRatio=\"none\" style=\"{style}\" role=\"img\" aria-label=\"",
            w_ = num(w.width),
            h = num(w.height)
        );
        escape_into(&mut self.out, &w.text);
        let fill = w
            .fill
            .map_or_else(|| "#000000".to_owned(), |c| c.to_string());
        // The font size is the box height; the baseline sits where a cap height would
        // fill it (about 0.8 of the em box).
        let _ = write!(
            self.out,
            "\"><text x=\"0\" y=\"{}\" font-size=\"{}\" textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\" fill=\"{fill}\"",
            num(w.height * 0.85),
            num(w.height),
            num(w.width)
        );
        if let Some(o) = w.opacity {
            let _ = write!(self.out, " fill-opacity=\"{}\"", num(o));
        }
        if let Some(f) = &w.font {
            let safe: String = f
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                .collect();
            let _ = write!(self.out, " font-family=\"{safe}, sans-serif\"");
        }
        self.out.push('>');
        escape_into(&mut self.out, &w.text);
        self.out.push_str("</text></svg>");
    }

    /// Placement of a floating object of `w` × `h` points: from its anchor on the page
    /// (`super::anchor`), or beside the text where it stands inside a cell or text box.
    /// `inline` with its page-relative width or height (`wp14:sizeRelH`/`sizeRelV`)
    /// turned into points on this page, when it has one and the page is known; `None`
    /// otherwise. Only pictures and shapes: a group's children are placed in points
    /// already, and stay at their stored size.
    fn page_sized(&self, inline: &Inline) -> Option<Inline> {
        let page = self.setup.filter(|_| self.nested == 0)?;
        let relative = |a: &Option<Anchor>| {
            a.as_ref()
                .filter(|a| a.relative_width.is_some() || a.relative_height.is_some())
                .cloned()
        };
        // The copy keeps its anchor, less the relative sizes already applied.
        let fixed = |mut a: Anchor| {
            a.relative_width = None;
            a.relative_height = None;
            Some(a)
        };
        match inline {
            Inline::TextBox(b) => {
                let a = relative(&b.anchor)?;
                let (w, h) =
                    super::anchor::size(&a, b.width.unwrap_or(0.0), b.height.unwrap_or(0.0), page);
                Some(Inline::TextBox(super::model::TextBox {
                    width: Some(w).filter(|w| *w > 0.0),
                    height: Some(h).filter(|h| *h > 0.0),
                    anchor: fixed(a),
                    ..b.clone()
                }))
            }
            Inline::Image(img) => {
                let a = relative(&img.anchor)?;
                let (width, height) = super::anchor::size(&a, img.width, img.height, page);
                Some(Inline::Image(super::model::Image {
                    width,
                    height,
                    anchor: fixed(a),
                    ..img.clone()
                }))
            }
            _ => None,
        }
    }

    fn place(&self, style: &mut String, a: &Anchor, w: f32, h: f32) {
        match self.setup {
            Some(page) if self.nested == 0 => {
                let p = super::anchor::place(a, w, h, page, self.line_top);
                super::anchor::css(&p, style, |v| num(v).to_string());
            }
            _ => float_class_style(style, a.align_h.as_deref(), &a.wrap),
        }
    }

    fn placeholder(&mut self, style: &str, label: &str, alt: &str) {
        self.out
            .push_str("<span class=\"docx-placeholder\" role=\"img\" aria-label=\"");
        escape_into(&mut self.out, if alt.is_empty() { label } else { alt });
        self.out.push('"');
        if !style.is_empty() {
            self.out.push_str(" style=\"");
            escape_into(&mut self.out, style);
            self.out.push('"');
        }
        self.out.push('>');
        escape_into(&mut self.out, label);
        self.out.push_str("</span>");
    }
}

/// Header/footer references per section, inheriting from the previous section where a
/// section names none.
fn inherited_refs<'d>(
    sections: &'d [Section],
    get: impl Fn(&'d Section) -> &'d HeaderFooterRefs,
) -> Vec<HeaderFooterRefs> {
    let mut out: Vec<HeaderFooterRefs> = Vec::with_capacity(sections.len());
    for s in sections {
        let own = get(s);
        let prev = out.last().cloned().unwrap_or_default();
        out.push(HeaderFooterRefs {
            default: own.default.clone().or(prev.default),
            first: own.first.clone().or(prev.first),
            even: own.even.clone().or(prev.even),
        });
    }
    out
}

fn pick(refs: &HeaderFooterRefs, kind: usize) -> Option<&str> {
    match kind {
        // A title page without its own header shows none.
        1 => refs.first.as_deref(),
        2 => refs.even.as_deref().or(refs.default.as_deref()),
        _ => refs.default.as_deref(),
    }
}

/// The cell of `row` starting at grid column `start`.
fn covered_cell(row: &super::model::TableRow, start: u32) -> Option<&super::model::TableCell> {
    let mut col = row.grid_before;
    for cell in &row.cells {
        if col == start {
            return Some(cell);
        }
        col = col.saturating_add(cell.col_span);
    }
    None
}

fn is_empty_block(b: &Block) -> bool {
    match b {
        Block::Paragraph(p) => p.inlines.iter().all(is_invisible),
        _ => false,
    }
}

/// Whether `pred` holds for an inline of `inlines` or of the wrappers among them (not
/// looking into text boxes, which are paragraphs of their own).
fn contains(inlines: &[Inline], pred: &dyn Fn(&Inline) -> bool) -> bool {
    inlines.iter().any(|i| {
        pred(i)
            || match i {
                Inline::Hyperlink { children, .. }
                | Inline::Field { children, .. }
                | Inline::Inserted { children, .. }
                | Inline::Deleted { children, .. } => contains(children, pred),
                _ => false,
            }
    })
}

/// Width of a piece in points, for choosing tab stops: text measured in the machine face
/// the page draws it in (the font plan's advance widths, so the stop chosen is the one
/// the browser's text reaches), else estimated from its length.
fn estimated_width(piece: &Piece<'_>, base: &RunFormat, fonts: &FontPlan) -> f32 {
    let size = |f: &RunFormat| f.size.or(base.size).unwrap_or(11.0);
    let text_width = |text: &str, f: &RunFormat| {
        let font = f.font.as_deref().or(base.font.as_deref());
        // Small capitals are drawn in a smaller face the plan does not measure.
        let measured = font.filter(|_| !f.small_caps).and_then(|name| {
            if f.caps {
                fonts.text_width_em(Some(name), f.bold, &text.to_uppercase())
            } else {
                fonts.text_width_em(Some(name), f.bold, text)
            }
        });
        let chars = text.chars().count();
        match measured {
            Some(em) => em as f32 * size(f) + f.spacing.unwrap_or(0.0) * chars as f32,
            None => tabs::estimate(chars, size(f)),
        }
    };
    match piece {
        Piece::Leaf(Inline::Text { text, format }) => text_width(text, format),
        Piece::Part(text, format) => text_width(text, format),
        Piece::Leaf(Inline::Symbol { format, .. }) => tabs::estimate(1, size(format)),
        // A check box's symbol is full-width: about twice a letter.
        Piece::Leaf(Inline::CheckBox(c)) => tabs::estimate(2, size(&c.format)),
        Piece::Leaf(Inline::NoteReference { label, .. }) => {
            tabs::estimate(label.chars().count(), size(base) * 0.6)
        }
        Piece::Leaf(Inline::Image(img)) if img.anchor.is_none() => img.width,
        _ => 0.0,
    }
}

/// The face a list label set in `font` is drawn in. Symbol's bullet (byte 0xB7, shown
/// as U+2022) is 0.36 em wide in Word's Symbol and in its metric twin Standard Symbols
/// PS, which LibreOffice draws; the symbol fonts' stand-ins draw U+2022 at 0.26 em
/// (OpenSymbol), which made the default Word bullet a third smaller. Carlito's U+2022,
/// always served, is 0.35 em. (Standard Symbols PS itself maps Symbol's bytes, not
/// Unicode: the label would have to be written as U+00B7.)
fn label_face<'f>(font: &'f str, text: &str) -> &'f str {
    if text == "\u{2022}" && font.trim().eq_ignore_ascii_case("symbol") {
        "Carlito"
    } else {
        font
    }
}

/// How wide a list label and the tab after it are, in points, for a label `width` wide:
/// the tab goes to the first stop past the label's end, as Word's does: a custom stop,
/// the hanging indent (a stop of its own), else the next default stop (`default_tab`
/// apart). Stops are measured from the margin, the label from the first line's indent.
fn label_tab(f: &super::model::ParagraphFormat, width: f32, default_tab: f32) -> f32 {
    let start = f.indent_left + f.indent_first_line;
    let end = start + width;
    let custom = f
        .tabs
        .iter()
        .filter(|t| t.align != super::model::TabAlign::Bar && t.position > end + 0.01)
        .map(|t| t.position);
    let hanging =
        (f.indent_first_line < 0.0 && f.indent_left > end + 0.01).then_some(f.indent_left);
    let stop = custom
        .chain(hanging)
        .reduce(f32::min)
        .unwrap_or_else(|| ((end / default_tab).floor() + 1.0) * default_tab);
    stop - start
}

/// Splits the text at a decimal tab's stop at its first point: the part before it aligns
/// at the stop like right-aligned text, the rest follows it. Without a point the whole
/// text aligns right of nothing, as in Word.
fn split_decimals(flat: &mut Flattened<'_>, plans: &[(usize, Vec<PlacedTab>)]) {
    for (line, (_, placed)) in plans.iter().enumerate() {
        for (k, stop) in placed.iter().enumerate() {
            if stop.align != TabAlign::Decimal {
                continue;
            }
            let seg = k + 1;
            let mut split_at = None;
            for (i, item) in flat.items.iter_mut().enumerate() {
                if item.line != line || item.seg != seg {
                    continue;
                }
                if split_at.is_some() {
                    item.after_point = true;
                } else if let Piece::Leaf(Inline::Text { text, format }) = item.piece {
                    if let Some(at) = text.find('.') {
                        item.piece = Piece::Part(&text[..at], format);
                        split_at = Some((i, &text[at..], format));
                    }
                }
            }
            if let Some((i, rest, format)) = split_at {
                let model = &flat.items[i];
                let after = Flat {
                    piece: Piece::Part(rest, format),
                    wraps: model.wraps.clone(),
                    comments: model.comments,
                    line: model.line,
                    seg: model.seg,
                    after_point: true,
                };
                flat.items.insert(i + 1, after);
            }
        }
    }
}

/// The size of the largest text run among `inlines`, when every run of text has its
/// size and nothing else that draws text (a symbol, an equation, a check box …) is there.
fn largest_text_size(inlines: &[Inline]) -> Option<f32> {
    fn walk(inlines: &[Inline], largest: &mut Option<f32>) -> bool {
        inlines.iter().all(|i| match i {
            Inline::Text { text, format } => {
                if text.is_empty() {
                    return true;
                }
                let Some(size) = format.size else {
                    return false;
                };
                *largest = Some(largest.map_or(size, |l: f32| l.max(size)));
                true
            }
            Inline::Tab
            | Inline::Break { .. }
            | Inline::Image(_)
            | Inline::Bookmark { .. }
            | Inline::CommentMark { .. } => true,
            Inline::Hyperlink { children, .. }
            | Inline::Field { children, .. }
            | Inline::Inserted { children, .. }
            | Inline::Deleted { children, .. } => walk(children, largest),
            _ => false,
        })
    }
    let mut largest = None;
    walk(inlines, &mut largest).then_some(largest).flatten()
}

/// The faces the text of `inlines` is set in (`None`: the page's), each with how many
/// characters it sets.
fn text_faces(inlines: &[Inline]) -> Vec<(Option<std::sync::Arc<str>>, usize)> {
    fn walk(inlines: &[Inline], faces: &mut Vec<(Option<std::sync::Arc<str>>, usize)>) {
        for i in inlines {
            match i {
                Inline::Text { text, format } if !text.is_empty() => {
                    let chars = text.chars().count();
                    match faces.iter_mut().find(|(f, _)| *f == format.font) {
                        Some((_, n)) => *n += chars,
                        None => faces.push((format.font.clone(), chars)),
                    }
                }
                Inline::Hyperlink { children, .. }
                | Inline::Field { children, .. }
                | Inline::Inserted { children, .. }
                | Inline::Deleted { children, .. } => walk(children, faces),
                _ => {}
            }
        }
    }
    let mut faces = Vec::new();
    walk(inlines, &mut faces);
    faces
}

/// Inlines that show nothing (marks and bookmarks).
pub(super) fn is_invisible(i: &Inline) -> bool {
    match i {
        Inline::Text { text, .. } => text.is_empty(),
        Inline::Bookmark { .. } | Inline::CommentMark { .. } => true,
        _ => false,
    }
}

/// Whether `i` is an object anchored out of the text's flow (floating or behind/in
/// front of it): it makes no line of its own.
/// The anchor of a floating object.
fn anchor_of(i: &Inline) -> Option<&Anchor> {
    match i {
        Inline::Image(x) => x.anchor.as_ref(),
        Inline::TextBox(x) => x.anchor.as_ref(),
        Inline::Group(x) => x.anchor.as_ref(),
        Inline::Chart(x) => x.anchor.as_ref(),
        Inline::Diagram(x) => x.anchor.as_ref(),
        Inline::WordArt(x) => x.anchor.as_ref(),
        _ => None,
    }
}

/// An object of a footer's own paragraphs that the header draws ([`Renderer::header`]):
/// placed from the page or a margin, with the body's text wrapping beside it.
fn is_lifted(i: &Inline) -> bool {
    anchor_of(i).is_some_and(|a| {
        super::anchor::from_page(a) && matches!(a.wrap.as_str(), "square" | "tight" | "through")
    })
}

/// The lifted objects of a footer's paragraphs, each with its paragraph's run format.
fn lifted_floats(blocks: &[Block]) -> Vec<(&Inline, &RunFormat)> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(p),
            _ => None,
        })
        .flat_map(|p| {
            p.inlines
                .iter()
                .filter(|i| is_lifted(i))
                .map(move |i| (i, &p.text_format))
        })
        .collect()
}

fn is_floating(i: &Inline) -> bool {
    match i {
        Inline::Image(x) => x.anchor.is_some(),
        Inline::TextBox(x) => x.anchor.is_some(),
        Inline::Group(x) => x.anchor.is_some(),
        Inline::Chart(x) => x.anchor.is_some(),
        Inline::Diagram(x) => x.anchor.is_some(),
        Inline::WordArt(x) => x.anchor.is_some(),
        _ => false,
    }
}

fn has_text_box(inlines: &[Inline]) -> bool {
    inlines.iter().any(|i| match i {
        Inline::TextBox(_) | Inline::Group(_) => true,
        Inline::Hyperlink { children, .. }
        | Inline::Field { children, .. }
        | Inline::Inserted { children, .. }
        | Inline::Deleted { children, .. } => has_text_box(children),
        _ => false,
    })
}

/// The single lines of a paragraph's faces, as multiples of the text size.
#[derive(Clone, Copy)]
struct LineFaces {
    /// The paragraph's own face's.
    own: f32,
    /// The tallest of the faces its text is drawn in.
    tallest: f32,
}

/// Paragraph layout as CSS. With a document grid (`pitch`), lines of single or multiple
/// spacing take whole grid lines: as many as the text's natural line height needs
/// (`size`, the paragraph's font size, times its tallest face's single line), times the
/// multiple; an at-least height is raised to that; exact heights ignore the grid, as in
/// Word. Returns the multiple of single spacing the lines take when they take one.
fn paragraph_style(
    s: &mut String,
    p: &Paragraph,
    first: bool,
    pitch: Option<f32>,
    size: Option<f32>,
    lines: LineFaces,
) -> Option<f32> {
    let f = &p.format;
    // In a right-to-left paragraph Word reads `left` and `right` (of `w:jc`, `w:ind` and
    // the side borders) as its leading and trailing edges: the right and the left. The
    // first-line indent needs no swap (`text-indent` already follows the direction).
    let (lead, trail) = if f.bidi {
        ("right", "left")
    } else {
        ("left", "right")
    };
    match f.align {
        Align::Left => {}
        Align::Center => s.push_str("text-align:center;"),
        Align::Right if f.bidi => s.push_str("text-align:left;"),
        Align::Right => s.push_str("text-align:right;"),
        Align::Justify => s.push_str("text-align:justify;"),
        Align::Distribute => s.push_str("text-align:justify;text-align-last:justify;"),
    }
    // A side border lies outside the text, `space` from it: the box grows into the
    // indent (or the margin) by the space and the line, and the text keeps its place.
    let outside = |b: &Option<Border>| {
        b.as_ref()
            .filter(|b| b.style != "none")
            .map_or(0.0, |b| b.space + border_width(b))
    };
    let (left, right) = (
        f.indent_left - outside(&f.borders.left),
        f.indent_right - outside(&f.borders.right),
    );
    let (lead_margin, trail_margin) = if f.bidi {
        ("margin-right", "margin-left")
    } else {
        ("margin-left", "margin-right")
    };
    if left != 0.0 {
        decl_pt(s, lead_margin, left);
    }
    if right != 0.0 {
        decl_pt(s, trail_margin, right);
    }
    if f.indent_first_line != 0.0 && first {
        decl_pt(s, "text-indent", f.indent_first_line);
    }
    if f.space_before != 0.0 && first {
        decl_pt(s, "margin-top", f.space_before);
    }
    // Inside a group of bordered paragraphs the space between them lies in the box (the
    // sides run on through it): padding, not margin.
    if f.space_after != 0.0 {
        let inside = if f.border_joined_below {
            "padding-bottom"
        } else {
            "margin-bottom"
        };
        decl_pt(s, inside, f.space_after);
    }
    let grid = pitch.filter(|_| !f.no_grid_snap).map(|pitch| {
        let natural = size.unwrap_or(11.0) * lines.tallest;
        pitch * (natural / pitch - 0.01).ceil().max(1.0)
    });
    let multiple = match (f.line_spacing, grid) {
        (Some(LineSpacing::Multiple(m)), Some(line)) if m > 0.0 => {
            decl_pt(s, "line-height", line * m);
            None
        }
        (None, Some(line)) => {
            decl_pt(s, "line-height", line);
            None
        }
        (Some(LineSpacing::AtLeast(pt)), Some(line)) => {
            decl_pt(s, "line-height", pt.max(line));
            None
        }
        _ => line_spacing(s, f, lines.own),
    };
    if let Some(fill) = &f.shading {
        decl(s, "background-color", fill);
    }
    // A group of bordered paragraphs has its top line above the first, its bottom line
    // below the last and its between line (`insideH`) between them.
    let top = if f.border_joined_above {
        &f.borders.inside_h
    } else {
        &f.borders.top
    };
    let bottom = if f.border_joined_below {
        &None
    } else {
        &f.borders.bottom
    };
    for (name, b) in [
        ("top", top),
        (trail, &f.borders.right),
        ("bottom", bottom),
        (lead, &f.borders.left),
    ] {
        if let Some(b) = b {
            border_css(s, name, b);
            // The room between the text and the line (the margins above keep the text
            // at its indent).
            if b.space > 0.0 && b.style != "none" {
                decl_pt(s, &format!("padding-{name}"), b.space);
            }
        }
    }
    border_shadow(s, f);
    multiple
}

/// Word's border shadow (`w:shadow` on the bottom or right line): the line repeated
/// just outside the box, below and to the right, as a hard-edged box shadow. Inside a
/// group of bordered paragraphs only the last one casts the bottom part.
fn border_shadow(s: &mut String, f: &super::model::ParagraphFormat) {
    fn drawn(b: &Option<Border>) -> Option<&Border> {
        b.as_ref().filter(|b| b.shadow && b.style != "none")
    }
    let Some(line) = drawn(&f.borders.right).or_else(|| drawn(&f.borders.bottom)) else {
        return;
    };
    let w = num(border_width(line));
    let color = line.color.as_ref().map_or("#000000", |c| c.as_str());
    s.push_str("box-shadow:");
    for piece in [w.as_str(), "pt 0 0 0 ", color] {
        s.push_str(piece);
    }
    if !f.border_joined_below {
        for piece in [",", w.as_str(), "pt ", w.as_str(), "pt 0 0 ", color] {
            s.push_str(piece);
        }
    }
    s.push(';');
}

/// The paragraph's own line spacing as CSS, off the grid; `single` is its face's single
/// spacing as a multiple of the text size (a unitless line height, which each run
/// multiplies by its own size). Returns the multiple of single spacing, when the lines
/// take one.
fn line_spacing(s: &mut String, f: &super::model::ParagraphFormat, single: f32) -> Option<f32> {
    match f.line_spacing {
        Some(LineSpacing::Multiple(m)) if m > 0.0 => {
            line_height(s, m * single);
            Some(m)
        }
        None => {
            // The page (and a text box) sets single spacing of the unknown face: most
            // paragraphs of a document without a served face need not repeat it.
            if (single - SINGLE_LINE).abs() > 5e-5 {
                line_height(s, single);
            }
            Some(1.0)
        }
        Some(LineSpacing::Exact(pt)) | Some(LineSpacing::AtLeast(pt)) if pt > 0.0 => {
            decl_pt(s, "line-height", pt);
            None
        }
        _ => None,
    }
}

/// Character formatting as CSS, leaving out what equals `base` (the paragraph's own).
fn run_style(s: &mut String, f: &RunFormat, base: Option<&RunFormat>, fonts: &FontPlan) {
    let differs = |pick: fn(&RunFormat) -> bool| base.is_none_or(|b| pick(b) != pick(f));
    if f.bold && differs(|r| r.bold) {
        s.push_str("font-weight:bold;");
    } else if !f.bold && base.is_some_and(|b| b.bold) {
        s.push_str("font-weight:normal;");
    }
    if f.italic && differs(|r| r.italic) {
        s.push_str("font-style:italic;");
    } else if !f.italic && base.is_some_and(|b| b.italic) {
        s.push_str("font-style:normal;");
    }
    if let Some(u) = &f.underline {
        let style = match u.as_str() {
            "double" => Some("double"),
            "dotted" | "dottedHeavy" => Some("dotted"),
            "dash" | "dashedHeavy" | "dashLong" | "dashLongHeavy" | "dotDash" | "dotDotDash" => {
                Some("dashed")
            }
            "wave" | "wavyHeavy" | "wavyDouble" => Some("wavy"),
            _ => None,
        };
        if let Some(style) = style {
            decl(s, "text-decoration-style", style);
        }
        if let Some(color) = &f.underline_color {
            decl(s, "text-decoration-color", color);
        }
    }
    let through = f.strike || f.double_strike;
    if f.double_strike {
        s.push_str("text-decoration-style:double;");
    }
    let lines = match (f.underline.is_some(), through) {
        (true, true) => Some("underline line-through"),
        (true, false) => Some("underline"),
        (false, true) => Some("line-through"),
        (false, false) => None,
    };
    let base_lines = base.is_some_and(|b| b.underline.is_some() || b.strike || b.double_strike);
    if let Some(lines) = lines {
        decl(s, "text-decoration-line", lines);
    } else if base_lines {
        s.push_str("text-decoration-line:none;");
    }
    if f.color.as_deref() != base.and_then(|b| b.color.as_deref()) || base.is_none() {
        if let Some(c) = &f.color {
            decl(s, "color", c);
        }
    }
    if let Some(size) = f.size {
        if base.is_none_or(|b| b.size != Some(size)) {
            decl_pt(s, "font-size", size);
        }
    }
    if let Some(font) = f.font.as_deref() {
        if base.is_none_or(|b| b.font.as_deref() != Some(font)) {
            font_family(s, font, fonts);
        }
    }
    if let Some(bg) = f.highlight.as_ref().or(f.shading.as_ref()) {
        if base.is_none_or(|b| b.highlight.as_ref().or(b.shading.as_ref()) != Some(bg)) {
            decl(s, "background-color", bg);
        }
    }
    if f.caps && differs(|r| r.caps) {
        s.push_str("text-transform:uppercase;");
    } else if !f.caps && base.is_some_and(|b| b.caps) {
        s.push_str("text-transform:none;");
    }
    if f.small_caps && differs(|r| r.small_caps) {
        s.push_str("font-variant:small-caps;");
    } else if !f.small_caps && base.is_some_and(|b| b.small_caps) {
        s.push_str("font-variant:normal;");
    }
    if let Some(sp) = f.spacing {
        decl_pt(s, "letter-spacing", sp);
    }
}

/// A cell's own border on one side, else the table's outer line at the table's edge or
/// its inside line between cells.
fn cell_side<'b>(
    own: &'b Option<Border>,
    outer: &'b Option<Border>,
    inner: &'b Option<Border>,
    edge: bool,
) -> Option<&'b Border> {
    own.as_ref()
        .or(if edge { outer.as_ref() } else { inner.as_ref() })
}

/// Appends `border-{side}:…;` for a line, or `border:…;` when `side` is empty.
fn border_css(s: &mut String, side: &str, b: &Border) {
    s.push_str("border");
    if !side.is_empty() {
        s.push('-');
        s.push_str(side);
    }
    let style = match b.style {
        "none" => {
            s.push_str(":none;");
            return;
        }
        "double" => "double",
        "dotted" => "dotted",
        "dashed" => "dashed",
        "inset" => "inset",
        "outset" => "outset",
        _ => "solid",
    };
    let width = border_width(b);
    let color = b.color.as_deref().unwrap_or("#000000");
    for piece in [":", num(width).as_str(), "pt ", style, " ", color, ";"] {
        s.push_str(piece);
    }
}

/// The width CSS draws a line with: a double line is its two strokes and the gap, three
/// times its `w:sz`; none is nothing.
fn border_width(b: &Border) -> f32 {
    match b.style {
        "none" => 0.0,
        "double" => (b.width * 3.0).max(2.25),
        _ => b.width.max(0.5),
    }
}

/// Appends the declaration `prop:value;` (cheaper than `write!`, which this file's hot
/// paths call hundreds of thousands of times for a long document).
fn decl(s: &mut String, prop: &str, value: &str) {
    for piece in [prop, ":", value, ";"] {
        s.push_str(piece);
    }
}

/// Appends `font-family:{stack};` (see `crate::office::fonts`) when the name is safe.
fn font_family(s: &mut String, font: &str, fonts: &FontPlan) {
    if let Some(stack) = fonts.stack(font) {
        for piece in ["font-family:", &stack, ";"] {
            s.push_str(piece);
        }
    }
}

/// Appends the declaration `prop:{v}pt;`.
fn decl_pt(s: &mut String, prop: &str, v: f32) {
    for piece in [prop, ":", num(v).as_str(), "pt;"] {
        s.push_str(piece);
    }
}

/// A preset shape drawn as SVG: the text box's CSS (its text rectangle as padding, no
/// background or border of its own) and the SVG that goes first inside it.
struct ShapeSvg {
    style: String,
    svg: String,
}

/// The geometry of text box `b` (its custom outline, else its preset) drawn from the
/// shared DrawingML engine at the box's size, with its fill (solid or linear gradient),
/// outline and shaded fill modes; `None` for a plain box or one with no size to draw
/// at. `uid` makes the gradient id unique in the page (the output length at the call,
/// which only grows).
fn geometry_svg(b: &super::model::TextBox, uid: usize) -> Option<ShapeSvg> {
    use crate::office::drawingml::{path::fmt, preset_outline, svg_paths, Outline};
    if b.geometry.is_none() && b.custom_geometry.is_empty() {
        return None;
    }
    let w = f64::from(b.width.filter(|w| *w > 0.0)?);
    let h = f64::from(b.height.filter(|h| *h > 0.0)?);
    let outline = match &b.geometry {
        // A custom geometry's text rectangle is the box: its `a:rect` is nearly always
        // the whole shape, and the PPTX renderer reads it the same way.
        _ if !b.custom_geometry.is_empty() => Outline {
            paths: b
                .custom_geometry
                .iter()
                .map(crate::office::pptx::geometry::engine_path)
                .collect(),
            text_rect: [0.0, 0.0, w, h],
        },
        Some(g) => preset_outline(g, w, h, &b.geometry_adjust),
        None => return None,
    };
    let mut svg = format!(
        "<svg class=\"docx-geom\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\" aria-hidden=\"true\" style=\"position:absolute;left:0;top:0;width:100%;height:100%;overflow:visible;z-index:-1\">",
        fmt(w),
        fmt(h)
    );
    let fill = match (&b.gradient, &b.fill) {
        (Some((from, to, angle)), _) => {
            let id = format!("docx-geom-{uid}");
            let _ = write!(
                svg,
                "<defs><linearGradient id=\"{id}\" gradientTransform=\"rotate({} .5 .5)\"><stop offset=\"0\" stop-color=\"{from}\"/><stop offset=\"1\" stop-color=\"{to}\"/></linearGradient></defs>",
                num(*angle)
            );
            format!("url(#{id})")
        }
        (None, Some(c)) => c.to_string(),
        (None, None) => "none".to_owned(),
    };
    // A solid fill's own transparency (`a:alpha`).
    let fill_alpha = match (&b.gradient, &b.fill, b.fill_opacity) {
        (None, Some(_), Some(a)) => format!(" fill-opacity=\"{}\"", fmt(f64::from(a))),
        _ => String::new(),
    };
    // No outline in the model: the light border every text box gets.
    let (stroke, width, dash) = match &b.outline {
        Some(o) if o.style == "none" => ("none".to_owned(), 0.0, ""),
        Some(o) => (
            o.color.map_or_else(|| "#000".to_owned(), |c| c.to_string()),
            f64::from(o.width.max(0.5)),
            match o.style {
                "dashed" => "3 2",
                "dotted" => "1 1",
                _ => "",
            },
        ),
        None => ("#bbb".to_owned(), 0.75, ""),
    };
    let mut stroke_attr = format!("stroke=\"{stroke}\"");
    if stroke != "none" {
        let _ = write!(
            stroke_attr,
            " stroke-width=\"{}\" stroke-linejoin=\"round\"",
            fmt(width)
        );
        if !dash.is_empty() {
            let dashes: Vec<String> = dash
                .split(' ')
                .map(|d| fmt(d.parse::<f64>().unwrap_or(1.0) * width))
                .collect();
            let _ = write!(stroke_attr, " stroke-dasharray=\"{}\"", dashes.join(" "));
        }
    }
    for p in svg_paths(&outline.paths, w, h) {
        let (fill_here, alpha_here) = if p.fill {
            (fill.as_str(), fill_alpha.as_str())
        } else {
            ("none", "")
        };
        let stroke_here = if p.stroke {
            stroke_attr.as_str()
        } else {
            "stroke=\"none\""
        };
        let _ = write!(
            svg,
            "<path d=\"{}\" fill=\"{fill_here}\"{alpha_here} fill-rule=\"evenodd\" {stroke_here}/>",
            p.d
        );
        if let Some((shade, opacity)) = p.shade.overlay().filter(|_| fill_here != "none") {
            let _ = write!(
                svg,
                "<path d=\"{}\" fill=\"{shade}\" fill-opacity=\"{}\" stroke=\"none\"/>",
                p.d,
                fmt(opacity)
            );
        }
    }
    svg.push_str("</svg>");
    // Text goes in the preset's text rectangle, inside the box's insets (Word's
    // default: 0.05 in top and bottom, 0.1 in left and right).
    // A shape without text has no text rectangle to keep: a small dot stays small.
    let [l, t, r, bottom] = if b.blocks.is_empty() {
        [0.0, 0.0, w, h]
    } else {
        outline.text_rect
    };
    let insets = match b.insets {
        _ if b.blocks.is_empty() => [0.0; 4],
        Some(i) => i,
        None => [7.2, 3.6, 7.2, 3.6],
    };
    let [il, it, ir, ib] = insets.map(f64::from);
    let style = format!(
        "position:relative;isolation:isolate;background:none;border:none;padding:{}pt {}pt {}pt {}pt;",
        fmt(t.max(0.0) + it),
        fmt((w - r).max(0.0) + ir),
        fmt((h - bottom).max(0.0) + ib),
        fmt(l.max(0.0) + il)
    );
    Some(ShapeSvg { style, svg })
}

/// An opacity (0–1) as the alpha byte of a `#RRGGBBAA` colour.
fn alpha_byte(a: f32) -> u8 {
    (a.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Adds a clockwise rotation about the centre (`a:xfrm rot`), when there is one.
fn rotate(s: &mut String, degrees: Option<f32>) {
    if let Some(d) = degrees.filter(|d| d.is_finite() && d.abs() >= 0.01) {
        s.push_str("transform:rotate(");
        s.push_str(num(d).as_str());
        s.push_str("deg);");
    }
}

/// Adds placement for a floating object inside a cell or text box.
fn float_class_style(s: &mut String, align: Option<&str>, wrap: &str) {
    if wrap == "none" || wrap == "topAndBottom" {
        s.push_str("display:block;");
        if align == Some("center") {
            s.push_str("margin:6pt auto;");
        }
        return;
    }
    match align {
        Some("right" | "outside") => s.push_str("float:right;margin:0 0 6pt 9pt;"),
        Some("center") => s.push_str("display:block;margin:6pt auto;"),
        _ => s.push_str("float:left;margin:0 9pt 6pt 0;"),
    }
}

/// Appends `line-height:{v};`, a unitless multiple with four decimals (two would move
/// the 40th line of a page by a point) and no trailing zeros.
fn line_height(s: &mut String, v: f32) {
    let units = if v.is_finite() {
        (f64::from(v) * 10_000.0).round().clamp(0.0, 1e12) as u64
    } else {
        0
    };
    let (int, mut frac) = (units / 10_000, units % 10_000);
    let _ = write!(s, "line-height:{int}");
    if frac != 0 {
        let mut digits = 4;
        while frac % 10 == 0 {
            frac /= 10;
            digits -= 1;
        }
        let _ = write!(s, ".{frac:0digits$}");
    }
    s.push(';');
}

/// A number for CSS: at most two decimals, no trailing zeros, never NaN.
fn num(v: f32) -> Num {
    // Integer arithmetic into a stack buffer: float formatting, and a `String` per number,
    // were a measurable share of rendering time (thousands of lengths per page).
    let hundredths = if v.is_finite() {
        (f64::from(v) * 100.0).round().clamp(-1e15, 1e15) as i64
    } else {
        0
    };
    let mut out = Num {
        buf: [0; 24],
        start: 24,
    };
    let abs = hundredths.unsigned_abs();
    let (int, frac) = (abs / 100, abs % 100);
    if frac != 0 {
        if frac % 10 != 0 {
            out.push(b'0' + (frac % 10) as u8);
        }
        out.push(b'0' + (frac / 10) as u8);
        out.push(b'.');
    }
    let mut rest = int;
    loop {
        out.push(b'0' + (rest % 10) as u8);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if hundredths < 0 {
        out.push(b'-');
    }
    out
}

/// A CSS number as [`num`] formats it: at most two decimals, no trailing zeros.
#[derive(Clone, Copy)]
struct Num {
    buf: [u8; 24],
    /// Digits are written backwards; the number is `buf[start..]`.
    start: usize,
}

impl Num {
    fn as_str(&self) -> &str {
        // Only ASCII digits, '.' and '-' are ever written.
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or("0")
    }

    fn push(&mut self, byte: u8) {
        self.start -= 1;
        self.buf[self.start] = byte;
    }
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A class-name-safe form of a style id.
fn css_ident(id: &str) -> String {
    let mut s = String::with_capacity(id.len());
    push_css_ident(&mut s, id);
    s
}

/// Appends the class-name-safe form of a style id (see [`css_ident`]).
fn push_css_ident(s: &mut String, id: &str) {
    s.extend(id.chars().map(|c| {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '_'
        }
    }));
}

/// An id-safe form of a bookmark name or note id.
fn anchor_id(name: &str) -> String {
    css_ident(name)
}

/// Only http, https and mailto URLs become links.
fn safe_href(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let allowed = lower.starts_with("http://")
        || lower.starts_with("https://")
        || lower.starts_with("mailto:");
    if !allowed || url.chars().any(|c| c.is_control()) {
        return None;
    }
    Some(url.replace(' ', "%20"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Word's tab after a list label goes to the first stop past the label: a custom
    /// stop, the hanging indent, else a default stop.
    #[test]
    fn a_list_labels_tab_goes_to_words_stop() {
        use super::super::model::{ParagraphFormat, TabAlign, TabStop};
        let format = |left: f32, first: f32, tabs: &[f32]| ParagraphFormat {
            indent_left: left,
            indent_first_line: first,
            tabs: tabs
                .iter()
                .map(|&position| TabStop {
                    position,
                    align: TabAlign::Left,
                    leader: None,
                })
                .collect(),
            ..ParagraphFormat::default()
        };
        // A label in the hanging indent fills it.
        assert_eq!(label_tab(&format(36.0, -18.0, &[]), 6.0, 36.0), 18.0);
        // A custom stop before the indent comes first; one the label passes does not.
        assert_eq!(label_tab(&format(36.0, -18.0, &[27.0]), 6.0, 36.0), 9.0);
        assert_eq!(label_tab(&format(36.0, -18.0, &[20.0]), 6.0, 36.0), 18.0);
        // A label wider than the hanging indent goes on to the next default stop.
        assert_eq!(label_tab(&format(36.0, -18.0, &[]), 20.0, 36.0), 54.0);
        // A first-line indent (onlyoffice-sample: 49.5 + 14.15 pt, a stop at the label
        // itself): the next default stop, 72 pt.
        let got = label_tab(&format(49.5, 14.15, &[63.65]), 3.9, 36.0);
        assert!((got - 8.35).abs() < 1e-3, "{got}");
    }

    #[test]
    fn escaping_and_numbers() {
        let mut s = String::new();
        escape_into(&mut s, "<a href=\"x\">&'</a>");
        assert_eq!(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
        assert_eq!(num(12.0).to_string(), "12");
        assert_eq!(num(12.345).to_string(), "12.35");
        assert_eq!(num(f32::NAN).to_string(), "0");
        assert_eq!(num(-0.001).to_string(), "0");
        assert_eq!(num(-3.5).to_string(), "-3.5");
        assert_eq!(num(0.05).to_string(), "0.05");
        assert_eq!(num(100.1).to_string(), "100.1");
        assert_eq!(num(0.0).to_string(), "0");
        assert_eq!(num(1e30).to_string(), "10000000000000");
    }

    #[test]
    fn only_safe_links_and_fonts() {
        assert_eq!(
            safe_href(" https://a.b/c d "),
            Some("https://a.b/c%20d".into())
        );
        assert_eq!(safe_href("MAILTO:x@y.z"), Some("MAILTO:x@y.z".into()));
        assert_eq!(safe_href("javascript:alert(1)"), None);
        assert_eq!(safe_href("file:///etc/passwd"), None);
        assert_eq!(safe_href("data:text/html,x"), None);
        let plan = FontPlan::default();
        let mut s = String::new();
        font_family(&mut s, " Times New Roman", &plan);
        assert_eq!(s, "font-family:'Liberation Serif','Times New Roman',serif;");
        s.clear();
        font_family(&mut s, "x';background:url(evil)", &plan);
        assert_eq!(
            s,
            "font-family:'xbackgroundurlevil','Liberation Sans',sans-serif;"
        );
        s.clear();
        font_family(&mut s, "';", &plan);
        assert_eq!(s, "");
        assert_eq!(
            encode_path("word/media/a b#.png"),
            "word/media/a%20b%23.png"
        );
    }
}
