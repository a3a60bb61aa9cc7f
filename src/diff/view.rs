//! The diff viewer page: a [`DiffModel`] plus [`ViewOptions`] → one HTML document.
//!
//! The page is built for the viewer CSP (`script-src 'self'`, `style-src 'unsafe-inline'`,
//! `connect-src 'none'`): styles are inlined in `<style>` elements, scripts come only from
//! the two asset files ([`VIEWER_RUNTIME_JS`], [`VIEWER_JS`]) referenced relative to the
//! viewer URL, there are no inline scripts or event-handler attributes, and everything the
//! page needs later (rows for the other layout, the text behind collapsed gaps) is embedded
//! as JSON in `<script type="application/json">` data blocks, which never execute.
//!
//! ```text
//! DiffModel ─► prepare (per file: highlight within a byte budget, word marks, gaps)
//!           ─► page: toolbar · changed-files summary · one <details> per file
//!                    ├ rows rendered here (image variant: all; viewer: the first few hundred)
//!                    └ per-file JSON for viewer-runtime.js to build rows in either layout
//! ```
//!
//! Large diffs stay responsive because the browser never holds the whole diff as DOM: the
//! server writes only the first [`STATIC_ROW_BUDGET`] rows of the page as table rows, and
//! the runtime turns each file into chunks of rows that are built when they come near the
//! viewport and dropped again when far from it (IntersectionObserver), with placeholders of
//! the right height in between so the scroll bar is honest.
//!
//! The [`Variant::Image`] page is what the PNG/PDF export screenshots: no toolbar, no
//! scripts, no JSON, a frame exactly `max_width` CSS px wide, every row written out.
//!
//! All user text (code, paths, titles, hunk sections) goes through [`escape`] or the
//! highlighter (which escapes too); the JSON goes through [`json_for_script`].

use std::fmt::Write;

use serde::Serialize;

use super::input::{DiffRequest, Presentation};
use super::model::{DiffLine, DiffModel, FileDiff, FileStatus, Gap, Hunk, LineKind, WordSpan};
use super::options::{DiffDefaults, DiffIndicators, Layout, Theme};
use crate::highlight::{self, highlight_lines, language_name};
use crate::markup::{escape, escape_into, fill, human_size, json_for_script};

/// The viewer script (toolbar, expand controls, lazy rows), served as
/// `/plugins/diffs/assets/viewer.js`.
pub const VIEWER_JS: &str = include_str!("../../viewers/diff/viewer.js");
/// The shared runtime (row building for both layouts), served as
/// `/plugins/diffs/assets/viewer-runtime.js`; the page loads it before [`VIEWER_JS`].
pub const VIEWER_RUNTIME_JS: &str = include_str!("../../viewers/diff/viewer-runtime.js");

const STYLESHEET: &str = include_str!("../../viewers/diff/diff.css");
const TEMPLATE: &str = include_str!("../../viewers/diff/diff.html");

/// Where the assets live relative to `/plugins/diffs/view/{id}/{token}`: relative, so a
/// base-path prefix in front of `/plugins` survives.
pub const DEFAULT_ASSET_PREFIX: &str = "../../assets/";

/// Default highlighting budget per page, in bytes of code. syntect (fancy-regex) parses
/// about 0.2–0.4 MB/s here, so this budget costs up to ~100 ms per render: the budget, not
/// the page size, bounds render time.
pub const DEFAULT_HIGHLIGHT_MAX_BYTES: usize = 32 * 1024;

/// Lines one click of an arrow on a collapsed gap reveals (the runtime reads it from the
/// page's `data-step`).
pub const EXPAND_STEP: usize = 20;

/// Rows the viewer page writes as HTML before leaving the rest to the runtime. Enough for
/// a typical change to be readable before the scripts run, small enough that a 120,000-line
/// patch does not put 120,000 rows into the initial DOM.
pub const STATIC_ROW_BUDGET: usize = 600;

/// Which page to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The interactive viewer: toolbar, expand controls, lazy rows.
    Viewer,
    /// The page the PNG/PDF export screenshots: no toolbar, no scripts, a frame of
    /// `max_width` CSS px (the element `.frame`), every row present, long lines wrapped.
    Image {
        /// Frame width in CSS px (the request's `fileMaxWidth`).
        max_width: u32,
    },
}

/// Everything [`render`] needs besides the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewOptions {
    /// Page title (the contract's `title` after its fallbacks).
    pub title: String,
    /// Initial layout; the toolbar switches it in place.
    pub layout: Layout,
    /// Initial theme; the toolbar switches it in place.
    pub theme: Theme,
    /// Font, size, spacing, line numbers, indicators, wrap and background defaults.
    pub presentation: Presentation,
    /// Show unchanged runs expanded where the full text is known.
    pub expand_unchanged: bool,
    /// Language hint; for a multi-file patch a file's own extension wins over it.
    pub lang: Option<String>,
    /// Relative URL prefix of `viewer.js` and `viewer-runtime.js` (ends with `/`).
    pub asset_prefix: String,
    /// Bytes of code the page may highlight in total; files (then gap texts) past the
    /// budget are shown as plain text.
    pub highlight_max_bytes: usize,
    /// Viewer or image page.
    pub variant: Variant,
    /// What the page says when the model has no files.
    pub empty_note: String,
}

/// The default [`ViewOptions::empty_note`].
pub const DEFAULT_EMPTY_NOTE: &str = "No file changes to show.";

impl ViewOptions {
    /// Options for a validated request: its title, layout, theme, presentation, expansion
    /// and language, with the default asset prefix and highlighting budget.
    pub fn from_request(request: &DiffRequest, variant: Variant) -> Self {
        ViewOptions {
            title: request.title.clone(),
            layout: request.layout,
            theme: request.theme,
            presentation: request.presentation.clone(),
            expand_unchanged: request.expand_unchanged,
            lang: request.lang.clone(),
            asset_prefix: DEFAULT_ASSET_PREFIX.to_string(),
            highlight_max_bytes: DEFAULT_HIGHLIGHT_MAX_BYTES,
            variant,
            empty_note: DEFAULT_EMPTY_NOTE.to_string(),
        }
    }

    /// Options from config defaults alone (the CLI and tests use this).
    pub fn from_defaults(defaults: &DiffDefaults, title: impl Into<String>) -> Self {
        ViewOptions {
            title: title.into(),
            layout: defaults.layout,
            theme: defaults.theme,
            presentation: Presentation {
                font_family: defaults.font_family.clone(),
                font_size: defaults.font_size,
                line_spacing: defaults.line_spacing,
                show_line_numbers: defaults.show_line_numbers,
                diff_indicators: defaults.diff_indicators,
                word_wrap: defaults.word_wrap,
                background: defaults.background,
            },
            expand_unchanged: false,
            lang: None,
            asset_prefix: DEFAULT_ASSET_PREFIX.to_string(),
            highlight_max_bytes: DEFAULT_HIGHLIGHT_MAX_BYTES,
            empty_note: DEFAULT_EMPTY_NOTE.to_string(),
            variant: Variant::Viewer,
        }
    }
}

/// Renders the whole page. Pure: the same model and options give the same bytes.
pub fn render(model: &DiffModel, options: &ViewOptions) -> String {
    let files = prepare(model, options);
    let image = matches!(options.variant, Variant::Image { .. });
    let ctx = RowCtx {
        layout: options.layout,
        classic: options.presentation.diff_indicators == DiffIndicators::Classic,
        interactive: !image,
    };

    let code_bytes: usize = files.iter().map(Prepared::html_bytes).sum();
    let mut body = String::with_capacity(code_bytes * 2 + 16 * 1024);
    let stats = stats_html(model);
    let expandable = files.iter().any(|p| p.expandable());
    match options.variant {
        Variant::Viewer => toolbar(&mut body, options, &stats, expandable),
        Variant::Image { max_width } => {
            let _ = write!(
                body,
                "<div class=\"frame\" style=\"width:{max_width}px\"><header class=\"frame-head\"><h1 class=\"title\">{}</h1>{stats}</header>",
                escape(&options.title)
            );
        }
    }
    body.push_str("<main id=\"diff\">");
    if model.files.is_empty() {
        let _ = write!(
            body,
            "<p class=\"empty-note\">{}</p>",
            escape(&options.empty_note)
        );
    }
    if model.files.len() > 1 {
        summary(&mut body, &files);
    }
    let mut static_rows = if image { usize::MAX } else { STATIC_ROW_BUDGET };
    let row_px = row_height_px(&options.presentation);
    for p in &files {
        file_section(&mut body, p, options, &ctx, &mut static_rows, row_px);
    }
    body.push_str("</main>");
    if image {
        body.push_str("</div>");
    } else {
        for p in &files {
            if p.has_rows() {
                let _ = write!(
                    body,
                    "\n<script type=\"application/json\" class=\"diff-data\" id=\"diff-data-{}\">{}</script>",
                    p.number,
                    json_for_script(&p.data(options.expand_unchanged))
                );
            }
        }
    }

    let scripts = if image {
        String::new()
    } else {
        let prefix = escape(&options.asset_prefix);
        format!(
            "<script src=\"{prefix}viewer-runtime.js\" defer></script>\n<script src=\"{prefix}viewer.js\" defer></script>"
        )
    };
    let mut vars = css_vars(&options.presentation);
    if image {
        // The image page draws with the fonts the native export ships, so both engines
        // show the same glyphs.
        vars.push_str(crate::export::native::image_font_css());
    }
    fill(
        TEMPLATE,
        &[
            ("root_attrs", &root_attrs(options)),
            ("title", &escape(&options.title)),
            ("css", STYLESHEET),
            ("highlight_css", highlight::stylesheet()),
            ("vars", &vars),
            ("scripts", &scripts),
            ("body_class", if image { "image" } else { "viewer" }),
            ("body", &body),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Page chrome
// ---------------------------------------------------------------------------------------

fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Unified => "unified",
        Layout::Split => "split",
    }
}

fn theme_name(theme: Theme) -> &'static str {
    match theme {
        Theme::Light => "light",
        Theme::Dark => "dark",
    }
}

