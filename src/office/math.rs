//! Office Math (OMML, the `m:` namespace) as a small structured model, rendered as MathML.
//!
//! Word stores equations as OMML: fractions, scripts, radicals, n-ary operators, delimiters,
//! matrices and so on, each an element with its parts (`m:num`/`m:den`, `m:e`/`m:sup` …)
//! and a properties element that names characters (`m:chr`, `m:begChr`) or switches
//! (`m:limLoc`, `m:degHide`). [`parse`] turns an `m:oMath` or `m:oMathPara` into a
//! [`Math`]; [`Math::to_mathml`] writes MathML Core, which browsers lay out natively (no
//! script, no fonts of our own). Unknown containers keep their children, so no text of an
//! equation is ever lost; [`Math::text`] gives that text in document order.
//!
//! Defaults follow ECMA-376 Part 1, 22.1: an n-ary operator without `m:chr` is an integral
//! (U+222B), a delimiter without `m:begChr`/`m:endChr` is a pair of parentheses with `|`
//! between items, an accent without `m:chr` is a combining circumflex (U+0302), a group
//! character defaults to a bottom curly bracket (U+23DF) below its base, and a bar is below
//! unless `m:pos` says top.

use std::fmt::Write;

use serde::Serialize;

use super::ns::Ns;
use super::xml::Element;
use crate::markup::escape_into;

/// One equation: inline (`m:oMath` in a paragraph) or display (`m:oMathPara`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Math {
    /// A display equation (its own centred line) rather than one inside text.
    pub display: bool,
    /// Its content.
    pub nodes: Vec<MathNode>,
}

/// A piece of an equation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum MathNode {
    /// Text of an `m:r`.
    Run {
        /// The characters.
        text: String,
        /// Upright ("plain" style or `m:nor`): letters are not italic.
        plain: bool,
        /// Bold style.
        bold: bool,
    },
    /// `m:f`.
    Fraction {
        /// Numerator.
        num: Vec<MathNode>,
        /// Denominator.
        den: Vec<MathNode>,
        /// `noBar`: stacked without a line (binomial style).
        no_bar: bool,
        /// `lin`: written on one line as `num/den`.
        linear: bool,
    },
    /// `m:sSup`, `m:sSub`, `m:sSubSup` (after the base) and `m:sPre` (before it).
    Scripts {
        /// The base.
        base: Vec<MathNode>,
        /// Subscript.
        #[serde(skip_serializing_if = "Option::is_none")]
        sub: Option<Vec<MathNode>>,
        /// Superscript.
        #[serde(skip_serializing_if = "Option::is_none")]
        sup: Option<Vec<MathNode>>,
        /// Scripts written before the base (`m:sPre`).
        pre: bool,
    },
    /// `m:rad`: a square root, or an n-th root when a degree is shown.
    Radical {
        /// The degree, when shown.
        #[serde(skip_serializing_if = "Option::is_none")]
        degree: Option<Vec<MathNode>>,
        /// The radicand.
        body: Vec<MathNode>,
    },
    /// `m:nary`: ∑, ∫, ∏ … with optional limits.
    Nary {
        /// The operator character.
        op: String,
        /// Limits above and below (`undOvr`) rather than as scripts (`subSup`).
        under_over: bool,
        /// Lower limit, unless hidden.
        #[serde(skip_serializing_if = "Option::is_none")]
        sub: Option<Vec<MathNode>>,
        /// Upper limit, unless hidden.
        #[serde(skip_serializing_if = "Option::is_none")]
        sup: Option<Vec<MathNode>>,
        /// The operand.
        body: Vec<MathNode>,
    },
    /// `m:d`: items between delimiters.
    Delimited {
        /// Opening character (may be empty).
        open: String,
        /// Closing character (may be empty).
        close: String,
        /// Separator between items.
        separator: String,
        /// The items.
        items: Vec<Vec<MathNode>>,
    },
    /// `m:func`: a function name applied to an argument.
    Function {
        /// The name (`sin`, `lim` …).
        name: Vec<MathNode>,
        /// The argument.
        body: Vec<MathNode>,
    },
    /// `m:acc`: a mark over the base (hat, tilde, dot …).
    Accent {
        /// The mark character.
        mark: String,
        /// The base.
        body: Vec<MathNode>,
    },
    /// `m:bar`: a line over or under the base.
    Bar {
        /// Over rather than under.
        top: bool,
        /// The base.
        body: Vec<MathNode>,
    },
    /// `m:groupChr`: a stretched character (brace, arrow) over or under the base.
    GroupChar {
        /// The character.
        mark: String,
        /// Over rather than under.
        top: bool,
        /// The base.
        body: Vec<MathNode>,
    },
    /// `m:limLow` / `m:limUpp`: a limit written under or over the base.
    Limit {
        /// The base.
        body: Vec<MathNode>,
        /// The limit.
        limit: Vec<MathNode>,
        /// Over rather than under.
        upper: bool,
    },
    /// `m:m` (a matrix) or `m:eqArr` (equations aligned in rows, one cell each).
    Table {
        /// Rows of cells.
        rows: Vec<Vec<Vec<MathNode>>>,
    },
    /// A container shown as its content (`m:box`, `m:borderBox`, `m:phant`, unknown ones).
    Group {
        /// The content.
        children: Vec<MathNode>,
    },
}

