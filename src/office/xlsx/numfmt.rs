//! Spreadsheet number formats: the built-in ids and custom format codes, applied to a
//! cell's value the way a spreadsheet shows it.
//!
//! A code has up to four `;`-separated sections (positive; negative; zero; text). A
//! section may start with a colour (`[Red]`, `[Color12]`) and a condition (`[>=100]`);
//! then come digit placeholders (`0` pads with zeros, `#` shows only significant digits,
//! `?` pads with spaces), a decimal point, thousands separators (a `,` between
//! placeholders groups, trailing `,` divide by 1000), `%` (times 100), scientific
//! `E+00`, fractions (`# ?/?`, `?/8`), date and time parts (`yyyy m d h mm ss`, `AM/PM`,
//! elapsed `[h]`), literal text (quoted, `\x`), `_x` (a space the width of `x`), `*x`
//! (fill, shown once as nothing) and `@` (the text itself). A code is parsed once per
//! style; formatting a value allocates only its output string.

use std::fmt::Write;

/// The format code of a built-in number-format id (the en-US set), when the id is one.
pub fn builtin(id: u32) -> Option<&'static str> {
    Some(match id {
        0 => "General",
        1 => "0",
        2 => "0.00",
        3 => "#,##0",
        4 => "#,##0.00",
        5 => "\"$\"#,##0_);\\(\"$\"#,##0\\)",
        6 => "\"$\"#,##0_);[Red]\\(\"$\"#,##0\\)",
        7 => "\"$\"#,##0.00_);\\(\"$\"#,##0.00\\)",
        8 => "\"$\"#,##0.00_);[Red]\\(\"$\"#,##0.00\\)",
        9 => "0%",
        10 => "0.00%",
        11 => "0.00E+00",
        12 => "# ?/?",
        13 => "# ??/??",
        14 => "m/d/yyyy",
        15 => "d-mmm-yy",
        16 => "d-mmm",
        17 => "mmm-yy",
        18 => "h:mm AM/PM",
        19 => "h:mm:ss AM/PM",
        20 => "h:mm",
        21 => "h:mm:ss",
        22 => "m/d/yyyy h:mm",
        37 => "#,##0_);(#,##0)",
        38 => "#,##0_);[Red](#,##0)",
        39 => "#,##0.00_);(#,##0.00)",
        40 => "#,##0.00_);[Red](#,##0.00)",
        41 => "_(* #,##0_);_(* \\(#,##0\\);_(* \"-\"_);_(@_)",
        42 => "_(\"$\"* #,##0_);_(\"$\"* \\(#,##0\\);_(\"$\"* \"-\"_);_(@_)",
        43 => "_(* #,##0.00_);_(* \\(#,##0.00\\);_(* \"-\"??_);_(@_)",
        44 => "_(\"$\"* #,##0.00_);_(\"$\"* \\(#,##0.00\\);_(\"$\"* \"-\"??_);_(@_)",
        45 => "mm:ss",
        46 => "[h]:mm:ss",
        47 => "mm:ss.0",
        48 => "##0.0E+0",
        49 => "@",
        _ => return None,
    })
}

/// A colour named in a section (`[Red]`, `[Color5]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatColor(pub u32);

