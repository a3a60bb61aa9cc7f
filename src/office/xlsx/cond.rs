//! Conditional formatting: the rules of a worksheet's `<conditionalFormatting>` blocks and
//! the differential formats (`<dxfs>` of the styles part) they name, applied to each cell
//! when a block of rows is served.
//!
//! A rule is kept as written. What it needs from its whole range (minimum and maximum,
//! percentiles, the top-N threshold, the mean and standard deviation, which values occur
//! twice) is measured once, when the sheet is complete ([`prepare`]); styling a block then
//! costs a few comparisons per cell, and nothing is stored per cell.
//!
//! Applied: cell-value comparisons (`cellIs` with numbers, strings or cell references as
//! operands), text rules (contains, does not contain, begins with, ends with), blanks and
//! errors, top/bottom N and N %, above/below average (with standard deviations),
//! duplicate and unique values, two- and three-colour scales, data bars and icon sets.
//! Not applied: conditions that are formulas (`expression` rules and formula operands),
//! because previewd never computes formulas; [`Rule::Unsupported`] counts them so the
//! viewer can say so. Rules in extension lists (`x14:conditionalFormatting`) are skipped
//! with the rest of the extension markup.
//!
//! Comparisons follow the spreadsheet's ordering: numbers compare as numbers, text
//! compares without regard to case, and any text is greater than any number.

use std::collections::HashMap;
use std::fmt::Write;

use super::model::{parse_cell_ref, parse_range, Cell, CellKind, Rect, Sheet, Workbook};
use super::stream::Start;
use super::style::{color_from_attrs, ThemeColors};

/// Rules kept per sheet; a sheet with more keeps the first ones.
pub const MAX_RULES: usize = 1_000;
/// Ranges kept per rule.
const MAX_RANGES: usize = 64;
/// Cells a sheet's rules may scan in all when they are prepared; rules past it are
/// skipped (a colour scale over a million-row column is 1,000,000 of them).
pub const MAX_PREPARED_CELLS: u64 = 4_000_000;

/// A comparison of `cellIs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `between` (inclusive).
    Between,
    /// `notBetween`.
    NotBetween,
    /// `equal`.
    Equal,
    /// `notEqual`.
    NotEqual,
    /// `greaterThan`.
    Greater,
    /// `greaterThanOrEqual`.
    GreaterOrEqual,
    /// `lessThan`.
    Less,
    /// `lessThanOrEqual`.
    LessOrEqual,
}

/// A text test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOp {
    /// `containsText`.
    Contains,
    /// `notContainsText`.
    NotContains,
    /// `beginsWith`.
    BeginsWith,
    /// `endsWith`.
    EndsWith,
}

/// An operand of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A number literal.
    Number(f64),
    /// A string literal (`"text"` in the formula).
    Text(String),
    /// A cell of the same sheet; relative parts move with the cell being tested, from
    /// the top-left cell of the rule's first range.
    Ref {
        /// Row as written.
        row: u32,
        /// Column as written.
        col: u32,
        /// `$` before the row.
        abs_row: bool,
        /// `$` before the column.
        abs_col: bool,
    },
}

/// A threshold of a colour scale, data bar or icon set (`cfvo`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cfvo {
    /// The range's lowest number.
    Min,
    /// The range's highest number.
    Max,
    /// A fixed number.
    Num(f64),
    /// A percentage of the way from the lowest to the highest number.
    Percent(f64),
    /// A percentile of the range's numbers.
    Percentile(f64),
}

/// What a rule tests, with what [`prepare`] measured over its range.
#[derive(Debug, Clone)]
pub enum Kind {
    /// `cellIs`.
    Compare {
        /// The comparison.
        op: Op,
        /// First operand.
        a: Operand,
        /// Second operand (`between`, `notBetween`).
        b: Option<Operand>,
    },
    /// Text rules; `needle` is lower case.
    Text {
        /// The test.
        op: TextOp,
        /// What is looked for.
        needle: String,
    },
    /// `containsBlanks` (true) or `notContainsBlanks`.
    Blanks(bool),
    /// `containsErrors` (true) or `notContainsErrors`.
    Errors(bool),
    /// `top10`.
    Top {
        /// Lowest values instead of highest.
        bottom: bool,
        /// `rank` is a percentage of the range's numbers.
        percent: bool,
        /// How many (or what percentage).
        rank: u32,
        /// The least (or greatest) value that is in, once prepared.
        threshold: Option<f64>,
    },
    /// `aboveAverage`.
    Average {
        /// Below instead of above.
        below: bool,
        /// The average itself counts.
        equal: bool,
        /// Standard deviations away from the mean (0: the mean itself).
        std_dev: u32,
        /// Mean and (population) standard deviation, once prepared.
        stats: Option<(f64, f64)>,
    },
    /// `duplicateValues` (false) or `uniqueValues` (true).
    Duplicates {
        /// Unique instead of duplicated.
        unique: bool,
        /// How often each value occurs, once prepared.
        counts: HashMap<Key, u32>,
    },
    /// `colorScale`.
    Scale {
        /// Thresholds and their colours, lowest first.
        stops: Vec<(Cfvo, u32)>,
        /// The thresholds as numbers, once prepared.
        at: Vec<f64>,
    },
    /// `dataBar`.
    Bar {
        /// Where the bar is shortest.
        min: Cfvo,
        /// Where the bar is longest.
        max: Cfvo,
        /// Bar colour.
        color: u32,
        /// Whether the value is shown over the bar.
        show_value: bool,
        /// `min`, `max` as numbers, once prepared.
        at: Option<(f64, f64)>,
    },
    /// `iconSet`.
    Icons {
        /// The set's name (`3Arrows`, `4TrafficLights`, …).
        set: String,
        /// Thresholds, the first being the bottom of the lowest icon.
        cfvos: Vec<Cfvo>,
        /// The icons run from best to worst instead.
        reverse: bool,
        /// Whether the value is shown beside the icon.
        show_value: bool,
        /// The thresholds as numbers, once prepared.
        at: Vec<f64>,
    },
    /// A condition previewd does not evaluate (a formula).
    Unsupported,
}

