//! Surface charts drawn as their 2-D equivalent, the contour chart: the values of a grid
//! (series × categories) seen from above, each value band in its own colour.
//!
//! The grid's cells are split into two triangles, inside which a value varies linearly
//! between the corners; each triangle is clipped to each band (`lo ≤ v ≤ hi`), which
//! leaves convex polygons whose edges meet exactly along the band boundaries. This is
//! the linear interpolation Office's wireframe draws between the points; its filled
//! bands follow the same lines.

use std::fmt::Write as _;

use super::model::{Chart, Color, Plot};
use super::parse::{format_number, MAX_BANDS};
use super::render::{category_names, n, Rect, Svg};
use super::scale::Scale;

/// A point in grid coordinates: `x` the category index, `y` the series index.
pub(super) type GridPoint = (f64, f64);

/// Most cells filled: a surface of a few thousand points is drawn, larger ones are cut
/// to their first rows and columns (the caller says so in the model).
pub(super) const MAX_CELLS: usize = 4096;

/// The polygons of each band: `bounds` are the band edges in increasing order (`n + 1`
/// values for `n` bands), `rows[j][i]` the value of series `j` at category `i`. A cell
/// with a missing corner is left empty; values outside the bounds count as the nearest
/// bound (they fall in the first or last band).
pub(super) fn band_polygons(rows: &[Vec<Option<f64>>], bounds: &[f64]) -> Vec<Vec<Vec<GridPoint>>> {
    let bands = bounds.len().saturating_sub(1);
    let mut out: Vec<Vec<Vec<GridPoint>>> = vec![Vec::new(); bands];
    if bands == 0 {
        return out;
    }
    let (lo, hi) = (bounds[0], bounds[bands]);
    let at = |j: usize, i: usize| -> Option<f64> {
        rows.get(j)
            .and_then(|r| r.get(i).copied().flatten())
            .filter(|v| v.is_finite())
            .map(|v| v.clamp(lo, hi))
    };
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut cells = 0;
    for j in 0..rows.len().saturating_sub(1) {
        for i in 0..width.saturating_sub(1) {
            cells += 1;
            if cells > MAX_CELLS {
                return out;
            }
            let (Some(a), Some(b), Some(c), Some(d)) =
                (at(j, i), at(j, i + 1), at(j + 1, i + 1), at(j + 1, i))
            else {
                continue;
            };
            let (x, y) = (i as f64, j as f64);
            let corners = [
                (x, y, a),
                (x + 1.0, y, b),
                (x + 1.0, y + 1.0, c),
                (x, y + 1.0, d),
            ];
            for tri in [
                [corners[0], corners[1], corners[2]],
                [corners[0], corners[2], corners[3]],
            ] {
                for (k, band) in out.iter_mut().enumerate() {
                    let poly = clip(&tri, bounds[k], true);
                    let poly = clip(&poly, bounds[k + 1], false);
                    if poly.len() >= 3 {
                        band.push(poly.iter().map(|&(x, y, _)| (x, y)).collect());
                    }
                }
            }
        }
    }
    out
}

/// The part of a polygon (corners with their values) where the value is at least
/// `t` (`above`) or at most `t`, the value linear along each edge.
fn clip(poly: &[(f64, f64, f64)], t: f64, above: bool) -> Vec<(f64, f64, f64)> {
    let inside = |v: f64| if above { v >= t } else { v <= t };
    let mut out = Vec::with_capacity(poly.len() + 2);
    for (k, &a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        if inside(a.2) {
            out.push(a);
        }
        if inside(a.2) != inside(b.2) {
            let f = (t - a.2) / (b.2 - a.2);
            out.push((a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, t));
        }
    }
    out
}

