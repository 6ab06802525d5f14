//! `Trace::write_svg`: the trace as a picture, one lane per worker, a box
//! per task coloured by priority, idle time in grey, and a black tick on
//! tasks that were stolen; white is time a worker was busy outside any task
//! (the key above the lanes says so). Drawn with plotters (feature `svg`).

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rt_queue::Priority;

use crate::observe::trace::{Source, Trace, TracedTask};

/// "1 worker", "2 workers".
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn colour(priority: Priority) -> RGBColor {
    match priority {
        Priority::High => RGBColor(214, 39, 40),
        Priority::Normal => RGBColor(31, 119, 180),
        Priority::Background => RGBColor(44, 160, 44),
    }
}

impl Trace {
    /// Draws the trace as an SVG timeline at `path`: one lane per worker,
    /// time from left to right, a box per task coloured by priority (High
    /// red, Normal blue, Background green; a task nested inside another,
    /// run while it waited, is drawn in the lower half of the lane), idle
    /// intervals in light grey, and a black tick at the start of each task
    /// another worker stole. White is time a worker was busy outside any
    /// task: running a `join` half (not a task, so not in the trace), the
    /// code that called `install`, or looking for work.
    pub fn write_svg(&self, path: impl AsRef<Path>) -> Result<(), Box<dyn std::error::Error>> {
        let start = self
            .tasks
            .iter()
            .map(|t| t.start_ns)
            .chain(self.idle.iter().map(|i| i.start_ns))
            .min()
            .unwrap_or(0);
        let end = self
            .tasks
            .iter()
            .map(|t| t.end_ns)
            .chain(self.idle.iter().map(|i| i.end_ns))
            .max()
            .unwrap_or(1)
            .max(start + 1);
        let ms = |ns: u64| ns.saturating_sub(start) as f64 / 1e6;
        let threads = self.threads();
        let lanes = threads.max(1) as f64;
        let height = u32::try_from(150 + 80 * threads).unwrap_or(u32::MAX);
        let root = SVGBackend::new(path.as_ref(), (1400, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let (key, plot) = root.split_vertically(62);
        key.draw(&Text::new(
            match threads - self.workers {
                0 => format!(
                    "{} on {} over {:.2} ms",
                    counted(self.tasks.len(), "task"),
                    counted(self.workers, "worker"),
                    ms(end)
                ),
                extra => format!(
                    "{} on {} and {} over {:.2} ms",
                    counted(self.tasks.len(), "task"),
                    counted(self.workers, "worker"),
                    counted(extra, "compensating thread"),
                    ms(end)
                ),
            },
            (10, 8),
            ("sans-serif", 18).into_font(),
        ))?;
        key.draw(&Text::new(
            "box: a task (red High, blue Normal, green Background; half height: run nested \
             inside a task that waited) · black tick: a stolen task · grey: idle, parked \
             with no work · white: busy outside any task (join halves, the caller's code, \
             looking for work)",
            (10, 36),
            ("sans-serif", 13).into_font(),
        ))?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..ms(end), 0f64..lanes)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("ms since the trace's first event")
            .draw()?;
        // One label per lane, at its middle (the axis's own labels would be
        // placed at round numbers of the scale, not at the lanes).
        let label = ("sans-serif", 14)
            .into_font()
            .into_text_style(&root)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for worker in 0..threads {
            // `backend_coord` is in the whole picture's pixels: draw on `root`.
            let (x, y) = chart.backend_coord(&(0.0, worker as f64 + 0.5));
            root.draw(&Text::new(
                self.thread_name(worker),
                (x - 8, y),
                label.clone(),
            ))?;
        }
        chart.draw_series(self.idle.iter().map(|i| {
            let y = i.worker as f64;
            Rectangle::new(
                [(ms(i.start_ns), y + 0.1), (ms(i.end_ns), y + 0.9)],
                RGBColor(225, 225, 225).filled(),
            )
        }))?;
        let task_box = |t: &TracedTask| {
            let y = t.worker as f64;
            let (low, high) = if t.nested {
                (y + 0.1, y + 0.5)
            } else {
                (y + 0.1, y + 0.9)
            };
            [(ms(t.start_ns), low), (ms(t.end_ns), high)]
        };
        chart.draw_series(
            self.tasks
                .iter()
                .map(|t| Rectangle::new(task_box(t), colour(t.priority).mix(0.8).filled())),
        )?;
        // A thin outline, so that tasks run back to back stay apart.
        chart.draw_series(
            self.tasks
                .iter()
                .map(|t| Rectangle::new(task_box(t), WHITE.mix(0.7).stroke_width(1))),
        )?;
        chart.draw_series(
            self.tasks
                .iter()
                .filter(|t| matches!(t.source, Source::Stolen { .. }))
                .map(|t| {
                    let (x, y) = (ms(t.start_ns), t.worker as f64);
                    PathElement::new(vec![(x, y + 0.9), (x, y + 1.0)], BLACK.stroke_width(2))
                }),
        )?;
        root.present()?;
        Ok(())
    }
}
