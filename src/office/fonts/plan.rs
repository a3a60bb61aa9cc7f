//! The fonts of one rendered document: the CSS stack of every font it names and the
//! `@font-face` rules that make previewd serve the open families of those stacks (and the
//! faces the document embeds).
//!
//! A rule declares a family under its own name with `local()` first, so a client that has
//! the font installed uses it, then previewd's URL, so every other client gets the same
//! file. Browsers fetch a declared face only when text uses it. The PPTX stylesheet's
//! `pptx-calibri` family (Carlito with Office's line metrics) gets a served source too.
//!
//! Every machine face is declared with its own line metrics ([`LineMetrics`]) as
//! overrides, so a browser places each line's baseline where Office does; a page without a
//! server declares the same faces with `local()` sources alone for that reason.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

use super::advance::Advances;
use super::catalog::{FontCatalog, LineMetrics};
use super::embedded::DocumentFonts;
use super::resolve::{legacy_symbol, resolve, safe_name, FontHints};

/// The machine face that draws the scripts a declared family lacks (Hebrew, Arabic), as
/// LibreOffice falls back to it: declared under that family's name for those characters
/// only, so that a bold run is drawn in its bold face (the browser's own fallback drew
/// Hebrew headings in a regular face with a faint synthetic bold) and every client gets
/// the same, served face.
pub const SCRIPT_FALLBACK: &str = "DejaVu Sans";
/// Hebrew and its presentation forms.
const HEBREW: &str = "U+0590-05FF,U+FB1D-FB4F";
/// Arabic, its supplements and presentation forms.
const ARABIC: &str = "U+0600-06FF,U+0750-077F,U+08A0-08FF,U+FB50-FDFF,U+FE70-FEFF";

/// Where the faces of a plan come from.
#[derive(Debug, Clone, Copy)]
pub struct FontSources<'a> {
    /// The machine's fonts; `None`: the stacks name them and nothing is declared.
    pub machine: Option<MachineFonts<'a>>,
    /// URL prefix of the document's embedded faces (`{prefix}{index}`), or `None`.
    pub embedded: Option<&'a str>,
    /// `data:` URLs of embedded faces by index (standalone pages); win over `embedded`.
    pub embedded_urls: &'a HashMap<usize, String>,
    /// Declare the PPTX stylesheet's `pptx-calibri` faces with a served Carlito.
    pub pptx_calibri: bool,
}

/// The machine's fonts as one page declares them.
#[derive(Debug, Clone, Copy)]
pub struct MachineFonts<'a> {
    /// The catalogued faces.
    pub catalog: &'a FontCatalog,
    /// The URL prefix the faces are served under (`{prefix}{id}`); `None` for a page
    /// without a server, which declares them with `local()` sources only (for their line
    /// metrics: the reader's browser finds the same files when it has them).
    pub url_prefix: Option<&'a str>,
}

/// Stacks and face rules of one document.
#[derive(Debug, Clone, Default)]
pub struct FontPlan {
    /// Stack by the name as the document writes it.
    stacks: HashMap<String, String>,
    /// The `@font-face` rules.
    faces: String,
    /// Line metrics of the machine face each named font is drawn in (the first family of
    /// its stack the machine has), by the name as the document writes it.
    metrics: HashMap<String, LineMetrics>,
    /// Line metrics of Carlito, the face of text that names none.
    default_metrics: Option<LineMetrics>,
    /// Advance widths of the regular and bold machine faces each named font is drawn in,
    /// by the name as the document writes it (the faces `metrics` comes from).
    advances: HashMap<String, FaceWidths>,
    /// Advance widths of Carlito's regular and bold faces.
    default_advances: FaceWidths,
}

/// The advance widths of a family's regular and bold faces.
type FaceWidths = [Option<Advances>; 2];