/// Formatted text and the section colour that goes with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    /// What the cell shows.
    pub text: String,
    /// `0xRRGGBB` from a colour in the code, if any.
    pub color: Option<FormatColor>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Cmp {
    fn test(self, v: f64, x: f64) -> bool {
        match self {
            Cmp::Lt => v < x,
            Cmp::Le => v <= x,
            Cmp::Gt => v > x,
            Cmp::Ge => v >= x,
            Cmp::Eq => v == x,
            Cmp::Ne => v != x,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Lit(String),
    /// `0`, `#` or `?`.
    Digit(u8),
    Point,
    Comma,
    Percent,
    /// `E+` (true) or `E-` (false).
    Exp(bool),
    Slash,
    Text,
    General,
    Year(u8),
    Month(u8),
    Minute(u8),
    Day(u8),
    Hour(u8),
    Second(u8),
    /// `.0`, `.00` after seconds.
    SubSecond(u8),
    /// `[h]`, `[m]`, `[s]`.
    Elapsed(char, u8),
    /// `AM/PM` (true) or `A/P` (false).
    AmPm(bool),
}

#[derive(Debug, Clone, PartialEq)]
struct Section {
    color: Option<FormatColor>,
    cond: Option<(Cmp, f64)>,
    toks: Vec<Tok>,
}

impl Section {
    fn is_date(&self) -> bool {
        self.toks.iter().any(|t| {
            matches!(
                t,
                Tok::Year(_)
                    | Tok::Month(_)
                    | Tok::Minute(_)
                    | Tok::Day(_)
                    | Tok::Hour(_)
                    | Tok::Second(_)
                    | Tok::Elapsed(..)
                    | Tok::AmPm(_)
            )
        })
    }
}

/// A parsed number-format code.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberFormat {
    sections: Vec<Section>,
}

/// The eight named colours of format codes, and the 56-colour palette of `[ColorN]`.
fn named_color(name: &str) -> Option<FormatColor> {
    let lower = name.to_ascii_lowercase();
    let rgb = match lower.as_str() {
        "black" => 0x000000,
        "white" => 0xFFFFFF,
        "red" => 0xFF0000,
        "green" => 0x00FF00,
        "blue" => 0x0000FF,
        "yellow" => 0xFFFF00,
        "magenta" => 0xFF00FF,
        "cyan" => 0x00FFFF,
        _ => {
            let n: usize = lower.strip_prefix("color")?.parse().ok()?;
            // [Color1]..[Color56] index the legacy palette from its 9th entry.
            return super::style::indexed_color(n.checked_add(7)?).map(FormatColor);
        }
    };
    Some(FormatColor(rgb))
}

fn parse_condition(s: &str) -> Option<(Cmp, f64)> {
    let (cmp, rest) = if let Some(r) = s.strip_prefix(">=") {
        (Cmp::Ge, r)
    } else if let Some(r) = s.strip_prefix("<=") {
        (Cmp::Le, r)
    } else if let Some(r) = s.strip_prefix("<>") {
        (Cmp::Ne, r)
    } else if let Some(r) = s.strip_prefix('>') {
        (Cmp::Gt, r)
    } else if let Some(r) = s.strip_prefix('<') {
        (Cmp::Lt, r)
    } else if let Some(r) = s.strip_prefix('=') {
        (Cmp::Eq, r)
    } else {
        return None;
    };
    Some((cmp, rest.trim().parse().ok()?))
}

/// Splits a code into sections at `;` outside quotes, brackets and escapes.
fn split_sections(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut bracket, mut escaped) = (0, false, false, false);
    for (i, c) in code.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if !quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' if !quoted => bracket = true,
            ']' if !quoted => bracket = false,
            ';' if !quoted && !bracket => {
                out.push(&code[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&code[start..]);
    out
}

fn run_len(chars: &[char], i: usize, lower: char) -> usize {
    chars[i..]
        .iter()
        .take_while(|c| c.to_ascii_lowercase() == lower)
        .count()
}

fn parse_section(src: &str) -> Section {
    let chars: Vec<char> = src.chars().collect();
    let mut toks: Vec<Tok> = Vec::new();
    let mut color = None;
    let mut cond = None;
    let mut i = 0;
    let lit = |toks: &mut Vec<Tok>, s: &str| {
        if let Some(Tok::Lit(prev)) = toks.last_mut() {
            prev.push_str(s);
        } else {
            toks.push(Tok::Lit(s.to_string()));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let lc = c.to_ascii_lowercase();
        match c {
            '"' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '"')
                    .map_or(chars.len(), |p| i + 1 + p);
                let s: String = chars[i + 1..end].iter().collect();
                lit(&mut toks, &s);
                i = end + 1;
                continue;
            }
            '\\' => {
                if let Some(&n) = chars.get(i + 1) {
                    lit(&mut toks, n.encode_utf8(&mut [0; 4]));
                }
                i += 2;
                continue;
            }
            '_' => {
                // A space as wide as the next character.
                lit(&mut toks, " ");
                i += 2;
                continue;
            }
            '*' => {
                // Fill with the next character to the column width: shown as nothing.
                i += 2;
                continue;
            }
            '[' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == ']')
                    .map_or(chars.len(), |p| i + 1 + p);
                let inner: String = chars[i + 1..end].iter().collect();
                let li = inner.to_ascii_lowercase();
                if !li.is_empty() && li.chars().all(|c| c == li.chars().next().unwrap_or(' ')) {
                    if let Some(unit @ ('h' | 'm' | 's')) = li.chars().next() {
                        toks.push(Tok::Elapsed(unit, li.len() as u8));
                        i = end + 1;
                        continue;
                    }
                }
                if let Some(c) = parse_condition(&inner) {
                    cond = Some(c);
                } else if let Some(c) = named_color(&inner) {
                    color = Some(c);
                } else if let Some(cur) = inner.strip_prefix('$') {
                    // `[$€-407]`: a currency symbol with a locale; the symbol is shown.
                    let symbol = cur.split('-').next().unwrap_or("");
                    lit(&mut toks, symbol);
                }
                i = end + 1;
                continue;
            }
            '0' | '#' | '?' => toks.push(Tok::Digit(c as u8)),
            '.' => {
                // `.0` right after seconds are fractions of a second.
                let after_seconds = matches!(
                    toks.last(),
                    Some(Tok::Second(_)) | Some(Tok::Elapsed('s', _))
                );
                if after_seconds && chars.get(i + 1) == Some(&'0') {
                    let n = run_len(&chars, i + 1, '0');
                    toks.push(Tok::SubSecond(n as u8));
                    i += 1 + n;
                    continue;
                }
                toks.push(Tok::Point);
            }
            ',' => toks.push(Tok::Comma),
            '%' => toks.push(Tok::Percent),
            '/' => toks.push(Tok::Slash),
            '@' => toks.push(Tok::Text),
            'E' | 'e' if matches!(chars.get(i + 1), Some('+') | Some('-')) => {
                toks.push(Tok::Exp(chars[i + 1] == '+'));
                i += 2;
                continue;
            }
            _ if src[src.char_indices().nth(i).map_or(0, |(b, _)| b)..]
                .to_ascii_lowercase()
                .starts_with("general") =>
            {
                toks.push(Tok::General);
                i += 7;
                continue;
            }
            _ if lc == 'a'
                && chars[i..]
                    .iter()
                    .take(5)
                    .collect::<String>()
                    .eq_ignore_ascii_case("am/pm") =>
            {
                toks.push(Tok::AmPm(true));
                i += 5;
                continue;
            }
            _ if lc == 'a'
                && chars[i..]
                    .iter()
                    .take(3)
                    .collect::<String>()
                    .eq_ignore_ascii_case("a/p") =>
            {
                toks.push(Tok::AmPm(false));
                i += 3;
                continue;
            }
            _ if matches!(lc, 'y' | 'm' | 'd' | 'h' | 's' | 'e') => {
                let n = run_len(&chars, i, lc);
                let n8 = n.min(255) as u8;
                toks.push(match lc {
                    'y' | 'e' => Tok::Year(n8),
                    'm' => Tok::Month(n8),
                    'd' => Tok::Day(n8),
                    'h' => Tok::Hour(n8),
                    _ => Tok::Second(n8),
                });
                i += n;
                continue;
            }
            _ => lit(&mut toks, c.encode_utf8(&mut [0; 4])),
        }
        i += 1;
    }
    resolve_minutes(&mut toks);
    Section { color, cond, toks }
}

