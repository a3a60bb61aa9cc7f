//! From a font a document names (with what its font table says about it) to a CSS stack:
//! the open family that stands in for it, the name itself, near open families, and the
//! generic family last.
//!
//! Order: a *metric-compatible* open family (Carlito for Calibri, Liberation for Arial …)
//! comes before the document's own name, so every client lays text out with the same
//! advances whether or not it has the Microsoft font; an open family that only looks alike
//! (DejaVu Sans for Verdana, P052 for Palatino) comes after it, so a client that has the
//! real face shows it. Unknown names are classified from `w:family`, `w:pitch`, PANOSE and
//! the character set, in that order of trust.

use std::borrow::Cow;

/// A CSS generic family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generic {
    /// `serif`.
    Serif,
    /// `sans-serif`.
    SansSerif,
    /// `monospace`.
    Monospace,
    /// `cursive`.
    Cursive,
    /// `fantasy`.
    Fantasy,
}

impl Generic {
    /// The CSS keyword.
    pub fn css(self) -> &'static str {
        match self {
            Generic::Serif => "serif",
            Generic::SansSerif => "sans-serif",
            Generic::Monospace => "monospace",
            Generic::Cursive => "cursive",
            Generic::Fantasy => "fantasy",
        }
    }
}

/// `w:family` of a font table entry (ECMA-376 Part 1, 17.18.30 `ST_FontFamily`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontClass {
    /// Proportional with serifs.
    Roman,
    /// Proportional without serifs.
    Swiss,
    /// Fixed pitch.
    Modern,
    /// Handwriting-like.
    Script,
    /// Novelty.
    Decorative,
}

impl FontClass {
    /// Parses `w:family/@w:val`; `auto` and unknown values give `None`.
    pub fn from_ooxml(v: &str) -> Option<FontClass> {
        Some(match v {
            "roman" => FontClass::Roman,
            "swiss" => FontClass::Swiss,
            "modern" => FontClass::Modern,
            "script" => FontClass::Script,
            "decorative" => FontClass::Decorative,
            _ => return None,
        })
    }

    /// The class in the high nibble of a DrawingML `pitchFamily` byte (the Windows
    /// `FF_*` values).
    pub fn from_pitch_family(b: u8) -> Option<FontClass> {
        Some(match b >> 4 {
            1 => FontClass::Roman,
            2 => FontClass::Swiss,
            3 => FontClass::Modern,
            4 => FontClass::Script,
            5 => FontClass::Decorative,
            _ => return None,
        })
    }
}

/// What a document says about a font beside its name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FontHints {
    /// `w:family`.
    pub class: Option<FontClass>,
    /// `w:pitch w:val="fixed"` (or a fixed-pitch `pitchFamily`).
    pub fixed_pitch: bool,
    /// `w:panose1` (10 bytes).
    pub panose: Option<[u8; 10]>,
    /// `w:charset` (a Windows character set number).
    pub charset: Option<u8>,
}

impl FontHints {
    /// Parses a PANOSE hex string (`020F0502020204030204`).
    pub fn parse_panose(hex: &str) -> Option<[u8; 10]> {
        let hex = hex.trim();
        if hex.len() != 20 {
            return None;
        }
        let mut out = [0u8; 10];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(out)
    }

    /// Hints from a DrawingML `pitchFamily` byte and PANOSE string (PPTX).
    pub fn from_drawingml(pitch_family: Option<&str>, panose: Option<&str>) -> FontHints {
        let pf = pitch_family.and_then(|v| v.trim().parse::<u8>().ok());
        FontHints {
            class: pf.and_then(FontClass::from_pitch_family),
            // Low two bits: 1 = FIXED_PITCH.
            fixed_pitch: pf.is_some_and(|b| b & 3 == 1),
            panose: panose.and_then(FontHints::parse_panose),
            charset: None,
        }
    }
}