/// Parses an `m:oMathPara` (display) or `m:oMath` (inline) element.
pub fn parse(el: Element<'_>) -> Math {
    let display = el.is(Ns::M, "oMathPara");
    let mut nodes = Vec::new();
    if display {
        // Several equations of one paragraph go on separate lines.
        let equations: Vec<Vec<MathNode>> = el
            .children_named(Ns::M, "oMath")
            .map(|m| children(m))
            .collect();
        match equations.len() {
            0 => {}
            1 => nodes = equations.into_iter().next().unwrap_or_default(),
            _ => nodes.push(MathNode::Table {
                rows: equations.into_iter().map(|e| vec![e]).collect(),
            }),
        }
    } else if el.is(Ns::M, "oMath") {
        nodes = children(el);
    } else {
        // A math element met outside an equation (a stray run): keep what it holds.
        node(el, &mut nodes);
    }
    Math { display, nodes }
}

/// The content of every child element of `el`, in order.
fn children(el: Element<'_>) -> Vec<MathNode> {
    let mut out = Vec::new();
    for c in el.elements() {
        node(c, &mut out);
    }
    out
}

/// The content of the named part (`m:e`, `m:num` …) of `el`; empty when absent.
fn part(el: Element<'_>, name: &str) -> Vec<MathNode> {
    el.child(Ns::M, name).map(children).unwrap_or_default()
}

/// The `m:val` of property `name` inside `el`'s properties element `props`.
fn prop<'d>(el: Element<'d>, props: &str, name: &str) -> Option<&'d str> {
    el.child(Ns::M, props)?
        .child(Ns::M, name)?
        .attr(Ns::M, "val")
}

/// An on/off property: present without a value, or with a true value.
fn flag(el: Element<'_>, props: &str, name: &str) -> bool {
    let Some(p) = el.child(Ns::M, props).and_then(|p| p.child(Ns::M, name)) else {
        return false;
    };
    !matches!(p.attr(Ns::M, "val"), Some("0" | "off" | "false"))
}

/// A character property; an empty `m:val` means "no character".
fn chr(el: Element<'_>, props: &str, name: &str, default: &str) -> String {
    match el.child(Ns::M, props).and_then(|p| p.child(Ns::M, name)) {
        Some(c) => c.attr(Ns::M, "val").unwrap_or_default().to_owned(),
        None => default.to_owned(),
    }
}