/// The band edges of a surface: its value axis's scale over its values, the major unit
/// widened until there are at most [`MAX_BANDS`] bands; `None` without values.
pub(super) fn band_bounds(chart: &Chart, p: &Plot) -> Option<Vec<f64>> {
    let values = p.series.iter().flat_map(|s| s.values.iter().flatten());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(*v), hi.max(*v))
    });
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    let axis = p.axis_ids.get(1).and_then(|id| chart.axis(*id));
    let mut step = axis.and_then(|a| a.major_unit);
    for _ in 0..8 {
        let scale = Scale::auto(
            lo,
            hi,
            axis.and_then(|a| a.min),
            axis.and_then(|a| a.max),
            step,
            8.0,
            false,
        );
        let ticks = scale.ticks();
        if ticks.len() >= 2 && ticks.len() <= MAX_BANDS + 1 {
            return Some(ticks);
        }
        step = Some(scale.step * 2.0);
    }
    None
}

/// The legend entries of a surface: each band's range (`0-0.5`, in the value axis's
/// number format) and colour, lowest first.
pub(super) fn legend_entries(chart: &Chart, p: &Plot) -> Vec<(String, Color)> {
    let Some(bounds) = band_bounds(chart, p) else {
        return Vec::new();
    };
    let format = p
        .axis_ids
        .get(1)
        .and_then(|id| chart.axis(*id))
        .and_then(|a| a.format_code.clone())
        .or_else(|| p.series.first().and_then(|s| s.format_code.clone()));
    bounds
        .windows(2)
        .enumerate()
        .map(|(k, w)| {
            let label = format!(
                "{}-{}",
                format_number(w[0], format.as_deref()),
                format_number(w[1], format.as_deref())
            );
            (label, band_color(p, k))
        })
        .collect()
}

fn band_color(p: &Plot, k: usize) -> Color {
    p.band_colors
        .get(k)
        .copied()
        .unwrap_or(Color::rgb(0x4472C4))
}

