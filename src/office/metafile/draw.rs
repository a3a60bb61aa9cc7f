//! The drawing operations EMF and WMF share, played against the device context and
//! written as SVG in device units: every shape becomes a `<path>` whose points were
//! mapped through the world transform and the window/viewport mapping, so clips, paths
//! and shapes all live in one coordinate system.

use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::fmt::Write as _;

use super::bitmap::Bitmap;
use super::state::{Brush, Color, Dash, Dc, Object, Xform};
use super::svg::{escape, num, Extent, PathData, Writer};
use super::{MetafileError, MetafileLimits};

/// Where an arc's ends go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArcKind {
    /// An open arc.
    Arc,
    /// An arc continuing from the current position, which moves to its end.
    ArcTo,
    /// Closed by a straight line between its ends.
    Chord,
    /// Closed through the centre.
    Pie,
}

/// The canvas a metafile plays on.
pub struct Canvas {
    /// The current device context.
    pub dc: Dc,
    saved: Vec<Dc>,
    /// The object table.
    pub objects: Vec<Option<Object>>,
    /// The SVG being written.
    pub out: Writer,
    /// The path bracket being recorded (BeginPath … EndPath), then the last path.
    path: Option<PathData>,
    path_open: bool,
    work_left: u64,
    records_left: u32,
    /// Bitmap pixels still allowed.
    pub pixels_left: u64,
    /// The limits of this conversion.
    pub limits: MetafileLimits,
    /// Device pixels per millimetre, for the fixed mapping modes.
    pub px_per_mm: (f64, f64),
    /// WMF plays in logical units: window and viewport do not move the drawing.
    pub logical_device: bool,
    /// The box around everything drawn, for pictures whose header names no frame.
    pub extent: Extent,
}

/// A huge device-space box, the "everything" an excluded rectangle is cut out of.
const EVERYWHERE: f64 = 1.0e7;

impl Canvas {
    /// A canvas with a default device context.
    pub fn new(limits: &MetafileLimits, px_per_mm: (f64, f64)) -> Canvas {
        Canvas {
            dc: Dc::default(),
            saved: Vec::new(),
            objects: Vec::new(),
            out: Writer::new(limits.max_output_bytes),
            path: None,
            path_open: false,
            work_left: limits.work_budget,
            records_left: limits.max_records,
            pixels_left: limits.max_bitmap_pixels,
            limits: *limits,
            px_per_mm,
            logical_device: false,
            extent: Extent::default(),
        }
    }

    /// Counts one record and `work` units against the caps.
    pub fn record(&mut self, work: u64) -> Result<(), MetafileError> {
        if self.records_left == 0 {
            return Err(MetafileError::TooManyRecords(self.limits.max_records));
        }
        self.records_left -= 1;
        self.spend(work.saturating_add(1))
    }

    /// Records played so far.
    pub fn played(&self) -> u32 {
        self.limits.max_records - self.records_left
    }

    /// Counts `work` units against the budget.
    pub fn spend(&mut self, work: u64) -> Result<(), MetafileError> {
        self.work_left = self
            .work_left
            .checked_sub(work)
            .ok_or(MetafileError::OverBudget)?;
        Ok(())
    }

    /// The logical → device transform.
    pub fn xform(&self) -> Xform {
        if self.logical_device {
            // Window-relative logical units, flipped so the window's extent is positive.
            let sign = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
            let (sx, sy) = (sign(self.dc.window_ext.0), sign(self.dc.window_ext.1));
            return Xform {
                a: sx,
                b: 0.0,
                c: 0.0,
                d: sy,
                e: -self.dc.window_org.0 * sx,
                f: -self.dc.window_org.1 * sy,
            };
        }
        let t = self.dc.world.then(&self.dc.page_to_device(self.px_per_mm));
        if t.is_usable() {
            t
        } else {
            Xform::IDENTITY
        }
    }

    fn dev(&self, t: &Xform, p: (f64, f64)) -> (f64, f64) {
        t.apply(p.0, p.1)
    }

    // ----- state ---------------------------------------------------------------------

    /// SaveDC.
    pub fn save(&mut self) -> Result<(), MetafileError> {
        if self.saved.len() >= self.limits.max_saved_states {
            return Err(MetafileError::TooDeep(self.limits.max_saved_states));
        }
        self.saved.push(self.dc.clone());
        Ok(())
    }

