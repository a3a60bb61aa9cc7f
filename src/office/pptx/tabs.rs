//! Tab stops: which stop each tab of a paragraph reaches.
//!
//! PowerPoint measures stops from the text origin (the frame's left edge plus its left
//! inset, not the paragraph's margin): the custom stops of `a:tabLst`, the implicit stop a
//! hanging indent makes at the margin, then default stops every `defTabSz` past the last
//! custom one. A tab goes to the first stop past the text before it.
//!
//! The browser lays the text out, so the renderer cannot ask it where a tab starts. It
//! measures the text before each tab with the advance widths of the face the page draws
//! it in ([`FontPlan::text_width_em`]), picks the stop here, and writes a box per tab
//! whose width runs from the previous stop to this one (`render.rs`): the text inside the
//! boxes is then placed by the browser, exactly on the stops, and only the choice of
//! stop rests on the measurement. Where the machine lacks the face, a width of 0.5 em per
//! character stands in.

use std::ops::Range;

use super::model::{Paragraph, Run, RunKind, TabAlign, EMU_PER_POINT};
use crate::office::fonts::FontPlan;

/// Width of a character, in em, when the face cannot be measured.
const FALLBACK_EM: f64 = 0.5;
/// Most tabs laid out on one line; the rest keep the browser's default stops.
const MAX_LINE_TABS: usize = 64;

/// A piece of a run's text inside one segment.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Piece {
    /// Index of the run in the paragraph.
    pub run: usize,
    /// Byte range of the run's text.
    pub text: Range<usize>,
}

/// One line of a tabbed paragraph (a line break starts the next).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct TabLine {
    /// The text between tabs: segment 0 before the first tab, segment k after tab k.
    pub segments: Vec<Vec<Piece>>,
    /// Per tab of the line, the stop it reaches: its alignment and its distance in points
    /// from the previous stop (from the line's start for the first tab).
    pub stops: Vec<(TabAlign, f64)>,
    /// Whether the line ends with a line break run (written after the line).
    pub broken: bool,
}

/// Whether a paragraph has a tab to lay out.
pub(super) fn has_tabs(p: &Paragraph) -> bool {
    p.runs
        .iter()
        .any(|r| r.kind != RunKind::Break && r.text.contains('\t'))
}

/// The paragraph's lines with the stop of every tab. `bullet_width` is the width in points
/// the bullet takes before the first line's text when the indent is not hanging.
pub(super) fn lines(p: &Paragraph, fonts: &FontPlan, bullet_width: f64) -> Vec<TabLine> {
    let mut lines = split(p);
    let stops = Stops::of(p);
    let margin = p.margin_left as f64 / EMU_PER_POINT;
    let indent = p.indent as f64 / EMU_PER_POINT;
    for (i, line) in lines.iter_mut().enumerate() {
        // The first line starts at the indent (a hanging bullet fills the space up to the
        // margin); the lines after a break start at the margin.
        let start = match (i, &p.bullet) {
            (0, Some(_)) if indent < 0.0 => margin,
            (0, Some(_)) => margin + indent + bullet_width,
            (0, None) => margin + indent,
            _ => margin,
        };
        let mut x = start;
        let mut previous = start;
        // Only the segments up to the last tab laid out are measured.
        let widths: Vec<f64> = line
            .segments
            .iter()
            .take(MAX_LINE_TABS + 1)
            .map(|s| segment_width(p, s, fonts))
            .collect();
        x += widths[0];
        for (w, segment) in widths
            .iter()
            .zip(&line.segments)
            .skip(1)
            .take(MAX_LINE_TABS)
        {
            let (align, stop) = stops.next(x);
            line.stops.push((align, (stop - previous).max(0.0)));
            x = match align {
                TabAlign::Left => stop + w,
                // The text after a right or decimal stop ends at it (a decimal's fraction
                // runs on past it); a centred one ends half its width past.
                TabAlign::Right => stop,
                TabAlign::Decimal => stop + decimal_tail(p, segment, fonts),
                TabAlign::Center => stop + w / 2.0,
            };
            previous = stop;
        }
    }
    lines
}

/// The stops of a paragraph, in points from the text origin.
struct Stops {
    custom: Vec<(f64, TabAlign)>,
    default: f64,
}

