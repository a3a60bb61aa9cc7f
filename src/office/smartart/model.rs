//! What a SmartArt graphic becomes: boxes in points inside the graphic's frame.

use serde::Serialize;

/// A SmartArt graphic ready to draw.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagram {
    /// Frame width in points.
    pub width: f64,
    /// Frame height in points.
    pub height: f64,
    /// Where the shapes come from.
    pub source: Source,
    /// The shapes, back to front, in points from the frame's top left.
    pub shapes: Vec<DiagramShape>,
}

/// Where a diagram's shapes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// The drawing part Office saved (`dsp:drawing`).
    Drawing,
    /// previewd's own list or hierarchy layout of the data model's text nodes.
    Layout,
}

/// One shape of a diagram.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagramShape {
    /// Left edge, points.
    pub x: f64,
    /// Top edge, points.
    pub y: f64,
    /// Width, points.
    pub width: f64,
    /// Height, points.
    pub height: f64,
    /// Clockwise rotation in degrees about the centre.
    pub rotation: f64,
    /// Preset geometry name (`rect`, `roundRect`, `ellipse`, `chevron` …); unknown names
    /// are drawn as rectangles.
    pub geometry: String,
    /// Fill colour (`#rrggbb`) and opacity; `None` is no fill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<Paint>,
    /// Outline colour and width in points; `None` is no outline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<(Paint, f64)>,
    /// Paragraphs of text.
    pub text: Vec<String>,
    /// The text's own box (`dsp:txXfrm`) when it is not the shape's, in frame points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_box: Option<[f64; 4]>,
    /// Text colour.
    pub text_color: Paint,
    /// Text size in points.
    pub font_size: f64,
    /// Bold text.
    pub bold: bool,
    /// Horizontal alignment of the text: `left`, `center` or `right`.
    pub align: String,
    /// Space between the text box's edges and its text, points: left, top, right,
    /// bottom (`a:bodyPr` `lIns`, `tIns`, `rIns`, `bIns`).
    pub insets: [f64; 4],
}

/// DrawingML's insets when `a:bodyPr` names none: 0.1 in left and right, 0.05 in top
/// and bottom.
pub const DEFAULT_INSETS: [f64; 4] = [7.2, 3.6, 7.2, 3.6];

/// A colour with its opacity.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Paint {
    /// Red, green, blue.
    pub rgb: [u8; 3],
    /// Opacity, 0 to 1.
    pub alpha: f64,
}

impl Paint {
    /// An opaque colour.
    pub fn opaque(rgb: [u8; 3]) -> Paint {
        Paint { rgb, alpha: 1.0 }
    }

    /// `#rrggbb`.
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.rgb[0], self.rgb[1], self.rgb[2])
    }
}

/// A text node of the data model with the nodes under it, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Node {
    /// Its text (paragraphs joined by a space).
    pub text: String,
    /// Its children.
    pub children: Vec<Node>,
}

impl Node {
    /// Levels of this subtree (1 for a node without children).
    pub fn depth(&self) -> usize {
        1 + self.children.iter().map(Node::depth).max().unwrap_or(0)
    }

    /// Leaves of this subtree (1 for a node without children).
    pub fn leaves(&self) -> usize {
        if self.children.is_empty() {
            1
        } else {
            self.children.iter().map(Node::leaves).sum()
        }
    }
}