    /// RestoreDC: a negative `n` counts back from the newest save, a positive one names
    /// a save by its depth. Out-of-range values are ignored, as GDI fails the call.
    pub fn restore(&mut self, n: i64) {
        let len = self.saved.len() as i64;
        let keep = if n < 0 { len + n } else { n - 1 };
        if keep < 0 || keep >= len {
            return;
        }
        self.saved.truncate(keep as usize + 1);
        if let Some(dc) = self.saved.pop() {
            self.dc = dc;
        }
    }

    /// Puts `object` in table slot `slot` (ignored past the object cap).
    pub fn store(&mut self, slot: usize, object: Object) {
        if slot >= self.limits.max_objects {
            return;
        }
        if self.objects.len() <= slot {
            self.objects.resize(slot + 1, None);
        }
        self.objects[slot] = Some(object);
    }

    /// Selects an object into the device context.
    pub fn select(&mut self, object: Object) {
        match object {
            Object::Pen(p) => self.dc.pen = p,
            Object::Brush(b) => self.dc.brush = b,
            Object::Font(f) => self.dc.font = f,
            Object::Other => {}
        }
    }

    /// Selects the object in table slot `slot`, if there is one.
    pub fn select_slot(&mut self, slot: usize) {
        if let Some(Some(o)) = self.objects.get(slot) {
            let o = o.clone();
            self.select(o);
        }
    }

    /// Deletes the object in `slot`.
    pub fn delete(&mut self, slot: usize) {
        if let Some(o) = self.objects.get_mut(slot) {
            *o = None;
        }
    }

    // ----- brushes ---------------------------------------------------------------------

    /// A hatched brush (HS_*): an 8-pixel pattern written to the definitions.
    pub fn hatch_brush(&mut self, color: Color, hatch: u32) -> Result<Brush, MetafileError> {
        let lines = match hatch {
            0 => "M0 4H8",
            1 => "M4 0V8",
            2 => "M0 0L8 8",
            3 => "M0 8L8 0",
            4 => "M0 4H8M4 0V8",
            _ => "M0 0L8 8M0 8L8 0",
        };
        let id = self.out.id("h");
        let back = if self.dc.bk_opaque {
            format!(
                "<rect width=\"8\" height=\"8\" fill=\"{}\"/>",
                self.dc.bk_color.hex()
            )
        } else {
            String::new()
        };
        self.out.push(&format!(
            "<defs><pattern id=\"{id}\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">{back}<path d=\"{lines}\" stroke=\"{}\" stroke-width=\"1\"/></pattern></defs>",
            color.hex()
        ))?;
        Ok(Brush::Pattern(id))
    }

    /// A brush tiling a bitmap (DIB pattern brushes).
    pub fn bitmap_brush(&mut self, bmp: &Bitmap) -> Result<Brush, MetafileError> {
        let id = self.out.id("b");
        self.out.push(&format!(
            "<defs><pattern id=\"{id}\" width=\"{w}\" height=\"{h}\" patternUnits=\"userSpaceOnUse\"><image href=\"{}\" width=\"{w}\" height=\"{h}\"/></pattern></defs>",
            escape(&bmp.uri),
            w = bmp.width,
            h = bmp.height
        ))?;
        Ok(Brush::Pattern(id))
    }

    // ----- paint -------------------------------------------------------------------------