/// A value for duplicate counting: a number's bits or text in lower case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A number.
    Number(u64),
    /// Text, lower case.
    Text(String),
}

/// One rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The cells it applies to.
    pub ranges: Vec<Rect>,
    /// Lower numbers win.
    pub priority: i64,
    /// No rule of lower priority applies to a cell this one matched.
    pub stop: bool,
    /// Index into [`super::style::Styles::dxfs`].
    pub dxf: Option<u32>,
    /// The test.
    pub kind: Kind,
}

impl Rule {
    fn contains(&self, row: u32, col: u32) -> bool {
        self.ranges
            .iter()
            .any(|r| r.r0 <= row && row <= r.r1 && r.c0 <= col && col <= r.c1)
    }
}

/// What the rules make of one cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Applied {
    /// CSS declarations (differential formats and colour scales), highest priority last.
    pub css: String,
    /// A data bar: its length as a fraction of the cell's width, and its colour.
    pub bar: Option<(f32, u32)>,
    /// An icon: the character drawn and its colour.
    pub icon: Option<(&'static str, u32)>,
    /// The value is hidden (an icon set or data bar with `showValue="0"`).
    pub hide_value: bool,
}

/// Reads `<conditionalFormatting>` from the worksheet stream.
#[derive(Debug, Default)]
pub struct Reader {
    ranges: Vec<Rect>,
    rule: Option<RawRule>,
    in_formula: bool,
    /// The rules read so far.
    pub rules: Vec<Rule>,
}

#[derive(Debug, Default)]
struct RawRule {
    kind: String,
    dxf: Option<u32>,
    priority: i64,
    stop: bool,
    operator: String,
    text: String,
    rank: u32,
    percent: bool,
    bottom: bool,
    below: bool,
    equal: bool,
    std_dev: u32,
    formulas: Vec<String>,
    cfvos: Vec<Cfvo>,
    colors: Vec<u32>,
    icon_set: String,
    reverse: bool,
    show_value: bool,
}

fn flag(s: &Start<'_>, name: &str) -> Option<bool> {
    s.attr(name).map(|v| v == "1" || v == "true")
}

impl Reader {
    /// An opening tag of the worksheet (outside extension lists).
    pub fn open(&mut self, s: &Start<'_>, empty: bool, theme: &ThemeColors) {
        match s.name() {
            b"conditionalFormatting" => {
                self.ranges = s
                    .attr("sqref")
                    .map(|v| {
                        v.split_whitespace()
                            .filter_map(parse_range)
                            .take(MAX_RANGES)
                            .collect()
                    })
                    .unwrap_or_default();
            }
            b"cfRule" if !self.ranges.is_empty() && self.rules.len() < MAX_RULES => {
                let num = |n: &str| s.attr(n).and_then(|v| v.trim().parse::<i64>().ok());
                let mut raw = RawRule {
                    kind: s.attr("type").map(|v| v.into_owned()).unwrap_or_default(),
                    dxf: num("dxfId").and_then(|v| u32::try_from(v).ok()),
                    priority: num("priority").unwrap_or(i64::MAX),
                    stop: flag(s, "stopIfTrue").unwrap_or(false),
                    operator: s
                        .attr("operator")
                        .map(|v| v.into_owned())
                        .unwrap_or_default(),
                    text: s
                        .attr("text")
                        .map(|v| v.chars().take(1024).collect())
                        .unwrap_or_default(),
                    rank: num("rank")
                        .and_then(|v| u32::try_from(v).ok())
                        .unwrap_or(10),
                    percent: flag(s, "percent").unwrap_or(false),
                    bottom: flag(s, "bottom").unwrap_or(false),
                    below: !flag(s, "aboveAverage").unwrap_or(true),
                    equal: flag(s, "equalAverage").unwrap_or(false),
                    std_dev: num("stdDev")
                        .and_then(|v| u32::try_from(v).ok())
                        .unwrap_or(0)
                        .min(10),
                    show_value: true,
                    ..RawRule::default()
                };
                if empty {
                    if let Some(rule) = self.build(raw) {
                        self.rules.push(rule);
                    }
                } else {
                    raw.formulas.clear();
                    self.rule = Some(raw);
                }
            }
            b"formula" if !empty && self.rule.is_some() => {
                self.in_formula = true;
                if let Some(r) = self.rule.as_mut().filter(|r| r.formulas.len() < 3) {
                    r.formulas.push(String::new());
                }
            }
            b"colorScale" | b"dataBar" | b"iconSet" => {
                if let Some(r) = self.rule.as_mut() {
                    if let Some(set) = s.attr("iconSet") {
                        r.icon_set = set.chars().take(32).collect();
                    }
                    r.reverse = flag(s, "reverse").unwrap_or(false);
                    r.show_value = flag(s, "showValue").unwrap_or(true);
                }
            }
            b"cfvo" => {
                if let Some(r) = self.rule.as_mut().filter(|r| r.cfvos.len() < 8) {
                    let val = s
                        .attr("val")
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .filter(|v| v.is_finite());
                    let cfvo = match (s.attr("type").as_deref(), val) {
                        (Some("min"), _) => Cfvo::Min,
                        (Some("max"), _) => Cfvo::Max,
                        (Some("percent"), Some(v)) => Cfvo::Percent(v.clamp(0.0, 100.0)),
                        (Some("percentile"), Some(v)) => Cfvo::Percentile(v.clamp(0.0, 100.0)),
                        (Some("num") | Some("formula"), Some(v)) => Cfvo::Num(v),
                        // Formulas that are not plain numbers: the range's ends stand in.
                        _ if r.cfvos.is_empty() => Cfvo::Min,
                        _ => Cfvo::Max,
                    };
                    r.cfvos.push(cfvo);
                }
            }
            b"color" => {
                if let Some(r) = self.rule.as_mut().filter(|r| r.colors.len() < 8) {
                    let attrs = s.attrs();
                    let get = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
                    r.colors
                        .push(color_from_attrs(get, theme).unwrap_or(0x638EC6));
                }
            }
            _ => {}
        }
    }