fn node(el: Element<'_>, out: &mut Vec<MathNode>) {
    if el.ns() != Ns::M {
        // Word puts w:rPr, bookmarks and revision wrappers among math; keep any text.
        if el.ns() == Ns::W && el.name() == "t" {
            push_run(out, &el.text(), false, false);
        } else if !(el.ns() == Ns::W && el.name().ends_with("Pr")) {
            for c in el.elements() {
                node(c, out);
            }
        }
        return;
    }
    let n = match el.name() {
        "r" => {
            let sty = prop(el, "rPr", "sty");
            let plain = flag(el, "rPr", "nor") || matches!(sty, Some("p" | "b"));
            let bold = matches!(sty, Some("b" | "bi"));
            for t in el.elements() {
                // m:t, or a w:t that some writers put in math runs.
                if matches!(t.ns(), Ns::M | Ns::W) && t.name() == "t" {
                    push_run(out, &t.text(), plain, bold);
                }
            }
            return;
        }
        "t" => {
            push_run(out, &el.text(), false, false);
            return;
        }
        "f" => {
            let kind = prop(el, "fPr", "type");
            MathNode::Fraction {
                num: part(el, "num"),
                den: part(el, "den"),
                no_bar: kind == Some("noBar"),
                linear: kind == Some("lin"),
            }
        }
        "sSup" => MathNode::Scripts {
            base: part(el, "e"),
            sub: None,
            sup: Some(part(el, "sup")),
            pre: false,
        },
        "sSub" => MathNode::Scripts {
            base: part(el, "e"),
            sub: Some(part(el, "sub")),
            sup: None,
            pre: false,
        },
        "sSubSup" | "sPre" => MathNode::Scripts {
            base: part(el, "e"),
            sub: Some(part(el, "sub")),
            sup: Some(part(el, "sup")),
            pre: el.name() == "sPre",
        },
        "rad" => MathNode::Radical {
            degree: (!flag(el, "radPr", "degHide"))
                .then(|| part(el, "deg"))
                .filter(|d| !d.is_empty()),
            body: part(el, "e"),
        },
        "nary" => MathNode::Nary {
            op: chr(el, "naryPr", "chr", "\u{222B}"),
            under_over: prop(el, "naryPr", "limLoc") == Some("undOvr"),
            sub: (!flag(el, "naryPr", "subHide")).then(|| part(el, "sub")),
            sup: (!flag(el, "naryPr", "supHide")).then(|| part(el, "sup")),
            body: part(el, "e"),
        },
        "d" => MathNode::Delimited {
            open: chr(el, "dPr", "begChr", "("),
            close: chr(el, "dPr", "endChr", ")"),
            separator: chr(el, "dPr", "sepChr", "|"),
            items: el.children_named(Ns::M, "e").map(children).collect(),
        },
        "func" => MathNode::Function {
            name: part(el, "fName"),
            body: part(el, "e"),
        },
        "acc" => MathNode::Accent {
            mark: chr(el, "accPr", "chr", "\u{0302}"),
            body: part(el, "e"),
        },
        "bar" => MathNode::Bar {
            top: prop(el, "barPr", "pos") == Some("top"),
            body: part(el, "e"),
        },
        "groupChr" => MathNode::GroupChar {
            mark: chr(el, "groupChrPr", "chr", "\u{23DF}"),
            top: prop(el, "groupChrPr", "pos") == Some("top"),
            body: part(el, "e"),
        },
        "limLow" | "limUpp" => MathNode::Limit {
            body: part(el, "e"),
            limit: part(el, "lim"),
            upper: el.name() == "limUpp",
        },
        "m" => MathNode::Table {
            rows: el
                .children_named(Ns::M, "mr")
                .map(|row| row.children_named(Ns::M, "e").map(children).collect())
                .collect(),
        },
        "eqArr" => MathNode::Table {
            rows: el
                .children_named(Ns::M, "e")
                .map(|e| vec![children(e)])
                .collect(),
        },
        // Properties and control elements carry no content of their own.
        name if name.ends_with("Pr") || name == "ctrlPr" => return,
        // oMath nested in a paragraph-level oMathPara, box, borderBox, phant, sPre's
        // parts seen out of place, and anything newer: the content, as a group.
        _ => MathNode::Group {
            children: children(el),
        },
    };
    out.push(n);
}

/// Appends run text, merging with a preceding run of the same style.
fn push_run(out: &mut Vec<MathNode>, text: &str, plain: bool, bold: bool) {
    if text.is_empty() {
        return;
    }
    if let Some(MathNode::Run {
        text: last,
        plain: p,
        bold: b,
    }) = out.last_mut()
    {
        if *p == plain && *b == bold {
            last.push_str(text);
            return;
        }
    }
    out.push(MathNode::Run {
        text: text.to_owned(),
        plain,
        bold,
    });
}