/// `m` means minutes right after an hour or right before a second, months elsewhere.
fn resolve_minutes(toks: &mut [Tok]) {
    let is_part = |t: &Tok| !matches!(t, Tok::Lit(_));
    for i in 0..toks.len() {
        if let Tok::Month(n) = toks[i] {
            if n > 2 {
                continue;
            }
            let prev = toks[..i].iter().rev().find(|t| is_part(t));
            let next = toks[i + 1..].iter().find(|t| is_part(t));
            let after_hour = matches!(prev, Some(Tok::Hour(_)) | Some(Tok::Elapsed('h', _)));
            let before_second = matches!(next, Some(Tok::Second(_)) | Some(Tok::Elapsed('s', _)));
            if after_hour || before_second {
                toks[i] = Tok::Minute(n);
            }
        }
    }
}

impl NumberFormat {
    /// Parses a format code; any string is accepted (unknown characters are literals).
    pub fn parse(code: &str) -> NumberFormat {
        let sections = split_sections(code)
            .into_iter()
            .take(4)
            .map(parse_section)
            .collect();
        NumberFormat { sections }
    }

    /// Whether the code shows values as dates or times (its first section has date parts).
    pub fn is_date(&self) -> bool {
        self.sections.first().is_some_and(Section::is_date)
    }

    /// Whether this is the `General` format (or empty).
    pub fn is_general(&self) -> bool {
        match self.sections.first() {
            None => true,
            Some(s) => s.toks.is_empty() || s.toks == [Tok::General],
        }
    }

    /// Shows a number (dates are serial numbers in the workbook's `date1904` system).
    pub fn format_number(&self, v: f64, date1904: bool) -> Formatted {
        let (section, value, explicit_sign) = self.pick(v);
        let explicit_sign = explicit_sign && v < 0.0;
        let Some(section) = section else {
            return Formatted {
                text: general(v),
                color: None,
            };
        };
        // A number in a text-formatted cell shows as General.
        if section.toks.contains(&Tok::Text)
            && !section.toks.iter().any(|t| matches!(t, Tok::Digit(_)))
        {
            return Formatted {
                text: general(v),
                color: section.color,
            };
        }
        let mut text = if section.is_date() {
            let date = if v < 0.0 {
                None
            } else {
                format_date(section, value, date1904)
            };
            match date {
                Some(t) => t,
                // Outside the calendar a spreadsheet fills the cell with #.
                None => "#".repeat(8),
            }
        } else {
            format_numeric(section, value)
        };
        if explicit_sign && !section.is_date() {
            text.insert(0, '-');
        }
        Formatted {
            text,
            color: section.color,
        }
    }

    /// Shows a text value: through the text section (the fourth, or a lone section that
    /// holds `@`), otherwise as it is.
    pub fn format_text(&self, s: &str) -> Formatted {
        let section = match self.sections.len() {
            4 => Some(&self.sections[3]),
            1 if self.sections[0].toks.contains(&Tok::Text) => Some(&self.sections[0]),
            _ => None,
        };
        let Some(section) = section else {
            return Formatted {
                text: s.to_string(),
                color: None,
            };
        };
        let mut out = String::new();
        for t in &section.toks {
            match t {
                Tok::Lit(l) => out.push_str(l),
                Tok::Text | Tok::General => out.push_str(s),
                _ => {}
            }
        }
        Formatted {
            text: out,
            color: section.color,
        }
    }

