//! What the painter writes into: palette indices (one byte a pixel) or RGB.
//!
//! A diff frame is a few dozen flat colours plus anti-aliased text, so [`Indexed`] paints
//! palette indices and builds the palette as colours are first needed: the flat colours
//! exactly, and for every (text colour, colour under it) pair actually met a ramp of
//! `levels` coverage steps, and edge coverage of boxes in [`EDGE_STEPS`] steps. Ramps
//! get their own entries while the palette keeps [`FLAT_RESERVE`] free for flat colours;
//! later ramps (rare pairs: text over the anti-aliased edge of a word mark, say) take the
//! nearest colours already there. A quarter of the bytes of RGBA go through painting,
//! filtering and deflate, and the PNG is a palette image. When a frame needs more than 256
//! flat colours the target says so ([`Target::overflowed`]) and the caller paints again
//! with fewer steps or with [`Rgb8`], which blends exactly.

use std::collections::HashMap;

/// An opaque sRGB colour.
pub type Rgb = [u8; 3];

/// Most coverage steps a text ramp may have.
pub const MAX_LEVELS: usize = 32;

/// Palette entries text ramps leave to flat colours (fills, their edges, blends).
pub const FLAT_RESERVE: usize = 64;

/// Palette entries the anti-aliased edges of boxes leave to exact flat colours. Edges
/// past that take the nearest entry: an edge pixel is a blend of two colours that are
/// both in the palette, usually with a text ramp between them (a badge's label over the
/// badge's background), so the nearest entry is close, and a frame of many rounded
/// boxes over several backgrounds (a patch's summary and file headers) stays a palette
/// image instead of falling back to RGB.
pub const EXACT_RESERVE: usize = 32;

/// Steps of the coverage of a box's edge pixels in a palette image.
pub const EDGE_STEPS: f32 = 16.0;

/// `x / 255` rounded to nearest, exact for every `x` up to 255 × 255.
#[inline]
pub fn div255(x: u32) -> u32 {
    let x = x + 128;
    (x + (x >> 8)) >> 8
}

/// `src` over `dst` at opacity `a` (0–255), one channel.
#[inline]
pub fn mix(src: u8, dst: u8, a: u32) -> u8 {
    div255(u32::from(src) * a + u32::from(dst) * (255 - a)) as u8
}

/// `c` at opacity `a` (0–255) over `under`.
#[inline]
pub fn mix_rgb(c: Rgb, under: Rgb, a: u32) -> Rgb {
    [
        mix(c[0], under[0], a),
        mix(c[1], under[1], a),
        mix(c[2], under[2], a),
    ]
}

/// A text colour as the painter blends it: the colour and, per raw glyph coverage, the
/// opacity it is drawn at (the text gamma table times the colour's alpha).
#[derive(Clone)]
pub struct Ink {
    /// The colour.
    pub rgb: Rgb,
    /// Its own opacity, 0–255 (with `rgb`, what makes `opacity`).
    pub alpha: u8,
    /// Opacity 0–255 for each raw coverage 0–255.
    pub opacity: [u8; 256],
}

/// A pixel target. Every method is called with pixels the target made itself.
pub trait Target {
    /// One pixel.
    type Px: Copy + PartialEq + Default;
    /// Bytes per pixel in the PNG (1 for indices, 3 for RGB).
    const BYTES: usize;
    /// The pixel of an opaque colour.
    fn solid(&mut self, c: Rgb) -> Self::Px;
    /// `c` at opacity `a` (1–254) over `under`: a translucent fill, exact.
    fn over(&mut self, under: Self::Px, c: Rgb, a: u8) -> Self::Px;
    /// `c` at opacity `a` (1–254) over `under` in a pixel a shape covers in part (an
    /// anti-aliased edge): a target short of room may give the nearest colour it has.
    fn edge_over(&mut self, under: Self::Px, c: Rgb, a: u8) -> Self::Px {
        self.over(under, c, a)
    }
    /// Registers a text colour for [`Target::glyph_row`]; returns its handle.
    fn ink(&mut self, ink: &Ink) -> usize;
    /// Blends one row of glyph coverage `cov` (raw, 0–255) in ink `ink` over `dst`.
    fn glyph_row(&mut self, dst: &mut [Self::Px], cov: &[u8], ink: usize);
    /// The PNG bytes of a row of pixels.
    fn bytes(row: &[Self::Px]) -> &[u8];
    /// The coverage (0–1) of an edge pixel as this target draws it.
    fn edge(cov: f32) -> f32 {
        cov
    }
    /// Whether a colour had to be approximated (the palette was full).
    fn overflowed(&self) -> bool;
    /// The palette of an indexed target (`None` for RGB).
    fn palette(&self) -> Option<&[Rgb]>;
}