impl Math {
    /// The equation's characters in document order (delimiters and operators included),
    /// for text extraction and search.
    pub fn text(&self) -> String {
        let mut out = String::new();
        nodes_text(&self.nodes, &mut out);
        out
    }

    /// The equation as a MathML `<math>` element. Every character is escaped; the only
    /// markup is MathML Core elements and fixed attributes.
    pub fn to_mathml(&self) -> String {
        let mut out = String::with_capacity(64);
        out.push_str(if self.display {
            "<math display=\"block\">"
        } else {
            "<math>"
        });
        row(&mut out, &self.nodes);
        out.push_str("</math>");
        out
    }
}

fn nodes_text(nodes: &[MathNode], out: &mut String) {
    for n in nodes {
        match n {
            MathNode::Run { text, .. } => out.push_str(text),
            MathNode::Fraction { num, den, .. } => {
                nodes_text(num, out);
                out.push('/');
                nodes_text(den, out);
            }
            MathNode::Scripts { base, sub, sup, .. } => {
                nodes_text(base, out);
                for s in [sub, sup].into_iter().flatten() {
                    nodes_text(s, out);
                }
            }
            MathNode::Radical { degree, body } => {
                out.push('√');
                if let Some(d) = degree {
                    nodes_text(d, out);
                }
                nodes_text(body, out);
            }
            MathNode::Nary {
                op, sub, sup, body, ..
            } => {
                out.push_str(op);
                for s in [sub, sup].into_iter().flatten() {
                    nodes_text(s, out);
                }
                nodes_text(body, out);
            }
            MathNode::Delimited {
                open,
                close,
                separator,
                items,
            } => {
                out.push_str(open);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(separator);
                    }
                    nodes_text(item, out);
                }
                out.push_str(close);
            }
            MathNode::Function { name, body } => {
                nodes_text(name, out);
                nodes_text(body, out);
            }
            MathNode::Accent { body, .. }
            | MathNode::Bar { body, .. }
            | MathNode::GroupChar { body, .. } => nodes_text(body, out),
            MathNode::Limit { body, limit, .. } => {
                nodes_text(body, out);
                nodes_text(limit, out);
            }
            MathNode::Table { rows } => {
                for (r, cells) in rows.iter().enumerate() {
                    if r > 0 {
                        out.push(' ');
                    }
                    for cell in cells {
                        nodes_text(cell, out);
                    }
                }
            }
            MathNode::Group { children } => nodes_text(children, out),
        }
    }
}

/// `nodes` as one `<mrow>` (an empty row for empty content, so every slot is filled).
fn row(out: &mut String, nodes: &[MathNode]) {
    out.push_str("<mrow>");
    for n in nodes {
        mathml(out, n);
    }
    out.push_str("</mrow>");
}

/// An operator token.
fn mo(out: &mut String, text: &str, attrs: &str) {
    let _ = write!(out, "<mo{attrs}>");
    escape_into(out, text);
    out.push_str("</mo>");
}

