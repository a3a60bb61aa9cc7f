//! The chart model: what a DrawingML chart part (`c:chartSpace`) says, with colours
//! resolved against the theme and values read from the part's caches. It holds no SVG;
//! [`super::render`] draws it.

use serde::Serialize;

pub use crate::office::pptx::model::Color;

/// A chart, read from its part.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Chart {
    /// The chart part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Title text, if the chart shows one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The title's text style.
    pub title_style: TextStyle,
    /// Plot types in the plot area, in order (`bar`, `column`, `line`, `pie`,
    /// `doughnut`, `area`, `scatter`, `bubble`, `radar`, or the element's own name for
    /// types that are not drawn, e.g. `stock`).
    pub chart_types: Vec<String>,
    /// The plots (one per chart-type element of the plot area; a combo chart has more).
    pub plots: Vec<Plot>,
    /// The axes of the plot area, deleted ones included (they still scale their plots).
    pub axes: Vec<Axis>,
    /// The legend, when the chart has one (`c:legend`; without it there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legend: Option<Legend>,
    /// A manual layout of the plot area (`c:plotArea/c:layout/c:manualLayout`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot_layout: Option<ManualLayout>,
    /// The chart is a 3-D chart (`bar3DChart`, `c:view3D` …) drawn as its 2-D equivalent.
    pub drawn_as_2d: bool,
    /// Dates count from 1904 rather than 1900 (`c:date1904`).
    pub date1904: bool,
    /// The default text style of the chart (`c:chartSpace/c:txPr`, else 10 pt grey).
    pub text: TextStyle,
    /// The chart-space fill, when it sets a solid one (`c:chartSpace/c:spPr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<Color>,
    /// The chart area's outline (`c:chartSpace/c:spPr/a:ln`): colour and width in points,
    /// when it draws one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub border: Option<(Color, f64)>,
    /// The plot area's fill, when it sets a solid one (`c:plotArea/c:spPr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot_fill: Option<Color>,
    /// The plot area's outline: colour and width in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot_border: Option<(Color, f64)>,
    /// The typeface of the chart's text as the part names it (`c:chartSpace/c:txPr`'s
    /// `a:latin`, else `+mn-lt`, the theme's body font, which Office uses by default);
    /// the format's parser resolves theme references.
    pub font: String,
    /// Series or points beyond the caps were left out.
    pub truncated: bool,
    /// The automatic colours of varied points (pie slices …), in point order: the theme's
    /// accent cycle, as long as the longest varied series (at most 54 colours).
    pub palette: Vec<Color>,
}

impl Chart {
    /// A chart with no content (its part is missing or unreadable).
    pub fn empty() -> Chart {
        Chart {
            part: None,
            title: None,
            title_style: TextStyle::default_title(),
            chart_types: Vec::new(),
            plots: Vec::new(),
            axes: Vec::new(),
            legend: None,
            plot_layout: None,
            drawn_as_2d: false,
            date1904: false,
            text: TextStyle::default(),
            background: None,
            border: None,
            plot_fill: None,
            plot_border: None,
            font: "+mn-lt".to_owned(),
            truncated: false,
            palette: Vec::new(),
        }
    }

    /// The axis with id `id`.
    pub fn axis(&self, id: u32) -> Option<&Axis> {
        self.axes.iter().find(|a| a.id == id)
    }

    /// All series of all plots, in plot order.
    pub fn series(&self) -> impl Iterator<Item = &Series> {
        self.plots.iter().flat_map(|p| p.series.iter())
    }
}

/// Size, colour and weight of a piece of chart text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextStyle {
    /// Size in points.
    pub size: f64,
    /// Colour.
    pub color: Color,
    /// Bold.
    pub bold: bool,
    /// Rotation in degrees set by the element's `a:bodyPr/@rot`, when it sets one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<f64>,
}

impl Default for TextStyle {
    /// Office's chart text: 10 pt, `tx1` at 65 % luminance (#595959).
    fn default() -> Self {
        TextStyle {
            size: 10.0,
            color: Color::rgb(0x595959),
            bold: false,
            rotation: None,
        }
    }
}

impl TextStyle {
    /// Office's chart title: 14 pt at the default 10 pt text.
    pub fn default_title() -> TextStyle {
        TextStyle {
            size: 14.0,
            ..TextStyle::default()
        }
    }
}

