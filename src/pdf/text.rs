//! The text of a page with positions, from the interpreter itself: a [`Device`] that draws
//! nothing and keeps, for every glyph shown (invisible OCR text included), its Unicode
//! value, origin, advance and size in display coordinates. Neighbouring glyphs on one
//! baseline are joined into runs, with a space where the gap between them is wide.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::Instant;

use hayro::hayro_interpret::font::{Glyph, GlyphRun};
use hayro::hayro_interpret::util::TransformExt;
use hayro::hayro_interpret::{
    interpret_page, BlendMode, ClipPath, Context, Device, DrawMode, DrawProps, Image,
    ImageDrawProps, InterpreterCache, InterpreterSettings, SoftMask,
};
use hayro::hayro_syntax::page::Page;
use hayro::kurbo::{Affine, BezPath, Point, Rect};
use serde::Serialize;

/// A run of text on one baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextRun {
    /// The text.
    pub t: String,
    /// Left end of the baseline, in points from the displayed page's left.
    pub x: f32,
    /// Baseline, in points from the displayed page's top.
    pub y: f32,
    /// Length along the baseline, in points.
    pub w: f32,
    /// Font size, in points.
    pub s: f32,
    /// Angle of the baseline in degrees, clockwise (0 for ordinary text).
    #[serde(skip_serializing_if = "is_zero")]
    pub a: f32,
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

/// The text of a page, or why it stopped early.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageText {
    /// Runs in content-stream order.
    pub runs: Vec<TextRun>,
    /// Whether the page ran past its deadline or its run cap (the runs are those before).
    pub truncated: bool,
}

impl PageText {
    /// The runs as plain text: runs on one line joined with spaces, lines with newlines.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        let mut last: Option<&TextRun> = None;
        for run in &self.runs {
            if let Some(prev) = last {
                let same_line = (prev.y - run.y).abs() < prev.s.max(run.s) * 0.5;
                out.push(if same_line { ' ' } else { '\n' });
            }
            out.push_str(&run.t);
            last = Some(run);
        }
        out
    }
}

/// The gap between two glyphs, as a fraction of the font size, past which a space is put
/// between them.
const WORD_GAP: f64 = 0.15;

/// Unwinds out of the interpreter when the deadline passes (`resume_unwind` skips the panic
/// hook, so nothing is printed).
struct Stop;

/// Extracts the text of `page` with at most `max_runs` runs, stopping at `deadline`.
pub fn extract(page: &Page<'_>, max_runs: usize, deadline: Instant) -> PageText {
    let (w, h) = page.render_dimensions();
    let cache = InterpreterCache::new();
    let settings = InterpreterSettings::default();
    let mut device = TextDevice {
        runs: Vec::new(),
        current: None,
        max_runs,
        deadline,
        truncated: false,
    };
    let transform = page.initial_transform(true).to_kurbo();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut context = Context::new(
            transform,
            Rect::new(0.0, 0.0, w as f64, h as f64),
            &cache,
            page.xref(),
            settings,
        );
        interpret_page(page, &mut context, &mut device);
    }));
    if let Err(payload) = outcome {
        if !payload.is::<Stop>() {
            // A bug in the interpreter: the page keeps the text read so far.
            tracing::warn!("the PDF interpreter panicked while reading text");
        }
        device.truncated = true;
    }
    device.finish();
    PageText {
        runs: device.runs,
        truncated: device.truncated,
    }
}

struct Open {
    run: TextRun,
    /// Where the next glyph would start if it followed without a gap.
    end: Point,
    /// Unit vector along the baseline.
    dir: (f64, f64),
}

struct TextDevice {
    runs: Vec<TextRun>,
    current: Option<Open>,
    max_runs: usize,
    deadline: Instant,
    truncated: bool,
}

impl TextDevice {
    fn finish(&mut self) {
        if let Some(open) = self.current.take() {
            if !open.run.t.trim().is_empty() {
                self.runs.push(open.run);
            }
        }
    }

