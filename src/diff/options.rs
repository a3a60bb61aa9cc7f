//! Presentation and file-output choices of a diff, and the configurable defaults for them.
//!
//! The enums spell their values exactly as the `diffs` tool contract does (`view`, `split`,
//! `hq`, …) in both directions, so a request, the config file and the JSON answer all use
//! the same words. [`DiffDefaults`] is what the config file holds; a call's own fields
//! override it (see `input`).

use serde::{Deserialize, Serialize};

/// Default artifact lifetime when neither the call nor the config sets one (30 min).
pub const DEFAULT_TTL_SECONDS: u64 = 1800;
/// Shortest lifetime a call may ask for.
pub const MIN_TTL_SECONDS: u64 = 1;
/// Longest lifetime a call may ask for (6 h).
pub const MAX_TTL_SECONDS: u64 = 21_600;
/// Smallest device scale factor for PNG/PDF output.
pub const MIN_FILE_SCALE: f64 = 1.0;
/// Largest device scale factor for PNG/PDF output.
pub const MAX_FILE_SCALE: f64 = 4.0;
/// Narrowest PNG/PDF frame in CSS px.
pub const MIN_FILE_MAX_WIDTH: u32 = 640;
/// Widest PNG/PDF frame in CSS px.
pub const MAX_FILE_MAX_WIDTH: u32 = 2400;

/// What a call produces: a viewer page, a PNG/PDF file, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Only the viewer artifact and its URL.
    View,
    /// Only the rendered file; no viewer artifact. The legacy spelling `image` means this.
    #[serde(alias = "image")]
    File,
    /// The viewer plus the rendered file.
    Both,
}

/// Colour scheme of the viewer and of rendered files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Dark text on light background.
    Light,
    /// Light text on dark background.
    Dark,
}

/// How old and new lines are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One column; deletions above additions.
    Unified,
    /// Old on the left, new on the right.
    Split,
}

/// How changed lines are marked besides their colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DiffIndicators {
    /// A coloured bar at the line's edge.
    Bars,
    /// `+` / `-` signs as in a patch.
    Classic,
    /// Colour only.
    None,
}

/// Rendered file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    /// A PNG screenshot of the frame.
    Png,
    /// A PDF of the frame.
    Pdf,
}

/// Named quality preset for rendered files; see [`FileQuality::preset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FileQuality {
    /// Scale 2, 960 px, at most 8 MP.
    Standard,
    /// Scale 2.5, 1200 px, at most 14 MP.
    Hq,
    /// Scale 3, 1400 px, at most 24 MP.
    Print,
}

/// The numbers a [`FileQuality`] stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QualityPreset {
    /// Device scale factor used unless the call or config sets one.
    pub scale: f64,
    /// Frame width in CSS px used unless the call or config sets one.
    pub max_width: u32,
    /// Hard cap on rendered pixels (width × height × scale²); never overridden.
    pub max_pixels: u64,
}

impl FileQuality {
    /// The contract's preset table.
    pub fn preset(self) -> QualityPreset {
        match self {
            FileQuality::Standard => QualityPreset {
                scale: 2.0,
                max_width: 960,
                max_pixels: 8_000_000,
            },
            FileQuality::Hq => QualityPreset {
                scale: 2.5,
                max_width: 1200,
                max_pixels: 14_000_000,
            },
            FileQuality::Print => QualityPreset {
                scale: 3.0,
                max_width: 1400,
                max_pixels: 24_000_000,
            },
        }
    }
}

/// Rounds to 0.01 and clamps to 1–4, the contract's rule for a device scale factor.
pub fn clamp_file_scale(value: f64) -> f64 {
    let rounded = (value * 100.0).round() / 100.0;
    rounded.clamp(MIN_FILE_SCALE, MAX_FILE_SCALE)
}

/// Rounds to whole CSS px and clamps to 640–2400.
pub fn clamp_file_max_width(value: f64) -> u32 {
    // The clamp happens in f64 first so huge or negative inputs cannot wrap.
    value
        .round()
        .clamp(f64::from(MIN_FILE_MAX_WIDTH), f64::from(MAX_FILE_MAX_WIDTH)) as u32
}

/// Floors to whole seconds and clamps to 1–21600.
pub fn clamp_ttl_seconds(value: f64) -> u64 {
    value
        .floor()
        .clamp(MIN_TTL_SECONDS as f64, MAX_TTL_SECONDS as f64) as u64
}

