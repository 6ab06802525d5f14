//! The summary that `cargo xtask bench` prints before anything else: per
//! workload, rt's figure, the fastest peer's name and figure, and rt's
//! figure ÷ that peer's.
//!
//! Each benchmark writes its section to `<out>/summary/<bench>.tsv`: a
//! first line `# <title>`, then one line per workload of six tab-separated
//! cells, already worded: the workload, rt's figure, the best peer's name,
//! its figure, rt ÷ best peer, and the noise mark ([`NOISY`], or nothing).
//! xtask lays the cells out in columns; the words are chosen here.

use std::path::Path;

use crate::format::{self, Unit};

/// The mark of a line whose verdict the noise could change: the ratio of
/// the medians and the ratio of the fastest rounds fall on different sides
/// of 1.
pub const NOISY: &str = "~";

/// One system's figure on one workload: the median over rounds and, when
/// there were several rounds, the fastest one (the cost when nothing
/// interrupted it).
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// The median over rounds.
    pub median: f64,
    /// The fastest round, when there were several.
    pub fastest: Option<f64>,
}

impl Measured {
    /// From every round's figure (empty: `None`).
    pub fn of_rounds(rounds: &[f64]) -> Option<Measured> {
        if rounds.is_empty() {
            return None;
        }
        let mut sorted = rounds.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Measured {
            median,
            fastest: (n > 1).then_some(sorted[0]),
        })
    }

    /// A single figure (a percentile over thousands of samples, say), with
    /// no rounds to compare.
    pub fn single(value: f64) -> Measured {
        Measured {
            median: value,
            fastest: None,
        }
    }
}

/// One workload's line.
#[derive(Debug)]
pub struct Line {
    workload: String,
    unit: Unit,
    rt: Option<Measured>,
    peer: Option<(String, Measured)>,
}

impl Line {
    /// rt's figure against the best (lowest median) of `peers`; a peer
    /// with no figure (not run, timed out) is left out.
    pub fn new<'a>(
        workload: impl Into<String>,
        unit: Unit,
        rt: Option<Measured>,
        peers: impl IntoIterator<Item = (&'a str, Option<Measured>)>,
    ) -> Line {
        let peer = peers
            .into_iter()
            .filter_map(|(name, m)| Some((name, m?)))
            .filter(|(_, m)| m.median.is_finite())
            .min_by(|a, b| a.1.median.total_cmp(&b.1.median))
            .map(|(name, m)| (name.to_owned(), m));
        Line {
            workload: workload.into(),
            unit,
            rt,
            peer,
        }
    }

    /// The workload's name as the summary shows it.
    pub fn rename(&mut self, workload: impl Into<String>) {
        self.workload = workload.into();
    }

    /// rt's median ÷ the best peer's: below 1, rt is faster.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.rt?.median / self.peer.as_ref()?.1.median)
    }

    /// Whether the fastest rounds give the other verdict than the medians
    /// (one says rt is faster, the other that it is not).
    pub fn noisy(&self) -> bool {
        let (Some(ratio), Some(rt), Some((_, peer))) = (self.ratio(), self.rt, &self.peer) else {
            return false;
        };
        match (rt.fastest, peer.fastest) {
            (Some(a), Some(b)) => (ratio < 1.0) != (a / b < 1.0),
            _ => false,
        }
    }

    /// The six cells, worded.
    fn cells(&self) -> [String; 6] {
        let figure = |m: Option<&Measured>| {
            m.map_or_else(|| "—".to_owned(), |m| format::figure(m.median, self.unit))
        };
        [
            self.workload.clone(),
            figure(self.rt.as_ref()),
            self.peer
                .as_ref()
                .map_or_else(|| "—".to_owned(), |(n, _)| n.clone()),
            figure(self.peer.as_ref().map(|(_, m)| m)),
            self.ratio().map_or_else(|| "—".to_owned(), format::ratio),
            if self.noisy() { NOISY } else { "" }.to_owned(),
        ]
    }
}

/// One benchmark's part of the summary.
#[derive(Debug)]
pub struct Section {
    bench: &'static str,
    title: String,
    lines: Vec<Line>,
}