    fn glyph(&mut self, text: &str, transform: Affine, advance: f64) {
        let origin = transform * Point::ORIGIN;
        let along = transform * Point::new(advance, 0.0);
        let up = transform * Point::new(0.0, 1000.0);
        let size = (up - origin).hypot();
        let adv = along - origin;
        let length = adv.hypot();
        if !size.is_finite() || size < 0.01 || !origin.x.is_finite() || !origin.y.is_finite() {
            return;
        }
        let dir = if length > 1e-6 {
            (adv.x / length, adv.y / length)
        } else {
            // A zero-width glyph keeps the direction of the text matrix's x axis.
            let x = transform * Point::new(1000.0, 0.0) - origin;
            let l = x.hypot().max(1e-9);
            (x.x / l, x.y / l)
        };
        let end = origin + adv;
        if let Some(open) = &mut self.current {
            let same_dir = (open.dir.0 * dir.0 + open.dir.1 * dir.1) > 0.999;
            let d = origin - open.end;
            let gap = d.x * open.dir.0 + d.y * open.dir.1;
            let off = (-d.x * open.dir.1 + d.y * open.dir.0).abs();
            let s = f64::from(open.run.s);
            let similar = (size - s).abs() < s * 0.4;
            if same_dir && similar && off < s * 0.35 && gap > -s * 0.6 && gap < s * 2.0 {
                // A space where the gap passes 0.15 em: small-capital headings set their
                // words 0.155 em apart, letterspaced words their letters up to 0.14 em
                // (see benches/pdf/README.md for the corpus recall by threshold).
                if gap > s * WORD_GAP && !open.run.t.ends_with(' ') && !text.starts_with(' ') {
                    open.run.t.push(' ');
                }
                open.run.t.push_str(text);
                let start = Point::new(f64::from(open.run.x), f64::from(open.run.y));
                let e = end - start;
                open.run.w = (e.x * open.dir.0 + e.y * open.dir.1).max(0.0) as f32;
                open.end = end;
                return;
            }
        }
        self.finish();
        if self.runs.len() >= self.max_runs {
            self.truncated = true;
            resume_unwind(Box::new(Stop));
        }
        if text.trim().is_empty() {
            // A run never starts with white space; its position would be misleading.
            return;
        }
        let angle = dir.1.atan2(dir.0).to_degrees();
        self.current = Some(Open {
            run: TextRun {
                t: text.to_string(),
                x: origin.x as f32,
                y: origin.y as f32,
                w: length as f32,
                s: size as f32,
                a: if angle.abs() < 0.01 {
                    0.0
                } else {
                    angle as f32
                },
            },
            end,
            dir,
        });
    }
}

impl TextDevice {
    /// Stops the interpreter once the deadline has passed. Every drawing call checks, not
    /// only text: a page of nested forms that draw each other can run for ever without
    /// showing a glyph.
    fn check_deadline(&mut self) {
        if Instant::now() >= self.deadline {
            self.truncated = true;
            resume_unwind(Box::new(Stop));
        }
    }
}

impl<'a> Device<'a> for TextDevice {
    fn draw_path(&mut self, _: &BezPath, _: DrawProps<'a>, _: &DrawMode) {
        self.check_deadline();
    }
    fn push_clip_path(&mut self, _: &ClipPath) {
        self.check_deadline();
    }
    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {
        self.check_deadline();
    }

    fn draw_glyph_run(&mut self, run: &GlyphRun<'_, 'a>, props: DrawProps<'a>, _: &DrawMode) {
        self.check_deadline();
        for glyph in run.glyphs() {
            let Some(unicode) = glyph.as_unicode() else {
                continue;
            };
            let text = match unicode {
                hayro::hayro_interpret::hayro_cmap::BfString::Char(c) => c.to_string(),
                hayro::hayro_interpret::hayro_cmap::BfString::String(s) => s,
            };
            let text: String = text.chars().filter(|c| !c.is_control()).collect();
            if text.is_empty() {
                continue;
            }
            let advance = match &**glyph {
                Glyph::Outline(o) => o.advance_width().map(f64::from).unwrap_or(500.0),
                // A Type 3 glyph's width is in its own glyph space; half an em is a fair
                // guess, and the next glyph's origin corrects it.
                Glyph::Type3(_) => 500.0,
            };
            self.glyph(&text, props.transform * glyph.transform(), advance);
        }
    }

    fn draw_image(&mut self, _: Image<'a, '_>, _: ImageDrawProps<'a>) {
        self.check_deadline();
    }
    fn pop_clip(&mut self) {
        self.check_deadline();
    }
    fn pop_transparency_group(&mut self) {
        self.check_deadline();
    }
}
