//! Page borders (`w:sectPr/w:pgBorders`, ECMA-376 §17.6.10): a frame of up to four lines
//! around each page of a section, measured from the page edge or from the text.
//!
//! Art borders (a picture repeated along the edge: `w:val="apples"` …) are drawn as a
//! plain line of their width; the model keeps the picture's name and says so.

use std::fmt::Write as _;

use serde::Serialize;

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::{Border, PageSetup};
use super::props::{border, number};
use super::theme::ThemeColors;

/// The page border of a section.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageBorders {
    /// What the border's spacing is measured from (`w:offsetFrom`; ECMA's default: text).
    pub offset_from: PageBorderOffset,
    /// Which pages of the section have it (`w:display`).
    pub display: PageBorderDisplay,
    /// Drawn behind the text (`w:zOrder="back"`) rather than in front of it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub behind_text: bool,
    /// Top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<PageBorderSide>,
    /// Right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<PageBorderSide>,
    /// Bottom.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottom: Option<PageBorderSide>,
    /// Left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<PageBorderSide>,
}

/// What a page border's spacing is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PageBorderOffset {
    /// From the edge of the page to the border's outer edge.
    Page,
    /// From the text (the margins) to the border's inner edge.
    Text,
}

/// Which pages of a section show its page border.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PageBorderDisplay {
    /// Every page.
    AllPages,
    /// The section's first page only.
    FirstPage,
    /// Every page but the section's first.
    NotFirstPage,
}

/// One side of a page border.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageBorderSide {
    /// The line (an art border: a single line of the art's width).
    pub line: Border,
    /// Distance from the page edge or the text (`w:space`), in points.
    pub space: f32,
    /// The picture an art border repeats (`w:val` such as `apples`), drawn here as a plain
    /// line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// The line styles of ECMA-376's `ST_Border` that are lines; every other value names an
/// art border.
const LINE_STYLES: &[&str] = &[
    "nil",
    "none",
    "single",
    "thick",
    "double",
    "dotted",
    "dashed",
    "dotDash",
    "dotDotDash",
    "triple",
    "thinThickSmallGap",
    "thickThinSmallGap",
    "thinThickThinSmallGap",
    "thinThickMediumGap",
    "thickThinMediumGap",
    "thinThickThinMediumGap",
    "thinThickLargeGap",
    "thickThinLargeGap",
    "thinThickThinLargeGap",
    "wave",
    "doubleWave",
    "dashSmallGap",
    "dashDotStroked",
    "threeDEmboss",
    "threeDEngrave",
    "outset",
    "inset",
];

/// Reads `w:pgBorders`; `None` when no side draws a line.
pub(super) fn read(el: Element<'_>, theme: &ThemeColors) -> Option<PageBorders> {
    let side = |name: &str| {
        let s = el.child(Ns::W, name)?;
        let value = s.attr(Ns::W, "val").unwrap_or("single");
        let art = (!LINE_STYLES.contains(&value)).then(|| value.to_owned());
        let mut line = border(s, theme);
        if art.is_some() {
            // An art border's `w:sz` is in points (1–31), not eighths.
            line.style = "single";
            line.width = s
                .attr(Ns::W, "sz")
                .and_then(number)
                .map_or(1.0, |v| v.clamp(1.0, 31.0));
        }
        if line.style == "none" || line.width <= 0.0 {
            return None;
        }
        line.width = line.width.min(31.0);
        let space = s
            .attr(Ns::W, "space")
            .and_then(number)
            .map_or(0.0, |v| v.clamp(0.0, 31.0));
        Some(PageBorderSide { line, space, art })
    };
    let borders = PageBorders {
        offset_from: match el.attr(Ns::W, "offsetFrom") {
            Some("page") => PageBorderOffset::Page,
            _ => PageBorderOffset::Text,
        },
        display: match el.attr(Ns::W, "display") {
            Some("firstPage") => PageBorderDisplay::FirstPage,
            Some("notFirstPage") => PageBorderDisplay::NotFirstPage,
            _ => PageBorderDisplay::AllPages,
        },
        behind_text: el.attr(Ns::W, "zOrder") == Some("back"),
        top: side("top"),
        right: side("right"),
        bottom: side("bottom"),
        left: side("left"),
    };
    let any = [&borders.top, &borders.right, &borders.bottom, &borders.left]
        .iter()
        .any(|s| s.is_some());
    any.then_some(borders)
}

impl PageBorders {
    /// Whether the border shows on the section's page `index` (0 for its first).
    pub fn shows_on(&self, index: usize) -> bool {
        match self.display {
            PageBorderDisplay::AllPages => true,
            PageBorderDisplay::FirstPage => index == 0,
            PageBorderDisplay::NotFirstPage => index > 0,
        }
    }

    /// The border box on a page of `page`'s size: its outer edges from the page's top
    /// left (left, top, width, height), in points.
    pub fn outer_box(&self, page: &PageSetup) -> (f32, f32, f32, f32) {
        let space = |s: &Option<PageBorderSide>| s.as_ref().map_or(0.0, |s| s.space);
        let width = |s: &Option<PageBorderSide>| s.as_ref().map_or(0.0, |s| s.line.width);
        let (left, top, right, bottom) = match self.offset_from {
            PageBorderOffset::Page => (
                space(&self.left),
                space(&self.top),
                page.width - space(&self.right),
                page.height - space(&self.bottom),
            ),
            // The space is between the text and the border's inner edge.
            PageBorderOffset::Text => (
                page.margin_left - space(&self.left) - width(&self.left),
                page.margin_top - space(&self.top) - width(&self.top),
                page.width - page.margin_right + space(&self.right) + width(&self.right),
                page.height - page.margin_bottom + space(&self.bottom) + width(&self.bottom),
            ),
        };
        let (left, top) = (left.max(0.0), top.max(0.0));
        let (right, bottom) = (right.min(page.width), bottom.min(page.height));
        (left, top, (right - left).max(0.0), (bottom - top).max(0.0))
    }

    /// The `style` of the border's box on a page of `page`'s size; `line` appends one
    /// side's CSS border declaration.
    pub(super) fn css(
        &self,
        page: &PageSetup,
        num: impl Fn(f32) -> String,
        line: impl Fn(&mut String, &str, &Border),
    ) -> String {
        let (left, top, width, height) = self.outer_box(page);
        let mut style = String::new();
        let _ = write!(
            style,
            "left:{}pt;top:{}pt;width:{}pt;height:{}pt;",
            num(left),
            num(top),
            num(width),
            num(height)
        );
        for (name, side) in [
            ("top", &self.top),
            ("right", &self.right),
            ("bottom", &self.bottom),
            ("left", &self.left),
        ] {
            if let Some(side) = side {
                line(&mut style, name, &side.line);
            }
        }
        // In front of the text is the page's top layer; behind it, under the text but on
        // the paper (the page is its own stacking context).
        style.push_str(if self.behind_text {
            "z-index:-1;"
        } else {
            "z-index:1;"
        });
        style
    }
}