/// The `<html>` attributes the stylesheet and the runtime key off; toggles only flip them.
fn root_attrs(options: &ViewOptions) -> String {
    let p = &options.presentation;
    let indicators = match p.diff_indicators {
        DiffIndicators::Bars => "bars",
        DiffIndicators::Classic => "classic",
        DiffIndicators::None => "none",
    };
    let variant = match options.variant {
        Variant::Viewer => "viewer",
        Variant::Image { .. } => "image",
    };
    format!(
        "data-variant=\"{variant}\" data-layout=\"{}\" data-theme=\"{}\" data-wrap=\"{}\" data-bg=\"{}\" data-numbers=\"{}\" data-indicators=\"{indicators}\" data-step=\"{EXPAND_STEP}\"",
        layout_name(options.layout),
        theme_name(options.theme),
        // A screenshot cannot scroll sideways, so the image page always wraps.
        on_off(p.word_wrap || matches!(options.variant, Variant::Image { .. })),
        on_off(p.background),
        on_off(p.show_line_numbers),
    )
}

/// Row height in CSS px, used for placeholder heights before rows exist.
fn row_height_px(p: &Presentation) -> f64 {
    let spacing = if p.line_spacing.is_finite() {
        p.line_spacing.clamp(1.0, 3.0)
    } else {
        1.6
    };
    (f64::from(p.font_size.clamp(8, 40)) * spacing).round()
}

/// Font and spacing as CSS custom properties. The font family comes from config; only
/// name characters survive, so it cannot end the `<style>` element or the declaration.
fn css_vars(p: &Presentation) -> String {
    let mut families = Vec::new();
    for raw in p.font_family.split(',') {
        let name: String = raw
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
            .collect();
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        if matches!(name, "monospace" | "ui-monospace") {
            families.push(name.to_string());
        } else {
            families.push(format!("\"{name}\""));
        }
    }
    families.push("var(--mono)".to_string());
    format!(
        ":root{{--code-font:{};--fs:{}px;--lh:{:.2};--row-h:{}px}}",
        families.join(","),
        p.font_size.clamp(8, 40),
        if p.line_spacing.is_finite() {
            p.line_spacing.clamp(1.0, 3.0)
        } else {
            1.6
        },
        row_height_px(p)
    )
}

fn stats_html(model: &DiffModel) -> String {
    let mut out = String::from("<span class=\"stats\">");
    let n = model.files.len();
    if n > 1 {
        let _ = write!(out, "<span class=\"files-count\">{n} files changed</span>");
    }
    // Totals over the files whose counts are known; none when no file's are.
    let unknown = model.files.iter().filter(|f| f.text_unknown).count();
    if unknown < n || n == 0 {
        let _ = write!(
            out,
            "<span class=\"plus\">+{}</span><span class=\"minus\">-{}</span>",
            model.additions(),
            model.deletions()
        );
    }
    if unknown > 0 {
        let _ = write!(
            out,
            "<span class=\"files-count\" title=\"{UNKNOWN_COUNTS}\">{unknown} without line counts</span>"
        );
    }
    out.push_str("</span>");
    out
}

fn toolbar(out: &mut String, options: &ViewOptions, stats: &str, expandable: bool) {
    let p = &options.presentation;
    let pressed = |on: bool| if on { "true" } else { "false" };
    let _ = write!(
        out,
        "<header class=\"toolbar\" id=\"toolbar\"><div class=\"title-block\"><h1 class=\"title\" title=\"{t}\">{t}</h1>{stats}</div>",
        t = escape(&options.title)
    );
    out.push_str("<div class=\"controls\" role=\"toolbar\" aria-label=\"View options\">");
    let unified = options.layout == Layout::Unified;
    let _ = write!(
        out,
        "<div class=\"seg\" role=\"group\" aria-label=\"Layout\"><button type=\"button\" data-set=\"layout\" data-value=\"unified\" aria-pressed=\"{}\">Unified</button><button type=\"button\" data-set=\"layout\" data-value=\"split\" aria-pressed=\"{}\">Split</button></div>",
        pressed(unified),
        pressed(!unified)
    );
    for (key, label, on) in [
        ("wrap", "Wrap", p.word_wrap),
        ("numbers", "Line numbers", p.show_line_numbers),
        ("bg", "Background", p.background),
    ] {
        let _ = write!(
            out,
            "<button type=\"button\" data-toggle=\"{key}\" aria-pressed=\"{}\">{label}</button>",
            pressed(on)
        );
    }
    let light = options.theme == Theme::Light;
    let _ = write!(
        out,
        "<div class=\"seg\" role=\"group\" aria-label=\"Theme\"><button type=\"button\" data-set=\"theme\" data-value=\"light\" aria-pressed=\"{}\">Light</button><button type=\"button\" data-set=\"theme\" data-value=\"dark\" aria-pressed=\"{}\">Dark</button></div>",
        pressed(light),
        pressed(!light)
    );
    if expandable {
        out.push_str("<button type=\"button\" data-action=\"expand-all\">Expand all</button>");
    }
    out.push_str("</div></header>");
}

/// Badges for a file: what happened to it and the git header facts.
fn badges(file: &FileDiff) -> String {
    let mut out = String::new();
    let mut badge = |class: &str, text: &str, title: &str| {
        let _ = write!(
            out,
            "<span class=\"badge {class}\" title=\"{}\">{}</span>",
            escape(title),
            escape(text)
        );
    };
    match file.status {
        FileStatus::Added => badge("added", "Added", "New file"),
        FileStatus::Deleted => badge("deleted", "Deleted", "Deleted file"),
        FileStatus::Renamed => {
            let text = match file.similarity {
                Some(s) => format!("Renamed {s}%"),
                None => "Renamed".to_string(),
            };
            badge("renamed", &text, "Renamed (similarity index)");
        }
        FileStatus::Copied => {
            let text = match file.similarity {
                Some(s) => format!("Copied {s}%"),
                None => "Copied".to_string(),
            };
            badge("renamed", &text, "Copied (similarity index)");
        }
        FileStatus::Modified | FileStatus::ModeChanged | FileStatus::Binary => {}
    }
    if file.is_binary || file.status == FileStatus::Binary {
        badge("binary", "Binary", "Binary file");
    }
    if let (Some(old), Some(new)) = (&file.old_mode, &file.new_mode) {
        if old != new {
            badge("mode", &format!("{old} → {new}"), "File mode changed");
        }
    }
    out
}

/// The path shown for a file: `old → new` for renames and copies.
fn path_html(file: &FileDiff, fallback: &str) -> String {
    match (&file.old_path, &file.new_path, file.status) {
        (Some(old), Some(new), FileStatus::Renamed | FileStatus::Copied) if old != new => {
            format!(
                "<span class=\"old-path\">{}</span><span class=\"arrow\" aria-label=\"to\"> → </span><span class=\"new-path\">{}</span>",
                escape(old),
                escape(new)
            )
        }
        _ => {
            let path = file.display_path();
            escape(if path.is_empty() { fallback } else { path })
        }
    }
}

/// Five blocks, green for the share of additions, red for deletions, as a glanceable bar.
fn diffstat_blocks(add: usize, del: usize) -> String {
    let total = add + del;
    let (mut green, mut red) = (0, 0);
    if total > 0 {
        let filled = total.min(5);
        green = ((add as f64 / total as f64) * filled as f64).round() as usize;
        if add > 0 && green == 0 {
            green = 1;
        }
        red = filled.saturating_sub(green);
        if del > 0 && red == 0 && green > 1 {
            green -= 1;
            red = 1;
        }
    }
    let mut out = String::from("<span class=\"blocks\" aria-hidden=\"true\">");
    for i in 0..5 {
        let class = if i < green {
            "b-add"
        } else if i < green + red {
            "b-del"
        } else {
            "b-none"
        };
        let _ = write!(out, "<span class=\"{class}\"></span>");
    }
    out.push_str("</span>");
    out
}

fn summary(out: &mut String, files: &[Prepared]) {
    let _ = write!(
        out,
        "<nav class=\"summary\" aria-label=\"Changed files\"><h2>{} files changed</h2><ol>",
        files.len()
    );
    for p in files {
        let f = p.file;
        let _ = write!(
            out,
            "<li><a href=\"#file-{n}\"><span class=\"s-path\">{path}</span></a>{badges}{counts}</li>",
            n = p.number,
            path = path_html(f, "(unnamed)"),
            badges = badges(f),
            counts = counts_html(f, true),
        );
    }
    out.push_str("</ol></nav>");
}

/// A file's `+N -M` (with the diffstat blocks in the summary), or, when its text is
/// unknown, a mark that says the counts are unavailable: never invented zeroes.
fn counts_html(file: &FileDiff, blocks: bool) -> String {
    if file.text_unknown {
        return format!(
            "<span class=\"counts unknown\" title=\"{UNKNOWN_COUNTS}\">no line counts</span>"
        );
    }
    format!(
        "<span class=\"counts\"><span class=\"plus\">+{}</span><span class=\"minus\">-{}</span>{}</span>",
        file.additions,
        file.deletions,
        if blocks {
            diffstat_blocks(file.additions, file.deletions)
        } else {
            String::new()
        }
    )
}

const UNKNOWN_COUNTS: &str = "The tool call did not state the text, so line counts are unavailable";