/// The resolved stack of one font.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontStack {
    /// Families in order: metric twins, the document's name, look-alikes, the class
    /// fallback. Every name is safe inside a single-quoted CSS string.
    pub families: Vec<Cow<'static, str>>,
    /// The generic family, last.
    pub generic: Generic,
}

impl FontStack {
    /// The `font-family` value: `'Carlito','Calibri',sans-serif`.
    pub fn css(&self) -> String {
        let mut out = String::new();
        for f in &self.families {
            out.push('\'');
            out.push_str(f);
            out.push_str("',");
        }
        out.push_str(self.generic.css());
        out
    }

    /// The open families of the stack (every family but the document's own name), which
    /// previewd may serve.
    pub fn open_families<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.families
            .iter()
            .map(|f| f.as_ref())
            .filter(move |f| !f.eq_ignore_ascii_case(name))
    }
}

/// East Asian script of a CJK face, for the Noto CJK region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cjk {
    Jp,
    Sc,
    Tc,
    Kr,
}

impl Cjk {
    fn suffix(self) -> &'static str {
        match self {
            Cjk::Jp => "JP",
            Cjk::Sc => "SC",
            Cjk::Tc => "TC",
            Cjk::Kr => "KR",
        }
    }

    /// From a Windows character set (`SHIFTJIS_CHARSET` 128 …).
    fn from_charset(c: u8) -> Option<Cjk> {
        Some(match c {
            0x80 => Cjk::Jp,
            0x81 | 0x82 => Cjk::Kr,
            0x86 => Cjk::Sc,
            0x88 => Cjk::Tc,
            _ => return None,
        })
    }
}

/// What a known name maps to.
enum Rule {
    /// Metric-compatible open families (placed before the name), then look-alikes.
    Twin(&'static [&'static str], &'static [&'static str], Generic),
    /// Look-alike open families only (placed after the name).
    Alike(&'static [&'static str], Generic),
    /// A CJK face: Noto Serif CJK (`true`) or Noto Sans CJK of the region.
    Cjk(bool, Cjk),
}

const SANS: &[&str] = &["Liberation Sans"];
const SERIF: &[&str] = &["Liberation Serif"];
const MONO: &[&str] = &["Liberation Mono"];

