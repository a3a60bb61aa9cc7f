//! Reads a chart part (`c:chartSpace`) into a [`Chart`].
//!
//! Values come from the caches the part carries (`c:numCache`, `c:strCache`, literals);
//! an embedded workbook is never opened. Colours resolve through the theme of the
//! document that shows the chart. Everything is capped: [`MAX_SERIES`] series,
//! [`MAX_POINTS`] points a series and [`MAX_TOTAL_POINTS`] in all, whatever `c:ptCount`
//! claims; a value that is not a finite number is a missing point.

use crate::office::pptx::color::{number, tinted, ColorCtx};
use crate::office::xlsx::numfmt::{general, NumberFormat};
use crate::office::xml::Element;
use crate::office::Ns;

use super::model::{
    Axis, AxisKind, CategoryGroup, Chart, Color, DataLabels, Gradient, Grouping, LabelBox,
    LabelPart, Legend, ManualLayout, Plot, PlotKind, PointLabel, PointStyle, Series, TextStyle,
    TickMark, TimeUnit,
};
use super::palette::{luminance, series_color};

/// Most series kept in a chart.
pub const MAX_SERIES: usize = 64;
/// Most points kept in a series.
pub const MAX_POINTS: usize = 1_000;
/// Most points kept in a chart, all series together.
pub const MAX_TOTAL_POINTS: usize = 10_000;
/// Most axes kept.
const MAX_AXES: usize = 8;
/// Most characters kept of a title or label.
const MAX_TEXT: usize = 200;

/// Reads a parsed chart part's root against the colours of the showing document's theme.
pub(crate) fn parse_chart(root: Element<'_>, colors: &ColorCtx<'_>) -> Chart {
    let mut out = Chart::empty();
    // A part without any shape or text properties was left to Office 2007's chart style
    // (`c:style`), whose text is the theme's text colour (black), not the 65 % grey of
    // the text properties Office 2013 and later write out (`powertools-CU005`).
    let styled = root
        .descendants()
        .any(|e| e.is(Ns::C, "spPr") || e.is(Ns::C, "txPr"));
    let base = if styled {
        TextStyle::default()
    } else {
        TextStyle {
            color: colors.scheme_color("tx1").unwrap_or(Color::rgb(0)),
            ..TextStyle::default()
        }
    };
    out.text = text_style(root, &base, colors);
    if let Some(face) = root
        .child(Ns::C, "txPr")
        .and_then(|t| t.descendants().find(|e| e.is(Ns::A, "latin")))
        .and_then(|l| l.attr(Ns::None, "typeface"))
        .map(str::trim)
        .filter(|f| !f.is_empty() && f.len() <= 64)
    {
        out.font = face.to_owned();
    }
    out.background = root
        .child(Ns::C, "spPr")
        .and_then(|sp| area_color(sp, colors));
    out.border = root.child(Ns::C, "spPr").and_then(|sp| outline(sp, colors));
    let style = child_num(root, "style")
        .filter(|s| (1.0..=48.0).contains(s))
        .map(|s| s as usize);
    // Office 2007 styles 41–48 are drawn on the theme's dark colour, in its light one.
    let dark = style.is_some_and(|s| s > 40);
    if dark {
        out.background = out.background.or(colors.scheme_color("tx1"));
        if root.child(Ns::C, "txPr").is_none() {
            out.text.color = colors.scheme_color("bg1").unwrap_or(Color::rgb(0xFFFFFF));
        }
    }
    let Some(chart) = root.child(Ns::C, "chart") else {
        return out;
    };
    out.title_style = TextStyle {
        size: out.text.size * 1.4,
        ..out.text
    };
    out.drawn_as_2d = chart.child(Ns::C, "view3D").is_some();
    out.date1904 = child_bool(root, "date1904") == Some(true);
    let plot_area = chart.child(Ns::C, "plotArea");
    out.plot_layout = plot_area.and_then(manual_layout);
    let plot_sp = plot_area.and_then(|p| p.child(Ns::C, "spPr"));
    out.plot_fill = plot_sp.and_then(|sp| area_color(sp, colors));
    out.plot_border = plot_sp.and_then(|sp| outline(sp, colors));

    let mut budget = MAX_TOTAL_POINTS;
    let mut series_left = MAX_SERIES;
    for el in plot_area.into_iter().flat_map(|p| p.elements()) {
        if el.ns() != Ns::C {
            continue;
        }
        let name = el.name();
        if let Some(base) = name.strip_suffix("Chart") {
            let (base, three_d) = match base.strip_suffix("3D") {
                Some(b) => (b, true),
                None => (base, false),
            };
            out.drawn_as_2d |= three_d;
            let plot = plot(el, base, colors, &out.text, &mut budget, &mut series_left);
            out.truncated |= plot.1;
            out.chart_types.push(type_name(&plot.0, base));
            out.plots.push(plot.0);
        } else if matches!(name, "catAx" | "valAx" | "dateAx" | "serAx")
            && out.axes.len() < MAX_AXES
        {
            out.axes.push(axis(el, colors, &out.text, dark));
        }
    }
    out.chart_types.truncate(8);
    if let Some(s) = style {
        restyle(&mut out, s, colors);
    }
    let varied = out
        .plots
        .iter()
        .filter(|p| p.vary_colors || p.kind == PlotKind::Doughnut)
        .flat_map(|p| p.series.iter().map(|s| s.values.len()))
        .max()
        .unwrap_or(0);
    out.palette = (0..varied.min(54))
        .map(|i| series_color(colors, i))
        .collect();
    out.title = title(chart, &out, colors);
    if let Some(t) = chart.child(Ns::C, "title") {
        out.title_style = rich_style(t, &out.title_style, colors);
    }
    out.legend = chart
        .child(Ns::C, "legend")
        .map(|l| legend(l, colors, &out.text));
    out
}

/// Office's default colour scheme (dk1, lt1, dk2, lt2, accent1–6, hlink, folHlink), for
/// a chart part read on its own.
const OFFICE_COLORS: [u32; 12] = [
    0x000000, 0xFFFFFF, 0x44546A, 0xE7E6E6, 0x4472C4, 0xED7D31, 0xA5A5A5, 0xFFC000, 0x5B9BD5,
    0x70AD47, 0x0563C1, 0x954F72,
];

