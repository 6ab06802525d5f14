//! The ratio chart (`ratios.svg`): for each workload, one bar per system,
//! the runtime's time divided by that system's (below 1: the runtime is
//! faster), with the legend beside the plot rather than over the bars.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::strategies::REFERENCE;

/// Bars stop at this ratio so that the others stay legible; a bar that
/// reaches it carries a triangle above it (the value is in results.md).
const CAP: f64 = 4.0;
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 680;
/// The legend's column, right of the plot.
const LEGEND_WIDTH: u32 = 230;

/// One system's bars: its ratio on each workload (`None`: not run there).
pub struct Series {
    pub name: &'static str,
    pub ratios: Vec<Option<f64>>,
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
    let top = CAP * 1.08;
    let mut chart = ChartBuilder::on(&plot)
        .caption(
            format!("{REFERENCE}'s time ÷ each system's time (below 1: {REFERENCE} is faster)"),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(190)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc("workload")
        .y_desc(format!("{REFERENCE}'s time ÷ the system's"))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;

    let width = 0.84 / series.len() as f64;
    for (j, s) in series.iter().enumerate() {
        let color = color(j);
        let x0 = |k: usize| k as f64 - 0.42 + j as f64 * width;
        chart.draw_series(s.ratios.iter().enumerate().filter_map(|(k, r)| {
            let r = (*r)?.min(CAP);
            Some(Rectangle::new(
                [(x0(k), 0.0), (x0(k) + width * 0.85, r)],
                color.filled(),
            ))
        }))?;
        chart.draw_series(
            s.ratios
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_some_and(|r| r > CAP))
                .map(|(k, _)| {
                    TriangleMarker::new((x0(k) + width * 0.42, CAP * 1.035), 5, BLACK.filled())
                }),
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
        let (x, y) = chart.backend_coord(&(k as f64, 0.0));
        plot.draw(&Text::new(short(name), (x, y + 8), label.clone()))?;
    }

    draw_legend(&legend, series)?;
    root.present()?;
    Ok(())
}

/// The legend's column: a swatch and a name per system, then the two marks.
fn draw_legend(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>> {
    let text = ("sans-serif", 15).into_font();
    let note = ("sans-serif", 13).into_font();
    let mut y = 60;
    area.draw(&Text::new("systems", (10, y), text.clone()))?;
    y += 26;
    for (j, s) in series.iter().enumerate() {
        area.draw(&Rectangle::new([(10, y), (26, y + 14)], color(j).filled()))?;
        area.draw(&Text::new(s.name, (34, y), text.clone()))?;
        y += 24;
    }
    y += 16;
    area.draw(&PathElement::new(
        vec![(10, y + 7), (26, y + 7)],
        BLACK.stroke_width(2),
    ))?;
    area.draw(&Text::new("1: the same time", (34, y), note.clone()))?;
    y += 24;
    area.draw(&TriangleMarker::new((18, y + 7), 5, BLACK.filled()))?;
    area.draw(&Text::new(
        format!("bar capped at {CAP}"),
        (34, y),
        note.clone(),
    ))?;
    area.draw(&Text::new("(value in results.md)", (34, y + 17), note))?;
    Ok(())
}

/// A workload's name as the axis shows it: a long one without its
/// parenthesised details (results.md has them), so that it fits.
fn short(name: &str) -> String {
    const FITS: usize = 34;
    match name.split_once(" (") {
        Some((base, _)) if name.chars().count() > FITS => base.to_owned(),
        _ => name.to_owned(),
    }
}

fn color(j: usize) -> RGBAColor {
    Palette99::pick(j).to_rgba()
}