/// Known Office and system fonts (lowercase names, Latin and native spellings).
fn rule(lower: &str) -> Option<Rule> {
    use Generic::*;
    Some(match lower {
        "calibri" | "calibri light" => Rule::Twin(&["Carlito"], SANS, SansSerif),
        "cambria" | "cambria math" => Rule::Twin(&["Caladea"], SERIF, Serif),
        "arial" | "helvetica" | "arial mt" | "helvetica neue" | "arimo" => {
            Rule::Twin(&["Liberation Sans"], &[], SansSerif)
        }
        "arial narrow" => Rule::Twin(&["Liberation Sans Narrow"], SANS, SansSerif),
        "times new roman" | "times" | "tinos" => Rule::Twin(&["Liberation Serif"], &[], Serif),
        "courier new" | "courier" | "cousine" => Rule::Twin(&["Liberation Mono"], &[], Monospace),
        "verdana" | "tahoma" | "dejavu sans" | "bitstream vera sans" => {
            Rule::Alike(&["DejaVu Sans"], SansSerif)
        }
        "consolas" | "lucida console" | "lucida sans typewriter" | "menlo" | "monaco" => {
            Rule::Alike(&["DejaVu Sans Mono", "Liberation Mono"], Monospace)
        }
        "palatino linotype" | "palatino" | "book antiqua" | "palatino lt std" => Rule::Alike(
            &[
                "P052",
                "TeX Gyre Pagella",
                "URW Palladio L",
                "Liberation Serif",
            ],
            Serif,
        ),
        // Gelasio (shipped with previewd, see `catalog::BUILTIN`) is drawn on Georgia's
        // advance widths.
        "georgia" => Rule::Twin(&["Gelasio"], SERIF, Serif),
        "constantia" | "garamond" | "century schoolbook" | "bookman old style" => {
            Rule::Alike(SERIF, Serif)
        }
        "segoe ui"
        | "segoe ui light"
        | "segoe ui semibold"
        | "trebuchet ms"
        | "candara"
        | "corbel"
        | "franklin gothic book"
        | "lucida sans"
        | "lucida sans unicode"
        | "microsoft sans serif"
        | "arial unicode ms" => Rule::Alike(SANS, SansSerif),
        // Century Gothic was drawn on ITC Avant Garde Gothic's advance widths, and URW
        // Gothic (fonts-urw-base35) is the metric clone of Avant Garde: a twin in effect.
        "century gothic" | "itc avant garde gothic" | "avant garde" => {
            Rule::Twin(&["URW Gothic"], SANS, SansSerif)
        }
        // Gillius ADF (fonts-adf-gillius) follows Gill Sans's shapes, not its widths.
        "gill sans mt" | "gill sans" | "gill sans nova" => {
            Rule::Alike(&["Gillius ADF", "Liberation Sans"], SansSerif)
        }
        // Aptos (Office's theme font since 2023) has no open clone; Open Sans
        // (fonts-open-sans) is a humanist sans of similar width and x-height.
        "aptos" | "aptos display" | "aptos narrow" => {
            Rule::Alike(&["Open Sans", "Liberation Sans"], SansSerif)
        }
        "comic sans ms" | "segoe script" | "brush script mt" => Rule::Alike(&[], Cursive),
        "impact" => Rule::Alike(&[], Fantasy),
        "ms mincho"
        | "ms pmincho"
        | "ｍｓ 明朝"
        | "ｍｓ ｐ明朝"
        | "yu mincho"
        | "游明朝"
        | "hiragino mincho pro" => Rule::Cjk(true, Cjk::Jp),
        "ms gothic"
        | "ms pgothic"
        | "ms ui gothic"
        | "ｍｓ ゴシック"
        | "ｍｓ ｐゴシック"
        | "meiryo"
        | "メイリオ"
        | "yu gothic"
        | "游ゴシック"
        | "hiragino kaku gothic pro" => Rule::Cjk(false, Cjk::Jp),
        "simsun" | "nsimsun" | "宋体" | "新宋体" | "fangsong" | "仿宋" | "kaiti" | "楷体" => {
            Rule::Cjk(true, Cjk::Sc)
        }
        "simhei" | "黑体" | "microsoft yahei" | "微软雅黑" | "dengxian" | "等线" => {
            Rule::Cjk(false, Cjk::Sc)
        }
        "mingliu" | "pmingliu" | "細明體" | "新細明體" | "dfkai-sb" | "標楷體" => {
            Rule::Cjk(true, Cjk::Tc)
        }
        "microsoft jhenghei" | "微軟正黑體" => Rule::Cjk(false, Cjk::Tc),
        "batang" | "바탕" | "batangche" | "gungsuh" | "궁서" => Rule::Cjk(true, Cjk::Kr),
        "malgun gothic" | "맑은 고딕" | "gulim" | "굴림" | "dotum" | "돋움" => {
            Rule::Cjk(false, Cjk::Kr)
        }
        _ => return None,
    })
}