/// Reads a chart part's bytes on their own (outside their package: fuzzing, tools), under
/// the default document limits and in Office's default colours; `None` when the bytes
/// are not XML within those limits.
pub fn parse_chart_part(bytes: &[u8]) -> Option<Chart> {
    let limits = crate::office::OfficeLimits::default();
    let opts = crate::office::xml::XmlOptions {
        max_depth: limits.max_xml_depth,
        max_nodes: limits.max_xml_nodes,
        understood: &[Ns::C],
    };
    let doc = crate::office::xml::parse_xml("chart.xml", bytes, &opts).ok()?;
    let scheme = OFFICE_COLORS.map(Color::rgb);
    Some(parse_chart(doc.root(), &ColorCtx::from_scheme(&scheme)))
}

/// Applies an Office 2007 chart style's colours (`c:style`, 1–48: eight columns of
/// colour schemes in six rows of effects) to series with automatic colours: column 1 is
/// greys, column 2 the accent cycle (as without a style), columns 3–8 shades of one accent,
/// darkest first.
fn restyle(out: &mut Chart, style: usize, colors: &ColorCtx<'_>) {
    let column = (style - 1) % 8;
    if column == 1 {
        return;
    }
    let base = if column == 0 {
        Color::rgb(0x808080)
    } else {
        colors
            .scheme_color(&format!("accent{}", column - 1))
            .unwrap_or(Color::rgb(0x4472C4))
    };
    let count = out.series().count();
    let mut i = 0;
    for p in &mut out.plots {
        for s in &mut p.series {
            if s.automatic {
                s.color = shade(base, i, count);
            }
            i += 1;
        }
    }
    let varied = out.palette.len();
    out.palette = (0..varied).map(|k| shade(base, k, varied)).collect();
}

/// The `i`-th of `n` shades of `base`, from dark (lumMod 60 %) to light (40 % white).
fn shade(base: Color, i: usize, n: usize) -> Color {
    let t = if n > 1 {
        i as f64 / (n - 1) as f64
    } else {
        0.5
    };
    let f = -0.4 + 0.8 * t;
    if f < 0.0 {
        luminance(base, 1.0 + f, 0.0)
    } else {
        luminance(base, 1.0 - f, f)
    }
}

/// The name a plot is shown by: `column` for vertical bars, `doughnut`, or the element's
/// own name for types that are not drawn.
fn type_name(plot: &Plot, base: &str) -> String {
    match plot.kind {
        PlotKind::Bar if plot.horizontal => "bar".to_owned(),
        PlotKind::Bar => "column".to_owned(),
        PlotKind::Line => "line".to_owned(),
        PlotKind::Area => "area".to_owned(),
        PlotKind::Pie => "pie".to_owned(),
        PlotKind::Doughnut => "doughnut".to_owned(),
        PlotKind::Scatter => "scatter".to_owned(),
        PlotKind::Bubble => "bubble".to_owned(),
        PlotKind::Radar => "radar".to_owned(),
        PlotKind::Surface => "surface".to_owned(),
        PlotKind::Other => base
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(24)
            .collect(),
    }
}

/// `c:{name}/@val` of an element.
fn child_val<'a>(el: Element<'a>, name: &str) -> Option<&'a str> {
    el.child(Ns::C, name).and_then(|c| c.attr(Ns::None, "val"))
}

/// A boolean `c:{name}/@val`; an element without `val` means true, as in the schema.
fn child_bool(el: Element<'_>, name: &str) -> Option<bool> {
    let c = el.child(Ns::C, name)?;
    Some(!matches!(c.attr(Ns::None, "val"), Some("0" | "false")))
}

fn child_num(el: Element<'_>, name: &str) -> Option<f64> {
    child_val(el, name).and_then(number)
}

