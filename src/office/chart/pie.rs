//! Pies and doughnuts: the slices and their data labels.
//!
//! Labels follow PowerPoint's placement (`c:dLblPos`): `ctr` in the middle of the slice,
//! `inEnd` inside against the rim, `outEnd` outside beside the slice's middle, and
//! `bestFit` (Office's default for pies) inside when the text fits the slice and does
//! not run into its neighbour's label, else outside. A doughnut's labels sit on the
//! middle of the ring. When labels go outside the pie shrinks so that they stay in the
//! plot area (unless the author fixed the plot's inner size); outside labels that would
//! overlap are pushed apart along their side of the pie, and a label that ends up away
//! from its slice (pushed, or dragged by the author with a `c:dLbl` offset) is tied to
//! it by a leader line when the labels ask for them (`c:showLeaderLines`). A label
//! breaks into lines where its separator holds a line break.

use std::f64::consts::PI;
use std::fmt::Write as _;

use super::model::{Chart, Color, DataLabels, Plot, PlotKind, TextStyle};
use super::render::{label_text, n, point_color, point_label, slice_sweeps};
use super::render::{Rect, Svg, LABEL_LINE as LINE, MAX_LABEL_LINES as MAX_LINES};

/// One slice: its point, its angles (radians, clockwise from 3 o'clock, as SVG turns)
/// and the centre it is drawn around (moved out when exploded).
struct Slice {
    point: usize,
    a0: f64,
    a1: f64,
    origin: (f64, f64),
}

impl Slice {
    fn mid(&self) -> f64 {
        (self.a0 + self.a1) / 2.0
    }

    fn sweep(&self) -> f64 {
        self.a1 - self.a0
    }
}

/// A slice's label text: its settings, where its author dragged it, its lines and the
/// size of their box.
struct Text<'c> {
    labels: &'c DataLabels,
    offset: Option<(f64, f64)>,
    lines: Vec<String>,
    w: f64,
    h: f64,
}

/// A label being placed: its lines, box size and centre.
#[derive(Debug, Clone)]
pub(super) struct Label {
    pub(super) lines: Vec<String>,
    pub(super) w: f64,
    pub(super) h: f64,
    pub(super) x: f64,
    pub(super) y: f64,
    /// It sits outside the pie.
    pub(super) outside: bool,
    /// Its author dragged it: collisions do not move it.
    pub(super) fixed: bool,
}

impl Label {
    fn overlaps(&self, o: &Label) -> bool {
        (self.x - o.x).abs() < (self.w + o.w) / 2.0 && (self.y - o.y).abs() < (self.h + o.h) / 2.0
    }

    /// The point of the label's box nearest to `(px, py)`.
    fn nearest(&self, px: f64, py: f64) -> (f64, f64) {
        (
            px.clamp(self.x - self.w / 2.0, self.x + self.w / 2.0),
            py.clamp(self.y - self.h / 2.0, self.y + self.h / 2.0),
        )
    }
}

/// Where a label is put.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// Centred at this fraction of the radius.
    At(f64),
    /// Inside against the rim.
    InEnd,
    /// Outside beside the slice's middle.
    OutEnd,
}

/// The place a label position asks for; `None` for `bestFit` (and no position).
fn asked(position: Option<&str>, doughnut: bool, hole: f64) -> Option<Place> {
    if doughnut {
        // A doughnut's labels have no position: the middle of the ring.
        return Some(Place::At((1.0 + hole) / 2.0));
    }
    match position {
        Some("ctr") => Some(Place::At(0.5)),
        Some("inEnd") => Some(Place::InEnd),
        Some("outEnd") => Some(Place::OutEnd),
        _ => None,
    }
}

/// The label's centre when put at `place` in `slice` of radius `r`; `gap` is the room
/// between the rim and an outside label.
fn centre(place: Place, slice: &Slice, r: f64, gap: f64, w: f64, h: f64) -> (f64, f64) {
    let (c, s) = (slice.mid().cos(), slice.mid().sin());
    let (ox, oy) = slice.origin;
    // How far the box reaches along the slice's middle from its centre.
    let reach = c.abs() * w / 2.0 + s.abs() * h / 2.0;
    let d = match place {
        Place::At(f) => r * f,
        Place::InEnd => (r - gap - reach).max(r * 0.3),
        Place::OutEnd => r + gap + reach,
    };
    (ox + d * c, oy + d * s)
}

