//! Lists (`word/numbering.xml`): definitions, counters and computed labels.
//!
//! A paragraph names a numbering instance (`w:num`) and a level. Instances point at an
//! abstract definition (`w:abstractNum`) holding up to nine levels (start value, format,
//! label template such as `%1.%2.`, indentation). Counters follow Word:
//!
//! - instances of one abstract definition share counters, so a list continues across
//!   them, unless an instance overrides a level (`w:lvlOverride`), which makes it a list
//!   of its own that starts afresh (the usual "restart numbering");
//! - numbering a level resets the deeper levels, unless a deeper level's `w:lvlRestart`
//!   says otherwise (0 = never restart);
//! - `%N` in a template is level N's current value in level N's format, or in decimal
//!   when the level is legal-style (`w:isLgl`).

use std::collections::HashMap;

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::ListSuffix;
use super::props::{list_suffix, val, PPr, RPr};
use super::theme::ThemeColors;

/// Levels per list.
const LEVELS: usize = 9;
/// A numbering style chain (`w:numStyleLink`) is followed this many hops at most.
const MAX_LINK_HOPS: usize = 4;

/// One list level.
#[derive(Debug, Clone)]
pub(crate) struct Level {
    pub start: i64,
    pub format: String,
    pub template: String,
    /// `w:lvlRestart`: restart after this (1-based) level; `Some(0)` means never.
    pub restart: Option<u8>,
    pub legal: bool,
    pub suffix: ListSuffix,
    pub ppr: PPr,
    pub rpr: RPr,
}

impl Level {
    fn from_xml(el: Element<'_>, theme: &ThemeColors) -> Level {
        let child_val = |name: &str| el.child(Ns::W, name).and_then(val);
        Level {
            start: child_val("start")
                .and_then(|v| v.parse::<i64>().ok())
                .unwrap_or(1)
                .clamp(-1_000_000, 1_000_000),
            format: child_val("numFmt").unwrap_or("decimal").to_owned(),
            template: child_val("lvlText").unwrap_or("").to_owned(),
            restart: child_val("lvlRestart").and_then(|v| v.parse::<u8>().ok()),
            legal: el.child(Ns::W, "isLgl").is_some_and(super::props::on_off),
            suffix: list_suffix(child_val("suff")),
            ppr: el
                .child(Ns::W, "pPr")
                .map(|p| PPr::from_xml(p, theme))
                .unwrap_or_default(),
            rpr: el
                .child(Ns::W, "rPr")
                .map(|r| RPr::from_xml(r, theme))
                .unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, Default)]
struct AbstractNum {
    levels: Vec<Option<Level>>,
    /// `w:numStyleLink`: the levels live in the list a numbering style points at.
    style_link: Option<String>,
}

#[derive(Debug, Clone, Default)]
struct Num {
    abstract_id: String,
    /// Per level: a start override and/or a replacement level.
    overrides: HashMap<u8, (Option<i64>, Option<Level>)>,
}

/// What a numbered paragraph gets: its label and the level's formatting.
#[derive(Debug, Clone)]
pub(crate) struct Numbered<'n> {
    pub text: String,
    pub level: &'n Level,
}

/// List definitions plus the running counters of one document.
#[derive(Debug, Clone, Default)]
pub(crate) struct Numbering {
    abstracts: HashMap<String, AbstractNum>,
    nums: HashMap<String, Num>,
    /// Counters shared by the instances of an abstract definition, by its id.
    abstract_counters: HashMap<String, [Option<i64>; LEVELS]>,
    /// Counters of instances that override a level, by instance id.
    num_counters: HashMap<String, [Option<i64>; LEVELS]>,
}