/// The generic family of an unknown font, from its hints (then from its name).
fn classify(lower: &str, hints: &FontHints) -> Generic {
    if hints.fixed_pitch {
        return Generic::Monospace;
    }
    match hints.class {
        Some(FontClass::Roman) => return Generic::Serif,
        Some(FontClass::Swiss) => return Generic::SansSerif,
        Some(FontClass::Modern) => return Generic::Monospace,
        Some(FontClass::Script) => return Generic::Cursive,
        Some(FontClass::Decorative) => return Generic::Fantasy,
        None => {}
    }
    if let Some(p) = hints.panose {
        // PANOSE: bFamilyType 2 = Latin text, 3 = hand written, 4 = decorative;
        // bSerifStyle 11–13 are the sans styles; bProportion 9 = monospaced.
        match p[0] {
            2 if p[3] == 9 => return Generic::Monospace,
            2 if (11..=13).contains(&p[1]) => return Generic::SansSerif,
            2 if (2..=10).contains(&p[1]) || p[1] >= 14 => return Generic::Serif,
            3 => return Generic::Cursive,
            4 => return Generic::Fantasy,
            _ => {}
        }
    }
    if lower.contains("mono") || lower.contains("courier") || lower.contains("code") {
        Generic::Monospace
    } else if lower.contains("serif") && !lower.contains("sans") {
        Generic::Serif
    } else {
        Generic::SansSerif
    }
}

/// A font name reduced to what may sit inside a single-quoted CSS string: letters (any
/// script), digits, spaces, `-`, `_` and `.`; `None` when nothing is left.
pub fn safe_name(name: &str) -> Option<String> {
    let safe: String = name
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
        .take(64)
        .collect();
    let safe = safe.trim();
    (!safe.is_empty()).then(|| safe.to_owned())
}

/// Resolves `name` (as the document writes it) with its hints to a stack; `None` when
/// the name has no safe characters.
pub fn resolve(name: &str, hints: &FontHints) -> Option<FontStack> {
    let own = safe_name(name)?;
    let lower = own.to_lowercase();
    if legacy_symbol(&lower) {
        // previewd shows these fonts' characters as the Unicode characters they draw
        // (a Symbol bullet is U+2022), which Unicode faces draw. A machine face under the
        // name lays its glyphs out by the font's own code points: Wine's Symbol draws
        // U+2022 as an infinity sign. It is never named.
        return Some(FontStack {
            // LibreOffice's own symbol face, then one with the arrows, checks and
            // ornaments Wingdings bullets become.
            families: vec![Cow::Borrowed("OpenSymbol"), Cow::Borrowed("DejaVu Sans")],
            generic: Generic::SansSerif,
        });
    }
    let mut families: Vec<Cow<'static, str>> = Vec::with_capacity(4);
    let push = |families: &mut Vec<Cow<'static, str>>, f: &'static str| {
        if !families.iter().any(|g| g.eq_ignore_ascii_case(f)) {
            families.push(Cow::Borrowed(f));
        }
    };
    let generic = match rule(&lower) {
        Some(Rule::Twin(twins, alike, generic)) => {
            for f in twins {
                push(&mut families, f);
            }
            if !families.iter().any(|g| g.eq_ignore_ascii_case(&own)) {
                families.push(Cow::Owned(own));
            }
            for f in alike {
                push(&mut families, f);
            }
            generic
        }
        Some(Rule::Alike(alike, generic)) => {
            families.push(Cow::Owned(own));
            for f in alike {
                push(&mut families, f);
            }
            generic
        }
        Some(Rule::Cjk(serif, region)) => {
            families.push(Cow::Owned(own));
            push(&mut families, noto_cjk(serif, region));
            if serif {
                Generic::Serif
            } else {
                Generic::SansSerif
            }
        }
        None => {
            families.push(Cow::Owned(own));
            let generic = classify(&lower, hints);
            // A CJK character set names the region even when the face is unknown.
            if let Some(region) = hints.charset.and_then(Cjk::from_charset) {
                push(&mut families, noto_cjk(generic == Generic::Serif, region));
            }
            match generic {
                Generic::Serif => push(&mut families, SERIF[0]),
                Generic::Monospace => push(&mut families, MONO[0]),
                Generic::SansSerif => push(&mut families, SANS[0]),
                Generic::Cursive | Generic::Fantasy => {}
            }
            generic
        }
    };
    Some(FontStack { families, generic })
}

