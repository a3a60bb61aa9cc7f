//! The SVG writer: numbers, escaped text and path data, with the output size cap. Only
//! this module writes markup, so every string that came from the file passes [`escape`].

use std::fmt::Write as _;

use super::MetafileError;

/// A number for SVG: at most two decimals, no trailing zeros, never `NaN`.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let r = (v * 100.0).round() / 100.0;
    let mut s = format!("{r:.2}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" {
        s = "0".to_owned();
    }
    s
}

/// Escapes text for an attribute or element, dropping characters XML cannot carry.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// Path data in device units.
#[derive(Debug, Default, Clone)]
pub struct PathData {
    d: String,
    /// Points written, for the work budget.
    pub points: u64,
    open: bool,
    /// The box around every point (control points included).
    pub extent: Extent,
}

/// A bounding box in device units, empty until a point is added.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Extent(Option<(f64, f64, f64, f64)>);

impl Extent {
    /// Grows the box to hold `p` (non-finite points are left out).
    pub fn add(&mut self, p: (f64, f64)) {
        if !(p.0.is_finite() && p.1.is_finite()) {
            return;
        }
        self.0 = Some(match self.0 {
            None => (p.0, p.1, p.0, p.1),
            Some((l, t, r, b)) => (l.min(p.0), t.min(p.1), r.max(p.0), b.max(p.1)),
        });
    }

    /// Grows the box to hold another.
    pub fn union(&mut self, other: &Extent) {
        if let Some((l, t, r, b)) = other.0 {
            self.add((l, t));
            self.add((r, b));
        }
    }

    /// `(x, y, width, height)`, when the box is not empty.
    pub fn view(&self) -> Option<(f64, f64, f64, f64)> {
        let (l, t, r, b) = self.0?;
        (r > l && b > t).then_some((l, t, r - l, b - t))
    }
}

impl PathData {
    /// Starts a figure.
    pub fn move_to(&mut self, p: (f64, f64)) {
        let _ = write!(self.d, "M{} {}", num(p.0), num(p.1));
        self.points += 1;
        self.extent.add(p);
        self.open = true;
    }

    /// A straight segment (starts a figure when none is open).
    pub fn line_to(&mut self, p: (f64, f64)) {
        if !self.open {
            return self.move_to(p);
        }
        let _ = write!(self.d, "L{} {}", num(p.0), num(p.1));
        self.points += 1;
        self.extent.add(p);
    }

    /// A cubic Bézier segment.
    pub fn cubic_to(&mut self, c1: (f64, f64), c2: (f64, f64), p: (f64, f64)) {
        if !self.open {
            self.move_to(c1);
        }
        let _ = write!(
            self.d,
            "C{} {} {} {} {} {}",
            num(c1.0),
            num(c1.1),
            num(c2.0),
            num(c2.1),
            num(p.0),
            num(p.1)
        );
        self.points += 3;
        for q in [c1, c2, p] {
            self.extent.add(q);
        }
    }

    /// Closes the open figure.
    pub fn close(&mut self) {
        if self.open {
            self.d.push('Z');
            self.open = false;
        }
    }

    /// Appends another path's figures.
    pub fn append(&mut self, other: &PathData) {
        self.d.push_str(&other.d);
        self.points += other.points;
        self.extent.union(&other.extent);
        self.open = other.open;
    }

    /// Whether a figure is open (segments continue it).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether nothing was drawn.
    pub fn is_empty(&self) -> bool {
        self.d.is_empty()
    }

    /// The `d` attribute's value (numbers only: nothing to escape).
    pub fn as_str(&self) -> &str {
        &self.d
    }
}

/// The SVG document being written.
#[derive(Debug)]
pub struct Writer {
    out: String,
    limit: usize,
    next_id: u32,
    /// Drawing elements written (not definitions).
    pub drawn: u64,
}

impl Writer {
    /// A writer refusing to grow past `limit` bytes.
    pub fn new(limit: usize) -> Writer {
        Writer {
            out: String::new(),
            limit,
            next_id: 0,
            drawn: 0,
        }
    }

    /// A fresh id for a definition.
    pub fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    /// Appends markup this module's callers built from numbers and escaped strings.
    pub fn push(&mut self, markup: &str) -> Result<(), MetafileError> {
        if self.out.len().saturating_add(markup.len()) > self.limit {
            return Err(MetafileError::OutputTooLarge(self.limit));
        }
        self.out.push_str(markup);
        Ok(())
    }

    /// Appends a drawing element.
    pub fn draw(&mut self, markup: &str) -> Result<(), MetafileError> {
        self.drawn += 1;
        self.push(markup)
    }

    /// The finished document around the body.
    pub fn finish(self, view: (f64, f64, f64, f64), size: (f64, f64)) -> String {
        let mut s = String::with_capacity(self.out.len() + 256);
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" overflow=\"hidden\">",
            num(view.0),
            num(view.1),
            num(view.2),
            num(view.3),
            num(size.0),
            num(size.1)
        );
        s.push_str(&self.out);
        s.push_str("</svg>");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
    }

    #[test]
    fn escape_drops_control_characters_and_quotes_markup() {
        assert_eq!(
            escape("a<b>&\"c'\u{1}\u{FFFF}\n"),
            "a&lt;b&gt;&amp;&quot;c&#39; "
        );
    }

    #[test]
    fn writer_refuses_to_grow_past_its_limit() {
        let mut w = Writer::new(10);
        assert!(w.push("<g/>").is_ok());
        assert_eq!(
            w.push("<path d=\"\"/>"),
            Err(MetafileError::OutputTooLarge(10))
        );
    }
}