    fn paint(&self, fill: bool, stroke: bool) -> String {
        let mut s = String::new();
        let fill_value = match (&self.dc.brush, fill) {
            (Brush::Solid(c), true) => c.hex(),
            (Brush::Pattern(id), true) => format!("url(#{id})"),
            _ => "none".to_owned(),
        };
        let _ = write!(s, " fill=\"{fill_value}\"");
        if fill && !self.dc.winding {
            s.push_str(" fill-rule=\"evenodd\"");
        }
        let pen = &self.dc.pen;
        if !stroke || pen.dash == Dash::Null {
            s.push_str(" stroke=\"none\"");
        } else {
            let t = self.xform();
            let width = pen.width * t.det().abs().sqrt();
            let (w, cosmetic) = if pen.width == 0.0 || width <= 0.0 {
                (1.0, true)
            } else {
                (width, false)
            };
            let _ = write!(
                s,
                " stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"{}\" stroke-linejoin=\"{}\"",
                pen.color.hex(),
                num(w),
                pen.cap,
                pen.join
            );
            if cosmetic {
                // A cosmetic pen is one pixel wide at any scale.
                s.push_str(" vector-effect=\"non-scaling-stroke\"");
            }
            let pattern: &[f64] = match pen.dash {
                Dash::Dash => &[6.0, 2.0],
                Dash::Dot => &[1.0, 1.0],
                Dash::DashDot => &[6.0, 2.0, 1.0, 2.0],
                Dash::DashDotDot => &[6.0, 2.0, 1.0, 2.0, 1.0, 2.0],
                _ => &[],
            };
            if !pattern.is_empty() {
                let dashes: Vec<String> = pattern.iter().map(|d| num(d * w.max(1.0))).collect();
                let _ = write!(s, " stroke-dasharray=\"{}\"", dashes.join(" "));
            }
        }
        s.push_str(&self.clip_attr());
        s
    }

    fn clip_attr(&self) -> String {
        match &self.dc.clip {
            Some(id) => format!(" clip-path=\"url(#{id})\""),
            None => String::new(),
        }
    }

    /// Draws `path` (device units) with the pen and/or brush, or adds it to the open
    /// path bracket.
    pub fn emit(&mut self, path: PathData, fill: bool, stroke: bool) -> Result<(), MetafileError> {
        self.spend(path.points)?;
        if self.path_open {
            if let Some(p) = &mut self.path {
                p.append(&path);
            }
            return Ok(());
        }
        if path.is_empty()
            || (!fill || self.dc.brush == Brush::Null)
                && (!stroke || self.dc.pen.dash == Dash::Null)
        {
            return Ok(());
        }
        self.extent.union(&path.extent);
        let markup = format!(
            "<path d=\"{}\"{}/>",
            path.as_str(),
            self.paint(fill, stroke)
        );
        self.out.draw(&markup)
    }

    // ----- shapes ------------------------------------------------------------------------

    /// A polygon or polyline through logical `points`.
    pub fn poly(&mut self, points: &[(f64, f64)], closed: bool) -> Result<(), MetafileError> {
        let t = self.xform();
        let mut p = PathData::default();
        for (i, &pt) in points.iter().enumerate() {
            let d = self.dev(&t, pt);
            if i == 0 {
                p.move_to(d);
            } else {
                p.line_to(d);
            }
        }
        if closed {
            p.close();
        }
        if let Some(&last) = points.last() {
            self.dc.cur = last;
        }
        self.emit(p, closed, true)
    }

    /// Several polygons (filled together) or polylines.
    pub fn poly_poly(
        &mut self,
        polys: &[Vec<(f64, f64)>],
        closed: bool,
    ) -> Result<(), MetafileError> {
        let t = self.xform();
        let mut p = PathData::default();
        for poly in polys {
            for (i, &pt) in poly.iter().enumerate() {
                let d = self.dev(&t, pt);
                if i == 0 {
                    p.move_to(d);
                } else {
                    p.line_to(d);
                }
            }
            if closed {
                p.close();
            }
        }
        self.emit(p, closed, true)
    }

    /// Lines from the current position through `points` (PolylineTo).
    pub fn poly_to(&mut self, points: &[(f64, f64)]) -> Result<(), MetafileError> {
        let mut all = Vec::with_capacity(points.len() + 1);
        all.push(self.dc.cur);
        all.extend_from_slice(points);
        self.stroke_or_extend(&all, false)
    }

    /// Bézier curves: `points` are a start point then groups of three, or, with
    /// `from_current`, groups of three continuing from the current position.
    pub fn bezier(
        &mut self,
        points: &[(f64, f64)],
        from_current: bool,
    ) -> Result<(), MetafileError> {
        let mut all = Vec::with_capacity(points.len() + 1);
        if from_current {
            all.push(self.dc.cur);
        }
        all.extend_from_slice(points);
        self.stroke_or_extend(&all, true)
    }