/// Draws a surface plot as a contour chart in `b`: the bands over the grid of
/// categories (left to right) and series (first at the bottom), the category names
/// under it and the series names beside it.
pub(super) fn draw(svg: &mut Svg, chart: &Chart, p: &Plot, b: Rect) {
    let Some(bounds) = band_bounds(chart, p) else {
        return;
    };
    let mut rows: Vec<Vec<Option<f64>>> = p.series.iter().map(|s| s.values.clone()).collect();
    let mut cats = rows.iter().map(Vec::len).max().unwrap_or(0);
    if rows.is_empty() || cats == 0 {
        return;
    }
    // One series or one category is a strip: the grid repeats it, so it has an area.
    if rows.len() == 1 {
        rows.push(rows[0].clone());
    }
    if cats == 1 {
        rows.iter_mut()
            .for_each(|r| r.push(r.first().copied().flatten()));
        cats = 2;
    }
    let cat_axis = p.axis_ids.first().and_then(|id| chart.axis(*id));
    let ser_axis = p.axis_ids.get(2).and_then(|id| chart.axis(*id));
    let cs = cat_axis.map_or(chart.text, |a| a.text);
    let ss = ser_axis.map_or(chart.text, |a| a.text);
    let cat_labels = cat_axis.is_none_or(|a| !a.deleted && a.labels);
    let ser_labels = ser_axis.is_none_or(|a| !a.deleted && a.labels);
    let names: Vec<String> = p
        .series
        .iter()
        .enumerate()
        .map(|(j, s)| s.name.clone().unwrap_or_else(|| format!("Series{}", j + 1)))
        .collect();
    let left = if ser_labels {
        names
            .iter()
            .map(|t| svg.wide.of(t, ss.size))
            .fold(0.0, f64::max)
            .min(b.w * 0.3)
            + ss.size * 0.6
    } else {
        0.0
    };
    let bottom = if cat_labels { cs.size * 1.8 } else { 0.0 };
    let cat_names = category_names(p, cats);
    // The first and last categories sit on the plot's edges: room for half their labels.
    let half = |i: usize| {
        if cat_labels {
            svg.wide.of(&cat_names[i], cs.size) / 2.0
        } else {
            0.0
        }
    };
    let left = left.max(half(0));
    let right = half(cats - 1).min(b.w * 0.25);
    let plot = Rect {
        x: b.x + left,
        y: b.y + ss.size * 0.5,
        w: (b.w - left - right).max(1.0),
        h: (b.h - bottom - ss.size * 0.5).max(1.0),
    };
    let (gw, gh) = ((cats - 1) as f64, (rows.len() - 1) as f64);
    let at = |(x, y): GridPoint| (plot.x + x / gw * plot.w, plot.y + plot.h - y / gh * plot.h);
    for (k, polys) in band_polygons(&rows, &bounds).iter().enumerate() {
        if polys.is_empty() {
            continue;
        }
        let mut d = String::new();
        for poly in polys {
            for (i, &pt) in poly.iter().enumerate() {
                let (x, y) = at(pt);
                let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, n(x), n(y));
            }
            d.push('Z');
        }
        // A hairline of the band's own colour closes the seams antialiasing leaves
        // between the polygons of one band.
        let c = band_color(p, k).hex();
        let _ = write!(
            svg.out,
            "<path class=\"band\" d=\"{d}\" fill=\"{c}\" stroke=\"{c}\" stroke-width=\"0.3\" stroke-linejoin=\"round\"/>"
        );
    }
    svg.rect(
        plot.x,
        plot.y,
        plot.w,
        plot.h,
        None,
        Some(Color::rgb(0xD9D9D9)),
    );
    if cat_labels {
        for (i, label) in cat_names.iter().enumerate() {
            let (x, _) = at((i as f64, 0.0));
            svg.text(
                x,
                plot.y + plot.h + cs.size * 1.3,
                &cs,
                "middle",
                None,
                label,
            );
        }
    }
    if ser_labels && p.series.len() > 1 {
        for (j, name) in names.iter().enumerate() {
            let (_, y) = at((0.0, j as f64));
            svg.text(
                plot.x - ss.size * 0.4,
                y + ss.size * 0.35,
                &ss,
                "end",
                None,
                name,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twice the signed area of a polygon.
    fn area2(poly: &[GridPoint]) -> f64 {
        (0..poly.len())
            .map(|k| {
                let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum()
    }

    fn total(polys: &[Vec<GridPoint>]) -> f64 {
        polys.iter().map(|p| area2(p).abs() / 2.0).sum()
    }

    #[test]
    fn the_bands_tile_the_grid() {
        // A 3 × 2 grid rising from 0 to 4 left to right.
        let rows = vec![
            vec![Some(0.0), Some(2.0), Some(4.0)],
            vec![Some(0.0), Some(2.0), Some(4.0)],
        ];
        let bands = band_polygons(&rows, &[0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(bands.len(), 4);
        // Each band is a vertical strip half a category wide, one series tall.
        for b in &bands {
            assert!((total(b) - 0.5).abs() < 1e-9, "{}", total(b));
        }
        // The first band lies left of x = 0.5.
        assert!(bands[0].iter().flatten().all(|p| p.0 <= 0.5 + 1e-9));
        // Together they cover the whole 2 × 1 grid.
        let all: f64 = bands.iter().map(|b| total(b)).sum();
        assert!((all - 2.0).abs() < 1e-9);
    }

    #[test]
    fn values_past_the_bounds_fall_in_the_outer_bands_and_gaps_stay_empty() {
        let rows = vec![vec![Some(-5.0), Some(9.0)], vec![Some(-5.0), None]];
        let bands = band_polygons(&rows, &[0.0, 1.0]);
        // The cell has a missing corner: nothing is drawn.
        assert!(bands[0].is_empty());
        let rows = vec![vec![Some(-5.0), Some(-5.0)], vec![Some(9.0), Some(9.0)]];
        let bands = band_polygons(&rows, &[0.0, 1.0]);
        assert!((total(&bands[0]) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn degenerate_input_draws_nothing() {
        assert!(band_polygons(&[], &[0.0, 1.0])[0].is_empty());
        assert!(band_polygons(&[vec![Some(1.0)]], &[0.0, 1.0])[0].is_empty());
        assert!(band_polygons(&vec![vec![Some(1.0); 3]; 3], &[0.0]).is_empty());
        let nan = vec![vec![Some(f64::NAN); 2]; 2];
        assert!(band_polygons(&nan, &[0.0, 1.0])[0].is_empty());
    }
}