/// A file body with no rows: say why instead of showing an empty table (the native
/// image engine draws the same note).
pub(crate) fn empty_note(file: &FileDiff) -> &'static str {
    if file.text_unknown {
        match file.status {
            FileStatus::Added => "File written; the tool call did not state its text.",
            FileStatus::Deleted => "File deleted; the tool call did not state its text.",
            _ => "File changed; the tool call did not state the change.",
        }
    } else if file.is_binary || file.status == FileStatus::Binary {
        "Binary file not shown."
    } else if file.status == FileStatus::ModeChanged
        || (file.old_mode.is_some() && file.old_mode != file.new_mode)
    {
        "Only the file mode changed."
    } else if file.status == FileStatus::Renamed {
        "File renamed without changes."
    } else if file.status == FileStatus::Copied {
        "File copied without changes."
    } else if file.status == FileStatus::Added {
        "Empty file added."
    } else if file.status == FileStatus::Deleted {
        "Empty file deleted."
    } else {
        "No content changes."
    }
}

fn file_section(
    out: &mut String,
    p: &Prepared,
    options: &ViewOptions,
    ctx: &RowCtx,
    static_rows: &mut usize,
    row_px: f64,
) {
    let f = p.file;
    let _ = write!(
        out,
        "<details class=\"file\" id=\"file-{n}\" data-file=\"{n}\" open><summary class=\"file-head\"><span class=\"chev\" aria-hidden=\"true\"></span><span class=\"path\">{path}</span>{badges}",
        n = p.number,
        path = path_html(f, &options.title),
        badges = badges(f),
    );
    let lang_note = match &p.syntax {
        Syntax::Highlighted(name) => escape(name),
        Syntax::Plain => String::new(),
        Syntax::OverBudget(name) => format!(
            "<span title=\"{} highlighting is off: the highlighting budget of this page ({}) is used up\">Plain text</span>",
            escape(name),
            human_size(options.highlight_max_bytes as u64)
        ),
    };
    if !lang_note.is_empty() {
        let _ = write!(out, "<span class=\"lang\">{lang_note}</span>");
    }
    if p.crlf_only {
        out.push_str("<span class=\"lang\" title=\"Lines end in CR LF\">CRLF</span>");
    }
    let _ = write!(out, "{}</summary>", counts_html(f, false));
    if !p.has_rows() {
        let _ = write!(
            out,
            "<p class=\"file-note\">{}</p></details>",
            empty_note(f)
        );
        return;
    }
    let expanded = options.expand_unchanged;
    let count = p.row_count(ctx.layout, expanded);
    let _ = write!(
        out,
        "<div class=\"body\"><table class=\"diff\" style=\"--num-ch:{};--code-ch:{}\">{}",
        p.num_ch,
        p.code_ch,
        colgroup(ctx.layout)
    );
    if count <= *static_rows {
        *static_rows -= count;
        let rows = p.rows(ctx.layout, expanded);
        debug_assert_eq!(rows.len(), count);
        out.push_str("<tbody class=\"static\">");
        for row in &rows {
            write_row(out, row, ctx);
        }
        out.push_str("</tbody>");
    } else {
        // The runtime replaces this with chunks; the height keeps the scroll bar honest
        // until then.
        *static_rows = 0;
        let _ = write!(
            out,
            "<tbody class=\"ph\"><tr><td colspan=\"{}\" style=\"height:{}px\"></td></tr></tbody>",
            ctx.cols(),
            (count as f64 * row_px).round()
        );
    }
    out.push_str("</table></div></details>");
}

fn colgroup(layout: Layout) -> &'static str {
    match layout {
        Layout::Unified => "<colgroup><col class=\"c-num\"><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"></colgroup>",
        Layout::Split => "<colgroup><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"></colgroup>",
    }
}

// ---------------------------------------------------------------------------------------
// Preparing files: highlighting, word marks, gaps
// ---------------------------------------------------------------------------------------

/// How a file's code is coloured.
enum Syntax {
    /// Highlighted with this syntax.
    Highlighted(&'static str),
    /// No syntax known for the file.
    Plain,
    /// A syntax is known, but the page's highlighting budget was used up.
    OverBudget(&'static str),
}

/// A file ready to render: every line's cell HTML computed once, for both the rows written
/// here and the JSON the runtime builds rows from.
struct Prepared<'a> {
    /// 1-based position in the model, used for anchors.
    number: usize,
    file: &'a FileDiff,
    /// Cell HTML of each hunk line, `code[hunk][line]`.
    code: Vec<Vec<String>>,
    /// The collapsed runs, with their lines' HTML where the full text is known.
    gaps: Vec<(Gap, Option<Vec<String>>)>,
    syntax: Syntax,
    /// Every line ends in CR (shown once in the header instead of on each line).
    crlf_only: bool,
    /// Digits of the largest line number.
    num_ch: usize,
    /// Columns of the widest line, for the no-wrap table width.
    code_ch: usize,
}

impl Prepared<'_> {
    fn has_rows(&self) -> bool {
        self.file.hunks.iter().any(|h| !h.lines.is_empty())
    }

    fn expandable(&self) -> bool {
        self.gaps.iter().any(|(_, lines)| lines.is_some())
    }

    fn html_bytes(&self) -> usize {
        self.code.iter().flatten().map(String::len).sum()
    }
}

/// Strips the CR of a CRLF line; the caller decides whether to show it.
fn strip_cr(text: &str) -> (&str, bool) {
    match text.strip_suffix('\r') {
        Some(t) => (t, true),
        None => (text, false),
    }
}

/// Display columns of a line: tabs count as a full tab stop, East Asian wide characters as
/// two. An estimate for the no-wrap table width; overflow still scrolls if it is short.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '\t' => 4,
            '\u{1100}'..='\u{115F}'
            | '\u{2E80}'..='\u{A4CF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{FE30}'..='\u{FE4F}'
            | '\u{FF00}'..='\u{FF60}'
            | '\u{FFE0}'..='\u{FFE6}'
            | '\u{1F300}'..='\u{1FAFF}'
            | '\u{20000}'..='\u{3FFFD}' => 2,
            _ => 1,
        })
        .sum()
}

/// Highlights `lines` as one text so state (comments, strings) carries from line to line.
/// `None` when no syntax applies or the highlighter's line count disagrees.
fn highlight_stream(lines: &[&str], lang: Option<&str>, name: &str) -> Option<Vec<String>> {
    if lines.is_empty() {
        return Some(Vec::new());
    }
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    let out = highlight_lines(&text, lang, name)?;
    (out.len() == lines.len()).then_some(out)
}

fn stream_cost(lines: &[&str]) -> usize {
    lines.iter().map(|l| l.len() + 1).sum()
}

/// Builds the prepared files, spending the highlighting budget on hunk lines first (in file
/// order), then on the text behind collapsed gaps.
fn prepare<'a>(model: &'a DiffModel, options: &ViewOptions) -> Vec<Prepared<'a>> {
    let single = model.files.len() == 1;
    let hint = options
        .lang
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty());
    let image = matches!(options.variant, Variant::Image { .. });
    // The image page never shows gap text unless it is expanded.
    let want_gap_text = !image || options.expand_unchanged;
    let mut budget = options.highlight_max_bytes;
    let mut out = Vec::with_capacity(model.files.len());
    let mut gap_langs = Vec::with_capacity(model.files.len());

    for (i, file) in model.files.iter().enumerate() {
        let name = file.display_path();
        // A hint names the language of a single file; in a multi-file patch each file's
        // extension is the better witness, and the hint only fills in unknown ones.
        let lang = if single || language_name(None, name).is_none() {
            hint
        } else {
            None
        };
        let syntax_name = language_name(lang, name);

        let mut new_src: Vec<&str> = Vec::new();
        let mut old_src: Vec<&str> = Vec::new();
        let has_deletes = file.deletions > 0
            || file
                .hunks
                .iter()
                .flat_map(|h| &h.lines)
                .any(|l| l.kind == LineKind::Delete);
        let (mut with_cr, mut without_cr) = (false, false);
        let mut code_ch = 0;
        for line in file.hunks.iter().flat_map(|h| &h.lines) {
            let (text, cr) = strip_cr(&line.text);
            if !line.no_newline {
                with_cr |= cr;
                without_cr |= !cr;
            }
            code_ch = code_ch.max(display_width(text));
            match line.kind {
                LineKind::Context => {
                    new_src.push(text);
                    if has_deletes {
                        old_src.push(text);
                    }
                }
                LineKind::Add => new_src.push(text),
                LineKind::Delete => old_src.push(text),
            }
        }
        let gaps = file.gaps();
        if let Some(full) = &file.full_text {
            let last = full.new_lines.len().saturating_sub(1);
            for (n, line) in full.new_lines.iter().enumerate() {
                let (text, cr) = strip_cr(line);
                if !(n == last && full.new_missing_newline) {
                    with_cr |= cr;
                    without_cr |= !cr;
                }
                code_ch = code_ch.max(display_width(text));
            }
        }
        let mixed_eol = with_cr && without_cr;

        let mut syntax = match syntax_name {
            None => Syntax::Plain,
            Some(name) => Syntax::OverBudget(name),
        };
        let mut highlighted: Option<(Vec<String>, Vec<String>)> = None;
        if let Some(sname) = syntax_name {
            let cost = stream_cost(&new_src) + stream_cost(&old_src);
            if cost <= budget {
                budget -= cost;
                let new_hl = highlight_stream(&new_src, lang, name);
                let old_hl = highlight_stream(&old_src, lang, name);
                if let (Some(n), Some(o)) = (new_hl, old_hl) {
                    highlighted = Some((n, o));
                    syntax = Syntax::Highlighted(sname);
                } else {
                    syntax = Syntax::Plain;
                }
            }
        }

        let mut code = Vec::with_capacity(file.hunks.len());
        let (mut ni, mut oi) = (0usize, 0usize);
        for hunk in &file.hunks {
            let mut cells = Vec::with_capacity(hunk.lines.len());
            for line in &hunk.lines {
                let (text, cr) = strip_cr(&line.text);
                let html = match &highlighted {
                    Some((new_hl, old_hl)) => {
                        let src = match line.kind {
                            LineKind::Context => {
                                ni += 1;
                                if has_deletes {
                                    oi += 1;
                                }
                                new_hl.get(ni - 1)
                            }
                            LineKind::Add => {
                                ni += 1;
                                new_hl.get(ni - 1)
                            }
                            LineKind::Delete => {
                                oi += 1;
                                old_hl.get(oi - 1)
                            }
                        };
                        src.cloned().unwrap_or_else(|| escape(text))
                    }
                    None => escape(text),
                };
                cells.push(decorate(&html, &line.spans, cr && mixed_eol));
            }
            code.push(cells);
        }

        let mut max_line = 1;
        for hunk in &file.hunks {
            max_line = max_line
                .max(hunk.old_start.saturating_add(hunk.old_count))
                .max(hunk.new_start.saturating_add(hunk.new_count));
        }
        if let Some(full) = &file.full_text {
            max_line = max_line.max(full.new_lines.len()).max(full.old_line_count);
        }

        // Gap texts are filled in the second pass, once every file's hunks had their turn
        // at the budget.
        let gap_entries = gaps.into_iter().map(|g| (g, None)).collect();
        gap_langs.push((lang, name, mixed_eol));
        out.push(Prepared {
            number: i + 1,
            file,
            code,
            gaps: gap_entries,
            syntax,
            crlf_only: with_cr && !without_cr,
            num_ch: max_line.to_string().len().max(2),
            code_ch: code_ch.min(100_000),
        });
    }

    if want_gap_text {
        for (p, (lang, name, mixed_eol)) in out.iter_mut().zip(gap_langs) {
            let may_highlight = matches!(p.syntax, Syntax::Highlighted(_));
            for (gap, slot) in p.gaps.iter_mut() {
                let Some(lines) = p.file.gap_lines(gap) else {
                    continue;
                };
                let stripped: Vec<(&str, bool)> = lines.iter().map(|l| strip_cr(l)).collect();
                let texts: Vec<&str> = stripped.iter().map(|(t, _)| *t).collect();
                let cost = stream_cost(&texts);
                let hl = if may_highlight && cost <= budget {
                    budget -= cost;
                    highlight_stream(&texts, lang, name)
                } else {
                    None
                };
                let cells = stripped
                    .iter()
                    .enumerate()
                    .map(|(k, (text, cr))| {
                        let html = hl
                            .as_ref()
                            .and_then(|h| h.get(k).cloned())
                            .unwrap_or_else(|| escape(text));
                        decorate(&html, &[], *cr && mixed_eol)
                    })
                    .collect();
                *slot = Some(cells);
            }
        }
    }
    out
}