    /// Strokes an open figure, or continues the bracket's figure when a path is open.
    fn stroke_or_extend(&mut self, pts: &[(f64, f64)], curves: bool) -> Result<(), MetafileError> {
        let Some(&first) = pts.first() else {
            return Ok(());
        };
        let t = self.xform();
        let dev: Vec<(f64, f64)> = pts.iter().map(|&p| t.apply(p.0, p.1)).collect();
        let continuing = self.dc.cur == first;
        self.dc.cur = if curves {
            let used = (pts.len() - 1) / 3 * 3;
            pts[used]
        } else {
            pts[pts.len() - 1]
        };
        let mut fresh = PathData::default();
        let open = self.path_open;
        let p = match (&mut self.path, open) {
            (Some(p), true) => p,
            _ => &mut fresh,
        };
        let before = p.points;
        if !(open && continuing && p.is_open()) {
            p.move_to(dev[0]);
        }
        if curves {
            for c in dev[1..].chunks_exact(3) {
                p.cubic_to(c[0], c[1], c[2]);
            }
        } else {
            for &d in &dev[1..] {
                p.line_to(d);
            }
        }
        let added = p.points - before;
        if open {
            return self.spend(added);
        }
        self.emit(fresh, false, true)
    }

    /// MoveTo.
    pub fn move_to(&mut self, x: f64, y: f64) {
        self.dc.cur = (x, y);
        if self.path_open {
            let d = self.dev(&self.xform(), (x, y));
            if let Some(p) = &mut self.path {
                p.move_to(d);
            }
        }
    }

    /// LineTo: a line from the current position.
    pub fn line_to(&mut self, x: f64, y: f64) -> Result<(), MetafileError> {
        self.poly_to(&[(x, y)])
    }

    /// A rectangle, filled and outlined.
    pub fn rectangle(&mut self, l: f64, t: f64, r: f64, b: f64) -> Result<(), MetafileError> {
        self.poly_closed_shape(&[(l, t), (r, t), (r, b), (l, b)])
    }

    fn poly_closed_shape(&mut self, pts: &[(f64, f64)]) -> Result<(), MetafileError> {
        let t = self.xform();
        let mut p = PathData::default();
        for (i, &pt) in pts.iter().enumerate() {
            if i == 0 {
                p.move_to(self.dev(&t, pt));
            } else {
                p.line_to(self.dev(&t, pt));
            }
        }
        p.close();
        self.emit(p, true, true)
    }

    /// An ellipse inside the rectangle.
    pub fn ellipse(&mut self, l: f64, t: f64, r: f64, b: f64) -> Result<(), MetafileError> {
        let (cx, cy, rx, ry) = (
            (l + r) / 2.0,
            (t + b) / 2.0,
            (r - l).abs() / 2.0,
            (b - t).abs() / 2.0,
        );
        let x = self.xform();
        let mut p = PathData::default();
        p.move_to(x.apply(cx + rx, cy));
        self.arc_segments(&mut p, &x, (cx, cy, rx, ry), 0.0, TAU);
        p.close();
        self.emit(p, true, true)
    }

    /// A rectangle with corners rounded by an ellipse of `w`×`h`.
    pub fn round_rect(
        &mut self,
        l: f64,
        t: f64,
        r: f64,
        b: f64,
        w: f64,
        h: f64,
    ) -> Result<(), MetafileError> {
        let (l, r) = (l.min(r), l.max(r));
        let (t, b) = (t.min(b), t.max(b));
        let rx = (w.abs() / 2.0).min((r - l) / 2.0);
        let ry = (h.abs() / 2.0).min((b - t) / 2.0);
        let x = self.xform();
        let mut p = PathData::default();
        p.move_to(x.apply(l + rx, t));
        p.line_to(x.apply(r - rx, t));
        self.arc_segments(&mut p, &x, (r - rx, t + ry, rx, ry), -FRAC_PI_2, 0.0);
        p.line_to(x.apply(r, b - ry));
        self.arc_segments(&mut p, &x, (r - rx, b - ry, rx, ry), 0.0, FRAC_PI_2);
        p.line_to(x.apply(l + rx, b));
        self.arc_segments(&mut p, &x, (l + rx, b - ry, rx, ry), FRAC_PI_2, PI);
        p.line_to(x.apply(l, t + ry));
        self.arc_segments(&mut p, &x, (l + rx, t + ry, rx, ry), PI, PI + FRAC_PI_2);
        p.close();
        self.emit(p, true, true)
    }

