//! A live view of the runtime at work, refreshed ten times a second in the
//! terminal: per worker its busy share, tasks and steals per second and
//! local queue depth; per priority the queued tasks and the p50/p99 queue
//! delay. A demo workload runs meanwhile: bursts of short tasks, nested
//! fan-out, and a steady mix of the three priorities. `q` (or Esc, or
//! Ctrl-C) quits and restores the terminal.
//!
//! Run: `cargo run --release -p rt-top`

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::ExecutableCommand;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Style, Stylize};
use ratatui::widgets::{Block, Paragraph, Row, Table};
use ratatui::{DefaultTerminal, Frame};
use rt::{PoolStats, Priority, PriorityPolicy, Runtime};

/// Spins for about `micros` µs of CPU.
fn work(micros: u64) {
    let until = Instant::now() + Duration::from_micros(micros);
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// The demo load, on its own threads until `stop`.
fn demo(rt: Arc<Runtime>, stop: Arc<AtomicBool>) -> Vec<thread::JoinHandle<()>> {
    let bursts = {
        let (rt, stop) = (rt.clone(), stop.clone());
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let handles: Vec<_> = (0..200).map(|_| rt.spawn(|| work(20))).collect();
                handles.into_iter().for_each(|h| drop(h.join()));
                thread::sleep(Duration::from_millis(150));
            }
        })
    };
    let fan_out = {
        let (rt, stop) = (rt.clone(), stop.clone());
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                rt.install(|| {
                    rt::scope(|s| {
                        for _ in 0..8 {
                            s.spawn(|| {
                                rt::scope(|s| (0..16).for_each(|_| drop(s.spawn(|| work(100)))))
                            });
                        }
                    })
                });
                thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let mix = thread::spawn(move || {
        let mut i = 0u64;
        while !stop.load(Ordering::Relaxed) {
            let priority =
                [Priority::High, Priority::Normal, Priority::Background][(i % 3) as usize];
            drop(rt.spawn_with_priority(priority, move || work(50 + 150 * (i % 3))));
            i += 1;
            thread::sleep(Duration::from_micros(300));
        }
    });
    vec![bursts, fan_out, mix]
}

/// Two snapshots and the time between them.
struct View {
    before: PoolStats,
    now: PoolStats,
    elapsed: Duration,
}

fn draw(frame: &mut Frame, view: &View) {
    let workers = view.now.workers.len();
    let [title, worker_area, class_area, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(workers as u16 + 3),
        Constraint::Length(6),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let m = &view.now.metrics;
    frame.render_widget(
        Paragraph::new(format!(
            "rt top — {} workers, {} policy — {} tasks finished, {} stolen, {} idle workers",
            workers,
            view.now.policy,
            m.completed + m.panicked + m.cancelled,
            m.stolen,
            view.now.idle_workers
        ))
        .bold(),
        title,
    );

    let secs = view.elapsed.as_secs_f64().max(1e-3);
    let header = Row::new(["worker", "busy", "tasks/s", "steals/s", "local queue"]).bold();
    let rows = view
        .now
        .workers
        .iter()
        .zip(&view.before.workers)
        .enumerate()
        .map(|(i, (now, before))| {
            let busy = match (now.busy, before.busy) {
                (Some(a), Some(b)) => (a - b).as_secs_f64() / secs,
                _ => 0.0,
            };
            Row::new([
                format!("{i}"),
                format!("{:>5.1}%", (busy * 100.0).min(100.0)),
                format!("{:.0}", (now.finished - before.finished) as f64 / secs),
                format!("{:.0}", (now.stolen - before.stolen) as f64 / secs),
                format!("{}", now.queued),
            ])
        });
    let widths = [
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Length(10),
        Constraint::Length(10),
        Constraint::Length(12),
    ];
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .block(Block::bordered().title(" workers ")),
        worker_area,
    );

    let header = Row::new(["priority", "queued", "queue delay p50", "p99", "tasks"]).bold();
    let latency = view.now.latency.unwrap_or_default();
    let rows = Priority::ALL.iter().map(|&p| {
        let l = latency[p].queue_delay;
        let colour = match p {
            Priority::High => Color::Red,
            Priority::Normal => Color::Blue,
            Priority::Background => Color::Green,
        };
        Row::new([
            p.to_string(),
            view.now.queued_at(p).to_string(),
            format!("{:.0?}", l.p50),
            format!("{:.0?}", l.p99),
            l.count.to_string(),
        ])
        .style(Style::new().fg(colour))
    });
    let widths = [
        Constraint::Length(12),
        Constraint::Length(8),
        Constraint::Length(16),
        Constraint::Length(12),
        Constraint::Length(10),
    ];
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .block(Block::bordered().title(" priorities ")),
        class_area,
    );
    frame.render_widget(Paragraph::new("q: quit").dim(), help);
}

fn run(terminal: &mut DefaultTerminal, rt: &Runtime) -> io::Result<()> {
    let mut before = rt.stats();
    let mut at = Instant::now();
    loop {
        if event::poll(Duration::from_millis(100))? {
            if let Event::Key(key) = event::read()? {
                let ctrl_c =
                    key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
                if key.kind == KeyEventKind::Press
                    && (matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) || ctrl_c)
                {
                    return Ok(());
                }
            }
        }
        if at.elapsed() >= Duration::from_millis(100) {
            let now = rt.stats();
            let view = View {
                before: std::mem::replace(&mut before, now.clone()),
                now,
                elapsed: at.elapsed(),
            };
            at = Instant::now();
            terminal.draw(|frame| draw(frame, &view))?;
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Arc::new(
        Runtime::builder()
            .threads(
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get())
                    .min(4),
            )
            .priority_policy(PriorityPolicy::Weighted {
                high: 16,
                normal: 4,
                background: 1,
            })
            .record_latency(true)
            .measure_cpu_time(true)
            .build()?,
    );
    let stop = Arc::new(AtomicBool::new(false));
    let load = demo(rt.clone(), stop.clone());

    enable_raw_mode()?;
    io::stdout().execute(EnterAlternateScreen)?;
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(io::stdout()))?;
    let result = run(&mut terminal, &rt);
    // Restore the terminal whatever happened.
    disable_raw_mode()?;
    io::stdout().execute(LeaveAlternateScreen)?;
    terminal.show_cursor()?;

    stop.store(true, Ordering::Relaxed);
    for thread in load {
        let _ = thread.join();
    }
    result?;
    let m = rt.metrics();
    println!(
        "rt top: {} tasks finished ({} stolen) while it ran",
        m.completed + m.panicked + m.cancelled,
        m.stolen
    );
    Ok(())
}
