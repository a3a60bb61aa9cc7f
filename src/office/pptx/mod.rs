//! PowerPoint decks (`.pptx`, `.pptm`): a read-only viewer model, its parser and its
//! HTML renderer.
//!
//! [`parse_pptx`] opens the package behind the container guard, reads the slide list of
//! `ppt/presentation.xml` in `sldIdLst` order and walks each slide with its layout,
//! master and theme into a [`model::Presentation`]: placeholders take the position and
//! text style their layout and master give them, theme colours and fonts are resolved,
//! shapes carry preset or custom geometry, fills and outlines, pictures their crop,
//! groups their child transforms, tables their merges, charts their title and type.
//! A slide whose part is missing or damaged is kept as a "missing" slide with the reason;
//! guard breaches refuse the whole deck.
//!
//! The model holds no HTML. [`render_html`] turns it into one exact-aspect stage per
//! slide, positioned in slide points and scaled to the pane by CSS container units
//! ([`STYLESHEET`]); the viewer chrome (thumbnail rail, previous/next, keys, counter,
//! notes toggle, `#slide-N` links, lazy slides) is [`VIEWER_CSS`] and [`VIEWER_JS`],
//! which keep no global state, so any number of decks can share a page.

pub mod model;
pub mod render;

mod chart;
pub(crate) mod color;
mod effect;
mod fill;
pub(crate) mod geometry;
mod paint;
mod parse;
mod table;
mod tabs;
mod text;
mod theme;

pub use parse::{parse_package, parse_pptx};
pub use render::{
    render_html, render_slide, RenderOptions, ViewerScript, STYLESHEET, VIEWER_CSS, VIEWER_JS,
};
