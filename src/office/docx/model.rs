//! The DOCX viewer model: what a document says, resolved, with no HTML in it.
//!
//! Styles are already applied (docDefaults → `basedOn` chain → numbering → direct
//! formatting), list labels are computed ("a.", "1.2."), merged table cells carry their
//! spans, and images point at package parts by name (the bytes are served separately).
//! All lengths are in points; colours are `#RRGGBB`. The model serialises to camelCase
//! JSON for the `model.json` view.

use std::sync::Arc;

use serde::{Serialize, Serializer};

pub use crate::office::media::{ImageSource, MediaPart};

pub use super::forms::CheckBox;
pub use super::page_border::{PageBorderDisplay, PageBorderOffset, PageBorderSide, PageBorders};

use crate::office::pptx::model::GeomPath;
use crate::office::CoreProperties;

/// A parsed Word document.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    /// Title, author and dates.
    pub properties: CoreProperties,
    /// The package declares macros (`.docm`); they are never run.
    pub has_macros: bool,
    /// Body content, split where section properties change.
    pub sections: Vec<Section>,
    /// Header and footer parts referenced by sections.
    pub headers_footers: Vec<HeaderFooter>,
    /// Footnotes in order of first reference.
    pub footnotes: Vec<Note>,
    /// Endnotes in order of first reference.
    pub endnotes: Vec<Note>,
    /// Comments in document order.
    pub comments: Vec<Comment>,
    /// Image parts the document shows, with what their headers say.
    pub media: Vec<MediaPart>,
    /// Different headers on even pages (`w:evenAndOddHeaders` in settings).
    pub even_and_odd_headers: bool,
    /// Distance between default tab stops in points (`w:defaultTabStop` in settings;
    /// Word's 36 when absent). Zero in a model built by hand means the same 36.
    pub default_tab_stop: f32,
    /// The size of text that neither the document defaults nor any style sizes: Word's
    /// 10 pt when `w:docDefaults` sets no `w:sz` (ECMA-376 §17.3.2.38 leaves it to the
    /// application; LibreOffice uses 10 pt too); `None` when the defaults size all text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsized_text: Option<f32>,
    /// Things shown degraded (skipped embedded HTML, missing parts …), for the viewer.
    pub warnings: Vec<String>,
}

/// A run of body content sharing one page setup.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Section {
    /// Page size and margins.
    pub page: PageSetup,
    /// Headers by page kind (part names into [`Document::headers_footers`]).
    pub headers: HeaderFooterRefs,
    /// Footers by page kind.
    pub footers: HeaderFooterRefs,
    /// The first page has its own header/footer (`w:titlePg`).
    pub title_page: bool,
    /// How this section starts.
    pub start: SectionStart,
    /// Widths of unequal text columns (`w:cols w:equalWidth="0"` with `w:col`
    /// children), in order; empty when the columns share the width equally
    /// ([`PageSetup::columns`] of them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub column_widths: Vec<ColumnWidth>,
    /// The border around the section's pages (`w:pgBorders`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_borders: Option<PageBorders>,
    /// Body blocks.
    pub blocks: Vec<Block>,
}

/// Page geometry of a section, in points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageSetup {
    /// Page width.
    pub width: f32,
    /// Page height.
    pub height: f32,
    /// Top margin.
    pub margin_top: f32,
    /// Right margin.
    pub margin_right: f32,
    /// Bottom margin.
    pub margin_bottom: f32,
    /// Left margin.
    pub margin_left: f32,
    /// Distance from the page top to the header.
    pub header_distance: f32,
    /// Distance from the page bottom to the footer.
    pub footer_distance: f32,
    /// Text columns.
    pub columns: u16,
    /// Space between equal columns (`w:cols w:space`; Word's 36 when absent).
    pub column_space: f32,
    /// A line is drawn between columns (`w:cols w:sep`).
    #[serde(skip_serializing_if = "is_false")]
    pub column_separator: bool,
    /// Landscape orientation.
    pub landscape: bool,
    /// The line pitch of the section's document grid, when its lines snap to it
    /// (`w:docGrid` of type `lines`, `linesAndChars` or `snapToChars`; East Asian
    /// documents). `None` for the default grid, which places lines freely.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_pitch: Option<f32>,
}

/// One column of a section with unequal columns, in points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnWidth {
    /// Width of the column's text.
    pub width: f32,
    /// Space after the column, before the next one (ignored on the last).
    pub space: f32,
}

