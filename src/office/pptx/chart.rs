//! Chart parts (`c:chartSpace`): the title, the plot types and the cached series values,
//! enough for a labelled placeholder and a plain drawing of simple charts.

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{number, ColorCtx};
use super::model::{Chart, ChartLegend, ChartSeries, ValueAxis};

/// Office's chart text size when a chart sets none.
const DEFAULT_TEXT_SIZE: f64 = 10.0;

/// Most series and points kept per chart.
const MAX_SERIES: usize = 64;
const MAX_POINTS: usize = 1_000;

/// Reads a parsed chart part's root.
pub(super) fn chart(root: Element<'_>, colors: &ColorCtx<'_>) -> Chart {
    let chart = root.child(Ns::C, "chart");
    let plot = chart.and_then(|c| c.child(Ns::C, "plotArea"));
    let plots: Vec<Element<'_>> = plot
        .into_iter()
        .flat_map(|p| p.elements())
        .filter(|e| e.ns() == Ns::C && e.name().ends_with("Chart"))
        .collect();
    let chart_types: Vec<String> = plots.iter().map(|p| plot_type(*p)).collect();

    let mut series = Vec::new();
    let mut categories = Vec::new();
    if let Some(first) = plots.first() {
        for ser in first.children_named(Ns::C, "ser").take(MAX_SERIES) {
            let name = ser
                .child(Ns::C, "tx")
                .map(|tx| cached_strings(tx).join(" "))
                .filter(|s| !s.is_empty());
            let values_el = ser.child(Ns::C, "val").or_else(|| ser.child(Ns::C, "yVal"));
            let values = values_el.map(cached_numbers).unwrap_or_default();
            if categories.is_empty() {
                if let Some(cat) = ser.child(Ns::C, "cat").or_else(|| ser.child(Ns::C, "xVal")) {
                    categories = cached_strings(cat);
                }
            }
            // Series without a colour take the accents in turn, as Office does.
            let accent = format!("accent{}", series.len() % 6 + 1);
            let color = ser
                .child(Ns::C, "spPr")
                .and_then(|sp| sp.child(Ns::A, "solidFill"))
                .and_then(|f| colors.child_color(f))
                .or_else(|| colors.scheme_color(&accent));
            series.push(ChartSeries {
                name,
                values,
                color,
            });
        }
    }

    let title = chart.and_then(|c| {
        let deleted = c
            .child(Ns::C, "autoTitleDeleted")
            .and_then(|d| d.attr(Ns::None, "val"))
            .is_some_and(|v| matches!(v, "1" | "true"));
        match c.child(Ns::C, "title") {
            Some(t) => {
                let text = title_text(t);
                if text.is_empty() {
                    // An automatic title shows the only series' name.
                    (series.len() == 1)
                        .then(|| series[0].name.clone())
                        .flatten()
                } else {
                    Some(text)
                }
            }
            None if !deleted && series.len() == 1 && chart_types.iter().any(|t| t == "pie") => {
                series[0].name.clone()
            }
            None => None,
        }
    });
    // Text sizes: an element's own `c:txPr` wins over the chart's.
    let chart_size = text_size(root).unwrap_or(DEFAULT_TEXT_SIZE);
    let size_of = |el: Option<Element<'_>>| el.and_then(text_size).unwrap_or(chart_size);
    let legend = chart.and_then(|c| c.child(Ns::C, "legend")).map(|l| {
        let position = l
            .child(Ns::C, "legendPos")
            .and_then(|p| p.attr(Ns::None, "val"))
            .filter(|v| matches!(*v, "b" | "t" | "l" | "r" | "tr"))
            .unwrap_or("r")
            .to_owned();
        ChartLegend {
            position,
            size: size_of(Some(l)),
        }
    });
    let axes: Vec<Element<'_>> = plot
        .into_iter()
        .flat_map(|p| p.elements())
        .filter(|e| e.ns() == Ns::C && e.name().ends_with("Ax") && !is_deleted(*e))
        .collect();
    // The value axis that measures the values: a scatter chart has two, the vertical one
    // (`axPos` l or r) is it.
    let value_axes: Vec<Element<'_>> = axes
        .iter()
        .copied()
        .filter(|a| a.name() == "valAx")
        .collect();
    let value_axis = value_axes
        .iter()
        .copied()
        .find(|a| matches!(child_val(*a, "axPos"), Some("l" | "r")))
        .or_else(|| value_axes.first().copied())
        .map(|a| ValueAxis {
            gridlines: a.child(Ns::C, "majorGridlines").is_some(),
            labels: child_val(a, "tickLblPos") != Some("none"),
            size: size_of(Some(a)),
        });
    let category_axis = axes
        .iter()
        .copied()
        .find(|a| matches!(a.name(), "catAx" | "dateAx"));
    Chart {
        part: None,
        title,
        chart_types,
        series,
        categories,
        palette: (1..=6)
            .filter_map(|i| colors.scheme_color(&format!("accent{i}")))
            .collect(),
        legend,
        value_axis,
        label_size: size_of(category_axis),
    }
}