/// Whether a character would be invisible or misleading if shown as is: C0 controls other
/// than tab, DEL, the BOM, and the bidirectional controls that can reorder what a reviewer
/// sees ("trojan source").
pub(crate) fn is_hidden_control(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{a}'..='\u{1f}' | '\u{7f}'
        | '\u{61c}' | '\u{200e}' | '\u{200f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Writes a visible stand-in for a hidden control character.
fn push_control(out: &mut String, c: char) {
    let code = c as u32;
    let glyph = match code {
        0..=0x1f => char::from_u32(0x2400 + code).map(String::from),
        0x7f => Some("\u{2421}".to_string()),
        _ => None,
    };
    let text = glyph.unwrap_or_else(|| format!("U+{code:04X}"));
    let _ = write!(
        out,
        "<span class=\"ctl\" title=\"U+{code:04X}\">{text}</span>"
    );
}

/// Bytes of raw text an HTML text unit stands for: an entity is one character.
fn entity_len(entity: &str) -> usize {
    let inner = entity.trim_start_matches('&').trim_end_matches(';');
    let code = if let Some(hex) = inner
        .strip_prefix("#x")
        .or_else(|| inner.strip_prefix("#X"))
    {
        u32::from_str_radix(hex, 16).ok()
    } else if let Some(dec) = inner.strip_prefix('#') {
        dec.parse().ok()
    } else {
        // Named entities from our escapers are all ASCII.
        None
    };
    code.and_then(char::from_u32).map_or(1, char::len_utf8)
}

/// Whether `text` may hold a character [`is_hidden_control`] matches: a byte-level check on
/// the C0 range, DEL and the lead bytes of the few multi-byte ones, so clean text costs one
/// pass over its bytes.
fn may_hold_control(text: &str) -> bool {
    text.bytes()
        .any(|b| (b < 0x20 && b != b'\t') || matches!(b, 0x7f | 0xd8 | 0xe2 | 0xef))
}

/// Turns a line's highlighted (or escaped) HTML into its cell content: wraps the word spans
/// in `<mark>`, makes hidden controls visible, and appends a CR marker when asked.
///
/// `<mark>` is always the innermost element: it closes before any syntax tag and reopens
/// after it, so the nesting stays valid whatever the spans and the syntax spans overlap.
fn decorate(html: &str, spans: &[WordSpan], show_cr: bool) -> String {
    if spans.is_empty() && !show_cr && !may_hold_control(html) {
        return html.to_string();
    }
    let mut d = Decorator {
        out: String::with_capacity(html.len() + spans.len() * 16 + 8),
        spans,
        next: 0,
        pos: 0,
        mark_open: false,
    };
    let mut i = 0;
    while i < html.len() {
        let rest = &html[i..];
        if rest.starts_with('<') {
            let end = rest.find('>').map_or(html.len(), |e| i + e + 1);
            d.close_mark();
            d.out.push_str(&html[i..end]);
            i = end;
        } else if rest.starts_with('&') {
            let end = rest.find(';').map_or(html.len(), |e| i + e + 1);
            d.sync_mark();
            d.out.push_str(&html[i..end]);
            d.pos += entity_len(&html[i..end]);
            i = end;
        } else {
            // Outside tags and entities the HTML is the raw text byte for byte.
            let end = rest.find(['<', '&']).map_or(html.len(), |e| i + e);
            d.run(&html[i..end]);
            i = end;
        }
    }
    if show_cr {
        d.sync_mark();
        d.out
            .push_str("<span class=\"ctl cr\" title=\"Carriage return (CR)\">\u{240d}</span>");
    }
    d.close_mark();
    d.out
}

/// State of [`decorate`]: where it is in the raw text and whether a `<mark>` is open.
struct Decorator<'s> {
    out: String,
    spans: &'s [WordSpan],
    /// First span that does not end at or before `pos`.
    next: usize,
    /// Byte offset in the raw line text.
    pos: usize,
    mark_open: bool,
}