/// A text colour's ramps in an [`Indexed`] target.
struct IndexedInk {
    rgb: Rgb,
    /// Raw coverage → step (0 = untouched … levels − 1 = the colour itself).
    step: [u8; 256],
    /// Palette index under the glyph → its ramp in `ramps` (`u16::MAX`: not built yet).
    ramp_of: Box<[u16; 256]>,
}

/// Palette-index pixels with a palette built on demand (at most 256 colours).
pub struct Indexed {
    palette: Vec<Rgb>,
    lookup: HashMap<Rgb, u8>,
    levels: usize,
    overflow: bool,
    /// Direct-mapped memo of `over`: packed (under, colour, opacity) → result.
    memo: Box<[(u64, u8); MEMO_SLOTS]>,
    inks: Vec<IndexedInk>,
    ink_ids: HashMap<(Rgb, u8), usize>,
    ramps: Vec<[u8; MAX_LEVELS]>,
}

const MEMO_SLOTS: usize = 1024;
/// A memo key no real one equals (real keys use 41 bits).
const NO_KEY: u64 = u64::MAX;

impl Indexed {
    /// An empty target whose text ramps have `levels` steps (2–[`MAX_LEVELS`]), the
    /// untouched pixel and the full colour included.
    pub fn new(levels: usize) -> Indexed {
        Indexed {
            palette: Vec::with_capacity(256),
            lookup: HashMap::with_capacity(256),
            levels: levels.clamp(2, MAX_LEVELS),
            overflow: false,
            memo: Box::new([(NO_KEY, 0); MEMO_SLOTS]),
            inks: Vec::new(),
            ink_ids: HashMap::new(),
            ramps: Vec::new(),
        }
    }

    /// The index of `c`: an existing entry, a new one, or (palette full) the nearest.
    fn index(&mut self, c: Rgb) -> u8 {
        if let Some(&i) = self.lookup.get(&c) {
            return i;
        }
        if self.palette.len() < 256 {
            let i = self.palette.len() as u8;
            self.palette.push(c);
            self.lookup.insert(c, i);
            return i;
        }
        self.overflow = true;
        self.nearest(c)
    }

    /// The entry closest to `c` (an exact one if there is one).
    fn nearest(&self, c: Rgb) -> u8 {
        if let Some(&i) = self.lookup.get(&c) {
            return i;
        }
        let dist = |p: &Rgb| -> u32 {
            p.iter()
                .zip(c)
                .map(|(a, b)| u32::from(a.abs_diff(b)).pow(2))
                .sum()
        };
        (0..self.palette.len())
            .min_by_key(|&i| dist(&self.palette[i]))
            .unwrap_or(0) as u8
    }

