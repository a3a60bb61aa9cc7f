//! Automatic value-axis scaling, the rule Excel and PowerPoint follow in the common case.
//!
//! Given the lowest and highest value the axis must show (stacked sums for stacked
//! charts, shares for 100 % charts):
//!
//! 1. **Minimum.** Zero when the data allows it: all values ≥ 0 and the spread
//!    `hi − lo` is more than a sixth of `hi` (Excel's "16.667 % rule"); likewise the
//!    maximum is zero for all-negative data whose spread is more than a sixth of `|lo|`.
//!    Otherwise the axis starts half the spread below the lowest value, rounded down to
//!    a whole major unit (so a 95–100 range is not drawn from 0).
//! 2. **Major unit.** The span is divided into at most `intervals` parts (the caller
//!    derives that from the axis length and the label size, about one interval per two
//!    label heights), and the unit is the smallest 1, 2 or 5 × 10ⁿ that does it.
//! 3. **Maximum.** The highest value plus 5 % of the span (a bar never ends on the frame),
//!    rounded up to a whole major unit; the minimum of mixed-sign data the same way down.
//! 4. Fixed `c:min`, `c:max` and `c:majorUnit` replace the automatic choice of each; a
//!    100 % chart runs from 0 (or −100 %) to 100 % in steps of 10 % or more.
//!
//! Ticks are capped at [`MAX_TICKS`]: a fixed unit too small for the span is widened.

/// Most ticks an axis draws.
pub const MAX_TICKS: usize = 100;

/// Most minor ticks an axis draws (a minor unit far smaller than the range draws none
/// rather than a solid block of lines).
pub const MAX_MINOR_TICKS: usize = 500;

/// A value axis's range and major unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// The axis's lowest value.
    pub min: f64,
    /// The axis's highest value.
    pub max: f64,
    /// The major unit: the distance between ticks.
    pub step: f64,
}

impl Scale {
    /// The scale for data from `lo` to `hi` (either may be infinite when there is no
    /// data) with the fixed bounds the axis sets.
    pub fn auto(
        lo: f64,
        hi: f64,
        fixed_min: Option<f64>,
        fixed_max: Option<f64>,
        fixed_step: Option<f64>,
        intervals: f64,
        percent: bool,
    ) -> Scale {
        let intervals = if intervals.is_finite() {
            intervals.clamp(1.0, 50.0)
        } else {
            5.0
        };
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        if percent {
            lo = if lo < 0.0 { -1.0 } else { 0.0 };
            hi = if hi > 0.0 || lo == 0.0 { 1.0 } else { 0.0 };
        }
        let fmin = fixed_min.filter(|v| v.is_finite());
        let fmax = fixed_max.filter(|v| v.is_finite());
        // Zero-based when the data allows (rule 1).
        let mut min = match fmin {
            Some(m) => m,
            None if lo >= 0.0 && (hi == 0.0 || hi - lo > hi / 6.0) => 0.0,
            None if lo >= 0.0 => lo - (hi - lo) / 2.0,
            None => lo,
        };
        let mut max = match fmax {
            Some(m) => m,
            None if hi <= 0.0 && (lo == 0.0 || hi - lo > -lo / 6.0) => 0.0,
            None if hi <= 0.0 => hi + (hi - lo) / 2.0,
            None => hi,
        };
        let degenerate = max <= min;
        if degenerate {
            // All values equal (or fixed bounds crossed): a unit-wide axis around them.
            if fmax.is_none() {
                max = min + if min == 0.0 { 1.0 } else { min.abs() };
            } else {
                min = max - if max == 0.0 { 1.0 } else { max.abs() };
            }
        }
        let headroom = |span: f64| if degenerate { 0.0 } else { span * 0.05 };
        let span = max - min;
        let step = match fixed_step.filter(|s| s.is_finite() && *s > 0.0) {
            Some(s) => s,
            None if percent => nice((span / intervals).max(0.1)),
            None => nice((span + headroom(span)) / intervals),
        };
        if fmax.is_none() && !percent {
            let top = if max > 0.0 { max + headroom(span) } else { max };
            max = (top / step).ceil() * step;
        }
        if fmin.is_none() && !percent {
            let bottom = if min < 0.0 { min - headroom(span) } else { min };
            min = (bottom / step).floor() * step;
            if lo >= 0.0 && min < 0.0 {
                min = 0.0;
            }
        }
        let step = if (max - min) / step > MAX_TICKS as f64 {
            (max - min) / MAX_TICKS as f64
        } else {
            step
        };
        Scale { min, max, step }
    }