/// What a plot draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PlotKind {
    /// Bars: vertical columns or, with [`Plot::horizontal`], horizontal bars.
    Bar,
    /// Lines through the category points.
    Line,
    /// Filled areas under the lines.
    Area,
    /// A pie (also `ofPieChart`, drawn as a plain pie).
    Pie,
    /// A ring.
    Doughnut,
    /// Points at x/y values.
    Scatter,
    /// Points at x/y values, sized by a third value.
    Bubble,
    /// Values on spokes around a centre.
    Radar,
    /// A surface (`surfaceChart`, `surface3DChart`), drawn as its 2-D equivalent, the
    /// contour chart: the values over categories and series seen from above, each value
    /// band (the value axis's major unit) in its own colour.
    Surface,
    /// A type that is not drawn (stock …).
    Other,
}

/// How the series of a plot share a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Grouping {
    /// Side by side (bars) or each on its own (lines, areas).
    Standard,
    /// Bars side by side.
    Clustered,
    /// Each on top of the ones before.
    Stacked,
    /// Stacked, each category summing to 100 %.
    PercentStacked,
}

impl Grouping {
    /// Whether values add up from series to series.
    pub fn stacks(self) -> bool {
        matches!(self, Grouping::Stacked | Grouping::PercentStacked)
    }
}

/// One chart-type element of the plot area with its series.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plot {
    /// What it draws.
    pub kind: PlotKind,
    /// Bars run left to right (`c:barDir val="bar"`).
    pub horizontal: bool,
    /// How series share a category.
    pub grouping: Grouping,
    /// Each point of a one-series plot takes its own colour (`c:varyColors`).
    pub vary_colors: bool,
    /// Gap between bar clusters, in percent of a bar's width (`c:gapWidth`, 150).
    pub gap_width: f64,
    /// Overlap of the bars in a cluster, −100 to 100 % (`c:overlap`).
    pub overlap: f64,
    /// Doughnut hole, in percent of the diameter (`c:holeSize`).
    pub hole_size: f64,
    /// Angle of the first slice, degrees clockwise from 12 o'clock (`c:firstSliceAng`).
    pub first_slice_angle: f64,
    /// Radar style is `filled`.
    pub filled: bool,
    /// Largest bubble, in percent of the default size (`c:bubbleScale`).
    pub bubble_scale: f64,
    /// The axis ids the plot is measured on (`c:axId`, category axis first).
    pub axis_ids: Vec<u32>,
    /// Data labels for all its series, when set at plot level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<DataLabels>,
    /// Series, in `c:order` order.
    pub series: Vec<Series>,
    /// A surface's band colours, lowest band first: each band's `c:bandFmt` fill over the
    /// automatic colour of its index (empty for other plots).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub band_colors: Vec<Color>,
}

/// One data series.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Category labels (`c:cat`, formatted by the cache's format code where it has one).
    pub categories: Vec<String>,
    /// The outer levels of multi-level categories (`c:multiLvlStrRef`), from the one
    /// next to the categories outwards: each level's labels over the runs of categories
    /// they group (Clothing over Dresses and Tops).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub category_levels: Vec<Vec<CategoryGroup>>,
    /// The categories as numbers, when their cache is numeric (`c:cat/c:numRef`): the
    /// dates a date axis places its points by.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub category_numbers: Vec<Option<f64>>,
    /// The format code of a numeric category cache, which a date axis linked to its
    /// source formats its labels with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_format: Option<String>,
    /// Every pie slice pulled out by this percent of the radius (the series'
    /// `c:explosion`), unless its point says otherwise.
    pub explosion: f64,
    /// Values (`c:val`, or `c:yVal` for scatter and bubble); missing points are `None`.
    pub values: Vec<Option<f64>>,
    /// X values of scatter and bubble series (`c:xVal`); empty means 1, 2, 3 …
    pub x_values: Vec<Option<f64>>,
    /// Bubble sizes (`c:bubbleSize`).
    pub sizes: Vec<Option<f64>>,
    /// The format code of the values' cache (`c:numCache/c:formatCode`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format_code: Option<String>,
    /// Fill colour: `c:spPr` when it sets one (a gradient's first stop), else the
    /// theme's accent cycle.
    pub color: Color,
    /// A gradient fill (`c:spPr/a:gradFill`) of the series' bars and areas, each drawn
    /// across its own box as Office does; lines, markers and varied points take `color`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<Gradient>,
    /// The colour is automatic (no `c:spPr` colour): the theme's accent cycle, or the
    /// shades of the chart style (`c:style`) of Office 2007 charts.
    pub automatic: bool,
    /// Line colour for lines, markers' outlines and bar outlines (`c:spPr/a:ln`); `None`
    /// with [`Series::no_line`] false means the fill colour for lines and none for bars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Color>,
    /// Line width in points.
    pub line_width: f64,
    /// `a:ln/a:noFill`: no line (scatter charts drawn as markers only).
    pub no_line: bool,
    /// `c:spPr/a:noFill`: no fill.
    pub no_fill: bool,
    /// Markers are drawn (line, scatter, radar).
    pub marker: bool,
    /// Marker size in points.
    pub marker_size: f64,
    /// Marker shape (`c:marker/c:symbol`): `circle`, `square`, `diamond`, `triangle`, `x`,
    /// `star`, `plus`, `dash` or `dot`; without one, Office's automatic shape for the
    /// series' index (diamond, square, triangle, x, star, circle, plus in turn).
    pub marker_symbol: String,
    /// Lines are smoothed.
    pub smooth: bool,
    /// Colours of single points (`c:dPt`).
    pub points: Vec<PointStyle>,
    /// Data labels of this series.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<DataLabels>,
    /// Labels of single points (`c:dLbls/c:dLbl`), by index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub point_labels: Vec<PointLabel>,
}

