//! Tests of the chart engine on hand-written chart parts: the model each chart type
//! gives and the structure of its SVG.

use crate::office::pptx::color::ColorCtx;
use crate::office::pptx::model::Color;
use crate::office::xml::{parse_xml, XmlOptions};
use crate::office::Ns;

use super::model::{Grouping, LabelPart, PlotKind};
use super::render::slice_sweeps;
use super::{parse_chart, render_svg, Chart, SvgOptions};

/// The Office 2013 theme: dk1, lt1, dk2, lt2, accent1–6, hlink, folHlink.
const SCHEME: [u32; 12] = [
    0x000000, 0xFFFFFF, 0x44546A, 0xE7E6E6, 0x4472C4, 0xED7D31, 0xA5A5A5, 0xFFC000, 0x5B9BD5,
    0x70AD47, 0x0563C1, 0x954F72,
];

fn parse(plot_area: &str, rest: &str) -> Chart {
    let xml = format!(
        r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>{rest}<c:plotArea>{plot_area}</c:plotArea></c:chart></c:chartSpace>"#
    );
    parse_str(&xml)
}

fn parse_str(xml: &str) -> Chart {
    let opts = XmlOptions {
        max_depth: 256,
        max_nodes: 2_000_000,
        understood: &[Ns::C],
    };
    let doc = parse_xml("chart.xml", xml.as_bytes(), &opts).expect("xml");
    let scheme = SCHEME.map(Color::rgb);
    parse_chart(doc.root(), &ColorCtx::from_scheme(&scheme))
}

fn svg(c: &Chart, w: f64, h: f64) -> String {
    render_svg(c, w, h, &SvgOptions::default()).expect("drawn")
}

