//! SVG definitions for the fills and effects SVG has no single primitive for: rectangular
//! gradients (`path="rect"`/`"shape"`), tiled pictures (`a:tile`), preset patterns
//! (`a:pattFill`), duotone recolouring and soft edges. Every length is in slide points, the user unit of a shape's SVG.

use std::fmt::Write as _;

use super::model::{Color, GradientStop, Tile};

/// A number for SVG: at most three decimals, no trailing zeros.
fn n(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let r = (v * 1000.0).round() / 1000.0;
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

/// `#RRGGBB` of a colour, its opacity left out.
fn hex(c: &Color) -> String {
    Color { alpha: 1.0, ..*c }.hex()
}

/// The `<stop>` elements of a gradient, opacity as `stop-opacity`.
pub(super) fn gradient_stops(stops: &[GradientStop]) -> String {
    let mut out = String::new();
    for s in stops {
        let _ = write!(
            out,
            "<stop offset=\"{}\" stop-color=\"{}\"",
            n(s.position),
            hex(&s.color)
        );
        if s.color.alpha < 0.999 {
            let _ = write!(out, " stop-opacity=\"{}\"", n(f64::from(s.color.alpha)));
        }
        out.push_str("/>");
    }
    out
}

/// A rectangular gradient as a `<pattern>` paint named `id`, for a `w` × `h` box: the
/// focus rectangle (`fx0`,`fy0`)–(`fx1`,`fy1`) in points holds the first stop, and each
/// side's band runs to the last stop at the box edge. The bands along the top and bottom
/// are full-width stripes, and the left and right bands are trapezoids drawn over them
/// (and over the focus band), so the diagonal seams fall where both sides have the same
/// colour and do not show. The focus may lie outside the box: bands that do not reach
/// the box are left out, the others are cut at its edges.
///
/// `turn` (degrees clockwise) turns the gradient about the box centre: a shape turned
/// by its transform whose fill must not turn with it (`rotWithShape="0"`) is painted
/// with the opposite turn. The turned box no longer covers the shape, so the pattern
/// cell then reaches `w + h` past each edge, the last stop's colour filling it.
pub(super) fn rect_gradient(
    id: &str,
    stops: &[GradientStop],
    focus: (f64, f64, f64, f64),
    (w, h): (f64, f64),
    turn: f64,
) -> String {
    let (fx0, fy0, fx1, fy1) = focus;
    let stop_elements = gradient_stops(stops);
    let first = stops.first().map(|s| s.color).unwrap_or(Color::rgb(0));
    let last = stops.last().map(|s| s.color).unwrap_or(first);
    let turned = turn.is_finite() && turn.abs() >= 0.01;
    let margin = if turned { w + h } else { 0.0 };
    let mut defs = String::new();
    let mut body = String::new();
    if turned {
        let _ = write!(
            body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}/>",
            n(-margin),
            n(-margin),
            n(w + 2.0 * margin),
            n(h + 2.0 * margin),
            hex(&last),
            opacity(&last)
        );
    }
    // The focus band first: the left and right trapezoids are drawn over it.
    let _ = write!(
        body,
        "<rect y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}/>",
        n(fy0),
        n(w),
        n((fy1 - fy0).max(0.0)),
        hex(&first),
        opacity(&first)
    );
    // One linear gradient per band: from the focus edge (offset 0) to the box edge.
    let mut band = |side: &str, from: (f64, f64), to: (f64, f64), shape: String| {
        let gid = format!("{id}{side}");
        let _ = write!(
            defs,
            "<linearGradient id=\"{gid}\" gradientUnits=\"userSpaceOnUse\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">{stop_elements}</linearGradient>",
            n(from.0),
            n(from.1),
            n(to.0),
            n(to.1)
        );
        let _ = write!(body, "{shape} fill=\"url(#{gid})\"/>");
    };
    const EPS: f64 = 1e-6;
    if fy0 > EPS {
        band(
            "t",
            (0.0, fy0),
            (0.0, 0.0),
            format!("<rect width=\"{}\" height=\"{}\"", n(w), n(fy0)),
        );
    }
    if h - fy1 > EPS {
        band(
            "b",
            (0.0, fy1),
            (0.0, h),
            format!(
                "<rect y=\"{}\" width=\"{}\" height=\"{}\"",
                n(fy1),
                n(w),
                n(h - fy1)
            ),
        );
    }
    if fx0 > EPS {
        band(
            "l",
            (fx0, 0.0),
            (0.0, 0.0),
            format!(
                "<polygon points=\"0,0 {},{} {},{} 0,{}\"",
                n(fx0),
                n(fy0),
                n(fx0),
                n(fy1),
                n(h)
            ),
        );
    }
    if w - fx1 > EPS {
        band(
            "r",
            (fx1, 0.0),
            (w, 0.0),
            format!(
                "<polygon points=\"{},0 {},{} {},{} {},{}\"",
                n(w),
                n(fx1),
                n(fy0),
                n(fx1),
                n(fy1),
                n(w),
                n(h)
            ),
        );
    }
    if !turned {
        return format!(
            "<defs>{defs}<pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" width=\"{}\" height=\"{}\">{body}</pattern></defs>",
            n(w),
            n(h)
        );
    }
    // The cell's viewBox matches its place, so the content keeps the box's own points.
    let (x, y, cw, ch) = (-margin, -margin, w + 2.0 * margin, h + 2.0 * margin);
    let cell = format!(
        "x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
        n(x),
        n(y),
        n(cw),
        n(ch)
    );
    format!(
        "<defs>{defs}<pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" {cell} viewBox=\"{} {} {} {}\" patternTransform=\"rotate({} {} {})\">{body}</pattern></defs>",
        n(x),
        n(y),
        n(cw),
        n(ch),
        n(turn),
        n(w / 2.0),
        n(h / 2.0)
    )
}