/// One chart-type element and its series; the flag says points or series were cut.
fn plot(
    el: Element<'_>,
    base: &str,
    colors: &ColorCtx<'_>,
    text: &TextStyle,
    budget: &mut usize,
    series_left: &mut usize,
) -> (Plot, bool) {
    let kind = match base {
        "bar" => PlotKind::Bar,
        "line" => PlotKind::Line,
        "area" => PlotKind::Area,
        "pie" | "ofPie" => PlotKind::Pie,
        "doughnut" => PlotKind::Doughnut,
        "scatter" => PlotKind::Scatter,
        "bubble" => PlotKind::Bubble,
        "radar" => PlotKind::Radar,
        "surface" => PlotKind::Surface,
        _ => PlotKind::Other,
    };
    let grouping = match child_val(el, "grouping") {
        Some("stacked") => Grouping::Stacked,
        Some("percentStacked") => Grouping::PercentStacked,
        Some("clustered") => Grouping::Clustered,
        // A bar chart without grouping is clustered (the schema's default).
        _ if kind == PlotKind::Bar => Grouping::Clustered,
        _ => Grouping::Standard,
    };
    let radar_style = child_val(el, "radarStyle").unwrap_or("marker");
    let scatter_style = child_val(el, "scatterStyle").unwrap_or("marker");
    let mut plot = Plot {
        kind,
        horizontal: child_val(el, "barDir") == Some("bar"),
        grouping,
        vary_colors: child_bool(el, "varyColors").unwrap_or(false),
        gap_width: child_num(el, "gapWidth").unwrap_or(150.0).clamp(0.0, 500.0),
        overlap: child_num(el, "overlap")
            .unwrap_or(if grouping.stacks() { 100.0 } else { 0.0 })
            .clamp(-100.0, 100.0),
        // Office writes the hole size; the schema's default is 10 %.
        hole_size: child_num(el, "holeSize").unwrap_or(10.0).clamp(1.0, 90.0),
        first_slice_angle: child_num(el, "firstSliceAng")
            .unwrap_or(0.0)
            .clamp(0.0, 360.0),
        filled: radar_style == "filled",
        bubble_scale: child_num(el, "bubbleScale")
            .unwrap_or(100.0)
            .clamp(0.0, 300.0),
        axis_ids: el
            .children_named(Ns::C, "axId")
            .filter_map(|a| a.attr(Ns::None, "val")?.trim().parse().ok())
            .take(3)
            .collect(),
        labels: el
            .child(Ns::C, "dLbls")
            .and_then(|d| data_labels(d, colors, text)),
        series: Vec::new(),
        band_colors: if kind == PlotKind::Surface {
            band_colors(el, colors)
        } else {
            Vec::new()
        },
    };
    let plot_markers = child_bool(el, "marker");
    let mut cut = false;
    let mut sers: Vec<(u64, Element<'_>)> = el
        .children_named(Ns::C, "ser")
        .enumerate()
        .map(|(i, s)| {
            let order = child_val(s, "order")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(i as u64);
            (order, s)
        })
        .collect();
    sers.sort_by_key(|(o, _)| *o);
    for (_, ser) in sers {
        if *series_left == 0 || *budget == 0 {
            cut = true;
            break;
        }
        *series_left -= 1;
        let idx = child_val(ser, "idx")
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(plot.series.len());
        let (s, s_cut) = series(ser, &plot, idx, colors, text, budget);
        cut |= s_cut;
        let symbol = ser
            .child(Ns::C, "marker")
            .and_then(|m| child_val(m, "symbol"));
        let mut s = s;
        s.marker = match kind {
            PlotKind::Line => plot_markers != Some(false) && symbol != Some("none"),
            PlotKind::Radar => radar_style == "marker" && symbol != Some("none"),
            PlotKind::Scatter => symbol != Some("none") && scatter_style != "line",
            _ => false,
        };
        // The `marker` scatter style has no lines whatever the series' outline says.
        if kind == PlotKind::Scatter && scatter_style == "marker" {
            s.no_line = true;
        }
        plot.series.push(s);
    }
    (plot, cut)
}

/// Most value bands a surface is drawn with (its value axis may ask for more: the scale
/// then takes a larger unit).
pub(super) const MAX_BANDS: usize = 16;

/// A surface's band colours: the automatic colour of each band's index (the accent
/// cycle, as for series), under the fill its `c:bandFmts/c:bandFmt` gives.
fn band_colors(el: Element<'_>, colors: &ColorCtx<'_>) -> Vec<Color> {
    let mut out: Vec<Color> = (0..MAX_BANDS).map(|i| series_color(colors, i)).collect();
    for f in el
        .child(Ns::C, "bandFmts")
        .into_iter()
        .flat_map(|b| b.children_named(Ns::C, "bandFmt"))
    {
        let idx = child_val(f, "idx").and_then(|v| v.trim().parse::<usize>().ok());
        let fill = f.child(Ns::C, "spPr").and_then(|sp| fill_color(sp, colors));
        if let (Some(i), Some(c)) = (idx.filter(|i| *i < MAX_BANDS), fill) {
            out[i] = c;
        }
    }
    out
}

/// Office's automatic marker shapes, by series index.
const AUTO_SYMBOLS: [&str; 7] = [
    "diamond", "square", "triangle", "x", "star", "circle", "plus",
];

/// One `c:ser`.
fn series(
    ser: Element<'_>,
    plot: &Plot,
    idx: usize,
    colors: &ColorCtx<'_>,
    text: &TextStyle,
    budget: &mut usize,
) -> (Series, bool) {
    let name = ser.child(Ns::C, "tx").and_then(|tx| {
        let s = cached_strings(tx, 1).0.join(" ");
        (!s.is_empty()).then(|| clip(&s))
    });
    let xy = matches!(plot.kind, PlotKind::Scatter | PlotKind::Bubble);
    let values_el = ser.child(Ns::C, if xy { "yVal" } else { "val" });
    let room = (*budget).min(MAX_POINTS);
    let (values, format_code, mut cut) = values_el
        .map(|v| cached_numbers(v, room))
        .unwrap_or_default();
    *budget = budget.saturating_sub(values.len());
    let (categories, x_values) = if xy {
        let x = ser.child(Ns::C, "xVal");
        // X values may be text: then they are categories numbered 1, 2, 3 …
        let numbers = x.map(|x| cached_numbers(x, room)).unwrap_or_default();
        if numbers.0.iter().any(Option::is_some) {
            (Vec::new(), numbers.0)
        } else {
            (
                x.map(|x| cached_strings(x, room).0).unwrap_or_default(),
                Vec::new(),
            )
        }
    } else {
        let (cats, c) = ser
            .child(Ns::C, "cat")
            .map(|c| cached_strings(c, room))
            .unwrap_or_default();
        cut |= c;
        (cats, Vec::new())
    };
    let cat = ser.child(Ns::C, "cat").filter(|_| !xy);
    // Numeric categories (dates, most often) are kept as numbers too, for date axes.
    let (category_numbers, category_format) = match cat {
        Some(cat)
            if cat
                .elements()
                .any(|e| e.ns() == Ns::C && matches!(e.name(), "numRef" | "numLit")) =>
        {
            let (numbers, format, _) = cached_numbers(cat, room);
            (numbers, format)
        }
        _ => (Vec::new(), None),
    };
    let category_levels = cat.map_or_else(Vec::new, |cat| outer_levels(cat, categories.len()));
    let sizes = if plot.kind == PlotKind::Bubble {
        ser.child(Ns::C, "bubbleSize")
            .map(|b| cached_numbers(b, room).0)
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let sp = ser.child(Ns::C, "spPr");
    let fill = sp.and_then(|sp| fill_color(sp, colors));
    let gradient = sp.and_then(|sp| gradient_fill(sp, colors));
    let no_fill = sp.is_some_and(|sp| sp.child(Ns::A, "noFill").is_some());
    let ln = sp.and_then(|sp| sp.child(Ns::A, "ln"));
    let no_line = ln.is_some_and(|l| l.child(Ns::A, "noFill").is_some());
    let line = ln.and_then(|l| fill_color(l, colors));
    let line_width = ln
        .and_then(|l| l.attr(Ns::None, "w"))
        .and_then(number)
        .map(|w| (w / 12_700.0).clamp(0.0, 20.0))
        // Office's default series line: 2.25 pt.
        .unwrap_or(2.25);
    let auto = series_color(colors, idx);
    // A line series takes its line's colour as its colour (legend key, markers).
    let color = match plot.kind {
        PlotKind::Line | PlotKind::Radar if !plot.filled => line.or(fill).unwrap_or(auto),
        PlotKind::Scatter => fill.or(line).unwrap_or(auto),
        _ => fill.unwrap_or(auto),
    };
    let marker = ser.child(Ns::C, "marker");
    let marker_size = marker
        .and_then(|m| child_num(m, "size"))
        .unwrap_or(5.0)
        .clamp(2.0, 72.0);
    let marker_symbol = match marker.and_then(|m| child_val(m, "symbol")) {
        Some(
            sym @ ("circle" | "square" | "diamond" | "triangle" | "x" | "star" | "plus" | "dash"
            | "dot"),
        ) => sym.to_owned(),
        // `auto`, `picture` (drawn as the automatic shape) or no symbol.
        _ => AUTO_SYMBOLS[idx % AUTO_SYMBOLS.len()].to_owned(),
    };
    let explosion = child_num(ser, "explosion").unwrap_or(0.0).clamp(0.0, 400.0);
    let mut points: Vec<PointStyle> = ser
        .children_named(Ns::C, "dPt")
        .take(MAX_POINTS)
        .filter_map(|d| {
            let index = child_val(d, "idx")?.trim().parse::<usize>().ok()?;
            (index < MAX_POINTS).then(|| PointStyle {
                index,
                color: d.child(Ns::C, "spPr").and_then(|sp| fill_color(sp, colors)),
                explosion: child_num(d, "explosion")
                    .unwrap_or(explosion)
                    .clamp(0.0, 400.0),
            })
        })
        .collect();
    points.sort_by_key(|p| p.index);
    points.dedup_by_key(|p| p.index);
    let dlbls = ser.child(Ns::C, "dLbls");
    let labels = dlbls.and_then(|d| data_labels(d, colors, text));
    let point_labels = dlbls.map_or_else(Vec::new, |d| point_labels(d, colors, text));
    let s = Series {
        name,
        gradient,
        automatic: fill.is_none() && line.is_none(),
        categories,
        category_levels,
        category_numbers,
        category_format,
        explosion,
        values,
        x_values,
        sizes,
        format_code,
        color,
        line,
        line_width,
        no_line,
        no_fill,
        marker: false,
        marker_size,
        marker_symbol,
        smooth: child_bool(ser, "smooth").unwrap_or(false),
        points,
        labels,
        point_labels,
    };
    (s, cut)
}

/// The colour of a solid (or, approximated by its first stop, gradient) fill among the
/// children of `el`.
fn fill_color(el: Element<'_>, colors: &ColorCtx<'_>) -> Option<Color> {
    if let Some(f) = el.child(Ns::A, "solidFill") {
        return colors.child_color(f);
    }
    let stop = el
        .child(Ns::A, "gradFill")?
        .child(Ns::A, "gsLst")?
        .children_named(Ns::A, "gs")
        .next()?;
    colors.child_color(stop)
}

/// Most stops of a gradient kept.
const MAX_STOPS: usize = 16;

/// A gradient fill among the children of `el` (`a:gradFill` with two stops or more).
fn gradient_fill(el: Element<'_>, colors: &ColorCtx<'_>) -> Option<Gradient> {
    let g = el.child(Ns::A, "gradFill")?;
    let mut stops: Vec<(f64, Color)> = g
        .child(Ns::A, "gsLst")?
        .children_named(Ns::A, "gs")
        .take(MAX_STOPS)
        .filter_map(|gs| {
            let pos = gs.attr(Ns::None, "pos").and_then(number).unwrap_or(0.0) / 100_000.0;
            Some((pos.clamp(0.0, 1.0), colors.child_color(gs)?))
        })
        .collect();
    if stops.len() < 2 {
        return None;
    }
    stops.sort_by(|a, b| a.0.total_cmp(&b.0));
    let angle = match g.child(Ns::A, "path") {
        Some(_) => None,
        None => Some(
            g.child(Ns::A, "lin")
                .and_then(|l| l.attr(Ns::None, "ang"))
                .and_then(number)
                .map_or(0.0, |a| (a / 60_000.0).rem_euclid(360.0)),
        ),
    };
    Some(Gradient { stops, angle })
}

/// The one colour an area's fill (`c:spPr`) is drawn in: a solid fill's colour, or the
/// mean of a gradient's stops (the chart area's dark radial gradient of Office's styles
/// is drawn flat: its text is set in light colours for it).
fn area_color(sp: Element<'_>, colors: &ColorCtx<'_>) -> Option<Color> {
    if let Some(f) = sp.child(Ns::A, "solidFill") {
        return colors.child_color(f);
    }
    let stops: Vec<Color> = sp
        .child(Ns::A, "gradFill")?
        .child(Ns::A, "gsLst")?
        .children_named(Ns::A, "gs")
        .take(16)
        .filter_map(|g| colors.child_color(g))
        .collect();
    if stops.is_empty() {
        return None;
    }
    let mean = |f: fn(&Color) -> u8| {
        let sum: u32 = stops.iter().map(|c| u32::from(f(c))).sum();
        (sum as f64 / stops.len() as f64).round() as u8
    };
    Some(Color {
        r: mean(|c| c.r),
        g: mean(|c| c.g),
        b: mean(|c| c.b),
        alpha: stops[0].alpha,
    })
}

/// `c:dLbls`; `None` when deleted or showing nothing.
fn data_labels(el: Element<'_>, colors: &ColorCtx<'_>, text: &TextStyle) -> Option<DataLabels> {
    if child_bool(el, "delete") == Some(true) {
        return None;
    }
    let labels = label_settings(el, None, colors, text);
    labels.any().then_some(labels)
}

/// Office's leader lines: `tx1` at 35 % (`lumMod 35 %`, `lumOff 65 %`).
const LEADER_GREY: Color = Color::rgb(0xA6A6A6);

/// What a `c:dLbls` or `c:dLbl` element says, each setting it leaves out taken from
/// `base` (a point's label inherits its series' settings), else Office's default.
fn label_settings(
    el: Element<'_>,
    base: Option<&DataLabels>,
    colors: &ColorCtx<'_>,
    text: &TextStyle,
) -> DataLabels {
    let flag =
        |name: &str, inherited: Option<bool>| child_bool(el, name).or(inherited).unwrap_or(false);
    let position = child_val(el, "dLblPos")
        .filter(|p| {
            matches!(
                *p,
                "outEnd" | "inEnd" | "ctr" | "inBase" | "t" | "b" | "l" | "r" | "bestFit"
            )
        })
        .map(str::to_owned);
    // Whitespace is the separator's point ("\n", " "): it is kept as written.
    let separator = el
        .child(Ns::C, "separator")
        .map(|s| s.text().chars().take(MAX_SEPARATOR).collect::<String>());
    let leader_color = el
        .child(Ns::C, "leaderLines")
        .and_then(|l| l.child(Ns::C, "spPr"))
        .and_then(|sp| sp.child(Ns::A, "ln"))
        .and_then(|ln| fill_color(ln, colors));
    DataLabels {
        value: flag("showVal", base.map(|b| b.value)),
        percent: flag("showPercent", base.map(|b| b.percent)),
        category: flag("showCatName", base.map(|b| b.category)),
        series_name: flag("showSerName", base.map(|b| b.series_name)),
        position: position.or_else(|| base.and_then(|b| b.position.clone())),
        format_code: format_code(el).or_else(|| base.and_then(|b| b.format_code.clone())),
        text: rich_style(el, base.map_or(text, |b| &b.text), colors),
        separator: separator.or_else(|| base.and_then(|b| b.separator.clone())),
        leader_lines: flag("showLeaderLines", base.map(|b| b.leader_lines)),
        leader_color: leader_color
            .or(base.map(|b| b.leader_color))
            .unwrap_or(LEADER_GREY),
        frame: label_box(el, colors)
            .or(base.map(|b| b.frame))
            .unwrap_or_default(),
        // Never inherited: a series' `c:dLbls` has no text of its own.
        custom: custom_label(el),
    }
}

/// Most characters of a label's own text kept.
const MAX_LABEL_TEXT: usize = 255;

/// A point label's own text (`c:tx/c:rich`): its runs, line breaks and fields, the
/// paragraphs on lines of their own; `None` for an automatic label.
fn custom_label(el: Element<'_>) -> Option<Vec<LabelPart>> {
    let rich = el.child(Ns::C, "tx")?.child(Ns::C, "rich")?;
    let mut parts = Vec::new();
    let mut room = MAX_LABEL_TEXT;
    let mut push_text = |parts: &mut Vec<LabelPart>, text: &str| {
        let text: String = text.chars().take(room).collect();
        room -= text.chars().count();
        match parts.last_mut() {
            Some(LabelPart::Text(t)) => t.push_str(&text),
            _ if !text.is_empty() => parts.push(LabelPart::Text(text)),
            _ => {}
        }
    };
    for (n, p) in rich.children_named(Ns::A, "p").enumerate() {
        if n > 0 {
            push_text(&mut parts, "\n");
        }
        for item in p.elements().filter(|e| e.ns() == Ns::A) {
            let cached = || {
                item.child(Ns::A, "t")
                    .map(|t| t.text().into_owned())
                    .unwrap_or_default()
            };
            match item.name() {
                "r" => push_text(&mut parts, &cached()),
                "br" => push_text(&mut parts, "\n"),
                "fld" => {
                    let field = match item.attr(Ns::None, "type") {
                        Some("VALUE" | "YVALUE") => LabelPart::Value,
                        Some("CATEGORYNAME" | "XVALUE") => LabelPart::Category,
                        Some("SERIESNAME") => LabelPart::SeriesName,
                        Some("PERCENTAGE") => LabelPart::Percent,
                        // Other fields (a cell range, a bubble size) show the text
                        // Office cached for them, unless that is only its
                        // "[CELLRANGE]"-style placeholder.
                        _ => {
                            let text = cached();
                            if !(text.starts_with('[') && text.ends_with(']')) {
                                push_text(&mut parts, &text);
                            }
                            continue;
                        }
                    };
                    if parts.len() < MAX_LABEL_TEXT {
                        parts.push(field);
                    }
                }
                _ => {}
            }
        }
    }
    Some(parts)
}

/// Office's data-label insets, in points: 3 across, 1.5 down (the `lIns`/`tIns` it
/// writes for labels, smaller than a text box's default).
const LABEL_INSET: (f64, f64) = (3.0, 1.5);

/// A label's own box (`c:spPr`, with the insets of `c:txPr/a:bodyPr`); `None` when the
/// element has no `c:spPr`, so that a point's label keeps its series' box.
fn label_box(el: Element<'_>, colors: &ColorCtx<'_>) -> Option<LabelBox> {
    let sp = el.child(Ns::C, "spPr")?;
    let body = el
        .child(Ns::C, "txPr")
        .and_then(|t| t.child(Ns::A, "bodyPr"));
    let inset = |name: &str, default: f64| {
        body.and_then(|b| b.attr(Ns::None, name))
            .and_then(number)
            .map(|emu| emu / 12_700.0)
            .filter(|pt| pt.is_finite() && (0.0..=72.0).contains(pt))
            .unwrap_or(default)
    };
    let fill = sp
        .child(Ns::A, "solidFill")
        .and_then(|f| colors.child_color(f));
    let outline = sp
        .child(Ns::A, "ln")
        .filter(|ln| ln.child(Ns::A, "noFill").is_none())
        .and_then(|ln| ln.child(Ns::A, "solidFill"))
        .and_then(|f| colors.child_color(f));
    Some(LabelBox {
        fill,
        outline,
        inset: (inset("lIns", LABEL_INSET.0), inset("tIns", LABEL_INSET.1)),
    })
}

/// Most characters of a label separator kept.
const MAX_SEPARATOR: usize = 16;

/// The labels of single points (`c:dLbl` under a series' `c:dLbls`), each on top of the
/// series' settings, by index; at most one per point of the cap.
fn point_labels(dlbls: Element<'_>, colors: &ColorCtx<'_>, text: &TextStyle) -> Vec<PointLabel> {
    let series = (child_bool(dlbls, "delete") != Some(true))
        .then(|| label_settings(dlbls, None, colors, text));
    let mut out: Vec<PointLabel> = dlbls
        .children_named(Ns::C, "dLbl")
        .take(MAX_POINTS)
        .filter_map(|d| {
            let index = child_val(d, "idx")?.trim().parse::<usize>().ok()?;
            if index >= MAX_POINTS {
                return None;
            }
            let labels = (child_bool(d, "delete") != Some(true))
                .then(|| label_settings(d, series.as_ref(), colors, text));
            let offset = d
                .child(Ns::C, "layout")
                .and_then(|l| l.child(Ns::C, "manualLayout"))
                .and_then(|m| {
                    // Only factor mode (the default) is an offset; `edge` places the
                    // label absolutely, which is rare for labels and left automatic.
                    let factor = |mode: &str| child_val(m, mode).is_none_or(|v| v == "factor");
                    let fraction =
                        |name: &str| child_num(m, name).filter(|v| v.is_finite() && v.abs() <= 1.0);
                    (factor("xMode") && factor("yMode"))
                        .then(|| (fraction("x").unwrap_or(0.0), fraction("y").unwrap_or(0.0)))
                })
                .filter(|(x, y)| *x != 0.0 || *y != 0.0);
            Some(PointLabel {
                index,
                labels,
                offset,
            })
        })
        .collect();
    out.sort_by_key(|p| p.index);
    out.dedup_by_key(|p| p.index);
    out
}

/// `c:numFmt/@formatCode` unless linked to the source (then the data's own format
/// applies).
fn format_code(el: Element<'_>) -> Option<String> {
    let f = el.child(Ns::C, "numFmt")?;
    if matches!(f.attr(Ns::None, "sourceLinked"), Some("1" | "true")) {
        return None;
    }
    f.attr(Ns::None, "formatCode")
        .filter(|c| !c.is_empty() && c.len() <= 255)
        .map(str::to_owned)
}

fn axis(el: Element<'_>, colors: &ColorCtx<'_>, text: &TextStyle, dark: bool) -> Axis {
    let kind = match el.name() {
        "catAx" => AxisKind::Category,
        "dateAx" => AxisKind::Date,
        "serAx" => AxisKind::Series,
        _ => AxisKind::Value,
    };
    let scaling = el.child(Ns::C, "scaling");
    // Lines an axis leaves to the chart style (no `a:ln`, as Office 2007 and 2010 write
    // them) are the theme's text colour at a 75 % tint (#898989 on black), as Word and
    // LibreOffice draw them: Office 2013 and later write their lighter greys out. On the
    // dark styles (41–48) light greys.
    let styled_line = if dark {
        Color::rgb(0xBFBFBF)
    } else {
        colors
            .scheme_color("tx1")
            .map_or(Color::rgb(0x898989), |c| tinted(c, 0.75))
    };
    let line = match el.child(Ns::C, "spPr").and_then(|sp| sp.child(Ns::A, "ln")) {
        Some(ln) if ln.child(Ns::A, "noFill").is_some() => None,
        Some(ln) => Some(fill_color(ln, colors).unwrap_or(styled_line)),
        None => Some(styled_line),
    };
    // Gridlines whose line is `a:noFill` are not drawn (a date axis of daily points with
    // such gridlines would otherwise turn its plot grey).
    let grid = |name: &str, default: Color| {
        el.child(Ns::C, name).and_then(|g| {
            let ln = g.child(Ns::C, "spPr").and_then(|sp| sp.child(Ns::A, "ln"));
            if ln.is_some_and(|ln| ln.child(Ns::A, "noFill").is_some()) {
                return None;
            }
            Some(ln.and_then(|ln| fill_color(ln, colors)).unwrap_or(default))
        })
    };
    // Major gridlines left to the style are the axis line's colour (light grey on the
    // dark styles).
    let gridlines = grid(
        "majorGridlines",
        if dark {
            Color::rgb(0xD9D9D9)
        } else {
            styled_line
        },
    );
    // Minor gridlines are fainter than the major ones: nearer the background, which is
    // white, or black in the dark styles (41–48).
    let minor_gridlines = grid(
        "minorGridlines",
        Color::rgb(if dark { 0x404040 } else { 0xF2F2F2 }),
    );
    let title_el = el.child(Ns::C, "title");
    // An axis title is bold unless its text says otherwise: Office's default, which the
    // files of Office 2013 and later override with `b="0"` and older ones leave to it
    // (`powertools-CU001`'s "Vehicles" and "Quarter", bold in Word and LibreOffice).
    let title_base = TextStyle {
        bold: true,
        ..*text
    };
    Axis {
        id: child_val(el, "axId")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0),
        kind,
        position: child_val(el, "axPos")
            .filter(|p| matches!(*p, "l" | "r" | "t" | "b"))
            .unwrap_or("l")
            .to_owned(),
        deleted: child_bool(el, "delete").unwrap_or(false),
        reversed: scaling.and_then(|s| child_val(s, "orientation")) == Some("maxMin"),
        min: scaling.and_then(|s| child_num(s, "min")),
        max: scaling.and_then(|s| child_num(s, "max")),
        major_unit: child_num(el, "majorUnit").filter(|u| *u > 0.0),
        base_time_unit: child_val(el, "baseTimeUnit").and_then(time_unit),
        major_time_unit: child_val(el, "majorTimeUnit").and_then(time_unit),
        format_code: format_code(el),
        gridlines,
        minor_gridlines,
        minor_unit: child_num(el, "minorUnit").filter(|u| *u > 0.0),
        line,
        ticks: match child_val(el, "majorTickMark") {
            Some("out") => TickMark::Out,
            Some("in") => TickMark::In,
            Some("cross") => TickMark::Cross,
            _ => TickMark::None,
        },
        labels: child_val(el, "tickLblPos") != Some("none"),
        text: text_style(el, text, colors),
        // A title element without text shows Office's placeholder, as the chart's own
        // title does (`title`): "Axis Title".
        title: title_el.map(|t| {
            let text = title_text(t);
            if text.is_empty() {
                "Axis Title".to_owned()
            } else {
                clip(&text)
            }
        }),
        title_style: title_el.map_or(title_base, |t| rich_style(t, &title_base, colors)),
        cross_axis: child_val(el, "crossAx")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0),
        crosses_max: child_val(el, "crosses") == Some("max"),
        multi_level: child_bool(el, "noMultiLvlLbl") != Some(true),
        mid_category: child_val(el, "crossBetween") == Some("midCat"),
    }
}