    /// Arc, ArcTo, Chord and Pie: part of the ellipse in the rectangle, from the ray
    /// through `start` to the ray through `end`.
    pub fn arc(
        &mut self,
        kind: ArcKind,
        rect: (f64, f64, f64, f64),
        start: (f64, f64),
        end: (f64, f64),
    ) -> Result<(), MetafileError> {
        let (l, t, r, b) = rect;
        let e = (
            (l + r) / 2.0,
            (t + b) / 2.0,
            (r - l).abs() / 2.0,
            (b - t).abs() / 2.0,
        );
        if e.2 == 0.0 || e.3 == 0.0 {
            return Ok(());
        }
        let angle = |p: (f64, f64)| ((p.1 - e.1) / e.3).atan2((p.0 - e.0) / e.2);
        let a0 = angle(start);
        let a1 = angle(end);
        // Counter-clockwise on a y-down page is decreasing parametric angle.
        let mut sweep = a1 - a0;
        if self.dc.clockwise {
            while sweep <= 0.0 {
                sweep += TAU;
            }
        } else {
            while sweep >= 0.0 {
                sweep -= TAU;
            }
        }
        let x = self.xform();
        let first = (e.0 + e.2 * a0.cos(), e.1 + e.3 * a0.sin());
        let last = (e.0 + e.2 * a1.cos(), e.1 + e.3 * a1.sin());
        let mut p = PathData::default();
        match kind {
            ArcKind::Pie => {
                p.move_to(x.apply(e.0, e.1));
                p.line_to(x.apply(first.0, first.1));
            }
            ArcKind::ArcTo => {
                p.move_to(x.apply(self.dc.cur.0, self.dc.cur.1));
                p.line_to(x.apply(first.0, first.1));
            }
            _ => p.move_to(x.apply(first.0, first.1)),
        }
        self.arc_segments(&mut p, &x, e, a0, a0 + sweep);
        let closed = matches!(kind, ArcKind::Chord | ArcKind::Pie);
        if closed {
            p.close();
        }
        if kind == ArcKind::ArcTo {
            self.dc.cur = last;
        }
        self.emit(p, closed, true)
    }

    /// Appends Bézier segments (at most a quarter turn each) of the ellipse
    /// `(cx, cy, rx, ry)` from parametric angle `a0` to `a1`.
    fn arc_segments(&self, p: &mut PathData, x: &Xform, e: (f64, f64, f64, f64), a0: f64, a1: f64) {
        let (cx, cy, rx, ry) = e;
        let n = ((a1 - a0).abs() / FRAC_PI_2).ceil().clamp(1.0, 8.0) as usize;
        let step = (a1 - a0) / n as f64;
        let k = 4.0 / 3.0 * (step / 4.0).tan();
        for i in 0..n {
            let s = a0 + step * i as f64;
            let f = s + step;
            let (sc, ss, fc, fs) = (s.cos(), s.sin(), f.cos(), f.sin());
            let c1 = (cx + rx * (sc - k * ss), cy + ry * (ss + k * sc));
            let c2 = (cx + rx * (fc + k * fs), cy + ry * (fs - k * fc));
            let end = (cx + rx * fc, cy + ry * fs);
            p.cubic_to(
                x.apply(c1.0, c1.1),
                x.apply(c2.0, c2.1),
                x.apply(end.0, end.1),
            );
        }
    }

    /// Fills device-space rectangles with a colour (regions, PatBlt).
    pub fn fill_device_rects(
        &mut self,
        rects: &[(f64, f64, f64, f64)],
        fill: &str,
    ) -> Result<(), MetafileError> {
        if rects.is_empty() {
            return Ok(());
        }
        let p = rects_path(rects);
        self.spend(p.points)?;
        self.extent.union(&p.extent);
        let markup = format!(
            "<path d=\"{}\" fill=\"{fill}\"{}/>",
            p.as_str(),
            self.clip_attr()
        );
        self.out.draw(&markup)
    }

