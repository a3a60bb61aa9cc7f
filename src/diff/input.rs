//! The `diffs` tool contract: raw JSON → a validated [`DiffRequest`], before any work.
//!
//! Rules, in the order they are checked:
//! 1. The body is a JSON object and every key is a contract field (or a legacy alias);
//!    an unknown key is refused by name. `null` counts as "not given".
//! 2. Input: a non-blank `patch` (trimmed, ≤ 2 MiB) excludes `before`/`after`; otherwise
//!    both texts are required (≤ 512 KiB each). Then `path`, `lang`, `title`. Sizes are
//!    UTF-8 bytes of the trimmed value; the texts themselves are kept untrimmed, since
//!    leading indentation and trailing newlines are part of a diff.
//! 3. Options: call fields override [`DiffDefaults`]; `ttlSeconds` (number or numeric
//!    string) is floored and clamped to 1–21600; `fileScale` is rounded to 0.01 and clamped
//!    to 1–4; `fileMaxWidth` is rounded and clamped to 640–2400; a `fileQuality` given in
//!    the call brings its preset's scale and width unless the call sets those too.
//! 4. `baseUrl` (see `base_url`), then the optional `context` echo.
//!
//! Messages that the contract words are produced byte for byte; the others name the field.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::base_url::normalize_base_url;
use super::error::{DiffErrorKind, DiffInputError};
use super::options::{
    clamp_file_max_width, clamp_file_scale, clamp_ttl_seconds, DiffDefaults, DiffIndicators,
    FileFormat, FileQuality, Layout, Mode, Theme,
};

/// Largest `before` or `after` text, in UTF-8 bytes.
pub const MAX_TEXT_BYTES: usize = 524_288;
/// Largest `patch`, in UTF-8 bytes.
pub const MAX_PATCH_BYTES: usize = 2_097_152;
/// Largest `path`, in UTF-8 bytes.
pub const MAX_PATH_BYTES: usize = 2_048;
/// Largest `lang`, in UTF-8 bytes.
pub const MAX_LANG_BYTES: usize = 128;
/// Largest `title`, in UTF-8 bytes.
pub const MAX_TITLE_BYTES: usize = 1_024;
/// Largest value of each `context` field (ids and a channel name), in UTF-8 bytes. They are
/// echoed in the answer and stored with the artifact, so they are bounded like the title;
/// the four of them fit the request body's 64 KiB of slack even fully escaped.
pub const MAX_CONTEXT_BYTES: usize = 1_024;

/// A request-body limit that still admits the largest valid input after JSON escaping.
///
/// A string field can grow sixfold when escaped (`\u0000` for every byte), and `patch`
/// excludes the texts, so the largest valid body is about six times 2 MiB plus the small
/// fields. Sizing the HTTP limit to this means an oversized field reaches [`DiffRequest`]
/// and gets its contract message instead of a generic 413.
pub const MAX_REQUEST_BODY_BYTES: usize =
    6 * (MAX_PATCH_BYTES + MAX_PATH_BYTES + MAX_LANG_BYTES + MAX_TITLE_BYTES) + 64 * 1024;

/// The contract's answer when before and after are the same text; the call then reports
/// `changed: false` and creates no artifact.
pub const IDENTICAL_MESSAGE: &str = "Before and after are identical — no changes to render.";

/// The contract's keys that say what changed; with [`PRESENTATION_FIELDS`] they are every
/// key it accepts.
const INPUT_FIELDS: [&str; 5] = ["before", "after", "patch", "path", "lang"];

/// The contract's keys that say how to show a change, not what changed (aliases included).
pub const PRESENTATION_FIELDS: [&str; 17] = [
    "title",
    "mode",
    "theme",
    "layout",
    "expandUnchanged",
    "fileFormat",
    "format",
    "imageFormat",
    "fileQuality",
    "imageQuality",
    "fileScale",
    "imageScale",
    "fileMaxWidth",
    "imageMaxWidth",
    "ttlSeconds",
    "baseUrl",
    "context",
];

/// Keys of the optional `context` object.
const CONTEXT_FIELDS: [&str; 4] = ["agentId", "sessionId", "messageChannel", "agentAccountId"];