fn opacity(c: &Color) -> String {
    if c.alpha < 0.999 {
        format!(" fill-opacity=\"{}\"", n(f64::from(c.alpha)))
    } else {
        String::new()
    }
}

/// A tiled picture as a `<pattern>` paint named `id` over a `w` × `h` box. `image` is
/// the picture's own size in points; `extra` goes on each `<image>` (a filter). A flip
/// makes the pattern cell two tiles wide or high, the second one mirrored.
pub(super) fn tile_pattern(
    id: &str,
    href: &str,
    tile: &Tile,
    image: (f64, f64),
    box_size: (f64, f64),
    extra: &str,
) -> String {
    let tw = (image.0 * tile.scale_x).max(0.01);
    let th = (image.1 * tile.scale_y).max(0.01);
    let (w, h) = box_size;
    // The alignment places one tile at that corner (or edge centre) of the box; the
    // offsets move the whole tiling from there.
    let x = tile.align.0 * (w - tw) + tile.offset_x / super::model::EMU_PER_POINT;
    let y = tile.align.1 * (h - th) + tile.offset_y / super::model::EMU_PER_POINT;
    let cell_w = if tile.flip_x { 2.0 * tw } else { tw };
    let cell_h = if tile.flip_y { 2.0 * th } else { th };
    let mut out = format!(
        "<defs><pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">",
        n(x),
        n(y),
        n(cell_w),
        n(cell_h)
    );
    let mut copy = |mx: bool, my: bool| {
        let transform = if mx || my {
            format!(
                " transform=\"translate({} {}) scale({} {})\"",
                n(if mx { 2.0 * tw } else { 0.0 }),
                n(if my { 2.0 * th } else { 0.0 }),
                if mx { -1 } else { 1 },
                if my { -1 } else { 1 }
            )
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<image href=\"{href}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\"{transform}{extra}/>",
            n(tw),
            n(th)
        );
    };
    copy(false, false);
    if tile.flip_x {
        copy(true, false);
    }
    if tile.flip_y {
        copy(false, true);
    }
    if tile.flip_x && tile.flip_y {
        copy(true, true);
    }
    out.push_str("</pattern></defs>");
    out
}