/// A gradient fill (`a:gradFill`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gradient {
    /// Its stops in order: position from 0 to 1 along the gradient, and colour.
    pub stops: Vec<(f64, Color)>,
    /// The direction of a linear gradient in degrees, clockwise from left to right
    /// (`a:lin ang`); `None` for a path gradient (`a:path`), drawn from the centre out.
    pub angle: Option<f64>,
}

/// The look of one point (`c:dPt`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointStyle {
    /// Point index.
    pub index: usize,
    /// Fill colour, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Pie slice pulled out, in percent of the radius (`c:explosion`).
    pub explosion: f64,
}

/// Which data labels are shown and where.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DataLabels {
    /// The value.
    pub value: bool,
    /// The share of the total (pie charts).
    pub percent: bool,
    /// The category name.
    pub category: bool,
    /// The series name.
    pub series_name: bool,
    /// `c:dLblPos`: `outEnd`, `inEnd`, `ctr`, `inBase`, `t`, `b`, `l`, `r`, `bestFit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Number format of the labels (`c:numFmt`), when not linked to the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format_code: Option<String>,
    /// Text style.
    pub text: TextStyle,
    /// What joins the parts of a label (`c:separator`); `None` is Office's default (see
    /// [`DataLabels::separator_or_default`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// Pie labels moved away from their slice are tied to it by a line
    /// (`c:showLeaderLines`).
    pub leader_lines: bool,
    /// The leader lines' colour (`c:leaderLines/c:spPr`, else Office's 35 % grey).
    pub leader_color: Color,
    /// The label's box (`c:spPr`): a fill behind the text, an outline around it. Office
    /// styles often set a white box, so that dark text stays readable on dark slices and
    /// bars.
    #[serde(skip_serializing_if = "LabelBox::is_empty")]
    pub frame: LabelBox,
    /// The text the author wrote for one point's label (`c:dLbl/c:tx/c:rich`), shown
    /// instead of the parts the flags above name; `None` for an automatic label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom: Option<Vec<LabelPart>>,
}

/// A piece of a data label's own text (`c:dLbl/c:tx/c:rich`): words as written, or a
/// field (`a:fld`) that Office fills with the point's data when it draws the label.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LabelPart {
    /// Written text; a new paragraph is a line break.
    Text(String),
    /// `VALUE` (and `YVALUE`): the value, in the label's number format.
    Value,
    /// `CATEGORYNAME` (and `XVALUE`): the point's category.
    Category,
    /// `SERIESNAME`: the series' name.
    SeriesName,
    /// `PERCENTAGE`: the point's share of its pie.
    Percent,
}

/// The box around a data label (`c:dLbls/c:spPr`, `c:dLbl/c:spPr`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelBox {
    /// Its solid fill; `None` is transparent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    /// Its outline's colour; `None` draws none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outline: Option<Color>,
    /// The room between the box's edge and the text, in points: across and down
    /// (`a:bodyPr` `lIns`/`tIns`).
    pub inset: (f64, f64),
}

impl LabelBox {
    /// Whether it draws nothing.
    pub fn is_empty(&self) -> bool {
        self.fill.is_none() && self.outline.is_none()
    }
}

impl DataLabels {
    /// Whether any label text is shown.
    pub fn any(&self) -> bool {
        self.value || self.percent || self.category || self.series_name || self.custom.is_some()
    }