/// The change to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DiffInput {
    /// Two texts, compared line by line.
    BeforeAfter {
        /// The old text, untrimmed.
        before: String,
        /// The new text, untrimmed.
        after: String,
    },
    /// A unified patch, trimmed.
    Patch {
        /// The patch text.
        patch: String,
    },
    /// An agent session's file changes: the model comes from the activity projection
    /// ([`crate::activity::changes::changes_model`]), not from the request, which carries
    /// only how to show them (see [`DiffRequest::for_session`]).
    Session,
}

/// Which kind of input a request carried, as the output's `inputKind` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// `before` and `after` texts.
    BeforeAfter,
    /// A unified patch.
    Patch,
    /// A session's Changes view (`POST /api/v1/activity/changes`).
    Activity,
}

/// Viewer presentation that comes from the config only (the call has no fields for it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Presentation {
    /// CSS font family of code.
    pub font_family: String,
    /// Font size in CSS px.
    pub font_size: u32,
    /// Line height multiple.
    pub line_spacing: f64,
    /// Whether line numbers show.
    pub show_line_numbers: bool,
    /// Change markers.
    pub diff_indicators: DiffIndicators,
    /// Whether long lines wrap.
    pub word_wrap: bool,
    /// Whether changed lines get a tinted background.
    pub background: bool,
}

/// Resolved PNG/PDF settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileOptions {
    /// PNG or PDF.
    pub format: FileFormat,
    /// The quality preset in force.
    pub quality: FileQuality,
    /// Device scale factor, 1–4.
    pub scale: f64,
    /// Frame width in CSS px, 640–2400.
    pub max_width: u32,
    /// The preset's cap on rendered pixels.
    pub max_pixels: u64,
}

/// The caller's identifiers, echoed back in the viewer details.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffContext {
    /// The agent that made the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Its session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The channel the result goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_channel: Option<String>,
    /// The agent's account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_account_id: Option<String>,
}

/// A validated diff call: everything later stages need, with defaults applied.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffRequest {
    /// The texts or the patch.
    pub input: DiffInput,
    /// Display file name (before/after), trimmed; `None` when blank or absent.
    pub path: Option<String>,
    /// Language hint, trimmed; `None` when blank or absent.
    pub lang: Option<String>,
    /// Viewer title after the fallback `title` → `path` → `Text diff` / `Patch diff`.
    pub title: String,
    /// Output mode.
    pub mode: Mode,
    /// Theme.
    pub theme: Theme,
    /// Layout.
    pub layout: Layout,
    /// Show unchanged runs expanded where the full text is known.
    pub expand_unchanged: bool,
    /// Config-only presentation settings.
    pub presentation: Presentation,
    /// PNG/PDF settings.
    pub file: FileOptions,
    /// Artifact lifetime, 1–21600 s.
    pub ttl_seconds: u64,
    /// The call's canonical `baseUrl`, if it gave one.
    pub base_url: Option<String>,
    /// The caller's identifiers to echo, if given.
    pub context: Option<DiffContext>,
}

impl DiffRequest {
    /// Parses a request body (JSON bytes).
    pub fn from_json_bytes(body: &[u8], defaults: &DiffDefaults) -> Result<Self, DiffInputError> {
        let value: Value = serde_json::from_slice(body).map_err(|e| {
            DiffInputError::invalid(format!("Request body is not valid JSON: {e}."))
        })?;
        Self::from_json(&value, defaults)
    }

    /// Validates a parsed JSON value against the contract and applies `defaults`.
    pub fn from_json(value: &Value, defaults: &DiffDefaults) -> Result<Self, DiffInputError> {
        let map = value
            .as_object()
            .ok_or_else(|| DiffInputError::invalid("Diff input must be a JSON object."))?;
        reject_unknown(map, &[&INPUT_FIELDS, &PRESENTATION_FIELDS], "")?;
        let fields = Fields { map, prefix: "" };

        let (input, path, lang, title) = parse_input(&fields)?;
        Self::with_input(&fields, defaults, input, path, lang, title)
    }