impl Default for PageSetup {
    /// US Letter with one-inch margins, Word's default when a section says nothing.
    fn default() -> Self {
        PageSetup {
            width: 612.0,
            height: 792.0,
            margin_top: 72.0,
            margin_right: 72.0,
            margin_bottom: 72.0,
            margin_left: 72.0,
            header_distance: 36.0,
            footer_distance: 36.0,
            columns: 1,
            column_space: 36.0,
            column_separator: false,
            landscape: false,
            line_pitch: None,
        }
    }
}

/// How a section begins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SectionStart {
    /// On a new page.
    #[default]
    NextPage,
    /// On the same page.
    Continuous,
    /// On the next even page.
    EvenPage,
    /// On the next odd page.
    OddPage,
    /// In the next column.
    NextColumn,
}

/// Header or footer part names for each kind of page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderFooterRefs {
    /// Used on most pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Used on the first page when the section has a title page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Used on even pages when the document has even-and-odd headers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub even: Option<String>,
}

/// The content of one header or footer part.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderFooter {
    /// The part name, referenced from [`HeaderFooterRefs`].
    pub part: String,
    /// Whether this is a footer.
    pub is_footer: bool,
    /// Content.
    pub blocks: Vec<Block>,
}

/// A footnote or an endnote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// The `w:id` markup refers to.
    pub id: String,
    /// The computed mark ("1", "ii"); empty for a custom mark.
    pub label: String,
    /// Content.
    pub blocks: Vec<Block>,
}

/// A comment.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    /// The `w:id` markers refer to.
    pub id: String,
    /// Author name.
    pub author: String,
    /// Author initials.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initials: Option<String>,
    /// Date as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Content.
    pub blocks: Vec<Block>,
}

/// Block-level content.
// Paragraphs are by far the most common block, so boxing them to shrink the enum would
// add an allocation per paragraph and save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Block {
    /// A paragraph.
    Paragraph(Paragraph),
    /// A table.
    Table(Table),
    /// Content that is deliberately not shown (embedded HTML via `altChunk` …).
    Placeholder(Placeholder),
}

/// Something shown as a labelled box instead of its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Placeholder {
    /// What it stands for, e.g. "altChunk", "chart", "diagram".
    pub kind: String,
    /// Human text for the box.
    pub label: String,
}

/// A chart in a drawing frame (`c:chart` in `a:graphicData`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartFrame {
    /// The chart.
    pub chart: Box<crate::office::chart::Chart>,
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// Alternative text (`wp:docPr/@descr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    /// How the frame floats, when anchored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
}

/// A SmartArt graphic in its drawing frame.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagramFrame {
    /// The diagram.
    #[serde(flatten)]
    pub diagram: crate::office::smartart::Diagram,
    /// How the frame floats, when anchored (`wp:anchor`), like any other drawing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
}

/// A paragraph with resolved properties.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Paragraph {
    /// The paragraph style id, if any (the default style when none is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style_id: Option<String>,
    /// Heading level 1–9, from the outline level or a "heading N" style.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading_level: Option<u8>,
    /// Resolved layout properties.
    pub format: ParagraphFormat,
    /// The list label, when the paragraph is numbered or bulleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<ListLabel>,
    /// Formatting of the paragraph mark (applies to the list label and empty paragraphs,
    /// never to the paragraph's text).
    pub mark_format: RunFormat,
    /// What the paragraph's runs inherit before their own formatting: document
    /// defaults, table style and the paragraph style's run properties.
    pub text_format: RunFormat,
    /// Content.
    pub inlines: Vec<Inline>,
}