impl Stops {
    fn of(p: &Paragraph) -> Stops {
        let mut custom: Vec<(f64, TabAlign)> = p
            .tabs
            .iter()
            .map(|t| (t.pos as f64 / EMU_PER_POINT, t.align))
            .collect();
        if p.indent < 0
            && !custom
                .iter()
                .any(|&(x, _)| (x * EMU_PER_POINT) as i64 == p.margin_left)
        {
            custom.push((p.margin_left as f64 / EMU_PER_POINT, TabAlign::Left));
            custom.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Stops {
            custom,
            default: (p.default_tab as f64 / EMU_PER_POINT).max(1.0),
        }
    }

    /// The first stop past `x`: a custom one, else the next default one past both `x` and
    /// the last custom stop.
    fn next(&self, x: f64) -> (TabAlign, f64) {
        // Half a point of tolerance: text ending right at a stop goes on to the next one.
        if let Some(&(pos, align)) = self.custom.iter().find(|&&(pos, _)| pos > x + 0.5) {
            return (align, pos);
        }
        let from = self.custom.last().map_or(x, |&(pos, _)| pos.max(x));
        let n = ((from + 0.5) / self.default).floor() + 1.0;
        (TabAlign::Left, n * self.default)
    }
}

/// Splits the runs into lines (at line breaks) and segments (at tabs).
fn split(p: &Paragraph) -> Vec<TabLine> {
    let mut lines = vec![TabLine {
        segments: vec![Vec::new()],
        ..TabLine::default()
    }];
    for (i, r) in p.runs.iter().enumerate() {
        let line = lines.last_mut().expect("one line at least");
        if r.kind == RunKind::Break {
            line.broken = true;
            lines.push(TabLine {
                segments: vec![Vec::new()],
                ..TabLine::default()
            });
            continue;
        }
        let mut from = 0;
        for (at, _) in r.text.match_indices('\t') {
            if at > from {
                line.segments
                    .last_mut()
                    .expect("one segment at least")
                    .push(Piece {
                        run: i,
                        text: from..at,
                    });
            }
            line.segments.push(Vec::new());
            from = at + 1;
        }
        if from < r.text.len() {
            line.segments
                .last_mut()
                .expect("one segment at least")
                .push(Piece {
                    run: i,
                    text: from..r.text.len(),
                });
        }
    }
    lines
}

/// The width in points of a piece of text of run `r`.
fn text_width(r: &Run, text: &str, fonts: &FontPlan) -> f64 {
    let shown;
    let text = if r.caps.as_deref() == Some("all") {
        shown = text.to_uppercase();
        shown.as_str()
    } else {
        text
    };
    let size = if r.baseline != 0.0 {
        r.size * 2.0 / 3.0
    } else {
        r.size
    };
    let chars = text.chars().count() as f64;
    let em = fonts
        .text_width_em(r.font.as_deref(), r.bold, text)
        .unwrap_or(chars * FALLBACK_EM);
    em * size + chars * r.spacing
}

fn segment_width(p: &Paragraph, segment: &[Piece], fonts: &FontPlan) -> f64 {
    segment
        .iter()
        .map(|piece| {
            let r = &p.runs[piece.run];
            text_width(r, &r.text[piece.text.clone()], fonts)
        })
        .sum()
}

/// The width of a segment from its decimal point on (all of it when it has none: the
/// text then ends at the stop as at a right one).
fn decimal_tail(p: &Paragraph, segment: &[Piece], fonts: &FontPlan) -> f64 {
    match split_decimal(p, segment) {
        Some((_, tail)) => segment_width(p, &tail, fonts),
        None => 0.0,
    }
}

/// A segment split before its first decimal point (`.`): the part that ends at a decimal
/// stop and the part that runs on past it; `None` when it has no point.
pub(super) fn split_decimal(p: &Paragraph, segment: &[Piece]) -> Option<(Vec<Piece>, Vec<Piece>)> {
    let (k, at) = segment.iter().enumerate().find_map(|(k, piece)| {
        p.runs[piece.run].text[piece.text.clone()]
            .find('.')
            .map(|at| (k, piece.text.start + at))
    })?;
    let mut head: Vec<Piece> = segment[..k].to_vec();
    let mut tail: Vec<Piece> = Vec::new();
    let piece = &segment[k];
    if at > piece.text.start {
        head.push(Piece {
            run: piece.run,
            text: piece.text.start..at,
        });
    }
    tail.push(Piece {
        run: piece.run,
        text: at..piece.text.end,
    });
    tail.extend_from_slice(&segment[k + 1..]);
    Some((head, tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::pptx::model::{Color, Spacing, TabStop, DEFAULT_TAB};

    fn run(text: &str) -> Run {
        Run {
            kind: RunKind::Text,
            text: text.to_owned(),
            size: 20.0,
            bold: false,
            italic: false,
            underline: None,
            strike: None,
            color: Color::rgb(0),
            highlight: None,
            shadow: None,
            font: None,
            baseline: 0.0,
            caps: None,
            spacing: 0.0,
            link: None,
        }
    }

    fn para(runs: Vec<Run>, tabs: &[(f64, TabAlign)]) -> Paragraph {
        Paragraph {
            level: 0,
            align: Default::default(),
            margin_left: 0,
            margin_right: 0,
            indent: 0,
            space_before: Spacing::Points(0.0),
            space_after: Spacing::Points(0.0),
            line_spacing: Spacing::Percent(100.0),
            rtl: false,
            bullet: None,
            runs,
            end_size: 20.0,
            tabs: tabs
                .iter()
                .map(|&(pt, align)| TabStop {
                    pos: (pt * EMU_PER_POINT) as i64,
                    align,
                })
                .collect(),
            default_tab: DEFAULT_TAB,
        }
    }

    /// With no machine fonts every character is 0.5 em: 10 pt at 20 pt.
    fn plan(p: &Paragraph) -> Vec<TabLine> {
        lines(p, &FontPlan::default(), 0.0)
    }

    #[test]
    fn a_tab_reaches_the_first_custom_stop_past_its_text() {
        // "ab" is 20 pt wide: the stop at 15 pt is behind it, the one at 50 pt is next.
        let p = para(
            vec![run("ab\tc")],
            &[(15.0, TabAlign::Left), (50.0, TabAlign::Left)],
        );
        let l = plan(&p);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].stops, vec![(TabAlign::Left, 50.0)]);
        assert_eq!(l[0].segments.len(), 2);
        assert_eq!(l[0].segments[1], vec![Piece { run: 0, text: 3..4 }]);
    }

    #[test]
    fn past_the_custom_stops_tabs_go_to_default_stops() {
        // Default stops every 72 pt; after the last custom stop (50) the next is 72, and
        // text reaching 80 pt goes on to 144.
        let p = para(vec![run("a\tb\tcccccc\t")], &[(50.0, TabAlign::Left)]);
        let l = plan(&p);
        // a: 10 pt -> 50; b ends at 60 -> 72; cccccc ends at 132 -> 144.
        assert_eq!(
            l[0].stops,
            vec![
                (TabAlign::Left, 50.0),
                (TabAlign::Left, 22.0),
                (TabAlign::Left, 72.0)
            ]
        );
    }

    #[test]
    fn stops_count_from_the_text_origin_not_the_margin() {
        let mut p = para(vec![run("a\tb")], &[(100.0, TabAlign::Left)]);
        p.margin_left = (40.0 * EMU_PER_POINT) as i64;
        // The line starts at 40 pt, so its box is 60 pt wide, not 100.
        assert_eq!(plan(&p)[0].stops, vec![(TabAlign::Left, 60.0)]);
    }

    #[test]
    fn a_hanging_indent_makes_a_stop_at_the_margin() {
        let mut p = para(vec![run("1.\tText")], &[]);
        p.margin_left = (36.0 * EMU_PER_POINT) as i64;
        p.indent = -(36.0 * EMU_PER_POINT) as i64;
        assert_eq!(plan(&p)[0].stops, vec![(TabAlign::Left, 36.0)]);
    }

    #[test]
    fn a_right_stop_leaves_the_position_at_the_stop() {
        let p = para(
            vec![run("a\tbbbb\tc")],
            &[(100.0, TabAlign::Right), (120.0, TabAlign::Left)],
        );
        assert_eq!(
            plan(&p)[0].stops,
            vec![(TabAlign::Right, 100.0), (TabAlign::Left, 20.0)]
        );
    }

    #[test]
    fn breaks_start_lines_and_tabs_split_runs() {
        let mut br = run("");
        br.kind = RunKind::Break;
        let p = para(vec![run("x\ty"), br, run("\tz")], &[]);
        let l = plan(&p);
        assert_eq!(l.len(), 2);
        assert!(l[0].broken && !l[1].broken);
        assert_eq!(l[1].segments[0], vec![]);
        assert_eq!(l[1].stops, vec![(TabAlign::Left, 72.0)]);
    }

    #[test]
    fn a_decimal_segment_splits_at_its_point() {
        let euros = ".50 €";
        let p = para(vec![run("12"), run(euros)], &[]);
        let seg = vec![
            Piece { run: 0, text: 0..2 },
            Piece {
                run: 1,
                text: 0..euros.len(),
            },
        ];
        let (head, tail) = split_decimal(&p, &seg).expect("has a point");
        assert_eq!(head, vec![Piece { run: 0, text: 0..2 }]);
        assert_eq!(tail, seg[1..].to_vec());
        assert!(split_decimal(&p, &seg[..1]).is_none());
        // A point inside a run splits the run.
        let p = para(vec![run("3.25")], &[]);
        let seg = vec![Piece { run: 0, text: 0..4 }];
        let (head, tail) = split_decimal(&p, &seg).expect("has a point");
        assert_eq!(head, vec![Piece { run: 0, text: 0..1 }]);
        assert_eq!(tail, vec![Piece { run: 0, text: 1..4 }]);
    }
}