fn mathml(out: &mut String, node: &MathNode) {
    match node {
        MathNode::Run { text, plain, bold } => tokens(out, text, *plain, *bold),
        MathNode::Fraction {
            num,
            den,
            no_bar,
            linear,
        } => {
            if *linear {
                out.push_str("<mrow>");
                row(out, num);
                mo(out, "/", "");
                row(out, den);
                out.push_str("</mrow>");
            } else {
                out.push_str(if *no_bar {
                    "<mfrac linethickness=\"0\">"
                } else {
                    "<mfrac>"
                });
                row(out, num);
                row(out, den);
                out.push_str("</mfrac>");
            }
        }
        MathNode::Scripts {
            base,
            sub,
            sup,
            pre,
        } => {
            if *pre {
                out.push_str("<mmultiscripts>");
                row(out, base);
                out.push_str("<mprescripts/>");
                row(out, sub.as_deref().unwrap_or_default());
                row(out, sup.as_deref().unwrap_or_default());
                out.push_str("</mmultiscripts>");
            } else {
                scripts(out, base, sub.as_deref(), sup.as_deref());
            }
        }
        MathNode::Radical { degree, body } => match degree {
            Some(d) => {
                out.push_str("<mroot>");
                row(out, body);
                row(out, d);
                out.push_str("</mroot>");
            }
            None => {
                out.push_str("<msqrt>");
                row(out, body);
                out.push_str("</msqrt>");
            }
        },
        MathNode::Nary {
            op,
            under_over,
            sub,
            sup,
            body,
        } => {
            out.push_str("<mrow>");
            let mut op_row = String::new();
            mo(&mut op_row, op, " largeop=\"true\"");
            // The operator token itself is the base of the limits.
            if sub.is_none() && sup.is_none() {
                out.push_str(&op_row);
            } else {
                let tag = match (*under_over, sub.is_some(), sup.is_some()) {
                    (true, true, true) => "munderover",
                    (true, true, false) => "munder",
                    (true, false, _) => "mover",
                    (false, true, true) => "msubsup",
                    (false, true, false) => "msub",
                    (false, false, _) => "msup",
                };
                let _ = write!(out, "<{tag}>");
                out.push_str(&op_row);
                for s in [sub, sup].into_iter().flatten() {
                    row(out, s);
                }
                let _ = write!(out, "</{tag}>");
            }
            row(out, body);
            out.push_str("</mrow>");
        }
        MathNode::Delimited {
            open,
            close,
            separator,
            items,
        } => {
            out.push_str("<mrow>");
            if !open.is_empty() {
                mo(out, open, " fence=\"true\"");
            }
            for (i, item) in items.iter().enumerate() {
                if i > 0 && !separator.is_empty() {
                    mo(out, separator, " separator=\"true\"");
                }
                row(out, item);
            }
            if !close.is_empty() {
                mo(out, close, " fence=\"true\"");
            }
            out.push_str("</mrow>");
        }
        MathNode::Function { name, body } => {
            out.push_str("<mrow>");
            row(out, name);
            // U+2061 FUNCTION APPLICATION: invisible, tells the layout a function applies.
            mo(out, "\u{2061}", "");
            row(out, body);
            out.push_str("</mrow>");
        }
        MathNode::Accent { mark, body } => {
            out.push_str("<mover accent=\"true\">");
            row(out, body);
            mo(out, mark, " stretchy=\"false\"");
            out.push_str("</mover>");
        }
        MathNode::Bar { top, body } => {
            let (tag, attr) = if *top {
                ("mover", " accent=\"true\"")
            } else {
                ("munder", " accentunder=\"true\"")
            };
            let _ = write!(out, "<{tag}{attr}>");
            row(out, body);
            mo(out, "\u{2015}", " stretchy=\"true\"");
            let _ = write!(out, "</{tag}>");
        }
        MathNode::GroupChar { mark, top, body } => {
            let tag = if *top { "mover" } else { "munder" };
            let _ = write!(out, "<{tag}>");
            row(out, body);
            mo(out, mark, " stretchy=\"true\"");
            let _ = write!(out, "</{tag}>");
        }
        MathNode::Limit { body, limit, upper } => {
            let tag = if *upper { "mover" } else { "munder" };
            let _ = write!(out, "<{tag}>");
            row(out, body);
            row(out, limit);
            let _ = write!(out, "</{tag}>");
        }
        MathNode::Table { rows } => {
            out.push_str("<mtable>");
            for cells in rows {
                out.push_str("<mtr>");
                for cell in cells {
                    out.push_str("<mtd>");
                    row(out, cell);
                    out.push_str("</mtd>");
                }
                out.push_str("</mtr>");
            }
            out.push_str("</mtable>");
        }
        MathNode::Group { children } => row(out, children),
    }
}