impl Numbering {
    /// Reads `w:numbering`.
    pub fn from_xml(root: Option<Element<'_>>, theme: &ThemeColors) -> Numbering {
        let mut numbering = Numbering::default();
        let Some(root) = root else {
            return numbering;
        };
        for el in root.children_named(Ns::W, "abstractNum") {
            let Some(id) = el.attr(Ns::W, "abstractNumId") else {
                continue;
            };
            let mut levels: Vec<Option<Level>> = vec![None; LEVELS];
            for lvl in el.children_named(Ns::W, "lvl") {
                let index = lvl
                    .attr(Ns::W, "ilvl")
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(0);
                if let Some(slot) = levels.get_mut(index) {
                    *slot = Some(Level::from_xml(lvl, theme));
                }
            }
            numbering.abstracts.insert(
                id.to_owned(),
                AbstractNum {
                    levels,
                    style_link: el
                        .child(Ns::W, "numStyleLink")
                        .and_then(val)
                        .map(str::to_owned),
                },
            );
        }
        for el in root.children_named(Ns::W, "num") {
            let (Some(id), Some(abstract_id)) = (
                el.attr(Ns::W, "numId"),
                el.child(Ns::W, "abstractNumId").and_then(val),
            ) else {
                continue;
            };
            let mut overrides = HashMap::new();
            for o in el.children_named(Ns::W, "lvlOverride") {
                let Some(level) = o.attr(Ns::W, "ilvl").and_then(|v| v.parse::<u8>().ok()) else {
                    continue;
                };
                let start = o
                    .child(Ns::W, "startOverride")
                    .and_then(val)
                    .and_then(|v| v.parse::<i64>().ok());
                let lvl = o.child(Ns::W, "lvl").map(|l| Level::from_xml(l, theme));
                overrides.insert(level.min(8), (start, lvl));
            }
            numbering.nums.insert(
                id.to_owned(),
                Num {
                    abstract_id: abstract_id.to_owned(),
                    overrides,
                },
            );
        }
        numbering
    }

    /// Counts one paragraph at `level` of `num_id` and returns its label.
    pub fn next(
        &mut self,
        num_id: &str,
        level: u8,
        styles: &super::styles::Styles,
    ) -> Option<Numbered<'_>> {
        let level = level.min(8);
        let i = usize::from(level);
        // Start values and restart rules, copied out so the counters can be updated.
        let num = self.nums.get(num_id)?;
        let shared = num.overrides.is_empty();
        let levels = self.levels_of(num, styles);
        levels[i]?;
        let mut starts = [1i64; LEVELS];
        let mut restarts: [Option<u8>; LEVELS] = [None; LEVELS];
        for (l, def) in levels.iter().enumerate() {
            let overridden = num.overrides.get(&(l as u8)).and_then(|(s, _)| *s);
            starts[l] = overridden.or(def.map(|d| d.start)).unwrap_or(1);
            restarts[l] = def.and_then(|d| d.restart);
        }

        // Overridden instances count on their own; others share the abstract's counters.
        let (map, key) = if shared {
            (&mut self.abstract_counters, num.abstract_id.as_str())
        } else {
            (&mut self.num_counters, num_id)
        };
        let counters = match map.get_mut(key) {
            Some(c) => c,
            None => map.entry(key.to_owned()).or_insert([None; LEVELS]),
        };
        counters[i] = Some(match counters[i] {
            Some(n) => n.saturating_add(1),
            None => starts[i],
        });
        for (deeper, slot) in counters.iter_mut().enumerate().skip(i + 1) {
            let restart = match restarts[deeper] {
                Some(0) => false,
                // lvlRestart is 1-based: restart when a level at or above it is counted.
                Some(r) => i < usize::from(r),
                None => true,
            };
            if restart {
                *slot = None;
            }
        }
        let values = *counters;

