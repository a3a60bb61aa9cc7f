//! The configuration reference, made from the configuration struct itself.
//!
//! Every key of [`Config`] is found by walking its JSON schema, which `schemars` derives
//! from the same struct definitions (field names as serde spells them, doc comments as
//! descriptions), and its default is read from `Config::default()` serialized to TOML. So
//! `previewd config` and `docs/configuration.md` list exactly the keys the loader accepts,
//! with the defaults it applies, and cannot drift from them. schemars was chosen because it
//! is the field's standard for this (it reads serde's attributes, so renames and
//! `deny_unknown_fields` are respected) and because the HTTP API's description needs the
//! same schemas.
//!
//! The same key list resolves `PREVIEWD_*` variables case-insensitively (so
//! `PREVIEWD_DIFFS__DEFAULTS__FONT_SIZE` reaches `diffs.defaults.fontSize`) and names the
//! nearest valid key when a file or a variable names an unknown one.

use serde_json::Value as Json;

use crate::config::Config;

/// One configuration key: a value (leaf) or a section (table).
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// The path of names from the top, as the TOML file spells them.
    pub path: Vec<String>,
    /// What the key means (its doc comment).
    pub doc: String,
    /// Whether it is a section holding further keys.
    pub section: bool,
    /// The default value; `None` for a section or a key that is unset by default.
    pub default: Option<toml::Value>,
    /// The values a key of an enumerated type takes.
    pub choices: Vec<String>,
    /// The type of an unset key (`string`, `integer`, …), for the reference.
    pub kind: String,
}

impl Key {
    /// The dotted name (`limits.text_bytes`).
    pub fn name(&self) -> String {
        self.path.join(".")
    }

    /// The environment variable that sets it (`PREVIEWD_LIMITS__TEXT_BYTES`).
    pub fn env(&self) -> String {
        format!("PREVIEWD_{}", self.path.join("__").to_ascii_uppercase())
    }
}

/// Every key of the configuration, sections included, in reference order (a section's
/// values, then its subsections, each alphabetically).
pub fn keys() -> Vec<Key> {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<Config>();
    let root = schema.as_value();
    let defaults = toml::Value::try_from(Config::default()).ok();
    let mut out = Vec::new();
    walk(root, root, &mut Vec::new(), defaults.as_ref(), &mut out);
    out
}

fn walk(
    root: &Json,
    node: &Json,
    path: &mut Vec<String>,
    defaults: Option<&toml::Value>,
    out: &mut Vec<Key>,
) {
    let Some(properties) = resolve(root, node)
        .get("properties")
        .and_then(Json::as_object)
    else {
        return;
    };
    let mut sections = Vec::new();
    for (name, schema) in properties {
        let target = resolve(root, schema);
        let doc = description(schema)
            .or_else(|| description(target))
            .unwrap_or_default();
        let default = defaults.and_then(|d| d.get(name)).cloned();
        if target.get("properties").is_some() {
            sections.push((name, schema, doc, default));
            continue;
        }
        path.push(name.clone());
        out.push(Key {
            path: path.clone(),
            doc,
            section: false,
            default,
            choices: choices(root, target),
            kind: kind(target),
        });
        path.pop();
    }
    for (name, schema, doc, default) in sections {
        path.push(name.clone());
        out.push(Key {
            path: path.clone(),
            doc,
            section: true,
            default: None,
            choices: Vec::new(),
            kind: "table".into(),
        });
        walk(root, schema, path, default.as_ref(), out);
        path.pop();
    }
}

/// Follows a `$ref` (or the non-null branch of an optional value) to the schema it names.
fn resolve<'a>(root: &'a Json, node: &'a Json) -> &'a Json {
    if let Some(reference) = node.get("$ref").and_then(Json::as_str) {
        let mut target = root;
        for part in reference.trim_start_matches("#/").split('/') {
            match target.get(part) {
                Some(next) => target = next,
                None => return node,
            }
        }
        return resolve(root, target);
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(union).and_then(Json::as_array) {
            let real: Vec<&Json> = branches
                .iter()
                .filter(|b| b.get("type").and_then(Json::as_str) != Some("null"))
                .collect();
            if let [only] = real.as_slice() {
                return resolve(root, only);
            }
        }
    }
    node
}

