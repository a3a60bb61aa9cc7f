//! Tab stops for the renderer: which stop each tab of a line goes to.
//!
//! The choice is made on the width of the text before each tab, the way Word chooses: a
//! tab goes to the first stop past the current position. The renderer measures text in
//! the machine face the page draws it in (the font plan's advance widths); where it has
//! no such face it falls back to [`estimate`], a conservative average character width.
//! Custom stops (and the implicit stop a hanging indent makes) are laid out by the
//! renderer with boxes of known widths; once a line's text is past its last custom stop,
//! the rest of its tabs go to default stops, which the browser places itself
//! (`tab-size`), measuring the real text.

use super::model::{TabAlign, TabLeader, TabStop};

/// A conservative average character width, in ems, for choosing stops: underestimating
/// keeps text on the stop its author set rather than skipping one.
const CHAR_WIDTH_EM: f32 = 0.45;

/// Where one tab of a line goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PlacedTab {
    /// Position in points from the paragraph's content edge (its left indent).
    pub x: f32,
    /// Alignment of the text after the tab.
    pub align: TabAlign,
    /// Leader filling the gap.
    pub leader: Option<TabLeader>,
}

/// The stops of a paragraph, relative to its left indent, in order: the custom stops
/// (bar tabs are not stops) and, with a hanging indent, the implicit stop at the indent.
pub(super) fn paragraph_stops(tabs: &[TabStop], indent_left: f32, hanging: bool) -> Vec<PlacedTab> {
    let mut stops: Vec<PlacedTab> = tabs
        .iter()
        .filter(|t| t.align != TabAlign::Bar && t.position.is_finite())
        .map(|t| PlacedTab {
            x: t.position - indent_left,
            align: t.align,
            leader: t.leader,
        })
        .collect();
    if hanging && !stops.iter().any(|s| s.x.abs() < 0.5) {
        stops.push(PlacedTab {
            x: 0.0,
            align: TabAlign::Left,
            leader: None,
        });
    }
    stops.sort_by(|a, b| a.x.total_cmp(&b.x));
    stops
}

/// The custom stops of one line's first tabs. `x0` is where the line starts,
/// `widths[k]` the estimated width of the text between tab `k` and tab `k + 1` (index 0
/// is the text before the first tab). The result covers the first tabs that land on a
/// custom stop; the line's remaining tabs go to default stops.
pub(super) fn place_line(stops: &[PlacedTab], x0: f32, widths: &[f32]) -> Vec<PlacedTab> {
    let mut placed = Vec::new();
    let mut x = x0 + widths.first().copied().unwrap_or(0.0);
    for &w in widths.iter().skip(1) {
        // Text running past a last right-aligned stop (a long table-of-contents entry)
        // still ends there: it wraps before the number, as in Word.
        let last_right = stops.last().filter(|s| {
            s.align == TabAlign::Right && placed.last().is_none_or(|p: &PlacedTab| p.x < s.x)
        });
        let Some(stop) = stops.iter().find(|s| s.x > x + 0.5).or(last_right) else {
            break;
        };
        placed.push(*stop);
        x = match stop.align {
            TabAlign::Left | TabAlign::Bar => stop.x + w,
            TabAlign::Center => stop.x + w / 2.0,
            // The text ends at (or, for decimals, about half of it passes) the stop.
            TabAlign::Right => stop.x,
            TabAlign::Decimal => stop.x + w / 2.0,
        };
    }
    placed
}

/// Estimated width in points of `chars` characters at `size` points.
pub(super) fn estimate(chars: usize, size: f32) -> f32 {
    chars as f32 * size * CHAR_WIDTH_EM
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(x: f32, align: TabAlign) -> PlacedTab {
        PlacedTab {
            x,
            align,
            leader: None,
        }
    }

    #[test]
    fn tabs_take_the_first_stop_past_the_text() {
        let stops = [stop(72.0, TabAlign::Left), stop(144.0, TabAlign::Right)];
        // Short text before the first tab: the first stop.
        assert_eq!(place_line(&stops, 0.0, &[20.0, 10.0]), vec![stops[0]]);
        // Text past the first stop: the tab skips to the next one.
        assert_eq!(place_line(&stops, 0.0, &[90.0, 10.0]), vec![stops[1]]);
        // Past every stop: a last right stop still takes it (the text wraps before it)…
        assert_eq!(place_line(&stops, 0.0, &[200.0, 10.0]), vec![stops[1]]);
        // … other stops leave the tab to default stops (none placed here).
        assert!(place_line(&stops[..1], 0.0, &[200.0, 10.0]).is_empty());
        // After a right stop the position is the stop itself, so no stop is left.
        assert_eq!(
            place_line(&stops, 0.0, &[0.0, 10.0, 30.0, 5.0]),
            vec![stops[0], stops[1]]
        );
    }

    #[test]
    fn stops_are_relative_to_the_indent_and_hanging_adds_one() {
        let tabs = [TabStop {
            position: 100.0,
            align: TabAlign::Bar,
            leader: None,
        }];
        assert!(paragraph_stops(&tabs, 36.0, false).is_empty());
        let tabs = [TabStop {
            position: 100.0,
            align: TabAlign::Right,
            leader: Some(TabLeader::Dot),
        }];
        let stops = paragraph_stops(&tabs, 36.0, true);
        assert_eq!(
            stops.iter().map(|s| s.x).collect::<Vec<_>>(),
            vec![0.0, 64.0]
        );
    }
}
