//! How the reports write their numbers, so that every table and the
//! summary say the same thing the same way.

/// The unit a figure is measured in. Every figure of the reports is a cost:
/// lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds of wall time.
    Millis,
    /// Microseconds (latencies, time per request).
    Micros,
    /// Nanoseconds of wall time per task.
    NanosPerTask,
}

impl Unit {
    /// The unit's symbol, as written after a figure.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Millis => "ms",
            Unit::Micros => "µs",
            Unit::NanosPerTask => "ns/task",
        }
    }
}

/// A figure with about three significant digits: `1234`, `56.7`, `8.90`.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        "—".to_owned()
    } else if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// A figure and its unit: `2.41 ms`, `412 ns/task`; microseconds from
/// 1,000 up read as milliseconds, milliseconds as seconds.
pub fn figure(value: f64, unit: Unit) -> String {
    match unit {
        _ if !value.is_finite() => "—".to_owned(),
        Unit::Micros if value >= 1e3 => format!("{} ms", number(value / 1e3)),
        Unit::Millis if value >= 1e3 => format!("{} s", number(value / 1e3)),
        _ => format!("{} {}", number(value), unit.symbol()),
    }
}

/// A count with its thousands grouped: `131,071`.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A ratio of two costs: two decimals, `< 0.01` for a ratio that would
/// round to zero (it never is zero), fewer decimals from 10 up.
pub fn ratio(r: f64) -> String {
    if !r.is_finite() {
        "—".to_owned()
    } else if r < 0.01 {
        "< 0.01".to_owned()
    } else {
        number(r)
    }
}

/// A speed-up over a baseline (the baseline's time ÷ the system's): `1.93×`
/// above 1, `0.56×` (a slow-down) below.
pub fn speedup(baseline: f64, time: f64) -> String {
    format!("{}×", ratio(baseline / time))
}

/// A workload's name shortened to fit `width` characters where space is
/// scarce (the summary, a chart's axis): a long one loses its parenthesised
/// details (the full tables have them), and what still does not fit is cut
/// with `…`.
pub fn short_name(name: &str, width: usize) -> String {
    let name = match name.split_once(" (") {
        Some((base, _)) if name.chars().count() > width => base,
        _ => name,
    };
    if name.chars().count() <= width {
        name.to_owned()
    } else {
        let kept: String = name.chars().take(width.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_that_would_round_to_zero_reads_below_one_hundredth() {
        assert_eq!(ratio(0.004), "< 0.01");
        assert_eq!(ratio(0.0099), "< 0.01");
        assert_eq!(ratio(0.0), "< 0.01");
        assert_eq!(ratio(0.01), "0.01");
    }

    #[test]
    fn ratios_keep_about_three_significant_digits() {
        assert_eq!(ratio(0.456), "0.46");
        assert_eq!(ratio(1.0), "1.00");
        assert_eq!(ratio(12.34), "12.3");
        assert_eq!(ratio(456.7), "457");
    }

    #[test]
    fn a_missing_or_undefined_ratio_is_a_dash() {
        assert_eq!(ratio(f64::NAN), "—");
        assert_eq!(ratio(f64::INFINITY), "—");
        assert_eq!(figure(f64::NAN, Unit::Millis), "—");
    }

    #[test]
    fn figures_carry_their_unit() {
        assert_eq!(figure(2.414, Unit::Millis), "2.41 ms");
        assert_eq!(figure(412.3, Unit::NanosPerTask), "412 ns/task");
        assert_eq!(figure(48.26, Unit::Micros), "48.3 µs");
    }

    #[test]
    fn large_figures_move_to_the_next_unit() {
        assert_eq!(figure(23_890.0, Unit::Micros), "23.9 ms");
        assert_eq!(figure(999.0, Unit::Micros), "999 µs");
        assert_eq!(figure(1_283.0, Unit::Millis), "1.28 s");
        assert_eq!(figure(5_000.0, Unit::NanosPerTask), "5000 ns/task");
    }

    #[test]
    fn counts_group_their_thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000), "1,000");
        assert_eq!(count(131_071), "131,071");
        assert_eq!(count(12_345_678), "12,345,678");
    }

    #[test]
    fn a_long_name_loses_its_details_then_its_end() {
        assert_eq!(short_name("cpu_light (2w)", 32), "cpu_light (2w)");
        assert_eq!(
            short_name("fan_out_and_join (200 empty tasks, caller joins)", 32),
            "fan_out_and_join"
        );
        assert_eq!(short_name("abcdefgh", 5), "abcd…");
        assert_eq!(short_name("abcdefgh", 5).chars().count(), 5);
    }

    #[test]
    fn a_speed_up_below_one_is_written_as_such() {
        assert_eq!(speedup(10.0, 5.0), "2.00×");
        assert_eq!(speedup(5.0, 9.0), "0.56×");
    }
}