/// Resolved paragraph layout. Lengths in points.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParagraphFormat {
    /// Horizontal alignment.
    pub align: Align,
    /// Left (start) indent.
    #[serde(skip_serializing_if = "is_zero")]
    pub indent_left: f32,
    /// Right (end) indent.
    #[serde(skip_serializing_if = "is_zero")]
    pub indent_right: f32,
    /// First-line indent; negative for a hanging indent.
    #[serde(skip_serializing_if = "is_zero")]
    pub indent_first_line: f32,
    /// Space before.
    #[serde(skip_serializing_if = "is_zero")]
    pub space_before: f32,
    /// Space after.
    #[serde(skip_serializing_if = "is_zero")]
    pub space_after: f32,
    /// The space before is Word's automatic spacing (`w:beforeAutospacing`, 14 pt, as
    /// between HTML paragraphs); the parser has already dropped it between items of one
    /// list and above the first paragraph of a table cell.
    #[serde(skip_serializing_if = "is_false")]
    pub auto_space_before: bool,
    /// The space after is Word's automatic spacing (`w:afterAutospacing`), dropped between
    /// items of one list.
    #[serde(skip_serializing_if = "is_false")]
    pub auto_space_after: bool,
    /// Line spacing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_spacing: Option<LineSpacing>,
    /// Start on a new page.
    #[serde(skip_serializing_if = "is_false")]
    pub page_break_before: bool,
    /// Keep with the next paragraph (`w:keepNext`): on the same page as its first line.
    #[serde(skip_serializing_if = "is_false")]
    pub keep_next: bool,
    /// Keep the paragraph's lines on one page (`w:keepLines`).
    #[serde(skip_serializing_if = "is_false")]
    pub keep_lines: bool,
    /// Right-to-left paragraph.
    #[serde(skip_serializing_if = "is_false")]
    pub bidi: bool,
    /// Space before and after is left out next to a paragraph of the same style
    /// (`w:contextualSpacing`); the parser has already zeroed `space_before` and
    /// `space_after` where it applies.
    #[serde(skip_serializing_if = "is_false")]
    pub contextual_spacing: bool,
    /// The paragraph's lines do not snap to the section's document grid
    /// (`w:snapToGrid w:val="0"`).
    #[serde(skip_serializing_if = "is_false")]
    pub no_grid_snap: bool,
    /// Background fill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shading: Option<Color>,
    /// Paragraph borders.
    #[serde(skip_serializing_if = "Borders::is_empty")]
    pub borders: Borders,
    /// The paragraph shares one bordered box with the paragraph above: Word groups
    /// neighbours with the same borders and indents, drawing the top line above the
    /// first, the bottom line below the last and `insideH` (`w:between`) between them,
    /// and keeping the sides unbroken. The parser has moved the space between the two
    /// into the upper one's `space_after` (drawn inside the box).
    #[serde(skip_serializing_if = "is_false")]
    pub border_joined_above: bool,
    /// The paragraph shares one bordered box with the paragraph below (see
    /// [`Self::border_joined_above`]).
    #[serde(skip_serializing_if = "is_false")]
    pub border_joined_below: bool,
    /// Custom tab stops, resolved (style chain, numbering level, then direct formatting,
    /// a `clear` removing an inherited stop) and sorted by position. Positions are in
    /// points from the leading edge of the text area (the page margin or the cell's
    /// content edge), not from the paragraph's indent, as Word measures them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<TabStop>,
}

/// Horizontal alignment of a paragraph.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Align {
    /// Start (left in left-to-right text).
    #[default]
    Left,
    /// Centred.
    Center,
    /// End (right in left-to-right text).
    Right,
    /// Justified.
    Justify,
    /// Justified including the last line (`distribute`).
    Distribute,
}

/// Line spacing of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "rule", content = "value", rename_all = "camelCase")]
pub enum LineSpacing {
    /// A multiple of single spacing (1.0 = single).
    Multiple(f32),
    /// At least this many points.
    AtLeast(f32),
    /// Exactly this many points.
    Exact(f32),
}

/// A tab stop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabStop {
    /// Position in points from the leading edge of the text area (may be negative).
    pub position: f32,
    /// How text after the tab aligns at the stop.
    pub align: TabAlign,
    /// What fills the gap before the stop; `None` for blank space.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader: Option<TabLeader>,
}

/// How the text after a tab aligns at its stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TabAlign {
    /// The text starts at the stop (also `start` and the list tab `num`).
    Left,
    /// The text is centred on the stop.
    Center,
    /// The text ends at the stop (also `end`).
    Right,
    /// The decimal point sits at the stop.
    Decimal,
    /// Not a stop: a vertical line drawn at the position.
    Bar,
}

/// The characters filling a tab's gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TabLeader {
    /// Dots (`. . .`), as in a table of contents.
    Dot,
    /// Hyphens.
    Hyphen,
    /// A line of underscores.
    Underscore,
    /// Centred dots.
    MiddleDot,
    /// A heavy line.
    Heavy,
}

/// The computed label of a list paragraph.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListLabel {
    /// The numbering instance (`w:numId`).
    pub num_id: String,
    /// Level 0–8.
    pub level: u8,
    /// The label text as shown ("a.", "1.2.", "•").
    pub text: String,
    /// Whether the level is a bullet.
    pub bullet: bool,
    /// The number format of the level (decimal, lowerLetter, bullet …).
    pub format: String,
    /// What follows the label: tab, space or nothing.
    pub suffix: ListSuffix,
    /// Font of the label, when the level sets one.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared_str")]
    pub font: Option<Arc<str>>,
}