fn description(node: &Json) -> Option<String> {
    let text = node.get("description")?.as_str()?;
    // Doc comments wrap at the source's width; the reference prints whole sentences.
    Some(
        text.split("\n\n")
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

fn choices(root: &Json, node: &Json) -> Vec<String> {
    if let Some(values) = node.get("enum").and_then(Json::as_array) {
        return values
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
    }
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|u| node.get(*u).and_then(Json::as_array))
        .flatten()
        .flat_map(|branch| {
            let branch = resolve(root, branch);
            match branch.get("const").and_then(Json::as_str) {
                Some(c) => vec![c.to_string()],
                None => choices(root, branch),
            }
        })
        .collect()
}

fn kind(node: &Json) -> String {
    match node.get("type") {
        Some(Json::String(t)) => t.clone(),
        Some(Json::Array(types)) => types
            .iter()
            .filter_map(Json::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "value".into(),
    }
}

/// The full default configuration as commented TOML: every key, its variable, its default
/// and what it means. Parsed back, it gives `Config::default()`.
pub fn toml_reference() -> String {
    let mut out = String::from(
        "# previewd configuration: every key with its environment variable and its default.\n\
         # Made by `previewd config` from the configuration struct itself.\n\
         # Layers, later winning: this file (--config FILE or PREVIEWD_CONFIG), then\n\
         # PREVIEWD_* variables (`__` between names), then command-line flags.\n",
    );
    for key in keys() {
        out.push('\n');
        for line in key.doc.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        if key.section {
            out.push_str(&format!("[{}]\n", key.name()));
            continue;
        }
        if !key.choices.is_empty() {
            out.push_str(&format!("# one of: {}\n", key.choices.join(", ")));
        }
        out.push_str(&format!("# env: {}\n", key.env()));
        let name = key.path.last().map(String::as_str).unwrap_or_default();
        match &key.default {
            Some(value) => out.push_str(&format!("{name} = {value}\n")),
            None => out.push_str(&format!("# {name} = …  ({}, unset by default)\n", key.kind)),
        }
    }
    out
}

/// `docs/configuration.md`: how configuration works, then [`toml_reference`].
pub fn markdown_reference() -> String {
    format!(
        "# Configuration\n\n\
         previewd reads one typed configuration (`src/config.rs`). Each key can be set in a TOML\n\
         file (`previewd serve --config FILE`, or `PREVIEWD_CONFIG=FILE`), by an environment\n\
         variable (`PREVIEWD_` and the key's path in capitals with `__` between the names, for\n\
         example `PREVIEWD_LIMITS__TEXT_BYTES=1048576`), or, for a few, by a flag of\n\
         `previewd serve`; later layers win. A value of a variable that parses as a TOML value\n\
         (number, boolean, array) is taken as that; anything else is a string. An unknown key\n\
         or variable stops the service with its name and the nearest valid key.\n\n\
         The reference below is the output of `previewd config`, made from the struct itself;\n\
         a test fails when this page and the struct disagree (`cargo run -- config --format\n\
         markdown > docs/configuration.md` remakes it).\n\n\
         ```toml\n{}```\n",
        toml_reference()
    )
}

/// The normalized form of a key name for matching a variable: lowercase, no `_`.
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Maps the `__`-separated names of a `PREVIEWD_*` variable to the key path they address,
/// matching each name case-insensitively and ignoring `_` (so camelCase keys are reachable).
/// Names that match nothing are kept lowercased, to be reported as unknown.
pub fn env_path(keys: &[Key], names: &[&str]) -> Vec<String> {
    let mut path: Vec<String> = Vec::new();
    for name in names {
        let wanted = loose(name);
        let found = keys
            .iter()
            .filter(|k| k.path.len() == path.len() + 1 && k.path[..path.len()] == path[..])
            .map(|k| &k.path[path.len()])
            .find(|n| loose(n) == wanted && n.eq_ignore_ascii_case(name))
            .or_else(|| {
                keys.iter()
                    .filter(|k| k.path.len() == path.len() + 1 && k.path[..path.len()] == path[..])
                    .map(|k| &k.path[path.len()])
                    .find(|n| loose(n) == wanted)
            })
            .cloned();
        path.push(found.unwrap_or_else(|| name.to_ascii_lowercase()));
    }
    path
}

/// Paths in `table` that are not configuration keys, in table order.
pub fn unknown_paths(keys: &[Key], table: &toml::Table) -> Vec<Vec<String>> {
    fn go(keys: &[Key], table: &toml::Table, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for (name, value) in table {
            path.push(name.clone());
            match keys.iter().find(|k| k.path == *path) {
                Some(key) if key.section => {
                    if let toml::Value::Table(inner) = value {
                        go(keys, inner, path, out);
                    }
                }
                Some(_) => {}
                None => out.push(path.clone()),
            }
            path.pop();
        }
    }
    let mut out = Vec::new();
    go(keys, table, &mut Vec::new(), &mut out);
    out
}

/// The valid value key nearest to an unknown `path`: same last name first, then the
/// closest last name, then the closest full name.
pub fn nearest<'a>(keys: &'a [Key], path: &[String]) -> Option<&'a Key> {
    let last = loose(path.last()?);
    let full = path.join(".");
    keys.iter().filter(|k| !k.section).min_by_key(|k| {
        let k_last = loose(k.path.last().map(String::as_str).unwrap_or_default());
        (
            strsim::levenshtein(&last, &k_last),
            strsim::levenshtein(&full, &k.name()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_a_meaning_and_known_ones_are_there() {
        let keys = keys();
        for key in &keys {
            assert!(!key.doc.is_empty(), "{} has no doc comment", key.name());
        }
        let names: Vec<String> = keys.iter().map(Key::name).collect();
        for wanted in [
            "listen",
            "limits.text_bytes",
            "security.api_token",
            "security.allowed_hosts",
            "diffs.defaults.fontSize",
            "browser.executable_path",
            "office.max_entries",
        ] {
            assert!(
                names.iter().any(|n| n == wanted),
                "{wanted} missing: {names:?}"
            );
        }
        let theme = keys
            .iter()
            .find(|k| k.name() == "diffs.defaults.theme")
            .unwrap();
        assert_eq!(theme.choices, ["light", "dark"]);
    }

    #[test]
    fn the_reference_parses_back_to_the_defaults() {
        let text = toml_reference();
        let parsed: Config = toml::from_str(&text).unwrap();
        assert_eq!(
            toml::Value::try_from(parsed).unwrap(),
            toml::Value::try_from(Config::default()).unwrap()
        );
        assert!(text.contains("# env: PREVIEWD_LIMITS__TEXT_BYTES\ntext_bytes = 2097152\n"));
        assert!(text.contains("# public_origin = …  (string, unset by default)"));
    }

    #[test]
    fn docs_configuration_md_is_the_current_reference() {
        let on_disk = include_str!("../docs/configuration.md");
        assert!(
            on_disk == markdown_reference(),
            "docs/configuration.md is out of date: run `cargo run -- config --format markdown > docs/configuration.md`"
        );
    }

    #[test]
    fn variables_reach_camel_case_keys_and_unknown_names_get_a_neighbour() {
        let keys = keys();
        assert_eq!(
            env_path(&keys, &["DIFFS", "DEFAULTS", "FONT_SIZE"]),
            ["diffs", "defaults", "fontSize"]
        );
        assert_eq!(env_path(&keys, &["API_TOKEN"]), ["api_token"]);
        let near = nearest(&keys, &["api_token".into()]).unwrap();
        assert_eq!(near.name(), "security.api_token");
        let near = nearest(&keys, &["limits".into(), "txet_bytes".into()]).unwrap();
        assert_eq!(near.name(), "limits.text_bytes");
    }
}
