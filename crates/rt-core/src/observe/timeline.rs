//! `Trace::write_svg`: the trace as a picture, one lane per worker, a box
//! per task coloured by priority, idle time in grey, and a black tick on
//! tasks that were stolen; white is time a worker was busy outside any task.
//! A task run nested inside another (while that one waited) is a lower box
//! inside its parent's, one level lower per level of nesting; a nested task
//! whose caller is not a task (a join half, or code waiting in `install` or
//! `scope`) has a dashed line above it where that caller's box would be.
//! The key above the lanes says all this. Drawn with plotters (feature
//! `svg`).

use std::path::Path;

use plotters::element::DashedPathElement;
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

/// Where a task sits in the nesting on its worker.
#[derive(Clone, Copy, Default)]
struct Nesting {
    /// 0 for a task that is not nested, one more than its parent's for a
    /// task whose run lies inside a traced task's run, and 1 for a nested
    /// task whose caller is not a task (a join half, a caller waiting in
    /// `install` or `scope`: not traced).
    level: usize,
    /// Nested, but inside no traced task: its caller is not a task.
    untraced_caller: bool,
}

/// Each task's [`Nesting`], from the runs that contain its run.
fn nesting(tasks: &[TracedTask]) -> Vec<Nesting> {
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    // By worker, then by start; of two tasks starting together, the longer
    // (the container) first.
    order.sort_by_key(|&i| {
        let t = &tasks[i];
        (t.worker, t.start_ns, std::cmp::Reverse(t.end_ns))
    });
    let mut nesting = vec![Nesting::default(); tasks.len()];
    // The runs that contain the current task, innermost last: their worker,
    // end and level.
    let mut open: Vec<(usize, u64, usize)> = Vec::new();
    for i in order {
        let t = &tasks[i];
        open.retain(|&(worker, end, _)| worker == t.worker && end > t.start_ns && end >= t.end_ns);
        nesting[i] = match open.last() {
            Some(&(_, _, parent)) => Nesting {
                level: parent + 1,
                untraced_caller: false,
            },
            None => Nesting {
                level: usize::from(t.nested),
                untraced_caller: t.nested,
            },
        };
        open.push((t.worker, t.end_ns, nesting[i].level));
    }
    nesting
}