/// The outline an `spPr` draws (`a:ln` with a colour): colour and width in points.
fn outline(sp: Element<'_>, colors: &ColorCtx<'_>) -> Option<(Color, f64)> {
    let ln = sp.child(Ns::A, "ln")?;
    let color = fill_color(ln, colors)?;
    // 0.75 pt when the line gives no width (a hairline of Office's styles).
    let width = ln
        .attr(Ns::None, "w")
        .and_then(number)
        .map_or(0.75, |w| (w / 12_700.0).clamp(0.25, 10.0));
    Some((color, width))
}

/// `c:baseTimeUnit` / `c:majorTimeUnit` values.
fn time_unit(v: &str) -> Option<TimeUnit> {
    match v {
        "days" => Some(TimeUnit::Days),
        "months" => Some(TimeUnit::Months),
        "years" => Some(TimeUnit::Years),
        _ => None,
    }
}

fn legend(el: Element<'_>, colors: &ColorCtx<'_>, text: &TextStyle) -> Legend {
    let mut deleted: Vec<usize> = el
        .children_named(Ns::C, "legendEntry")
        .take(MAX_POINTS)
        .filter(|e| child_bool(*e, "delete") == Some(true))
        .filter_map(|e| child_val(e, "idx")?.trim().parse().ok())
        .collect();
    deleted.sort_unstable();
    Legend {
        position: child_val(el, "legendPos")
            .filter(|v| matches!(*v, "b" | "t" | "l" | "r" | "tr"))
            .unwrap_or("r")
            .to_owned(),
        text: text_style(el, text, colors),
        deleted,
    }
}