/// What separates a list label from the text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ListSuffix {
    /// A tab (Word's default).
    #[default]
    Tab,
    /// A space.
    Space,
    /// Nothing.
    Nothing,
}

/// Resolved character formatting. Absent fields mean "as the surrounding text".
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFormat {
    /// Bold.
    #[serde(skip_serializing_if = "is_false")]
    pub bold: bool,
    /// Italic.
    #[serde(skip_serializing_if = "is_false")]
    pub italic: bool,
    /// Underline style (single, double, dotted, wave …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underline: Option<String>,
    /// Underline colour, when it differs from the text's (`w:u w:color`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underline_color: Option<Color>,
    /// Single strikethrough.
    #[serde(skip_serializing_if = "is_false")]
    pub strike: bool,
    /// Double strikethrough.
    #[serde(skip_serializing_if = "is_false")]
    pub double_strike: bool,
    /// Text colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Font size in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<f32>,
    /// Font family. Shared: a document names a few fonts for thousands of runs.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared_str")]
    pub font: Option<Arc<str>>,
    /// Highlight colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Color>,
    /// Character shading (background fill).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shading: Option<Color>,
    /// Superscript or subscript.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_align: Option<VerticalAlign>,
    /// All capitals.
    #[serde(skip_serializing_if = "is_false")]
    pub caps: bool,
    /// Small capitals.
    #[serde(skip_serializing_if = "is_false")]
    pub small_caps: bool,
    /// Hidden text (`w:vanish`); kept in the model, a viewer may dim or hide it.
    #[serde(skip_serializing_if = "is_false")]
    pub hidden: bool,
    /// Character spacing adjustment in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spacing: Option<f32>,
    /// Right-to-left run.
    #[serde(skip_serializing_if = "is_false")]
    pub rtl: bool,
}

/// Superscript or subscript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum VerticalAlign {
    /// Raised.
    Superscript,
    /// Lowered.
    Subscript,
}

/// Inline content of a paragraph.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Inline {
    /// Text with its formatting.
    Text {
        /// The characters.
        text: String,
        /// Formatting.
        format: RunFormat,
    },
    /// A tab character.
    Tab,
    /// A line, page or column break.
    Break {
        /// Which break.
        kind: BreakKind,
    },
    /// A symbol from a symbol font (`w:sym`).
    Symbol {
        /// The font named by the document.
        font: String,
        /// The code point as written (often in the private-use area).
        code: u32,
        /// A Unicode rendering of it.
        text: String,
        /// Formatting.
        format: RunFormat,
    },
    /// An equation (Office Math), shown as MathML.
    Math(crate::office::math::Math),
    /// A picture.
    Image(Image),
    /// A text box with its own blocks.
    TextBox(TextBox),
    /// A group of drawings (`wpg:wgp`, VML `v:group`) drawn as one box.
    Group(ShapeGroup),
    /// Something shown as a labelled box (chart, diagram, embedded object).
    Placeholder(Placeholder),
    /// A chart, drawn by the shared chart engine at the frame's size.
    Chart(ChartFrame),
    /// A SmartArt graphic drawn from its parts.
    Diagram(DiagramFrame),
    /// A check box: a content control (`w14:checkbox`) or a legacy `FORMCHECKBOX` field.
    CheckBox(CheckBox),
    /// Text drawn as a shape, stretched to its box (VML `v:textpath`: a watermark).
    WordArt(WordArt),
    /// A hyperlink around inlines.
    Hyperlink {
        /// Where it leads.
        target: LinkTarget,
        /// Tooltip.
        #[serde(skip_serializing_if = "Option::is_none")]
        tooltip: Option<String>,
        /// Linked content.
        children: Vec<Inline>,
    },
    /// A field whose result is shown (`PAGE`, `DATE`, `REF` …).
    Field {
        /// The field instruction as written.
        instruction: String,
        /// The shown result.
        children: Vec<Inline>,
    },
    /// A tracked insertion.
    Inserted {
        /// Who and when.
        revision: Revision,
        /// Inserted content.
        children: Vec<Inline>,
    },
    /// A tracked deletion (its text is still in the model).
    Deleted {
        /// Who and when.
        revision: Revision,
        /// Deleted content.
        children: Vec<Inline>,
    },
    /// A reference to a footnote or endnote.
    NoteReference {
        /// Footnote or endnote.
        kind: NoteKind,
        /// The note id.
        id: String,
        /// The computed mark.
        label: String,
        /// Formatting.
        format: RunFormat,
    },
    /// The mark at the start of a note's own text (`w:footnoteRef`).
    NoteMark {
        /// Footnote or endnote.
        kind: NoteKind,
        /// Formatting.
        format: RunFormat,
    },
    /// Start, end or reference mark of a comment.
    CommentMark {
        /// The comment id.
        id: String,
        /// Which mark.
        mark: CommentMarkKind,
    },
    /// A bookmark target for internal links.
    Bookmark {
        /// The bookmark name.
        name: String,
    },
}