/// `<msub>`, `<msup>` or `<msubsup>` over `base`.
fn scripts(
    out: &mut String,
    base: &[MathNode],
    sub: Option<&[MathNode]>,
    sup: Option<&[MathNode]>,
) {
    let tag = match (sub.is_some(), sup.is_some()) {
        (true, true) => "msubsup",
        (true, false) => "msub",
        (false, true) => "msup",
        (false, false) => {
            row(out, base);
            return;
        }
    };
    let _ = write!(out, "<{tag}>");
    row(out, base);
    for s in [sub, sup].into_iter().flatten() {
        row(out, s);
    }
    let _ = write!(out, "</{tag}>");
}

/// Splits run text into MathML tokens: numbers (`<mn>`), identifiers (`<mi>`; a single
/// italic letter each, or one upright word for plain runs) and operators (`<mo>`).
fn tokens(out: &mut String, text: &str, plain: bool, bold: bool) {
    let variant = match (plain, bold) {
        (true, true) => " mathvariant=\"bold\"",
        (true, false) => " mathvariant=\"normal\"",
        (false, true) => " mathvariant=\"bold-italic\"",
        (false, false) => "",
    };
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        let mut end = start + c.len_utf8();
        if c.is_ascii_digit() {
            while let Some(&(i, d)) = chars.peek() {
                if d.is_ascii_digit()
                    || (d == '.' && text[i + 1..].starts_with(|n: char| n.is_ascii_digit()))
                {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let _ = write!(
                out,
                "<mn{}>",
                if bold { " mathvariant=\"bold\"" } else { "" }
            );
            escape_into(out, &text[start..end]);
            out.push_str("</mn>");
        } else if c.is_alphabetic() {
            if plain {
                // An upright word ("sin", "max", a unit) is one identifier.
                while let Some(&(i, d)) = chars.peek() {
                    if d.is_alphabetic() {
                        end = i + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
            }
            let _ = write!(out, "<mi{variant}>");
            escape_into(out, &text[start..end]);
            out.push_str("</mi>");
        } else if c == '-' {
            // Word draws a hyphen-minus in an equation as the minus sign.
            mo(out, "\u{2212}", "");
        } else {
            mo(out, &text[start..end], "");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::xml::{parse_xml, XmlOptions};

    const M: &str = "http://schemas.openxmlformats.org/officeDocument/2006/math";

    fn opts() -> XmlOptions<'static> {
        XmlOptions {
            max_depth: 256,
            max_nodes: 10_000,
            understood: &[],
        }
    }

    fn math(body: &str) -> Math {
        let xml = format!("<m:oMathPara xmlns:m=\"{M}\"><m:oMath>{body}</m:oMath></m:oMathPara>");
        let doc = parse_xml("test.xml", xml.as_bytes(), &opts()).expect("xml");
        parse(doc.root())
    }

    fn r(t: &str) -> String {
        format!("<m:r><m:t>{t}</m:t></m:r>")
    }

    #[test]
    fn a_fraction_with_scripts_becomes_mathml() {
        // x = (-b ± √(b²-4ac)) / 2a
        let eq = math(&format!(
            "{}<m:f><m:num>{}<m:rad><m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/><m:e><m:sSup><m:e>{}</m:e><m:sup>{}</m:sup></m:sSup>{}</m:e></m:rad></m:num><m:den>{}</m:den></m:f>",
            r("x="),
            r("-b±"),
            r("b"),
            r("2"),
            r("-4ac"),
            r("2a")
        ));
        assert!(eq.display);
        let html = eq.to_mathml();
        assert!(html.starts_with("<math display=\"block\"><mrow><mi>x</mi><mo>=</mo><mfrac>"));
        assert!(html.contains("<msqrt><mrow><msup><mrow><mi>b</mi></mrow><mrow><mn>2</mn></mrow></msup><mo>\u{2212}</mo><mn>4</mn><mi>a</mi><mi>c</mi></mrow></msqrt>"));
        assert!(html.contains("<mrow><mn>2</mn><mi>a</mi></mrow></mfrac>"));
        assert_eq!(eq.text(), "x=-b±√b2-4ac/2a");
    }

    #[test]
    fn nary_delimiters_functions_and_matrices() {
        let eq = math(&format!(
            "<m:nary><m:naryPr><m:chr m:val=\"∑\"/><m:limLoc m:val=\"undOvr\"/></m:naryPr><m:sub>{}</m:sub><m:sup>{}</m:sup><m:e>{}</m:e></m:nary>\
             <m:d><m:dPr><m:begChr m:val=\"[\"/><m:endChr m:val=\"]\"/></m:dPr><m:e>{}</m:e><m:e>{}</m:e></m:d>\
             <m:func><m:fName><m:r><m:rPr><m:sty m:val=\"p\"/></m:rPr><m:t>sin</m:t></m:r></m:fName><m:e>{}</m:e></m:func>\
             <m:m><m:mr><m:e>{}</m:e><m:e>{}</m:e></m:mr><m:mr><m:e>{}</m:e><m:e>{}</m:e></m:mr></m:m>\
             <m:nary><m:sub>{}</m:sub><m:sup>{}</m:sup><m:e>{}</m:e></m:nary>",
            r("i=1"), r("n"), r("i"), r("a"), r("b"), r("θ"), r("1"), r("0"), r("0"), r("1"),
            r("0"), r("1"), r("f")
        ));
        let html = eq.to_mathml();
        assert!(html.contains("<munderover><mo largeop=\"true\">∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mrow><mi>n</mi></mrow></munderover>"), "{html}");
        assert!(html.contains("<mo fence=\"true\">[</mo><mrow><mi>a</mi></mrow><mo separator=\"true\">|</mo><mrow><mi>b</mi></mrow><mo fence=\"true\">]</mo>"));
        assert!(html.contains("<mi mathvariant=\"normal\">sin</mi>"));
        assert!(html.contains("<mtable><mtr><mtd><mrow><mn>1</mn></mrow></mtd><mtd><mrow><mn>0</mn></mrow></mtd></mtr>"));
        // Default n-ary operator: an integral with limits as scripts.
        assert!(html.contains("<msubsup><mo largeop=\"true\">∫</mo>"));
    }

    #[test]
    fn text_is_escaped_and_unknown_containers_keep_their_content() {
        let eq = math(&format!(
            "<m:borderBox><m:e>{}</m:e></m:borderBox><m:future><m:e>{}</m:e></m:future><m:acc><m:e>{}</m:e></m:acc><m:bar><m:barPr><m:pos m:val=\"top\"/></m:barPr><m:e>{}</m:e></m:bar>",
            r("a&lt;b"),
            r("&lt;script&gt;"),
            r("v"),
            r("z")
        ));
        let html = eq.to_mathml();
        assert!(html.contains("<mo>&lt;</mo>"));
        assert!(!html.contains("<script"));
        assert!(html.contains("<mover accent=\"true\"><mrow><mi>v</mi></mrow><mo stretchy=\"false\">\u{302}</mo></mover>"));
        assert!(html.contains(
            "<mover accent=\"true\"><mrow><mi>z</mi></mrow><mo stretchy=\"true\">―</mo></mover>"
        ));
        assert_eq!(eq.text(), "a<b<script>vz");
    }

    #[test]
    fn inline_math_and_numbers() {
        let xml = format!("<m:oMath xmlns:m=\"{M}\">{}</m:oMath>", r("3.14 r2"));
        let doc = parse_xml("t.xml", xml.as_bytes(), &opts()).unwrap();
        let eq = parse(doc.root());
        assert!(!eq.display);
        assert_eq!(
            eq.to_mathml(),
            "<math><mrow><mn>3.14</mn><mi>r</mi><mn>2</mn></mrow></math>"
        );
    }

    #[test]
    fn nesting_as_deep_as_the_xml_guard_allows_renders() {
        // Fractions inside numerators up to the package's depth cap (256 elements).
        let depth = 120;
        let body = format!(
            "{}{}{}",
            "<m:f><m:num>".repeat(depth),
            r("x"),
            "</m:num><m:den/></m:f>".repeat(depth)
        );
        let eq = math(&body);
        let html = eq.to_mathml();
        assert_eq!(html.matches("<mfrac>").count(), depth);
        assert_eq!(eq.text(), format!("x{}", "/".repeat(depth)));
    }
}