    /// A request for a session's Changes view: the contract's fields that say how to show
    /// a change ([`PRESENTATION_FIELDS`]: mode, theme, layout, the file's format, quality,
    /// scale and width, TTL, base URL, context, title) are read from `map` and validated
    /// exactly as `POST /api/v1/diffs` validates them. `session_keys` are the caller's
    /// own keys, left alone; any other key is the contract's unknown-field error. An absent
    /// or blank title is `default_title`.
    pub fn for_session(
        map: &Map<String, Value>,
        session_keys: &[&str],
        default_title: &str,
        defaults: &DiffDefaults,
    ) -> Result<Self, DiffInputError> {
        reject_unknown(map, &[&PRESENTATION_FIELDS, session_keys], "")?;
        let fields = Fields { map, prefix: "" };
        let title = parse_title(&fields)?.unwrap_or(default_title).to_string();
        Self::with_input(&fields, defaults, DiffInput::Session, None, None, title)
    }

    /// The request for `input` with the presentation fields of `fields`.
    fn with_input(
        fields: &Fields<'_>,
        defaults: &DiffDefaults,
        input: DiffInput,
        path: Option<String>,
        lang: Option<String>,
        title: String,
    ) -> Result<Self, DiffInputError> {
        let mode = fields
            .enumerated(
                "mode",
                &[
                    ("view", Mode::View),
                    ("file", Mode::File),
                    ("both", Mode::Both),
                    ("image", Mode::File),
                ],
            )?
            .unwrap_or(defaults.mode);
        let theme = fields
            .enumerated("theme", &[("light", Theme::Light), ("dark", Theme::Dark)])?
            .unwrap_or(defaults.theme);
        let layout = fields
            .enumerated(
                "layout",
                &[("unified", Layout::Unified), ("split", Layout::Split)],
            )?
            .unwrap_or(defaults.layout);
        let expand_unchanged = fields.boolean("expandUnchanged")?.unwrap_or(false);
        let file = parse_file_options(fields, defaults)?;
        let ttl_seconds = parse_ttl(fields)?.unwrap_or(defaults.ttl_seconds);
        let base_url = match fields
            .string("baseUrl")?
            .map(trim)
            .filter(|s| !s.is_empty())
        {
            Some(raw) => Some(normalize_base_url(raw)?),
            None => None,
        };
        let context = parse_context(fields)?;

        Ok(DiffRequest {
            input,
            path,
            lang,
            title,
            mode,
            theme,
            layout,
            expand_unchanged,
            presentation: Presentation {
                font_family: defaults.font_family.clone(),
                font_size: defaults.font_size,
                line_spacing: defaults.line_spacing,
                show_line_numbers: defaults.show_line_numbers,
                diff_indicators: defaults.diff_indicators,
                word_wrap: defaults.word_wrap,
                background: defaults.background,
            },
            file,
            ttl_seconds,
            base_url,
            context,
        })
    }

    /// `before_after` or `patch`.
    pub fn input_kind(&self) -> InputKind {
        match self.input {
            DiffInput::BeforeAfter { .. } => InputKind::BeforeAfter,
            DiffInput::Patch { .. } => InputKind::Patch,
            DiffInput::Session => InputKind::Activity,
        }
    }

    /// True for before/after input whose texts are identical: the call answers
    /// [`IDENTICAL_MESSAGE`] with `changed: false` instead of rendering.
    pub fn is_unchanged(&self) -> bool {
        matches!(&self.input, DiffInput::BeforeAfter { before, after } if before == after)
    }
}

/// Trims whitespace as JavaScript's `String.prototype.trim` does (including a BOM), since
/// the contract's sizes are those of the trimmed text.
fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// Refuses the first key of `map` in none of the `known` lists.
fn reject_unknown(
    map: &Map<String, Value>,
    known: &[&[&str]],
    prefix: &str,
) -> Result<(), DiffInputError> {
    if let Some(key) = map
        .keys()
        .find(|k| !known.iter().any(|list| list.contains(&k.as_str())))
    {
        // Long or odd keys are shown cut and escaped, so the message stays one short line.
        let shown: String = key.chars().take(64).collect();
        let full = format!("{prefix}{shown}");
        return Err(DiffInputError::new(
            DiffErrorKind::UnknownField,
            format!("Unknown field {full:?}."),
        ));
    }
    Ok(())
}