/// Which break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BreakKind {
    /// A line break.
    Line,
    /// A page break.
    Page,
    /// A column break.
    Column,
}

/// Footnote or endnote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum NoteKind {
    /// A footnote.
    Footnote,
    /// An endnote.
    Endnote,
}

/// Comment marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CommentMarkKind {
    /// The commented range starts.
    Start,
    /// The commented range ends.
    End,
    /// The comment's anchor mark.
    Reference,
}

/// Author and date of a tracked change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    /// Author.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Date as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// Where a hyperlink leads. Viewers only follow http, https and mailto URLs and
/// internal anchors; anything else is shown as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum LinkTarget {
    /// An external URL (from a relationship or a `HYPERLINK` field), with an optional
    /// fragment appended.
    External {
        /// The URL as written.
        url: String,
    },
    /// A bookmark in this document.
    Internal {
        /// The bookmark name.
        anchor: String,
    },
}

/// A picture.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    /// Where the pixels come from.
    pub source: ImageSource,
    /// Displayed width in points.
    pub width: f32,
    /// Displayed height in points.
    pub height: f32,
    /// Alternative text (description, else title, else name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    /// Anchoring, for floating pictures; `None` for inline ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// Clockwise rotation in degrees (`a:xfrm rot`, VML `rotation`), when rotated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<f32>,
}

/// How a floating object is placed. Offsets in points.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Anchor {
    /// Horizontal alignment (left, center, right …) when given instead of an offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align_h: Option<String>,
    /// Horizontal offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset_h: Option<f32>,
    /// A horizontal offset given as a share of the reference box's width (Word 2010's
    /// `wp14:pctPosHOffset`, 1.0 the whole width); `offset_h` adds to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_h: Option<f32>,
    /// What the horizontal position is relative to (column, page, margin …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_h: Option<String>,
    /// Vertical alignment when given instead of an offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align_v: Option<String>,
    /// Vertical offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset_v: Option<f32>,
    /// A vertical offset as a share of the reference box's height (`wp14:pctPosVOffset`);
    /// `offset_v` adds to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_v: Option<f32>,
    /// What the vertical position is relative to (paragraph, page, margin …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_v: Option<String>,
    /// Text wrapping: square, tight, through, topAndBottom, none.
    pub wrap: String,
    /// Drawn behind the text.
    #[serde(skip_serializing_if = "is_false")]
    pub behind_text: bool,
    /// Word's stacking order among floating objects (`relativeHeight`): higher is on top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z_order: Option<u32>,
    /// A width that is a share of a part of the page (`wp14:sizeRelH`, VML
    /// `mso-width-percent`), in place of the stored extent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_width: Option<RelativeSize>,
    /// A height that is a share of a part of the page (`wp14:sizeRelV`, VML
    /// `mso-height-percent`), in place of the stored extent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_height: Option<RelativeSize>,
}

/// An extent given as a share of a part of the page: Word 2010's relative sizes
/// (MS-ODRAWXML `CT_SizeRelH`/`CT_SizeRelV`), which win over `wp:extent` when present.
/// The page is only known when rendering, so the share is kept and resolved there.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RelativeSize {
    /// What the share is of: `page`, `margin` (the text area), `leftMargin`,
    /// `rightMargin`, `topMargin`, `bottomMargin`, `insideMargin`, `outsideMargin`.
    pub from: String,
    /// The share, 1.0 for the whole reference (`pctHeight` 100000).
    pub fraction: f32,
}