impl Section {
    /// `bench` names the file (the bench target's name); `title` heads the
    /// section: what is measured and against whom.
    pub fn new(bench: &'static str, title: impl Into<String>) -> Section {
        Section {
            bench,
            title: title.into(),
            lines: Vec::new(),
        }
    }

    /// Adds a workload's line.
    pub fn push(&mut self, line: Line) {
        self.lines.push(line);
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut out = format!("# {}\n", clean(&self.title));
        for line in &self.lines {
            let cells: Vec<String> = line.cells().iter().map(|c| clean(c)).collect();
            out.push_str(&cells.join("\t"));
            out.push('\n');
        }
        out
    }

    /// Writes the section to `out/summary/<bench>.tsv`; a section that
    /// cannot be written is reported, not fatal (the full report is
    /// written anyway).
    pub fn write(&self, out: &Path) {
        let dir = out.join("summary");
        let path = dir.join(format!("{}.tsv", self.bench));
        if let Err(error) =
            std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, self.text()))
        {
            eprintln!("could not write {}: {error}", path.display());
        }
    }
}

/// A cell without the characters that delimit cells and lines.
fn clean(text: &str) -> String {
    text.replace(['\t', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds(v: &[f64]) -> Option<Measured> {
        Measured::of_rounds(v)
    }

    #[test]
    fn the_best_peer_is_the_one_with_the_lowest_median() {
        let line = Line::new(
            "w",
            Unit::Millis,
            rounds(&[2.0]),
            [
                ("slow", rounds(&[8.0])),
                ("missing", None),
                ("fast", rounds(&[4.0])),
            ],
        );
        assert_eq!(line.cells()[2], "fast");
        assert_eq!(line.ratio(), Some(0.5));
        assert_eq!(line.cells()[4], "0.50");
    }

    #[test]
    fn a_tiny_ratio_reads_below_one_hundredth_not_zero() {
        let line = Line::new("w", Unit::Micros, rounds(&[1.0]), [("p", rounds(&[500.0]))]);
        assert_eq!(line.cells()[4], "< 0.01");
    }

    #[test]
    fn noise_is_flagged_only_where_the_fastest_rounds_reverse_the_verdict() {
        // Medians: rt 0.9 of the peer; fastest rounds: rt 1.25 of it.
        let flips = Line::new(
            "w",
            Unit::Millis,
            rounds(&[5.0, 9.0, 20.0]),
            [("p", rounds(&[4.0, 10.0, 11.0]))],
        );
        assert!(flips.noisy());
        assert_eq!(flips.cells()[5], NOISY);
        // Widely spread rounds that agree with the medians are not flagged.
        let agrees = Line::new(
            "w",
            Unit::Millis,
            rounds(&[1.0, 5.0, 30.0]),
            [("p", rounds(&[2.0, 10.0, 40.0]))],
        );
        assert!(!agrees.noisy());
        assert_eq!(agrees.cells()[5], "");
    }

    #[test]
    fn single_figures_are_never_flagged() {
        let line = Line::new(
            "w",
            Unit::Micros,
            Some(Measured::single(10.0)),
            [("p", Some(Measured::single(9.0)))],
        );
        assert!(!line.noisy());
    }

    #[test]
    fn a_missing_figure_is_a_dash_and_no_ratio() {
        let line = Line::new("w", Unit::Millis, None, [("p", rounds(&[1.0]))]);
        let cells = line.cells();
        assert_eq!((cells[1].as_str(), cells[4].as_str()), ("—", "—"));
        let alone = Line::new("w", Unit::Millis, rounds(&[1.0]), []);
        assert_eq!(alone.cells()[2], "—");
    }

    #[test]
    fn the_file_is_a_title_line_then_six_tab_separated_cells_per_line() {
        let mut section = Section::new("b", "a\ttitle");
        section.push(Line::new(
            "work\tload",
            Unit::NanosPerTask,
            rounds(&[300.0]),
            [("peer", rounds(&[600.0]))],
        ));
        assert_eq!(
            section.text(),
            "# a title\nwork load\t300 ns/task\tpeer\t600 ns/task\t0.50\t\n"
        );
    }
}
