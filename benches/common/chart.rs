//! The ratio chart (`ratios.svg`): for each workload, one bar per system,
//! the runtime's time divided by that system's, on a log axis so that 0.01
//! and 100 are as legible as 0.9 and 1.1. Bars start at 1 (the same time):
//! down where the runtime is faster, up where it is slower. A system that
//! cannot run a workload gets a cross on the 1 line instead of a bar. The
//! legend sits beside the plot, not over the bars.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use rt_bench_report::format;

use super::strategies::REFERENCE;

const WIDTH: u32 = 1400;
const HEIGHT: u32 = 720;
/// The legend's column, right of the plot.
const LEGEND_WIDTH: u32 = 250;
/// The axis always spans at least these ratios, whatever the data.
const LEAST_RANGE: (f64, f64) = (0.01, 100.0);

/// One system's bars: its ratio on each workload (`None`: not run there).
pub struct Series {
    pub name: &'static str,
    pub ratios: Vec<Option<f64>>,
}

/// Ten colours that stay apart from each other (the "category10" palette
/// of d3 and Tableau), one per system; more systems than that reuse them.
const COLOURS: [(u8, u8, u8); 10] = [
    (31, 119, 180),  // blue
    (255, 127, 14),  // orange
    (44, 160, 44),   // green
    (214, 39, 40),   // red
    (148, 103, 189), // purple
    (140, 86, 75),   // brown
    (227, 119, 194), // pink
    (127, 127, 127), // grey
    (188, 189, 34),  // olive
    (23, 190, 207),  // cyan
];

fn colour(j: usize) -> RGBColor {
    let (r, g, b) = COLOURS[j % COLOURS.len()];
    RGBColor(r, g, b)
}

/// The axis range: powers of ten around every ratio, at least
/// [`LEAST_RANGE`].
fn axis_range(series: &[Series]) -> (f64, f64) {
    let ratios = series.iter().flat_map(|s| s.ratios.iter().flatten());
    let positive = ratios.copied().filter(|r| *r > 0.0 && r.is_finite());
    let (lo, hi) = positive.fold(LEAST_RANGE, |(lo, hi), r| (lo.min(r), hi.max(r)));
    (
        10f64.powf(lo.log10().floor()),
        10f64.powf(hi.log10().ceil()),
    )
}

/// A power of ten as the axis writes it: `0.01`, `1`, `100`.
fn tick(value: f64) -> String {
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_owned()
}

/// Draws the chart of `series` over `workloads` into `path`.
pub fn draw(
    path: &Path,
    workloads: &[&str],
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot, legend) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
    let n = workloads.len() as f64;
    let (lo, hi) = axis_range(series);
    let mut chart = ChartBuilder::on(&plot)
        .caption(
            format!("{REFERENCE}'s time ÷ each system's time (log scale; below 1: {REFERENCE} is faster)"),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(190)
        .y_label_area_size(60)
        // A little room beyond the outer powers of ten, so that their
        // labels are drawn.
        .build_cartesian_2d(-0.5f64..n - 0.5, (lo * 0.8..hi * 1.25).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(((hi / lo).log10().round() as usize + 1).max(2))
        .y_label_formatter(&|v| tick(*v))
        .x_desc("workload")
        .y_desc(format!("{REFERENCE}'s time ÷ the system's"))
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 14))
        .draw()?;

    let width = 0.84 / series.len().max(1) as f64;
    for (j, s) in series.iter().enumerate() {
        let colour = colour(j);
        let x0 = |k: usize| k as f64 - 0.42 + j as f64 * width;
        let x1 = |k: usize| x0(k) + width * 0.85;
        let present = || {
            s.ratios
                .iter()
                .enumerate()
                .filter_map(|(k, r)| Some((k, (*r)?.clamp(lo, hi))))
        };
        // The bar from 1 to the ratio, and a cap at the ratio so that a
        // ratio near 1 still shows.
        chart.draw_series(
            present().map(|(k, r)| {
                Rectangle::new([(x0(k), 1.0), (x1(k), r)], colour.mix(0.85).filled())
            }),
        )?;
        chart.draw_series(present().map(|(k, r)| {
            PathElement::new(vec![(x0(k), r), (x1(k), r)], colour.stroke_width(2))
        }))?;
        chart.draw_series(
            s.ratios
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_none())
                .map(|(k, _)| Cross::new(((x0(k) + x1(k)) / 2.0, 1.0), 3, BLACK.stroke_width(1))),
        )?;
    }
    chart.draw_series(LineSeries::new(
        vec![(-0.5, 1.0), (n - 0.5, 1.0)],
        BLACK.stroke_width(2),
    ))?;

    // Workload names below the axis, each starting at its group's centre
    // and running downwards, so no part of one is hidden behind the bars.
    let label = ("sans-serif", 14)
        .into_font()
        .transform(FontTransform::Rotate90)
        .into_text_style(&plot)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (k, name) in workloads.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(k as f64, lo * 0.8));
        plot.draw(&Text::new(
            format::short_name(name, 34),
            (x, y + 8),
            label.clone(),
        ))?;
    }

    draw_legend(&legend, series)?;
    root.present()?;
    Ok(())
}

/// The legend's column: a swatch and a name per system, in the bars' order
/// (left to right within a workload), then the marks.
fn draw_legend(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>> {
    let text = ("sans-serif", 15).into_font();
    let note = ("sans-serif", 13).into_font();
    let mut y = 60;
    area.draw(&Text::new("systems (left to right)", (10, y), text.clone()))?;
    y += 26;
    for (j, s) in series.iter().enumerate() {
        area.draw(&Rectangle::new([(10, y), (26, y + 14)], colour(j).filled()))?;
        area.draw(&Text::new(s.name, (34, y), text.clone()))?;
        y += 24;
    }
    y += 16;
    area.draw(&PathElement::new(
        vec![(10, y + 7), (26, y + 7)],
        BLACK.stroke_width(2),
    ))?;
    area.draw(&Text::new(
        "1: the same time; bars up:",
        (34, y),
        note.clone(),
    ))?;
    area.draw(&Text::new(
        format!("{REFERENCE} slower, down: faster"),
        (34, y + 17),
        note.clone(),
    ))?;
    y += 42;
    area.draw(&Cross::new((18, y + 7), 3, BLACK.stroke_width(1)))?;
    area.draw(&Text::new(
        "not run: the system cannot",
        (34, y),
        note.clone(),
    ))?;
    area.draw(&Text::new("run that workload", (34, y + 17), note.clone()))?;
    y += 42;
    area.draw(&Text::new("values: results.md", (10, y), note))?;
    Ok(())
}