        let num = self.nums.get(num_id)?;
        let levels = self.levels_of(num, styles);
        let this = levels[i]?;
        let text = if this.format == "bullet" {
            bullet_text(&this.template, this.rpr.font.as_ref())
        } else {
            expand_template(&this.template, |n| {
                let value = values[n].unwrap_or(starts[n]);
                let format = match levels[n] {
                    _ if this.legal => "decimal",
                    Some(def) => def.format.as_str(),
                    None => "decimal",
                };
                format_number(value, format)
            })
        };
        Some(Numbered { text, level: this })
    }

    /// The nine level definitions of an instance, overrides applied.
    fn levels_of<'n>(
        &'n self,
        num: &'n Num,
        styles: &super::styles::Styles,
    ) -> [Option<&'n Level>; LEVELS] {
        let abstract_num = self.abstract_for(num, styles);
        std::array::from_fn(|l| match num.overrides.get(&(l as u8)) {
            Some((_, Some(lvl))) => Some(lvl),
            _ => abstract_num?.levels.get(l)?.as_ref(),
        })
    }

    fn abstract_for(&self, num: &Num, styles: &super::styles::Styles) -> Option<&AbstractNum> {
        let mut current = self.abstracts.get(&num.abstract_id)?;
        for _ in 0..MAX_LINK_HOPS {
            let Some(link) = &current.style_link else {
                return Some(current);
            };
            // The numbering style's own numPr names the instance holding the levels.
            let linked = styles
                .get(link)
                .and_then(|s| s.ppr.num.as_ref())
                .and_then(|n| n.num_id.as_deref())
                .and_then(|id| self.nums.get(id))
                .and_then(|n| self.abstracts.get(&n.abstract_id));
            match linked {
                Some(next) if !std::ptr::eq(next, current) => current = next,
                _ => return Some(current),
            }
        }
        Some(current)
    }
}