    /// The current brush as an SVG paint, `None` for the null brush.
    pub fn brush_paint(&self) -> Option<String> {
        match &self.dc.brush {
            Brush::Solid(c) => Some(c.hex()),
            Brush::Pattern(id) => Some(format!("url(#{id})")),
            Brush::Null => None,
        }
    }

    /// Fills the logical rectangle with the brush (PatBlt and blits without a bitmap).
    pub fn fill_rect(
        &mut self,
        l: f64,
        t: f64,
        r: f64,
        b: f64,
        paint: &str,
    ) -> Result<(), MetafileError> {
        let x = self.xform();
        let mut p = PathData::default();
        p.move_to(x.apply(l, t));
        p.line_to(x.apply(r, t));
        p.line_to(x.apply(r, b));
        p.line_to(x.apply(l, b));
        p.close();
        self.spend(p.points)?;
        self.extent.union(&p.extent);
        let markup = format!(
            "<path d=\"{}\" fill=\"{paint}\"{}/>",
            p.as_str(),
            self.clip_attr()
        );
        self.out.draw(&markup)
    }

    /// Draws a bitmap into the logical rectangle `(x, y, w, h)`; negative sizes mirror.
    pub fn image(&mut self, bmp: &Bitmap, dest: (f64, f64, f64, f64)) -> Result<(), MetafileError> {
        let place = Xform {
            a: dest.2,
            b: 0.0,
            c: 0.0,
            d: dest.3,
            e: dest.0,
            f: dest.1,
        };
        let m = place.then(&self.xform());
        if !m.is_usable() {
            return Ok(());
        }
        self.spend(u64::from(bmp.width) * u64::from(bmp.height) / 64)?;
        for corner in [(0.0, 0.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0)] {
            self.extent.add(m.apply(corner.0, corner.1));
        }
        let markup = format!(
            "<image href=\"{}\" width=\"1\" height=\"1\" preserveAspectRatio=\"none\" transform=\"matrix({} {} {} {} {} {})\"/>",
            escape(&bmp.uri),
            num6(m.a),
            num6(m.b),
            num6(m.c),
            num6(m.d),
            num(m.e),
            num(m.f),
        );
        let clip = self.dc.clip.clone();
        self.out.draw(&clipped(markup, clip.as_deref()))
    }

    // ----- text --------------------------------------------------------------------------