    /// `c` at opacity `a` over entry `under`, memoized; an `edge` blend is exact only
    /// while [`EXACT_RESERVE`] entries are left.
    fn blend(&mut self, under: u8, c: Rgb, a: u8, edge: bool) -> u8 {
        let key = u64::from(under)
            | u64::from(c[0]) << 8
            | u64::from(c[1]) << 16
            | u64::from(c[2]) << 24
            | u64::from(a) << 32
            | u64::from(edge) << 40;
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize % MEMO_SLOTS;
        if self.memo[slot].0 == key {
            return self.memo[slot].1;
        }
        let mixed = mix_rgb(c, self.palette[usize::from(under)], u32::from(a));
        let out = if edge && self.palette.len() >= 256 - EXACT_RESERVE {
            self.nearest(mixed)
        } else {
            self.index(mixed)
        };
        self.memo[slot] = (key, out);
        out
    }

    /// The ramp of ink `ink` over palette entry `under`, built on first use.
    fn ramp(&mut self, ink: usize, under: u8) -> usize {
        let at = self.inks[ink].ramp_of[usize::from(under)];
        if at != u16::MAX {
            return usize::from(at);
        }
        let (rgb, base) = (self.inks[ink].rgb, self.palette[usize::from(under)]);
        let mut ramp = [under; MAX_LEVELS];
        let top = (self.levels - 1) as u32;
        let own = self.palette.len() + self.levels - 1 <= 256 - FLAT_RESERVE;
        for (k, slot) in ramp.iter_mut().enumerate().take(self.levels).skip(1) {
            let a = (k as u32 * 255 + top / 2) / top;
            let c = mix_rgb(rgb, base, a);
            // The full step is the ink itself, one entry whatever the background, and it
            // is always exact: a late ink (a keyword colour first met after a patch's
            // summary and badges took the ramp budget) would otherwise be drawn in the
            // nearest colour of another one. With no room left the target overflows and
            // the frame is painted again with fewer steps.
            let exact = own || k == self.levels - 1;
            *slot = if exact {
                self.index(c)
            } else {
                self.nearest(c)
            };
        }
        self.ramps.push(ramp);
        let at = self.ramps.len() - 1;
        self.inks[ink].ramp_of[usize::from(under)] = at as u16;
        at
    }
}

impl Target for Indexed {
    type Px = u8;
    const BYTES: usize = 1;

    fn solid(&mut self, c: Rgb) -> u8 {
        self.index(c)
    }

    fn over(&mut self, under: u8, c: Rgb, a: u8) -> u8 {
        self.blend(under, c, a, false)
    }

    fn edge_over(&mut self, under: u8, c: Rgb, a: u8) -> u8 {
        self.blend(under, c, a, true)
    }

    fn ink(&mut self, ink: &Ink) -> usize {
        let key = (ink.rgb, ink.alpha);
        if let Some(&id) = self.ink_ids.get(&key) {
            return id;
        }
        let top = (self.levels - 1) as u32;
        // The nearest step of each opacity.
        let step = std::array::from_fn(|c| ((u32::from(ink.opacity[c]) * top + 127) / 255) as u8);
        self.inks.push(IndexedInk {
            rgb: ink.rgb,
            step,
            ramp_of: Box::new([u16::MAX; 256]),
        });
        let id = self.inks.len() - 1;
        self.ink_ids.insert(key, id);
        id
    }

    fn glyph_row(&mut self, dst: &mut [u8], cov: &[u8], ink: usize) {
        // The last ramp used: a glyph row nearly always lies on one background.
        let mut last: Option<(u8, usize)> = None;
        for (d, &c) in dst.iter_mut().zip(cov) {
            let step = self.inks[ink].step[usize::from(c)];
            if step == 0 {
                continue;
            }
            let ramp = match last {
                Some((u, r)) if u == *d => r,
                _ => {
                    let r = self.ramp(ink, *d);
                    last = Some((*d, r));
                    r
                }
            };
            *d = self.ramps[ramp][usize::from(step)];
        }
    }

    fn bytes(row: &[u8]) -> &[u8] {
        row
    }

    fn edge(cov: f32) -> f32 {
        (cov * EDGE_STEPS).round() / EDGE_STEPS
    }

    fn overflowed(&self) -> bool {
        self.overflow
    }

    fn palette(&self) -> Option<&[Rgb]> {
        Some(&self.palette)
    }
}

