//! The summary `cargo xtask bench` prints first, laid out for a terminal
//! of a given width: one section per benchmark, one line per workload.
//!
//! Each benchmark writes its section (see `benches/report/summary.rs`) as a first
//! line `# <title>`, then one line per workload of six tab-separated cells,
//! already worded: workload, rt's figure, the best peer's name, its figure,
//! rt ÷ best peer, and a noise mark. Here they are only laid out: names
//! left-aligned, figures right-aligned, and the workload column narrowed
//! (names cut with `…`) until every line fits.

/// The mark a benchmark puts on a line whose verdict the noise could
/// change.
const NOISY: &str = "~";

/// The column headings, in the order of a line's cells.
const HEADINGS: [&str; 5] = ["workload", "rt", "best peer", "its figure", "rt ÷ peer"];

/// One benchmark's section.
#[derive(Debug, PartialEq)]
pub struct Section {
    title: String,
    lines: Vec<[String; 6]>,
}

/// Reads a section from a benchmark's summary file.
pub fn parse(text: &str) -> Result<Section, String> {
    let mut lines = text.lines();
    let title = lines
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .ok_or("a summary file must start with `# TITLE`")?
        .to_owned();
    let lines = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let cells: Vec<String> = l.split('\t').map(str::to_owned).collect();
            <[String; 6]>::try_from(cells)
                .map_err(|c| format!("a summary line has {} cells, not 6: {l:?}", c.len()))
        })
        .collect::<Result<_, _>>()?;
    Ok(Section { title, lines })
}

/// The summary: a heading, the column headings, each section's title and
/// lines, then what the marks mean. No line is wider than `width`
/// characters.
pub fn render(sections: &[Section], width: usize) -> String {
    let chars = |s: &str| s.chars().count();
    // The widest cell of each figure column (1 to 4), headings included.
    let mut widths = HEADINGS.map(chars);
    for line in sections.iter().flat_map(|s| &s.lines) {
        for (w, cell) in widths.iter_mut().zip(line.iter()).skip(1) {
            *w = (*w).max(chars(cell));
        }
    }
    let noisy = sections
        .iter()
        .flat_map(|s| &s.lines)
        .any(|l| l[5] == NOISY);
    // Indent, four gaps of two, the figure columns, and a mark column.
    let mark = if noisy { 2 } else { 0 };
    let rest = 2 + 4 * 2 + widths[1..].iter().sum::<usize>() + mark;
    let longest = sections
        .iter()
        .flat_map(|s| &s.lines)
        .map(|l| chars(&l[0]))
        .max()
        .unwrap_or(0)
        .max(chars(HEADINGS[0]));
    widths[0] = longest.min(width.saturating_sub(rest)).max(8);

    let row = |cells: [&str; 5], mark_cell: &str| {
        let mut text = format!(
            "  {:<w0$}  {:>w1$}  {:<w2$}  {:>w3$}  {:>w4$}",
            cut(cells[0], widths[0]),
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4],
        );
        if !mark_cell.is_empty() {
            text.push(' ');
            text.push_str(mark_cell);
        }
        text.trim_end().to_owned()
    };
    let mut out = vec![
        cut(
            "Summary (every figure is a cost, lower is better; rt ÷ peer below 1: rt is faster)",
            width,
        ),
        String::new(),
        row(HEADINGS, ""),
    ];
    for section in sections {
        out.push(cut(&section.title, width));
        for l in &section.lines {
            out.push(row([&l[0], &l[1], &l[2], &l[3], &l[4]], &l[5]));
        }
    }
    if noisy {
        out.push(String::new());
        out.push(cut(
            &format!(
                "{NOISY} the fastest rounds give the other verdict: the noise of the machine \
                 could reverse it"
            ),
            width,
        ));
    }
    out.join("\n") + "\n"
}

/// `text` in at most `width` characters, cut with `…`.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(width.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A summary file as `benches/report/summary.rs` writes it.
    const COMPARE: &str =
        "# tasks on a pool: rt vs global queue, rayon, threadpool, qubit fixed, tokio\n\
        many_small_tasks\t2.41 ms\tglobal queue\t1.70 ms\t1.42\t\n\
        spawn_overhead (handles)\t61.2 ns/task\ttokio\t133 ns/task\t0.46\t~\n\
        chained_spawn (1,000 links)\t88.0 ns/task\t—\t—\t—\t\n";

    fn width_of(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn reads_a_title_and_six_cells_per_line() {
        let section = parse(COMPARE).unwrap();
        assert_eq!(section.lines.len(), 3);
        assert_eq!(section.lines[1][2], "tokio");
        assert_eq!(section.lines[1][5], "~");
        assert!(parse("no title\n").is_err());
        assert!(parse("# t\na\tb\n").is_err());
    }

    #[test]
    fn every_line_fits_a_hundred_columns_even_with_long_names() {
        let long = format!(
            "# {}\n{}\t1234 ns/task\ttwo tokio runtimes, fg+bg\t5678 ns/task\t< 0.01\t~\n",
            "a very long title ".repeat(10),
            "a workload whose name goes on and on ".repeat(4)
        );
        let text = render(&[parse(COMPARE).unwrap(), parse(&long).unwrap()], 100);
        assert!(width_of(&text) <= 100, "{text}");
        assert!(text.contains("…"));
        assert!(text.contains("< 0.01"));
    }

    #[test]
    fn names_are_not_cut_when_they_fit() {
        let text = render(&[parse(COMPARE).unwrap()], 100);
        assert!(text.contains("spawn_overhead (handles)"));
        assert!(!text.contains("…"));
    }

    #[test]
    fn columns_line_up_across_sections() {
        let other = "# second\nfib(27)\t40.1 ms\trayon join\t41.0 ms\t0.98\t\n";
        let text = render(&[parse(COMPARE).unwrap(), parse(other).unwrap()], 100);
        let ratio_end = |needle: &str| {
            let line = text.lines().find(|l| l.contains(needle)).unwrap();
            let at = line.find(needle).unwrap();
            line[..at + needle.len()].chars().count()
        };
        assert_eq!(ratio_end("1.42"), ratio_end("0.98"));
    }

    #[test]
    fn the_noise_mark_is_explained_only_when_used() {
        let quiet = "# q\nw\t1 ms\tp\t2 ms\t0.50\t\n";
        assert!(!render(&[parse(quiet).unwrap()], 100).contains("other verdict"));
        assert!(render(&[parse(COMPARE).unwrap()], 100).contains("~ the fastest rounds"));
    }

    #[test]
    fn there_is_no_column_of_rt_against_itself() {
        let text = render(&[parse(COMPARE).unwrap()], 100);
        assert!(!text.contains("÷ rt "));
        assert!(!text.lines().any(|l| l.trim_end().ends_with("1.00")));
    }
}