    /// The separator in force: the part's own, else Office's default, a comma and a
    /// space, except for a pie label showing only its category and its percentage,
    /// which Office breaks onto two lines (`pie` says the label is a pie's).
    pub fn separator_or_default(&self, pie: bool) -> &str {
        match &self.separator {
            Some(s) => s,
            None if pie && self.category && self.percent && !self.value && !self.series_name => {
                "\n"
            }
            None => ", ",
        }
    }
}

/// A data label of one point (`c:dLbl`) that differs from its series' labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointLabel {
    /// Point index.
    pub index: usize,
    /// What the point's label shows; `None` when it is deleted (`c:delete`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<DataLabels>,
    /// Where the author dragged it: an offset from its automatic place, in fractions of
    /// the chart's width and height (`c:layout/c:manualLayout` `x`, `y` in factor mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<(f64, f64)>,
}

/// What an axis measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum AxisKind {
    /// Categories (`c:catAx`).
    Category,
    /// Dates as categories (`c:dateAx`).
    Date,
    /// Values (`c:valAx`).
    Value,
    /// Series, the depth axis of 3-D charts (`c:serAx`; not drawn).
    Series,
}

/// Where an axis draws its major tick marks (`c:majorTickMark`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TickMark {
    /// None (also when the element is absent).
    None,
    /// Outside the plot.
    Out,
    /// Inside the plot.
    In,
    /// Across the axis line.
    Cross,
}

/// A step of a date axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TimeUnit {
    /// Days.
    Days,
    /// Calendar months.
    Months,
    /// Calendar years.
    Years,
}

/// A label of an outer category level and the categories it spans.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryGroup {
    /// The first category of the group.
    pub start: usize,
    /// One past its last category.
    pub end: usize,
    /// The label.
    pub label: String,
}

/// An axis.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Axis {
    /// `c:axId`.
    pub id: u32,
    /// What it measures.
    pub kind: AxisKind,
    /// `c:axPos`: `l`, `r`, `t` or `b`.
    pub position: String,
    /// `c:delete`: not drawn, though it still scales its plots.
    pub deleted: bool,
    /// `c:scaling/c:orientation val="maxMin"`.
    pub reversed: bool,
    /// Fixed minimum (`c:scaling/c:min`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Fixed maximum (`c:scaling/c:max`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Fixed major unit (`c:majorUnit`; on a date axis, in `major_time_unit`s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub major_unit: Option<f64>,
    /// A date axis's slot: one category per day, month or year (`c:baseTimeUnit`);
    /// `None` lets the dates choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_time_unit: Option<TimeUnit>,
    /// The unit of a date axis's `major_unit` (`c:majorTimeUnit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub major_time_unit: Option<TimeUnit>,
    /// The labels' number format (`c:numFmt`) when not linked to the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format_code: Option<String>,
    /// `c:majorGridlines` is present, with its colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gridlines: Option<Color>,
    /// `c:minorGridlines` is present, with its colour: lines at every minor unit between
    /// the major ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minor_gridlines: Option<Color>,
    /// Fixed minor unit (`c:minorUnit`); without it Office divides the major unit by 5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minor_unit: Option<f64>,
    /// The axis line colour, `None` when it has none (`a:ln/a:noFill`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Color>,
    /// Its major tick marks, drawn in the line's colour.
    pub ticks: TickMark,
    /// Tick labels are shown (`c:tickLblPos` is not `none`).
    pub labels: bool,
    /// Tick label text style.
    pub text: TextStyle,
    /// Axis title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Axis title text style.
    pub title_style: TextStyle,
    /// The id of the axis it crosses (`c:crossAx`).
    pub cross_axis: u32,
    /// It crosses the other axis at that axis's maximum (`c:crosses val="max"`).
    pub crosses_max: bool,
    /// A category axis shows the outer levels of multi-level categories (unless
    /// `c:noMultiLvlLbl` is set).
    pub multi_level: bool,
    /// A value axis with `c:crossBetween val="midCat"`: the category axis it crosses puts
    /// its points on the tick marks (first and last at the plot's edges), not between.
    pub mid_category: bool,
}

/// Where the legend sits.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Legend {
    /// `c:legendPos`: `r` (the default), `l`, `t`, `b` or `tr`.
    pub position: String,
    /// Text style.
    pub text: TextStyle,
    /// Entries deleted with `c:legendEntry/c:delete`, by index.
    pub deleted: Vec<usize>,
}

/// A manual layout, as fractions of the chart space (`c:manualLayout`, `edge` mode).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManualLayout {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// The rectangle is the plot's inner area (without tick labels), `layoutTarget inner`.
    pub inner: bool,
}