/// RGB pixels, blended exactly: the target of frames with too many colours for a palette.
#[derive(Default)]
pub struct Rgb8 {
    inks: Vec<Ink>,
    ink_ids: HashMap<(Rgb, u8), usize>,
}

impl Target for Rgb8 {
    type Px = Rgb;
    const BYTES: usize = 3;

    fn solid(&mut self, c: Rgb) -> Rgb {
        c
    }

    fn over(&mut self, under: Rgb, c: Rgb, a: u8) -> Rgb {
        mix_rgb(c, under, u32::from(a))
    }

    fn ink(&mut self, ink: &Ink) -> usize {
        if let Some(&id) = self.ink_ids.get(&(ink.rgb, ink.alpha)) {
            return id;
        }
        self.inks.push(ink.clone());
        self.ink_ids
            .insert((ink.rgb, ink.alpha), self.inks.len() - 1);
        self.inks.len() - 1
    }

    fn glyph_row(&mut self, dst: &mut [Rgb], cov: &[u8], ink: usize) {
        let ink = &self.inks[ink];
        for (d, &c) in dst.iter_mut().zip(cov) {
            let a = ink.opacity[usize::from(c)];
            match a {
                0 => {}
                255 => *d = ink.rgb,
                a => *d = mix_rgb(ink.rgb, *d, u32::from(a)),
            }
        }
    }

    fn bytes(row: &[Rgb]) -> &[u8] {
        row.as_flattened()
    }

    fn overflowed(&self) -> bool {
        false
    }

    fn palette(&self) -> Option<&[Rgb]> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_255_rounds_exactly() {
        for x in 0..=255 * 255 {
            assert_eq!(div255(x), (f64::from(x) / 255.0).round() as u32, "{x}");
        }
    }

    fn linear_ink(rgb: Rgb) -> Ink {
        Ink {
            rgb,
            alpha: 255,
            opacity: std::array::from_fn(|i| i as u8),
        }
    }

    #[test]
    fn flat_colours_get_one_entry_each_and_text_ramps_their_steps() {
        let mut t = Indexed::new(5);
        let white = t.solid([255; 3]);
        assert_eq!(white, 0);
        assert_eq!(t.solid([255; 3]), 0, "the same colour is the same entry");
        let ink = t.ink(&linear_ink([0; 3]));
        let mut row = [white; 4];
        t.glyph_row(&mut row, &[0, 255, 128, 20], ink);
        let pal = t.palette().unwrap().to_vec();
        assert_eq!(pal[usize::from(row[0])], [255; 3], "no coverage, untouched");
        assert_eq!(pal[usize::from(row[1])], [0; 3], "full coverage, the ink");
        // 128/255 is nearest to step 2 of 4: half way.
        assert_eq!(pal[usize::from(row[2])], [mix(0, 255, 128); 3]);
        // 20/255 rounds to step 0: untouched.
        assert_eq!(row[3], white);
        // White, black and the three steps between: no more than the ramp needs.
        assert_eq!(pal.len(), 5);
        assert!(!t.overflowed());
    }

    #[test]
    fn a_full_palette_approximates_and_says_so() {
        let mut t = Indexed::new(8);
        for i in 0..=255u8 {
            t.solid([i, 0, 0]);
        }
        assert!(!t.overflowed());
        let near = t.solid([200, 1, 0]);
        assert!(t.overflowed());
        assert_eq!(t.palette().unwrap()[usize::from(near)], [200, 0, 0]);
    }