/// Whether a box centred at `(x, y)` lies inside the slice (between its rim, its hole and
/// its two edges).
fn fits(slice: &Slice, r: f64, hole: f64, x: f64, y: f64, w: f64, h: f64) -> bool {
    let (ox, oy) = slice.origin;
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .all(|(sx, sy)| {
            let (dx, dy) = (x + sx * w / 2.0 - ox, y + sy * h / 2.0 - oy);
            let d = dx.hypot(dy);
            if d > r || d < r * hole {
                return false;
            }
            if slice.sweep() >= PI * 1.999 {
                return true;
            }
            // The corner's angle from the slice's middle, within half its sweep.
            let off = (dy.atan2(dx) - slice.mid() + PI).rem_euclid(2.0 * PI) - PI;
            off.abs() <= slice.sweep() / 2.0
        })
}

/// Draws a pie or doughnut of the plot's first series with values in `b`.
pub(super) fn draw(svg: &mut Svg, chart: &Chart, p: &Plot, b: Rect, inner: bool) {
    let Some(s) = p
        .series
        .iter()
        .find(|s| s.values.iter().any(Option::is_some))
    else {
        return;
    };
    let sweeps = slice_sweeps(&s.values);
    let total: f64 = s.values.iter().flatten().map(|v| v.abs()).sum();
    if sweeps.is_empty() {
        return;
    }
    let explosion = |i: usize| {
        s.points
            .binary_search_by_key(&i, |p| p.index)
            .map_or(s.explosion, |k| s.points[k].explosion)
            / 100.0
    };
    let explode = s
        .points
        .iter()
        .map(|p| p.explosion)
        .fold(s.explosion, f64::max)
        / 100.0;
    let doughnut = p.kind == PlotKind::Doughnut;
    let hole = if doughnut { p.hole_size / 100.0 } else { 0.0 };
    let (cx, cy) = (b.x + b.w / 2.0, b.y + b.h / 2.0);
    // The pie fills the plot area's smaller side (LibreOffice draws PowerPoint's automatic
    // pies so: `009_table`'s four and `019`'s measured within a pixel or two); outside
    // labels shrink it below.
    let full = (b.w.min(b.h) / 2.0 / (1.0 + explode)).max(1.0);
    let slices_at = |r: f64| -> Vec<Slice> {
        let mut angle = p.first_slice_angle;
        sweeps
            .iter()
            .map(|&(i, sweep)| {
                let a0 = (angle - 90.0).to_radians();
                angle += sweep;
                let a1 = (angle - 90.0).to_radians();
                let mid = (a0 + a1) / 2.0;
                let ex = r * explosion(i);
                Slice {
                    point: i,
                    a0,
                    a1,
                    origin: (cx + ex * mid.cos(), cy + ex * mid.sin()),
                }
            })
            .collect()
    };
    // The labels' text and size, by slice.
    let texts: Vec<_> = sweeps
        .iter()
        .map(|&(i, _)| {
            let (l, offset) = point_label(p, s, i)?;
            let v = s.values[i].unwrap_or(0.0).abs();
            let cat = s.categories.get(i).map(String::as_str);
            let text = label_text(l, s, i, v, Some(v / total), cat);
            let lines: Vec<String> = text
                .split('\n')
                .map(|t| t.trim_end_matches('\r').to_owned())
                .take(MAX_LINES)
                .collect();
            let size = l.text.size;
            // A boxed label takes its insets' room too.
            let (ix, iy) = if l.frame.is_empty() {
                (0.0, 0.0)
            } else {
                l.frame.inset
            };
            let w = lines
                .iter()
                .map(|t| svg.wide.of(t, size))
                .fold(0.0, f64::max)
                + 2.0 * ix;
            let h = lines_height(size, lines.len()) + 2.0 * iy;
            Some(Text {
                labels: l,
                offset,
                lines,
                w,
                h,
            })
        })
        .collect();
    // Labels outside the pie shrink it so that they stay in the plot area.
    let mut r = full;
    if !inner {
        let slices = slices_at(r);
        let mut placed = Vec::new();
        for (slice, t) in slices.iter().zip(&texts) {
            let Some(t) = t.as_ref().filter(|t| t.offset.is_none()) else {
                continue;
            };
            let label = place(slice, r, hole, doughnut, t, &placed);
            if label.outside {
                let (w, h) = (t.w, t.h);
                let gap = gap(&t.labels.text);
                let (c, sn) = (slice.mid().cos().abs(), slice.mid().sin().abs());
                // The box reaches |cos|·(r + gap + reach) + w/2 from the centre across.
                let reach = c * w / 2.0 + sn * h / 2.0;
                if c > 0.05 {
                    r = r.min((b.w / 2.0 - w / 2.0) / c - gap - reach);
                }
                if sn > 0.05 {
                    r = r.min((b.h / 2.0 - h / 2.0) / sn - gap - reach);
                }
            }
            placed.push(label);
        }
        r = r.clamp(full * 0.5, full);
    }
    let slices = slices_at(r);
    // Slices.
    for slice in &slices {
        let color = point_color(s, slice.point, p.vary_colors || doughnut, chart);
        draw_slice(svg, slice, r, hole, color);
    }
    // Labels: each in its place, then the outside ones pushed apart.
    let mut owners: Vec<usize> = Vec::new();
    let mut labels: Vec<Label> = Vec::new();
    for (k, (slice, t)) in slices.iter().zip(&texts).enumerate() {
        let Some(t) = t else {
            continue;
        };
        let mut label = place(slice, r, hole, doughnut, t, &labels);
        if t.offset.is_some() {
            let (dx, dy) = svg.dragged(t.offset);
            label.x += dx;
            label.y += dy;
            label.fixed = true;
            let (ox, oy) = slice.origin;
            label.outside = (label.x - ox).hypot(label.y - oy) > r;
        }
        owners.push(k);
        labels.push(label);
    }
    let before: Vec<(f64, f64)> = labels.iter().map(|l| (l.x, l.y)).collect();
    spread(&mut labels, (cx, cy), r, svg.frame);
    for ((&k, label), (bx, by)) in owners.iter().zip(&labels).zip(before) {
        let Some(Text {
            labels: l, offset, ..
        }) = &texts[k]
        else {
            continue;
        };
        let moved = offset.is_some() || (label.x - bx).hypot(label.y - by) > 0.5;
        if l.leader_lines && label.outside && moved {
            leader(svg, &slices[k], r, label, l.text.size, l.leader_color);
        }
        svg.label_frame(label.x, label.y, label.w, label.h, &l.frame);
        draw_label(svg, label, &l.text);
    }
}