/// Config-file defaults for every diff call; explicit call fields override them.
///
/// Deserializes from the camelCase keys of the contract (`fontSize`, `fileQuality`, …; the
/// legacy `format`/`imageFormat`, `imageQuality`, `imageScale` and `imageMaxWidth` are
/// accepted too), rejects unknown keys, and normalizes on the way in: numbers are clamped
/// to their ranges, and `fileScale`/`fileMaxWidth` fall back to the `fileQuality` preset's
/// values when the config leaves them out. `Default` gives the contract's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(from = "RawDiffDefaults", rename_all = "camelCase")]
pub struct DiffDefaults {
    /// CSS font family of code (default `Fira Code`).
    pub font_family: String,
    /// Code font size in CSS px, 10–24 (default 15).
    pub font_size: u32,
    /// Line height as a multiple of the font size, 1–3 (default 1.6).
    pub line_spacing: f64,
    /// Layout (default unified).
    pub layout: Layout,
    /// Whether line numbers show (default true).
    pub show_line_numbers: bool,
    /// Change markers (default bars).
    pub diff_indicators: DiffIndicators,
    /// Whether long lines wrap (default true).
    pub word_wrap: bool,
    /// Whether added/deleted lines get a tinted background (default true).
    pub background: bool,
    /// Theme (default dark).
    pub theme: Theme,
    /// Rendered file format (default png).
    pub file_format: FileFormat,
    /// Rendered file quality preset (default standard).
    pub file_quality: FileQuality,
    /// Device scale factor, 1–4 (default: the preset's, 2).
    pub file_scale: f64,
    /// Frame width in CSS px, 640–2400 (default: the preset's, 960).
    pub file_max_width: u32,
    /// Output mode (default both, as the `diffs` tool).
    pub mode: Mode,
    /// Artifact lifetime in seconds, 1–21600 (default 1800).
    pub ttl_seconds: u64,
}

impl Default for DiffDefaults {
    fn default() -> Self {
        RawDiffDefaults::default().into()
    }
}

/// The config file's shape before normalization: every key optional. (Its schema is never
/// shown: the configuration reference describes [`DiffDefaults`], the shape it serializes to.)
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
struct RawDiffDefaults {
    font_family: Option<String>,
    font_size: Option<f64>,
    line_spacing: Option<f64>,
    layout: Option<Layout>,
    show_line_numbers: Option<bool>,
    diff_indicators: Option<DiffIndicators>,
    word_wrap: Option<bool>,
    background: Option<bool>,
    theme: Option<Theme>,
    #[serde(alias = "format", alias = "imageFormat")]
    file_format: Option<FileFormat>,
    #[serde(alias = "imageQuality")]
    file_quality: Option<FileQuality>,
    #[serde(alias = "imageScale")]
    file_scale: Option<f64>,
    #[serde(alias = "imageMaxWidth")]
    file_max_width: Option<f64>,
    mode: Option<Mode>,
    ttl_seconds: Option<f64>,
}

impl From<RawDiffDefaults> for DiffDefaults {
    fn from(raw: RawDiffDefaults) -> Self {
        let file_quality = raw.file_quality.unwrap_or(FileQuality::Standard);
        let preset = file_quality.preset();
        let font_family = raw
            .font_family
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .unwrap_or_else(|| "Fira Code".to_string());
        DiffDefaults {
            font_family,
            font_size: raw
                .font_size
                .filter(|v| v.is_finite())
                .map_or(15, |v| v.floor().clamp(10.0, 24.0) as u32),
            line_spacing: raw
                .line_spacing
                .filter(|v| v.is_finite())
                .map_or(1.6, |v| v.clamp(1.0, 3.0)),
            layout: raw.layout.unwrap_or(Layout::Unified),
            show_line_numbers: raw.show_line_numbers.unwrap_or(true),
            diff_indicators: raw.diff_indicators.unwrap_or(DiffIndicators::Bars),
            word_wrap: raw.word_wrap.unwrap_or(true),
            background: raw.background.unwrap_or(true),
            theme: raw.theme.unwrap_or(Theme::Dark),
            file_format: raw.file_format.unwrap_or(FileFormat::Png),
            file_quality,
            file_scale: raw
                .file_scale
                .filter(|v| v.is_finite())
                .map_or(preset.scale, clamp_file_scale),
            file_max_width: raw
                .file_max_width
                .filter(|v| v.is_finite())
                .map_or(preset.max_width, clamp_file_max_width),
            mode: raw.mode.unwrap_or(Mode::Both),
            ttl_seconds: raw
                .ttl_seconds
                .filter(|v| v.is_finite())
                .map_or(DEFAULT_TTL_SECONDS, clamp_ttl_seconds),
        }
    }
}