    #[test]
    fn ramps_past_the_budget_share_the_nearest_colours_and_flat_ones_stay_exact() {
        let mut t = Indexed::new(8);
        let white = t.solid([255; 3]);
        // Many inks on white: the first ramps get entries, later ones reuse them for
        // their partial steps and add only the ink itself.
        for i in 0..50u8 {
            let ink = t.ink(&linear_ink([i * 5, 0, 0]));
            let mut row = [white; 8];
            let cov: Vec<u8> = (0..8).map(|k| (k * 36) as u8).collect();
            t.glyph_row(&mut row, &cov, ink);
        }
        let used = t.palette().unwrap().len();
        assert!(used <= 256 - FLAT_RESERVE + 50, "{used}");
        assert!(!t.overflowed());
        // A flat colour still gets its own entry.
        let flat = t.solid([1, 2, 3]);
        assert_eq!(t.palette().unwrap()[usize::from(flat)], [1, 2, 3]);
        assert!(!t.overflowed());
        // More inks than the palette has room for: it says so (the frame is then painted
        // again with fewer steps, or in RGB).
        for i in 0..100u8 {
            let ink = t.ink(&linear_ink([0, i * 2, 1]));
            let mut row = [white; 8];
            t.glyph_row(&mut row, &[255; 8], ink);
        }
        assert!(t.overflowed());
    }

    #[test]
    fn a_late_ink_keeps_its_own_colour_at_full_coverage() {
        let mut t = Indexed::new(8);
        let white = t.solid([255; 3]);
        // Blues fill the ramp budget; then a pink ink is met.
        for i in 0..40u8 {
            let ink = t.ink(&linear_ink([0, i * 5, 255 - i * 5]));
            let mut row = [white; 8];
            let cov: Vec<u8> = (0..8).map(|k| (k * 36) as u8).collect();
            t.glyph_row(&mut row, &cov, ink);
        }
        assert!(t.palette().unwrap().len() > 256 - FLAT_RESERVE - 8);
        let pink = t.ink(&linear_ink([180, 142, 173]));
        let mut row = [white; 2];
        t.glyph_row(&mut row, &[255, 128], pink);
        let pal = t.palette().unwrap();
        assert_eq!(
            pal[usize::from(row[0])],
            [180, 142, 173],
            "full coverage is exact"
        );
        assert!(!t.overflowed());
    }

    #[test]
    fn edges_take_the_nearest_colour_when_room_is_short_and_fills_stay_exact() {
        let mut t = Indexed::new(8);
        let white = t.solid([255; 3]);
        t.solid([0; 3]);
        // Greys fill the palette up to the reserve of exact colours.
        let mut g = 1u8;
        while t.palette().unwrap().len() < 256 - EXACT_RESERVE {
            t.solid([g, g, 200]);
            g += 1;
        }
        let before = t.palette().unwrap().len();
        // An edge pixel of black over white: no new entry, the nearest one.
        let edge = t.edge_over(white, [0; 3], 100);
        assert_eq!(t.palette().unwrap().len(), before);
        assert!(!t.overflowed());
        let want = mix_rgb([0; 3], [255; 3], 100);
        let got = t.palette().unwrap()[usize::from(edge)];
        assert_eq!(usize::from(t.nearest(want)), usize::from(edge));
        assert_ne!(got, want, "approximated");
        // A translucent fill of the same colours is a flat colour: exact.
        let fill = t.over(white, [0; 3], 100);
        assert_eq!(t.palette().unwrap()[usize::from(fill)], want);
        // With room left an edge is exact.
        let mut roomy = Indexed::new(8);
        let w = roomy.solid([255; 3]);
        let e = roomy.edge_over(w, [0; 3], 100);
        assert_eq!(roomy.palette().unwrap()[usize::from(e)], want);
    }

    #[test]
    fn translucent_colours_blend_over_the_entry_under_them() {
        let mut t = Indexed::new(8);
        let white = t.solid([255; 3]);
        let tint = t.over(white, [0, 0, 0], 128);
        assert_eq!(t.palette().unwrap()[usize::from(tint)], [127; 3]);
        assert_eq!(t.over(white, [0, 0, 0], 128), tint, "memoized");
        let mut rgb = Rgb8::default();
        assert_eq!(rgb.over([255; 3], [0; 3], 128), [127; 3]);
    }
}