/// Replaces `%1`…`%9` in a level template with the formatted counters (0-based index).
fn expand_template(template: &str, mut value: impl FnMut(usize) -> String) -> String {
    let mut out = String::with_capacity(template.len() + 4);
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                if (1..=9).contains(&d) {
                    chars.next();
                    out.push_str(&value(d as usize - 1));
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// The Unicode shown for a bullet template; symbol-font private-use code points become
/// the characters those fonts draw there.
fn bullet_text(template: &str, font: Option<&super::props::FontRef>) -> String {
    let font = match font {
        Some(super::props::FontRef::Named(n)) => n,
        _ => "",
    };
    template
        .chars()
        .map(|c| match (c, font) {
            ('o', "Courier New") => '◦',
            ('\u{F0B7}', _) | ('\u{B7}', "Symbol") => '•',
            ('\u{F0A7}', _) | ('§', "Wingdings") => '▪',
            ('\u{F06F}', _) => '◦',
            ('\u{F0D8}', _) => '➢',
            ('\u{F0FC}', _) => '✓',
            ('\u{F076}', _) => '❖',
            ('\u{F0A8}', _) => '□',
            ('\u{F02D}', _) => '–',
            (c, _) if ('\u{F020}'..='\u{F0FF}').contains(&c) => '•',
            (c, _) => c,
        })
        .collect()
}

/// Formats a counter value in a `w:numFmt` format.
pub(crate) fn format_number(n: i64, format: &str) -> String {
    match format {
        "none" => String::new(),
        "decimalZero" => {
            if (0..10).contains(&n) {
                format!("0{n}")
            } else {
                n.to_string()
            }
        }
        "upperRoman" => roman(n).unwrap_or_else(|| n.to_string()),
        "lowerRoman" => roman(n)
            .map(|r| r.to_ascii_lowercase())
            .unwrap_or_else(|| n.to_string()),
        "upperLetter" => letters(n).unwrap_or_else(|| n.to_string()),
        "lowerLetter" => letters(n)
            .map(|r| r.to_ascii_lowercase())
            .unwrap_or_else(|| n.to_string()),
        "ordinal" => ordinal(n),
        "cardinalText" => words(n).unwrap_or_else(|| n.to_string()),
        "ordinalText" => ordinal_words(n).unwrap_or_else(|| ordinal(n)),
        "decimalEnclosedCircle" if (1..=20).contains(&n) => {
            char::from_u32(0x2460 + n as u32 - 1).map_or(n.to_string(), String::from)
        }
        "decimalEnclosedParen" => format!("({n})"),
        "chicago" => chicago(n),
        _ => n.to_string(),
    }
}

fn roman(mut n: i64) -> Option<String> {
    if !(1..=3999).contains(&n) {
        return None;
    }
    const TABLE: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, digits) in TABLE {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    Some(out)
}

/// Word's letter numbering: A…Z, then AA…ZZ, AAA… (the letter repeats).
fn letters(n: i64) -> Option<String> {
    if !(1..=780).contains(&n) {
        return None;
    }
    let index = ((n - 1) % 26) as u8;
    let repeat = ((n - 1) / 26 + 1) as usize;
    Some(char::from(b'A' + index).to_string().repeat(repeat))
}

fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn chicago(n: i64) -> String {
    const SYMBOLS: [char; 4] = ['*', '†', '‡', '§'];
    if !(1..=40).contains(&n) {
        return n.to_string();
    }
    let symbol = SYMBOLS[((n - 1) % 4) as usize];
    symbol.to_string().repeat(((n - 1) / 4 + 1) as usize)
}

const ONES: [&str; 20] = [
    "Zero",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];
const TENS: [&str; 10] = [
    "", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety",
];

/// English words for 0–999 ("Twenty-One").
fn words(n: i64) -> Option<String> {
    if !(0..1000).contains(&n) {
        return None;
    }
    let n = n as usize;
    let below_hundred = |m: usize| -> String {
        if m < 20 {
            ONES[m].to_owned()
        } else if m.is_multiple_of(10) {
            TENS[m / 10].to_owned()
        } else {
            format!("{}-{}", TENS[m / 10], ONES[m % 10])
        }
    };
    Some(if n < 100 {
        below_hundred(n)
    } else if n.is_multiple_of(100) {
        format!("{} Hundred", ONES[n / 100])
    } else {
        format!("{} Hundred {}", ONES[n / 100], below_hundred(n % 100))
    })
}

/// English ordinal words ("Twenty-First").
fn ordinal_words(n: i64) -> Option<String> {
    let cardinal = words(n)?;
    let (head, last) = match cardinal.rfind(['-', ' ']) {
        Some(i) => cardinal.split_at(i + 1),
        None => ("", cardinal.as_str()),
    };
    let last = match last {
        "One" => "First".to_owned(),
        "Two" => "Second".to_owned(),
        "Three" => "Third".to_owned(),
        "Five" => "Fifth".to_owned(),
        "Eight" => "Eighth".to_owned(),
        "Nine" => "Ninth".to_owned(),
        "Twelve" => "Twelfth".to_owned(),
        w if w.ends_with('y') => format!("{}ieth", &w[..w.len() - 1]),
        w => format!("{w}th"),
    };
    Some(format!("{head}{last}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_number(3, "lowerRoman"), "iii");
        assert_eq!(format_number(14, "upperRoman"), "XIV");
        assert_eq!(format_number(2, "lowerLetter"), "b");
        assert_eq!(format_number(28, "upperLetter"), "BB");
        assert_eq!(format_number(7, "decimalZero"), "07");
        assert_eq!(format_number(22, "ordinal"), "22nd");
        assert_eq!(format_number(12, "ordinal"), "12th");
        assert_eq!(format_number(21, "cardinalText"), "Twenty-One");
        assert_eq!(format_number(21, "ordinalText"), "Twenty-First");
        assert_eq!(format_number(40, "ordinalText"), "Fortieth");
        assert_eq!(format_number(3, "decimalEnclosedCircle"), "③");
        assert_eq!(format_number(5, "chicago"), "**");
        assert_eq!(format_number(0, "lowerRoman"), "0");
        assert_eq!(format_number(-3, "upperLetter"), "-3");
        assert_eq!(format_number(5, "someFutureFormat"), "5");
    }

    #[test]
    fn templates() {
        let values = ["1", "2", "3"];
        assert_eq!(
            expand_template("%1.%2.%3)", |i| values[i].to_owned()),
            "1.2.3)"
        );
        assert_eq!(expand_template("100%", |_| "x".into()), "100%");
        assert_eq!(expand_template("%0%a", |_| "x".into()), "%0%a");
    }
}