impl Decorator<'_> {
    fn marked(&mut self) -> bool {
        while self.next < self.spans.len() && self.spans[self.next].end <= self.pos {
            self.next += 1;
        }
        self.next < self.spans.len() && self.spans[self.next].start <= self.pos
    }

    /// Opens or closes the mark so it matches the span state at `pos`.
    fn sync_mark(&mut self) {
        let want = self.marked();
        if want != self.mark_open {
            self.out.push_str(if want { "<mark>" } else { "</mark>" });
            self.mark_open = want;
        }
    }

    fn close_mark(&mut self) {
        if self.mark_open {
            self.out.push_str("</mark>");
            self.mark_open = false;
        }
    }

    /// The next offset after `pos` where the mark state changes.
    fn next_boundary(&mut self) -> usize {
        if !self.marked() {
            return self.spans.get(self.next).map_or(usize::MAX, |s| s.start);
        }
        self.spans[self.next].end
    }

    /// A run of plain text, split where spans start or end.
    fn run(&mut self, mut text: &str) {
        while !text.is_empty() {
            self.sync_mark();
            let mut take = self
                .next_boundary()
                .saturating_sub(self.pos)
                .clamp(1, text.len());
            while !text.is_char_boundary(take) {
                take += 1;
            }
            let (piece, rest) = text.split_at(take);
            if may_hold_control(piece) {
                for c in piece.chars() {
                    if is_hidden_control(c) {
                        push_control(&mut self.out, c);
                    } else {
                        self.out.push(c);
                    }
                }
            } else {
                self.out.push_str(piece);
            }
            self.pos += take;
            text = rest;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------

/// One side of a split row.
#[derive(Clone, Copy)]
struct Side<'a> {
    kind: LineKind,
    num: usize,
    html: &'a str,
    eof: bool,
}

/// One table row in either layout. viewer-runtime.js builds the same rows from the JSON.
enum Row<'a> {
    Unified {
        kind: LineKind,
        old: Option<usize>,
        new: Option<usize>,
        html: &'a str,
        eof: bool,
    },
    Split {
        left: Option<Side<'a>>,
        right: Option<Side<'a>>,
    },
    /// A collapsed run of `len` unchanged lines (the whole gap: the static page never has
    /// it partly open).
    Gap {
        index: usize,
        gap: Gap,
        next: Option<&'a Hunk>,
        expandable: bool,
        first: bool,
        last: bool,
    },
    /// A hunk whose section text has no gap row to sit in.
    Header { hunk: &'a Hunk },
}

impl<'a> Prepared<'a> {
    /// The rows of this file in `layout`, with gaps collapsed unless `expanded` (and known).
    fn rows(&'a self, layout: Layout, expanded: bool) -> Vec<Row<'a>> {
        let hunks = &self.file.hunks;
        let mut rows = Vec::with_capacity(self.file.row_count() + self.gaps.len() * 2);
        let context = |rows: &mut Vec<Row<'a>>, old: usize, new: usize, html: &'a str| {
            rows.push(match layout {
                Layout::Unified => Row::Unified {
                    kind: LineKind::Context,
                    old: Some(old),
                    new: Some(new),
                    html,
                    eof: false,
                },
                Layout::Split => Row::Split {
                    left: Some(Side {
                        kind: LineKind::Context,
                        num: old,
                        html,
                        eof: false,
                    }),
                    right: Some(Side {
                        kind: LineKind::Context,
                        num: new,
                        html,
                        eof: false,
                    }),
                },
            });
        };
        // Gaps come in hunk order; index them once rather than searching per hunk.
        let mut gap_at: Vec<Option<usize>> = vec![None; hunks.len() + 1];
        for (index, (g, _)) in self.gaps.iter().enumerate() {
            if let Some(slot) = gap_at.get_mut(g.before_hunk) {
                *slot = Some(index);
            }
        }
        for (i, gap_index) in gap_at.into_iter().enumerate() {
            let gap = gap_index.map(|index| (index, &self.gaps[index]));
            match gap {
                Some((_, (g, Some(lines)))) if expanded => {
                    for (k, html) in lines.iter().enumerate() {
                        context(&mut rows, g.old_start + k, g.new_start + k, html);
                    }
                }
                Some((index, (g, lines))) => rows.push(Row::Gap {
                    index,
                    gap: *g,
                    next: hunks.get(i),
                    expandable: lines.is_some(),
                    first: i == 0,
                    last: i == hunks.len(),
                }),
                None => {
                    if let Some(h) = hunks.get(i) {
                        if !h.section.is_empty() {
                            rows.push(Row::Header { hunk: h });
                        }
                    }
                }
            }
            let Some(hunk) = hunks.get(i) else { break };
            let cells = &self.code[i];
            match layout {
                Layout::Unified => {
                    for (line, html) in hunk.lines.iter().zip(cells) {
                        rows.push(Row::Unified {
                            kind: line.kind,
                            old: line.old_line,
                            new: line.new_line,
                            html,
                            eof: line.no_newline,
                        });
                    }
                }
                Layout::Split => split_rows(&mut rows, &hunk.lines, cells),
            }
        }
        rows
    }

    /// `rows(layout, expanded).len()`, without building the rows.
    fn row_count(&self, layout: Layout, expanded: bool) -> usize {
        let lines = match layout {
            Layout::Unified => self.file.unified_rows(),
            Layout::Split => self.file.split_rows(),
        };
        let mut has_gap = vec![false; self.file.hunks.len() + 1];
        let mut gap_rows = 0;
        for (gap, text) in &self.gaps {
            if let Some(slot) = has_gap.get_mut(gap.before_hunk) {
                *slot = true;
            }
            gap_rows += match text {
                Some(text) if expanded => text.len(),
                _ => 1,
            };
        }
        let headers = self
            .file
            .hunks
            .iter()
            .zip(&has_gap)
            .filter(|(h, gap)| !**gap && !h.section.is_empty())
            .count();
        lines + gap_rows + headers
    }

    /// The JSON the runtime builds rows from (same cell HTML as the static rows).
    fn data(&self, expand_unchanged: bool) -> FileData<'_> {
        FileData {
            hunks: self
                .file
                .hunks
                .iter()
                .zip(&self.code)
                .map(|(h, cells)| HunkData {
                    o: h.old_start,
                    oc: h.old_count,
                    n: h.new_start,
                    nc: h.new_count,
                    s: &h.section,
                    l: h.lines
                        .iter()
                        .zip(cells)
                        .map(|(line, html)| {
                            (
                                kind_code(line.kind),
                                line.old_line.unwrap_or(0),
                                line.new_line.unwrap_or(0),
                                html.as_str(),
                                u8::from(line.no_newline),
                            )
                        })
                        .collect(),
                })
                .collect(),
            gaps: self
                .gaps
                .iter()
                .map(|(g, lines)| GapData {
                    b: g.before_hunk,
                    o: g.old_start,
                    n: g.new_start,
                    len: g.len,
                    l: lines.as_deref(),
                })
                .collect(),
            x: expand_unchanged,
        }
    }
}

/// Pairs a hunk's lines side by side: context on both sides; within a run of changes, the
/// i-th deletion beside the i-th addition.
fn split_rows<'a>(rows: &mut Vec<Row<'a>>, lines: &'a [DiffLine], cells: &'a [String]) {
    let side = |k: usize| {
        let line = &lines[k];
        Side {
            kind: line.kind,
            num: match line.kind {
                LineKind::Delete => line.old_line.unwrap_or(0),
                _ => line.new_line.unwrap_or(0),
            },
            html: cells.get(k).map_or("", String::as_str),
            eof: line.no_newline,
        }
    };
    let mut j = 0;
    while j < lines.len() {
        if lines[j].kind == LineKind::Context {
            let line = &lines[j];
            let html = cells.get(j).map_or("", String::as_str);
            rows.push(Row::Split {
                left: Some(Side {
                    kind: LineKind::Context,
                    num: line.old_line.unwrap_or(0),
                    html,
                    eof: line.no_newline,
                }),
                right: Some(Side {
                    kind: LineKind::Context,
                    num: line.new_line.unwrap_or(0),
                    html,
                    eof: line.no_newline,
                }),
            });
            j += 1;
            continue;
        }
        // A change run lasts until the next context line; its deletions and additions pair
        // up in order, as `FileDiff::split_rows` counts them.
        let (mut dels, mut adds) = (Vec::new(), Vec::new());
        while j < lines.len() && lines[j].kind != LineKind::Context {
            if lines[j].kind == LineKind::Delete {
                dels.push(j);
            } else {
                adds.push(j);
            }
            j += 1;
        }
        for k in 0..dels.len().max(adds.len()) {
            rows.push(Row::Split {
                left: dels.get(k).map(|&d| side(d)),
                right: adds.get(k).map(|&a| side(a)),
            });
        }
    }
}

fn kind_code(kind: LineKind) -> u8 {
    match kind {
        LineKind::Context => 0,
        LineKind::Add => 1,
        LineKind::Delete => 2,
    }
}

fn kind_class(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Context => "ctx",
        LineKind::Add => "add",
        LineKind::Delete => "del",
    }
}

/// How rows are written on this page.
struct RowCtx {
    layout: Layout,
    /// `+`/`-` signs in the sign column (bars and none are drawn by CSS or not at all).
    classic: bool,
    /// Expand buttons on gap rows.
    interactive: bool,
}

impl RowCtx {
    fn cols(&self) -> usize {
        match self.layout {
            Layout::Unified => 4,
            Layout::Split => 6,
        }
    }

    fn sign(&self, kind: LineKind) -> &'static str {
        match (self.classic, kind) {
            (true, LineKind::Add) => "+",
            (true, LineKind::Delete) => "-",
            _ => "",
        }
    }
}

const EOF_MARK: &str = "<span class=\"eof\" title=\"No newline at end of file\" aria-label=\"No newline at end of file\"></span>";

fn push_num(out: &mut String, num: Option<usize>) {
    if let Some(n) = num.filter(|n| *n > 0) {
        let _ = write!(out, "{n}");
    }
}

fn unmodified(len: usize) -> String {
    if len == 1 {
        "1 unmodified line".to_string()
    } else {
        format!("{len} unmodified lines")
    }
}

fn hunk_range(out: &mut String, hunk: &Hunk) {
    let _ = write!(
        out,
        "<span class=\"range\">@@ -{},{} +{},{} @@",
        hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
    );
    if !hunk.section.is_empty() {
        out.push(' ');
        out.push_str("<span class=\"section\">");
        escape_into(out, &hunk.section);
        out.push_str("</span>");
    }
    out.push_str("</span>");
}

fn write_row(out: &mut String, row: &Row, ctx: &RowCtx) {
    match row {
        Row::Unified {
            kind,
            old,
            new,
            html,
            eof,
        } => {
            let _ = write!(
                out,
                "<tr class=\"{}\"><td class=\"num\">",
                kind_class(*kind)
            );
            push_num(out, *old);
            out.push_str("</td><td class=\"num\">");
            push_num(out, *new);
            let _ = write!(
                out,
                "</td><td class=\"sign\">{}</td><td class=\"code\">{html}",
                ctx.sign(*kind)
            );
            if *eof {
                out.push_str(EOF_MARK);
            }
            out.push_str("</td></tr>");
        }
        Row::Split { left, right } => {
            out.push_str("<tr>");
            for side in [left, right] {
                match side {
                    Some(s) => {
                        let class = kind_class(s.kind);
                        let _ = write!(out, "<td class=\"num {class}\">");
                        push_num(out, Some(s.num));
                        let _ = write!(
                            out,
                            "</td><td class=\"sign {class}\">{}</td><td class=\"code {class}\">{}",
                            ctx.sign(s.kind),
                            s.html
                        );
                        if s.eof {
                            out.push_str(EOF_MARK);
                        }
                        out.push_str("</td>");
                    }
                    None => out.push_str(
                        "<td class=\"num empty\"></td><td class=\"sign empty\"></td><td class=\"code empty\"></td>",
                    ),
                }
            }
            out.push_str("</tr>");
        }
        Row::Gap {
            index,
            gap,
            next,
            expandable,
            first,
            last,
        } => {
            let _ = write!(
                out,
                "<tr class=\"gap\" data-gap=\"{index}\"><td colspan=\"{}\"><div class=\"gap-row\">",
                ctx.cols()
            );
            let label = unmodified(gap.len);
            if ctx.interactive && *expandable {
                gap_buttons(out, *index, gap.len, *first, *last);
                let _ = write!(
                    out,
                    "<button type=\"button\" class=\"xp gap-label\" data-gap=\"{index}\" data-dir=\"all\" title=\"Show all {} hidden lines\">{label}</button>",
                    gap.len
                );
            } else {
                let _ = write!(out, "<span class=\"gap-label\">{label}</span>");
            }
            if let Some(h) = next {
                hunk_range(out, h);
            }
            out.push_str("</div></td></tr>");
        }
        Row::Header { hunk } => {
            let _ = write!(
                out,
                "<tr class=\"hunk\"><td colspan=\"{}\"><div class=\"gap-row\">",
                ctx.cols()
            );
            hunk_range(out, hunk);
            out.push_str("</div></td></tr>");
        }
    }
}