/// Whether `name` is one of Office's symbol fonts (Symbol, Wingdings 1–3, Webdings),
/// whose glyphs sit at their own code points (U+F020–U+F0FF, or the Latin letters)
/// rather than at the Unicode characters they show.
pub fn legacy_symbol(name: &str) -> bool {
    let f = name.trim().to_ascii_lowercase();
    f == "symbol" || f.starts_with("wingdings") || f == "webdings"
}

fn noto_cjk(serif: bool, region: Cjk) -> &'static str {
    match (serif, region.suffix()) {
        (true, "JP") => "Noto Serif CJK JP",
        (true, "SC") => "Noto Serif CJK SC",
        (true, "TC") => "Noto Serif CJK TC",
        (true, _) => "Noto Serif CJK KR",
        (false, "JP") => "Noto Sans CJK JP",
        (false, "SC") => "Noto Sans CJK SC",
        (false, "TC") => "Noto Sans CJK TC",
        (false, _) => "Noto Sans CJK KR",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(name: &str, hints: FontHints) -> String {
        resolve(name, &hints).expect("a safe name").css()
    }

    #[test]
    fn metric_twins_come_first() {
        assert_eq!(
            stack("Calibri", FontHints::default()),
            "'Carlito','Calibri','Liberation Sans',sans-serif"
        );
        assert_eq!(
            stack("Cambria", FontHints::default()),
            "'Caladea','Cambria','Liberation Serif',serif"
        );
        assert_eq!(
            stack("Arial", FontHints::default()),
            "'Liberation Sans','Arial',sans-serif"
        );
        assert_eq!(
            stack("Times New Roman", FontHints::default()),
            "'Liberation Serif','Times New Roman',serif"
        );
        assert_eq!(
            stack("Courier New", FontHints::default()),
            "'Liberation Mono','Courier New',monospace"
        );
    }

    #[test]
    fn look_alikes_follow_the_name() {
        assert_eq!(
            stack("Verdana", FontHints::default()),
            "'Verdana','DejaVu Sans',sans-serif"
        );
        let palatino = resolve("Palatino Linotype", &FontHints::default()).unwrap();
        assert_eq!(palatino.generic, Generic::Serif);
        assert_eq!(palatino.families[0], "Palatino Linotype");
        assert!(palatino.families.iter().any(|f| f == "Liberation Serif"));
    }

    /// The fidelity pipeline's fair reference gives LibreOffice previewd's stand-ins: each
    /// alias of `benches/fidelity/reference-fonts.conf` must name the first open family
    /// of the resolver's stack for that face, or the two sides draw different fonts.
    #[test]
    fn the_fair_reference_aliases_match_the_resolver() {
        let conf = include_str!("../../../benches/fidelity/reference-fonts.conf");
        let family = |s: &str| -> Option<String> {
            let from = s.find("<family>")? + "<family>".len();
            let to = from + s[from..].find("</family>")?;
            Some(s[from..to].to_owned())
        };
        let mut checked = 0;
        for line in conf.lines().filter(|l| l.contains("<alias")) {
            let name = family(line).expect("alias family");
            let prefer = &line[line.find("<prefer>").expect("prefer")..];
            let stand_in = family(prefer).expect("preferred family");
            let stack = resolve(&name, &FontHints::default()).expect("known face");
            let first_open = stack.open_families(&name).next();
            assert_eq!(first_open, Some(stand_in.as_str()), "{name}");
            checked += 1;
        }
        assert!(checked >= 10, "{checked} aliases");
        // Tahoma needs no alias: Wine's face has its name, from the folder the file adds.
        assert!(conf.contains("<dir>/usr/share/wine/fonts</dir>"));
    }

    #[test]
    fn office_theme_faces_have_open_stand_ins() {
        assert_eq!(
            stack("Century Gothic", FontHints::default()),
            "'URW Gothic','Century Gothic','Liberation Sans',sans-serif"
        );
        assert_eq!(
            stack("Gill Sans MT", FontHints::default()),
            "'Gill Sans MT','Gillius ADF','Liberation Sans',sans-serif"
        );
        assert_eq!(
            stack("Aptos", FontHints::default()),
            "'Aptos','Open Sans','Liberation Sans',sans-serif"
        );
        // Georgia's metric twin comes first: previewd ships it.
        assert_eq!(
            stack("Georgia", FontHints::default()),
            "'Gelasio','Georgia','Liberation Serif',serif"
        );
    }

    /// Office's symbol fonts are never named: their characters reach the page as the
    /// Unicode they show, which a face under their name (Wine's Symbol) draws as other
    /// glyphs.
    #[test]
    fn symbol_fonts_resolve_to_unicode_faces_only() {
        for name in ["Symbol", "Wingdings", "Wingdings 2", "Webdings", " symbol "] {
            assert_eq!(
                stack(name, FontHints::default()),
                "'OpenSymbol','DejaVu Sans',sans-serif",
                "{name}"
            );
        }
        assert!(legacy_symbol("Wingdings 3"));
        assert!(!legacy_symbol("Segoe UI Symbol"));
        assert!(!legacy_symbol("MS Gothic"));
    }

    #[test]
    fn east_asian_faces_get_noto_cjk_of_their_region() {
        assert_eq!(
            stack("MS Mincho", FontHints::default()),
            "'MS Mincho','Noto Serif CJK JP',serif"
        );
        assert_eq!(
            stack("ＭＳ 明朝", FontHints::default()),
            "'ＭＳ 明朝','Noto Serif CJK JP',serif"
        );
        assert_eq!(
            stack("SimHei", FontHints::default()),
            "'SimHei','Noto Sans CJK SC',sans-serif"
        );
        // An unknown face with a Big5 character set and serifs.
        let hints = FontHints {
            class: Some(FontClass::Roman),
            charset: Some(0x88),
            ..FontHints::default()
        };
        assert_eq!(
            stack("Some Ming", hints),
            "'Some Ming','Noto Serif CJK TC','Liberation Serif',serif"
        );
    }

    #[test]
    fn unknown_fonts_follow_their_font_table_entry() {
        let roman = FontHints {
            class: Some(FontClass::from_ooxml("roman").unwrap()),
            ..FontHints::default()
        };
        assert_eq!(
            stack("Frobnitz Text", roman),
            "'Frobnitz Text','Liberation Serif',serif"
        );
        // Fixed pitch wins over the class (Word writes `roman` for Consolas-like faces).
        let fixed = FontHints {
            class: Some(FontClass::Roman),
            fixed_pitch: true,
            ..FontHints::default()
        };
        assert_eq!(
            stack("Frobnitz Code", fixed),
            "'Frobnitz Code','Liberation Mono',monospace"
        );
        let panose_sans = FontHints {
            panose: FontHints::parse_panose("020B0604020202020204"),
            ..FontHints::default()
        };
        assert_eq!(
            resolve("Zed", &panose_sans).unwrap().generic,
            Generic::SansSerif
        );
        let panose_serif = FontHints {
            panose: FontHints::parse_panose("02020603050405020304"),
            ..FontHints::default()
        };
        assert_eq!(
            resolve("Zed", &panose_serif).unwrap().generic,
            Generic::Serif
        );
        let drawingml = FontHints::from_drawingml(Some("49"), None);
        assert_eq!(
            resolve("Zed", &drawingml).unwrap().generic,
            Generic::Monospace
        );
        assert_eq!(
            FontHints::from_drawingml(Some("18"), None).class,
            Some(FontClass::Roman)
        );
    }

    #[test]
    fn names_cannot_escape_css() {
        assert_eq!(
            stack("x';background:url(evil)", FontHints::default()),
            "'xbackgroundurlevil','Liberation Sans',sans-serif"
        );
        assert_eq!(resolve("';", &FontHints::default()), None);
    }
}