/// The room between a pie's rim and an outside label.
fn gap(style: &TextStyle) -> f64 {
    style.size * 0.4
}

/// The height of `lines` lines of text at `size` points.
fn lines_height(size: f64, lines: usize) -> f64 {
    size * LINE * lines.max(1) as f64
}

/// Puts a label at its asked place, or (best fit) inside when it fits its slice and
/// misses the labels already `placed`, else outside.
fn place(
    slice: &Slice,
    r: f64,
    hole: f64,
    doughnut: bool,
    t: &Text<'_>,
    placed: &[Label],
) -> Label {
    let gap = gap(&t.labels.text);
    let (w, h) = (t.w, t.h);
    let make = |at: Place| {
        let (x, y) = centre(at, slice, r, gap, w, h);
        Label {
            lines: t.lines.clone(),
            w,
            h,
            x,
            y,
            outside: at == Place::OutEnd,
            fixed: false,
        }
    };
    if let Some(at) = asked(t.labels.position.as_deref(), doughnut, hole) {
        return make(at);
    }
    let inside = make(Place::At(0.65));
    if fits(slice, r, hole, inside.x, inside.y, w, h) && !placed.iter().any(|o| o.overlaps(&inside))
    {
        inside
    } else {
        make(Place::OutEnd)
    }
}

/// Pushes overlapping outside labels apart: on each side of the pie, top down, each
/// label below the one above it, then (if the last left the frame) bottom up; a moved
/// label keeps its distance from the rim at its new height.
fn spread(labels: &mut [Label], (cx, cy): (f64, f64), r: f64, (fw, fh): (f64, f64)) {
    for right in [true, false] {
        let mut side: Vec<usize> = (0..labels.len())
            .filter(|&k| labels[k].outside && !labels[k].fixed && (labels[k].x >= cx) == right)
            .collect();
        side.sort_by(|&a, &b| labels[a].y.total_cmp(&labels[b].y));
        let mut changed = false;
        for w in 1..side.len() {
            let (a, b) = (&labels[side[w - 1]], &labels[side[w]]);
            let low = a.y + (a.h + b.h) / 2.0;
            if labels[side[w]].y < low {
                labels[side[w]].y = low;
                changed = true;
            }
        }
        if let Some(&last) = side.last() {
            let over = labels[last].y + labels[last].h / 2.0 - fh;
            if over > 0.0 {
                labels[last].y -= over;
                for w in (0..side.len().saturating_sub(1)).rev() {
                    let (a, b) = (&labels[side[w]], &labels[side[w + 1]]);
                    let high = b.y - (a.h + b.h) / 2.0;
                    if labels[side[w]].y > high {
                        labels[side[w]].y = high;
                    }
                }
                changed = true;
            }
        }
        if !changed {
            continue;
        }
        // Each moved label hugs the pie again at its new height.
        for &k in &side {
            let l = &mut labels[k];
            let dy = if l.y - l.h / 2.0 > cy {
                l.y - l.h / 2.0 - cy
            } else if l.y + l.h / 2.0 < cy {
                cy - l.y - l.h / 2.0
            } else {
                0.0
            };
            let reach = (r * 1.05).powi(2) - dy * dy;
            let across = if reach > 0.0 { reach.sqrt() } else { 0.0 };
            let x = if right {
                cx + across + l.w / 2.0
            } else {
                cx - across - l.w / 2.0
            };
            l.x = x.clamp(l.w / 2.0, (fw - l.w / 2.0).max(l.w / 2.0));
        }
    }
}