impl FontPlan {
    /// Builds the plan of a document from its fonts.
    pub fn new(fonts: &DocumentFonts, sources: &FontSources<'_>) -> FontPlan {
        let mut plan = FontPlan::default();
        let mut declared: Vec<String> = Vec::new();
        // Embedded faces first: the document's own font wins over any stand-in.
        let mut embedded_families: Vec<String> = Vec::new();
        for (i, face) in fonts.embedded.iter().enumerate() {
            let Some(family) = safe_name(&face.family) else {
                continue;
            };
            let url = match (sources.embedded_urls.get(&i), sources.embedded) {
                (Some(url), _) => url.clone(),
                (None, Some(prefix)) => format!("{prefix}{i}"),
                (None, None) => continue,
            };
            let _ = write!(
                plan.faces,
                "@font-face{{font-family:'{family}';src:url({url});font-weight:{};font-style:{};font-display:swap}}",
                if face.bold { 700 } else { 400 },
                if face.italic { "italic" } else { "normal" },
            );
            if !embedded_families.contains(&family) {
                embedded_families.push(family);
            }
        }
        for named in &fonts.named {
            plan.add(&named.name, &named.hints, &embedded_families);
        }
        let Some(machine) = sources.machine else {
            return plan;
        };
        let catalog = machine.catalog;
        let regular = |family: &str| catalog.family_faces(family).first().and_then(|f| f.metrics);
        let widths = |family: &str| -> FaceWidths {
            let faces = catalog.family_faces(family);
            let regular = faces.first().map(|f| f.advances.clone());
            let bold = faces
                .iter()
                .find(|f| f.weight >= 600 && !f.italic)
                .map(|f| f.advances.clone());
            [regular, bold]
        };
        plan.default_metrics = regular("Carlito");
        plan.default_advances = widths("Carlito");
        for named in &fonts.named {
            if embedded_families.contains(&named.name) {
                continue;
            }
            let stack = resolve(&named.name, &named.hints);
            let mut candidates: Vec<String> = safe_name(&named.name)
                .filter(|_| !legacy_symbol(&named.name))
                .into_iter()
                .collect();
            if let Some(stack) = &stack {
                candidates.extend(stack.open_families(&named.name).map(str::to_owned));
            }
            if let Some((family, m)) = candidates
                .iter()
                .find_map(|f| regular(f).map(|m| (f.as_str(), m)))
            {
                plan.metrics.insert(named.name.clone(), m);
                plan.advances.insert(named.name.clone(), widths(family));
            }
        }
        let mut families: Vec<String> = Vec::new();
        for named in &fonts.named {
            // A machine face under the document's own name (Wine's Tahoma) is served
            // too: the stack names it first, and a client without it would fall back.
            if let Some(own) = safe_name(&named.name).filter(|_| !legacy_symbol(&named.name)) {
                if !families.contains(&own) && !catalog.family_faces(&own).is_empty() {
                    families.push(own);
                }
            }
            if let Some(stack) = resolve(&named.name, &named.hints) {
                for f in stack.open_families(&named.name) {
                    if !families.iter().any(|g| g == f) {
                        families.push(f.to_owned());
                    }
                }
            }
        }
        // The stylesheets' default stacks name these whatever the font table says.
        for f in ["Carlito", "Liberation Sans", "Liberation Serif"] {
            if !families.iter().any(|g| g == f) {
                families.push(f.to_owned());
            }
        }
        for family in families {
            if embedded_families.contains(&family) || declared.contains(&family) {
                continue;
            }
            plan.declare(&machine, &family, &family);
            declared.push(family);
        }
        if sources.pptx_calibri {
            // Carlito's own win metrics are Calibri's: the stylesheet's overrides.
            plan.declare(&machine, "Carlito", "pptx-calibri");
        }
        plan
    }

    fn add(&mut self, name: &str, hints: &FontHints, embedded: &[String]) {
        let Some(mut stack) = resolve(name, hints) else {
            return;
        };
        // An embedded face is the real font: it goes first.
        if let Some(own) = safe_name(name).filter(|n| embedded.contains(n)) {
            stack.families.retain(|f| *f != own);
            stack.families.insert(0, Cow::Owned(own));
        }
        self.stacks.insert(name.to_owned(), stack.css());
    }