/// The chart title: its own text, else (automatic title) the only series' name, which
/// Office also shows for a one-series pie without a title element. A title element
/// without text over several series shows Office's placeholder, "Chart Title" (the
/// English UI's words: the file does not say which language its reader's Office speaks).
fn title(chart: Element<'_>, out: &Chart, _colors: &ColorCtx<'_>) -> Option<String> {
    let deleted = child_bool(chart, "autoTitleDeleted").unwrap_or(false);
    let only_name = || {
        let mut all = out.series();
        let first = all.next()?;
        all.next().is_none().then(|| first.name.clone()).flatten()
    };
    match chart.child(Ns::C, "title") {
        Some(t) => {
            let text = title_text(t);
            if text.is_empty() {
                only_name().or_else(|| Some("Chart Title".to_owned()))
            } else {
                Some(clip(&text))
            }
        }
        None if !deleted && out.chart_types.iter().any(|t| t == "pie") => only_name(),
        None => None,
    }
}

/// The style of a title or a point's label: its rich text's (`c:tx/c:rich`) paragraph
/// defaults or first run, else its `c:txPr`, else `base`.
fn rich_style(el: Element<'_>, base: &TextStyle, colors: &ColorCtx<'_>) -> TextStyle {
    let from_txpr = text_style(el, base, colors);
    let Some(p) = el
        .child(Ns::C, "tx")
        .and_then(|tx| tx.child(Ns::C, "rich"))
        .and_then(|r| r.children_named(Ns::A, "p").next())
    else {
        return from_txpr;
    };
    let def = p
        .child(Ns::A, "pPr")
        .and_then(|ppr| ppr.child(Ns::A, "defRPr"));
    let run = p
        .children_named(Ns::A, "r")
        .next()
        .and_then(|r| r.child(Ns::A, "rPr"));
    let mut style = from_txpr;
    for props in [def, run].into_iter().flatten() {
        style = run_style(props, &style, colors);
    }
    style
}