fn check_size(value: &str, field: &str, max: usize) -> Result<(), DiffInputError> {
    if value.len() > max {
        return Err(DiffInputError::new(
            DiffErrorKind::FieldTooLarge,
            format!("{field} exceeds maximum size ({max} bytes)."),
        ));
    }
    Ok(())
}

type ParsedInput = (DiffInput, Option<String>, Option<String>, String);

fn parse_input(fields: &Fields<'_>) -> Result<ParsedInput, DiffInputError> {
    let patch = fields.string("patch")?.map(trim).filter(|p| !p.is_empty());
    let before = fields.string("before")?;
    let after = fields.string("after")?;
    let path = fields.string("path")?.map(trim).filter(|s| !s.is_empty());
    let lang = fields.string("lang")?.map(trim).filter(|s| !s.is_empty());
    let title = parse_title(fields)?;

    let input = if let Some(patch) = patch {
        check_size(patch, "patch", MAX_PATCH_BYTES)?;
        if before.is_some() || after.is_some() {
            return Err(DiffInputError::new(
                DiffErrorKind::MissingInput,
                "Provide either patch or before/after input, not both.",
            ));
        }
        DiffInput::Patch {
            patch: patch.to_string(),
        }
    } else {
        let (Some(before), Some(after)) = (before, after) else {
            return Err(DiffInputError::new(
                DiffErrorKind::MissingInput,
                "Provide patch or both before and after text.",
            ));
        };
        check_size(trim(before), "before", MAX_TEXT_BYTES)?;
        check_size(trim(after), "after", MAX_TEXT_BYTES)?;
        DiffInput::BeforeAfter {
            before: before.to_string(),
            after: after.to_string(),
        }
    };
    if let Some(path) = path {
        check_size(path, "path", MAX_PATH_BYTES)?;
    }
    if let Some(lang) = lang {
        check_size(lang, "lang", MAX_LANG_BYTES)?;
    }
    let fallback = match input {
        DiffInput::Patch { .. } => "Patch diff",
        DiffInput::BeforeAfter { .. } | DiffInput::Session => "Text diff",
    };
    let title = title.or(path).unwrap_or(fallback).to_string();
    Ok((
        input,
        path.map(str::to_string),
        lang.map(str::to_string),
        title,
    ))
}

fn parse_file_options(
    fields: &Fields<'_>,
    defaults: &DiffDefaults,
) -> Result<FileOptions, DiffInputError> {
    let formats = [("png", FileFormat::Png), ("pdf", FileFormat::Pdf)];
    let format = first_some([
        fields.enumerated("fileFormat", &formats)?,
        fields.enumerated("imageFormat", &formats)?,
        fields.enumerated("format", &formats)?,
    ])
    .unwrap_or(defaults.file_format);

    let qualities = [
        ("standard", FileQuality::Standard),
        ("hq", FileQuality::Hq),
        ("print", FileQuality::Print),
    ];
    let call_quality = first_some([
        fields.enumerated("fileQuality", &qualities)?,
        fields.enumerated("imageQuality", &qualities)?,
    ]);
    let quality = call_quality.unwrap_or(defaults.file_quality);
    let preset = quality.preset();
    // A preset named in the call brings its own scale and width; otherwise the configured
    // ones stand. Either way an explicit scale or width in the call wins.
    let (base_scale, base_width) = if call_quality.is_some() {
        (preset.scale, preset.max_width)
    } else {
        (defaults.file_scale, defaults.file_max_width)
    };
    let scale = first_some([fields.number("fileScale")?, fields.number("imageScale")?])
        .map_or(base_scale, clamp_file_scale);
    let max_width = first_some([
        fields.number("fileMaxWidth")?,
        fields.number("imageMaxWidth")?,
    ])
    .map_or(base_width, clamp_file_max_width);
    Ok(FileOptions {
        format,
        quality,
        scale,
        max_width,
        max_pixels: preset.max_pixels,
    })
}

