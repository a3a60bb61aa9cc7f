//! Date axes (`c:dateAx`). Office places a date axis's points by their dates, not by their
//! order: the axis runs from the first date to the last in slots of one base unit (a day,
//! a month or a year, `c:baseTimeUnit`), a missing date is an empty slot, and a table
//! sorted newest first still reads left to right in time. Its labels fall every major unit
//! (`c:majorUnit` in `c:majorTimeUnit`s) from the axis's start rather than under every
//! category.
//!
//! [`DateGrid::new`] turns the plots of a date axis into plots whose point `k` is slot `k`,
//! so the bar, line and area drawing need not know about dates.

use super::model::{Axis, Plot, Series, TimeUnit};
use crate::office::xlsx::numfmt::{civil_to_serial, serial_to_datetime, NumberFormat};

/// Most slots a date axis spreads its points over; a longer span (ten years of days …)
/// keeps the categories in their order, one slot each.
const MAX_SLOTS: usize = 4_000;

/// Most tick labels drawn on a date axis.
const MAX_TICKS: usize = 200;

/// The label format of a date axis with none of its own and a source without one.
const DEFAULT_FORMAT: &str = "m/d/yyyy";

/// Steps tried for an automatic major unit, shortest first.
const AUTO_STEPS: [(u32, TimeUnit); 15] = [
    (1, TimeUnit::Days),
    (2, TimeUnit::Days),
    (7, TimeUnit::Days),
    (14, TimeUnit::Days),
    (1, TimeUnit::Months),
    (2, TimeUnit::Months),
    (3, TimeUnit::Months),
    (6, TimeUnit::Months),
    (1, TimeUnit::Years),
    (2, TimeUnit::Years),
    (5, TimeUnit::Years),
    (10, TimeUnit::Years),
    (20, TimeUnit::Years),
    (50, TimeUnit::Years),
    (100, TimeUnit::Years),
];

/// The plots of a date axis, re-laid on its slots.
#[derive(Debug)]
pub(super) struct DateGrid {
    /// The plots, every series' point moved to its date's slot (`None` between).
    pub plots: Vec<Plot>,
    /// Slots on the axis, first date to last.
    pub slots: usize,
    /// The base unit of a slot.
    base: TimeUnit,
    /// The first slot's date (the axis minimum).
    start: (i32, u32, u32),
    /// The first slot's number ([`slot_of`]).
    first: i64,
    date1904: bool,
    /// The fixed major step, when the axis sets one.
    major: Option<(u32, TimeUnit)>,
    /// The labels' format code.
    format: String,
}

impl DateGrid {
    /// The grid of `axis`, a date axis, over `plots`; `None` when their categories are not
    /// dates (text categories on a date axis keep their order, as in Office) or span more
    /// than [`MAX_SLOTS`] slots.
    pub fn new(axis: &Axis, plots: &[&Plot], date1904: bool) -> Option<DateGrid> {
        // Office gives every series the categories of the first that has them.
        let shared = plots
            .iter()
            .flat_map(|p| p.series.iter())
            .find(|s| s.category_numbers.iter().any(Option::is_some))?;
        let dates = |s: &Series| -> Vec<Option<f64>> {
            if s.category_numbers.iter().any(Option::is_some) {
                s.category_numbers.clone()
            } else {
                shared.category_numbers.clone()
            }
        };
        let all: Vec<f64> = shared
            .category_numbers
            .iter()
            .flatten()
            .copied()
            .filter(|d| d.is_finite() && *d >= 1.0)
            .collect();
        let base = axis
            .base_time_unit
            .unwrap_or_else(|| natural_unit(&all, date1904));
        let lo = axis.min.or_else(|| all.iter().copied().reduce(f64::min))?;
        let hi = axis.max.or_else(|| all.iter().copied().reduce(f64::max))?;
        // Both ends must be real dates (serials 0 to 31 December 9999).
        serial_to_datetime(hi.floor(), date1904, 0)?;
        let (first, last) = (slot_of(lo, base, date1904)?, slot_of(hi, base, date1904)?);
        let slots = usize::try_from(last.checked_sub(first)?.checked_add(1)?).ok()?;
        if slots == 0 || slots > MAX_SLOTS {
            return None;
        }
        let start = serial_to_datetime(lo.floor(), date1904, 0)?;
        let plots = plots
            .iter()
            .map(|p| {
                let mut p = (*p).clone();
                for s in &mut p.series {
                    regrid(s, &dates(s), base, first, slots, date1904);
                }
                p
            })
            .collect();
        let format = axis
            .format_code
            .clone()
            .or_else(|| shared.category_format.clone())
            .filter(|f| !f.eq_ignore_ascii_case("general"))
            .unwrap_or_else(|| DEFAULT_FORMAT.to_owned());
        Some(DateGrid {
            plots,
            slots,
            base,
            start: (start.year, start.month, start.day.max(1)),
            first,
            date1904,
            major: axis.major_unit.map(|n| {
                (
                    n.round().clamp(1.0, 10_000.0) as u32,
                    axis.major_time_unit.unwrap_or(base),
                )
            }),
            format,
        })
    }