/// The text of a `c:title`: rich paragraphs joined by spaces, or the referenced string.
fn title_text(title: Element<'_>) -> String {
    let Some(tx) = title.child(Ns::C, "tx") else {
        return String::new();
    };
    if let Some(rich) = tx.child(Ns::C, "rich") {
        let paras: Vec<String> = rich
            .children_named(Ns::A, "p")
            .map(|p| {
                p.descendants()
                    .filter(|e| e.is(Ns::A, "t"))
                    .map(|t| t.text().into_owned())
                    .collect::<String>()
            })
            .filter(|s| !s.is_empty())
            .collect();
        return paras.join(" ");
    }
    cached_strings(tx, 1).0.join(" ")
}

/// The text style of an element's `c:txPr` (`a:defRPr` of its first paragraph, the
/// rotation of its `a:bodyPr`), on top of `base`.
fn text_style(el: Element<'_>, base: &TextStyle, colors: &ColorCtx<'_>) -> TextStyle {
    let Some(tx) = el.child(Ns::C, "txPr") else {
        return TextStyle {
            rotation: None,
            ..*base
        };
    };
    // `-60000000` is Office's "automatic" rotation.
    let rotation = tx
        .child(Ns::A, "bodyPr")
        .and_then(|b| b.attr(Ns::None, "rot"))
        .and_then(number)
        .filter(|r| *r != -60_000_000.0 && r.abs() <= 5_400_000.0)
        .map(|r| r / 60_000.0);
    let def = tx
        .children_named(Ns::A, "p")
        .next()
        .and_then(|p| p.child(Ns::A, "pPr"))
        .and_then(|p| p.child(Ns::A, "defRPr"));
    let style = match def {
        Some(d) => run_style(d, base, colors),
        None => *base,
    };
    TextStyle { rotation, ..style }
}

