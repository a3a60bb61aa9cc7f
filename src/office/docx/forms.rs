//! Check boxes and legacy form fields (issue #15).
//!
//! - A content control with `w14:checkbox` shows the symbol of its state
//!   (`w14:checkedState`/`w14:uncheckedState`: a code point and a font), not whatever glyph
//!   was cached in its content, as Word redraws it from the state.
//! - A legacy form field is a complex field whose `begin` carries `w:ffData`:
//!   `FORMCHECKBOX` has no result and Word draws a box (checked by `w:checked`, else by
//!   `w:default`) at `w:size`; `FORMTEXT` shows its result; `FORMDROPDOWN` shows the entry
//!   that `w:result` (else `w:default`) selects.
//!
//! Word shades form fields on screen unless the document turns that off
//! (`w:doNotShadeFormData` in settings); the shading is light grey behind the field's text.

use serde::Serialize;

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::{Color, Inline, RunFormat};
use super::props::{on_off, val};

/// A check box in the text, with the symbol its state shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckBox {
    /// Checked.
    pub checked: bool,
    /// The symbol shown, as Unicode (a symbol font's code mapped to its Unicode look-alike).
    pub text: String,
    /// The font the state names (`w14:font`; MS Gothic by default), as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    /// A legacy form field (`FORMCHECKBOX`) rather than a content control.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub form_field: bool,
    /// Formatting of the symbol (its font, size and form-field shading already applied).
    pub format: RunFormat,
}

/// One state of a content-control check box: its symbol and the font it is drawn in.
#[derive(Debug, Clone)]
struct State {
    code: u32,
    font: String,
}

/// A content-control check box waiting for the glyph its content caches (which it
/// replaces).
#[derive(Debug, Clone)]
pub(super) struct PendingCheckBox {
    checked: bool,
    state: State,
}

/// The check box of a content control's properties (`w:sdtPr`), if it is one.
pub(super) fn content_control(sdt_pr: Element<'_>) -> Option<PendingCheckBox> {
    let cb = sdt_pr.child(Ns::W14, "checkbox")?;
    let checked = cb
        .child(Ns::W14, "checked")
        .and_then(|c| c.attr(Ns::W14, "val"))
        .is_some_and(|v| matches!(v, "1" | "true" | "on"));
    // Word's defaults: U+2612 ☒ and U+2610 ☐ in MS Gothic.
    let (name, default) = if checked {
        ("checkedState", 0x2612)
    } else {
        ("uncheckedState", 0x2610)
    };
    let el = cb.child(Ns::W14, name);
    let code = el
        .and_then(|s| s.attr(Ns::W14, "val"))
        .and_then(|v| u32::from_str_radix(v.trim(), 16).ok())
        .unwrap_or(default);
    let font = el
        .and_then(|s| s.attr(Ns::W14, "font"))
        .unwrap_or("MS Gothic")
        .to_owned();
    Some(PendingCheckBox {
        checked,
        state: State { code, font },
    })
}

impl PendingCheckBox {
    /// The check box, in `format` (the run that held the cached glyph).
    pub(super) fn inline(&self, format: &RunFormat) -> Inline {
        check_box(
            self.checked,
            self.state.code,
            &self.state.font,
            false,
            format.clone(),
        )
    }
}

/// What the `w:ffData` of a field's `begin` says about the form field.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum FormData {
    /// `FORMCHECKBOX`: its state and its size in points (`None`: the run's size).
    CheckBox { checked: bool, size: Option<f32> },
    /// `FORMDROPDOWN`: the selected entry's text.
    DropDown { entry: Option<String> },
    /// `FORMTEXT`: the result is the text.
    Text,
}

/// Reads `w:ffData`; `None` when it describes no form field this viewer knows.
pub(super) fn form_data(ff: Element<'_>) -> Option<FormData> {
    if let Some(cb) = ff.child(Ns::W, "checkBox") {
        // `w:checked` is the current state; without it the field shows its default.
        let checked = cb
            .child(Ns::W, "checked")
            .or_else(|| cb.child(Ns::W, "default"))
            .is_some_and(on_off);
        let size = if cb.child(Ns::W, "sizeAuto").is_some_and(on_off) {
            None
        } else {
            cb.child(Ns::W, "size")
                .and_then(val)
                .and_then(|v| v.parse::<f32>().ok())
                .filter(|v| *v > 0.0)
                .map(|half_points| (half_points / 2.0).min(1638.0))
        };
        return Some(FormData::CheckBox { checked, size });
    }
    if let Some(dd) = ff.child(Ns::W, "ddList") {
        let index = |name: &str| {
            dd.child(Ns::W, name)
                .and_then(val)
                .and_then(|v| v.parse::<usize>().ok())
        };
        let selected = index("result").or_else(|| index("default")).unwrap_or(0);
        let entry = dd
            .children_named(Ns::W, "listEntry")
            .nth(selected)
            .and_then(val)
            .map(str::to_owned);
        return Some(FormData::DropDown { entry });
    }
    ff.child(Ns::W, "textInput").map(|_| FormData::Text)
}

/// The grey Word puts behind form fields on screen.
pub(super) fn form_shading() -> Color {
    Color::rgb(0xD9, 0xD9, 0xD9)
}

/// Gives text runs of a form field's result the form-field shading (unless they have a
/// shading of their own).
pub(super) fn shade(inlines: &mut [Inline]) {
    for inline in inlines {
        match inline {
            Inline::Text { format, .. } | Inline::Symbol { format, .. } => {
                format.shading.get_or_insert_with(form_shading);
            }
            Inline::Hyperlink { children, .. }
            | Inline::Field { children, .. }
            | Inline::Inserted { children, .. }
            | Inline::Deleted { children, .. } => shade(children),
            _ => {}
        }
    }
}

/// A legacy form field's inline: the check box, the selected entry of a drop-down, or
/// the text result, shaded when `shaded`.
pub(super) fn form_field(
    form: FormData,
    instruction: String,
    mut children: Vec<Inline>,
    mut format: RunFormat,
    shaded: bool,
) -> Inline {
    if shaded {
        format.shading.get_or_insert_with(form_shading);
    }
    match form {
        FormData::CheckBox { checked, size } => {
            if let Some(size) = size {
                format.size = Some(size);
            }
            // Word draws the box itself, a square of the font's size with an X when
            // checked; ☒ and ☐ in an East Asian face (full-width, square) are that box.
            let code = if checked { 0x2612 } else { 0x2610 };
            check_box(checked, code, "MS Gothic", true, format)
        }
        FormData::DropDown { entry } => Inline::Field {
            instruction,
            children: entry
                .map(|text| Inline::Text { text, format })
                .into_iter()
                .collect(),
        },
        FormData::Text => {
            if shaded {
                shade(&mut children);
            }
            Inline::Field {
                instruction,
                children,
            }
        }
    }
}

/// A check box showing `code` of `font`: symbol fonts are mapped to Unicode and drawn in
/// the run's own font; other fonts (MS Gothic, Segoe UI Symbol) hold the code point
/// itself and are kept.
fn check_box(
    checked: bool,
    code: u32,
    font: &str,
    form_field: bool,
    mut format: RunFormat,
) -> Inline {
    let text = super::parse::symbol_text(font, code);
    if !crate::office::fonts::legacy_symbol(font) {
        format.font = Some(font.into());
    }
    Inline::CheckBox(CheckBox {
        checked,
        text,
        font: Some(font.to_owned()),
        form_field,
        format,
    })
}
