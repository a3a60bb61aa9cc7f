//! Tests of the geometry engine: every operator, arcs, text rectangles, every preset of
//! the standard at several sizes and adjust values, and hostile input.

use super::eval::{Values, BUILTINS};
use super::model::{Formula, Op, Operand};
use super::parse::{self, DOCUMENT_LIMITS};
use super::*;
use crate::office::xml::{parse_xml, XmlOptions};

const OPTS: XmlOptions<'static> = XmlOptions {
    max_depth: 32,
    max_nodes: 1_000_000,
    understood: &[],
};

/// A custom geometry parsed from markup (no namespace needed: names are local).
fn custom(xml: &str) -> GeometryDef {
    let doc = parse_xml("test.xml", xml.as_bytes(), &OPTS).expect("test XML parses");
    parse::geometry(doc.root(), DOCUMENT_LIMITS)
}

/// Every number in SVG path data.
fn numbers(d: &str) -> Vec<f64> {
    d.split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<f64>().expect("path data holds numbers"))
        .collect()
}

fn formula(op: Op, x: f64, y: f64, z: f64) -> f64 {
    let v = Values::new(1000.0, 500.0, BUILTINS.len());
    v.eval(&Formula {
        op,
        args: [Operand::Num(x), Operand::Num(y), Operand::Num(z)],
    })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn every_operator() {
    assert_eq!(formula(Op::Val, 7.0, 0.0, 0.0), 7.0);
    assert_eq!(formula(Op::MulDiv, 10.0, 3.0, 4.0), 7.5);
    assert_eq!(formula(Op::AddSub, 10.0, 3.0, 4.0), 9.0);
    assert_eq!(formula(Op::AddDiv, 10.0, 2.0, 4.0), 3.0);
    assert_eq!(formula(Op::IfElse, 1.0, 2.0, 3.0), 2.0);
    assert_eq!(formula(Op::IfElse, 0.0, 2.0, 3.0), 3.0);
    assert_eq!(formula(Op::Abs, -4.0, 0.0, 0.0), 4.0);
    assert!(close(formula(Op::At2, 0.0, 5.0, 0.0), 5_400_000.0));
    assert!(close(formula(Op::At2, -1.0, 0.0, 0.0), 10_800_000.0));
    assert!(close(formula(Op::Cat2, 10.0, 3.0, 4.0), 6.0));
    assert!(close(formula(Op::Sat2, 10.0, 3.0, 4.0), 8.0));
    assert!(close(formula(Op::Cos, 10.0, 3_600_000.0, 0.0), 5.0));
    assert!(close(formula(Op::Sin, 10.0, 1_800_000.0, 0.0), 5.0));
    assert!(close(formula(Op::Tan, 10.0, 2_700_000.0, 0.0), 10.0));
    assert_eq!(formula(Op::Max, 3.0, 9.0, 0.0), 9.0);
    assert_eq!(formula(Op::Min, 3.0, 9.0, 0.0), 3.0);
    assert!(close(formula(Op::Mod, 2.0, 3.0, 6.0), 7.0));
    assert_eq!(formula(Op::Pin, 0.0, 900.0, 500.0), 500.0);
    assert_eq!(formula(Op::Pin, 0.0, -5.0, 500.0), 0.0);
    assert_eq!(formula(Op::Pin, 0.0, 50.0, 500.0), 50.0);
    assert_eq!(formula(Op::Sqrt, 49.0, 0.0, 0.0), 7.0);
}

#[test]
fn degenerate_arithmetic_reads_finite() {
    assert_eq!(formula(Op::MulDiv, 1.0, 2.0, 0.0), 0.0);
    assert_eq!(formula(Op::AddDiv, 1.0, 2.0, 0.0), 0.0);
    assert_eq!(formula(Op::Sqrt, -4.0, 0.0, 0.0), 0.0);
    // tan(90°) is huge, not infinite; the result is held within the limit.
    assert!(formula(Op::Tan, 1e12, 5_400_000.0, 0.0).abs() <= eval::LIMIT);
    assert_eq!(formula(Op::MulDiv, 1e300, 1e300, 1.0), eval::LIMIT);
}

#[test]
fn guides_read_builtins_and_earlier_guides() {
    let def = custom(
        r#"<custGeom><avLst><gd name="adj" fmla="val 25000"/></avLst><gdLst>
        <gd name="a" fmla="*/ w adj 100000"/><gd name="b" fmla="+- a hd2 0"/>
        <gd name="c" fmla="val later"/><gd name="later" fmla="val 5"/>
        <gd name="d" fmla="frob 1 2 3"/></gdLst>
        <pathLst><path><moveTo><pt x="a" y="b"/></moveTo><lnTo><pt x="c" y="d"/></lnTo>
        <lnTo><pt x="later" y="ssd2"/></lnTo></path></pathLst></custGeom>"#,
    );
    let o = evaluate(&def, 200.0, 100.0, &[]);
    assert_eq!(
        o.paths[0].commands,
        vec![
            Command::MoveTo(50.0, 100.0),
            // A guide read before it is defined reads 0, as does an unknown operator.
            Command::LineTo(0.0, 0.0),
            Command::LineTo(5.0, 50.0),
        ]
    );
    // The document's adjust value replaces the default.
    let o = evaluate(&def, 200.0, 100.0, &[("adj".to_owned(), 50_000.0)]);
    assert_eq!(o.paths[0].commands[0], Command::MoveTo(100.0, 150.0));
}

#[test]
fn arcs_follow_drawingml_angles() {
    // From the top of a circle of radius 10 centred on (10, 10), a quarter turn clockwise
    // ends at its right.
    let def = custom(
        r#"<custGeom><pathLst><path><moveTo><pt x="10" y="0"/></moveTo>
        <arcTo wR="10" hR="10" stAng="16200000" swAng="5400000"/></path></pathLst></custGeom>"#,
    );
    let p = svg_paths(&evaluate(&def, 20.0, 20.0, &[]).paths, 20.0, 20.0);
    let n = numbers(&p[0].d);
    assert_eq!(p[0].d.matches('C').count(), 1);
    assert!(
        close(n[n.len() - 2], 20.0) && close(n[n.len() - 1], 10.0),
        "{}",
        p[0].d
    );
    // On an ellipse the angle is the visual one: 45° on a 20 × 10 ellipse from its right
    // lands where the ray at 45° meets it, not at the parameter 45°.
    let def = custom(
        r#"<custGeom><pathLst><path><moveTo><pt x="20" y="5"/></moveTo>
        <arcTo wR="10" hR="5" stAng="0" swAng="2700000"/></path></pathLst></custGeom>"#,
    );
    let p = svg_paths(&evaluate(&def, 20.0, 10.0, &[]).paths, 20.0, 10.0);
    let n = numbers(&p[0].d);
    let (x, y) = (n[n.len() - 2] - 10.0, n[n.len() - 1] - 5.0);
    assert!((x - y).abs() < 0.02, "end ({x}, {y}) is on the 45° ray");
    // A full turn is four quarter curves; the open arc knows its ends for arrow heads.
    let ellipse = svg_paths(
        &preset_outline("ellipse", 20.0, 10.0, &[]).paths,
        20.0,
        10.0,
    );
    assert_eq!(ellipse[0].d.matches('C').count(), 4);
    assert!(ellipse[0].d.starts_with("M0 5C"), "{}", ellipse[0].d);
    let arc = svg_paths(
        &preset_outline("arc", 100.0, 100.0, &[]).paths,
        100.0,
        100.0,
    );
    let open = arc
        .iter()
        .find(|p| !p.fill)
        .expect("arc has a stroked, unfilled path");
    assert!(open.start.is_some() && open.end.is_some());
}

#[test]
fn paths_scale_from_their_own_space() {
    // flowChartPunchedCard draws in a 5 × 5 path space.
    let o = preset_outline("flowChartPunchedCard", 100.0, 50.0, &[]);
    assert_eq!((o.paths[0].width, o.paths[0].height), (5.0, 5.0));
    let d = &svg_paths(&o.paths, 100.0, 50.0)[0].d;
    assert_eq!(d, "M0 10L20 0L100 0L100 50L0 50Z");
}

#[test]
fn text_rectangles() {
    let [l, t, r, b] = preset_outline("ellipse", 100.0, 100.0, &[]).text_rect;
    assert!(
        close(l, 50.0 - 50.0 * 0.5f64.sqrt()) && close(t, l),
        "{l} {t}"
    );
    assert!(close(r, 100.0 - l) && close(b, r));
    assert_eq!(
        preset_outline("rect", 30.0, 20.0, &[]).text_rect,
        [0.0, 0.0, 30.0, 20.0]
    );
    // A right arrow's text sits in its shaft.
    let [_, t, _, b] = preset_outline("rightArrow", 100.0, 50.0, &[]).text_rect;
    assert_eq!((t, b), (12.5, 37.5));
}

#[test]
fn fill_modes_are_read() {
    let can = preset_outline("can", 50.0, 100.0, &[]);
    let modes: Vec<FillMode> = can.paths.iter().map(|p| p.fill).collect();
    assert!(modes.contains(&FillMode::Lighten), "{modes:?}");
    assert!(modes.contains(&FillMode::None));
    let fold = preset_outline("foldedCorner", 50.0, 50.0, &[]);
    assert!(fold.paths.iter().any(|p| p.fill == FillMode::DarkenLess));
    assert_eq!(FillMode::Darken.overlay(), Some(("#000", 0.4)));
    assert_eq!(FillMode::Norm.overlay(), None);
}

#[test]
fn all_187_presets_evaluate_to_finite_non_empty_paths() {
    let names: Vec<&str> = preset_names().collect();
    assert_eq!(names.len(), 187, "the standard defines 187 presets");
    let sizes = [
        (100.0, 50.0),
        (50.0, 100.0),
        (1.0, 1.0),
        (300.0, 0.0),
        (1e6, 3.0),
    ];
    let values = [
        0.0,
        50_000.0,
        100_000.0,
        -200_000.0,
        1e300,
        f64::NAN,
        21_600_000.0,
    ];
    for name in names {
        let def = preset(name).expect("listed presets exist");
        assert!(!def.paths.is_empty(), "{name} has paths");
        let adj_names: Vec<String> = def.adjust.iter().map(|g| g.name.to_string()).collect();
        let mut cases: Vec<Vec<(String, f64)>> = vec![Vec::new()];
        for v in values {
            cases.push(adj_names.iter().map(|n| (n.clone(), v)).collect());
        }
        for (w, h) in sizes {
            for adjust in &cases {
                let o = preset_outline(name, w, h, adjust);
                assert!(
                    o.text_rect.iter().all(|v| v.is_finite()),
                    "{name} text rect"
                );
                let paths = svg_paths(&o.paths, w, h);
                assert!(
                    paths.iter().any(|p| !p.d.is_empty()),
                    "{name} at {w}×{h} draws"
                );
                for p in &paths {
                    assert!(
                        numbers(&p.d).iter().all(|v| v.is_finite()),
                        "{name}: {}",
                        p.d
                    );
                }
            }
        }
        // At an ordinary size with default adjust values, the outline stays near the box
        // (callouts reach out to their tips, so allow a margin).
        let paths = svg_paths(&preset_outline(name, 100.0, 80.0, &[]).paths, 100.0, 80.0);
        for v in paths.iter().flat_map(|p| numbers(&p.d)) {
            assert!(
                (-150.0..=250.0).contains(&v),
                "{name}: {v} far outside the box"
            );
        }
    }
}

#[test]
fn presets_the_hand_written_code_lacked_are_drawn_from_the_standard() {
    // Gears, math signs, ribbons and arcs were boxes before: now each has its own outline.
    for name in [
        "gear6",
        "gear9",
        "mathMultiply",
        "mathDivide",
        "ribbon2",
        "blockArc",
        "heart",
    ] {
        let d = &svg_paths(&preset_outline(name, 100.0, 100.0, &[]).paths, 100.0, 100.0)[0].d;
        assert_ne!(d, "M0 0L100 0L100 100L0 100Z", "{name}");
        assert!(d.len() > 40, "{name}: {d}");
    }
    // An unknown name draws the box.
    let d = &svg_paths(
        &preset_outline("noSuchShape", 2.0, 2.0, &[]).paths,
        2.0,
        2.0,
    )[0]
    .d;
    assert_eq!(d, "M0 0L2 0L2 2L0 2Z");
}

#[test]
fn adjust_values_change_the_outline() {
    let at = |v: f64| {
        svg_paths(
            &preset_outline("roundRect", 100.0, 50.0, &[("adj".to_owned(), v)]).paths,
            100.0,
            50.0,
        )[0]
        .d
        .clone()
    };
    // The corner radius is adj of the shorter side: 20 % of 50 = 10.
    assert!(at(20_000.0).starts_with("M0 10C"), "{}", at(20_000.0));
    // `adj1` names the same value for one-value presets.
    let d = &svg_paths(
        &preset_outline("roundRect", 100.0, 50.0, &[("adj1".to_owned(), 20_000.0)]).paths,
        100.0,
        50.0,
    )[0]
    .d;
    assert!(d.starts_with("M0 10C"), "{d}");
    // Out-of-range values are pinned by the preset's own guides.
    assert_eq!(at(900_000.0), at(50_000.0));
}

#[test]
fn hostile_custom_geometry_stays_bounded_and_finite() {
    let mut xml = String::from("<custGeom><gdLst>");
    for i in 0..5_000 {
        xml.push_str(&format!(
            r#"<gd name="g{i}" fmla="*/ g{} 10 0.0000001"/>"#,
            i.max(1) - 1
        ));
    }
    xml.push_str(r#"<gd name="n" fmla="val NaN"/><gd name="i" fmla="+- inf 1e309 -1e309"/>"#);
    xml.push_str("</gdLst><pathLst>");
    for _ in 0..30 {
        xml.push_str(r#"<path w="-5" h="NaN"><moveTo><pt x="g900" y="n"/></moveTo>"#);
        for _ in 0..1_000 {
            xml.push_str(
                r#"<arcTo wR="g999" hR="i" stAng="1e300" swAng="-1e300"/><lnTo><pt/></lnTo>"#,
            );
        }
        xml.push_str("</path>");
    }
    xml.push_str("</pathLst></custGeom>");
    let def = custom(&xml);
    assert!(def.adjust.len() + def.guides.len() <= DOCUMENT_LIMITS.guides);
    let commands: usize = def.paths.iter().map(|p| p.commands.len()).sum();
    assert!(commands <= DOCUMENT_LIMITS.commands);
    for (w, h) in [(100.0, 100.0), (0.0, 0.0), (f64::NAN, f64::INFINITY)] {
        let o = evaluate(&def, w, h, &[("g1".to_owned(), f64::INFINITY)]);
        for p in svg_paths(&o.paths, 100.0, 100.0) {
            assert!(numbers(&p.d).iter().all(|v| v.is_finite()));
        }
    }
}

#[test]
fn an_arc_with_one_zero_radius_still_moves_the_pen() {
    // A bracket with adj 0 has arcs of height 0: the pen still travels across them.
    let def = custom(
        r#"<custGeom><pathLst><path><moveTo><pt x="0" y="0"/></moveTo>
        <arcTo wR="10" hR="0" stAng="16200000" swAng="5400000"/><lnTo><pt x="10" y="20"/></lnTo>
        </path></pathLst></custGeom>"#,
    );
    let p = svg_paths(&evaluate(&def, 20.0, 20.0, &[]).paths, 20.0, 20.0);
    assert_eq!(p[0].d, "M0 0L10 0L10 20");
    let bracket = preset_outline("rightBracket", 50.0, 100.0, &[("adj".to_owned(), 0.0)]);
    let d = &svg_paths(&bracket.paths, 50.0, 100.0)[0].d;
    assert!(d.contains("L50 0") || d.contains("L50 0L"), "{d}");
}

#[test]
fn a_text_rectangle_without_area_is_the_box() {
    // A frame whose border fills it (adj1 50 %) leaves no inner rectangle: its text then
    // uses the whole box rather than a column of one letter.
    let o = preset_outline("frame", 72.0, 72.0, &[("adj1".to_owned(), 50_000.0)]);
    assert_eq!(o.text_rect, [0.0, 0.0, 72.0, 72.0]);
    let o = preset_outline("star32", 72.0, 72.0, &[("adj".to_owned(), 0.0)]);
    assert_eq!(o.text_rect, [0.0, 0.0, 72.0, 72.0]);
}