/// Size, weight and solid colour of a run property element on top of `base`.
fn run_style(props: Element<'_>, base: &TextStyle, colors: &ColorCtx<'_>) -> TextStyle {
    let size = props
        .attr(Ns::None, "sz")
        .and_then(number)
        // ST_TextFontSize: 1 to 4000 pt.
        .filter(|s| (100.0..=400_000.0).contains(s))
        .map_or(base.size, |s| s / 100.0);
    let bold = props
        .attr(Ns::None, "b")
        .map_or(base.bold, |b| matches!(b, "1" | "true"));
    let color = props
        .child(Ns::A, "solidFill")
        .and_then(|f| colors.child_color(f))
        .unwrap_or(base.color);
    TextStyle {
        size,
        bold,
        color,
        rotation: base.rotation,
    }
}

/// `c:layout/c:manualLayout` of the plot area in `edge` mode.
fn manual_layout(plot_area: Element<'_>) -> Option<ManualLayout> {
    let m = plot_area
        .child(Ns::C, "layout")?
        .child(Ns::C, "manualLayout")?;
    // `factor` positions are offsets from an automatic layout we do not reproduce.
    if child_val(m, "xMode") != Some("edge") || child_val(m, "yMode") != Some("edge") {
        return None;
    }
    let get = |n: &str| child_num(m, n).filter(|v| (-1.0..=2.0).contains(v));
    let (x, y) = (get("x")?, get("y")?);
    let mut w = get("w")?;
    let mut h = get("h")?;
    if child_val(m, "wMode") == Some("edge") {
        w -= x;
    }
    if child_val(m, "hMode") == Some("edge") {
        h -= y;
    }
    let clamp = |v: f64| v.clamp(0.0, 1.0);
    let (x, y) = (clamp(x), clamp(y));
    let (w, h) = (w.clamp(0.0, 1.0 - x), h.clamp(0.0, 1.0 - y));
    (w > 0.01 && h > 0.01).then_some(ManualLayout {
        x,
        y,
        w,
        h,
        inner: child_val(m, "layoutTarget") == Some("inner"),
    })
}