    /// The section for `v`, the value it formats, and whether a minus sign must be added
    /// (a lone section, or a conditional one, shows the sign; a negative section does not).
    fn pick(&self, v: f64) -> (Option<&Section>, f64, bool) {
        let s = &self.sections;
        if s.iter().take(2).any(|x| x.cond.is_some()) {
            let hit = s
                .iter()
                .take(2)
                .find(|x| x.cond.is_some_and(|(c, x)| c.test(v, x)));
            let sec = hit
                .or_else(|| s.iter().skip(2).find(|x| !is_text_only(x)))
                .or_else(|| s.iter().take(2).find(|x| x.cond.is_none()));
            return (sec, v.abs(), v < 0.0);
        }
        match s.len() {
            0 => (None, v, false),
            1 => (Some(&s[0]), v.abs(), v < 0.0),
            _ if v > 0.0 => (Some(&s[0]), v, false),
            _ if v < 0.0 => (Some(&s[1]), -v, false),
            n if n >= 3 => (Some(&s[2]), 0.0, false),
            _ => (Some(&s[0]), 0.0, false),
        }
    }
}

fn is_text_only(s: &Section) -> bool {
    s.toks.contains(&Tok::Text)
}

/// The `General` format: up to 11 characters, switching to scientific notation for
/// numbers too large or too small to fit.
pub fn general(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return "#NUM!".into();
    }
    let abs = v.abs();
    if (1e-9..1e11).contains(&abs) {
        // Round to the digits that fit in 11 characters (sign and point included).
        let int_digits = if abs >= 1.0 {
            abs.log10().floor() as i32 + 1
        } else {
            1
        };
        let room = 11 - int_digits - 1 - i32::from(v < 0.0);
        let mut decimals = room.clamp(0, 15) as usize;
        // Numbers below 1 lose significant digits to leading zeros.
        loop {
            let s = format!("{:.*}", decimals, v);
            let trimmed = trim_fraction(&s);
            if trimmed.len() <= 11 || decimals == 0 {
                if trimmed == "0" || trimmed == "-0" {
                    break;
                }
                return trimmed;
            }
            decimals -= 1;
        }
    }
    // Scientific: five decimals at most, trailing zeros trimmed.
    let s = format!("{:.5E}", v);
    let (mantissa, exp) = s.split_once('E').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mantissa = trim_fraction(mantissa);
    format!(
        "{mantissa}E{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

fn trim_fraction(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Rounds half away from zero to `decimals` places, rounding the decimal that is shown:
/// 1.005 is stored as 1.00499…, and a spreadsheet still shows it as 1.01.
fn round_to(v: f64, decimals: usize) -> f64 {
    let f = 10f64.powi(decimals.min(15) as i32);
    let x = v * f;
    let x = if (x.abs().fract() - 0.5).abs() < 1e-9 {
        x + x.signum() * 1e-9
    } else {
        x
    };
    x.round() / f
}

fn format_numeric(section: &Section, mut v: f64) -> String {
    let toks = &section.toks;
    if toks.iter().any(|t| matches!(t, Tok::General)) {
        let mut out = String::new();
        for t in toks {
            match t {
                Tok::Lit(l) => out.push_str(l),
                Tok::General => out.push_str(&general(v)),
                _ => {}
            }
        }
        return out;
    }
    let percent = toks.iter().filter(|t| matches!(t, Tok::Percent)).count();
    v *= 100f64.powi(percent as i32);
    if let Some(slash) = toks.iter().position(|t| matches!(t, Tok::Slash)) {
        if toks[..slash].iter().any(|t| matches!(t, Tok::Digit(_)))
            && toks[slash..].iter().any(|t| {
                matches!(t, Tok::Digit(_))
                    || matches!(t, Tok::Lit(l) if l.chars().any(|c| c.is_ascii_digit()))
            })
        {
            return format_fraction(toks, slash, v);
        }
    }
    // The number pattern: digit placeholders, points and commas in the first numeric run.
    let last_digit = toks.iter().rposition(|t| matches!(t, Tok::Digit(_)));
    let Some(last_digit) = last_digit else {
        // No placeholders: literals only (e.g. "-" for zero).
        return toks
            .iter()
            .filter_map(|t| match t {
                Tok::Lit(l) => Some(l.as_str()),
                _ => None,
            })
            .collect();
    };
    // Trailing commas right after the last placeholder scale by 1000 each.
    let mut scale = 0;
    let mut j = last_digit + 1;
    while matches!(toks.get(j), Some(Tok::Comma)) {
        scale += 1;
        j += 1;
    }
    let exp_at = toks.iter().position(|t| matches!(t, Tok::Exp(_)));
    let mant_end = exp_at.unwrap_or(toks.len());
    let point = toks[..mant_end]
        .iter()
        .position(|t| matches!(t, Tok::Point));
    let int_end = point.unwrap_or(mant_end);
    let int_ph: Vec<u8> = toks[..int_end]
        .iter()
        .filter_map(|t| match t {
            Tok::Digit(d) => Some(*d),
            _ => None,
        })
        .collect();
    let frac_ph: Vec<u8> = point.map_or(Vec::new(), |p| {
        toks[p + 1..mant_end]
            .iter()
            .filter_map(|t| match t {
                Tok::Digit(d) => Some(*d),
                _ => None,
            })
            .collect()
    });
    let first_digit = toks
        .iter()
        .position(|t| matches!(t, Tok::Digit(_)))
        .unwrap_or(0);
    let grouping = toks[first_digit..int_end.min(last_digit + 1)]
        .iter()
        .any(|t| matches!(t, Tok::Comma));
    v /= 1000f64.powi(scale);

    let (int_str, frac_str, exp_str) = if let Some(e) = exp_at {
        let Tok::Exp(plus) = toks[e] else {
            unreachable!()
        };
        let exp_ph = toks[e + 1..]
            .iter()
            .take_while(|t| matches!(t, Tok::Digit(_)))
            .count()
            .max(1);
        // Engineering-style codes (##0.0E+0) keep the exponent a multiple of the
        // integer placeholder count.
        let step = if int_ph.len() > 1 && int_ph.contains(&b'#') {
            int_ph.len() as i32
        } else {
            1
        };
        let mut exp = if v == 0.0 {
            0
        } else {
            v.log10().floor() as i32
        };
        exp = exp.div_euclid(step) * step;
        if step == 1 && int_ph.len() > 1 {
            exp -= int_ph.len() as i32 - 1;
        }
        let mut m = v / 10f64.powi(exp);
        m = round_to(m, frac_ph.len());
        if m >= 10f64.powi(int_ph.len().max(step as usize) as i32) {
            m /= 10f64.powi(step);
            exp += step;
        }
        let (i, f) = split_digits(m, frac_ph.len());
        let sign = if exp < 0 {
            "-"
        } else if plus {
            "+"
        } else {
            ""
        };
        let exp_s = format!("E{sign}{:0width$}", exp.abs(), width = exp_ph);
        (i, f, Some(exp_s))
    } else {
        let r = round_to(v, frac_ph.len());
        let (i, f) = split_digits(r, frac_ph.len());
        (i, f, None)
    };
    // Integer digits laid over the placeholders, right-aligned; extra digits go to the
    // leftmost placeholder, missing ones pad as the placeholder says.
    let int_digits: Vec<char> = if int_str == "0" {
        Vec::new()
    } else {
        int_str.chars().collect()
    };
    let mut digits_written = String::new();
    let pad = int_ph.len().saturating_sub(int_digits.len());
    if pad == 0 {
        digits_written.extend(int_digits.iter());
    } else {
        for (k, ph) in int_ph.iter().enumerate() {
            if k < pad {
                match ph {
                    b'0' => digits_written.push('0'),
                    b'?' => digits_written.push(' '),
                    _ => {}
                }
            } else {
                digits_written.push(int_digits[k - pad]);
            }
        }
    }
    let int_out = if grouping {
        group_thousands(&digits_written)
    } else {
        digits_written
    };
    // Fraction digits: trailing zeros become nothing (#) or spaces (?).
    let mut frac_out: Vec<char> = frac_str.chars().collect();
    for k in (0..frac_ph.len()).rev() {
        if frac_out[k] != '0' {
            break;
        }
        match frac_ph[k] {
            b'#' => {
                frac_out.pop();
            }
            b'?' => frac_out[k] = ' ',
            _ => break,
        }
    }

    // Walk the tokens, emitting literals in place and the number at its placeholders.
    let mut out = String::new();
    let mut int_done = false;
    let mut frac_done = false;
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Lit(l) => out.push_str(l),
            Tok::Percent => out.push('%'),
            Tok::Digit(_) if k < int_end && !int_done => {
                out.push_str(&int_out);
                int_done = true;
            }
            Tok::Digit(_) if k < int_end => {}
            Tok::Point if Some(k) == point => {
                if !int_done {
                    out.push_str(&int_out);
                    int_done = true;
                }
                out.push('.');
            }
            Tok::Digit(_) if exp_at.is_none_or(|e| k < e) && !frac_done => {
                out.extend(frac_out.iter());
                frac_done = true;
            }
            Tok::Exp(_) => {
                if let Some(e) = &exp_str {
                    out.push_str(e);
                }
            }
            Tok::Slash => out.push('/'),
            _ => {}
        }
    }
    out
}