/// A leader line from the slice's rim to the nearest point of its label, when the label
/// is clear of the rim.
fn leader(svg: &mut Svg, slice: &Slice, r: f64, label: &Label, size: f64, color: Color) {
    let (ox, oy) = slice.origin;
    let (c, s) = (slice.mid().cos(), slice.mid().sin());
    let (ex, ey) = (ox + r * c, oy + r * s);
    let (nx, ny) = label.nearest(ex, ey);
    // A label that still touches its slice needs no line.
    if (nx - ex).hypot(ny - ey) < size * 0.6 || (nx - ox).hypot(ny - oy) <= r {
        return;
    }
    svg.line(
        &format!("M{} {}L{} {}", n(ex), n(ey), n(nx), n(ny)),
        color,
        0.75,
    );
}

/// A label's lines, centred in its box.
fn draw_label(svg: &mut Svg, label: &Label, style: &TextStyle) {
    let top = label.y - lines_height(style.size, label.lines.len()) / 2.0;
    for (k, line) in label.lines.iter().enumerate() {
        let base = top + style.size * LINE * (k as f64 + 0.5) + style.size * 0.35;
        svg.text(label.x, base, style, "middle", None, line);
    }
}

/// One slice (a ring segment when there is a hole), outlined in white.
fn draw_slice(svg: &mut Svg, slice: &Slice, r: f64, hole: f64, color: Color) {
    let (ox, oy) = slice.origin;
    if slice.sweep() >= 2.0 * PI * 0.99997 {
        // One slice takes the whole turn: a disc, or a ring (two circles, even-odd).
        let circle = |rad: f64| {
            format!(
                "M{} {}a{rad} {rad} 0 1 1 {} 0a{rad} {rad} 0 1 1 {} 0Z",
                n(ox - rad),
                n(oy),
                n(2.0 * rad),
                n(-2.0 * rad),
                rad = n(rad)
            )
        };
        let mut d = circle(r);
        if hole > 0.0 {
            d.push_str(&circle(r * hole));
        }
        let _ = write!(
            svg.out,
            "<path class=\"slice\" d=\"{d}\" fill=\"{}\" fill-rule=\"evenodd\"/>",
            color.hex()
        );
        return;
    }
    let large = i32::from(slice.sweep() > PI);
    let pt = |rad: f64, a: f64| (ox + rad * a.cos(), oy + rad * a.sin());
    let (x0, y0) = pt(r, slice.a0);
    let (x1, y1) = pt(r, slice.a1);
    let d = if hole > 0.0 {
        let (hx1, hy1) = pt(r * hole, slice.a1);
        let (hx0, hy0) = pt(r * hole, slice.a0);
        format!(
            "M{} {}A{r} {r} 0 {large} 1 {} {}L{} {}A{h} {h} 0 {large} 0 {} {}",
            n(x0),
            n(y0),
            n(x1),
            n(y1),
            n(hx1),
            n(hy1),
            n(hx0),
            n(hy0),
            r = n(r),
            h = n(r * hole)
        )
    } else {
        format!(
            "M{} {}L{} {}A{r} {r} 0 {large} 1 {} {}",
            n(ox),
            n(oy),
            n(x0),
            n(y0),
            n(x1),
            n(y1),
            r = n(r)
        )
    };
    let _ = write!(
        svg.out,
        "<path class=\"slice\" d=\"{d}Z\" fill=\"{}\" stroke=\"#FFFFFF\" stroke-width=\"0.75\"/>",
        color.hex()
    );
}