/// The call's title, trimmed; `None` when blank or absent.
fn parse_title<'a>(fields: &Fields<'a>) -> Result<Option<&'a str>, DiffInputError> {
    let title = fields.string("title")?.map(trim).filter(|s| !s.is_empty());
    if let Some(title) = title {
        check_size(title, "title", MAX_TITLE_BYTES)?;
    }
    Ok(title)
}

fn first_some<T, const N: usize>(values: [Option<T>; N]) -> Option<T> {
    values.into_iter().flatten().next()
}

fn parse_ttl(fields: &Fields<'_>) -> Result<Option<u64>, DiffInputError> {
    let not_number = || DiffInputError::invalid("ttlSeconds must be a number or a numeric string.");
    let seconds = match fields.get("ttlSeconds") {
        None => return Ok(None),
        Some(Value::Number(n)) => n.as_f64().ok_or_else(not_number)?,
        Some(Value::String(s)) => {
            let s = trim(s);
            // Rust's float parser also takes `inf` and `NaN`; a TTL must be a finite number.
            if s.is_empty()
                || !s
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
            {
                return Err(not_number());
            }
            s.parse::<f64>().map_err(|_| not_number())?
        }
        Some(_) => return Err(not_number()),
    };
    if !seconds.is_finite() {
        return Err(not_number());
    }
    Ok(Some(clamp_ttl_seconds(seconds)))
}

fn parse_context(fields: &Fields<'_>) -> Result<Option<DiffContext>, DiffInputError> {
    let Some(value) = fields.get("context") else {
        return Ok(None);
    };
    let map = value
        .as_object()
        .ok_or_else(|| DiffInputError::invalid("context must be an object."))?;
    reject_unknown(map, &[&CONTEXT_FIELDS], "context.")?;
    let inner = Fields {
        map,
        prefix: "context.",
    };
    let get = |name: &str| -> Result<Option<String>, DiffInputError> {
        let value = inner.string(name)?;
        if let Some(v) = value {
            check_size(v, &format!("context.{name}"), MAX_CONTEXT_BYTES)?;
        }
        Ok(value.map(str::to_string))
    };
    Ok(Some(DiffContext {
        agent_id: get("agentId")?,
        session_id: get("sessionId")?,
        message_channel: get("messageChannel")?,
        agent_account_id: get("agentAccountId")?,
    }))
}

/// Typed access to one JSON object's fields, with messages that name the field.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    /// Shown before field names in messages (`context.`).
    prefix: &'static str,
}

impl<'a> Fields<'a> {
    /// The field's value; absent and `null` are the same.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn string(&self, name: &str) -> Result<Option<&'a str>, DiffInputError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(DiffInputError::invalid(format!(
                "{}{name} must be a string.",
                self.prefix
            ))),
        }
    }

    fn boolean(&self, name: &str) -> Result<Option<bool>, DiffInputError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(DiffInputError::invalid(format!(
                "{}{name} must be a boolean.",
                self.prefix
            ))),
        }
    }

    fn number(&self, name: &str) -> Result<Option<f64>, DiffInputError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) if f.is_finite() => Ok(Some(f)),
                _ => Err(DiffInputError::invalid(format!(
                    "{}{name} must be a number.",
                    self.prefix
                ))),
            },
            Some(_) => Err(DiffInputError::invalid(format!(
                "{}{name} must be a number.",
                self.prefix
            ))),
        }
    }

    /// A string that must be one of `choices` (matched exactly, as the contract's enums).
    fn enumerated<T: Copy>(
        &self,
        name: &str,
        choices: &[(&str, T)],
    ) -> Result<Option<T>, DiffInputError> {
        let Some(value) = self.string(name)? else {
            return Ok(None);
        };
        if let Some((_, v)) = choices.iter().find(|(k, _)| *k == value) {
            return Ok(Some(*v));
        }
        // Legacy spellings (`image`) are accepted but not advertised.
        let listed: Vec<&str> = choices
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| *k != "image")
            .collect();
        let shown: String = value.chars().take(64).collect();
        Err(DiffInputError::invalid(format!(
            "{}{name} must be one of: {} (got {shown:?}).",
            self.prefix,
            listed.join(", ")
        )))
    }
}