/// Splits a rounded non-negative number into its integer digits and `decimals` fraction
/// digits.
fn split_digits(v: f64, decimals: usize) -> (String, String) {
    let s = format!("{:.*}", decimals, v.abs());
    match s.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (s, String::new()),
    }
}

fn group_thousands(digits: &str) -> String {
    let lead: String = digits.chars().take_while(|c| !c.is_ascii_digit()).collect();
    let body = &digits[lead.len()..];
    let mut out = lead;
    let n = body.len();
    for (i, c) in body.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `# ?/?`, `# ??/??`, `?/8`: a whole part (when the code has one) and a fraction whose
/// denominator has at most as many digits as its placeholders (or is the fixed one).
fn format_fraction(toks: &[Tok], slash: usize, v: f64) -> String {
    // Placeholder groups: [whole] [numerator] / [denominator].
    let before = &toks[..slash];
    let groups: Vec<(usize, usize)> = {
        let mut g = Vec::new();
        let mut k = 0;
        while k < before.len() {
            if matches!(before[k], Tok::Digit(_)) {
                let s = k;
                while k < before.len() && matches!(before[k], Tok::Digit(_) | Tok::Comma) {
                    k += 1;
                }
                g.push((s, k));
            } else {
                k += 1;
            }
        }
        g
    };
    let has_whole = groups.len() >= 2;
    let after = &toks[slash + 1..];
    let den_ph = after
        .iter()
        .take_while(|t| matches!(t, Tok::Digit(_)))
        .count();
    let fixed_den: Option<u64> = if den_ph == 0 {
        match after.first() {
            Some(Tok::Lit(l)) => l.trim().parse().ok(),
            _ => None,
        }
    } else {
        None
    };
    let (whole, frac) = if has_whole {
        (v.trunc(), v.fract())
    } else {
        (0.0, v)
    };
    let (num, den) = match fixed_den {
        Some(d) if d > 0 => ((frac * d as f64).round() as u64, d),
        _ => best_fraction(frac, 10u64.pow(den_ph.clamp(1, 7) as u32) - 1),
    };
    let (whole, num) = if !has_whole && fixed_den.is_none() {
        (0.0, num)
    } else if den > 0 && num >= den && has_whole {
        (whole + (num / den) as f64, num % den)
    } else {
        (whole, num)
    };
    let pad = |s: String, w: usize| format!("{s:>w$}");
    let mut out = String::new();
    for t in &toks[..groups.first().map_or(0, |g| g.0)] {
        if let Tok::Lit(l) = t {
            out.push_str(l);
        }
    }
    let num_w = groups.last().map_or(1, |g| g.1 - g.0);
    if has_whole {
        let w = format!("{}", whole as i64);
        if num == 0 {
            out.push_str(&w);
            return out;
        }
        if whole != 0.0 {
            out.push_str(&w);
        }
        out.push(' ');
    }
    out.push_str(&pad(num.to_string(), num_w));
    out.push('/');
    match fixed_den {
        Some(d) => out.push_str(&d.to_string()),
        None => out.push_str(&format!("{den:<den_ph$}")),
    }
    out.trim_end().to_string()
}

/// The closest fraction to `x` (0 ≤ x < 1 usually) with a denominator up to `max_den`
/// (a Stern–Brocot walk).
fn best_fraction(x: f64, max_den: u64) -> (u64, u64) {
    let whole = x.floor();
    let f = x - whole;
    let (mut a, mut b, mut c, mut d) = (0u64, 1u64, 1u64, 1u64);
    let mut best = (0u64, 1u64);
    let mut best_err = f;
    if (1.0 - f) < best_err {
        best = (1, 1);
        best_err = 1.0 - f;
    }
    while b + d <= max_den {
        let (n, m) = (a + c, b + d);
        let mid = n as f64 / m as f64;
        let err = (mid - f).abs();
        if err < best_err {
            best = (n, m);
            best_err = err;
        }
        if err == 0.0 {
            break;
        }
        if mid < f {
            a = n;
            b = m;
        } else {
            c = n;
            d = m;
        }
    }
    (best.0 + whole as u64 * best.1, best.1)
}

/// A civil date and time of day from a serial number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// Year.
    pub year: i32,
    /// Month, 1–12.
    pub month: u32,
    /// Day, 0–31 (day 0 is the "January 0, 1900" of serial 0).
    pub day: u32,
    /// Weekday, 0 = Sunday.
    pub weekday: u32,
    /// Milliseconds into the day.
    pub millis: u64,
}