    /// Character data of the worksheet.
    pub fn text(&mut self, t: &str) {
        if !self.in_formula {
            return;
        }
        if let Some(f) = self.rule.as_mut().and_then(|r| r.formulas.last_mut()) {
            if f.len() < 1024 {
                f.push_str(t);
            }
        }
    }

    /// A closing tag of the worksheet.
    pub fn close(&mut self, name: &[u8]) {
        match name {
            b"formula" => self.in_formula = false,
            b"cfRule" => {
                if let Some(raw) = self.rule.take() {
                    if let Some(rule) = self.build(raw) {
                        self.rules.push(rule);
                    }
                }
            }
            b"conditionalFormatting" => self.ranges.clear(),
            _ => {}
        }
    }

    fn build(&self, raw: RawRule) -> Option<Rule> {
        let operands: Option<Vec<Operand>> = raw.formulas.iter().map(|f| operand(f)).collect();
        let kind = match raw.kind.as_str() {
            "cellIs" => {
                let op = match raw.operator.as_str() {
                    "between" => Op::Between,
                    "notBetween" => Op::NotBetween,
                    "equal" => Op::Equal,
                    "notEqual" => Op::NotEqual,
                    "greaterThan" => Op::Greater,
                    "greaterThanOrEqual" => Op::GreaterOrEqual,
                    "lessThan" => Op::Less,
                    "lessThanOrEqual" => Op::LessOrEqual,
                    _ => return None,
                };
                let two = matches!(op, Op::Between | Op::NotBetween);
                match operands {
                    Some(mut v) if !v.is_empty() && (!two || v.len() >= 2) => {
                        let b = if two { Some(v.remove(1)) } else { None };
                        Kind::Compare {
                            op,
                            a: v.swap_remove(0),
                            b,
                        }
                    }
                    _ => Kind::Unsupported,
                }
            }
            "containsText" | "notContainsText" | "beginsWith" | "endsWith" => Kind::Text {
                op: match raw.kind.as_str() {
                    "containsText" => TextOp::Contains,
                    "notContainsText" => TextOp::NotContains,
                    "beginsWith" => TextOp::BeginsWith,
                    _ => TextOp::EndsWith,
                },
                needle: raw.text.to_lowercase(),
            },
            "containsBlanks" => Kind::Blanks(true),
            "notContainsBlanks" => Kind::Blanks(false),
            "containsErrors" => Kind::Errors(true),
            "notContainsErrors" => Kind::Errors(false),
            "top10" => Kind::Top {
                bottom: raw.bottom,
                percent: raw.percent,
                rank: raw.rank.clamp(1, 1000),
                threshold: None,
            },
            "aboveAverage" => Kind::Average {
                below: raw.below,
                equal: raw.equal,
                std_dev: raw.std_dev,
                stats: None,
            },
            "duplicateValues" | "uniqueValues" => Kind::Duplicates {
                unique: raw.kind == "uniqueValues",
                counts: HashMap::new(),
            },
            "colorScale" if raw.cfvos.len() >= 2 && raw.colors.len() >= raw.cfvos.len() => {
                Kind::Scale {
                    stops: raw
                        .cfvos
                        .iter()
                        .copied()
                        .zip(raw.colors.iter().copied())
                        .collect(),
                    at: Vec::new(),
                }
            }
            "dataBar" if raw.cfvos.len() >= 2 => Kind::Bar {
                min: raw.cfvos[0],
                max: raw.cfvos[1],
                color: raw.colors.first().copied().unwrap_or(0x638EC6),
                show_value: raw.show_value,
                at: None,
            },
            "iconSet" if raw.cfvos.len() >= 2 => Kind::Icons {
                set: if raw.icon_set.is_empty() {
                    "3TrafficLights1".into()
                } else {
                    raw.icon_set.clone()
                },
                cfvos: raw.cfvos.clone(),
                reverse: raw.reverse,
                show_value: raw.show_value,
                at: Vec::new(),
            },
            _ => Kind::Unsupported,
        };
        Some(Rule {
            ranges: self.ranges.clone(),
            priority: raw.priority,
            stop: raw.stop,
            dxf: raw.dxf,
            kind,
        })
    }
}