/// `c:{name}/@val` of an element.
fn child_val<'a>(el: Element<'a>, name: &str) -> Option<&'a str> {
    el.child(Ns::C, name).and_then(|c| c.attr(Ns::None, "val"))
}

/// An axis with `c:delete val="1"` is not shown.
fn is_deleted(axis: Element<'_>) -> bool {
    matches!(child_val(axis, "delete"), Some("1" | "true"))
}

/// The default run size of an element's `c:txPr` (`a:defRPr/@sz` of its first paragraph),
/// in points.
fn text_size(el: Element<'_>) -> Option<f64> {
    let sz = el
        .child(Ns::C, "txPr")?
        .children_named(Ns::A, "p")
        .next()?
        .child(Ns::A, "pPr")?
        .child(Ns::A, "defRPr")?
        .attr(Ns::None, "sz")?;
    let hundredths = sz.trim().parse::<f64>().ok()?;
    // ST_TextFontSize: 1 to 4000 pt.
    (100.0..=400_000.0)
        .contains(&hundredths)
        .then_some(hundredths / 100.0)
}

/// `barChart` with `barDir="col"` is a column chart; the rest are named by element.
fn plot_type(el: Element<'_>) -> String {
    let name = el.name();
    let base = name.strip_suffix("Chart").unwrap_or(name);
    let base = base.strip_suffix("3D").unwrap_or(base);
    match base {
        "bar" => {
            let dir = el
                .child(Ns::C, "barDir")
                .and_then(|d| d.attr(Ns::None, "val"));
            if dir == Some("bar") {
                "bar".to_owned()
            } else {
                "column".to_owned()
            }
        }
        "ofPie" => "pie".to_owned(),
        other => other
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(24)
            .collect(),
    }
}

/// The rich or referenced text of a `c:title`.
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
    cached_strings(tx).join(" ")
}

/// The cached points (`c:pt/c:v`) under a reference, in index order.
fn cached_points(el: Element<'_>) -> Vec<(usize, String)> {
    let mut pts: Vec<(usize, String)> = el
        .descendants()
        .filter(|e| e.is(Ns::C, "pt"))
        .take(MAX_POINTS)
        .filter_map(|pt| {
            let idx = pt
                .attr(Ns::None, "idx")
                .and_then(|i| i.trim().parse::<usize>().ok())?;
            let v = pt.child(Ns::C, "v")?.text().into_owned();
            Some((idx.min(MAX_POINTS - 1), v))
        })
        .collect();
    pts.sort_by_key(|p| p.0);
    pts
}

fn cached_strings(el: Element<'_>) -> Vec<String> {
    let pts = cached_points(el);
    if pts.is_empty() {
        // A literal value (`c:v` directly under `c:tx`).
        return el
            .child(Ns::C, "v")
            .map(|v| vec![v.text().into_owned()])
            .unwrap_or_default();
    }
    let len = pts.last().map_or(0, |p| p.0 + 1);
    let mut out = vec![String::new(); len];
    for (i, v) in pts {
        out[i] = v;
    }
    out
}

fn cached_numbers(el: Element<'_>) -> Vec<Option<f64>> {
    let pts = cached_points(el);
    let len = pts.last().map_or(0, |p| p.0 + 1);
    let mut out = vec![None; len];
    for (i, v) in pts {
        out[i] = number(&v);
    }
    out
}