/// A filter named `id` that redraws a picture in shades between `dark` and `light`
/// (`a:duotone`): its luminance picks the point between the two colours.
pub(super) fn duotone_filter(id: &str, [dark, light]: &[Color; 2]) -> String {
    let channel = |v: u8| f64::from(v) / 255.0;
    // Rec. 709 luma weights in sRGB, as PowerPoint's greyscale uses.
    let luma = "0.2126 0.7152 0.0722 0 0 ";
    format!(
        "<defs><filter id=\"{id}\" color-interpolation-filters=\"sRGB\"><feColorMatrix type=\"matrix\" values=\"{luma}{luma}{luma}0 0 0 1 0\"/><feComponentTransfer><feFuncR type=\"table\" tableValues=\"{} {}\"/><feFuncG type=\"table\" tableValues=\"{} {}\"/><feFuncB type=\"table\" tableValues=\"{} {}\"/></feComponentTransfer></filter></defs>",
        n(channel(dark.r)),
        n(channel(light.r)),
        n(channel(dark.g)),
        n(channel(light.g)),
        n(channel(dark.b)),
        n(channel(light.b)),
    )
}

/// A filter named `id` giving soft edges of `radius` points (`a:softEdge`): the outline
/// is shrunk by half the radius and blurred by the rest, so the shape fades to nothing
/// at its own edge, and the drawing is kept inside that fading alpha.
pub(super) fn soft_edge_filter(id: &str, radius: f64) -> String {
    format!(
        "<defs><filter id=\"{id}\" x=\"0\" y=\"0\" width=\"1\" height=\"1\"><feMorphology in=\"SourceAlpha\" operator=\"erode\" radius=\"{}\"/><feGaussianBlur stdDeviation=\"{}\" result=\"edge\"/><feComposite in=\"SourceGraphic\" in2=\"edge\" operator=\"in\"/></filter></defs>",
        n(radius / 2.0),
        n(radius / 4.0)
    )
}

/// Side of a pattern cell in points: PowerPoint's patterns are 8 × 8 pixel bitmaps,
/// drawn at 96 pixels per inch.
const CELL: f64 = 6.0;

/// The 8 × 8 bitmap of a preset pattern (`a:pattFill prst`), a row a byte, the leftmost
/// pixel in the high bit; `None` for presets drawn as a blend of their two colours
/// (bricks, waves, confetti and the other pictorial ones).
pub(super) fn pattern_bits(preset: &str) -> Option<[u8; 8]> {
    // Lines: which rows (or columns) of the cell are set.
    let rows = |set: &[usize]| {
        let mut out = [0u8; 8];
        for &r in set {
            out[r] = 0xFF;
        }
        out
    };
    let cols = |set: &[usize]| {
        let mask = set.iter().fold(0u8, |m, &c| m | (0x80 >> c));
        [mask; 8]
    };
    // Diagonals: pixel (x, y) is set when `on(x, y)`.
    let grid = |on: &dyn Fn(usize, usize) -> bool| {
        let mut out = [0u8; 8];
        for (y, row) in out.iter_mut().enumerate() {
            for x in 0..8 {
                if on(x, y) {
                    *row |= 0x80 >> x;
                }
            }
        }
        out
    };
    let or = |a: [u8; 8], b: [u8; 8]| {
        let mut out = a;
        for (o, v) in out.iter_mut().zip(b) {
            *o |= v;
        }
        out
    };
    Some(match preset {
        p if p.starts_with("pct") => {
            let pct: usize = p[3..].parse().ok().filter(|v| *v <= 100)?;
            dither(pct)
        }
        "horz" => rows(&[0]),
        "ltHorz" => rows(&[0, 4]),
        "narHorz" => rows(&[0, 2, 4, 6]),
        "dkHorz" => rows(&[0, 1, 4, 5]),
        "vert" => cols(&[0]),
        "ltVert" => cols(&[0, 4]),
        "narVert" => cols(&[0, 2, 4, 6]),
        "dkVert" => cols(&[0, 1, 4, 5]),
        "ltDnDiag" => grid(&|x, y| (x + 8 - y) % 4 == 0),
        "dnDiag" => grid(&|x, y| (x + 8 - y) % 4 < 2),
        "dkDnDiag" => grid(&|x, y| (x + 8 - y) % 4 < 3),
        "wdDnDiag" => grid(&|x, y| (x + 8 - y) % 8 < 3),
        "ltUpDiag" => grid(&|x, y| (x + y) % 4 == 0),
        "upDiag" => grid(&|x, y| (x + y) % 4 < 2),
        "dkUpDiag" => grid(&|x, y| (x + y) % 4 < 3),
        "wdUpDiag" => grid(&|x, y| (x + y) % 8 < 3),
        "cross" | "lgGrid" => or(rows(&[0]), cols(&[0])),
        "smGrid" => or(rows(&[0, 4]), cols(&[0, 4])),
        "diagCross" => grid(&|x, y| (x + 8 - y) % 8 == 0 || (x + y) % 8 == 0),
        "smCheck" => grid(&|x, y| (x / 2 + y / 2) % 2 == 0),
        "lgCheck" => grid(&|x, y| (x / 4 + y / 4) % 2 == 0),
        _ => return None,
    })
}