/// A `cellIs` operand: a number, a quoted string or a cell reference; `None` for any
/// other formula.
fn operand(formula: &str) -> Option<Operand> {
    let f = formula.trim();
    if let Ok(v) = f.parse::<f64>() {
        return v.is_finite().then_some(Operand::Number(v));
    }
    if f.len() >= 2 && f.starts_with('"') && f.ends_with('"') {
        let inner = &f[1..f.len() - 1];
        if !inner.replace("\"\"", "").contains('"') {
            return Some(Operand::Text(inner.replace("\"\"", "\"")));
        }
        return None;
    }
    let (row, col) = parse_cell_ref(f)?;
    // `parse_cell_ref` accepts `$`s anywhere; find them where they were written.
    let abs_col = f.starts_with('$');
    let letters_end = f
        .trim_start_matches('$')
        .find(|c: char| !c.is_ascii_alphabetic())?
        + usize::from(abs_col);
    let abs_row = f[letters_end..].starts_with('$');
    if !f[letters_end..]
        .trim_start_matches('$')
        .bytes()
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some(Operand::Ref {
        row,
        col,
        abs_row,
        abs_col,
    })
}

/// A cell's value for the rules.
#[derive(Debug, Clone, PartialEq)]
enum Value<'a> {
    Empty,
    Number(f64),
    Text(&'a str),
    Bool(bool),
    Error,
}

fn value_of<'a>(book: &'a Workbook, sheet: &'a Sheet, cell: &Cell) -> Value<'a> {
    match cell.kind {
        CellKind::Blank => Value::Empty,
        CellKind::Number => Value::Number(cell.number()),
        CellKind::Shared => Value::Text(book.shared.get(cell.value as u32)),
        CellKind::Text => Value::Text(sheet.pool.get(cell.value as u32)),
        CellKind::NumericText => {
            let t = sheet.pool.get(cell.value as u32);
            t.trim()
                .parse::<f64>()
                .map_or(Value::Text(t), Value::Number)
        }
        CellKind::Bool => Value::Bool(cell.value != 0),
        CellKind::Error => Value::Error,
    }
}

/// The cell at `(row, col)`, if the sheet has one.
fn cell_at(sheet: &Sheet, row: u32, col: u32) -> Option<&Cell> {
    let i = sheet.rows.binary_search_by_key(&row, |r| r.r).ok()?;
    let cells = sheet.cells_of(i);
    let col = u16::try_from(col).ok()?;
    cells
        .binary_search_by_key(&col, |c| c.col)
        .ok()
        .map(|k| &cells[k])
}