    /// Text at logical `(x, y)`: `units` are the UTF-16 code units, `dx` the advance of
    /// each (logical units), `options` the ETO_* flags and `rect` their rectangle.
    pub fn text(
        &mut self,
        at: (f64, f64),
        units: &[u16],
        dx: Option<&[f64]>,
        options: u32,
        rect: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), MetafileError> {
        self.spend(units.len() as u64)?;
        let x = self.xform();
        let update_cp = self.dc.text_align & 1 != 0;
        let at = if update_cp { self.dc.cur } else { at };
        if let (Some((l, t, r, b)), true) = (rect, options & 2 != 0) {
            let bk = self.dc.bk_color.hex();
            self.fill_rect(l, t, r, b, &bk)?;
        }
        let text_clip = match (rect, options & 4 != 0) {
            (Some((l, t, r, b)), true) => {
                Some(self.clip_shape(&rect_path(&x, l, t, r, b), false, true)?)
            }
            _ => None,
        };
        let font = self.dc.font.clone();
        let em_logical = if font.height < 0.0 {
            -font.height
        } else if font.height > 0.0 {
            // A cell height includes the internal leading.
            font.height * 0.82
        } else {
            12.0
        };
        let up = x.apply_vec(0.0, em_logical);
        let em = (up.0 * up.0 + up.1 * up.1).sqrt();
        let theta = (font.escapement / 10.0).to_radians();
        let base = if x.det() > 0.0 {
            (theta.cos(), -theta.sin())
        } else {
            (theta.cos(), theta.sin())
        };
        let v = x.apply_vec(base.0, base.1);
        let along = (v.0 * v.0 + v.1 * v.1).sqrt();
        let angle = v.1.atan2(v.0).to_degrees();

        // Characters with their advances (a surrogate pair has one advance per unit).
        let step = if options & 0x2000 != 0 { 2 } else { 1 };
        let mut chars = String::new();
        let mut advances = Vec::new();
        let mut i = 0;
        for ch in char::decode_utf16(units.iter().copied()) {
            let ch = ch.unwrap_or('\u{FFFD}');
            let n = ch.len_utf16();
            let adv: Option<f64> = dx.and_then(|d| {
                (0..n)
                    .map(|k| d.get((i + k) * step).copied())
                    .sum::<Option<f64>>()
            });
            i += n;
            chars.push(ch);
            advances.push(adv);
        }
        let widths: Option<Vec<f64>> = advances.into_iter().collect();
        let total: f64 = match &widths {
            Some(w) => w.iter().sum::<f64>() * along,
            None => chars.chars().count() as f64 * em * 0.5,
        };
        if update_cp {
            let logical = if along > 0.0 { total / along } else { 0.0 };
            self.dc.cur = (at.0 + base.0 * logical, at.1 + base.1 * logical);
        }
        if chars.trim().is_empty() {
            return Ok(());
        }
        let origin = x.apply(at.0, at.1);
        self.extent.add(origin);
        let mut s = String::new();
        let _ = write!(
            s,
            "<text transform=\"translate({} {})",
            num(origin.0),
            num(origin.1)
        );
        if angle.abs() > 0.01 {
            let _ = write!(s, " rotate({})", num(angle));
        }
        s.push('"');
        let halign = self.dc.text_align & 6;
        match &widths {
            Some(w) => {
                let shift = match halign {
                    2 => -total,
                    6 => -total / 2.0,
                    _ => 0.0,
                };
                let mut pos = shift;
                let xs: Vec<String> = w
                    .iter()
                    .map(|adv| {
                        let here = num(pos);
                        pos += adv * along;
                        here
                    })
                    .collect();
                let _ = write!(s, " x=\"{}\"", xs.join(" "));
            }
            None => match halign {
                2 => s.push_str(" text-anchor=\"end\""),
                6 => s.push_str(" text-anchor=\"middle\""),
                _ => {}
            },
        }
        match self.dc.text_align & 24 {
            0 => s.push_str(" dy=\"0.88em\""),
            8 => s.push_str(" dy=\"-0.22em\""),
            _ => {}
        }
        let face = font
            .face
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
            .collect::<String>();
        let family = if face.trim().is_empty() {
            "sans-serif".to_owned()
        } else {
            format!("'{}', sans-serif", escape(face.trim()))
        };
        let _ = write!(s, " font-family=\"{family}\" font-size=\"{}\"", num(em));
        if font.weight >= 600 {
            s.push_str(" font-weight=\"bold\"");
        }
        if font.italic {
            s.push_str(" font-style=\"italic\"");
        }
        match (font.underline, font.strike) {
            (true, true) => s.push_str(" text-decoration=\"underline line-through\""),
            (true, false) => s.push_str(" text-decoration=\"underline\""),
            (false, true) => s.push_str(" text-decoration=\"line-through\""),
            _ => {}
        }
        let _ = write!(
            s,
            " fill=\"{}\" xml:space=\"preserve\"",
            self.dc.text_color.hex()
        );
        s.push('>');
        s.push_str(&escape(&chars));
        s.push_str("</text>");
        let clip = text_clip.or_else(|| self.dc.clip.clone());
        self.out.draw(&clipped(s, clip.as_deref()))
    }

    // ----- clipping --------------------------------------------------------------------

    /// Writes a `<clipPath>` of `path`, intersected with the current clip when
    /// `intersect`, and returns its id (the current clip is not changed).
    fn clip_shape(
        &mut self,
        path: &PathData,
        evenodd: bool,
        intersect: bool,
    ) -> Result<String, MetafileError> {
        let id = self.out.id("c");
        let parent = match (&self.dc.clip, intersect) {
            (Some(prev), true) => format!(" clip-path=\"url(#{prev})\""),
            _ => String::new(),
        };
        let rule = if evenodd {
            " clip-rule=\"evenodd\""
        } else {
            ""
        };
        self.spend(path.points)?;
        self.out.push(&format!(
            "<clipPath id=\"{id}\"{parent}><path d=\"{}\"{rule}/></clipPath>",
            path.as_str()
        ))?;
        Ok(id)
    }

