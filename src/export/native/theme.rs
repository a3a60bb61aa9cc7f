//! The colours of the image frame, light and dark: the values of `viewers/diff/diff.css`
//! (its custom properties), so a native image and the viewer's image variant agree.

use crate::diff::options::Theme;

/// A straight (not premultiplied) sRGB colour with alpha.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
    /// Opacity, 0–1.
    pub a: f32,
}

impl Rgba {
    /// An opaque colour from `0xRRGGBB`.
    pub const fn hex(rgb: u32) -> Rgba {
        Rgba {
            r: (rgb >> 16) as u8,
            g: (rgb >> 8) as u8,
            b: rgb as u8,
            a: 1.0,
        }
    }

    /// A colour with opacity, as CSS `rgba()`.
    #[allow(clippy::self_named_constructors)]
    pub const fn rgba(r: u8, g: u8, b: u8, a: f32) -> Rgba {
        Rgba { r, g, b, a }
    }

    /// Fully transparent: drawing it changes nothing.
    pub const CLEAR: Rgba = Rgba::rgba(0, 0, 0, 0.0);

    /// The same colour at `opacity` times its alpha (CSS `opacity` on text).
    pub fn faded(self, opacity: f32) -> Rgba {
        Rgba {
            a: self.a * opacity,
            ..self
        }
    }

    /// Whether drawing it is a no-op.
    pub fn is_clear(self) -> bool {
        self.a <= 0.0
    }
}

/// Every colour the frame uses.
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct Palette {
    pub bg: Rgba,
    pub fg: Rgba,
    pub muted: Rgba,
    pub border: Rgba,
    pub panel: Rgba,
    pub accent: Rgba,
    pub num_fg: Rgba,
    pub add_bg: Rgba,
    pub add_num: Rgba,
    pub add_word: Rgba,
    pub add_strong: Rgba,
    pub del_bg: Rgba,
    pub del_num: Rgba,
    pub del_word: Rgba,
    pub del_strong: Rgba,
    pub gap_bg: Rgba,
    pub gap_fg: Rgba,
    pub empty_bg: Rgba,
    pub hatch: Rgba,
    pub ctl_bg: Rgba,
    pub ctl_fg: Rgba,
    pub badge_mode: Rgba,
    pub badge_rename: Rgba,
    pub block_none: Rgba,
}

const LIGHT: Palette = Palette {
    bg: Rgba::hex(0xffffff),
    fg: Rgba::hex(0x1f2328),
    muted: Rgba::hex(0x59636e),
    border: Rgba::hex(0xd1d9e0),
    panel: Rgba::hex(0xf6f8fa),
    accent: Rgba::hex(0x0969da),
    num_fg: Rgba::hex(0x6e7781),
    add_bg: Rgba::hex(0xe6ffec),
    add_num: Rgba::hex(0xccffd8),
    add_word: Rgba::hex(0xabf2bc),
    add_strong: Rgba::hex(0x1a7f37),
    del_bg: Rgba::hex(0xffebe9),
    del_num: Rgba::hex(0xffd7d5),
    del_word: Rgba::hex(0xffc1bf),
    del_strong: Rgba::hex(0xcf222e),
    gap_bg: Rgba::hex(0xddf4ff),
    gap_fg: Rgba::hex(0x57606a),
    empty_bg: Rgba::hex(0xf6f8fa),
    hatch: Rgba::rgba(208, 215, 222, 0.45),
    ctl_bg: Rgba::hex(0xfff8c5),
    ctl_fg: Rgba::hex(0x9a6700),
    badge_mode: Rgba::hex(0x9a6700),
    badge_rename: Rgba::hex(0x8250df),
    block_none: Rgba::hex(0xd1d9e0),
};

const DARK: Palette = Palette {
    bg: Rgba::hex(0x0d1117),
    fg: Rgba::hex(0xe6edf3),
    muted: Rgba::hex(0x9198a1),
    border: Rgba::hex(0x3d444d),
    panel: Rgba::hex(0x151b23),
    accent: Rgba::hex(0x4493f8),
    num_fg: Rgba::hex(0x7d8590),
    add_bg: Rgba::rgba(46, 160, 67, 0.15),
    add_num: Rgba::rgba(63, 185, 80, 0.3),
    add_word: Rgba::rgba(46, 160, 67, 0.45),
    add_strong: Rgba::hex(0x3fb950),
    del_bg: Rgba::rgba(248, 81, 73, 0.12),
    del_num: Rgba::rgba(248, 81, 73, 0.3),
    del_word: Rgba::rgba(248, 81, 73, 0.45),
    del_strong: Rgba::hex(0xf85149),
    gap_bg: Rgba::rgba(56, 139, 253, 0.12),
    gap_fg: Rgba::hex(0x9198a1),
    empty_bg: Rgba::hex(0x151b23),
    hatch: Rgba::rgba(61, 68, 77, 0.45),
    ctl_bg: Rgba::rgba(187, 128, 9, 0.2),
    ctl_fg: Rgba::hex(0xd29922),
    badge_mode: Rgba::hex(0xd29922),
    badge_rename: Rgba::hex(0xab7df8),
    block_none: Rgba::hex(0x3d444d),
};

impl Palette {
    /// The palette of `theme`; with `background` off, changed lines lose their tint (the
    /// viewer's `data-bg="off"`), word marks and indicators stay.
    pub fn of(theme: Theme, background: bool) -> Palette {
        let mut p = match theme {
            Theme::Light => LIGHT,
            Theme::Dark => DARK,
        };
        if !background {
            p.add_bg = Rgba::CLEAR;
            p.del_bg = Rgba::CLEAR;
            p.add_num = Rgba::CLEAR;
            p.del_num = Rgba::CLEAR;
        }
        p
    }
}