/// A text box (DrawingML `wps:txbx` or VML `v:textbox`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextBox {
    /// Width in points, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f32>,
    /// Height in points, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    /// Anchoring, for floating boxes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// The shape's solid fill (`a:solidFill` of an RGB or theme colour, else the first
    /// stop of a gradient or the theme colour of its style's `a:fillRef`); `None` when
    /// it has none or one this model does not resolve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    /// The shape's outline: `Some` with style "none" for an explicit `a:noFill` line,
    /// `None` when the shape says nothing the model resolves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outline: Option<Border>,
    /// A linear gradient fill (`a:gradFill` with `a:lin`): its first and last stops and
    /// its angle in degrees (0: left to right, clockwise). `fill` then holds their mean.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<(Color, Color, f32)>,
    /// Clockwise rotation in degrees (`a:xfrm rot`, VML `rotation`), when rotated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<f32>,
    /// The shape's preset geometry (`a:prstGeom prst`: `ellipse`, `rightArrow` …) when it
    /// is not a plain rectangle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geometry: Option<String>,
    /// The preset's adjust values (`a:avLst`), when the document gives any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub geometry_adjust: Vec<(String, f64)>,
    /// A custom outline (`a:custGeom`), its guides evaluated at the shape's own size:
    /// each path in its own coordinate space (one without gets the shape's), drawn
    /// scaled to the box. Empty for a preset or a plain box.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub custom_geometry: Vec<GeomPath>,
    /// A line or connector (`wps:cNvCnPr`, `line`, `*Connector*` geometries), drawn as a
    /// stroke across the box instead of a box.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Line>,
    /// Where the text sits in the box (`wps:bodyPr anchor`: `t`, `ctr`, `b`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_anchor: Option<String>,
    /// Opacity of the fill (0–1: `a:alpha` on its colour, VML `v:fill opacity`), when
    /// the fill is not opaque.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_opacity: Option<f32>,
    /// Space between the box's edges and its text, points: left, top, right, bottom
    /// (`wps:bodyPr lIns`/`tIns`/`rIns`/`bIns`, VML `v:textbox inset`), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insets: Option<[f32; 4]>,
    /// Content; empty for a shape without text (a filled rectangle on a cover page).
    pub blocks: Vec<Block>,
}

/// A group of drawings (`wpg:wgp` with its `a:chOff`/`a:chExt`, VML `v:group` with its
/// `coordorigin`/`coordsize`): one box of the group's extent, placed or anchored like
/// any drawing, with each drawing of the group at its place inside it. Nested groups are
/// flattened into it: their coordinate spaces are already applied to the places.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShapeGroup {
    /// Width in points (the frame's extent).
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// Anchoring, for a floating group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// The drawings, in document (stacking) order.
    pub children: Vec<GroupChild>,
}

/// One drawing of a [`ShapeGroup`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupChild {
    /// Left edge, points from the group's left edge.
    pub x: f32,
    /// Top edge, points from the group's top edge.
    pub y: f32,
    /// The drawing itself (a text box, shape or picture; never anchored).
    pub inline: Inline,
}

/// A line or connector shape across its box.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    /// `straight`, `bent` (elbow) or `curved`.
    pub kind: String,
    /// Mirrored left to right (`flipH`): the line runs from the top right.
    #[serde(skip_serializing_if = "is_false")]
    pub flip_h: bool,
    /// Mirrored top to bottom (`flipV`): the line runs from the bottom.
    #[serde(skip_serializing_if = "is_false")]
    pub flip_v: bool,
    /// An arrowhead at the start (`a:headEnd`) and at the end (`a:tailEnd`).
    #[serde(skip_serializing_if = "is_false")]
    pub head_arrow: bool,
    /// See `head_arrow`.
    #[serde(skip_serializing_if = "is_false")]
    pub tail_arrow: bool,
}

/// Text drawn as a shape (VML `v:textpath`), such as a "DRAFT" watermark: the text is
/// stretched to fill the shape's box, as Word draws a text path.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WordArt {
    /// The text (`string`).
    pub text: String,
    /// Box width in points.
    pub width: f32,
    /// Box height in points.
    pub height: f32,
    /// Fill colour of the letters (`fillcolor`); `None` is Word's black.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    /// Fill opacity, 0 to 1 (`v:fill opacity`), when not opaque.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f32>,
    /// Font family of the text path's style.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    /// Clockwise rotation in degrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<f32>,
    /// Placement, for a shape positioned on the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
}

/// A table.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// The table style id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style_id: Option<String>,
    /// Grid column widths in points.
    pub columns: Vec<f32>,
    /// Preferred width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<Width>,
    /// Alignment of the table on the page.
    pub align: Align,
    /// Indent from the leading margin.
    #[serde(skip_serializing_if = "is_zero")]
    pub indent: f32,
    /// Fixed layout (`w:tblLayout type="fixed"`).
    #[serde(skip_serializing_if = "is_false")]
    pub fixed_layout: bool,
    /// Columns run from right to left (`w:bidiVisual`): the first cell of a row is the
    /// rightmost, and the table's leading edge (its indent, its start borders) is the right.
    #[serde(skip_serializing_if = "is_false")]
    pub right_to_left: bool,
    /// Table borders (outer and inside lines).
    pub borders: Borders,
    /// Default cell padding.
    pub cell_margins: Margins,
    /// Where a floating table (`w:tblpPr`) is placed, as a drawing's anchor with square
    /// wrapping; `None` for a table in the flow of the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub float: Option<Anchor>,
    /// Rows.
    pub rows: Vec<TableRow>,
}