    /// The tick values from `min` to `max`, at most [`MAX_TICKS`] + 1.
    pub fn ticks(&self) -> Vec<f64> {
        let count = ((self.max - self.min) / self.step + 1e-9).floor();
        if !count.is_finite() || count < 0.0 {
            return vec![self.min];
        }
        (0..=(count as usize).min(MAX_TICKS))
            .map(|i| {
                let v = self.min + self.step * i as f64;
                // Cancel the float noise of repeated steps (0.30000000000000004).
                let r = (v / self.step).round() * self.step;
                if (r - v).abs() < self.step * 1e-6 {
                    (r * 1e9).round() / 1e9
                } else {
                    v
                }
            })
            .collect()
    }

    /// The minor tick values: every `unit` (Office's default, a fifth of the major unit,
    /// when `None`) from `min` to `max`, leaving out those on a major tick. None when
    /// there would be more than [`MAX_MINOR_TICKS`].
    pub fn minor_ticks(&self, unit: Option<f64>) -> Vec<f64> {
        let unit = unit
            .filter(|u| u.is_finite() && *u > 0.0)
            .unwrap_or(self.step / 5.0);
        let span = self.max - self.min;
        if unit.is_nan() || unit <= 0.0 || !span.is_finite() || span / unit > MAX_MINOR_TICKS as f64
        {
            return Vec::new();
        }
        let on_major = |v: f64| {
            let k = (v - self.min) / self.step;
            (k - k.round()).abs() < 1e-6
        };
        let first = (self.min / unit - 1e-9).ceil() as i64;
        let last = (self.max / unit + 1e-9).floor() as i64;
        (first..=last)
            .map(|k| k as f64 * unit)
            .filter(|v| !on_major(*v))
            .collect()
    }

    /// Where `v` lies between `min` (0) and `max` (1).
    pub fn fraction(&self, v: f64) -> f64 {
        let span = self.max - self.min;
        if span <= 0.0 {
            0.0
        } else {
            (v - self.min) / span
        }
    }

    /// `v` moved into the axis range (bars beyond a fixed bound end at the frame).
    pub fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }
}

