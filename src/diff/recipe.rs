//! What a viewer page is rendered from, kept with the artifact so the page can be rendered
//! when someone opens it rather than when the agent makes the call.
//!
//! Rendering the viewer page is most of a `view` call's cost: syntax highlighting runs at
//! about 1 MB/s, so a 500-line change spends ~20 ms there against ~1 ms for everything
//! else. The agent waiting on `POST /api/v1/diffs` needs only the URL, and many artifacts
//! are never opened, so the call validates and diffs the input (every contract error is
//! still answered at once), stores this recipe durably, and the first `GET` of the viewer
//! renders the page and caches it beside the recipe.
//!
//! A recipe holds the validated input and the resolved view settings, not the config
//! defaults they came from, so a page rendered after a restart with another config looks
//! as it would have at call time. Rendering a recipe is deterministic: diffing and patch
//! parsing are pure functions of the input.

use serde::{Deserialize, Serialize};

use super::input::{DiffInput, DiffRequest, Presentation};
use super::options::{DiffDefaults, Layout, Theme};
use super::view::{render, ViewOptions};
use super::{model_for_input, DiffOutcome};

/// Layout version of the stored recipe; a recipe of another version is not rendered.
const RECIPE_VERSION: u32 = 1;

/// The validated input and view settings of one viewer page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewerRecipe {
    version: u32,
    input: DiffInput,
    path: Option<String>,
    lang: Option<String>,
    title: String,
    layout: Layout,
    theme: Theme,
    expand_unchanged: bool,
    presentation: Presentation,
}

/// Why a stored recipe cannot be rendered. Only a damaged or foreign file gets here: a
/// recipe is written only for input that was diffed successfully.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipeError(String);

impl std::fmt::Display for RecipeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecipeError {}

impl ViewerRecipe {
    /// The recipe of a validated request's viewer page.
    pub fn from_request(request: &DiffRequest) -> Self {
        ViewerRecipe {
            version: RECIPE_VERSION,
            input: request.input.clone(),
            path: request.path.clone(),
            lang: request.lang.clone(),
            title: request.title.clone(),
            layout: request.layout,
            theme: request.theme,
            expand_unchanged: request.expand_unchanged,
            presentation: request.presentation.clone(),
        }
    }

    /// The stored form (JSON).
    pub fn to_bytes(&self) -> Vec<u8> {
        // Plain data with string keys: serialization cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads a stored recipe.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RecipeError> {
        let recipe: ViewerRecipe = serde_json::from_slice(bytes)
            .map_err(|e| RecipeError(format!("unreadable viewer recipe: {e}")))?;
        if recipe.version != RECIPE_VERSION {
            return Err(RecipeError(format!(
                "viewer recipe version {} is not {RECIPE_VERSION}",
                recipe.version
            )));
        }
        Ok(recipe)
    }

    /// Renders the viewer page: the same model and HTML the call would have produced.
    pub fn render(&self) -> Result<String, RecipeError> {
        let model = match model_for_input(&self.input, self.path.as_deref()) {
            Ok(DiffOutcome::Changed(model)) => model,
            Ok(DiffOutcome::Unchanged) => {
                return Err(RecipeError("viewer recipe has no changes".into()))
            }
            Err(e) => return Err(RecipeError(e.message().to_string())),
        };
        let options = ViewOptions {
            layout: self.layout,
            theme: self.theme,
            presentation: self.presentation.clone(),
            expand_unchanged: self.expand_unchanged,
            lang: self.lang.clone(),
            // Asset prefix, highlight budget and the rest as for any viewer page.
            ..ViewOptions::from_defaults(&DiffDefaults::default(), self.title.clone())
        };
        Ok(render(&model, &options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::build_model;
    use crate::diff::view::Variant;

    fn request(json: serde_json::Value) -> DiffRequest {
        DiffRequest::from_json(&json, &DiffDefaults::default()).expect("valid request")
    }

    fn page_now(request: &DiffRequest) -> String {
        let DiffOutcome::Changed(model) = build_model(request).expect("model") else {
            panic!("unchanged")
        };
        render(&model, &ViewOptions::from_request(request, Variant::Viewer))
    }

    #[test]
    fn a_stored_recipe_renders_the_page_the_call_would_have_rendered() {
        for json in [
            serde_json::json!({
                "before": "fn a() {}\nlet x = 1;\n",
                "after": "fn a() {}\nlet x = 2;\n",
                "path": "src/lib.rs",
                "theme": "light",
                "layout": "split",
                "expandUnchanged": true,
                "title": "<b>t</b>",
            }),
            serde_json::json!({
                "patch": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n",
                "lang": "python",
            }),
        ] {
            let request = request(json);
            let stored = ViewerRecipe::from_request(&request).to_bytes();
            let page = ViewerRecipe::from_bytes(&stored)
                .expect("readable")
                .render()
                .expect("renders");
            assert_eq!(page, page_now(&request));
        }
    }

    #[test]
    fn a_damaged_or_foreign_recipe_is_an_error_not_a_page() {
        let good = ViewerRecipe::from_request(&request(serde_json::json!({
            "before": "a\n", "after": "b\n",
        })));
        assert!(ViewerRecipe::from_bytes(b"{").is_err());
        assert!(ViewerRecipe::from_bytes(b"[]").is_err());
        let mut other = good.clone();
        other.version = 99;
        assert!(ViewerRecipe::from_bytes(&other.to_bytes()).is_err());
        let mut empty = good.clone();
        empty.input = DiffInput::Patch {
            patch: "not a patch".into(),
        };
        assert!(empty.render().is_err());
        let mut same = good;
        same.input = DiffInput::BeforeAfter {
            before: "a\n".into(),
            after: "a\n".into(),
        };
        assert!(same.render().is_err());
    }
}