/// A table row.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableRow {
    /// Height, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    /// The height is exact rather than a minimum.
    #[serde(skip_serializing_if = "is_false")]
    pub exact_height: bool,
    /// Repeats as a header row.
    #[serde(skip_serializing_if = "is_false")]
    pub header: bool,
    /// Empty grid columns before the first cell.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub grid_before: u32,
    /// Empty grid columns after the last cell.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub grid_after: u32,
    /// The row is a tracked insertion or deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<RowRevision>,
    /// Cells.
    pub cells: Vec<TableCell>,
}

/// A tracked change on a whole row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowRevision {
    /// Inserted (else deleted).
    pub inserted: bool,
    /// Who and when.
    pub revision: Revision,
}

/// A table cell.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableCell {
    /// Grid columns spanned (`w:gridSpan`).
    pub col_span: u32,
    /// Rows spanned, computed from `w:vMerge`; 1 for an unmerged cell.
    pub row_span: u32,
    /// This cell continues a vertical merge from above: it is covered by the cell that
    /// starts the merge. Its content (usually empty) is kept.
    #[serde(skip_serializing_if = "is_false")]
    pub merged_continuation: bool,
    /// Preferred width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<Width>,
    /// Background fill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shading: Option<Color>,
    /// Vertical alignment: top, center, bottom.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v_align: Option<String>,
    /// Cell borders (override the table's).
    #[serde(skip_serializing_if = "Borders::is_empty")]
    pub borders: Borders,
    /// Cell padding overrides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margins: Option<Margins>,
    /// The cell's text runs up or down its lines (`w:textDirection`), not across.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical: Option<VerticalText>,
    /// Content.
    pub blocks: Vec<Block>,
}

/// Which way a table cell's vertical text runs (`w:textDirection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum VerticalText {
    /// Bottom to top, lines from left to right (`btLr`): the text turned left.
    Up,
    /// Top to bottom, lines from right to left (`tbRl`, `tbRlV`): the text turned right.
    Down,
}

/// A preferred width.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "camelCase")]
pub enum Width {
    /// Points.
    Points(f32),
    /// Percent of the available width.
    Percent(f32),
    /// Automatic.
    Auto,
}

/// Padding, in points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Margins {
    /// Top.
    pub top: f32,
    /// Right.
    pub right: f32,
    /// Bottom.
    pub bottom: f32,
    /// Left.
    pub left: f32,
}

/// A set of border lines; absent sides have none.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Borders {
    /// Top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<Border>,
    /// Right (end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<Border>,
    /// Bottom.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottom: Option<Border>,
    /// Left (start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Border>,
    /// Between rows (tables) or between paragraphs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside_h: Option<Border>,
    /// Between columns (tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside_v: Option<Border>,
}

impl Borders {
    /// Whether no side has a line.
    pub fn is_empty(&self) -> bool {
        self.top.is_none()
            && self.right.is_none()
            && self.bottom.is_none()
            && self.left.is_none()
            && self.inside_h.is_none()
            && self.inside_v.is_none()
    }
}

/// One border line. `style` "none" means explicitly no line (it overrides an inherited one).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Border {
    /// Line style: single, double, dotted, dashed, none …
    pub style: &'static str,
    /// Width in points.
    pub width: f32,
    /// Colour; `None` for automatic (black).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Room between a paragraph's text and this side of its border, in points
    /// (`w:space`); the border lies outside the text, the text keeps its indents.
    #[serde(skip_serializing_if = "is_zero")]
    pub space: f32,
    /// The line casts a shadow (`w:shadow`): Word repeats the bottom and right lines just
    /// below and right of the box.
    #[serde(skip_serializing_if = "is_false")]
    pub shadow: bool,
}

/// An sRGB colour as CSS writes it, `#RRGGBB` with upper-case digits. A fixed-size
/// value: formats and borders holding colours copy without allocating.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color([u8; 7]);

impl Color {
    /// Black, the colour of "auto" lines.
    pub const BLACK: Color = Color(*b"#000000");