/// The smallest 1, 2 or 5 × 10ⁿ at least `rough`.
fn nice(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(rough.log10().floor());
    let r = rough / magnitude;
    magnitude
        * if r <= 1.0 + 1e-9 {
            1.0
        } else if r <= 2.0 + 1e-9 {
            2.0
        } else if r <= 5.0 + 1e-9 {
            5.0
        } else {
            10.0
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(lo: f64, hi: f64) -> Scale {
        Scale::auto(lo, hi, None, None, None, 6.0, false)
    }

    #[test]
    fn zero_based_when_the_data_allows() {
        // 3 and 5: 0 to 6 in ones (5 + 5 % headroom, rounded up).
        assert_eq!(
            s(3.0, 5.0),
            Scale {
                min: 0.0,
                max: 6.0,
                step: 1.0
            }
        );
        // 10 to 95: 0 to 100 by 20.
        assert_eq!(
            s(10.0, 95.0),
            Scale {
                min: 0.0,
                max: 100.0,
                step: 20.0
            }
        );
        // Negative only: the maximum is zero.
        let neg = s(-40.0, -5.0);
        assert_eq!((neg.max, neg.min), (0.0, -50.0));
        // Mixed signs: both ends get headroom.
        let mixed = s(-3.0, 7.0);
        assert!(mixed.min < -3.0 && mixed.max > 7.0 && mixed.min <= 0.0);
    }

    #[test]
    fn round_steps_with_headroom() {
        let scale = |lo, hi, n| {
            let s = Scale::auto(lo, hi, None, None, None, n, false);
            (s.min, s.max, s.step)
        };
        // 5 plus 5 % is 5.25: up to 6 in steps of 1 when six intervals fit, of 2 when three.
        assert_eq!(scale(0.0, 5.0, 6.0), (0.0, 6.0, 1.0));
        assert_eq!(scale(0.0, 5.0, 3.0), (0.0, 6.0, 2.0));
        assert_eq!(scale(2.0, 4.3, 5.0), (0.0, 5.0, 1.0));
        assert_eq!(scale(0.0, 870.0, 5.0), (0.0, 1000.0, 200.0));
        assert_eq!(scale(-3.0, 7.0, 5.0), (-5.0, 10.0, 5.0));
        assert_eq!(scale(0.0, 0.0, 5.0), (0.0, 1.0, 0.2));
        let ticks = Scale::auto(0.0, 0.25, None, None, None, 10.0, false).ticks();
        assert_eq!(ticks[..4], [0.0, 0.05, 0.1, 0.15]);
    }

    #[test]
    fn narrow_ranges_are_not_drawn_from_zero() {
        // 95 to 100: the spread is under a sixth of 100, so the axis starts below 95.
        let narrow = s(95.0, 100.0);
        assert!(narrow.min > 80.0 && narrow.min < 95.0, "{narrow:?}");
        assert!(narrow.max >= 100.0);
    }

    #[test]
    fn minor_ticks_divide_the_major_unit_and_skip_the_major_ticks() {
        let s = Scale {
            min: 0.0,
            max: 1.0,
            step: 0.2,
        };
        let auto = s.minor_ticks(None);
        // Fifths of 0.2 from 0 to 1: 26 values less the 6 major ones.
        assert_eq!(auto.len(), 20);
        assert!((auto[0] - 0.04).abs() < 1e-9 && (auto[19] - 0.96).abs() < 1e-9);
        let fixed = s.minor_ticks(Some(0.1));
        assert_eq!(fixed.len(), 5, "{fixed:?}");
        assert!(fixed.iter().all(|v| ((v * 10.0).round() as i64) % 2 == 1));
        // A unit far below the range: none rather than a solid block.
        assert!(s.minor_ticks(Some(1e-6)).is_empty());
        assert!(s.minor_ticks(Some(f64::NAN)).len() == 20);
    }

    #[test]
    fn fixed_bounds_and_units_win_and_ticks_are_capped() {
        let f = Scale::auto(3.0, 5.0, Some(2.0), Some(8.0), Some(0.5), 6.0, false);
        assert_eq!(
            f,
            Scale {
                min: 2.0,
                max: 8.0,
                step: 0.5
            }
        );
        assert_eq!(f.ticks().len(), 13);
        let tiny = Scale::auto(0.0, 1e9, None, None, Some(1e-9), 6.0, false);
        assert!(tiny.ticks().len() <= MAX_TICKS + 1);
        let p = Scale::auto(0.0, 1.0, None, None, None, 10.0, true);
        assert_eq!((p.min, p.max), (0.0, 1.0));
        assert_eq!(p.ticks()[3], 0.3);
    }

    #[test]
    fn degenerate_input_gives_a_usable_axis() {
        for (lo, hi) in [
            (f64::NAN, 1.0),
            (f64::INFINITY, f64::NEG_INFINITY),
            (4.0, 4.0),
            (0.0, 0.0),
        ] {
            let a = s(lo, hi);
            assert!(a.max > a.min && a.step > 0.0, "{lo} {hi}: {a:?}");
            assert!(!a.ticks().is_empty());
        }
    }
}