/// Every number in the rule's ranges, up to `budget` cells scanned.
fn numbers_in(sheet: &Sheet, ranges: &[Rect], budget: &mut u64) -> Option<Vec<f64>> {
    let mut out = Vec::new();
    for rect in ranges {
        for i in sheet.row_span(rect.r0, rect.r1.saturating_add(1)) {
            for cell in sheet.cells_of(i) {
                if u32::from(cell.col) < rect.c0 || u32::from(cell.col) > rect.c1 {
                    continue;
                }
                *budget = budget.checked_sub(1)?;
                match cell.kind {
                    CellKind::Number => out.push(cell.number()),
                    CellKind::NumericText => {
                        if let Ok(v) = sheet.pool.get(cell.value as u32).trim().parse::<f64>() {
                            out.push(v);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    Some(out)
}

/// `PERCENTILE.INC` of sorted numbers.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0).clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = rank.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo as f64)
}

fn resolve(cfvo: Cfvo, sorted: &[f64]) -> f64 {
    let (min, max) = (
        sorted.first().copied().unwrap_or(0.0),
        sorted.last().copied().unwrap_or(0.0),
    );
    match cfvo {
        Cfvo::Min => min,
        Cfvo::Max => max,
        Cfvo::Num(v) => v,
        Cfvo::Percent(p) => min + (max - min) * p / 100.0,
        Cfvo::Percentile(p) => percentile(sorted, p),
    }
}

/// Measures what each rule needs from its range. Rules past the sheet's scan budget
/// become [`Kind::Unsupported`]; returns how many rules cannot be applied.
pub fn prepare(sheet: &mut Sheet, book_shared: &super::model::TextPool) -> usize {
    prepare_within(sheet, book_shared, MAX_PREPARED_CELLS)
}

fn prepare_within(sheet: &mut Sheet, book_shared: &super::model::TextPool, budget: u64) -> usize {
    let mut budget = budget;
    let mut rules = std::mem::take(&mut sheet.conditional);
    rules.sort_by_key(|r| r.priority);
    for rule in &mut rules {
        let needs_numbers = matches!(
            rule.kind,
            Kind::Top { .. }
                | Kind::Average { .. }
                | Kind::Scale { .. }
                | Kind::Bar { .. }
                | Kind::Icons { .. }
        );
        if needs_numbers {
            let Some(mut nums) = numbers_in(sheet, &rule.ranges, &mut budget) else {
                rule.kind = Kind::Unsupported;
                continue;
            };
            nums.sort_by(f64::total_cmp);
            match &mut rule.kind {
                Kind::Top {
                    bottom,
                    percent,
                    rank,
                    threshold,
                } => {
                    let n = if *percent {
                        ((nums.len() as u64 * u64::from(*rank)) / 100).max(1) as usize
                    } else {
                        *rank as usize
                    }
                    .min(nums.len());
                    *threshold = (n > 0).then(|| {
                        if *bottom {
                            nums[n - 1]
                        } else {
                            nums[nums.len() - n]
                        }
                    });
                }
                Kind::Average { stats, .. } if !nums.is_empty() => {
                    let mean = nums.iter().sum::<f64>() / nums.len() as f64;
                    let var =
                        nums.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / nums.len() as f64;
                    *stats = Some((mean, var.sqrt()));
                }
                Kind::Scale { stops, at } => {
                    *at = stops.iter().map(|(c, _)| resolve(*c, &nums)).collect();
                }
                Kind::Bar { min, max, at, .. } => {
                    *at = (!nums.is_empty()).then(|| (resolve(*min, &nums), resolve(*max, &nums)));
                }
                Kind::Icons { cfvos, at, .. } => {
                    *at = cfvos.iter().map(|c| resolve(*c, &nums)).collect();
                }
                _ => {}
            }
        } else if let Kind::Duplicates { counts, .. } = &mut rule.kind {
            let mut ok = true;
            'scan: for rect in &rule.ranges {
                for i in sheet.row_span(rect.r0, rect.r1.saturating_add(1)) {
                    for cell in sheet.cells_of(i) {
                        if u32::from(cell.col) < rect.c0 || u32::from(cell.col) > rect.c1 {
                            continue;
                        }
                        let Some(left) = budget.checked_sub(1) else {
                            ok = false;
                            break 'scan;
                        };
                        budget = left;
                        if let Some(k) = key_of(book_shared, sheet, cell) {
                            *counts.entry(k).or_insert(0) += 1;
                        }
                    }
                }
            }
            if !ok {
                rule.kind = Kind::Unsupported;
            }
        }
    }
    let skipped = rules
        .iter()
        .filter(|r| matches!(r.kind, Kind::Unsupported))
        .count();
    sheet.conditional = rules;
    skipped
}

fn key_of(shared: &super::model::TextPool, sheet: &Sheet, cell: &Cell) -> Option<Key> {
    match cell.kind {
        CellKind::Number => Some(Key::Number(cell.number().to_bits())),
        CellKind::Shared => Some(Key::Text(shared.get(cell.value as u32).to_lowercase())),
        CellKind::Text | CellKind::NumericText => {
            Some(Key::Text(sheet.pool.get(cell.value as u32).to_lowercase()))
        }
        _ => None,
    }
}

/// Spreadsheet ordering of two values: `None` when they do not compare (errors).
fn compare(a: &Value<'_>, b: &Value<'_>) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let rank = |v: &Value<'_>| match v {
        Value::Empty | Value::Number(_) => 0,
        Value::Text(_) => 1,
        Value::Bool(_) => 2,
        Value::Error => 3,
    };
    match (a, b) {
        (Value::Error, _) | (_, Value::Error) => None,
        (Value::Text(x), Value::Text(y)) => Some(x.to_lowercase().cmp(&y.to_lowercase())),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (x, y) if rank(x) == 0 && rank(y) == 0 => {
            let n = |v: &Value<'_>| if let Value::Number(n) = v { *n } else { 0.0 };
            n(x).partial_cmp(&n(y))
        }
        (Value::Empty, Value::Text(t)) => Some("".cmp(t.to_lowercase().as_str())),
        (Value::Text(t), Value::Empty) => Some(t.to_lowercase().as_str().cmp("")),
        (x, y) => Some(rank(x).cmp(&rank(y)).then(Ordering::Equal)),
    }
}

/// The cell being styled and where it is.
struct At<'a> {
    book: &'a Workbook,
    sheet: &'a Sheet,
    cell: &'a Cell,
    row: u32,
    col: u32,
}

fn operand_value<'a>(at: &At<'a>, rule: &Rule, op: &'a Operand) -> Value<'a> {
    let (book, sheet, row, col) = (at.book, at.sheet, at.row, at.col);
    match op {
        Operand::Number(n) => Value::Number(*n),
        Operand::Text(t) => Value::Text(t),
        Operand::Ref {
            row: r,
            col: c,
            abs_row,
            abs_col,
        } => {
            let (top, left) = rule.ranges.first().map_or((0, 0), |x| (x.r0, x.c0));
            // A later range may lie above or left of the first: move in signed steps.
            let shift = |base: u32, at: u32, from: u32| {
                u32::try_from(i64::from(base) + i64::from(at) - i64::from(from)).ok()
            };
            let rr = if *abs_row {
                Some(*r)
            } else {
                shift(*r, row, top)
            };
            let cc = if *abs_col {
                Some(*c)
            } else {
                shift(*c, col, left)
            };
            match (rr, cc) {
                (Some(rr), Some(cc)) => {
                    cell_at(sheet, rr, cc).map_or(Value::Empty, |x| value_of(book, sheet, x))
                }
                _ => Value::Empty,
            }
        }
    }
}

fn lerp(a: u32, b: u32, t: f64) -> u32 {
    let t = t.clamp(0.0, 1.0);
    let ch = |v: u32, k: u32| f64::from((v >> k) & 255);
    let mix = |k: u32| ((ch(a, k) + (ch(b, k) - ch(a, k)) * t).round() as u32) << k;
    mix(16) | mix(8) | mix(0)
}

fn number(v: &Value<'_>) -> Option<f64> {
    match v {
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// Whether `rule` matches the cell at `at`, which holds `v`; what a scale, bar or icon
/// draws goes to `out`.
fn matches(at: &At<'_>, rule: &Rule, v: &Value<'_>, out: &mut Applied) -> bool {
    use std::cmp::Ordering::*;
    let (book, sheet, cell) = (at.book, at.sheet, at.cell);
    match &rule.kind {
        Kind::Compare { op, a, b } => {
            let av = operand_value(at, rule, a);
            let Some(ca) = compare(v, &av) else {
                return false;
            };
            match op {
                Op::Equal => ca == Equal,
                Op::NotEqual => ca != Equal,
                Op::Greater => ca == Greater,
                Op::GreaterOrEqual => ca != Less,
                Op::Less => ca == Less,
                Op::LessOrEqual => ca != Greater,
                Op::Between | Op::NotBetween => {
                    let Some(b) = b else { return false };
                    let bv = operand_value(at, rule, b);
                    // The bounds may be written in either order.
                    let (lo, hi) = match compare(&av, &bv) {
                        Some(Greater) => (&bv, &av),
                        _ => (&av, &bv),
                    };
                    let inside = compare(v, lo).is_some_and(|o| o != Less)
                        && compare(v, hi).is_some_and(|o| o != Greater);
                    inside == (*op == Op::Between)
                }
            }
        }
        Kind::Text { op, needle } => {
            let text = match v {
                Value::Text(t) => t.to_lowercase(),
                Value::Number(_) | Value::Bool(_) => book.display(sheet, cell).text.to_lowercase(),
                Value::Empty => String::new(),
                Value::Error => return false,
            };
            match op {
                TextOp::Contains => text.contains(needle.as_str()),
                TextOp::NotContains => !text.contains(needle.as_str()),
                TextOp::BeginsWith => text.starts_with(needle.as_str()),
                TextOp::EndsWith => text.ends_with(needle.as_str()),
            }
        }
        Kind::Blanks(want) => {
            let blank = match v {
                Value::Empty => true,
                Value::Text(t) => t.trim().is_empty(),
                _ => false,
            };
            blank == *want
        }
        Kind::Errors(want) => matches!(v, Value::Error) == *want,
        Kind::Top {
            bottom, threshold, ..
        } => match (number(v), threshold) {
            (Some(n), Some(t)) => {
                if *bottom {
                    n <= *t
                } else {
                    n >= *t
                }
            }
            _ => false,
        },
        Kind::Average {
            below,
            equal,
            std_dev,
            stats,
        } => match (number(v), stats) {
            (Some(n), Some((mean, sd))) => {
                let bound = if *below {
                    mean - f64::from(*std_dev) * sd
                } else {
                    mean + f64::from(*std_dev) * sd
                };
                match (*below, *equal) {
                    (false, false) => n > bound,
                    (false, true) => n >= bound,
                    (true, false) => n < bound,
                    (true, true) => n <= bound,
                }
            }
            _ => false,
        },
        Kind::Duplicates { unique, counts } => match key_of(&book.shared, sheet, cell) {
            Some(k) => {
                let n = counts.get(&k).copied().unwrap_or(0);
                if *unique {
                    n == 1
                } else {
                    n > 1
                }
            }
            None => false,
        },
        Kind::Scale { stops, at } => {
            let Some(n) = number(v) else { return false };
            if at.len() != stops.len() || at.is_empty() {
                return false;
            }
            let color = if n <= at[0] {
                stops[0].1
            } else if n >= at[at.len() - 1] {
                stops[stops.len() - 1].1
            } else {
                let k = at.windows(2).position(|w| n <= w[1]).unwrap_or(0);
                let span = at[k + 1] - at[k];
                let t = if span > 0.0 { (n - at[k]) / span } else { 1.0 };
                lerp(stops[k].1, stops[k + 1].1, t)
            };
            let _ = write!(out.css, "background:#{color:06x};");
            true
        }
        Kind::Bar {
            color,
            at,
            show_value,
            ..
        } => {
            let (Some(n), Some((lo, hi))) = (number(v), at) else {
                return false;
            };
            let t = if hi > lo { (n - lo) / (hi - lo) } else { 1.0 };
            // The default bar runs from 10 % to 90 % of the cell.
            out.bar = Some(((0.1 + 0.8 * t.clamp(0.0, 1.0)) as f32, *color));
            out.hide_value |= !*show_value;
            true
        }
        Kind::Icons {
            set,
            reverse,
            show_value,
            at,
            ..
        } => {
            let Some(n) = number(v) else { return false };
            // The thresholds the value reaches pick the icon; a set's icons run from the
            // lowest values' to the highest's.
            let reached = at.iter().skip(1).filter(|t| n >= **t).count();
            let pos = if *reverse {
                at.len() - 1 - reached
            } else {
                reached
            };
            out.icon = icon(set, pos);
            out.hide_value |= !*show_value;
            true
        }
        Kind::Unsupported => false,
    }
}

const RED: u32 = 0xE0403A;
const AMBER: u32 = 0xF0B400;
const GREEN: u32 = 0x3C9A3C;
const GREY: u32 = 0x808080;
const BLUE: u32 = 0x4472C4;

/// Icon `pos` of an icon set, lowest values' icon first, drawn as a character: the
/// sets' pictures are the application's, so each is stood in for by the closest symbol.
fn icon(set: &str, pos: usize) -> Option<(&'static str, u32)> {
    let arrows3: &[(&str, u32)] = &[("\u{2193}", RED), ("\u{2192}", AMBER), ("\u{2191}", GREEN)];
    let table: &[(&str, u32)] = match set {
        "3Arrows" => arrows3,
        "3ArrowsGray" => &[("\u{2193}", GREY), ("\u{2192}", GREY), ("\u{2191}", GREY)],
        "3Flags" => &[("\u{2691}", RED), ("\u{2691}", AMBER), ("\u{2691}", GREEN)],
        "3TrafficLights1" | "3TrafficLights2" => {
            &[("\u{25cf}", RED), ("\u{25cf}", AMBER), ("\u{25cf}", GREEN)]
        }
        "3Signs" => &[("\u{25c6}", RED), ("\u{25b2}", AMBER), ("\u{25cf}", GREEN)],
        "3Symbols" | "3Symbols2" => &[("\u{2716}", RED), ("!", AMBER), ("\u{2714}", GREEN)],
        "3Stars" => &[
            ("\u{2606}", GREY),
            ("\u{2605}", 0xF5D37A),
            ("\u{2605}", AMBER),
        ],
        "3Triangles" => &[("\u{25bc}", RED), ("\u{25ac}", AMBER), ("\u{25b2}", GREEN)],
        "4Arrows" => &[
            ("\u{2193}", RED),
            ("\u{2198}", AMBER),
            ("\u{2197}", AMBER),
            ("\u{2191}", GREEN),
        ],
        "4ArrowsGray" => &[
            ("\u{2193}", GREY),
            ("\u{2198}", GREY),
            ("\u{2197}", GREY),
            ("\u{2191}", GREY),
        ],
        "4RedToBlack" => &[
            ("\u{25cf}", 0x000000),
            ("\u{25cf}", GREY),
            ("\u{25cf}", 0xF4A6A6),
            ("\u{25cf}", RED),
        ],
        "4Rating" => &[
            ("\u{2582}", BLUE),
            ("\u{2584}", BLUE),
            ("\u{2586}", BLUE),
            ("\u{2588}", BLUE),
        ],
        "4TrafficLights" => &[
            ("\u{25cf}", 0x000000),
            ("\u{25cf}", RED),
            ("\u{25cf}", AMBER),
            ("\u{25cf}", GREEN),
        ],
        "5Arrows" => &[
            ("\u{2193}", RED),
            ("\u{2198}", AMBER),
            ("\u{2192}", AMBER),
            ("\u{2197}", AMBER),
            ("\u{2191}", GREEN),
        ],
        "5ArrowsGray" => &[
            ("\u{2193}", GREY),
            ("\u{2198}", GREY),
            ("\u{2192}", GREY),
            ("\u{2197}", GREY),
            ("\u{2191}", GREY),
        ],
        "5Rating" => &[
            ("\u{2581}", BLUE),
            ("\u{2582}", BLUE),
            ("\u{2584}", BLUE),
            ("\u{2586}", BLUE),
            ("\u{2588}", BLUE),
        ],
        "5Quarters" => &[
            ("\u{25cb}", GREY),
            ("\u{25d4}", GREY),
            ("\u{25d1}", GREY),
            ("\u{25d5}", GREY),
            ("\u{25cf}", GREY),
        ],
        "5Boxes" => &[
            ("\u{25a1}", BLUE),
            ("\u{2596}", BLUE),
            ("\u{259a}", BLUE),
            ("\u{259c}", BLUE),
            ("\u{25a0}", BLUE),
        ],
        _ => arrows3,
    };
    // A set given more thresholds than it has icons keeps its top icon for the rest.
    table.get(pos.min(table.len() - 1)).copied()
}

/// What the sheet's rules make of `cell` at `row`; `None` when no rule applies.
pub fn apply(book: &Workbook, sheet: &Sheet, row: u32, cell: &Cell) -> Option<Applied> {
    if sheet.conditional.is_empty() {
        return None;
    }
    let col = u32::from(cell.col);
    let v = value_of(book, sheet, cell);
    let mut out = Applied::default();
    let mut layers: Vec<std::borrow::Cow<'_, str>> = Vec::new();
    let mut any = false;
    let at = At {
        book,
        sheet,
        cell,
        row,
        col,
    };
    // Rules are in priority order: the first to set a property wins, so differential
    // formats are collected first and written lowest priority first.
    for rule in &sheet.conditional {
        if !rule.contains(row, col) {
            continue;
        }
        let mut extra = Applied::default();
        if !matches(&at, rule, &v, &mut extra) {
            continue;
        }
        any = true;
        if let Some(css) = rule
            .dxf
            .and_then(|d| book.styles.dxfs.get(d as usize))
            .filter(|_| {
                matches!(
                    rule.kind,
                    Kind::Compare { .. }
                        | Kind::Text { .. }
                        | Kind::Blanks(_)
                        | Kind::Errors(_)
                        | Kind::Top { .. }
                        | Kind::Average { .. }
                        | Kind::Duplicates { .. }
                )
            })
        {
            layers.push(std::borrow::Cow::Borrowed(css.as_str()));
        }
        if !extra.css.is_empty() {
            layers.push(std::borrow::Cow::Owned(std::mem::take(&mut extra.css)));
        }
        if out.bar.is_none() {
            out.bar = extra.bar;
        }
        if out.icon.is_none() {
            out.icon = extra.icon;
        }
        out.hide_value |= extra.hide_value;
        if rule.stop {
            break;
        }
    }
    if !any {
        return None;
    }
    for css in layers.iter().rev() {
        out.css.push_str(css);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::xlsx::model::{Row, TextPool};

    fn sheet_of(values: &[f64]) -> Sheet {
        let mut sh = Sheet::new("S".into());
        for (i, v) in values.iter().enumerate() {
            sh.rows.push(Row {
                r: i as u32,
                first: i as u32,
                height: 0.0,
                hidden: false,
            });
            sh.cells.push(Cell {
                value: v.to_bits(),
                col: 0,
                style: 0,
                kind: CellKind::Number,
            });
        }
        sh
    }

    fn rule(kind: Kind, rows: u32) -> Rule {
        Rule {
            ranges: vec![Rect {
                r0: 0,
                c0: 0,
                r1: rows - 1,
                c1: 0,
            }],
            priority: 1,
            stop: false,
            dxf: None,
            kind,
        }
    }

    #[test]
    fn operands_are_literals_or_references() {
        assert_eq!(operand(" 12.5 "), Some(Operand::Number(12.5)));
        assert_eq!(
            operand("\"say \"\"hi\"\"\""),
            Some(Operand::Text("say \"hi\"".into()))
        );
        assert_eq!(
            operand("$B$3"),
            Some(Operand::Ref {
                row: 2,
                col: 1,
                abs_row: true,
                abs_col: true
            })
        );
        assert_eq!(
            operand("C$1"),
            Some(Operand::Ref {
                row: 0,
                col: 2,
                abs_row: true,
                abs_col: false
            })
        );
        // Formulas are not evaluated.
        assert_eq!(operand("AVERAGE(A1:A9)"), None);
        assert_eq!(operand("A1+1"), None);
        assert_eq!(operand("\"a\"&\"b\""), None);
        assert_eq!(operand("1e999"), None);
    }

    #[test]
    fn percentiles_interpolate_like_percentile_inc() {
        let v = [10.0, 30.0, 50.0, 70.0, 90.0];
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 10.0), 18.0);
        assert_eq!(percentile(&v, 100.0), 90.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }

    #[test]
    fn colours_mix_per_channel() {
        assert_eq!(lerp(0x000000, 0xFFFFFF, 0.5), 0x808080);
        assert_eq!(lerp(0xF8696B, 0x63BE7B, 0.0), 0xF8696B);
        assert_eq!(lerp(0xF8696B, 0x63BE7B, 7.0), 0x63BE7B);
    }

    #[test]
    fn icon_sets_clamp_to_their_icons() {
        assert_eq!(icon("3Arrows", 0), Some(("\u{2193}", RED)));
        assert_eq!(icon("3Arrows", 9), Some(("\u{2191}", GREEN)));
        // An unknown set is drawn with arrows rather than nothing.
        assert_eq!(icon("9Bogus", 1), Some(("\u{2192}", AMBER)));
    }

    #[test]
    fn rules_past_the_scan_budget_are_skipped_not_slow() {
        let mut sh = sheet_of(&[1.0, 2.0, 3.0, 4.0]);
        sh.conditional.push(rule(
            Kind::Bar {
                min: Cfvo::Min,
                max: Cfvo::Max,
                color: 0x638EC6,
                show_value: true,
                at: None,
            },
            4,
        ));
        sh.conditional.push(rule(
            Kind::Top {
                bottom: false,
                percent: false,
                rank: 1,
                threshold: None,
            },
            4,
        ));
        // Budget for one rule's four cells: the second is given up.
        assert_eq!(prepare_within(&mut sh, &TextPool::default(), 6), 1);
        assert!(matches!(
            sh.conditional[0].kind,
            Kind::Bar {
                at: Some((1.0, 4.0)),
                ..
            }
        ));
        assert!(matches!(sh.conditional[1].kind, Kind::Unsupported));
    }

    #[test]
    fn ranges_above_the_first_move_references_without_overflow() {
        let mut sh = sheet_of(&[5.0, 1.0, 9.0]);
        // A sqref such as "A3 A1": the first range starts below the second.
        sh.conditional.push(Rule {
            ranges: vec![
                Rect {
                    r0: 2,
                    c0: 0,
                    r1: 2,
                    c1: 0,
                },
                Rect {
                    r0: 0,
                    c0: 0,
                    r1: 0,
                    c1: 0,
                },
            ],
            priority: 1,
            stop: false,
            dxf: Some(0),
            kind: Kind::Compare {
                op: Op::Greater,
                a: Operand::Ref {
                    row: 1,
                    col: 0,
                    abs_row: false,
                    abs_col: true,
                },
                b: None,
            },
        });
        let mut styles = crate::office::xlsx::style::Styles::plain();
        styles.dxfs.push("background:#ff0000;".into());
        let book = Workbook {
            sheets: Vec::new(),
            active: 0,
            date1904: false,
            styles,
            shared: TextPool::default(),
            rich: Vec::new(),
            has_macros: false,
            properties: Default::default(),
            warnings: Vec::new(),
            source: "xlsx",
        };
        prepare(&mut sh, &book.shared);
        // A3 (9) against A2 (1): formatted. A1 against the row above A2's: row 0 + 1 - 2
        // does not exist, so it compares with an empty cell (5 > 0).
        let a3 = apply(&book, &sh, 2, &sh.cells[2]).unwrap();
        assert_eq!(a3.css, "background:#ff0000;");
        let a1 = apply(&book, &sh, 0, &sh.cells[0]).unwrap();
        assert_eq!(a1.css, "background:#ff0000;");
    }
}