/// A `c:ser` with categories and values (`None` leaves a point out).
fn ser(idx: usize, name: &str, cats: &[&str], vals: &[Option<f64>], extra: &str) -> String {
    let cat_pts: String = cats
        .iter()
        .enumerate()
        .map(|(i, c)| format!(r#"<c:pt idx="{i}"><c:v>{c}</c:v></c:pt>"#))
        .collect();
    let val_pts: String = vals
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#)))
        .collect();
    format!(
        r#"<c:ser><c:idx val="{idx}"/><c:order val="{idx}"/><c:tx><c:v>{name}</c:v></c:tx>{extra}<c:cat><c:strRef><c:strCache><c:ptCount val="{}"/>{cat_pts}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="{}"/>{val_pts}</c:numCache></c:numRef></c:val></c:ser>"#,
        cats.len(),
        vals.len()
    )
}

const AXES: &str = r#"<c:axId val="1"/><c:axId val="2"/>"#;

fn cat_val_axes(val_extra: &str) -> String {
    format!(
        r#"<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/>{val_extra}<c:crossAx val="1"/></c:valAx>"#
    )
}

/// The `(x, y, width, height)` of every `<rect>` with fill `fill`.
fn rects(svg: &str, fill: &str) -> Vec<[f64; 4]> {
    svg.split("<rect ")
        .skip(1)
        .filter(|r| r.contains(&format!("fill=\"{fill}\"")))
        .map(|r| {
            let get = |name: &str| -> f64 {
                let key = format!("{name}=\"");
                let at = r.find(&key).unwrap() + key.len();
                r[at..at + r[at..].find('"').unwrap()].parse().unwrap()
            };
            [get("x"), get("y"), get("width"), get("height")]
        })
        .collect()
}

/// The `(x1, x2)` of every straight horizontal path `M{x1} {y}H{x2}` stroked in `stroke`
/// (gridlines, a line series' legend key).
fn horizontal_paths(svg: &str, stroke: &str) -> Vec<(f64, f64)> {
    svg.split("<path d=\"M")
        .skip(1)
        .filter(|p| p.contains(&format!("stroke=\"{stroke}\"")))
        .filter_map(|p| {
            let (x1, rest) = p.split('"').next()?.split_once(' ')?;
            let (y, x2) = rest.split_once('H')?;
            y.parse::<f64>().ok()?;
            Some((x1.parse().ok()?, x2.parse().ok()?))
        })
        .collect()
}

/// Options measuring every text as one em wide, so that label widths are known.
fn one_em_options() -> SvgOptions<'static> {
    fn one_em(_: &str) -> Option<f64> {
        Some(1.0)
    }
    SvgOptions {
        measure: Some(super::Measure(&one_em)),
        ..SvgOptions::default()
    }
}

/// Sets the tick label size of every axis of `c` (a deck's `c:txPr` would).
fn axis_text(c: &mut Chart, size: f64) {
    for a in &mut c.axes {
        a.text.size = size;
    }
}

/// Asserts that each of `labels` is drawn centred (the ticks of a horizontal axis).
fn assert_middle_labels(out: &str, labels: &[&str]) {
    for l in labels {
        assert!(
            out.contains(&format!("text-anchor=\"middle\">{l}</text>")),
            "{l}: {out}"
        );
    }
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

const CATS: [&str; 3] = ["North", "South", "East"];

#[test]
fn clustered_columns_draw_one_bar_per_point_with_every_category() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{}{AXES}</c:barChart>{}"#,
        ser(0, "2024", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        ser(1, "2025", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    assert_eq!(c.chart_types, ["column"]);
    let p = &c.plots[0];
    assert_eq!(
        (p.kind, p.grouping, p.horizontal),
        (PlotKind::Bar, Grouping::Clustered, false)
    );
    // Automatic colours: accent1, accent2.
    assert_eq!(p.series[0].color, Color::rgb(0x4472C4));
    assert_eq!(p.series[1].color, Color::rgb(0xED7D31));
    let out = svg(&c, 400.0, 300.0);
    assert_eq!(rects(&out, "#4472C4").len(), 3);
    assert_eq!(rects(&out, "#ED7D31").len(), 3);
    for cat in CATS {
        assert_eq!(count(&out, &format!(">{cat}</text>")), 1, "{cat}");
    }
    // Taller value, taller bar: 6 (South, 2025) is the tallest.
    let tallest = rects(&out, "#ED7D31")[1][3];
    assert!(rects(&out, "#4472C4").iter().all(|r| r[3] < tallest));
    // Value axis 0..7 in ones (6 plus 5 % headroom): gridlines and labels for each.
    assert!(out.contains(">7</text>") && !out.contains(">8</text>"));
}

/// A series with a gradient fill (`onlyoffice-sample`'s bars, shaded from the bottom up)
/// fills each bar and its legend key with the whole gradient; a point with its own
/// colour keeps the colour. The ids start with the caller's prefix.
#[test]
fn gradient_series_fill_each_bar_with_the_gradient() {
    let grad = r#"<c:spPr><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="203864"/></a:gs><a:gs pos="100000"><a:srgbClr val="8FAADC"/></a:gs></a:gsLst><a:lin ang="16200000" scaled="0"/></a:gradFill></c:spPr><c:dPt><c:idx val="2"/><c:spPr><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></c:spPr></c:dPt>"#;
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{}{AXES}</c:barChart>{}"#,
        ser(0, "2024", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], grad),
        ser(1, "2025", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, "<c:legend><c:legendPos val=\"b\"/></c:legend>");
    let s = &c.plots[0].series[0];
    assert_eq!(s.color, Color::rgb(0x203864));
    let g = s.gradient.as_ref().expect("a gradient");
    assert_eq!(g.angle, Some(270.0));
    assert_eq!(g.stops.len(), 2);
    assert!(c.plots[0].series[1].gradient.is_none());
    let opts = SvgOptions {
        id_prefix: "c7",
        ..SvgOptions::default()
    };
    let out = render_svg(&c, 400.0, 300.0, &opts).expect("drawn");
    // Bottom to top: the first stop at the bottom edge of each bar.
    assert!(
        out.contains(r##"<linearGradient id="c7-g0" x1="0.5" y1="1" x2="0.5" y2="0"><stop offset="0" stop-color="#203864"/><stop offset="1" stop-color="#8FAADC"/></linearGradient>"##),
        "{out}"
    );
    // Two bars and the legend key in the gradient, the third bar in its own red.
    assert_eq!(count(&out, "fill=\"url(#c7-g0)\""), 3, "{out}");
    assert_eq!(rects(&out, "#FF0000").len(), 1);
    assert_eq!(rects(&out, "#ED7D31").len(), 4);
}

/// A title element without text (`shapecrawler-013`) is Office's automatic title: the
/// series' name for one series, else the placeholder Office shows, "Chart Title".
#[test]
fn an_empty_title_element_is_the_automatic_title() {
    let two = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{}{AXES}</c:barChart>{}"#,
        ser(0, "2024", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        ser(1, "2025", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let one = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "2024", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let title = r#"<c:title><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>"#;
    assert_eq!(parse(&two, title).title.as_deref(), Some("Chart Title"));
    assert_eq!(parse(&one, title).title.as_deref(), Some("2024"));
    assert!(svg(&parse(&two, title), 400.0, 300.0).contains(">Chart Title</text>"));
    // No title element: none.
    assert_eq!(parse(&two, "").title, None);
}

#[test]
fn stacked_heights_sum_and_percent_stacks_are_equal() {
    let series = format!(
        "{}{}",
        ser(0, "A", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], ""),
        ser(1, "B", &CATS, &[Some(3.0), Some(4.0), Some(1.0)], "")
    );
    let stacked = parse(
        &format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/><c:overlap val="100"/>{series}{AXES}</c:barChart>{}"#,
            cat_val_axes("")
        ),
        "",
    );
    let out = svg(&stacked, 400.0, 300.0);
    let (a, b) = (rects(&out, "#4472C4"), rects(&out, "#ED7D31"));
    assert_eq!((a.len(), b.len()), (3, 3));
    let unit = a[0][3] / 1.0;
    for i in 0..3 {
        let sum = [4.0, 6.0, 4.0][i];
        assert!(
            (a[i][3] + b[i][3] - sum * unit).abs() < 0.05,
            "category {i}"
        );
        // B sits on A: its bottom is A's top.
        assert!((b[i][1] + b[i][3] - a[i][1]).abs() < 0.05);
        assert!((a[i][0] - b[i][0]).abs() < 0.01, "same column");
    }
    let percent = parse(
        &format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="percentStacked"/><c:overlap val="100"/>{series}{AXES}</c:barChart>{}"#,
            cat_val_axes("")
        ),
        "",
    );
    let out = svg(&percent, 400.0, 300.0);
    let (a, b) = (rects(&out, "#4472C4"), rects(&out, "#ED7D31"));
    let full = a[0][3] + b[0][3];
    for i in 1..3 {
        assert!((a[i][3] + b[i][3] - full).abs() < 0.05);
    }
    // The axis is labelled in percent up to 100 %.
    assert!(out.contains(">100%</text>") && out.contains(">0%</text>"));
}

#[test]
fn horizontal_bars_put_the_first_category_at_the_bottom() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="bar"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    assert_eq!(c.chart_types, ["bar"]);
    let out = svg(&c, 400.0, 300.0);
    let bars = rects(&out, "#4472C4");
    assert_eq!(bars.len(), 3);
    assert!(
        bars[0][1] > bars[1][1] && bars[1][1] > bars[2][1],
        "bottom up"
    );
    assert!(bars[1][2] > bars[0][2], "5 is longer than 3");
}

/// A series over multi-level categories (`shapecrawler-025_chart`): Clothing over
/// Dresses and Tops, Shoes over Boots and Flats. The outer labels are drawn centred on
/// their groups, with boundaries between the groups; `c:noMultiLvlLbl` hides them.
#[test]
fn multi_level_categories_label_their_groups() {
    let inner = ["Dresses", "Tops", "Boots", "Flats"];
    let inner_pts: String = inner
        .iter()
        .enumerate()
        .map(|(i, c)| format!(r#"<c:pt idx="{i}"><c:v>{c}</c:v></c:pt>"#))
        .collect();
    let series = format!(
        r#"<c:ser><c:idx val="0"/><c:order val="0"/><c:cat><c:multiLvlStrRef><c:multiLvlStrCache><c:ptCount val="4"/><c:lvl>{inner_pts}</c:lvl><c:lvl><c:pt idx="0"><c:v>Clothing</c:v></c:pt><c:pt idx="2"><c:v>Shoes</c:v></c:pt><c:pt idx="9"><c:v>Beyond</c:v></c:pt></c:lvl></c:multiLvlStrCache></c:multiLvlStrRef></c:cat><c:val><c:numRef><c:numCache><c:ptCount val="4"/><c:pt idx="0"><c:v>19</c:v></c:pt><c:pt idx="1"><c:v>46</c:v></c:pt><c:pt idx="2"><c:v>9</c:v></c:pt><c:pt idx="3"><c:v>18</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>"#
    );
    let chart = |dir: &str, cat_extra: &str| {
        let axes = format!(
            r#"<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/>{cat_extra}<c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>"#
        );
        parse(
            &format!(r#"<c:barChart><c:barDir val="{dir}"/>{series}{AXES}</c:barChart>{axes}"#),
            "",
        )
    };
    let c = chart("col", "");
    let s = &c.plots[0].series[0];
    assert_eq!(s.categories, inner);
    let groups: Vec<(usize, usize, &str)> = s.category_levels[0]
        .iter()
        .map(|g| (g.start, g.end, g.label.as_str()))
        .collect();
    // A point past the categories is dropped.
    assert_eq!(groups, [(0, 2, "Clothing"), (2, 4, "Shoes")]);
    let label_at = |out: &str, label: &str| -> (f64, f64, bool) {
        let end = out.find(&format!(">{label}</text>")).expect(label);
        let tag = &out[out[..end].rfind("<text").unwrap()..end];
        let get = |name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let at = tag.find(&key).unwrap() + key.len();
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        (get("x"), get("y"), tag.contains("rotate(-90"))
    };
    // Columns: each group label centred under its two categories, below them.
    let out = svg(&c, 400.0, 300.0);
    let (dresses, tops) = (label_at(&out, "Dresses"), label_at(&out, "Tops"));
    let clothing = label_at(&out, "Clothing");
    assert!(
        (clothing.0 - (dresses.0 + tops.0) / 2.0).abs() < 0.5,
        "{out}"
    );
    assert!(clothing.1 > dresses.1 && !clothing.2, "{out}");
    // Three boundaries (before, between and after the groups) from the axis down to the
    // plot box's bottom (0.3 % of the height above the frame's).
    assert_eq!(count(&out, "V299.1\""), 3, "{out}");
    // Bars: the group labels read upwards, left of the categories.
    let out = svg(&chart("bar", ""), 400.0, 300.0);
    let (dresses, shoes) = (label_at(&out, "Dresses"), label_at(&out, "Shoes"));
    assert!(shoes.2 && shoes.0 < dresses.0, "{out}");
    // noMultiLvlLbl: the inner labels only.
    let out = svg(&chart("col", r#"<c:noMultiLvlLbl val="1"/>"#), 400.0, 300.0);
    assert!(out.contains(">Tops</text>") && !out.contains(">Clothing</text>"));
}

/// A series' own `c:explosion` pulls every slice out (`shapecrawler-005_chart`); a point's
/// `c:dPt` without one keeps the series' value, and one with its own value wins.
#[test]
fn a_series_explosion_pulls_every_slice_out() {
    let dpts = r#"<c:dPt><c:idx val="0"/><c:spPr><a:solidFill><a:srgbClr val="C00000"/></a:solidFill></c:spPr></c:dPt><c:dPt><c:idx val="1"/><c:explosion val="0"/></c:dPt>"#;
    let pie = |extra: &str| {
        let plot = format!(
            r#"<c:pieChart><c:varyColors val="1"/>{}</c:pieChart>"#,
            ser(
                0,
                "S",
                &["A", "B", "C"],
                &[Some(1.0), Some(1.0), Some(2.0)],
                extra
            )
        );
        parse(&plot, "")
    };
    let c = pie(&format!("<c:explosion val=\"20\"/>{dpts}"));
    let s = &c.plots[0].series[0];
    assert_eq!(s.explosion, 20.0);
    assert_eq!(
        s.points.iter().map(|p| p.explosion).collect::<Vec<_>>(),
        [20.0, 0.0]
    );
    // Where each slice's outline starts: the pie's centre for every slice of a flat pie;
    // away from it for the two exploded slices (B, with 0 of its own, stays).
    let starts = |out: &str| {
        let mut v: Vec<String> = out
            .split("class=\"slice\"")
            .skip(1)
            .map(|s| {
                let d = &s[s.find("d=\"M").expect("a path") + 4..];
                d[..d.find(|c: char| c.is_ascii_alphabetic()).unwrap()].to_owned()
            })
            .collect();
        v.sort();
        v.dedup();
        v.len()
    };
    assert_eq!(starts(&svg(&pie(dpts), 400.0, 300.0)), 1);
    assert_eq!(starts(&svg(&c, 400.0, 300.0)), 3);
}

#[test]
fn pie_slices_sum_to_a_full_turn_with_point_and_varied_colours() {
    let dpt = r#"<c:dPt><c:idx val="1"/><c:spPr><a:solidFill><a:srgbClr val="C00000"/></a:solidFill></c:spPr><c:explosion val="10"/></c:dPt>"#;
    let labels = r#"<c:dLbls><c:showVal val="0"/><c:showCatName val="1"/><c:showPercent val="1"/></c:dLbls>"#;
    let plot = format!(
        r#"<c:pieChart><c:varyColors val="1"/>{}<c:firstSliceAng val="0"/></c:pieChart>"#,
        ser(
            0,
            "Share",
            &["A", "B", "C", "D"],
            &[Some(1.0), Some(2.0), Some(3.0), Some(-4.0)],
            &format!("{dpt}{labels}")
        )
    );
    let c = parse(&plot, "<c:legend><c:legendPos val=\"b\"/></c:legend>");
    assert_eq!(c.chart_types, ["pie"]);
    // The automatic title of a one-series pie is the series' name.
    assert_eq!(c.title.as_deref(), Some("Share"));
    let sweeps = slice_sweeps(&c.plots[0].series[0].values);
    let total: f64 = sweeps.iter().map(|s| s.1).sum();
    assert!((total - 360.0).abs() < 1e-9);
    assert_eq!(sweeps[3], (3, 144.0));
    let out = svg(&c, 400.0, 300.0);
    assert_eq!(count(&out, "class=\"slice\""), 4);
    // Varied colours for the slices, the point's own colour for slice B.
    for col in ["#4472C4", "#C00000", "#A5A5A5", "#FFC000"] {
        assert!(out.contains(&format!("fill=\"{col}\"")), "{col}");
    }
    // Category and percent labels (1 of 10 is 10 %), on two lines: Office's default
    // separator for a pie label showing just these two is a line break.
    // (The first "A" is the legend's.)
    let (a, ten) = (text_attrs(&out, "A", "y"), text_attrs(&out, "10%", "y"));
    assert_eq!(
        text_attrs(&out, "A", "x")[1],
        text_attrs(&out, "10%", "x")[0]
    );
    assert!((ten[0] - a[1] - 12.0).abs() < 0.01, "{a:?} {ten:?}");
    assert!(out.contains(">D</text>") && out.contains(">40%</text>"));
    // The legend names the slices.
    assert!(out.contains(">C</text>"));
}

#[test]
fn doughnuts_have_a_hole() {
    let plot = format!(
        r#"<c:doughnutChart><c:varyColors val="1"/>{}<c:holeSize val="50"/></c:doughnutChart>"#,
        ser(0, "S", &["A", "B"], &[Some(1.0), Some(1.0)], "")
    );
    let c = parse(&plot, "<c:autoTitleDeleted val=\"1\"/>");
    assert_eq!(
        (c.chart_types[0].as_str(), c.plots[0].hole_size),
        ("doughnut", 50.0)
    );
    let out = svg(&c, 300.0, 300.0);
    // Each ring slice has an outer and an inner arc.
    let slices: Vec<&str> = out.split("class=\"slice\" d=\"").skip(1).collect();
    assert_eq!(slices.len(), 2);
    for s in slices {
        let d = &s[..s.find('"').unwrap()];
        assert_eq!(count(d, "A"), 2, "{d}");
    }
}

#[test]
fn lines_with_and_without_markers_and_areas() {
    let no_marker = r#"<c:marker><c:symbol val="none"/></c:marker>"#;
    let plot = format!(
        r#"<c:lineChart><c:grouping val="standard"/>{}{}<c:marker val="1"/>{AXES}</c:lineChart>{}"#,
        ser(0, "With", &CATS, &[Some(1.0), Some(3.0), Some(2.0)], ""),
        ser(
            1,
            "Without",
            &CATS,
            &[Some(2.0), None, Some(4.0)],
            no_marker
        ),
        cat_val_axes("")
    );
    let c = parse(&plot, "<c:legend/>");
    let s = &c.plots[0].series;
    assert!(s[0].marker && !s[1].marker);
    assert_eq!(s[1].values, [Some(2.0), None, Some(4.0)]);
    let out = svg(&c, 400.0, 300.0);
    assert_eq!(
        count(&out, "class=\"marker\""),
        4,
        "markers of the first series only (and its legend key)"
    );
    // Automatic markers: the first series' shape is a diamond.
    assert_eq!(count(&out, "<circle "), 0);
    assert_eq!(
        count(&out, "stroke=\"#ED7D31\" stroke-width=\"2.25\""),
        1,
        "the line"
    );
    assert!(out.contains(">Without</text>"), "in the legend");

    let area = format!(
        r#"<c:areaChart><c:grouping val="stacked"/>{}{}{AXES}</c:areaChart>{}"#,
        ser(0, "A", &CATS, &[Some(1.0), Some(3.0), Some(2.0)], ""),
        ser(1, "B", &CATS, &[Some(2.0), Some(1.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let out = svg(&parse(&area, ""), 400.0, 300.0);
    assert_eq!(count(&out, "class=\"area\""), 2);
}

#[test]
fn scatter_bubble_and_radar_charts_are_drawn() {
    let xy = |idx: usize, extra: &str, bubble: &str| {
        format!(
            r#"<c:ser><c:idx val="{idx}"/><c:spPr><a:ln><a:noFill/></a:ln></c:spPr>{extra}<c:xVal><c:numLit><c:ptCount val="3"/><c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>2.5</c:v></c:pt><c:pt idx="2"><c:v>4</c:v></c:pt></c:numLit></c:xVal><c:yVal><c:numLit><c:ptCount val="3"/><c:pt idx="0"><c:v>10</c:v></c:pt><c:pt idx="1"><c:v>20</c:v></c:pt><c:pt idx="2"><c:v>15</c:v></c:pt></c:numLit></c:yVal>{bubble}</c:ser>"#
        )
    };
    let axes = r#"<c:valAx><c:axId val="1"/><c:axPos val="b"/><c:crossAx val="2"/></c:valAx><c:valAx><c:axId val="2"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="1"/></c:valAx>"#;
    let scatter = parse(
        &format!(
            r#"<c:scatterChart><c:scatterStyle val="lineMarker"/>{}{AXES}</c:scatterChart>{axes}"#,
            xy(0, "", "")
        ),
        "",
    );
    let s = &scatter.plots[0].series[0];
    assert_eq!(s.x_values, [Some(1.0), Some(2.5), Some(4.0)]);
    assert!(s.no_line && s.marker);
    let out = svg(&scatter, 400.0, 300.0);
    assert_eq!(count(&out, "class=\"marker\""), 3);
    assert!(
        out.contains(">2.5</text>") || out.contains(">3</text>"),
        "x axis labels"
    );
    // Each text one em wide: the plot starts 2 % of the width, a label and a gap in and
    // ends half the last X label (centred on its edge) before the right 2 %.
    let opts = one_em_options();
    let measured = render_svg(&scatter, 400.0, 300.0, &opts).unwrap();
    let size = scatter.axes[0].text.size;
    let lines = horizontal_paths(&measured, "#898989");
    assert!(!lines.is_empty(), "{measured}");
    for (x1, x2) in lines {
        assert!(
            (x1 - (8.0 + size + super::render::LABEL_GAP)).abs() < 0.02,
            "{x1}"
        );
        assert!((x2 - (392.0 - size / 2.0)).abs() < 0.02, "{x2}");
    }

    let sizes = r#"<c:bubbleSize><c:numLit><c:ptCount val="3"/><c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>4</c:v></c:pt><c:pt idx="2"><c:v>9</c:v></c:pt></c:numLit></c:bubbleSize>"#;
    let bubble = parse(
        &format!(
            r#"<c:bubbleChart>{}{AXES}</c:bubbleChart>{axes}"#,
            xy(0, "", sizes)
        ),
        "",
    );
    let out = svg(&bubble, 400.0, 300.0);
    let radii: Vec<f64> = out
        .split("class=\"bubble\"")
        .skip(1)
        .map(|b| {
            let at = b.find(" r=\"").unwrap() + 4;
            b[at..at + b[at..].find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(radii.len(), 3);
    // Area follows size: radius by the square root (1 : 2 : 3).
    assert!((radii[2] / radii[0] - 3.0).abs() < 0.05, "{radii:?}");
    // Automatic bubbles let those behind show; a fill the file sets is drawn as set.
    assert_eq!(count(&out, "fill-opacity=\"0.75\""), 3, "{out}");
    let set = parse(
        &format!(
            r#"<c:bubbleChart>{}{AXES}</c:bubbleChart>{axes}"#,
            xy(0, "", sizes).replace(
                "<c:spPr>",
                r#"<c:spPr><a:solidFill><a:srgbClr val="70AD47"/></a:solidFill>"#
            )
        ),
        "",
    );
    let out = svg(&set, 400.0, 300.0);
    assert_eq!(
        count(&out, "fill=\"#70AD47\" fill-opacity=\"1\""),
        3,
        "{out}"
    );

    let radar = parse(
        &format!(
            r#"<c:radarChart><c:radarStyle val="marker"/>{}{AXES}</c:radarChart>{}"#,
            ser(
                0,
                "R",
                &["a", "b", "c", "d", "e"],
                &[Some(1.0), Some(2.0), Some(3.0), Some(2.0), Some(1.0)],
                ""
            ),
            cat_val_axes("")
        ),
        "",
    );
    let out = svg(&radar, 300.0, 300.0);
    assert_eq!(count(&out, "class=\"marker\""), 5);
    for l in ["a", "b", "c", "d", "e"] {
        assert!(out.contains(&format!(">{l}</text>")));
    }
}

#[test]
fn combo_charts_measure_the_line_on_the_secondary_axis() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart><c:lineChart>{}<c:axId val="3"/><c:axId val="4"/></c:lineChart>{}<c:catAx><c:axId val="3"/><c:delete val="1"/><c:axPos val="b"/><c:crossAx val="4"/></c:catAx><c:valAx><c:axId val="4"/><c:delete val="0"/><c:axPos val="r"/><c:crosses val="max"/><c:crossAx val="3"/></c:valAx>"#,
        ser(
            0,
            "Sales",
            &CATS,
            &[Some(100.0), Some(200.0), Some(150.0)],
            ""
        ),
        ser(1, "Margin", &CATS, &[Some(0.1), Some(0.25), Some(0.2)], ""),
        cat_val_axes(r##"<c:numFmt formatCode="#,##0" sourceLinked="0"/>"##)
    );
    let c = parse(&plot, "");
    assert_eq!(c.chart_types, ["column", "line"]);
    let out = svg(&c, 500.0, 300.0);
    assert_eq!(rects(&out, "#4472C4").len(), 3);
    assert!(out.contains("stroke=\"#ED7D31\""), "the line");
    // Primary labels on the left (end-anchored), secondary on the right (start-anchored).
    assert!(out.contains("text-anchor=\"end\">250</text>"), "{out}");
    assert!(out.contains("text-anchor=\"start\">0.3</text>"), "{out}");
}

#[test]
fn fixed_bounds_number_formats_and_value_labels() {
    let labels =
        r#"<c:dLbls><c:numFmt formatCode="0.0" sourceLinked="0"/><c:showVal val="1"/></c:dLbls>"#;
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(0.26), Some(0.5), Some(0.74)], labels),
        cat_val_axes(
            r#"<c:scaling><c:orientation val="minMax"/><c:max val="0.8"/><c:min val="0.2"/></c:scaling><c:numFmt formatCode="0%" sourceLinked="0"/><c:majorUnit val="0.2"/>"#
        )
    );
    let c = parse(&plot, "");
    let axis = c.axis(2).unwrap();
    assert_eq!(
        (axis.min, axis.max, axis.major_unit),
        (Some(0.2), Some(0.8), Some(0.2))
    );
    let out = svg(&c, 400.0, 300.0);
    for t in ["20%", "40%", "60%", "80%"] {
        assert!(out.contains(&format!(">{t}</text>")), "{t}");
    }
    assert!(!out.contains(">100%</text>") && !out.contains(">0%</text>"));
    assert_middle_labels(&out, &["0.3", "0.5", "0.7"]);
}

#[test]
fn crowded_category_labels_are_turned_not_dropped() {
    let cats: Vec<String> = (0..24).map(|i| format!("Department {i}")).collect();
    let refs: Vec<&str> = cats.iter().map(String::as_str).collect();
    let vals: Vec<Option<f64>> = (0..24).map(|i| Some(i as f64)).collect();
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &refs, &vals, ""),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    let wide = svg(&c, 2000.0, 300.0);
    assert!(!wide.contains("rotate("), "they fit when wide");
    let narrow = svg(&c, 500.0, 300.0);
    assert!(narrow.contains("rotate(-45") || narrow.contains("rotate(-90"));
    let tight = svg(&c, 200.0, 300.0);
    assert!(tight.contains("rotate(-90"));
    for out in [&wide, &narrow, &tight] {
        for cat in &cats {
            assert_eq!(count(out, &format!(">{cat}</text>")), 1, "{cat}");
        }
    }
}

#[test]
fn a_long_turned_first_label_moves_the_plot_right_rather_than_run_out() {
    // `shapecrawler-009_table`: "Категория 1" turned −45° under a small chart reached
    // past the chart's left edge and was cut ("атегория 1"). Office narrows the plot.
    let first = "A rather long first category";
    let cats = [first, "B", "C", "D"];
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &cats, &[Some(1.0); 4], ""),
        cat_val_axes("")
    );
    let mut c = parse(&plot, "");
    axis_text(&mut c, 12.0);
    let out = svg(&c, 240.0, 200.0);
    let tag = out
        .split("<text ")
        .find(|t| t.contains(&format!(">{first}</text>")))
        .expect("the first label is drawn");
    assert!(tag.contains("rotate(-45"), "{tag}");
    let x = text_attrs(&out, first, "x")[0];
    let reach = super::render::text_width(first, 12.0) * 45f64.to_radians().cos();
    assert!(
        x - reach >= -0.5,
        "the label starts at {} of the chart",
        x - reach
    );
    // The others stay where they were: one label's room is not taken from every side.
    assert!(x < 240.0 * 0.6, "{x}");
}

#[test]
fn a_chart_left_to_its_style_has_black_text_grey_lines_and_tick_marks() {
    // Office 2007 and 2010 write no line or text properties for what keeps the chart
    // style's look (`powertools-CU005`): Word draws black text, axis lines and gridlines
    // in the text colour at a 75 % tint, and the tick marks `c:majorTickMark` asks for.
    let axes = r#"<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:majorTickMark val="out"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:max val="6"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:majorUnit val="2"/><c:majorTickMark val="cross"/><c:crossAx val="1"/></c:valAx>"#;
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{axes}"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], "")
    );
    let out = svg(&parse(&plot, ""), 400.0, 300.0);
    assert!(
        out.contains(r##"fill="#000000" text-anchor="middle">North</text>"##),
        "{out}"
    );
    // Each tick path's segments as (from, to) along the axis's cross direction.
    let segments = |d: &str, across: char| -> Vec<(f64, f64)> {
        d.split('M')
            .filter(|m| !m.is_empty())
            .filter_map(|m| {
                let (point, to) = m.split_once(across)?;
                let from = point.split(' ').nth(if across == 'V' { 1 } else { 0 })?;
                Some((from.parse().ok()?, to.parse().ok()?))
            })
            .collect()
    };
    let grey_paths: Vec<&str> = out
        .split("<path d=\"")
        .skip(1)
        .filter(|p| p.contains("stroke=\"#898989\""))
        .map(|p| &p[..p.find('"').unwrap()])
        .collect();
    // Out: four ticks 4 pt down from the category axis, between and around the columns.
    let down = grey_paths
        .iter()
        .map(|d| segments(d, 'V'))
        .find(|s| s.len() == 4 && s.iter().all(|(a, b)| (b - a - 4.0).abs() < 0.01))
        .unwrap_or_else(|| panic!("no ticks under the categories: {out}"));
    assert!(
        down.iter().all(|(a, _)| (a - down[0].0).abs() < 0.01),
        "{down:?}"
    );
    // Cross: four ticks (0, 2, 4, 6) 4 pt either side of the value axis.
    let across = grey_paths
        .iter()
        .map(|d| segments(d, 'H'))
        .find(|s| s.len() == 4 && s.iter().all(|(a, b)| ((b - a).abs() - 8.0).abs() < 0.01))
        .unwrap_or_else(|| panic!("no ticks across the value axis: {out}"));
    assert_eq!(across.len(), 4);
    // The value labels end clear of the ticks' outer ends.
    let outer = across
        .iter()
        .map(|(a, b)| a.min(*b))
        .fold(f64::MAX, f64::min);
    let label = text_attrs(&out, "0", "x")[0];
    assert!(label < outer - 2.0, "{label} vs {outer}");

    // The same chart written by Office 2013 and later: its grey text stays, and an axis
    // whose line is removed has no ticks either.
    let styled = plot.replace(
        r#"<c:majorTickMark val="out"/>"#,
        r#"<c:majorTickMark val="out"/><c:spPr><a:ln><a:noFill/></a:ln></c:spPr>"#,
    );
    let out = svg(&parse(&styled, ""), 400.0, 300.0);
    assert!(
        out.contains(r##"fill="#595959" text-anchor="middle">North</text>"##),
        "{out}"
    );
    assert!(
        !out.split("<path d=\"")
            .any(|p| segments(&p[..p.find('"').unwrap_or(0)], 'V').len() == 4),
        "{out}"
    );
}

#[test]
fn labels_on_the_plot_edges_stay_inside_the_chart() {
    // Points on the tick marks (`c:crossBetween val="midCat"`) centre the first and last
    // labels on the plot's edges; a long last one was cut by the chart's right edge
    // (`powertools-CU017`'s "1/9/2002"). The plot comes in instead.
    let last = "The last category";
    let cats = ["A", "B", "C", last];
    let plot = format!(
        r#"<c:lineChart>{}{AXES}</c:lineChart>{}"#,
        ser(0, "S", &cats, &[Some(1.0); 4], ""),
        cat_val_axes(r#"<c:crossBetween val="midCat"/>"#)
    );
    let c = parse(&plot, "");
    let out = svg(&c, 400.0, 200.0);
    assert!(!out.contains("rotate("), "level labels: {out}");
    let x = text_attrs(&out, last, "x")[0];
    let half = super::render::text_width(last, 10.0) / 2.0;
    assert!(x + half <= 400.0 + 0.5, "it ends at {}", x + half);
    assert!(
        x + half > 400.0 - 20.0,
        "the plot came in by just enough: {x}"
    );
}

/// Column chart with four Cyrillic categories (`shapecrawler-013`'s top right chart).
fn cyrillic_columns() -> Chart {
    let cats = ["Категория 1", "Категория 2", "Категория 3", "Категория 4"];
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(
            0,
            "S",
            &cats,
            &[Some(4.3), Some(2.5), Some(3.5), Some(4.5)],
            ""
        ),
        // Whole units, as on the deck (its title and legend leave a shorter axis).
        cat_val_axes(r#"<c:majorUnit val="1"/>"#)
    );
    let mut c = parse(&plot, "");
    axis_text(&mut c, 12.0);
    c
}

#[test]
fn category_labels_that_fit_their_slot_stay_level() {
    // "Категория 1" at 12 pt is about 61 pt in Carlito and 67 pt in Liberation Sans; a
    // 316 pt chart (the deck's) leaves each of its four categories a slot of about 71 pt, so neither
    // face turns them (LibreOffice draws them level).
    let c = cyrillic_columns();
    for family in ["Carlito", "'Liberation Sans','Arial',sans-serif"] {
        let opts = SvgOptions {
            font_family: family,
            ..SvgOptions::default()
        };
        let out = render_svg(&c, 316.0, 218.0, &opts).expect("drawn");
        assert!(!out.contains("rotate("), "{family}: {out}");
    }
}

#[test]
fn labels_are_measured_in_the_drawing_typeface() {
    // At 290 pt the slots are about 64 pt: the labels still fit in Carlito, not in the
    // wider Liberation Sans (Arial's metrics), which turns them.
    let c = cyrillic_columns();
    let draw = |family| {
        let opts = SvgOptions {
            font_family: family,
            ..SvgOptions::default()
        };
        render_svg(&c, 290.0, 220.0, &opts).expect("drawn")
    };
    assert!(!draw("'pptx-calibri','Carlito',sans-serif").contains("rotate("));
    assert!(draw("'Aharoni','Liberation Sans',sans-serif").contains("rotate(-45"));
    assert_eq!(super::render::font_width_scale("'pptx-x','Carlito'"), 1.0);
    assert!(super::render::font_width_scale("'Verdana','DejaVu Sans'") > 1.2);
    assert_eq!(super::render::font_width_scale("'Unknown'"), 1.0);
}

/// The value-axis tick labels of an SVG: `<text>` elements anchored at their end.
fn end_labels(out: &str) -> Vec<String> {
    out.split("<text ")
        .skip(1)
        .filter(|t| t.contains("text-anchor=\"end\"") && !t.contains("rotate("))
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].to_owned())
        .collect()
}

#[test]
fn value_axes_take_up_to_ten_intervals_as_room_allows() {
    // 824, 690, 542 on a 135 pt tall chart of 9 pt labels: 0 to 900 by 100, as
    // PowerPoint and LibreOffice draw it, not 0 to 1000 by 500.
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(824.0), Some(690.0), Some(542.0)], ""),
        cat_val_axes("")
    );
    let mut c = parse(&plot, "");
    axis_text(&mut c, 9.0);
    let labels = end_labels(&svg(&c, 300.0, 135.0));
    assert_eq!(labels.first().map(String::as_str), Some("0"), "{labels:?}");
    assert_eq!(labels.get(1).map(String::as_str), Some("100"), "{labels:?}");
    assert_eq!(labels.last().map(String::as_str), Some("900"), "{labels:?}");
    // A short axis still holds fewer: one label height per interval at least.
    let short = end_labels(&svg(&c, 300.0, 50.0));
    assert!(short.len() <= 5, "{short:?}");

    // Across a bubble chart's x axis the labels' own width sets the room: 50 to 300
    // on 330 pt runs 0 to 350 by 50.
    let xs = [50.0, 75.0, 225.0, 300.0];
    let pts = |v: &[f64]| -> String {
        v.iter()
            .enumerate()
            .map(|(i, v)| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#))
            .collect()
    };
    let series = format!(
        r#"<c:ser><c:idx val="0"/><c:xVal><c:numLit><c:ptCount val="4"/>{}</c:numLit></c:xVal><c:yVal><c:numLit><c:ptCount val="4"/>{}</c:numLit></c:yVal><c:bubbleSize><c:numLit><c:ptCount val="4"/>{}</c:numLit></c:bubbleSize></c:ser>"#,
        pts(&xs),
        pts(&[20.0, 70.0, 40.0, 27.0]),
        pts(&[60.0, 50.0, 75.0, 125.0])
    );
    let axes = r#"<c:valAx><c:axId val="1"/><c:axPos val="b"/><c:crossAx val="2"/></c:valAx><c:valAx><c:axId val="2"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>"#;
    let mut bubble = parse(
        &format!(r#"<c:bubbleChart>{series}{AXES}</c:bubbleChart>{axes}"#),
        "",
    );
    axis_text(&mut bubble, 12.0);
    let out = svg(&bubble, 330.0, 200.0);
    assert_middle_labels(&out, &["50", "150", "350"]);
}

#[test]
fn large_tick_labels_keep_a_one_millimetre_gap_to_the_axis() {
    // 16 pt labels beside an inner plot area placed 12 pt from the frame's edge
    // (`shapecrawler-025_chart`): the gap stays 1 mm, so a one-digit label still fits.
    let plot = format!(
        r#"<c:layout><c:manualLayout><c:layoutTarget val="inner"/><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="0.04"/><c:y val="0.05"/><c:w val="0.9"/><c:h val="0.8"/></c:manualLayout></c:layout><c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let mut c = parse(&plot, "");
    axis_text(&mut c, 16.0);
    let out = svg(&c, 300.0, 200.0);
    let x = text_attrs(&out, "0", "x")[0];
    assert!((x - (12.0 - 2.83)).abs() < 0.01, "{out}");
    // With tick marks pointing out of the plot, a wide label moves the plot in by the
    // ticks' length too rather than run out of the chart (`shapecrawler-021`'s
    // "10000000%" lost its "1").
    let ticked = plot.replace(
        r#"<c:majorGridlines/>"#,
        r#"<c:majorGridlines/><c:majorTickMark val="out"/><c:numFmt formatCode="0%" sourceLinked="0"/>"#,
    );
    let mut c = parse(&ticked, "");
    axis_text(&mut c, 16.0);
    let out = svg(&c, 300.0, 200.0);
    let label = "500%";
    let x = text_attrs(&out, label, "x")[0];
    let width = super::render::text_width(label, 16.0);
    assert!(x - width >= -0.01, "{label} starts at {}: {out}", x - width);
}

/// The attribute `attr` of every `<text>` whose content is `label`, in order.
fn text_attrs(out: &str, label: &str, attr: &str) -> Vec<f64> {
    out.split("<text ")
        .filter(|t| t.contains(&format!(">{label}</text>")))
        .map(|t| {
            let key = format!("{attr}=\"");
            let at = t.find(&key).unwrap() + key.len();
            t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn title_and_legend_sit_where_libreoffice_puts_them() {
    // A 300 pt tall chart with an 18.6 pt title and a 12 pt legend at the bottom: the
    // title's baseline 2 % plus 1.35 title sizes down (about 31.1 pt), the plot's top
    // gridline 2.2 title sizes below the title's top, the legend's baseline within
    // 8 pt of the bottom edge.
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "Sales", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let mut c = parse(
        &plot,
        r#"<c:title><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/><c:legend><c:legendPos val="b"/></c:legend>"#,
    );
    c.title_style.size = 18.6;
    if let Some(l) = &mut c.legend {
        l.text.size = 12.0;
    }
    axis_text(&mut c, 12.0);
    let out = svg(&c, 400.0, 300.0);
    // The title, then the legend entry.
    let sales = text_attrs(&out, "Sales", "y");
    assert_eq!(sales.len(), 2, "{out}");
    assert!((sales[0] - (6.0 + 18.6 * 1.35)).abs() < 0.1, "{sales:?}");
    let top_label = text_attrs(&out, "6", "y")[0];
    assert!(top_label > 6.0 + 18.6 * 2.2, "{top_label}");
    assert!(sales[1] > 300.0 - 8.0 && sales[1] < 300.0, "{sales:?}");
}

#[test]
fn bubble_labels_follow_their_position() {
    // `c:dLblPos val="ctr"` centres each value on its bubble (`shapecrawler-021`); without
    // a position the label stands to the right of the point.
    let series = |pos: &str| {
        format!(
            r#"<c:ser><c:idx val="0"/><c:dLbls>{pos}<c:showVal val="1"/></c:dLbls><c:xVal><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>50</c:v></c:pt><c:pt idx="1"><c:v>300</c:v></c:pt></c:numLit></c:xVal><c:yVal><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>20.5</c:v></c:pt><c:pt idx="1"><c:v>70.5</c:v></c:pt></c:numLit></c:yVal><c:bubbleSize><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>60</c:v></c:pt><c:pt idx="1"><c:v>125</c:v></c:pt></c:numLit></c:bubbleSize></c:ser>"#
        )
    };
    let axes = r#"<c:valAx><c:axId val="1"/><c:axPos val="b"/><c:crossAx val="2"/></c:valAx><c:valAx><c:axId val="2"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>"#;
    let draw = |pos: &str| {
        let c = parse(
            &format!(
                r#"<c:bubbleChart>{}{AXES}</c:bubbleChart>{axes}"#,
                series(pos)
            ),
            "",
        );
        svg(&c, 400.0, 300.0)
    };
    let centred = draw(r#"<c:dLblPos val="ctr"/>"#);
    let cx: Vec<f64> = text_attrs(&centred, "70.5", "x");
    let bubble = centred
        .split("class=\"bubble\"")
        .nth(2)
        .expect("two bubbles");
    let at = bubble.find("cx=\"").unwrap() + 4;
    let bx: f64 = bubble[at..at + bubble[at..].find('"').unwrap()]
        .parse()
        .unwrap();
    assert!((cx[0] - bx).abs() < 0.01, "{centred}");
    assert!(centred.contains("text-anchor=\"middle\">70.5</text>"));
    let right = draw("");
    assert!(
        right.contains("text-anchor=\"start\">70.5</text>"),
        "{right}"
    );
}

#[test]
fn theme_cycle_sp_pr_and_3d_charts() {
    let red = r#"<c:spPr><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></c:spPr>"#;
    let mut series = String::new();
    for i in 0..8 {
        series.push_str(&ser(
            i,
            &format!("S{i}"),
            &CATS,
            &[Some(1.0), Some(2.0), Some(3.0)],
            if i == 2 { red } else { "" },
        ));
    }
    let c = parse(
        &format!(
            r#"<c:bar3DChart><c:barDir val="col"/>{series}{AXES}</c:bar3DChart>{}"#,
            cat_val_axes("")
        ),
        "",
    );
    assert!(c.drawn_as_2d);
    assert_eq!(c.chart_types, ["column"]);
    let s = &c.plots[0].series;
    assert_eq!(s[2].color, Color::rgb(0xFF0000));
    // Series 7 is accent1 again, darkened (lumMod 60 %).
    let (a1, s6) = (Color::rgb(0x4472C4), s[6].color);
    assert!(s6 != a1 && s6.b < a1.b && s6.b > s6.r, "{s6:?}");
    assert_eq!(
        s[7].color,
        super::palette::luminance(Color::rgb(0xED7D31), 0.6, 0.0)
    );
    let out = svg(&c, 600.0, 300.0);
    assert_eq!(rects(&out, "#FF0000").len(), 3);
}

#[test]
fn manual_layout_places_the_plot_and_legends_take_their_side() {
    let layout = r#"<c:layout><c:manualLayout><c:layoutTarget val="inner"/><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="0.25"/><c:y val="0.1"/><c:w val="0.5"/><c:h val="0.6"/></c:manualLayout></c:layout>"#;
    let plot = format!(
        r#"{layout}<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "Only", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    let m = c.plot_layout.expect("a manual layout");
    assert!(m.inner && (m.x, m.w) == (0.25, 0.5));
    let out = svg(&c, 400.0, 200.0);
    // Every bar lies within x 100..300, y 20..140.
    for r in rects(&out, "#4472C4") {
        assert!(
            r[0] >= 100.0 && r[0] + r[2] <= 300.0 && r[1] >= 20.0 && r[1] + r[3] <= 140.01,
            "{r:?}"
        );
    }
    let legend_x = |pos: &str| {
        let c = parse(
            &format!(
                r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
                ser(
                    0,
                    "Legend entry",
                    &CATS,
                    &[Some(1.0), Some(2.0), Some(3.0)],
                    ""
                ),
                cat_val_axes("")
            ),
            &format!(r#"<c:legend><c:legendPos val="{pos}"/></c:legend>"#),
        );
        let out = svg(&c, 400.0, 300.0);
        let at = out.find(">Legend entry</text>").unwrap();
        let head = &out[..at];
        let x = &head[head.rfind("<text x=\"").unwrap() + 9..];
        let y = &x[x.find("y=\"").unwrap() + 3..];
        (
            x[..x.find('"').unwrap()].parse::<f64>().unwrap(),
            y[..y.find('"').unwrap()].parse::<f64>().unwrap(),
        )
    };
    let (r, l, t, b) = (legend_x("r"), legend_x("l"), legend_x("t"), legend_x("b"));
    assert!(r.0 > 300.0 && l.0 < 100.0, "{r:?} {l:?}");
    assert!(t.1 < 60.0 && b.1 > 250.0, "{t:?} {b:?}");
}

#[test]
fn hostile_parts_give_bounded_output() {
    // A huge ptCount, indices far away, NaN and infinite values, no caches at all.
    let bad = r#"<c:ser><c:idx val="0"/><c:val><c:numRef><c:numCache><c:ptCount val="4000000000"/><c:pt idx="0"><c:v>NaN</c:v></c:pt><c:pt idx="1"><c:v>inf</c:v></c:pt><c:pt idx="2"><c:v>1e308</c:v></c:pt><c:pt idx="3"><c:v>3</c:v></c:pt><c:pt idx="99999999"><c:v>4</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser><c:ser><c:idx val="1"/><c:val/></c:ser><c:ser/>"#;
    let c = parse(
        &format!(
            r#"<c:barChart><c:barDir val="col"/>{bad}{AXES}</c:barChart>{}"#,
            cat_val_axes("")
        ),
        "",
    );
    let s = &c.plots[0].series[0];
    assert!(c.truncated);
    assert!(s.values.len() <= super::parse::MAX_POINTS);
    assert_eq!(&s.values[..4], [None, None, Some(1e308), Some(3.0)]);
    let out = svg(&c, 400.0, 300.0);
    assert!(!out.contains("NaN") && !out.contains("inf"));
    assert!(out.len() < 400_000, "{}", out.len());

    // Many series with many points: capped.
    let pts: String = (0..3000)
        .map(|i| format!(r#"<c:pt idx="{i}"><c:v>{i}</c:v></c:pt>"#))
        .collect();
    let one = format!(
        r#"<c:ser><c:val><c:numLit><c:ptCount val="3000"/>{pts}</c:numLit></c:val></c:ser>"#
    );
    let many: String = (0..100).map(|_| one.as_str()).collect();
    let c = parse(
        &format!(
            r#"<c:lineChart>{many}{AXES}</c:lineChart>{}"#,
            cat_val_axes("")
        ),
        "",
    );
    assert!(c.truncated);
    let points: usize = c.series().map(|s| s.values.len()).sum();
    assert!(
        points <= super::parse::MAX_TOTAL_POINTS && c.series().count() <= super::parse::MAX_SERIES
    );
    let out = svg(&c, 400.0, 300.0);
    assert!(out.len() < 3_000_000, "{}", out.len());

    // Deeply nested unknown content and script-like text: ignored or escaped.
    let deep = format!("{}{}", "<c:extLst>".repeat(100), "</c:extLst>".repeat(100));
    let c = parse(
        &format!(
            r#"<c:barChart><c:barDir val="col"/>{deep}{}{AXES}</c:barChart>{}"#,
            ser(0, "&lt;script&gt;", &["&lt;b&gt;"], &[Some(1.0)], ""),
            cat_val_axes("")
        ),
        "<c:legend/>",
    );
    let out = svg(&c, 400.0, 300.0);
    assert!(
        !out.contains("<script") && out.contains("&lt;script&gt;") && out.contains("&lt;b&gt;")
    );

    // Nothing to draw: no SVG, so the caller shows a placeholder.
    let empty = parse(r#"<c:barChart><c:ser><c:val/></c:ser></c:barChart>"#, "");
    assert!(render_svg(&empty, 400.0, 300.0, &SvgOptions::default()).is_none());
    assert!(render_svg(&Chart::empty(), 400.0, 300.0, &SvgOptions::default()).is_none());
    // A plot with no series at all is a chart the author emptied: its bare chart area
    // (fill and title), no placeholder.
    let mut bare = parse(
        r#"<c:doughnutChart><c:varyColors val="1"/><c:holeSize val="65"/></c:doughnutChart>"#,
        "",
    );
    bare.part = Some("ppt/charts/chart1.xml".to_owned());
    // Only where the caller asks for it (a slide); a chart sheet keeps its labelled box.
    assert!(render_svg(&bare, 400.0, 300.0, &SvgOptions::default()).is_none());
    let slide = SvgOptions {
        draw_empty: true,
        ..SvgOptions::default()
    };
    let out = render_svg(&bare, 400.0, 300.0, &slide).expect("bare area");
    assert!(out.starts_with("<svg") && !out.contains("<path") && !out.contains("<text"));
    let surface = parse(
        &format!(
            "<c:surfaceChart>{}</c:surfaceChart>",
            ser(0, "S", &CATS, &[Some(1.0)], "")
        ),
        "",
    );
    assert_eq!(surface.chart_types, ["surface"]);
    // A surface is drawn (as its contour chart; `surface_charts_draw_their_value_bands`).
    assert!(render_svg(&surface, 400.0, 300.0, &SvgOptions::default()).is_some());
}

#[test]
fn output_is_deterministic() {
    let plot = format!(
        r#"<c:lineChart>{}{AXES}</c:lineChart>{}"#,
        ser(
            0,
            "S",
            &CATS,
            &[Some(1.0 / 3.0), Some(2.0), Some(3.0)],
            "<c:smooth val=\"1\"/>"
        ),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    assert_eq!(svg(&c, 333.3, 222.2), svg(&c, 333.3, 222.2));
    assert!(!svg(&c, 333.3, 222.2).contains("0.33333"));
}

#[test]
fn office_2007_styles_shade_one_accent_on_a_dark_ground() {
    let series: String = (0..3)
        .map(|i| {
            ser(
                i,
                &format!("S{i}"),
                &CATS,
                &[Some(1.0), Some(2.0), Some(3.0)],
                "",
            )
        })
        .collect();
    let xml = |style: u32| {
        format!(
            r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:style val="{style}"/><c:chart><c:plotArea><c:barChart><c:barDir val="col"/>{series}{AXES}</c:barChart>{}</c:plotArea></c:chart></c:chartSpace>"#,
            cat_val_axes("")
        )
    };
    // Style 2: the accent cycle, no background.
    let plain = parse_str(&xml(2));
    assert_eq!(plain.plots[0].series[1].color, Color::rgb(0xED7D31));
    assert_eq!(plain.background, None);
    // Style 47: shades of accent5 (column 7), darkest first, on dk1 with lt1 text.
    let dark = parse_str(&xml(47));
    let s = &dark.plots[0].series;
    let lum = |c: Color| u32::from(c.r) + u32::from(c.g) + u32::from(c.b);
    assert!(lum(s[0].color) < lum(s[1].color) && lum(s[1].color) < lum(s[2].color));
    assert!(s.iter().all(|s| s.color.b > s.color.r), "all blue");
    assert_eq!(dark.background, Some(Color::rgb(0x000000)));
    assert_eq!(dark.text.color, Color::rgb(0xFFFFFF));
    assert!(
        svg(&dark, 400.0, 300.0).contains("<rect width=\"400\" height=\"300\" fill=\"#000000\"/>")
    );
}

/// A 3-D surface (`powertools-CU003-Chart-Cached-Data-03.docx` is one) is drawn as its
/// contour chart: one path per value band in the band's colour (a `c:bandFmt` over the
/// accent cycle), categories under the plot, series names beside it, and a legend of the
/// bands' ranges.
#[test]
fn surface_charts_draw_their_value_bands() {
    let cats = ["Y1", "Y2", "Y3", "Y4"];
    let rows = [
        [3.0, 2.1, 0.7, 3.0],
        [3.0, 2.1, 0.8, 3.0],
        [2.8, 1.9, 0.9, 2.7],
    ];
    let sers: String = rows
        .iter()
        .enumerate()
        .map(|(j, r)| ser(j, &format!("X{}", j + 1), &cats, &r.map(Some), ""))
        .collect();
    let band0 = r#"<c:bandFmts><c:bandFmt><c:idx val="0"/><c:spPr><a:solidFill><a:srgbClr val="123456"/></a:solidFill></c:spPr></c:bandFmt></c:bandFmts>"#;
    let axes = r#"<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx><c:serAx><c:axId val="3"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:serAx>"#;
    let c = parse(
        &format!(
            r#"<c:surface3DChart><c:wireframe val="0"/>{sers}{band0}<c:axId val="1"/><c:axId val="2"/><c:axId val="3"/></c:surface3DChart>{axes}"#
        ),
        r#"<c:view3D><c:rotX val="15"/></c:view3D><c:legend><c:legendPos val="r"/></c:legend>"#,
    );
    assert_eq!(c.chart_types, ["surface"]);
    assert_eq!(c.background, None);
    assert_eq!(c.plots[0].kind, PlotKind::Surface);
    assert!(c.drawn_as_2d);
    assert_eq!(c.plots[0].band_colors[0], Color::rgb(0x123456));
    assert_eq!(c.plots[0].band_colors[1], Color::rgb(0xED7D31));
    let out = svg(&c, 480.0, 300.0);
    // Values 0.7–3 on an automatic 0–3.5 axis by 0.5: seven bands, the lowest (0–0.5)
    // empty, so six paths.
    assert_eq!(out.matches("class=\"band\"").count(), 6, "{out}");
    assert!(!out.contains("fill=\"#123456\" stroke"), "{out}");
    assert!(out.contains("fill=\"#ED7D31\" stroke"), "{out}");
    for label in ["0-0.5", "3-3.5", ">Y1<", ">Y4<", ">X1<", ">X3<"] {
        assert!(out.contains(label), "{label}: {out}");
    }
}

/// A chart area filled with a gradient (Office's dark styles: a radial dk1 gradient, with
/// light text) is drawn in the mean of its stops, not left white under the light text.
#[test]
fn a_gradient_chart_area_is_drawn_in_its_mean_colour() {
    let xml = format!(
        r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:lineChart>{}{AXES}</c:lineChart>{}</c:plotArea></c:chart><c:spPr><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="595959"/></a:gs><a:gs pos="100000"><a:srgbClr val="262626"/></a:gs></a:gsLst><a:path path="circle"/></a:gradFill></c:spPr></c:chartSpace>"#,
        ser(0, "S", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], ""),
        cat_val_axes("")
    );
    let c = parse_str(&xml);
    assert_eq!(c.background, Some(Color::rgb(0x404040)));
    assert!(svg(&c, 400.0, 300.0).contains("fill=\"#404040\""));
}

/// A series' marker takes its `c:symbol`; a marker without one takes Office's automatic
/// shape for the series' index (`shapecrawler-025_chart`: diamond, square, triangle).
#[test]
fn markers_take_their_symbol_or_the_automatic_shape() {
    let marker = |sym: &str| format!("<c:marker>{sym}<c:size val=\"6\"/></c:marker>");
    let plot = format!(
        r#"<c:lineChart><c:grouping val="standard"/>{}{}{}<c:marker val="1"/>{AXES}</c:lineChart>{}"#,
        ser(
            0,
            "A",
            &CATS,
            &[Some(1.0), Some(2.0), Some(3.0)],
            &marker("")
        ),
        ser(
            1,
            "B",
            &CATS,
            &[Some(2.0), Some(3.0), Some(1.0)],
            &marker(r#"<c:symbol val="x"/>"#)
        ),
        ser(
            2,
            "C",
            &CATS,
            &[Some(3.0), Some(1.0), Some(2.0)],
            &marker("")
        ),
        cat_val_axes("")
    );
    let c = parse(&plot, "");
    let symbols: Vec<&str> = c.plots[0]
        .series
        .iter()
        .map(|s| s.marker_symbol.as_str())
        .collect();
    assert_eq!(symbols, ["diamond", "x", "triangle"]);
    let out = svg(&c, 400.0, 300.0);
    // Three points per series: three diamonds and three triangles as filled paths,
    // three x marks as stroked ones, and no circles.
    assert_eq!(out.matches("class=\"marker\"").count(), 9, "{out}");
    assert_eq!(out.matches("Z\" fill=\"").count(), 6, "{out}");
    assert!(!out.contains("<circle"), "{out}");
    assert_eq!(
        out.matches("fill=\"none\" stroke=\"#ED7D31\" stroke-width=\"1\"")
            .count(),
        3,
        "{out}"
    );
}

/// The chart area's outline (`c:chartSpace/c:spPr/a:ln`) is drawn inside the frame in
/// its colour and width; a `noFill` line, or none, draws nothing.
#[test]
fn the_chart_areas_outline_is_drawn_inside_the_frame() {
    let with = |ln: &str| {
        parse_str(&format!(
            r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:lineChart>{}{AXES}</c:lineChart>{}</c:plotArea></c:chart><c:spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>{ln}</c:spPr></c:chartSpace>"#,
            ser(0, "S", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], ""),
            cat_val_axes("")
        ))
    };
    let c = with(r#"<a:ln w="25400"><a:solidFill><a:srgbClr val="D9D9D9"/></a:solidFill></a:ln>"#);
    assert_eq!(c.border, Some((Color::rgb(0xD9D9D9), 2.0)));
    let out = svg(&c, 400.0, 300.0);
    assert!(
        out.contains(r##"<rect class="chart-border" x="1" y="1" width="398" height="298" fill="none" stroke="#D9D9D9" stroke-width="2"/>"##),
        "{out}"
    );
    for none in [r#"<a:ln><a:noFill/></a:ln>"#, ""] {
        let c = with(none);
        assert_eq!(c.border, None);
        assert!(!svg(&c, 400.0, 300.0).contains("chart-border"));
    }
}

/// A value axis whose labels are larger than the categories' still has room above the
/// plot for half of its top label (`shapecrawler-025_chart`: its "6" was cut at the top).
#[test]
fn the_top_value_label_stays_inside_the_frame() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(1.0), Some(5.5), Some(3.0)], ""),
        cat_val_axes("")
    );
    let mut c = parse(&plot, "");
    c.axes[1].text.size = 24.0;
    let out = svg(&c, 240.0, 150.0);
    // Every label's top (its baseline less an ascent of 0.8 em) is inside the frame.
    for t in out.split("<text ").skip(1) {
        let num = |key: &str| -> f64 {
            let at = t.find(key).unwrap() + key.len();
            t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
        };
        let (y, size) = (num(" y=\""), num("font-size=\""));
        assert!(y - 0.8 * size >= 0.0, "a label above the frame: <text {t}");
    }
}

/// A pie with one series, the categories A, B, C … and `extra` inside its `c:ser`.
fn labelled_pie(kind: &str, vals: &[Option<f64>], extra: &str) -> Chart {
    let cats: Vec<String> = (0..vals.len())
        .map(|i| char::from(b'A' + i as u8).to_string())
        .collect();
    let cats: Vec<&str> = cats.iter().map(String::as_str).collect();
    let plot = format!(
        r#"<c:{kind}Chart><c:varyColors val="1"/>{}<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:{kind}Chart>"#,
        ser(0, "S", &cats, vals, extra)
    );
    parse(&plot, "<c:autoTitleDeleted val=\"1\"/>")
}

/// The points' own `c:dLbl`s (`shapecrawler-005_chart`): a series whose `c:dLbls` shows
/// nothing still labels the points that say so, a deleted point label is not drawn, and
/// a dragged label (a factor-mode `c:manualLayout`) moves by fractions of the frame.
#[test]
fn point_labels_override_their_series() {
    let dlbls = r#"<c:dLbls><c:dLbl><c:idx val="0"/><c:showVal val="1"/></c:dLbl><c:dLbl><c:idx val="1"/><c:layout><c:manualLayout><c:x val="-0.3"/><c:y val="0.1"/></c:manualLayout></c:layout><c:showVal val="1"/></c:dLbl><c:dLbl><c:idx val="2"/><c:delete val="1"/></c:dLbl><c:showVal val="0"/><c:showLeaderLines val="1"/></c:dLbls>"#;
    let vals = [Some(50.0), Some(30.0), Some(20.0), Some(7.0)];
    let c = labelled_pie("pie", &vals, dlbls);
    let s = &c.plots[0].series[0];
    assert!(s.labels.is_none());
    assert_eq!(s.point_labels.len(), 3);
    assert_eq!(s.point_labels[1].offset, Some((-0.3, 0.1)));
    assert!(s.point_labels[2].labels.is_none());
    // Inherited from the series: leader lines on.
    assert!(s.point_labels[0].labels.as_ref().unwrap().leader_lines);
    let out = svg(&c, 400.0, 300.0);
    assert!(
        out.contains(">50</text>") && out.contains(">30</text>"),
        "{out}"
    );
    assert!(!out.contains(">20</text>") && !out.contains(">7</text>"));
    // Undragged, B's label would sit in its slice (clockwise from 12 o'clock: the lower
    // right); dragged 0.3 × 400 left and 0.1 × 300 down, out of the pie, and tied to
    // its slice by a line.
    let c0 = labelled_pie(
        "pie",
        &vals,
        &dlbls.replace(
            r#"<c:layout><c:manualLayout><c:x val="-0.3"/><c:y val="0.1"/></c:manualLayout></c:layout>"#,
            "",
        ),
    );
    let (x0, y0) = (
        text_attrs(&svg(&c0, 400.0, 300.0), "30", "x")[0],
        text_attrs(&svg(&c0, 400.0, 300.0), "30", "y")[0],
    );
    let (x, y) = (
        text_attrs(&out, "30", "x")[0],
        text_attrs(&out, "30", "y")[0],
    );
    assert!(
        (x - x0 + 120.0).abs() < 0.02 && (y - y0 - 30.0).abs() < 0.02,
        "{x0},{y0} → {x},{y}"
    );
    assert!(out.contains("stroke=\"#A6A6A6\""), "a leader line: {out}");
}

/// The distance of the first label `label` (its middle) from the centre of the first
/// slice's pie, and that pie's radius.
fn label_distance(out: &str, label: &str) -> (f64, f64) {
    let slice = out.split("class=\"slice\" d=\"M").nth(1).unwrap();
    let nums: Vec<f64> = slice
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|t| !t.is_empty())
        .take(2)
        .map(|t| t.parse().unwrap())
        .collect();
    let (cx, cy) = (nums[0], nums[1]);
    let a = slice.find('A').unwrap();
    let r: f64 = slice[a + 1..].split(' ').next().unwrap().parse().unwrap();
    let x = text_attrs(out, label, "x")[0];
    let y = text_attrs(out, label, "y")[0] - 3.5;
    ((x - cx).hypot(y - cy), r)
}

/// Label positions of a pie: `outEnd` outside the rim, `ctr` halfway, `inEnd` inside
/// near the rim; best fit (no position) puts a label that does not fit its thin slice
/// outside, and small neighbours' outside labels are pushed apart, never overlapping.
#[test]
fn pie_labels_take_their_position_and_do_not_overlap() {
    let vals = [Some(60.0), Some(40.0)];
    let at = |pos: &str| {
        let labels = format!(r#"<c:dLbls><c:dLblPos val="{pos}"/><c:showVal val="1"/></c:dLbls>"#);
        svg(&labelled_pie("pie", &vals, &labels), 400.0, 300.0)
    };
    let (out, r) = label_distance(&at("outEnd"), "60");
    assert!(out > r, "{out} {r}");
    let (ctr, r) = label_distance(&at("ctr"), "60");
    assert!((ctr - r * 0.5).abs() < 1.0, "{ctr} {r}");
    let (in_end, r) = label_distance(&at("inEnd"), "60");
    assert!(in_end < r && in_end > r * 0.6, "{in_end} {r}");
    // Best fit: the wide label of a 1 % sliver goes outside; five slivers' labels do not
    // overlap one another.
    let many = [
        Some(95.0),
        Some(1.0),
        Some(1.0),
        Some(1.0),
        Some(1.0),
        Some(1.0),
    ];
    let labels = r#"<c:dLbls><c:showCatName val="1"/><c:showVal val="1"/><c:showLeaderLines val="1"/></c:dLbls>"#;
    let out = svg(&labelled_pie("pie", &many, labels), 400.0, 300.0);
    let (sliver, r) = label_distance(&out, "B, 1");
    assert!(sliver > r, "{sliver} {r}");
    let ys: Vec<f64> = ["B, 1", "C, 1", "D, 1", "E, 1", "F, 1"]
        .iter()
        .map(|l| text_attrs(&out, l, "y")[0])
        .collect();
    let mut sorted = ys.clone();
    sorted.sort_by(f64::total_cmp);
    assert!(sorted.windows(2).all(|w| w[1] - w[0] >= 11.9), "{ys:?}");
    // Pushed away from their slices, they are tied to them by leader lines.
    assert!(count(&out, "stroke=\"#A6A6A6\"") >= 3, "{out}");
    let no_lines = labels.replace("<c:showLeaderLines val=\"1\"/>", "");
    let out = svg(&labelled_pie("pie", &many, &no_lines), 400.0, 300.0);
    assert_eq!(count(&out, "stroke=\"#A6A6A6\""), 0);
}

/// A label's separator (`c:separator`) joins its parts as written; a doughnut's labels sit
/// on the middle of its ring; a one-point doughnut is a whole ring with its hole.
#[test]
fn separators_and_doughnut_labels() {
    let labels = r#"<c:dLbls><c:showVal val="1"/><c:showCatName val="1"/><c:separator>; </c:separator></c:dLbls>"#;
    let out = svg(
        &labelled_pie("pie", &[Some(3.0), Some(1.0)], labels),
        400.0,
        300.0,
    );
    assert!(out.contains(">A; 3</text>"), "{out}");
    let line_break = labels.replace("; ", "\n");
    let out = svg(
        &labelled_pie("pie", &[Some(3.0), Some(1.0)], &line_break),
        400.0,
        300.0,
    );
    assert!(
        out.contains(">A</text>") && out.contains(">3</text>"),
        "{out}"
    );
    // Value and category without a separator: Office's comma.
    let plain = labels.replace("<c:separator>; </c:separator>", "");
    let out = svg(
        &labelled_pie("pie", &[Some(3.0), Some(1.0)], &plain),
        400.0,
        300.0,
    );
    assert!(out.contains(">A, 3</text>"), "{out}");
    // Doughnut (hole 50 %): the label halfway between the hole and the rim, whatever its
    // position says.
    let ring = r#"<c:dLbls><c:dLblPos val="outEnd"/><c:showVal val="1"/></c:dLbls>"#;
    let out = svg(
        &labelled_pie("doughnut", &[Some(1.0), Some(1.0)], ring),
        300.0,
        300.0,
    );
    // The first slice starts on its outer arc, not at a centre: measure from the frame's
    // middle (no title or legend, even margins).
    let x = text_attrs(&out, "1", "x")[0];
    let slice = out.split("class=\"slice\"").nth(1).unwrap();
    let r: f64 = slice
        .split('A')
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((x - 150.0 - 0.75 * r).abs() < 1.5, "{x} {r}");
    let out = svg(&labelled_pie("doughnut", &[Some(1.0)], ""), 300.0, 300.0);
    assert!(out.contains("fill-rule=\"evenodd\""), "{out}");
    // Two circles in one path: the rim and the hole.
    let d = out.split("class=\"slice\" d=\"").nth(1).unwrap();
    assert_eq!(count(&d[..d.find('"').unwrap()], "Z"), 2);
}

/// Columns honour their points' own labels too: only the point whose `c:dLbl` shows its
/// value is labelled, moved by its drag.
#[test]
fn column_point_labels_override_their_series() {
    let dlbls = r#"<c:dLbls><c:dLbl><c:idx val="1"/><c:layout><c:manualLayout><c:x val="0.05"/><c:y val="0"/></c:manualLayout></c:layout><c:showVal val="1"/></c:dLbl><c:showVal val="0"/></c:dLbls>"#;
    let plot = |extra: &str| {
        let xml = format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
            ser(0, "S", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], extra),
            cat_val_axes("")
        );
        svg(&parse(&xml, ""), 400.0, 300.0)
    };
    let out = plot(dlbls);
    // "5" is also a value axis label: the data label is the last one.
    let xs = text_attrs(&out, "5", "x");
    let still = plot(&dlbls.replace(r#"<c:x val="0.05"/>"#, r#"<c:x val="0"/>"#));
    assert_eq!(xs.len(), text_attrs(&still, "5", "x").len());
    assert!(
        (xs.last().unwrap() - text_attrs(&still, "5", "x").last().unwrap() - 20.0).abs() < 0.02
    );
    // No label for 4 (the axis runs 0 … 6 in ones and shows 4 once).
    assert_eq!(count(&out, ">4</text>"), count(&plot(""), ">4</text>"));
}

/// A point's label with its own text (`c:dLbl/c:tx/c:rich`) shows that text, its
/// fields filled with the point's data (`shapecrawler-025_chart`'s "[VALUE] млн."), in
/// the style of its runs (`shapecrawler-002_bar_chart`'s 8 pt "253,0" in place of the
/// value 253); the other points keep their automatic labels.
#[test]
fn point_labels_with_their_own_text_show_it_with_fields_filled() {
    let rich = |body: &str| {
        format!(
            r#"<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1200"/></a:pPr>{body}</a:p></c:rich></c:tx>"#
        )
    };
    let value_field = rich(
        r#"<a:fld id="{1}" type="VALUE"><a:rPr lang="en-US"/><a:t>[VALUE]</a:t></a:fld><a:r><a:rPr lang="ru-RU"/><a:t> млн.</a:t></a:r>"#,
    );
    let literal = rich(r#"<a:r><a:rPr lang="en-US" sz="800"/><a:t>253,0</a:t></a:r>"#);
    let fields = format!(
        "{}</a:p><a:p>{}",
        r#"<a:fld id="{2}" type="CATEGORYNAME"><a:t>[CATEGORY NAME]</a:t></a:fld>"#,
        r#"<a:fld id="{3}" type="SERIESNAME"><a:t>[SERIES NAME]</a:t></a:fld><a:fld id="{4}" type="CELLRANGE"><a:t>[CELLRANGE]</a:t></a:fld>"#
    );
    let dlbls = format!(
        r##"<c:dLbls><c:dLbl><c:idx val="0"/>{value_field}<c:numFmt formatCode="#,##0" sourceLinked="0"/><c:showVal val="1"/></c:dLbl><c:dLbl><c:idx val="1"/>{literal}<c:showVal val="1"/></c:dLbl><c:dLbl><c:idx val="2"/>{}<c:showVal val="1"/></c:dLbl><c:showVal val="1"/></c:dLbls>"##,
        rich(&fields)
    );
    let xml = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        ser(
            0,
            "Revenue",
            &CATS,
            &[Some(4370.0), Some(253.0), Some(10.5)],
            &dlbls
        ),
        cat_val_axes("")
    );
    let c = parse(&xml, "");
    let labels = &c.plots[0].series[0].point_labels;
    assert_eq!(
        labels[0].labels.as_ref().unwrap().custom,
        Some(vec![LabelPart::Value, LabelPart::Text(" млн.".into())])
    );
    let out = svg(&c, 400.0, 300.0);
    assert!(out.contains(">4,370 млн.</text>"), "{out}");
    // The literal text replaces the value, at its run's size.
    assert_eq!(text_attrs(&out, "253,0", "font-size"), [8.0]);
    assert!(!out.contains(">253</text>"));
    // Two paragraphs are two lines (the category, then the series' name); an unfilled
    // cell-range placeholder shows nothing.
    let east = text_attrs(&out, "East", "y");
    assert_eq!(east.len(), 2, "the axis label and the data label: {out}");
    let below = text_attrs(&out, "Revenue", "y")[0] - east[1];
    assert!((below - 14.4).abs() < 0.01, "{below}");
    assert!(!out.contains("CELLRANGE") && !out.contains("[SERIES"));
}

/// A line series with markers is keyed in the legend by a short line with its marker on
/// the middle, as Office draws it; without markers, the line alone.
#[test]
fn legend_keys_of_lines_with_markers_carry_the_marker() {
    let chart = |marker: &str| {
        let xml = format!(
            r#"<c:lineChart><c:grouping val="standard"/>{}<c:marker val="1"/>{AXES}</c:lineChart>{}"#,
            ser(0, "S", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], marker),
            cat_val_axes("")
        );
        svg(
            &parse(&xml, "<c:legend><c:legendPos val=\"r\"/></c:legend>"),
            400.0,
            300.0,
        )
    };
    let with = chart(r#"<c:marker><c:symbol val="square"/><c:size val="7"/></c:marker>"#);
    // Three on the points, one in the legend.
    assert_eq!(count(&with, "class=\"marker\""), 4, "{with}");
    let without = chart(r#"<c:marker><c:symbol val="none"/></c:marker>"#);
    assert_eq!(count(&without, "class=\"marker\""), 0, "{without}");
}

/// A label's `c:spPr` draws its box: a white fill behind each value of a stacked column
/// (`084_charts`, where dark text would sit on dark bars), wrapped around its text, and
/// kept by the points that do not set their own; a point whose `c:spPr` has no fill has
/// no box.
#[test]
fn labels_with_a_fill_are_drawn_on_their_box() {
    let dlbls = r#"<c:dLbls><c:dLbl><c:idx val="2"/><c:spPr><a:noFill/></c:spPr><c:showVal val="1"/></c:dLbl><c:spPr><a:solidFill><a:schemeClr val="bg1"/></a:solidFill><a:ln><a:noFill/></a:ln></c:spPr><c:txPr><a:bodyPr lIns="38100" tIns="19050"/><a:p><a:pPr><a:defRPr sz="1000"/></a:pPr></a:p></c:txPr><c:showVal val="1"/></c:dLbls>"#;
    let plot = |extra: &str| {
        let xml = format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/><c:overlap val="100"/>{}{AXES}</c:barChart>{}"#,
            ser(0, "S", &CATS, &[Some(30.0), Some(50.0), Some(40.0)], extra),
            cat_val_axes("")
        );
        svg(&parse(&xml, ""), 400.0, 300.0)
    };
    let out = plot(dlbls);
    let boxes = rects(&out, "#FFFFFF");
    assert_eq!(boxes.len(), 2, "{out}");
    for (value, b) in ["30", "50"].iter().zip(&boxes) {
        let x = *text_attrs(&out, value, "x").last().unwrap();
        let y = *text_attrs(&out, value, "y").last().unwrap();
        // Centred on the text, 3 pt wider than it each side, the baseline inside.
        assert!((b[0] + b[2] / 2.0 - x).abs() < 0.01, "{value}: {b:?} {x}");
        assert!(b[2] > 2.0 * 3.0 + 10.0 && b[2] < 2.0 * 3.0 + 14.0, "{b:?}");
        assert!(b[1] < y - 7.0 && b[1] + b[3] > y, "{value}: {b:?} {y}");
        // The box is drawn before (under) its text.
        let text_at = out.rfind(&format!(">{value}</text>")).unwrap();
        let box_at = out.find(&format!("x=\"{}\"", super::render::n(b[0])));
        assert!(box_at.is_some_and(|at| at < text_at), "{value}");
    }
    // The third point's own `c:spPr` says no fill; its label is still drawn.
    assert!(out.contains(">40</text>"), "{out}");
    // Without `c:spPr` no box at all.
    let plain = plot(&dlbls.replace(
        r#"<c:spPr><a:solidFill><a:schemeClr val="bg1"/></a:solidFill><a:ln><a:noFill/></a:ln></c:spPr>"#,
        "",
    ));
    assert!(rects(&plain, "#FFFFFF").is_empty(), "{plain}");
}

/// A pie's boxed labels are boxed too, and their box counts when labels are placed.
#[test]
fn pie_labels_with_a_fill_are_drawn_on_their_box() {
    let labels = r#"<c:dLbls><c:spPr><a:solidFill><a:srgbClr val="FFFF00"/></a:solidFill><a:ln><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:ln></c:spPr><c:showVal val="1"/><c:showCatName val="1"/><c:separator>
</c:separator></c:dLbls>"#;
    let out = svg(
        &labelled_pie("pie", &[Some(3.0), Some(1.0)], labels),
        400.0,
        300.0,
    );
    let boxes = rects(&out, "#FFFF00");
    assert_eq!(boxes.len(), 2, "{out}");
    assert_eq!(count(&out, "stroke=\"#FF0000\""), 2, "{out}");
    // Each box holds its two lines.
    for (cat, b) in ["A", "B"].iter().zip(&boxes) {
        let y = text_attrs(&out, cat, "y")[0];
        assert!(y > b[1] && y < b[1] + b[3], "{cat} {b:?} {y}");
    }
}

/// A bar's label whose separator breaks the line is drawn on two lines.
#[test]
fn bar_labels_break_at_a_line_break_separator() {
    let dlbls = "<c:dLbls><c:showVal val=\"1\"/><c:showCatName val=\"1\"/><c:separator>\n</c:separator></c:dLbls>";
    let xml = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], dlbls),
        cat_val_axes("")
    );
    let out = svg(&parse(&xml, ""), 400.0, 300.0);
    // "North" is also a category tick label: the data label's line is the second.
    let north = text_attrs(&out, "North", "y");
    let three = text_attrs(&out, "3", "y");
    assert_eq!(north.len(), 2, "{out}");
    assert!(
        three
            .iter()
            .any(|y| (y - north[1] - 12.0).abs() < 0.5 || (north[1] - y - 12.0).abs() < 0.5),
        "{north:?} {three:?}"
    );
}

/// A column series on a date axis: its numeric categories are serial dates.
fn dated_ser(dates: &[f64], vals: &[f64], format: &str) -> String {
    let pts = |xs: &[f64]| -> String {
        xs.iter()
            .enumerate()
            .map(|(i, v)| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#))
            .collect()
    };
    format!(
        r#"<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:numRef><c:numCache><c:formatCode>{format}</c:formatCode><c:ptCount val="{n}"/>{}</c:numCache></c:numRef></c:cat><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="{n}"/>{}</c:numCache></c:numRef></c:val></c:ser>"#,
        pts(dates),
        pts(vals),
        n = dates.len()
    )
}

fn date_axes(date_extra: &str) -> String {
    format!(
        r#"<c:dateAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/>{date_extra}</c:dateAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>"#
    )
}

/// A date axis places columns by their dates: a table sorted newest first still reads
/// left to right in time, and a gap in the dates is a gap on the axis.
#[test]
fn a_date_axis_places_points_by_their_dates() {
    // 1, 2 and 6 March 2023, newest first, each value its day of the month.
    let (d1, d2, d6) = (44986.0, 44987.0, 44991.0);
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        dated_ser(&[d6, d2, d1], &[6.0, 2.0, 1.0], "d-mmm"),
        date_axes(r#"<c:baseTimeUnit val="days"/>"#)
    );
    let c = parse(&plot, "");
    assert_eq!(
        c.plots[0].series[0].category_numbers,
        [Some(d6), Some(d2), Some(d1)]
    );
    let out = svg(&c, 400.0, 300.0);
    let mut bars = rects(&out, "#4472C4");
    assert_eq!(bars.len(), 3, "{out}");
    bars.sort_by(|a, b| a[0].total_cmp(&b[0]));
    // Left to right: the 1st (shortest), the 2nd, the 6th (tallest).
    assert!(
        bars[0][3] < bars[1][3] && bars[1][3] < bars[2][3],
        "{bars:?}"
    );
    // Six day slots: the 1st and 2nd one slot apart, the 2nd and 6th four.
    let step = bars[1][0] - bars[0][0];
    assert!(
        (bars[2][0] - bars[1][0] - 4.0 * step).abs() < 0.05,
        "{bars:?}"
    );
    // Labels fall on the major ticks, in the categories' format, not under every slot.
    assert!(out.contains(">1-Mar</text>"), "{out}");
    assert!(!out.contains("\"></text>"), "no empty labels: {out}");
}

/// A fixed major unit in months labels the first of every third month from the axis's
/// start, however many day slots lie between.
#[test]
fn a_date_axis_labels_its_major_unit() {
    // Daily points from 1 Jan 2023 (44927) to 30 Jun 2023 (45107).
    let dates: Vec<f64> = (0..=180).map(|d| 44927.0 + f64::from(d)).collect();
    let vals: Vec<f64> = dates.iter().map(|_| 1.0).collect();
    let plot = format!(
        r#"<c:lineChart><c:grouping val="standard"/>{}{AXES}</c:lineChart>{}"#,
        dated_ser(&dates, &vals, "mmm yyyy"),
        date_axes(
            r#"<c:baseTimeUnit val="days"/><c:majorUnit val="3"/><c:majorTimeUnit val="months"/>"#
        )
    );
    let out = svg(&parse(&plot, ""), 600.0, 300.0);
    for l in ["Jan 2023", "Apr 2023"] {
        assert_eq!(count(&out, &format!(">{l}</text>")), 1, "{l}: {out}");
    }
    for l in ["Feb 2023", "Mar 2023", "Jul 2023"] {
        assert!(!out.contains(&format!(">{l}</text>")), "{l}");
    }
}

/// Gridlines whose line is `a:noFill` are not drawn; the plot area's own fill and
/// outline (`c:plotArea/c:spPr`) are.
#[test]
fn plot_area_fill_and_unfilled_gridlines() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart><c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:majorGridlines><c:spPr><a:ln><a:noFill/></a:ln></c:spPr></c:majorGridlines><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines><c:spPr><a:ln><a:solidFill><a:srgbClr val="003864"/></a:solidFill></a:ln></c:spPr></c:majorGridlines><c:crossAx val="1"/></c:valAx><c:spPr><a:solidFill><a:srgbClr val="C0C0C0"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="800000"/></a:solidFill></a:ln></c:spPr>"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], "")
    );
    let c = parse(&plot, "");
    assert_eq!(c.axes[0].gridlines, None);
    assert_eq!(c.axes[1].gridlines, Some(Color::rgb(0x003864)));
    assert_eq!(c.plot_fill, Some(Color::rgb(0xC0C0C0)));
    assert_eq!(c.plot_border, Some((Color::rgb(0x800000), 1.0)));
    let out = svg(&c, 400.0, 300.0);
    let back = rects(&out, "#C0C0C0");
    assert_eq!(back.len(), 1, "{out}");
    assert!(
        out.contains(r##"stroke="#800000" stroke-width="1""##),
        "{out}"
    );
    // The plot's fill lies under the bars.
    let fill_at = out.find("fill=\"#C0C0C0\"").unwrap();
    assert!(out.find("fill=\"#4472C4\"").unwrap() > fill_at);
    // Only the value axis's gridlines: no vertical line in the grey of the default ones.
    assert!(!out.contains("#D9D9D9"), "{out}");
}

/// An inner plot layout too close to the chart's edge for its value labels: the plot is
/// narrowed so that they fit inside the chart instead of being cut off.
#[test]
fn an_inner_layout_makes_room_for_its_value_labels() {
    let plot = format!(
        r#"<c:layout><c:manualLayout><c:layoutTarget val="inner"/><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="0.02"/><c:y val="0.05"/><c:w val="0.9"/><c:h val="0.8"/></c:manualLayout></c:layout><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "A", &CATS, &[Some(3e7), Some(5e7), Some(4e7)], ""),
        cat_val_axes("")
    );
    let out = svg(&parse(&plot, ""), 400.0, 300.0);
    // The widest label, 60000000, ends at the plot's left edge less the gap; it starts
    // inside the chart.
    let bars = rects(&out, "#4472C4");
    let left = bars.iter().map(|b| b[0]).fold(f64::MAX, f64::min);
    let label_w = super::render::text_width("60000000", 10.0);
    assert!(
        left - label_w > 0.0,
        "plot at {left}, label {label_w} wide: {out}"
    );
}

/// Dates too far apart for one slot per day (or not dates at all: negative, huge) keep
/// their order, one slot each, instead of a drawing of millions of slots.
#[test]
fn a_date_axis_over_too_long_a_span_keeps_the_categories_order() {
    for dates in [[1.0, 2_000_000.0], [-5.0, 1e300]] {
        let plot = format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
            dated_ser(&dates, &[1.0, 2.0], "General"),
            date_axes(r#"<c:baseTimeUnit val="days"/>"#)
        );
        let out = svg(&parse(&plot, ""), 400.0, 300.0);
        let bars = rects(&out, "#4472C4");
        assert_eq!(bars.len(), 2, "{out}");
        assert!(out.len() < 20_000, "{}", out.len());
    }
    // One real date: the point whose category is no date is left off the axis.
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        dated_ser(&[-1e300, 45000.0], &[1.0, 2.0], "General"),
        date_axes(r#"<c:baseTimeUnit val="days"/>"#)
    );
    assert_eq!(
        rects(&svg(&parse(&plot, ""), 400.0, 300.0), "#4472C4").len(),
        1
    );
}

/// Deleting an axis in Office removes its line and labels but keeps its gridlines
/// (`shapecrawler-003_chart`: a deleted value axis over faint gridlines).
#[test]
fn a_deleted_axis_keeps_its_gridlines() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart><c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="1"/><c:axPos val="l"/><c:majorGridlines><c:spPr><a:ln><a:solidFill><a:srgbClr val="E6E6E6"/></a:solidFill></a:ln></c:spPr></c:majorGridlines><c:crossAx val="1"/></c:valAx>"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], "")
    );
    let out = svg(&parse(&plot, ""), 400.0, 300.0);
    // 0 to 6 in ones: seven gridlines, and no value labels.
    assert_eq!(count(&out, "stroke=\"#E6E6E6\""), 7, "{out}");
    assert!(!out.contains(">6</text>"), "{out}");
}

/// Text is measured in the drawing face when the caller can (the document's font plan):
/// legend entries are as far apart as the measured labels are wide.
#[test]
fn a_measured_face_sets_the_legend_spacing() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{}{AXES}</c:barChart>{}"#,
        ser(0, "2024", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        ser(1, "2025", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, r#"<c:legend><c:legendPos val="b"/></c:legend>"#);
    let pitch = |out: &str| text_attrs(out, "2025", "x")[0] - text_attrs(out, "2024", "x")[0];
    let estimated = svg(&c, 400.0, 300.0);
    let wide = |_: &str| Some(2.0);
    let opts = SvgOptions {
        measure: Some(super::Measure(&wide)),
        ..SvgOptions::default()
    };
    let measured = render_svg(&c, 400.0, 300.0, &opts).unwrap();
    let size = c.legend.as_ref().unwrap().text.size;
    let expected = size * 2.0 - super::render::text_width("2024", size);
    let got = pitch(&measured) - pitch(&estimated);
    assert!((got - expected).abs() < 0.05, "{got} vs {expected}");
    // A face that cannot measure a text falls back to the estimate.
    let none = |_: &str| None;
    let opts = SvgOptions {
        measure: Some(super::Measure(&none)),
        ..SvgOptions::default()
    };
    assert_eq!(render_svg(&c, 400.0, 300.0, &opts).unwrap(), estimated);
}

/// An XY series drawn with columns (`shapecrawler-021`: dots marking a share on each
/// column, on their own 0–100 axis): its text X values number the points, and point n
/// sits on the centre of category n, with its label; it was left out before.
#[test]
fn xy_points_among_columns_sit_on_their_categories() {
    let pts = |vals: &[f64]| -> String {
        vals.iter()
            .enumerate()
            .map(|(i, v)| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#))
            .collect()
    };
    let cat_pts: String = CATS
        .iter()
        .enumerate()
        .map(|(i, c)| format!(r#"<c:pt idx="{i}"><c:v>{c}</c:v></c:pt>"#))
        .collect();
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart><c:scatterChart><c:scatterStyle val="lineMarker"/><c:ser><c:idx val="1"/><c:order val="1"/><c:spPr><a:ln><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="8"/></c:marker><c:dLbls><c:numFmt formatCode="0&quot;%&quot;" sourceLinked="0"/><c:dLblPos val="ctr"/><c:showVal val="1"/></c:dLbls><c:xVal><c:strRef><c:strCache><c:ptCount val="3"/>{cat_pts}</c:strCache></c:strRef></c:xVal><c:yVal><c:numRef><c:numCache><c:ptCount val="3"/>{}</c:numCache></c:numRef></c:yVal></c:ser><c:axId val="3"/><c:axId val="4"/></c:scatterChart>{}<c:valAx><c:axId val="4"/><c:scaling><c:max val="100"/></c:scaling><c:delete val="0"/><c:axPos val="r"/><c:tickLblPos val="none"/><c:crossAx val="3"/><c:crosses val="max"/></c:valAx><c:valAx><c:axId val="3"/><c:delete val="0"/><c:axPos val="t"/><c:crossAx val="4"/></c:valAx>"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        pts(&[44.0, 77.0, 20.0]),
        cat_val_axes("")
    );
    let out = svg(&parse(&plot, ""), 400.0, 300.0);
    let bars = rects(&out, "#4472C4");
    assert_eq!(bars.len(), 3, "{out}");
    let circles: Vec<(f64, f64)> = out
        .split("<circle class=\"marker\" ")
        .skip(1)
        .map(|c| {
            let get = |k: &str| -> f64 {
                let key = format!("{k}=\"");
                let at = c.find(&key).unwrap() + key.len();
                c[at..at + c[at..].find('"').unwrap()].parse().unwrap()
            };
            (get("cx"), get("cy"))
        })
        .collect();
    assert_eq!(circles.len(), 3, "{out}");
    for (bar, (cx, _)) in bars.iter().zip(&circles) {
        assert!((bar[0] + bar[2] / 2.0 - cx).abs() < 0.02, "{bar:?} {cx}");
    }
    // On the secondary 0–100 axis: 77 is higher up than 44, 20 lowest; the plot's
    // bottom is the bars' base.
    let base = bars[0][1] + bars[0][3];
    let top_of = |v: f64| base - (base - circles[1].1) * v / 77.0;
    assert!((top_of(44.0) - circles[0].1).abs() < 0.05, "{circles:?}");
    assert!((top_of(20.0) - circles[2].1).abs() < 0.05, "{circles:?}");
    for l in ["44%", "77%", "20%"] {
        assert_eq!(text_attrs(&out, l, "x").len(), 1, "{l}: {out}");
    }
}

/// Minor gridlines (`c:minorGridlines`) fall every fifth of the major unit, or every
/// `c:minorUnit`, under the major ones and not on them.
#[test]
fn minor_gridlines_divide_the_major_unit() {
    let grid = r#"<c:minorGridlines><c:spPr><a:ln><a:solidFill><a:srgbClr val="F0F0F0"/></a:solidFill></a:ln></c:spPr></c:minorGridlines><c:scaling><c:max val="6"/></c:scaling>"#;
    let plot = |extra: &str| {
        format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
            ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
            cat_val_axes(&format!("{grid}{extra}"))
        )
    };
    let c = parse(&plot(r#"<c:majorUnit val="2"/>"#), "");
    assert_eq!(c.axes[1].minor_gridlines, Some(Color::rgb(0xF0F0F0)));
    let out = svg(&c, 400.0, 300.0);
    // 0 to 6 by 2: four major lines; fifths of 2 (0.4) give 16 values less the 4 major.
    // Four major gridlines and the two axis lines, in the style's grey.
    assert_eq!(count(&out, "stroke=\"#898989\""), 6, "{out}");
    assert_eq!(count(&out, "stroke=\"#F0F0F0\""), 12, "{out}");
    assert!(out.find("#F0F0F0").unwrap() < out.find("#898989").unwrap());
    let fixed = svg(
        &parse(&plot(r#"<c:majorUnit val="2"/><c:minorUnit val="1"/>"#), ""),
        400.0,
        300.0,
    );
    assert_eq!(count(&fixed, "stroke=\"#F0F0F0\""), 3, "{fixed}");
}

/// Without their own line, minor gridlines are faint against the chart's background:
/// light grey on white, dark grey on the black of the dark styles (41–48).
#[test]
fn default_minor_gridlines_are_faint_on_light_and_dark_styles() {
    let part = |style: &str| {
        format!(
            r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">{style}<c:chart><c:plotArea><c:barChart><c:barDir val="col"/>{}{AXES}</c:barChart><c:catAx><c:axId val="1"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:axPos val="l"/><c:majorGridlines/><c:minorGridlines/><c:crossAx val="1"/></c:valAx></c:plotArea></c:chart></c:chartSpace>"#,
            ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], "")
        )
    };
    let light = parse_str(&part(""));
    assert_eq!(light.axes[1].minor_gridlines, Some(Color::rgb(0xF2F2F2)));
    let dark = parse_str(&part(r#"<c:style val="47"/>"#));
    assert_eq!(dark.axes[1].minor_gridlines, Some(Color::rgb(0x404040)));
    // The major ones: the style's 75 % tint of the text colour, light grey on dark.
    assert_eq!(light.axes[1].gridlines, Some(Color::rgb(0x898989)));
    assert_eq!(dark.axes[1].gridlines, Some(Color::rgb(0xD9D9D9)));
}

/// An inner manual layout is the plot rectangle, so its value axis gets the intervals
/// that rectangle's height has room for (`shapecrawler-009_table`'s Sales5: 86 pt tall,
/// data to 5, steps of 1 as LibreOffice draws; it was scaled for 80 % of that, in 2s).
#[test]
fn an_inner_layout_sets_the_value_axis_length() {
    let layout = r#"<c:layout><c:manualLayout><c:layoutTarget val="inner"/><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="0.11"/><c:y val="0.33"/><c:w val="0.88"/><c:h val="0.507"/></c:manualLayout></c:layout>"#;
    let plot = format!(
        r#"{layout}<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart><c:catAx><c:axId val="1"/><c:delete val="1"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="1"/><c:axPos val="l"/><c:majorGridlines><c:spPr><a:ln><a:solidFill><a:srgbClr val="E6E6E6"/></a:solidFill></a:ln></c:spPr></c:majorGridlines><c:crossAx val="1"/></c:valAx>"#,
        ser(0, "A", &CATS, &[Some(4.3), Some(2.5), Some(5.0)], "")
    );
    let out = svg(&parse(&plot, ""), 384.5, 169.2);
    // 0.507 × 169.2 = 85.8 pt: seven intervals of 10 pt text fit, so 0 to 6 in ones.
    assert_eq!(count(&out, "stroke=\"#E6E6E6\""), 7, "{out}");
}

/// A bottom legend too wide for one row is a grid of aligned columns with the rows
/// filled evenly: four entries of which three fit a row are two rows of two
/// (`shapecrawler-009_table`'s Sales3, as LibreOffice draws it), not three and one.
#[test]
fn a_wrapped_legend_fills_its_rows_evenly_in_columns() {
    let sers: String = (0..4)
        .map(|i| {
            let v = Some(i as f64 + 1.0);
            ser(i, &format!("Series {}", i + 1), &CATS, &[v, v, v], "")
        })
        .collect();
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{sers}{AXES}</c:barChart>{}"#,
        cat_val_axes("")
    );
    let c = parse(&plot, r#"<c:legend><c:legendPos val="b"/></c:legend>"#);
    // 200 pt wide: three entries of about 54 pt fit a row, four do not.
    let out = svg(&c, 200.0, 300.0);
    let at = |k: usize, attr: &str| text_attrs(&out, &format!("Series {k}"), attr)[0];
    assert_eq!(at(1, "y"), at(2, "y"), "{out}");
    assert_eq!(at(3, "y"), at(4, "y"), "{out}");
    assert!(at(3, "y") > at(1, "y"), "{out}");
    assert_eq!(at(1, "x"), at(3, "x"), "{out}");
    assert_eq!(at(2, "x"), at(4, "x"), "{out}");
    // Wide enough for all four: one row.
    let wide = svg(&c, 400.0, 300.0);
    let y: Vec<f64> = (1..=4)
        .map(|k| text_attrs(&wide, &format!("Series {k}"), "y")[0])
        .collect();
    assert!(y.iter().all(|v| *v == y[0]), "{wide}");
}

/// An automatic pie without outside labels fills the plot area's smaller side: here the
/// chart's height less Office's top and bottom margins (2 % and 0.3 %).
#[test]
fn a_pie_fills_the_smaller_side_of_its_plot_area() {
    let plot = format!(
        r#"<c:pieChart><c:varyColors val="1"/>{}<c:firstSliceAng val="0"/></c:pieChart>"#,
        ser(0, "A", &CATS, &[Some(1.0), Some(2.0), Some(3.0)], "")
    );
    let out = svg(
        &parse(&plot, r#"<c:autoTitleDeleted val="1"/>"#),
        300.0,
        200.0,
    );
    let slice = out.split("class=\"slice\" d=\"").nth(1).expect("a slice");
    let r: f64 = slice
        .split('A')
        .nth(1)
        .and_then(|a| a.split(' ').next())
        .and_then(|v| v.parse().ok())
        .expect("an arc");
    let expected = 200.0 * (1.0 - 0.02 - 0.003) / 2.0;
    assert!((r - expected).abs() < 0.02, "{r} vs {expected}: {out}");
}

/// The sides of an automatic layout as LibreOffice draws PowerPoint's charts (measured
/// on nine chart slides): 2 % of the chart's width at each side, the value labels
/// starting there and the plot one label gap after the widest of them. The plot ended
/// 2 % of the width earlier and began half a label size later before: gridlines 5 to
/// 12 px short at the right on every such slide.
#[test]
fn an_automatic_plot_reaches_two_percent_of_the_width_from_each_side() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        cat_val_axes("")
    );
    let c = parse(&plot, r#"<c:autoTitleDeleted val="1"/>"#);
    // Every text one em wide, so the widest value label is one label size.
    let opts = one_em_options();
    let out = render_svg(&c, 500.0, 300.0, &opts).unwrap();
    let size = c
        .axes
        .iter()
        .find(|a| a.id == 2)
        .expect("the value axis")
        .text
        .size;
    // Gridlines in the default gridline grey (the style's, the part has no line of its
    // own).
    let lines = horizontal_paths(&out, "#898989");
    assert!(!lines.is_empty(), "no gridlines: {out}");
    let left = 500.0 * 0.02 + size + super::render::LABEL_GAP;
    for (x1, x2) in lines {
        assert!((x1 - left).abs() < 0.02, "{x1} vs {left}: {out}");
        assert!((x2 - 490.0).abs() < 0.02, "{x2}: {out}");
    }
}

/// Legend keys as LibreOffice draws PowerPoint's legends: square keys 0.6 of the text
/// size with the text 0.2 size after them, entries two thirds of a size apart; with a
/// line among the entries every key is 8 mm wide, the bars' keys too
/// (`shapecrawler-018`: a line over columns).
#[test]
fn legend_keys_are_square_or_eight_millimetres_wide_beside_a_line() {
    let bars = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{}{AXES}</c:barChart>{}"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        ser(1, "B", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let legend = r#"<c:legend><c:legendPos val="b"/></c:legend>"#;
    let c = parse(&bars, legend);
    let size = c.legend.as_ref().unwrap().text.size;
    // Every text one em wide: entry n's key starts (0.6 + 0.2 + 1 + 0.67) sizes after
    // entry n - 1's.
    let opts = one_em_options();
    let out = render_svg(&c, 400.0, 300.0, &opts).unwrap();
    let keys: Vec<[f64; 4]> = ["#4472C4", "#ED7D31"]
        .iter()
        .map(|fill| {
            *rects(&out, fill)
                .iter()
                .find(|r| (r[3] - size * 0.6).abs() < 0.01)
                .expect("a legend key")
        })
        .collect();
    for k in &keys {
        assert!((k[2] - size * 0.6).abs() < 0.01, "square key: {k:?}");
    }
    let pitch = keys[1][0] - keys[0][0];
    assert!((pitch - size * 2.47).abs() < 0.01, "{pitch}: {out}");
    let text_x = text_attrs(&out, "A", "x")[0];
    assert!((text_x - keys[0][0] - size * 0.8).abs() < 0.01, "{text_x}");

    // The second series drawn as a line: both keys 8 mm (22.68 pt) wide.
    let combo = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart><c:lineChart><c:grouping val="standard"/>{}<c:marker val="0"/>{AXES}</c:lineChart>{}"#,
        ser(0, "A", &CATS, &[Some(3.0), Some(5.0), Some(4.0)], ""),
        ser(1, "B", &CATS, &[Some(2.0), Some(6.0), Some(1.0)], ""),
        cat_val_axes("")
    );
    let out = render_svg(&parse(&combo, legend), 400.0, 300.0, &opts).unwrap();
    let key = *rects(&out, "#4472C4")
        .iter()
        .find(|r| (r[3] - size * 0.6).abs() < 0.01)
        .expect("the bars' key");
    assert!((key[2] - 22.68).abs() < 0.01, "{key:?}");
    let line_key = horizontal_paths(&out, "#ED7D31")
        .first()
        .map(|(x1, x2)| x2 - x1)
        .expect("the line's key");
    assert!((line_key - 22.68).abs() < 0.01, "{line_key}: {out}");
}

#[test]
fn an_axis_title_is_bold_unless_its_text_says_otherwise_and_never_empty() {
    let plot = |title_props: &str| {
        let title = format!(
            r#"<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr{title_props}/></a:pPr><a:r><a:t>Units</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>"#
        );
        format!(
            r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
            ser(0, "S", &["a", "b"], &[Some(1.0), Some(2.0)], ""),
            cat_val_axes(&title)
        )
    };
    // Office 2007's files leave the weight to Office's default, which is bold.
    let old = parse(&plot(""), "");
    assert!(old.axes[1].title_style.bold, "{:?}", old.axes[1]);
    let drawn = svg(&old, 400.0, 300.0);
    let at = drawn.find(">Units<").expect("the axis title drawn");
    let tag = &drawn[drawn[..at].rfind('<').unwrap()..at];
    assert!(tag.contains("font-weight=\"bold\""), "{tag}");
    // Later ones say `b="0"`.
    let new = parse(&plot(r#" b="0""#), "");
    assert!(!new.axes[1].title_style.bold, "{:?}", new.axes[1]);
    // A title element without text is Office's placeholder, also beside a deleted axis,
    // which takes its labels away but not its title (`powertools-CU013`).
    let empty = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{AXES}</c:barChart>{}"#,
        ser(0, "S", &["a", "b"], &[Some(1.0), Some(2.0)], ""),
        cat_val_axes(r#"<c:title><c:overlay val="0"/></c:title>"#).replace(
            r#"<c:axId val="2"/><c:delete val="0"/>"#,
            r#"<c:axId val="2"/><c:delete val="1"/>"#
        )
    );
    let c = parse(&empty, "");
    assert!(c.axes[1].deleted);
    assert_eq!(c.axes[1].title.as_deref(), Some("Axis Title"));
    let drawn = svg(&c, 400.0, 300.0);
    assert!(drawn.contains(">Axis Title<"), "{drawn}");
    // No value labels: the axis is deleted.
    assert!(!drawn.contains(">2<"), "{drawn}");
    assert_eq!(c.axes[0].title, None);
}