    /// The major ticks: each one's slot and label. Without a fixed major unit the step is
    /// the shortest of Office's usual ones whose labels, each `label_width(text)` wide, fit
    /// apart along an axis `length` long.
    pub fn ticks(&self, length: f64, label_width: &dyn Fn(&str) -> f64) -> Vec<(usize, String)> {
        let fmt = NumberFormat::parse(&self.format);
        let label = |serial: f64| fmt.format_number(serial, self.date1904).text;
        let per_slot = length / self.slots as f64;
        let step = self.major.unwrap_or_else(|| {
            let widest = label_width(&label(self.serial_after(0, TimeUnit::Days)));
            AUTO_STEPS
                .iter()
                .copied()
                .filter(|(_, unit)| *unit >= self.base)
                .find(|step| slots_per(*step, self.base) * per_slot >= widest * 1.3)
                .unwrap_or(AUTO_STEPS[AUTO_STEPS.len() - 1])
        });
        let mut out = Vec::new();
        for k in 0..MAX_TICKS as u32 {
            let serial = self.serial_after(k.saturating_mul(step.0), step.1);
            let Some(at) = slot_of(serial, self.base, self.date1904) else {
                break;
            };
            let Some(Ok(slot)) = at.checked_sub(self.first).map(usize::try_from) else {
                break;
            };
            if slot >= self.slots {
                break;
            }
            if out.last().is_some_and(|(s, _)| *s == slot) {
                continue;
            }
            out.push((slot, label(serial)));
        }
        out
    }

    /// The serial of the date `n` units after the axis start.
    fn serial_after(&self, n: u32, unit: TimeUnit) -> f64 {
        let (y, m, d) = self.start;
        match unit {
            TimeUnit::Days => civil_to_serial(y, m, d, self.date1904) + f64::from(n),
            TimeUnit::Months => {
                let months = i64::from(y) * 12 + i64::from(m - 1) + i64::from(n);
                let (y, m) = (
                    months.div_euclid(12) as i32,
                    months.rem_euclid(12) as u32 + 1,
                );
                civil_to_serial(y, m, d.min(days_in(y, m)), self.date1904)
            }
            TimeUnit::Years => {
                let y = y.saturating_add(n as i32);
                civil_to_serial(y, m, d.min(days_in(y, m)), self.date1904)
            }
        }
    }
}

/// Moves a series' points to their dates' slots.
fn regrid(
    s: &mut Series,
    dates: &[Option<f64>],
    base: TimeUnit,
    first: i64,
    slots: usize,
    date1904: bool,
) {
    let mut values = vec![None; slots];
    let mut categories = vec![String::new(); slots];
    let mut moved: Vec<Option<usize>> = vec![None; s.values.len()];
    for (i, v) in s.values.iter().enumerate() {
        let Some(slot) = dates
            .get(i)
            .copied()
            .flatten()
            .and_then(|d| slot_of(d, base, date1904))
            .and_then(|k| usize::try_from(k.checked_sub(first)?).ok())
            .filter(|k| *k < slots)
        else {
            continue;
        };
        values[slot] = *v;
        categories[slot] = s.categories.get(i).cloned().unwrap_or_default();
        moved[i] = Some(slot);
    }
    let to = |i: usize| moved.get(i).copied().flatten();
    s.points
        .retain_mut(|p| to(p.index).map(|k| p.index = k).is_some());
    s.point_labels
        .retain_mut(|p| to(p.index).map(|k| p.index = k).is_some());
    s.values = values;
    s.categories = categories;
    s.category_levels.clear();
    s.category_numbers.clear();
}

/// The slot number of a date in `base` units (days since the epoch, months or years
/// since year 0).
fn slot_of(serial: f64, base: TimeUnit, date1904: bool) -> Option<i64> {
    match base {
        TimeUnit::Days => serial.is_finite().then(|| serial.floor() as i64),
        _ => {
            let d = serial_to_datetime(serial.floor(), date1904, 0)?;
            Some(match base {
                TimeUnit::Months => i64::from(d.year) * 12 + i64::from(d.month) - 1,
                _ => i64::from(d.year),
            })
        }
    }
}

/// The unit the dates themselves suggest: years when every date is a 1 January, months
/// when every one is a first of the month, else days.
fn natural_unit(dates: &[f64], date1904: bool) -> TimeUnit {
    let civil: Vec<_> = dates
        .iter()
        .filter_map(|d| serial_to_datetime(*d, date1904, 0))
        .collect();
    if civil.is_empty() || civil.iter().any(|d| d.day != 1) {
        TimeUnit::Days
    } else if civil.iter().all(|d| d.month == 1) {
        TimeUnit::Years
    } else {
        TimeUnit::Months
    }
}

/// About how many `base` slots one `step` covers.
fn slots_per((n, unit): (u32, TimeUnit), base: TimeUnit) -> f64 {
    let days = |u: TimeUnit| match u {
        TimeUnit::Days => 1.0,
        TimeUnit::Months => 30.44,
        TimeUnit::Years => 365.25,
    };
    f64::from(n) * days(unit) / days(base)
}

fn days_in(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