/// The arrow buttons of a gap: lines continue below the hunk above (`down`) and above the
/// hunk below (`up`). Small gaps open whole from their label alone.
fn gap_buttons(out: &mut String, index: usize, remaining: usize, first: bool, last: bool) {
    if remaining <= EXPAND_STEP {
        return;
    }
    out.push_str("<span class=\"gap-btns\">");
    if !first {
        let _ = write!(
            out,
            "<button type=\"button\" class=\"xp\" data-gap=\"{index}\" data-dir=\"down\" title=\"Show {EXPAND_STEP} more lines below\" aria-label=\"Show {EXPAND_STEP} more lines below\">\u{2193}</button>"
        );
    }
    if !last {
        let _ = write!(
            out,
            "<button type=\"button\" class=\"xp\" data-gap=\"{index}\" data-dir=\"up\" title=\"Show {EXPAND_STEP} more lines above\" aria-label=\"Show {EXPAND_STEP} more lines above\">\u{2191}</button>"
        );
    }
    out.push_str("</span>");
}

// ---------------------------------------------------------------------------------------
// JSON for the runtime
// ---------------------------------------------------------------------------------------

/// One file as the runtime reads it. Short keys: the JSON can run to megabytes.
#[derive(Serialize)]
struct FileData<'a> {
    hunks: Vec<HunkData<'a>>,
    gaps: Vec<GapData<'a>>,
    /// Open every expandable gap at first render (`expandUnchanged`).
    x: bool,
}

#[derive(Serialize)]
struct HunkData<'a> {
    o: usize,
    oc: usize,
    n: usize,
    nc: usize,
    /// Section text, raw (the runtime escapes it).
    s: &'a str,
    /// Lines as `[kind (0 ctx, 1 add, 2 del), old or 0, new or 0, cell HTML, no-newline]`.
    l: Vec<(u8, usize, usize, &'a str, u8)>,
}