    /// Declares the faces of the machine's `family` as `as_family`, each with its own line
    /// metrics, and for the scripts the family lacks, [`SCRIPT_FALLBACK`]'s faces under the
    /// same name for those scripts' characters alone.
    fn declare(&mut self, machine: &MachineFonts<'_>, family: &str, as_family: &str) {
        self.declare_faces(machine, family, as_family, None);
        if family == SCRIPT_FALLBACK {
            return;
        }
        let scripts = |f: &str| machine.catalog.family_faces(f).first().map(|f| f.scripts);
        let (Some(own), Some(fallback)) = (scripts(family), scripts(SCRIPT_FALLBACK)) else {
            return;
        };
        let mut ranges: Vec<&str> = Vec::new();
        if !own.hebrew && fallback.hebrew {
            ranges.push(HEBREW);
        }
        if !own.arabic && fallback.arabic {
            ranges.push(ARABIC);
        }
        if !ranges.is_empty() {
            // Only the styles the family has: a browser picks a family's faces by style
            // first, so a borrowed italic face would make every italic run of a family
            // without one (Wine's Tahoma) skip the family and fall to the next in its
            // stack; without it, the family's upright face is slanted, as Office does.
            let styles: Vec<(bool, bool)> = machine
                .catalog
                .family_faces(family)
                .iter()
                .map(|f| (f.weight >= 600, f.italic))
                .collect();
            let range = ranges.join(",");
            self.declare_faces(machine, SCRIPT_FALLBACK, as_family, Some((&range, &styles)));
        }
    }

    /// Declares the faces of the machine's `family` as `as_family`; with `borrowed`, for
    /// its characters alone and only the faces of its styles (bold, italic).
    fn declare_faces(
        &mut self,
        machine: &MachineFonts<'_>,
        family: &str,
        as_family: &str,
        borrowed: Option<(&str, &[(bool, bool)])>,
    ) {
        for face in machine.catalog.family_faces(family) {
            if let Some((_, styles)) = borrowed {
                if !styles.contains(&(face.weight >= 600, face.italic)) {
                    continue;
                }
            }
            let local = safe_name(&face.local_name).unwrap_or_default();
            let _ = write!(
                self.faces,
                "@font-face{{font-family:'{as_family}';src:local('{local}')"
            );
            if let Some(prefix) = machine.url_prefix {
                let _ = write!(self.faces, ",url({prefix}{})", face.id);
            }
            let _ = write!(
                self.faces,
                ";font-weight:{w};font-style:{s};font-display:swap",
                w = if face.weight >= 600 { 700 } else { 400 },
                s = if face.italic { "italic" } else { "normal" },
            );
            if let Some(metrics) = face.metrics.as_ref().map(LineMetrics::css) {
                let _ = write!(self.faces, ";{metrics}");
            }
            if let Some((range, _)) = borrowed {
                let _ = write!(self.faces, ";unicode-range:{range}");
            }
            self.faces.push('}');
        }
    }