    /// From red, green and blue channels.
    pub fn rgb(r: u8, g: u8, b: u8) -> Color {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        let mut out = *b"#000000";
        for (i, c) in [r, g, b].into_iter().enumerate() {
            out[1 + 2 * i] = DIGITS[usize::from(c >> 4)];
            out[2 + 2 * i] = DIGITS[usize::from(c & 0x0F)];
        }
        Color(out)
    }

    /// From exactly six hex digits (either case), as documents write colours.
    pub fn from_hex(v: &str) -> Option<Color> {
        let v = v.as_bytes();
        if v.len() != 6 || !v.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let mut out = *b"#000000";
        for (o, b) in out[1..].iter_mut().zip(v) {
            *o = b.to_ascii_uppercase();
        }
        Some(Color(out))
    }

    /// The red, green and blue channels.
    pub fn channels(self) -> [u8; 3] {
        let digit = |b: u8| match b {
            b'0'..=b'9' => b - b'0',
            _ => b - b'A' + 10,
        };
        let channel = |i: usize| digit(self.0[i]) << 4 | digit(self.0[i + 1]);
        [channel(1), channel(3), channel(5)]
    }

    /// `#RRGGBB`.
    pub fn as_str(&self) -> &str {
        // Only '#' and hex digits are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("#000000")
    }
}

impl std::ops::Deref for Color {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Serialises a shared string as a plain one (serde's `Arc` support is a crate feature
/// this crate does not turn on).
fn shared_str<S: Serializer>(value: &Option<Arc<str>>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_some(&**v),
        None => s.serialize_none(),
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

impl Document {
    /// All text of the body in reading order (sections, tables, text boxes, links,
    /// fields, insertions and deletions), paragraphs separated by newlines. Used by
    /// tests and search; not a rendering.
    pub fn body_text(&self) -> String {
        let mut out = String::new();
        for section in &self.sections {
            blocks_text(&section.blocks, &mut out);
        }
        out
    }
}

/// Appends the text of `blocks` to `out`.
pub fn blocks_text(blocks: &[Block], out: &mut String) {
    for block in blocks {
        match block {
            Block::Paragraph(p) => {
                if let Some(list) = &p.list {
                    out.push_str(&list.text);
                    out.push(' ');
                }
                inlines_text(&p.inlines, out);
                out.push('\n');
            }
            Block::Table(t) => {
                for row in &t.rows {
                    for cell in &row.cells {
                        blocks_text(&cell.blocks, out);
                    }
                }
            }
            Block::Placeholder(_) => {}
        }
    }
}

/// Appends the text of `inlines` to `out`.
pub fn inlines_text(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text { text, .. } => out.push_str(text),
            Inline::Symbol { text, .. } => out.push_str(text),
            Inline::Tab => out.push('\t'),
            Inline::Break { .. } => out.push('\n'),
            Inline::TextBox(b) => blocks_text(&b.blocks, out),
            Inline::Group(g) => {
                for c in &g.children {
                    inlines_text(std::slice::from_ref(&c.inline), out);
                }
            }
            Inline::Hyperlink { children, .. }
            | Inline::Field { children, .. }
            | Inline::Inserted { children, .. }
            | Inline::Deleted { children, .. } => inlines_text(children, out),
            Inline::NoteReference { label, .. } => out.push_str(label),
            Inline::Math(m) => out.push_str(&m.text()),
            Inline::CheckBox(c) => out.push_str(&c.text),
            Inline::Diagram(d) => {
                for t in d.diagram.shapes.iter().flat_map(|s| &s.text) {
                    out.push_str(t);
                    out.push('\n');
                }
            }
            Inline::Image(_)
            | Inline::WordArt(_)
            | Inline::Placeholder(_)
            | Inline::Chart(_)
            | Inline::NoteMark { .. }
            | Inline::CommentMark { .. }
            | Inline::Bookmark { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Color;

    #[test]
    fn colors_parse_print_and_serialise_as_css_hex() {
        let c = Color::from_hex("4f81Bd").unwrap();
        assert_eq!(c.as_str(), "#4F81BD");
        assert_eq!(c.channels(), [0x4F, 0x81, 0xBD]);
        assert_eq!(Color::rgb(0x4F, 0x81, 0xBD), c);
        assert_eq!(Color::rgb(0, 255, 16).to_string(), "#00FF10");
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"#4F81BD\"");
        for bad in ["auto", "4F81B", "4F81BDD", "#4F81B", "4F81BG", ""] {
            assert_eq!(Color::from_hex(bad), None, "{bad}");
        }
    }
}