    /// IntersectClipRect (logical).
    pub fn intersect_clip(&mut self, l: f64, t: f64, r: f64, b: f64) -> Result<(), MetafileError> {
        let p = rect_path(&self.xform(), l, t, r, b);
        self.dc.clip = Some(self.clip_shape(&p, false, true)?);
        Ok(())
    }

    /// ExcludeClipRect (logical).
    pub fn exclude_clip(&mut self, l: f64, t: f64, r: f64, b: f64) -> Result<(), MetafileError> {
        let mut p = rects_path(&[(-EVERYWHERE, -EVERYWHERE, EVERYWHERE, EVERYWHERE)]);
        p.append(&rect_path(&self.xform(), l, t, r, b));
        self.dc.clip = Some(self.clip_shape(&p, true, true)?);
        Ok(())
    }

    /// Combines device-space rectangles with the clip by RGN_* `mode`.
    pub fn clip_region(
        &mut self,
        rects: &[(f64, f64, f64, f64)],
        mode: u32,
    ) -> Result<(), MetafileError> {
        match mode {
            // RGN_AND
            1 if !rects.is_empty() => {
                self.dc.clip = Some(self.clip_shape(&rects_path(rects), false, true)?);
            }
            // RGN_DIFF
            4 => {
                let mut p = rects_path(&[(-EVERYWHERE, -EVERYWHERE, EVERYWHERE, EVERYWHERE)]);
                p.append(&rects_path(rects));
                self.dc.clip = Some(self.clip_shape(&p, true, true)?);
            }
            // RGN_COPY (an empty region is "no clip")
            5 if !rects.is_empty() => {
                self.dc.clip = Some(self.clip_shape(&rects_path(rects), false, false)?);
            }
            // RGN_OR, RGN_XOR, and a copy of nothing: showing too much beats hiding.
            _ => self.dc.clip = None,
        }
        Ok(())
    }

    // ----- path brackets -----------------------------------------------------------------

    /// BeginPath.
    pub fn begin_path(&mut self) {
        self.path = Some(PathData::default());
        self.path_open = true;
    }

    /// EndPath.
    pub fn end_path(&mut self) {
        self.path_open = false;
    }

    /// AbortPath.
    pub fn abort_path(&mut self) {
        self.path = None;
        self.path_open = false;
    }

    /// CloseFigure.
    pub fn close_figure(&mut self) {
        if let Some(p) = &mut self.path {
            p.close();
        }
    }

    /// FillPath, StrokePath, StrokeAndFillPath: draws and discards the path.
    pub fn draw_path(&mut self, fill: bool, stroke: bool) -> Result<(), MetafileError> {
        self.path_open = false;
        if let Some(p) = self.path.take() {
            self.emit(p, fill, stroke)?;
        }
        Ok(())
    }

    /// SelectClipPath.
    pub fn clip_to_path(&mut self, mode: u32) -> Result<(), MetafileError> {
        self.path_open = false;
        if let Some(p) = self.path.take() {
            let evenodd = !self.dc.winding;
            let intersect = mode == 1;
            self.dc.clip = Some(self.clip_shape(&p, evenodd, intersect)?);
        }
        Ok(())
    }
}

/// `markup` clipped by `clip`. A clip on a transformed element would be read in the
/// element's own (transformed) units, so the clip goes on a group around it instead.
fn clipped(markup: String, clip: Option<&str>) -> String {
    match clip {
        Some(id) => format!("<g clip-path=\"url(#{id})\">{markup}</g>"),
        None => markup,
    }
}

/// A matrix coefficient: scales of bitmaps need more precision than coordinates.
fn num6(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// A logical rectangle mapped to device units.
fn rect_path(x: &Xform, l: f64, t: f64, r: f64, b: f64) -> PathData {
    let mut p = PathData::default();
    p.move_to(x.apply(l, t));
    p.line_to(x.apply(r, t));
    p.line_to(x.apply(r, b));
    p.line_to(x.apply(l, b));
    p.close();
    p
}

/// Device rectangles `(left, top, right, bottom)` as one path.
fn rects_path(rects: &[(f64, f64, f64, f64)]) -> PathData {
    let mut p = PathData::default();
    for &(l, t, r, b) in rects {
        p.append(&rect_path(&Xform::IDENTITY, l, t, r, b));
    }
    p
}