    /// The `font-family` value for `name`: the planned stack, else the name resolved on
    /// its own; `None` when the name has no safe characters.
    pub fn stack<'p>(&'p self, name: &str) -> Option<Cow<'p, str>> {
        match self.stacks.get(name) {
            Some(s) => Some(Cow::Borrowed(s.as_str())),
            None => resolve(name, &FontHints::default()).map(|s| Cow::Owned(s.css())),
        }
    }

    /// The line metrics of the face text in font `name` is drawn in (`None`: the stage's
    /// default face), when the machine has it and the document embeds no face of that
    /// name.
    pub fn line_metrics(&self, name: Option<&str>) -> Option<LineMetrics> {
        match name {
            Some(name) => self.metrics.get(name).copied(),
            None => self.default_metrics,
        }
    }

    /// The width in em of `text` set in font `name` (`None`: the stage's default face),
    /// bold or not, in the machine face the page draws it in; `None` when the machine
    /// has no such face (a bold run in a family without a bold face is measured in its
    /// regular face, which the browser emboldens without widening).
    pub fn text_width_em(&self, name: Option<&str>, bold: bool, text: &str) -> Option<f64> {
        let faces = match name {
            Some(name) => self.advances.get(name)?,
            None => &self.default_advances,
        };
        let face = if bold { faces[1].as_ref() } else { None };
        face.or(faces[0].as_ref())?.width_em(text)
    }

    /// The `@font-face` rules (empty when nothing is served).
    pub fn face_rules(&self) -> &str {
        &self.faces
    }

    /// The rules as a `<style>` element, or nothing.
    pub fn style_element(&self) -> String {
        if self.faces.is_empty() {
            String::new()
        } else {
            format!("<style>{}</style>", self.faces)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::embedded::{EmbeddedFont, NamedFont, Storage};
    use super::*;
    use std::path::PathBuf;

    fn named(name: &str) -> NamedFont {
        NamedFont {
            name: name.into(),
            hints: FontHints::default(),
        }
    }

    #[test]
    fn served_faces_point_at_previewd_and_embedded_fonts_win() {
        let catalog = FontCatalog::scan(&[PathBuf::from("/usr/share/fonts")], 64 << 20);
        let fonts = DocumentFonts {
            named: vec![named("Calibri"), named("Verdana"), named("Fancy")],
            embedded: vec![EmbeddedFont {
                family: "Fancy".into(),
                bold: false,
                italic: false,
                part: "word/fonts/font1.odttf".into(),
                storage: Storage::Plain,
            }],
        };
        let plan = FontPlan::new(
            &fonts,
            &FontSources {
                machine: Some(MachineFonts {
                    catalog: &catalog,
                    url_prefix: Some("../../../fonts/"),
                }),
                embedded: Some("font/"),
                embedded_urls: &HashMap::new(),
                pptx_calibri: true,
            },
        );
        let css = plan.face_rules();
        let carlito = &catalog.family_faces("Carlito")[0];
        assert!(
            css.contains(&format!("font-family:'Carlito';src:local('{}'),url(../../../fonts/{});font-weight:400;font-style:normal", carlito.local_name, carlito.id)),
            "{css}"
        );
        assert!(css.contains("font-family:'DejaVu Sans';"), "{css}");
        assert!(css.contains("font-family:'pptx-calibri';"), "{css}");
        assert!(
            css.contains("font-family:'Fancy';src:url(font/0);"),
            "{css}"
        );
        assert!(!css.contains("/usr/"), "no host path: {css}");
        assert_eq!(
            plan.stack("Fancy").unwrap(),
            "'Fancy','Liberation Sans',sans-serif"
        );
        assert_eq!(
            plan.stack("Verdana").unwrap(),
            "'Verdana','DejaVu Sans',sans-serif"
        );
        // Not in the font table: resolved by its name alone.
        assert_eq!(
            plan.stack("Cambria").unwrap(),
            "'Caladea','Cambria','Liberation Serif',serif"
        );
        assert!(FontPlan::default().style_element().is_empty());
        // Line metrics follow the face each name is drawn in: Calibri's and the default
        // face's are Carlito's, Verdana's DejaVu Sans's; an embedded face's are unknown.
        let of = |family: &str| catalog.family_faces(family)[0].metrics;
        assert_eq!(plan.line_metrics(Some("Calibri")), of("Carlito"));
        assert_eq!(plan.line_metrics(None), of("Carlito"));
        assert_eq!(plan.line_metrics(Some("Verdana")), of("DejaVu Sans"));
        assert_eq!(plan.line_metrics(Some("Fancy")), None);
        assert_eq!(FontPlan::default().line_metrics(None), None);
    }

    /// A declared family without Hebrew or Arabic (Liberation Serif, by its OS/2 ranges)
    /// gets DejaVu Sans's faces under its own name for those scripts alone; DejaVu Sans,
    /// which has them, gets no such rule.
    #[test]
    fn families_without_hebrew_or_arabic_borrow_the_fallbacks_faces_for_them() {
        let catalog = FontCatalog::scan(&crate::config::FontsConfig::default().dirs, 64 << 20);
        let serif = catalog.family_faces("Liberation Serif");
        let dejavu = catalog.family_faces(SCRIPT_FALLBACK);
        assert!(!serif.is_empty() && !dejavu.is_empty(), "the test fonts");
        assert!(!serif[0].scripts.hebrew);
        assert!(dejavu[0].scripts.hebrew && dejavu[0].scripts.arabic);
        let plan = served_plan(&catalog, &["Times New Roman", "Verdana"]);
        let faces = plan.face_rules();
        let borrowed: Vec<&str> = faces
            .split('}')
            .filter(|r| r.contains("unicode-range:"))
            .collect();
        assert!(
            borrowed.iter().any(|r| r
                .contains("font-family:'Liberation Serif';src:local('DejaVuSans-Bold')")
                && r.contains("font-weight:700")
                && r.contains("unicode-range:U+0590-05FF")),
            "{faces}"
        );
        assert!(
            !borrowed
                .iter()
                .any(|r| r.contains("font-family:'DejaVu Sans'")),
            "{faces}"
        );
    }

    /// The plan of a document naming `names`, with `catalog`'s faces served under
    /// `/fonts/`.
    fn served_plan(catalog: &FontCatalog, names: &[&str]) -> FontPlan {
        let fonts = DocumentFonts {
            named: names.iter().map(|n| named(n)).collect(),
            embedded: Vec::new(),
        };
        FontPlan::new(
            &fonts,
            &FontSources {
                machine: Some(MachineFonts {
                    catalog,
                    url_prefix: Some("/fonts/"),
                }),
                embedded: None,
                embedded_urls: &HashMap::new(),
                pptx_calibri: false,
            },
        )
    }

    /// A machine font with the document's own name (Wine's Tahoma, from fonts-wine, in
    /// the default `fonts.dirs`) is served under that name, so a client without it still
    /// lays the text out with it.
    #[test]
    fn a_machine_face_with_the_documents_own_name_is_served() {
        let catalog = FontCatalog::scan(&crate::config::FontsConfig::default().dirs, 64 << 20);
        let tahoma = catalog.family_faces("Tahoma");
        let face = tahoma.first().expect("scripts/test.sh installs fonts-wine");
        let plan = served_plan(&catalog, &["Tahoma"]);
        let css = plan.face_rules();
        assert!(
            css.contains(&format!(
                "font-family:'Tahoma';src:local('{}'),url(/fonts/{});",
                face.local_name, face.id
            )),
            "{css}"
        );
        assert_eq!(
            plan.stack("Tahoma").unwrap(),
            "'Tahoma','DejaVu Sans',sans-serif"
        );
        // It has no italic face, so it borrows none for Hebrew either: an italic face
        // under its name would send every italic Latin run to the stack's next family.
        assert!(tahoma.iter().all(|f| !f.italic));
        let tahoma_rules: Vec<&str> = css
            .split('}')
            .filter(|r| r.contains("font-family:'Tahoma'"))
            .collect();
        assert!(
            tahoma_rules.iter().any(|r| r.contains("unicode-range:")),
            "{css}"
        );
        assert!(
            !tahoma_rules.iter().any(|r| r.contains("font-style:italic")),
            "{css}"
        );
    }

    /// Wine's Symbol (fonts-wine, in the default `fonts.dirs`) lays its glyphs out by
    /// Symbol's own code points (U+2022 is an infinity sign there): a document naming
    /// Symbol gets no face under that name, and its text (already Unicode) is drawn by
    /// Unicode faces.
    #[test]
    fn a_machine_symbol_font_is_never_served() {
        let catalog = FontCatalog::scan(&crate::config::FontsConfig::default().dirs, 64 << 20);
        assert!(
            !catalog.family_faces("Symbol").is_empty(),
            "scripts/test.sh installs fonts-wine, which has a Symbol"
        );
        let plan = served_plan(&catalog, &["Symbol", "Wingdings"]);
        let css = plan.face_rules();
        assert!(!css.contains("font-family:'Symbol'"), "{css}");
        assert!(!css.contains("font-family:'Wingdings'"), "{css}");
        assert!(css.contains("font-family:'DejaVu Sans'"), "{css}");
        assert_eq!(
            plan.stack("Symbol").unwrap(),
            "'OpenSymbol','DejaVu Sans',sans-serif"
        );
    }
}