#[derive(Serialize)]
struct GapData<'a> {
    /// Index of the hunk that follows.
    b: usize,
    o: usize,
    n: usize,
    len: usize,
    /// Cell HTML of the hidden lines, when the full text is known.
    l: Option<&'a [String]>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{diff_texts, parse_patch};

    const SCRIPT: &str = "</script><script>alert(1)</script>";
    const IMG: &str = "<img src=x onerror=alert(1)>";

    fn opts() -> ViewOptions {
        ViewOptions::from_defaults(&DiffDefaults::default(), "Test diff")
    }

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    /// A tag or element name with its attribute text or raw content.
    type NameText = (String, String);

    /// The tags of a page: `(name, attributes)` for every `<name …>` outside of the raw
    /// text of `<style>` and `<script>` elements, plus those elements' raw text.
    fn tags(html: &str) -> (Vec<NameText>, Vec<NameText>) {
        let mut tags = Vec::new();
        let mut raw = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find('<') {
            rest = &rest[start + 1..];
            let end = rest.find('>').expect("tag ends");
            let tag = &rest[..end];
            rest = &rest[end + 1..];
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '/' || *c == '!')
                .collect::<String>()
                .to_ascii_lowercase();
            let attrs = tag[name.len()..].to_string();
            if name == "script" || name == "style" {
                let close = format!("</{name}>");
                let stop = rest.find(&close).expect("raw text element closes");
                raw.push((name.clone(), rest[..stop].to_string()));
                rest = &rest[stop + close.len()..];
            }
            tags.push((name, attrs));
        }
        (tags, raw)
    }

    /// Attribute names (lowercase) and raw values of a tag, parsed as a browser would:
    /// quoted values may hold spaces and `=`.
    fn attributes(attrs: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut rest = attrs.trim_start();
        while !rest.is_empty() {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
                .unwrap_or(rest.len());
            let name = rest[..end].to_ascii_lowercase();
            rest = &rest[end..];
            let mut value = String::new();
            if let Some(after) = rest.trim_start().strip_prefix('=') {
                let after = after.trim_start();
                let quote = after.chars().next().filter(|c| *c == '"' || *c == '\'');
                let (v, tail) = match quote {
                    Some(q) => {
                        let close = after[1..].find(q).map_or(after.len(), |i| i + 1);
                        (&after[1..close], after.get(close + 1..).unwrap_or(""))
                    }
                    None => {
                        let stop = after.find(char::is_whitespace).unwrap_or(after.len());
                        (&after[..stop], &after[stop..])
                    }
                };
                value = v.to_string();
                rest = tail;
            } else if rest.starts_with('/') {
                rest = &rest[1..];
            }
            if !name.is_empty() {
                out.push((name, value));
            }
            rest = rest.trim_start();
        }
        out
    }

    fn assert_inert(html: &str) {
        let (tags, raw) = tags(html);
        let scripts: Vec<&String> = tags
            .iter()
            .filter(|(n, _)| n == "script")
            .map(|(_, a)| a)
            .collect();
        let assets: Vec<&&String> = scripts.iter().filter(|a| a.contains(" src=")).collect();
        assert_eq!(assets.len(), 2, "{assets:?}");
        assert_eq!(
            assets[0].as_str(),
            " src=\"../../assets/viewer-runtime.js\" defer"
        );
        assert_eq!(assets[1].as_str(), " src=\"../../assets/viewer.js\" defer");
        for attrs in scripts.iter().filter(|a| !a.contains(" src=")) {
            assert!(
                attrs.starts_with(" type=\"application/json\""),
                "only data blocks besides the assets: {attrs}"
            );
        }
        for (name, text) in &raw {
            assert!(!text.contains('<'), "raw text of <{name}> holds '<'");
        }
        for (name, attrs) in &tags {
            assert!(
                !matches!(
                    name.as_str(),
                    "img" | "iframe" | "object" | "embed" | "svg" | "base"
                ),
                "active element <{name}{attrs}>"
            );
            for (attr, value) in attributes(attrs) {
                assert!(
                    !attr.starts_with("on"),
                    "event handler attribute in <{name}{attrs}>"
                );
                assert!(
                    !value.to_ascii_lowercase().contains("javascript:"),
                    "<{name}{attrs}>"
                );
            }
        }
    }

    #[test]
    fn the_inertness_check_catches_live_markup() {
        assert_eq!(
            attributes(" title=\"x onerror=alert(1)\" class=a data-x='1 2'"),
            vec![
                ("title".to_string(), "x onerror=alert(1)".to_string()),
                ("class".to_string(), "a".to_string()),
                ("data-x".to_string(), "1 2".to_string()),
            ]
        );
        let page = render(&diff_texts(Some("a"), "a\n", "b\n"), &opts());
        for evil in [
            "<img src=x onerror=alert(1)>",
            "<p onclick=\"x\">",
            "<script>alert(1)</script>",
        ] {
            let bad = page.replace("<main id=\"diff\">", &format!("<main id=\"diff\">{evil}"));
            assert!(
                std::panic::catch_unwind(|| assert_inert(&bad)).is_err(),
                "{evil}"
            );
        }
        assert_inert(&page);
    }

    #[test]
    fn hostile_text_paths_and_title_render_inert() {
        let before = format!("keep\n{SCRIPT}\n{IMG}\nend\n");
        let after = format!("keep\n{IMG} {SCRIPT} changed\n{IMG}\nend\n");
        let path = format!("dir/{SCRIPT}{IMG}.html");
        let mut model = diff_texts(Some(&path), &before, &after);
        let mut second = model.files[0].clone();
        second.old_path = Some(format!("{IMG}.rs"));
        second.new_path = Some(format!("{SCRIPT}.rs"));
        second.status = FileStatus::Renamed;
        second.hunks[0].section = format!("fn {IMG}");
        model.files.push(second);
        for layout in [Layout::Unified, Layout::Split] {
            for expand in [false, true] {
                let mut o = opts();
                o.title = format!("{SCRIPT}{IMG}");
                o.layout = layout;
                o.expand_unchanged = expand;
                o.lang = Some(IMG.to_string());
                let html = render(&model, &o);
                assert_inert(&html);
                assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
                assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
                assert!(html.contains(
                    "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; · previewd</title>"
                ));
                // The JSON carries the same text with `<` escaped.
                assert!(html.contains("\\u003cimg src=x onerror=alert(1)\\u003e"));
            }
        }
        let mut o = opts();
        o.variant = Variant::Image { max_width: 960 };
        let html = render(&model, &o);
        assert!(!html.contains("<script"), "the image page has no scripts");
        let (tags, _) = tags(&html);
        assert!(tags.iter().all(|(n, _)| n != "img"));
    }

    #[test]
    fn unified_layout_rows() {
        let model = diff_texts(Some("a.txt"), "a\nlet x = 1;\nc\n", "a\nlet x = 2;\nc\nd\n");
        let mut o = opts();
        o.presentation.diff_indicators = DiffIndicators::Classic;
        let html = render(&model, &o);
        assert!(html.contains("data-layout=\"unified\""));
        assert!(html.contains("<colgroup><col class=\"c-num\"><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"></colgroup>"));
        assert!(html.contains("<tr class=\"ctx\"><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"sign\"></td><td class=\"code\">a</td></tr>"), "{html}");
        assert!(html.contains("<tr class=\"del\"><td class=\"num\">2</td><td class=\"num\"></td><td class=\"sign\">-</td><td class=\"code\">let x = <mark>1</mark>;</td></tr>"));
        assert!(html.contains("<tr class=\"add\"><td class=\"num\"></td><td class=\"num\">2</td><td class=\"sign\">+</td><td class=\"code\">let x = <mark>2</mark>;</td></tr>"));
        assert!(html.contains("<tr class=\"add\"><td class=\"num\"></td><td class=\"num\">4</td><td class=\"sign\">+</td><td class=\"code\">d</td></tr>"));
        assert!(html.contains("<span class=\"plus\">+2</span><span class=\"minus\">-1</span>"));
    }

    #[test]
    fn split_layout_pairs_deletions_with_additions() {
        let model = diff_texts(Some("a.txt"), "a\nlet x = 1;\nc\n", "a\nlet x = 2;\nc\nd\n");
        let mut o = opts();
        o.layout = Layout::Split;
        o.presentation.diff_indicators = DiffIndicators::Classic;
        let html = render(&model, &o);
        assert!(html.contains("data-layout=\"split\""));
        assert!(html.contains("<colgroup><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"><col class=\"c-num\"><col class=\"c-sign\"><col class=\"c-code\"></colgroup>"));
        assert!(html.contains("<tr><td class=\"num ctx\">1</td><td class=\"sign ctx\"></td><td class=\"code ctx\">a</td><td class=\"num ctx\">1</td><td class=\"sign ctx\"></td><td class=\"code ctx\">a</td></tr>"));
        assert!(html.contains("<tr><td class=\"num del\">2</td><td class=\"sign del\">-</td><td class=\"code del\">let x = <mark>1</mark>;</td><td class=\"num add\">2</td><td class=\"sign add\">+</td><td class=\"code add\">let x = <mark>2</mark>;</td></tr>"), "{html}");
        assert!(html.contains("<tr><td class=\"num empty\"></td><td class=\"sign empty\"></td><td class=\"code empty\"></td><td class=\"num add\">4</td><td class=\"sign add\">+</td><td class=\"code add\">d</td></tr>"));
        assert_eq!(html.matches("<tr>").count(), 4);
    }

    #[test]
    fn indicator_modes() {
        let model = diff_texts(Some("a.txt"), "x = 1\n", "x = 2\n");
        for (mode, name, add_sign) in [
            (DiffIndicators::Bars, "bars", ""),
            (DiffIndicators::Classic, "classic", "+"),
            (DiffIndicators::None, "none", ""),
        ] {
            let mut o = opts();
            o.presentation.diff_indicators = mode;
            let html = render(&model, &o);
            assert!(
                html.contains(&format!("data-indicators=\"{name}\"")),
                "{name}"
            );
            assert!(
                html.contains(&format!(
                    "<td class=\"sign\">{add_sign}</td><td class=\"code\">x = <mark>2</mark></td>"
                )),
                "{name}"
            );
        }
        // The stylesheet draws bars and hides nothing else.
        assert!(STYLESHEET.contains("[data-indicators=\"bars\"]"));
    }

    #[test]
    fn toggles_and_presentation_land_on_the_root() {
        let model = diff_texts(Some("a.txt"), "x\n", "y\n");
        let mut o = opts();
        o.theme = Theme::Light;
        o.presentation.word_wrap = false;
        o.presentation.background = false;
        o.presentation.show_line_numbers = false;
        o.presentation.font_family = "JetBrains Mono, monospace; } </style><script>".into();
        o.presentation.font_size = 13;
        o.presentation.line_spacing = 1.5;
        let html = render(&model, &o);
        assert!(html.contains("<html lang=\"en\" data-variant=\"viewer\" data-layout=\"unified\" data-theme=\"light\" data-wrap=\"off\" data-bg=\"off\" data-numbers=\"off\" data-indicators=\"bars\" data-step=\"20\">"));
        assert!(html.contains(":root{--code-font:\"JetBrains Mono\",\"monospace  stylescript\",var(--mono);--fs:13px;--lh:1.50;--row-h:20px}"), "{}", &html[..2000]);
        assert!(html.contains("data-toggle=\"wrap\" aria-pressed=\"false\""));
        assert!(html.contains("data-value=\"light\" aria-pressed=\"true\""));
        assert_inert(&html);
    }

    #[test]
    fn collapsed_gaps_have_the_right_counts_and_expand_from_the_page() {
        let before = numbered(100);
        let after = before.replace("line 50\n", "line fifty\n");
        let model = diff_texts(Some("n.txt"), &before, &after);
        let html = render(&model, &opts());
        // Hunk shows 47..=53; 46 lines above, 47 below.
        assert!(html.contains("data-dir=\"all\" title=\"Show all 46 hidden lines\">46 unmodified lines</button><span class=\"range\">@@ -47,7 +47,7 @@</span>"), "{html}");
        assert!(html.contains(">47 unmodified lines</button></div>"));
        assert!(html.contains("data-gap=\"0\" data-dir=\"up\""));
        assert!(
            !html.contains("data-gap=\"0\" data-dir=\"down\""),
            "nothing above the first gap"
        );
        assert!(html.contains("data-gap=\"1\" data-dir=\"down\""));
        assert!(
            !html.contains("data-gap=\"1\" data-dir=\"up\""),
            "nothing below the last gap"
        );
        assert!(html.contains("data-action=\"expand-all\""));
        // The hidden lines travel in the page for the runtime.
        assert!(html.contains(
            "\"gaps\":[{\"b\":0,\"o\":1,\"n\":1,\"len\":46,\"l\":[\"line 1\",\"line 2\","
        ));
        assert!(html.contains("{\"b\":1,\"o\":54,\"n\":54,\"len\":47,\"l\":[\"line 54\","));

        let mut o = opts();
        o.expand_unchanged = true;
        let html = render(&model, &o);
        assert!(!html.contains("unmodified line"));
        assert_eq!(html.matches("<tr class=\"ctx\">").count(), 99);
        assert!(
            html.contains("<tr class=\"ctx\"><td class=\"num\">100</td><td class=\"num\">100</td>")
        );
        assert!(html.contains(",\"x\":true}"));

        // A one-line gap is singular; patch gaps are shown but cannot expand.
        let patch = "--- a/p.txt\n+++ b/p.txt\n@@ -2,1 +2,1 @@ fn top\n-a\n+b\n";
        let html = render(&parse_patch(patch).unwrap(), &opts());
        assert!(html.contains("<span class=\"gap-label\">1 unmodified line</span><span class=\"range\">@@ -2,1 +2,1 @@ <span class=\"section\">fn top</span></span>"), "{html}");
        assert!(!html.contains("class=\"xp"));
        assert!(!html.contains("expand-all"));
    }

    #[test]
    fn multi_file_summary_has_badges_counts_and_anchors() {
        let patch = "\
diff --git a/new.txt b/new.txt
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+one
+two
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 2222222..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old name.rs b/new name.rs
similarity index 90%
rename from old name.rs
rename to new name.rs
index 3333333..4444444 100644
--- a/old name.rs
+++ b/new name.rs
@@ -1,2 +1,2 @@
 fn a() {}
-fn b() {}
+fn c() {}
diff --git a/blob.bin b/blob.bin
index 5555555..6666666 100644
Binary files a/blob.bin and b/blob.bin differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
";
        let model = parse_patch(patch).unwrap();
        assert_eq!(model.files.len(), 5);
        let html = render(&model, &opts());
        assert!(html.contains("<h2>5 files changed</h2>"));
        assert!(html.contains("<span class=\"files-count\">5 files changed</span><span class=\"plus\">+3</span><span class=\"minus\">-2</span>"));
        assert!(html.contains("<li><a href=\"#file-1\"><span class=\"s-path\">new.txt</span></a><span class=\"badge added\" title=\"New file\">Added</span><span class=\"counts\"><span class=\"plus\">+2</span><span class=\"minus\">-0</span>"), "{html}");
        assert!(html.contains("<li><a href=\"#file-2\"><span class=\"s-path\">gone.txt</span></a><span class=\"badge deleted\" title=\"Deleted file\">Deleted</span><span class=\"counts\"><span class=\"plus\">+0</span><span class=\"minus\">-1</span>"));
        assert!(html.contains("<li><a href=\"#file-3\"><span class=\"s-path\"><span class=\"old-path\">old name.rs</span><span class=\"arrow\" aria-label=\"to\"> → </span><span class=\"new-path\">new name.rs</span></span></a><span class=\"badge renamed\" title=\"Renamed (similarity index)\">Renamed 90%</span><span class=\"counts\"><span class=\"plus\">+1</span><span class=\"minus\">-1</span>"));
        assert!(html.contains("<a href=\"#file-4\"><span class=\"s-path\">blob.bin</span></a><span class=\"badge binary\" title=\"Binary file\">Binary</span>"));
        assert!(html.contains("<a href=\"#file-5\"><span class=\"s-path\">run.sh</span></a><span class=\"badge mode\" title=\"File mode changed\">100644 → 100755</span>"));
        for n in 1..=5 {
            assert!(html.contains(&format!(
                "<details class=\"file\" id=\"file-{n}\" data-file=\"{n}\" open>"
            )));
        }
        assert!(html.contains("<p class=\"file-note\">Binary file not shown.</p>"));
        assert!(html.contains("<p class=\"file-note\">Only the file mode changed.</p>"));
        // Bodiless files get no data block; the others do.
        assert_eq!(html.matches("class=\"diff-data\"").count(), 3);
        // One file: no summary.
        let one = render(&diff_texts(Some("a"), "a\n", "b\n"), &opts());
        assert!(!one.contains("class=\"summary\""));
    }

    #[test]
    fn highlighting_degrades_to_plain_past_the_budget() {
        let before = "fn main() {\n    let x = 1;\n}\n";
        let after = "fn main() {\n    let x = 2;\n}\n";
        let model = diff_texts(Some("main.rs"), before, after);
        let html = render(&model, &opts());
        assert!(html.contains("<span class=\"lang\">Rust</span>"));
        let keyword = highlight_lines("let", None, "main.rs").unwrap().remove(0);
        assert!(keyword.starts_with("<span class=\"lc"), "{keyword}");
        assert!(html.contains(&keyword), "{html}");
        // Word marks sit inside the syntax spans.
        assert!(html.contains("<mark>2</mark>"));

        let mut o = opts();
        o.highlight_max_bytes = 10;
        let html = render(&model, &o);
        assert!(!html.contains(&keyword), "no highlighted code past the cap");
        assert!(html.contains("<span class=\"lang\"><span title=\"Rust highlighting is off: the highlighting budget of this page (10 B) is used up\">Plain text</span></span>"));
        assert!(html.contains("<td class=\"code\">    let x = <mark>2</mark>;</td>"));

        // The hint wins for a single file; unknown languages are plain, not errors.
        let mut o = opts();
        o.lang = Some("python".into());
        let html = render(&diff_texts(Some("x.unknown"), "a = 1\n", "a = 2\n"), &o);
        assert!(html.contains("<span class=\"lang\">Python</span>"));
        let mut o = opts();
        o.lang = Some("no-such-language".into());
        let html = render(&diff_texts(Some("x.unknown"), "a\n", "b\n"), &o);
        assert!(!html.contains("<span class=\"lang\">"));
        assert!(html.contains("<td class=\"code\">b</td>"));
    }

    #[test]
    fn image_variant_has_no_toolbar_and_the_frame_width() {
        let before = numbered(2000);
        let after = before
            .replace("line 7\n", "line seven\n")
            .replace("line 1500\n", "x\n");
        let model = diff_texts(Some("n.txt"), &before, &after);
        let mut o = opts();
        o.variant = Variant::Image { max_width: 1200 };
        o.expand_unchanged = true;
        o.presentation.word_wrap = false;
        let html = render(&model, &o);
        assert!(html.contains(
            "data-variant=\"image\" data-layout=\"unified\" data-theme=\"dark\" data-wrap=\"on\""
        ));
        assert!(html.contains("<div class=\"frame\" style=\"width:1200px\">"));
        assert!(!html.contains("class=\"toolbar\""));
        assert!(!html.contains("<button"));
        assert!(!html.contains("<script"));
        // Everything is written out, past the viewer's static budget.
        assert_eq!(html.matches("<tr class=").count(), 2002);
        assert!(!html.contains("class=\"ph\""));
    }

    #[test]
    fn large_patches_leave_rows_to_the_runtime() {
        let mut patch = String::from("--- a/big.txt\n+++ b/big.txt\n@@ -1,60000 +1,60000 @@\n");
        for i in 0..60_000 {
            let _ = writeln!(patch, "-old {i}");
        }
        for i in 0..60_000 {
            let _ = writeln!(patch, "+new {i}");
        }
        let model = parse_patch(&patch).unwrap();
        let html = render(&model, &opts());
        assert!(
            html.matches("<tr").count() < STATIC_ROW_BUDGET,
            "rows stay out of the DOM"
        );
        assert!(html.contains("<tbody class=\"ph\"><tr><td colspan=\"4\" style=\"height:2880000px\"></td></tr></tbody>"));
        assert!(html.contains("[1,0,60000,\"\\u003cmark\\u003enew\\u003c/mark\\u003e 59999\",0]"));
    }

    #[test]
    fn word_marks_survive_escaping_and_syntax_spans() {
        let spans = [WordSpan { start: 2, end: 7 }];
        // Raw "a <b> c": the span covers "<b> " whose `<` is an entity in the HTML.
        assert_eq!(
            decorate(&escape("a <b> c"), &spans, false),
            "a <mark>&lt;b&gt; c</mark>"
        );
        let html = "<span class=\"k\">let</span> <span class=\"s\">&quot;ab&quot;</span>";
        // Raw `let "ab"`: span 5..7 is `ab`, inside the string span.
        assert_eq!(
            decorate(html, &[WordSpan { start: 5, end: 7 }], false),
            "<span class=\"k\">let</span> <span class=\"s\">&quot;<mark>ab</mark>&quot;</span>"
        );
        // A span across a tag boundary closes and reopens around the tag.
        assert_eq!(
            decorate(html, &[WordSpan { start: 1, end: 5 }], false),
            "<span class=\"k\">l<mark>et</mark></span><mark> </mark><span class=\"s\"><mark>&quot;</mark>ab&quot;</span>"
        );
    }

    /// Removes `<mark>`/`</mark>` and checks they nest: never two open, never a close
    /// without an open, never a syntax tag inside.
    fn unmark(html: &str) -> (String, Vec<String>) {
        let mut plain = String::new();
        let mut marked = Vec::new();
        let mut open: Option<String> = None;
        let mut rest = html;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("<mark>") {
                assert!(open.is_none(), "nested mark in {html}");
                open = Some(String::new());
                rest = after;
            } else if let Some(after) = rest.strip_prefix("</mark>") {
                marked.push(open.take().expect("close without open"));
                rest = after;
            } else if rest.starts_with("<span class=\"ctl") {
                // A control's stand-in is one unit and may sit inside a mark.
                let end = rest.find("</span>").unwrap() + "</span>".len();
                plain.push_str(&rest[..end]);
                if let Some(m) = open.as_mut() {
                    m.push_str(&rest[..end]);
                }
                rest = &rest[end..];
            } else {
                let c = rest.chars().next().unwrap();
                if c == '<' {
                    assert!(open.is_none(), "tag inside a mark in {html}");
                }
                plain.push(c);
                if let Some(m) = open.as_mut() {
                    m.push(c);
                }
                rest = &rest[c.len_utf8()..];
            }
        }
        assert!(open.is_none(), "unclosed mark in {html}");
        (plain, marked)
    }

    #[test]
    fn every_span_over_every_line_nests_and_keeps_the_text() {
        let lines = [
            "let s = \"<a href='x'>\" & é;",
            "fn main() { x += 1; }",
            "tab\tc\u{202e}d",
        ];
        for text in lines {
            let highlighted = highlight_lines(&format!("{text}\n"), None, "x.rs").unwrap();
            for html in [escape(text), highlighted[0].clone()] {
                let bounds: Vec<usize> = (0..=text.len())
                    .filter(|i| text.is_char_boundary(*i))
                    .collect();
                for (a, &start) in bounds.iter().enumerate() {
                    for &end in &bounds[a + 1..] {
                        let out = decorate(&html, &[WordSpan { start, end }], false);
                        let (plain, marked) = unmark(&out);
                        let expected = decorate(&html, &[], false);
                        assert_eq!(plain, expected, "{start}..{end}");
                        // The marked pieces, entities decoded, are the span's text.
                        let joined: String = marked.concat();
                        let decoded = joined
                            .replace("&lt;", "<")
                            .replace("&gt;", ">")
                            .replace("&quot;", "\"")
                            .replace("&#39;", "'")
                            .replace("&amp;", "&");
                        let want = &text[start..end];
                        if !want.contains('\u{202e}') {
                            assert_eq!(decoded, want, "{start}..{end} in {out}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn hidden_controls_and_mixed_line_endings_are_visible() {
        assert_eq!(
            decorate("a\u{202e}b\u{1b}", &[], false),
            "a<span class=\"ctl\" title=\"U+202E\">U+202E</span>b<span class=\"ctl\" title=\"U+001B\">\u{241b}</span>"
        );
        // LF → CRLF on one line: the CR shows on that line only.
        let model = diff_texts(Some("e.txt"), "a\nb\n", "a\nb\r\n");
        let html = render(&model, &opts());
        assert!(html.contains("<td class=\"code\">b<mark><span class=\"ctl cr\" title=\"Carriage return (CR)\">\u{240d}</span></mark></td>"), "{html}");
        // A file that is CRLF throughout says so once.
        let model = diff_texts(Some("e.txt"), "a\r\nb\r\n", "a\r\nc\r\n");
        let html = render(&model, &opts());
        assert!(!html.contains("ctl cr"));
        assert!(html.contains("title=\"Lines end in CR LF\">CRLF</span>"));
    }

    #[test]
    fn fixture_patches_render_in_every_mode_with_consistent_row_counts() {
        let fixtures = [
            include_str!("../../fixtures/patches/git-all.patch"),
            include_str!("../../fixtures/patches/hg.patch"),
            include_str!("../../fixtures/patches/svn.patch"),
            include_str!("../../fixtures/patches/plain-diff-u.patch"),
            // Interleaved changes pair within the run, as the model counts split rows.
            "--- a/i.txt\n+++ b/i.txt\n@@ -1,3 +1,3 @@\n-a\n+b\n+c\n-d\n x\n",
        ];
        for text in fixtures {
            let model = parse_patch(text).unwrap();
            let o = opts();
            for p in prepare(&model, &o) {
                for layout in [Layout::Unified, Layout::Split] {
                    for expanded in [false, true] {
                        assert_eq!(
                            p.rows(layout, expanded).len(),
                            p.row_count(layout, expanded),
                            "{}",
                            p.file.display_path()
                        );
                    }
                }
            }
            for layout in [Layout::Unified, Layout::Split] {
                let mut o = opts();
                o.layout = layout;
                assert_inert(&render(&model, &o));
            }
        }
        let model = parse_patch(fixtures[4]).unwrap();
        let mut o = opts();
        o.layout = Layout::Split;
        let html = render(&model, &o);
        assert!(html.contains("<td class=\"code del\">a</td><td class=\"num add\">1</td><td class=\"sign add\"></td><td class=\"code add\">b</td>"));
        assert!(html.contains("<td class=\"code del\">d</td><td class=\"num add\">2</td><td class=\"sign add\"></td><td class=\"code add\">c</td>"));
    }

    #[test]
    fn no_newline_at_end_is_marked() {
        let model = diff_texts(Some("a.txt"), "a\nx = 1", "a\nx = 2");
        let html = render(&model, &opts());
        assert!(html.contains(&format!("x = <mark>2</mark>{EOF_MARK}</td>")));
    }

    #[test]
    fn from_request_carries_the_call() {
        let defaults = DiffDefaults::default();
        let body = serde_json::json!({
            "before": "a\n", "after": "b\n", "path": "x.rs", "title": "T",
            "layout": "split", "theme": "light", "expandUnchanged": true, "lang": "rust"
        });
        let req = DiffRequest::from_json(&body, &defaults).unwrap();
        let o = ViewOptions::from_request(&req, Variant::Image { max_width: 777 });
        assert_eq!(o.title, "T");
        assert_eq!(o.layout, Layout::Split);
        assert_eq!(o.theme, Theme::Light);
        assert!(o.expand_unchanged);
        assert_eq!(o.lang.as_deref(), Some("rust"));
        assert_eq!(o.variant, Variant::Image { max_width: 777 });
        assert_eq!(o.presentation.font_size, 15);
    }
}
