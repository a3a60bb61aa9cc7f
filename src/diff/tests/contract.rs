//! The `diffs` tool contract: one test per message and per alias, clamping, presets,
//! baseUrl rules, defaults, and the identical-input outcome.

use serde_json::{json, Value};

use crate::diff::{
    build_model, normalize_base_url, DiffDefaults, DiffErrorKind, DiffIndicators, DiffInput,
    DiffOutcome, DiffRequest, FileFormat, FileQuality, InputKind, Layout, Mode, Theme,
    IDENTICAL_MESSAGE, MAX_CONTEXT_BYTES, MAX_REQUEST_BODY_BYTES,
};

fn parse(v: Value) -> DiffRequest {
    DiffRequest::from_json(&v, &DiffDefaults::default()).expect("valid request")
}

fn message(v: Value) -> String {
    DiffRequest::from_json(&v, &DiffDefaults::default())
        .expect_err("request must be refused")
        .message()
        .to_string()
}

fn texts(extra: Value) -> Value {
    let mut v = json!({"before": "a\n", "after": "b\n"});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

// --- input presence -------------------------------------------------------------------

#[test]
fn patch_with_before_is_refused() {
    let m = message(json!({"patch": "--- a\n+++ b\n", "before": "x"}));
    assert_eq!(m, "Provide either patch or before/after input, not both.");
}

#[test]
fn patch_with_after_only_is_refused_the_same_way() {
    let m = message(json!({"patch": "--- a\n+++ b\n", "after": ""}));
    assert_eq!(m, "Provide either patch or before/after input, not both.");
}

#[test]
fn missing_after_is_refused() {
    assert_eq!(
        message(json!({"before": "x"})),
        "Provide patch or both before and after text."
    );
}

#[test]
fn empty_call_is_refused() {
    assert_eq!(
        message(json!({})),
        "Provide patch or both before and after text."
    );
}

#[test]
fn blank_patch_counts_as_absent() {
    let err =
        DiffRequest::from_json(&json!({"patch": "  \n\t "}), &DiffDefaults::default()).unwrap_err();
    assert_eq!(
        err.message(),
        "Provide patch or both before and after text."
    );
    assert_eq!(err.kind(), DiffErrorKind::MissingInput);
    // …and a blank patch next to texts is not a mix.
    let r = parse(json!({"patch": "   ", "before": "a", "after": "b"}));
    assert_eq!(r.input_kind(), InputKind::BeforeAfter);
}

#[test]
fn null_fields_count_as_absent() {
    let r = parse(json!({"before": "a", "after": "b", "patch": null, "title": null, "mode": null}));
    assert_eq!(r.input_kind(), InputKind::BeforeAfter);
    assert_eq!(r.title, "Text diff");
    assert_eq!(r.mode, Mode::Both);
}

#[test]
fn patch_is_trimmed_but_texts_are_not() {
    let r = parse(json!({"patch": "\n\n--- a\n+++ b\n  \n"}));
    assert_eq!(
        r.input,
        DiffInput::Patch {
            patch: "--- a\n+++ b".into()
        }
    );
    let r = parse(json!({"before": "  x\n", "after": "\ty\n\n"}));
    assert_eq!(
        r.input,
        DiffInput::BeforeAfter {
            before: "  x\n".into(),
            after: "\ty\n\n".into()
        }
    );
}

// --- sizes ----------------------------------------------------------------------------

#[test]
fn before_over_limit_is_refused_at_the_limit_plus_one() {
    let ok = "a".repeat(524_288);
    assert!(DiffRequest::from_json(
        &json!({"before": ok, "after": ""}),
        &DiffDefaults::default()
    )
    .is_ok());
    let m = message(json!({"before": "a".repeat(524_289), "after": ""}));
    assert_eq!(m, "before exceeds maximum size (524288 bytes).");
}

#[test]
fn after_over_limit_is_refused() {
    let m = message(json!({"before": "", "after": "a".repeat(524_289)}));
    assert_eq!(m, "after exceeds maximum size (524288 bytes).");
}

#[test]
fn sizes_are_utf8_bytes_not_chars() {
    // 262,145 'é' are 524,290 bytes but only 262,145 chars.
    let m = message(json!({"before": "é".repeat(262_145), "after": ""}));
    assert_eq!(m, "before exceeds maximum size (524288 bytes).");
}

#[test]
fn sizes_are_measured_after_trimming() {
    let padded = format!("\n\n{}\n\n   ", "a".repeat(524_288));
    let r = parse(json!({"before": padded, "after": ""}));
    // The size passes on the trimmed text; the kept text is still the original.
    match r.input {
        DiffInput::BeforeAfter { before, .. } => assert_eq!(before.len(), 524_288 + 7),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn patch_over_limit_is_refused_before_the_mix_check() {
    let big = format!("--- a\n+++ b\n{}", "x".repeat(2_097_152));
    assert_eq!(
        message(json!({"patch": big.clone()})),
        "patch exceeds maximum size (2097152 bytes)."
    );
    // Size first, as the tool does, even when before is also present.
    assert_eq!(
        message(json!({"patch": big, "before": "x"})),
        "patch exceeds maximum size (2097152 bytes)."
    );
}

#[test]
fn path_lang_title_limits() {
    assert_eq!(
        message(texts(json!({"path": "p".repeat(2049)}))),
        "path exceeds maximum size (2048 bytes)."
    );
    assert_eq!(
        message(texts(json!({"lang": "l".repeat(129)}))),
        "lang exceeds maximum size (128 bytes)."
    );
    assert_eq!(
        message(texts(json!({"title": "t".repeat(1025)}))),
        "title exceeds maximum size (1024 bytes)."
    );
    assert_eq!(
        message(json!({"patch": "x", "title": "t".repeat(1025)})),
        "title exceeds maximum size (1024 bytes)."
    );
    let r = parse(texts(
        json!({"path": "p".repeat(2048), "lang": "l".repeat(128), "title": "t".repeat(1024)}),
    ));
    assert_eq!(r.title.len(), 1024);
}

#[test]
fn body_limit_leaves_room_for_the_largest_escaped_patch() {
    // Control characters escape to six bytes each: the worst case for a valid patch.
    let patch = "\u{1}".repeat(2_097_152);
    let body = serde_json::to_vec(&json!({"patch": patch, "title": "\u{1}".repeat(1024)})).unwrap();
    assert!(body.len() > 12_000_000);
    assert!(
        body.len() <= MAX_REQUEST_BODY_BYTES,
        "{} > {}",
        body.len(),
        MAX_REQUEST_BODY_BYTES
    );
}

// --- field rules ----------------------------------------------------------------------

#[test]
fn unknown_field_is_refused_by_name() {
    let err = DiffRequest::from_json(&texts(json!({"colour": "red"})), &DiffDefaults::default())
        .unwrap_err();
    assert_eq!(err.message(), "Unknown field \"colour\".");
    assert_eq!(err.code(), "unknown_field");
}

#[test]
fn unknown_context_field_is_refused_by_path() {
    assert_eq!(
        message(texts(json!({"context": {"agentId": "a", "userId": "u"}}))),
        "Unknown field \"context.userId\"."
    );
}

#[test]
fn non_object_body_is_refused() {
    assert_eq!(
        message(json!(["before", "after"])),
        "Diff input must be a JSON object."
    );
    let err = DiffRequest::from_json_bytes(b"{not json", &DiffDefaults::default()).unwrap_err();
    assert!(
        err.message()
            .starts_with("Request body is not valid JSON: "),
        "{}",
        err.message()
    );
}

#[test]
fn wrong_types_name_the_field() {
    assert_eq!(
        message(json!({"before": 5, "after": "b"})),
        "before must be a string."
    );
    assert_eq!(
        message(texts(json!({"expandUnchanged": "yes"}))),
        "expandUnchanged must be a boolean."
    );
    assert_eq!(
        message(texts(json!({"fileScale": "2"}))),
        "fileScale must be a number."
    );
    assert_eq!(
        message(texts(json!({"context": "x"}))),
        "context must be an object."
    );
    assert_eq!(
        message(texts(json!({"context": {"agentId": 1}}))),
        "context.agentId must be a string."
    );
}

#[test]
fn bad_enum_values_list_the_choices() {
    assert_eq!(
        message(texts(json!({"mode": "print"}))),
        "mode must be one of: view, file, both (got \"print\")."
    );
    assert_eq!(
        message(texts(json!({"theme": "blue"}))),
        "theme must be one of: light, dark (got \"blue\")."
    );
    assert_eq!(
        message(texts(json!({"layout": "Split"}))),
        "layout must be one of: unified, split (got \"Split\")."
    );
    assert_eq!(
        message(texts(json!({"imageFormat": "gif"}))),
        "imageFormat must be one of: png, pdf (got \"gif\")."
    );
}

#[test]
fn call_fields_override_defaults() {
    let r = parse(texts(
        json!({"mode": "view", "theme": "light", "layout": "split", "expandUnchanged": true}),
    ));
    assert_eq!(
        (r.mode, r.theme, r.layout, r.expand_unchanged),
        (Mode::View, Theme::Light, Layout::Split, true)
    );
    let r = parse(texts(json!({})));
    assert_eq!(
        (r.mode, r.theme, r.layout, r.expand_unchanged),
        (Mode::Both, Theme::Dark, Layout::Unified, false)
    );
}

// --- aliases --------------------------------------------------------------------------

#[test]
fn alias_mode_image_is_file() {
    assert_eq!(parse(texts(json!({"mode": "image"}))).mode, Mode::File);
}

#[test]
fn alias_format_is_file_format() {
    assert_eq!(
        parse(texts(json!({"format": "pdf"}))).file.format,
        FileFormat::Pdf
    );
}

#[test]
fn alias_image_format_is_file_format() {
    assert_eq!(
        parse(texts(json!({"imageFormat": "pdf"}))).file.format,
        FileFormat::Pdf
    );
}

#[test]
fn alias_image_quality_is_file_quality() {
    let f = parse(texts(json!({"imageQuality": "print"}))).file;
    assert_eq!(
        (f.quality, f.scale, f.max_width, f.max_pixels),
        (FileQuality::Print, 3.0, 1400, 24_000_000)
    );
}

#[test]
fn alias_image_scale_is_file_scale() {
    assert_eq!(parse(texts(json!({"imageScale": 3.5}))).file.scale, 3.5);
}

#[test]
fn alias_image_max_width_is_file_max_width() {
    assert_eq!(
        parse(texts(json!({"imageMaxWidth": 1500}))).file.max_width,
        1500
    );
}

#[test]
fn canonical_field_wins_over_its_alias() {
    let f = parse(texts(
        json!({"fileFormat": "png", "format": "pdf", "imageFormat": "pdf"}),
    ))
    .file;
    assert_eq!(f.format, FileFormat::Png);
    let f = parse(texts(json!({"imageFormat": "pdf", "format": "png"}))).file;
    assert_eq!(f.format, FileFormat::Pdf);
    let f = parse(texts(json!({"fileScale": 1.5, "imageScale": 3}))).file;
    assert_eq!(f.scale, 1.5);
}

// --- ttl, scale, width, presets -------------------------------------------------------

#[test]
fn ttl_defaults_and_clamps() {
    let ttl = |v: Value| parse(texts(json!({"ttlSeconds": v}))).ttl_seconds;
    assert_eq!(parse(texts(json!({}))).ttl_seconds, 1800);
    assert_eq!(ttl(json!(0)), 1);
    assert_eq!(ttl(json!(-50)), 1);
    assert_eq!(ttl(json!(0.4)), 1);
    assert_eq!(ttl(json!(1.9)), 1);
    assert_eq!(ttl(json!(600)), 600);
    assert_eq!(ttl(json!(21_600)), 21_600);
    assert_eq!(ttl(json!(21_601)), 21_600);
    assert_eq!(ttl(json!(1e12)), 21_600);
}

#[test]
fn ttl_accepts_numeric_strings_only() {
    let ttl = |v: Value| parse(texts(json!({"ttlSeconds": v}))).ttl_seconds;
    assert_eq!(ttl(json!("600")), 600);
    assert_eq!(ttl(json!(" 90.5 ")), 90);
    assert_eq!(ttl(json!("99999")), 21_600);
    for bad in [
        json!("soon"),
        json!(""),
        json!("inf"),
        json!("NaN"),
        json!(true),
        json!([60]),
    ] {
        assert_eq!(
            message(texts(json!({"ttlSeconds": bad}))),
            "ttlSeconds must be a number or a numeric string."
        );
    }
}

#[test]
fn ttl_default_comes_from_config() {
    let defaults: DiffDefaults = serde_json::from_value(json!({"ttlSeconds": 600})).unwrap();
    let r = DiffRequest::from_json(&texts(json!({})), &defaults).unwrap();
    assert_eq!(r.ttl_seconds, 600);
    let r = DiffRequest::from_json(&texts(json!({"ttlSeconds": 60})), &defaults).unwrap();
    assert_eq!(r.ttl_seconds, 60);
}

#[test]
fn scale_rounds_to_hundredths_and_clamps() {
    let scale = |v: f64| parse(texts(json!({"fileScale": v}))).file.scale;
    assert_eq!(scale(0.5), 1.0);
    assert_eq!(scale(-3.0), 1.0);
    assert_eq!(scale(9.0), 4.0);
    assert_eq!(scale(1.23456), 1.23);
    assert_eq!(scale(2.499), 2.5);
    assert_eq!(scale(1.0), 1.0);
}

#[test]
fn max_width_rounds_and_clamps() {
    let width = |v: f64| parse(texts(json!({"fileMaxWidth": v}))).file.max_width;
    assert_eq!(width(100.0), 640);
    assert_eq!(width(5000.0), 2400);
    assert_eq!(width(1000.6), 1001);
    assert_eq!(width(640.0), 640);
    assert_eq!(width(-1e300), 640);
}

#[test]
fn presets_set_scale_width_and_pixel_cap() {
    let f = parse(texts(json!({}))).file;
    assert_eq!(
        (f.quality, f.scale, f.max_width, f.max_pixels),
        (FileQuality::Standard, 2.0, 960, 8_000_000)
    );
    let f = parse(texts(json!({"fileQuality": "hq"}))).file;
    assert_eq!(
        (f.quality, f.scale, f.max_width, f.max_pixels),
        (FileQuality::Hq, 2.5, 1200, 14_000_000)
    );
    let f = parse(texts(json!({"fileQuality": "print"}))).file;
    assert_eq!(
        (f.scale, f.max_width, f.max_pixels),
        (3.0, 1400, 24_000_000)
    );
}

#[test]
fn call_scale_and_width_beat_the_preset_but_not_its_pixel_cap() {
    let f = parse(texts(
        json!({"fileQuality": "print", "fileScale": 1.5, "fileMaxWidth": 700}),
    ))
    .file;
    assert_eq!(
        (f.quality, f.scale, f.max_width, f.max_pixels),
        (FileQuality::Print, 1.5, 700, 24_000_000)
    );
}

#[test]
fn configured_scale_stands_unless_the_call_names_a_preset() {
    let defaults: DiffDefaults = serde_json::from_value(
        json!({"fileQuality": "hq", "fileScale": 1.25, "fileMaxWidth": 2000}),
    )
    .unwrap();
    let f = DiffRequest::from_json(&texts(json!({})), &defaults)
        .unwrap()
        .file;
    assert_eq!(
        (f.quality, f.scale, f.max_width, f.max_pixels),
        (FileQuality::Hq, 1.25, 2000, 14_000_000)
    );
    let f = DiffRequest::from_json(&texts(json!({"fileQuality": "standard"})), &defaults)
        .unwrap()
        .file;
    assert_eq!(
        (f.quality, f.scale, f.max_width),
        (FileQuality::Standard, 2.0, 960)
    );
}

// --- config defaults ------------------------------------------------------------------

#[test]
fn defaults_match_the_contract() {
    let d = DiffDefaults::default();
    assert_eq!(d.font_family, "Fira Code");
    assert_eq!(d.font_size, 15);
    assert_eq!(d.line_spacing, 1.6);
    assert_eq!(d.layout, Layout::Unified);
    assert!(d.show_line_numbers && d.word_wrap && d.background);
    assert_eq!(d.diff_indicators, DiffIndicators::Bars);
    assert_eq!(d.theme, Theme::Dark);
    assert_eq!(
        (
            d.file_format,
            d.file_quality,
            d.file_scale,
            d.file_max_width
        ),
        (FileFormat::Png, FileQuality::Standard, 2.0, 960)
    );
    assert_eq!((d.mode, d.ttl_seconds), (Mode::Both, 1800));
    // An empty config object is the same as no config.
    let empty: DiffDefaults = serde_json::from_value(json!({})).unwrap();
    assert_eq!(empty, d);
}

#[test]
fn defaults_deserialize_normalize_and_accept_aliases() {
    let d: DiffDefaults = serde_json::from_value(json!({
        "fontFamily": "  JetBrains Mono ", "fontSize": 40.7, "lineSpacing": 0.2,
        "layout": "split", "showLineNumbers": false, "diffIndicators": "classic",
        "wordWrap": false, "background": false, "theme": "light",
        "imageFormat": "pdf", "imageQuality": "print", "imageMaxWidth": 9999,
        "mode": "image", "ttlSeconds": 100000
    }))
    .unwrap();
    assert_eq!(d.font_family, "JetBrains Mono");
    assert_eq!((d.font_size, d.line_spacing), (24, 1.0));
    assert_eq!(
        (d.layout, d.show_line_numbers, d.diff_indicators),
        (Layout::Split, false, DiffIndicators::Classic)
    );
    assert_eq!(
        (d.word_wrap, d.background, d.theme),
        (false, false, Theme::Light)
    );
    // The preset supplies the scale the config left out; the width is clamped.
    assert_eq!(
        (
            d.file_format,
            d.file_quality,
            d.file_scale,
            d.file_max_width
        ),
        (FileFormat::Pdf, FileQuality::Print, 3.0, 2400)
    );
    assert_eq!((d.mode, d.ttl_seconds), (Mode::File, 21_600));
    let presentation = DiffRequest::from_json(&texts(json!({})), &d)
        .unwrap()
        .presentation;
    assert_eq!(presentation.diff_indicators, DiffIndicators::Classic);
    assert_eq!(presentation.font_family, "JetBrains Mono");
}

#[test]
fn defaults_reject_unknown_keys() {
    let err = serde_json::from_value::<DiffDefaults>(json!({"fontColour": "red"})).unwrap_err();
    assert!(err.to_string().contains("fontColour"), "{err}");
}

#[test]
fn defaults_serialize_in_camel_case() {
    let v = serde_json::to_value(DiffDefaults::default()).unwrap();
    assert_eq!(v["fileMaxWidth"], 960);
    assert_eq!(v["diffIndicators"], "bars");
    assert_eq!(v["mode"], "both");
}

// --- title, context -------------------------------------------------------------------

#[test]
fn title_falls_back_to_path_then_kind() {
    assert_eq!(
        parse(texts(json!({"title": " My change ", "path": "a.rs"}))).title,
        "My change"
    );
    assert_eq!(
        parse(texts(json!({"title": "  ", "path": " src/a.rs "}))).title,
        "src/a.rs"
    );
    assert_eq!(parse(texts(json!({}))).title, "Text diff");
    assert_eq!(parse(json!({"patch": "x"})).title, "Patch diff");
    assert_eq!(
        parse(json!({"patch": "x", "path": "p.diff"})).title,
        "p.diff"
    );
}

#[test]
fn path_and_lang_are_trimmed_and_blank_is_none() {
    let r = parse(texts(json!({"path": " src/lib.rs ", "lang": "  "})));
    assert_eq!(r.path.as_deref(), Some("src/lib.rs"));
    assert_eq!(r.lang, None);
}

#[test]
fn context_is_echoed() {
    let r = parse(texts(json!({"context": {
        "agentId": "agent-1", "sessionId": "s-2", "messageChannel": "slack", "agentAccountId": "acct"
    }})));
    let c = r.context.unwrap();
    assert_eq!(c.agent_id.as_deref(), Some("agent-1"));
    assert_eq!(c.session_id.as_deref(), Some("s-2"));
    assert_eq!(c.message_channel.as_deref(), Some("slack"));
    assert_eq!(c.agent_account_id.as_deref(), Some("acct"));
    let partial = parse(texts(json!({"context": {"sessionId": "s"}})))
        .context
        .unwrap();
    assert_eq!(
        serde_json::to_value(partial).unwrap(),
        json!({"sessionId": "s"})
    );
    assert_eq!(parse(texts(json!({}))).context, None);
}

#[test]
fn context_values_are_bounded() {
    let at_cap = "a".repeat(MAX_CONTEXT_BYTES);
    let r = parse(texts(json!({"context": {"agentId": at_cap}})));
    assert_eq!(
        r.context.unwrap().agent_id.unwrap().len(),
        MAX_CONTEXT_BYTES
    );
    for field in ["agentId", "sessionId", "messageChannel", "agentAccountId"] {
        let over = "a".repeat(MAX_CONTEXT_BYTES + 1);
        assert_eq!(
            message(texts(json!({"context": {field: over}}))),
            format!("context.{field} exceeds maximum size (1024 bytes).")
        );
    }
}

// --- baseUrl --------------------------------------------------------------------------

#[test]
fn base_url_is_canonicalized() {
    let ok = |raw: &str| normalize_base_url(raw).unwrap();
    assert_eq!(
        ok("https://gateway.example.com"),
        "https://gateway.example.com"
    );
    assert_eq!(
        ok("https://gateway.example.com/openclaw/"),
        "https://gateway.example.com/openclaw"
    );
    assert_eq!(
        ok("HTTPS://Gateway.Example.COM:443//"),
        "https://gateway.example.com"
    );
    assert_eq!(ok("http://127.0.0.1:18789"), "http://127.0.0.1:18789");
    assert_eq!(ok("http://host:80/a/./b/../c///"), "http://host/a/c");
    assert_eq!(ok("http://[::1]:8080/p%20q"), "http://[::1]:8080/p%20q");
    assert_eq!(ok("https://h:/x"), "https://h/x");
}

#[test]
fn base_url_from_the_call_is_trimmed_and_blank_is_none() {
    let r = parse(texts(json!({"baseUrl": "  https://example.com/base/  "})));
    assert_eq!(r.base_url.as_deref(), Some("https://example.com/base"));
    assert_eq!(parse(texts(json!({"baseUrl": "   "}))).base_url, None);
}

#[test]
fn base_url_invalid_message() {
    for raw in [
        "not a url",
        "//example.com",
        "https://",
        "https://exa mple.com",
        "https://user:pw@example.com",
        "https://example.com:99999",
        "https://example.com:80a",
        "https://example.com/a b",
        "https://example.com/<script>",
        "https://example.com/%zz",
        "http:example.com",
    ] {
        assert_eq!(
            message(texts(json!({"baseUrl": raw}))),
            format!("Invalid baseUrl: {raw}"),
            "{raw}"
        );
    }
}

#[test]
fn base_url_scheme_message() {
    for raw in [
        "ftp://example.com",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "ws://h",
    ] {
        assert_eq!(
            message(texts(json!({"baseUrl": raw}))),
            format!("baseUrl must use http or https: {raw}")
        );
    }
}

#[test]
fn base_url_query_hash_message() {
    for raw in [
        "https://example.com/?a=1",
        "https://example.com/base#frag",
        "http://h?",
    ] {
        assert_eq!(
            message(texts(json!({"baseUrl": raw}))),
            format!("baseUrl must not include query/hash: {raw}")
        );
    }
}

// --- identical input ------------------------------------------------------------------

#[test]
fn identical_texts_are_unchanged_not_an_error() {
    let r = parse(json!({"before": "same\n", "after": "same\n"}));
    assert!(r.is_unchanged());
    let outcome = build_model(&r).unwrap();
    assert_eq!(outcome, DiffOutcome::Unchanged);
    assert!(!outcome.changed());
    assert!(outcome.model().is_none());
    assert_eq!(
        IDENTICAL_MESSAGE,
        "Before and after are identical — no changes to render."
    );
    assert!(
        IDENTICAL_MESSAGE.contains('\u{2014}'),
        "an em dash, not a hyphen"
    );
}

#[test]
fn texts_differing_only_in_line_ends_are_changed() {
    let r = parse(json!({"before": "a\n", "after": "a\r\n"}));
    assert!(!r.is_unchanged());
    let model = build_model(&r).unwrap();
    assert!(model.changed());
    let file = &model.model().unwrap().files[0];
    assert_eq!((file.additions, file.deletions), (1, 1));
}

#[test]
fn build_model_runs_patch_limits_with_contract_messages() {
    let r = parse(json!({"patch": "just some words, no diff"}));
    let err = build_model(&r).unwrap_err();
    assert_eq!(err.message(), "Patch input did not contain any file diffs.");
    assert_eq!(err.kind(), DiffErrorKind::PatchEmpty);
}

// --- a session's Changes view (presentation fields only) -------------------------------

fn session(v: Value) -> Result<DiffRequest, crate::diff::DiffInputError> {
    DiffRequest::for_session(
        v.as_object().unwrap(),
        &["turns", "workspaceRoot"],
        "Changes",
        &DiffDefaults::default(),
    )
}

#[test]
fn a_session_request_reads_the_presentation_fields_as_the_contract_does() {
    let r = session(json!({
        "turns": [], "workspaceRoot": "/w",
        "mode": "both", "theme": "dark", "layout": "split",
        "imageFormat": "pdf", "fileQuality": "hq", "fileScale": 9, "ttlSeconds": "60",
        "context": {"agentId": "a1"},
    }))
    .unwrap();
    assert_eq!(r.input, DiffInput::Session);
    assert_eq!(r.input_kind(), InputKind::Activity);
    assert_eq!(
        (r.mode, r.theme, r.layout),
        (Mode::Both, Theme::Dark, Layout::Split)
    );
    assert_eq!(
        (r.file.format, r.file.quality),
        (FileFormat::Pdf, FileQuality::Hq)
    );
    // Clamped as for /api/v1/diffs.
    assert_eq!(r.file.scale, 4.0);
    assert_eq!(r.ttl_seconds, 60);
    assert_eq!(r.title, "Changes");
    assert_eq!(r.context.unwrap().agent_id.as_deref(), Some("a1"));
    assert_eq!(
        session(json!({"title": "  Turn 3 "})).unwrap().title,
        "Turn 3"
    );
}

#[test]
fn a_session_request_refuses_what_the_contract_refuses_and_unknown_keys() {
    let refused = |v| session(v).expect_err("refused").message().to_string();
    assert_eq!(
        refused(json!({"fileformat": "png"})),
        "Unknown field \"fileformat\"."
    );
    // The input fields of /api/v1/diffs are not presentation: a session has its own.
    assert_eq!(refused(json!({"patch": "x"})), "Unknown field \"patch\".");
    assert_eq!(
        refused(json!({"mode": "movie"})),
        message(texts(json!({"mode": "movie"})))
    );
    assert_eq!(
        refused(json!({"title": "t".repeat(1025)})),
        "title exceeds maximum size (1024 bytes)."
    );
    // Its model is never built from the request.
    assert!(build_model(&session(json!({})).unwrap()).is_err());
}