/// `pct` per cent of an 8 × 8 cell set, spread evenly by an ordered (Bayer) dither.
fn dither(pct: usize) -> [u8; 8] {
    // The 8 × 8 Bayer matrix, built from the 2 × 2 one by the usual recursion.
    let bayer = |x: usize, y: usize| {
        let mut v = 0;
        for bit in 0..3 {
            let (bx, by) = ((x >> bit) & 1, (y >> bit) & 1);
            v |= ((bx ^ by) << 1 | by) << (2 * (2 - bit));
        }
        v
    };
    let set = (pct * 64 + 50) / 100;
    let mut out = [0u8; 8];
    for (y, row) in out.iter_mut().enumerate() {
        for x in 0..8 {
            if bayer(x, y) < set {
                *row |= 0x80 >> x;
            }
        }
    }
    out
}

/// A preset pattern as a `<pattern>` paint named `id`: the background colour, and the
/// set pixels of `bits` in the foreground colour, one 6 pt cell repeated.
pub(super) fn pattern(id: &str, bits: &[u8; 8], foreground: &Color, background: &Color) -> String {
    let px = CELL / 8.0;
    let mut d = String::new();
    for (y, row) in bits.iter().enumerate() {
        for x in 0..8 {
            if row & (0x80 >> x) != 0 {
                let _ = write!(
                    d,
                    "M{} {}h{}v{}h-{}z",
                    n(x as f64 * px),
                    n(y as f64 * px),
                    n(px),
                    n(px),
                    n(px)
                );
            }
        }
    }
    format!(
        "<defs><pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" width=\"{c}\" height=\"{c}\"><rect width=\"{c}\" height=\"{c}\" fill=\"{}\"{}/><path d=\"{d}\" fill=\"{}\"{}/></pattern></defs>",
        hex(background),
        opacity(background),
        hex(foreground),
        opacity(foreground),
        c = n(CELL)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stops() -> Vec<GradientStop> {
        vec![
            GradientStop {
                position: 0.0,
                color: Color::rgb(0xFFFFFF),
            },
            GradientStop {
                position: 1.0,
                color: Color::rgb(0x000000),
            },
        ]
    }

    #[test]
    fn a_centred_rect_gradient_has_four_bands_around_the_focus() {
        let svg = rect_gradient("g1", &stops(), (50.0, 25.0, 50.0, 25.0), (100.0, 50.0), 0.0);
        for side in ["g1t", "g1b", "g1l", "g1r"] {
            assert!(svg.contains(&format!("id=\"{side}\"")), "{side} in {svg}");
        }
        // The top band runs from the focus (y = 25) up to the edge.
        assert!(svg.contains(
            "id=\"g1t\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"25\" x2=\"0\" y2=\"0\""
        ));
        assert!(svg.contains("<polygon points=\"0,0 50,25 50,25 0,50\" fill=\"url(#g1l)\"/>"));
    }

    #[test]
    fn a_corner_focus_draws_only_the_bands_it_has() {
        // Focus at the top-left corner: only the bottom and right bands exist.
        let svg = rect_gradient("g2", &stops(), (0.0, 0.0, 0.0, 0.0), (80.0, 40.0), 0.0);
        assert!(!svg.contains("id=\"g2t\"") && !svg.contains("id=\"g2l\""));
        assert!(svg.contains("id=\"g2b\"") && svg.contains("id=\"g2r\""));
    }

    #[test]
    fn flipped_tiles_double_the_cell_and_mirror_the_copies() {
        let tile = Tile {
            offset_x: 12_700.0,
            offset_y: 0.0,
            scale_x: 0.5,
            scale_y: 0.5,
            flip_x: true,
            flip_y: true,
            align: (0.0, 0.0),
        };
        let svg = tile_pattern("t1", "m.png", &tile, (40.0, 20.0), (100.0, 100.0), "");
        assert!(
            svg.contains("x=\"1\" y=\"0\" width=\"40\" height=\"20\""),
            "{svg}"
        );
        assert_eq!(svg.matches("<image ").count(), 4);
        assert!(svg.contains("translate(40 20) scale(-1 -1)"));
    }

    #[test]
    fn bottom_right_alignment_puts_a_tile_in_that_corner() {
        let tile = Tile {
            offset_x: 0.0,
            offset_y: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            flip_x: false,
            flip_y: false,
            align: (1.0, 1.0),
        };
        let svg = tile_pattern("t2", "m.png", &tile, (30.0, 30.0), (100.0, 50.0), "");
        assert!(
            svg.contains("x=\"70\" y=\"20\" width=\"30\" height=\"30\""),
            "{svg}"
        );
    }

    #[test]
    fn pattern_bitmaps_have_their_density_and_direction() {
        let count = |b: [u8; 8]| b.iter().map(|r| r.count_ones()).sum::<u32>();
        assert_eq!(count(pattern_bits("pct50").unwrap()), 32);
        assert_eq!(count(pattern_bits("pct5").unwrap()), 3);
        assert_eq!(count(pattern_bits("pct100").unwrap()), 64);
        // A dither spreads its pixels: pct50 is a checkerboard.
        assert_eq!(
            pattern_bits("pct50").unwrap(),
            [0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55]
        );
        assert_eq!(
            pattern_bits("ltHorz").unwrap(),
            [0xFF, 0, 0, 0, 0xFF, 0, 0, 0]
        );
        assert_eq!(pattern_bits("ltVert").unwrap(), [0x88; 8]);
        // "\\": down to the right, so the set pixel moves right row by row.
        let dn = pattern_bits("ltDnDiag").unwrap();
        assert_eq!((dn[0], dn[1]), (0x88, 0x44));
        let up = pattern_bits("ltUpDiag").unwrap();
        assert_eq!((up[0], up[1]), (0x88, 0x11));
        assert_eq!(pattern_bits("pct101"), None);
        assert_eq!(pattern_bits("horzBrick"), None);
    }

    #[test]
    fn a_pattern_paints_its_background_then_its_pixels() {
        let svg = pattern(
            "p1",
            &pattern_bits("horz").unwrap(),
            &Color::rgb(0xFF0000),
            &Color::rgb(0x00FF00),
        );
        assert!(
            svg.contains("<rect width=\"6\" height=\"6\" fill=\"#00FF00\"/>"),
            "{svg}"
        );
        assert_eq!(svg.matches('M').count(), 8);
        assert!(svg.contains("M5.25 0h0.75v0.75h-0.75z\" fill=\"#FF0000\""));
    }

    #[test]
    fn duotone_maps_black_and_white_to_its_colours() {
        let f = duotone_filter("d1", &[Color::rgb(0x000080), Color::rgb(0xFF8000)]);
        assert!(
            f.contains("<feFuncR type=\"table\" tableValues=\"0 1\"/>"),
            "{f}"
        );
        assert!(
            f.contains("<feFuncB type=\"table\" tableValues=\"0.502 0\"/>"),
            "{f}"
        );
    }
}