/// The vertical extent of a task's box in its lane (0 at the lane's bottom,
/// 1 at its top): lower and shorter with each level of nesting.
fn band(level: usize) -> (f64, f64) {
    let top = [0.9, 0.6, 0.4, 0.28][level.min(3)];
    (0.1, top)
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
    /// red, Normal blue, Background green), idle intervals in light grey,
    /// and a black tick at the start of each task another worker stole. A
    /// task run nested inside another on the same worker (while that one
    /// waited in a join or at the end of a scope) is a lower box inside
    /// its parent's box, one level lower per level of nesting; when the
    /// code it ran inside is not a task (a join half, or a caller waiting in
    /// `install` or `scope`), a dashed line above it stands where that
    /// caller's box would be. White is time a worker was busy outside any
    /// task: running a `join` half (not a task, so not in the trace), the
    /// code that called `install`, or looking for work. A key above the
    /// lanes says all this.
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
        let height = u32::try_from(184 + 80 * threads).unwrap_or(u32::MAX);
        let root = SVGBackend::new(path.as_ref(), (1400, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let (key, plot) = root.split_vertically(96);
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
        draw_key(&key)?;
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
        let nesting = nesting(&self.tasks);
        let level = |i: usize| nesting[i].level;
        let task_box = |i: usize| {
            let t = &self.tasks[i];
            let (low, high) = band(level(i));
            let y = t.worker as f64;
            [(ms(t.start_ns), y + low), (ms(t.end_ns), y + high)]
        };
        // Outer tasks first, so that each nested box is drawn over its
        // parent's.
        let mut by_level: Vec<usize> = (0..self.tasks.len()).collect();
        by_level.sort_by_key(|&i| level(i));
        chart.draw_series(by_level.iter().map(|&i| {
            Rectangle::new(
                task_box(i),
                colour(self.tasks[i].priority).mix(0.8).filled(),
            )
        }))?;
        // A thin outline, so that tasks run back to back stay apart and a
        // nested box stands out from its parent's.
        chart.draw_series(
            by_level
                .iter()
                .map(|&i| Rectangle::new(task_box(i), WHITE.mix(0.8).stroke_width(1))),
        )?;
        // Where a nested task's caller is not a task: a dashed line at the
        // height of the box that caller would have.
        chart.draw_series(
            (0..self.tasks.len())
                .filter(|&i| nesting[i].untraced_caller)
                .map(|i| {
                    let t = &self.tasks[i];
                    let y = t.worker as f64 + band(0).1;
                    DashedPathElement::new(
                        vec![(ms(t.start_ns), y), (ms(t.end_ns), y)],
                        4,
                        3,
                        RGBColor(90, 90, 90).stroke_width(1),
                    )
                }),
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

/// The key under the title: what each colour and shape means, each with a
/// sample drawn as in the lanes.
fn draw_key(
    key: &DrawingArea<SVGBackend, plotters::coord::Shift>,
) -> Result<(), Box<dyn std::error::Error>> {
    let font = ("sans-serif", 13).into_font();
    let text_width = |text: &str| {
        key.estimate_text_size(text, &TextStyle::from(font.clone()))
            .map_or(8 * text.len() as i32, |(w, _)| w as i32)
    };
    // One entry: a sample 22 px wide and 14 high at (x, y), then its text;
    // returns where the next entry starts.
    let entry = |x: i32,
                 y: i32,
                 sample: &dyn Fn(i32, i32) -> Result<(), Box<dyn std::error::Error>>,
                 text: &str| {
        sample(x, y)?;
        key.draw(&Text::new(text.to_owned(), (x + 28, y), font.clone()))?;
        Ok::<i32, Box<dyn std::error::Error>>(x + 28 + text_width(text) + 22)
    };
    let filled = |c: RGBColor| {
        move |x: i32, y: i32| -> Result<(), Box<dyn std::error::Error>> {
            key.draw(&Rectangle::new(
                [(x, y), (x + 22, y + 14)],
                c.mix(0.8).filled(),
            ))?;
            Ok(())
        }
    };
    let blue = colour(Priority::Normal);
    let (row1, row2) = (36, 62);
    let mut x = 10;
    x = entry(x, row1, &filled(colour(Priority::High)), "a High task")?;
    x = entry(x, row1, &filled(blue), "a Normal task")?;
    x = entry(
        x,
        row1,
        &filled(colour(Priority::Background)),
        "a Background task",
    )?;
    x = entry(
        x,
        row1,
        &|x, y| {
            key.draw(&PathElement::new(
                vec![(x + 4, y), (x + 4, y + 14)],
                BLACK.stroke_width(2),
            ))?;
            Ok(())
        },
        "tick: stolen from another worker",
    )?;
    x = entry(
        x,
        row1,
        &filled(RGBColor(225, 225, 225)),
        "idle (parked, no work)",
    )?;
    entry(
        x,
        row1,
        &|x, y| {
            key.draw(&Rectangle::new(
                [(x, y), (x + 22, y + 14)],
                BLACK.mix(0.4).stroke_width(1),
            ))?;
            Ok(())
        },
        "white: busy outside any task (a join half, the caller's code, looking for work)",
    )?;
    let mut x = 10;
    x = entry(
        x,
        row2,
        &|x, y| {
            key.draw(&Rectangle::new([(x, y), (x + 22, y + 14)], blue.mix(0.8).filled()))?;
            key.draw(&Rectangle::new([(x + 4, y + 6), (x + 18, y + 14)], blue.filled()))?;
            key.draw(&Rectangle::new([(x + 4, y + 6), (x + 18, y + 14)], WHITE.mix(0.8).stroke_width(1)))?;
            Ok(())
        },
        "lower box inside a task's box: a task run nested inside it, on its worker, while it waited",
    )?;
    entry(
        x,
        row2,
        &|x, y| {
            key.draw(&DashedPathElement::new(
                vec![(x, y + 1), (x + 22, y + 1)],
                4,
                3,
                RGBColor(90, 90, 90).stroke_width(1),
            ))?;
            key.draw(&Rectangle::new(
                [(x + 4, y + 6), (x + 18, y + 14)],
                blue.mix(0.8).filled(),
            ))?;
            Ok(())
        },
        "dashed line above: nested inside a caller that is not a task (join half, install, scope)",
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task on `worker` from `start` to `end` (ns).
    fn task(worker: usize, start: u64, end: u64, nested: bool) -> TracedTask {
        TracedTask {
            id: start,
            parent: None,
            priority: Priority::Normal,
            worker,
            source: Source::OwnDeque,
            nested,
            spawned_ns: start,
            start_ns: start,
            end_ns: end,
            outcome: None,
        }
    }

    fn levels(tasks: &[TracedTask]) -> Vec<(usize, bool)> {
        nesting(tasks)
            .into_iter()
            .map(|n| (n.level, n.untraced_caller))
            .collect()
    }

    #[test]
    fn a_task_inside_another_on_its_worker_is_one_level_down() {
        let tasks = [
            task(0, 0, 100, false),
            task(0, 10, 20, true),
            task(0, 12, 18, true),
        ];
        assert_eq!(levels(&tasks), [(0, false), (1, false), (2, false)]);
    }

    #[test]
    fn a_nested_task_inside_no_traced_task_has_an_untraced_caller() {
        let tasks = [task(0, 10, 20, true), task(0, 12, 18, true)];
        assert_eq!(levels(&tasks), [(1, true), (2, false)]);
    }

    #[test]
    fn tasks_back_to_back_or_on_other_workers_are_not_nested() {
        let tasks = [
            task(0, 0, 100, false),
            task(0, 100, 200, false),
            task(1, 10, 20, false),
        ];
        assert_eq!(levels(&tasks), [(0, false), (0, false), (0, false)]);
    }

    #[test]
    fn deeper_levels_are_lower_and_shorter_boxes() {
        let tops: Vec<f64> = (0..5).map(|l| band(l).1).collect();
        assert!(tops.windows(2).all(|w| w[0] >= w[1]));
        assert!(tops.iter().all(|&t| t > band(0).0));
    }
}