fn civil_from_days(z: i64) -> (i32, u32, u32) {
    // Days since 1970-01-01 to a proleptic Gregorian date.
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    ((y + i64::from(m <= 2)) as i32, m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    // The inverse of `civil_from_days`: a proleptic Gregorian date to days since 1970-01-01.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The serial number of a civil date (the inverse of [`serial_to_datetime`] for dates from
/// 1 March 1900, or from 1904 in the 1904 system). A day past the month's end rolls into
/// the next month, as spreadsheets' DATE does.
pub fn civil_to_serial(year: i32, month: u32, day: u32, date1904: bool) -> f64 {
    let days = days_from_civil(i64::from(year), month.clamp(1, 12), 1) + i64::from(day) - 1;
    (if date1904 {
        days + 24_107
    } else {
        days + 25_569
    }) as f64
}

/// Converts a serial number to a date, keeping the 1900 system's phantom 29 February
/// (serial 60) that spreadsheets carry for compatibility. `None` outside 0..=2958465.
pub fn serial_to_datetime(serial: f64, date1904: bool, sub_second_digits: u8) -> Option<DateTime> {
    if !(0.0..2_958_466.0).contains(&serial) {
        return None;
    }
    // Round to the shown precision first so 23:59:59.9 does not become day + 24:00.
    let unit = 10f64.powi(3 - i32::from(sub_second_digits.min(3)));
    let total_ms = ((serial * 86_400_000.0) / unit).round() * unit;
    let days = (total_ms / 86_400_000.0).floor() as i64;
    let millis = (total_ms - days as f64 * 86_400_000.0) as u64;
    let (year, month, day, weekday);
    if date1904 {
        // 1904-01-01 is 12,418 days after 1970-01-01 backwards.
        let (y, m, d) = civil_from_days(days - 24_107);
        (year, month, day) = (y, m, d);
        weekday = ((days + 5) % 7) as u32;
    } else {
        if days == 0 {
            (year, month, day) = (1900, 1, 0);
        } else if days == 60 {
            (year, month, day) = (1900, 2, 29);
        } else {
            let offset = if days < 60 {
                days - 25_568
            } else {
                days - 25_569
            };
            let (y, m, d) = civil_from_days(offset);
            (year, month, day) = (y, m, d);
        }
        weekday = ((days + 6) % 7) as u32;
    }
    Some(DateTime {
        year,
        month,
        day,
        weekday,
        millis,
    })
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

fn format_date(section: &Section, v: f64, date1904: bool) -> Option<String> {
    let sub = section
        .toks
        .iter()
        .find_map(|t| match t {
            Tok::SubSecond(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0);
    let dt = serial_to_datetime(v, date1904, sub)?;
    let ampm = section.toks.iter().any(|t| matches!(t, Tok::AmPm(_)));
    let secs = dt.millis / 1000;
    let (h24, min, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let mut out = String::new();
    for t in &section.toks {
        match *t {
            Tok::Lit(ref l) => out.push_str(l),
            Tok::Year(n) => {
                if n <= 2 {
                    let _ = write!(out, "{:02}", dt.year.rem_euclid(100));
                } else {
                    let _ = write!(out, "{}", dt.year);
                }
            }
            Tok::Month(n) => {
                let name = MONTHS[(dt.month as usize).saturating_sub(1).min(11)];
                match n {
                    1 => {
                        let _ = write!(out, "{}", dt.month);
                    }
                    2 => {
                        let _ = write!(out, "{:02}", dt.month);
                    }
                    3 => out.push_str(&name[..3]),
                    5 => out.push_str(&name[..1]),
                    _ => out.push_str(name),
                }
            }
            Tok::Day(n) => {
                let name = DAYS[dt.weekday as usize % 7];
                match n {
                    1 => {
                        let _ = write!(out, "{}", dt.day);
                    }
                    2 => {
                        let _ = write!(out, "{:02}", dt.day);
                    }
                    3 => out.push_str(&name[..3]),
                    _ => out.push_str(name),
                }
            }
            Tok::Hour(n) => {
                let h = if ampm {
                    match h24 % 12 {
                        0 => 12,
                        h => h,
                    }
                } else {
                    h24
                };
                if n >= 2 {
                    let _ = write!(out, "{h:02}");
                } else {
                    let _ = write!(out, "{h}");
                }
            }
            Tok::Minute(n) => {
                if n >= 2 {
                    let _ = write!(out, "{min:02}");
                } else {
                    let _ = write!(out, "{min}");
                }
            }
            Tok::Second(n) => {
                if n >= 2 {
                    let _ = write!(out, "{s:02}");
                } else {
                    let _ = write!(out, "{s}");
                }
            }
            Tok::SubSecond(n) => {
                let frac = dt.millis % 1000;
                let digits = format!("{frac:03}");
                out.push('.');
                out.push_str(&digits[..(n as usize).min(3)]);
            }
            Tok::Elapsed(unit, n) => {
                let total_secs = (v * 86_400.0).round() as u64;
                let value = match unit {
                    'h' => total_secs / 3600,
                    'm' => total_secs / 60,
                    _ => total_secs,
                };
                let _ = write!(out, "{value:0width$}", width = n as usize);
            }
            Tok::AmPm(full) => {
                let pm = h24 >= 12;
                out.push_str(match (full, pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "A",
                    (false, true) => "P",
                });
            }
            Tok::Digit(_) => out.push('0'),
            Tok::Point => out.push('.'),
            Tok::Slash => out.push('/'),
            Tok::Comma => out.push(','),
            Tok::Percent => out.push('%'),
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(code: &str, v: f64) -> String {
        NumberFormat::parse(code).format_number(v, false).text
    }

    #[test]
    fn general_fits_eleven_characters() {
        assert_eq!(general(0.0), "0");
        assert_eq!(general(42.0), "42");
        assert_eq!(general(-3.5), "-3.5");
        assert_eq!(general(1.0 / 3.0), "0.333333333");
        assert_eq!(general(123456789.123), "123456789.1");
        assert_eq!(general(12345678901.0), "12345678901");
        assert_eq!(general(123456789012.0), "1.23457E+11");
        assert_eq!(general(0.00000000012), "1.2E-10");
    }

    #[test]
    fn decimals_thousands_percent() {
        assert_eq!(f("0", 2.5), "3");
        assert_eq!(f("0.00", 1.005), "1.01");
        assert_eq!(f("#,##0", 1234567.0), "1,234,567");
        assert_eq!(f("#,##0.00", -1234.5), "-1,234.50");
        assert_eq!(f("0%", 0.256), "26%");
        assert_eq!(f("0.00%", 0.5), "50.00%");
        assert_eq!(f("#,##0,", 1234567.0), "1,235");
        assert_eq!(f("0.0,,\"M\"", 12_345_678.0), "12.3M");
        assert_eq!(f("#.##", 3.1), "3.1");
        assert_eq!(f("000", 7.0), "007");
        assert_eq!(f("#", 0.0), "");
    }

    #[test]
    fn sections_currency_and_colours() {
        let code = builtin(8).unwrap();
        let fmt = NumberFormat::parse(code);
        assert_eq!(fmt.format_number(1234.5, false).text, "$1,234.50 ");
        let neg = fmt.format_number(-1234.5, false);
        assert_eq!(neg.text, "($1,234.50)");
        assert_eq!(neg.color, Some(FormatColor(0xFF0000)));
        let acct = NumberFormat::parse(builtin(44).unwrap());
        assert_eq!(acct.format_number(0.0, false).text, " $-   ");
        assert_eq!(acct.format_number(12.0, false).text, " $12.00 ");
        assert_eq!(f("[$€-407] #,##0.00", 5.0), "€ 5.00");
        assert_eq!(f("0;-0;\"zero\"", 0.0), "zero");
    }

    #[test]
    fn conditions_in_the_code() {
        let fmt = NumberFormat::parse("[Red][<=100]0;[Blue][>100]0");
        assert_eq!(
            fmt.format_number(50.0, false).color,
            Some(FormatColor(0xFF0000))
        );
        assert_eq!(
            fmt.format_number(150.0, false).color,
            Some(FormatColor(0x0000FF))
        );
        assert_eq!(fmt.format_number(150.0, false).text, "150");
    }

    #[test]
    fn scientific_and_fractions() {
        assert_eq!(f("0.00E+00", 12345.0), "1.23E+04");
        assert_eq!(f("0.00E+00", 0.00012), "1.20E-04");
        assert_eq!(f("##0.0E+0", 12345.0), "12.3E+3");
        assert_eq!(f("# ?/?", 1.5), "1 1/2");
        assert_eq!(f("# ??/??", 2.1416), "2 14/99");
        assert_eq!(f("?/8", 0.375), "3/8");
        assert_eq!(f("# ?/?", 2.0), "2");
    }

    #[test]
    fn civil_dates_turn_back_into_serials() {
        assert_eq!(civil_to_serial(2023, 3, 15, false), 45000.0);
        assert_eq!(civil_to_serial(2023, 3, 15, true), 45000.0 - 1462.0);
        assert_eq!(civil_to_serial(1900, 3, 1, false), 61.0);
        // A day past the month's end rolls over, as DATE(2023, 2, 29) does.
        assert_eq!(
            civil_to_serial(2023, 2, 29, false),
            civil_to_serial(2023, 3, 1, false)
        );
        for serial in [61.0, 40087.0, 41361.0, 2_958_465.0] {
            let d = serial_to_datetime(serial, false, 0).unwrap();
            assert_eq!(civil_to_serial(d.year, d.month, d.day, false), serial);
        }
    }

    #[test]
    fn dates_in_both_systems() {
        // 45000 is 15 March 2023 in the 1900 system; 1904 is 1,462 days later.
        assert_eq!(f("yyyy-mm-dd", 45000.0), "2023-03-15");
        let fmt = NumberFormat::parse("yyyy-mm-dd");
        assert_eq!(fmt.format_number(45000.0 - 1462.0, true).text, "2023-03-15");
        assert_eq!(f(builtin(14).unwrap(), 1.0), "1/1/1900");
        assert_eq!(f(builtin(14).unwrap(), 60.0), "2/29/1900");
        assert_eq!(f(builtin(14).unwrap(), 61.0), "3/1/1900");
        assert_eq!(f(builtin(15).unwrap(), 45000.0), "15-Mar-23");
        assert_eq!(f("dddd, mmmm d", 45000.0), "Wednesday, March 15");
        assert_eq!(f(builtin(22).unwrap(), 45000.75), "3/15/2023 18:00");
        assert_eq!(f(builtin(18).unwrap(), 0.5), "12:00 PM");
        assert_eq!(f(builtin(19).unwrap(), 0.25 + 1.0 / 86400.0), "6:00:01 AM");
        assert_eq!(f(builtin(46).unwrap(), 1.5), "36:00:00");
        assert_eq!(f(builtin(47).unwrap(), 1.25 / 1440.0), "01:15.0");
        assert_eq!(f("h:mm", 0.999_999), "0:00");
        assert!(NumberFormat::parse("mmm-yy").is_date());
        assert!(!NumberFormat::parse("0.00").is_date());
    }

    #[test]
    fn text_sections() {
        let fmt = NumberFormat::parse("0;-0;0;\"[\"@\"]\"");
        assert_eq!(fmt.format_text("x").text, "[x]");
        assert_eq!(NumberFormat::parse("@").format_text("abc").text, "abc");
        assert_eq!(f("@", -12345.6789), "-12345.6789");
        assert_eq!(NumberFormat::parse("0.00").format_text("abc").text, "abc");
    }
}