/// A string cut to [`MAX_TEXT`] characters, control characters dropped.
fn clip(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .take(MAX_TEXT)
        .collect()
}

/// The cache under a data reference (`c:numRef/c:numCache`, `c:strRef/c:strCache`,
/// `c:multiLvlStrRef/…/c:lvl`, literals): its points by index, its `c:ptCount` and format
/// code. Of a multi-level cache the innermost level (the first `c:lvl`) is used.
struct Cache<'d> {
    points: Vec<(usize, Element<'d>)>,
    count: usize,
    format_code: Option<String>,
    cut: bool,
}

fn cache<'d>(el: Element<'d>, room: usize) -> Cache<'d> {
    let data = el
        .elements()
        .find(|e| {
            e.ns() == Ns::C
                && matches!(
                    e.name(),
                    "numRef" | "strRef" | "multiLvlStrRef" | "numLit" | "strLit"
                )
        })
        .map(|r| {
            r.elements()
                .find(|e| {
                    e.ns() == Ns::C
                        && matches!(e.name(), "numCache" | "strCache" | "multiLvlStrCache")
                })
                .unwrap_or(r)
        });
    let data = match data {
        Some(d) if d.name() == "multiLvlStrCache" => d.child(Ns::C, "lvl").map(|l| (d, l)),
        Some(d) => Some((d, d)),
        None => None,
    };
    let Some((head, pts)) = data else {
        return Cache {
            points: Vec::new(),
            count: 0,
            format_code: None,
            cut: false,
        };
    };
    let count = child_val(head, "ptCount")
        .and_then(|c| c.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut cut = count > room;
    let mut points: Vec<(usize, Element<'d>)> = Vec::new();
    for pt in pts.children_named(Ns::C, "pt") {
        let Some(idx) = pt
            .attr(Ns::None, "idx")
            .and_then(|i| i.trim().parse::<usize>().ok())
        else {
            continue;
        };
        if idx >= room || points.len() >= room {
            cut = true;
            continue;
        }
        points.push((idx, pt));
    }
    points.sort_by_key(|p| p.0);
    points.dedup_by_key(|p| p.0);
    let format_code = head
        .child(Ns::C, "formatCode")
        .map(|f| f.text().into_owned())
        .filter(|c| !c.is_empty() && c.len() <= 255);
    Cache {
        points,
        count: count.min(room),
        format_code,
        cut,
    }
}

/// Most outer category levels read (Excel writes one per header column of the range).
const MAX_LEVELS: usize = 8;

/// The outer levels of a multi-level category cache (`c:multiLvlStrCache`, every `c:lvl`
/// after the first), over `count` categories. A level's points sit at the first category
/// of each group; a group runs to the next point or the last category. Levels without
/// labels are left out.
fn outer_levels(cat: Element<'_>, count: usize) -> Vec<Vec<CategoryGroup>> {
    let Some(cache) = cat
        .child(Ns::C, "multiLvlStrRef")
        .and_then(|r| r.child(Ns::C, "multiLvlStrCache"))
        .or_else(|| cat.child(Ns::C, "multiLvlStrLit"))
    else {
        return Vec::new();
    };
    let mut levels = Vec::new();
    for lvl in cache.children_named(Ns::C, "lvl").skip(1).take(MAX_LEVELS) {
        let mut starts: Vec<(usize, String)> = lvl
            .children_named(Ns::C, "pt")
            .take(MAX_POINTS)
            .filter_map(|pt| {
                let idx = pt.attr(Ns::None, "idx")?.trim().parse::<usize>().ok()?;
                let label = clip(&pt.child(Ns::C, "v")?.text());
                (idx < count).then_some((idx, label))
            })
            .collect();
        starts.sort_by_key(|s| s.0);
        starts.dedup_by_key(|s| s.0);
        let ends: Vec<usize> = starts.iter().skip(1).map(|s| s.0).chain([count]).collect();
        let groups: Vec<CategoryGroup> = starts
            .into_iter()
            .zip(ends)
            .map(|((start, label), end)| CategoryGroup { start, end, label })
            .collect();
        if groups.iter().any(|g| !g.label.is_empty()) {
            levels.push(groups);
        }
    }
    levels
}

/// Cached strings in index order; numbers in a numeric cache are formatted with its
/// format code (dates as categories). A literal `c:v` (a series name) is one string.
fn cached_strings(el: Element<'_>, room: usize) -> (Vec<String>, bool) {
    let c = cache(el, room.max(1));
    if c.points.is_empty() {
        if let Some(v) = el.child(Ns::C, "v") {
            return (vec![clip(&v.text())], false);
        }
    }
    let len = c.count.max(c.points.last().map_or(0, |p| p.0 + 1));
    let fmt = c
        .format_code
        .as_deref()
        .filter(|f| !f.eq_ignore_ascii_case("general"))
        .map(NumberFormat::parse);
    let mut out = vec![String::new(); len];
    for (i, pt) in c.points {
        let raw = pt.child(Ns::C, "v").map(|v| v.text()).unwrap_or_default();
        out[i] = match (&fmt, number(&raw)) {
            (Some(f), Some(v)) => clip(&f.format_number(v, false).text),
            _ => clip(&raw),
        };
    }
    (out, c.cut)
}

/// Cached numbers in index order, with the cache's format code.
fn cached_numbers(el: Element<'_>, room: usize) -> (Vec<Option<f64>>, Option<String>, bool) {
    let c = cache(el, room);
    let len = c.count.max(c.points.last().map_or(0, |p| p.0 + 1));
    let mut out = vec![None; len];
    for (i, pt) in c.points {
        out[i] = pt.child(Ns::C, "v").and_then(|v| number(&v.text()));
    }
    (out, c.format_code, c.cut)
}

/// A number as a label: through `code` when it is a real format, else Excel's General.
pub fn format_number(v: f64, code: Option<&str>) -> String {
    match code {
        Some(c) if !c.trim().eq_ignore_ascii_case("general") => {
            NumberFormat::parse(c).format_number(v, false).text
        }
        _ => general(v),
    }
}
