//! ARCHITECTURE.md's "The path of a spawned task" is true: the files it
//! lists are the files whose code runs, in that order, for
//! `rt_core::spawn(|| 1)` on the global runtime joined from a thread that
//! is not a worker, up to the recycling of the task's cell. With the
//! feature `path-trace`, each step of that path records its file
//! (`rt_queue::path_step!()`); this test compares the distinct files it
//! recorded with the list parsed from the document, so that editing either
//! alone makes it fail. Run it with
//! `cargo test -p rt-core --features path-trace --test architecture_path`
//! (`cargo xtask ci` does).

mod support;

use std::thread::ThreadId;
use std::time::Duration;

use rt_queue::path_trace::{self, Kind, Step};
use support::{wait_until, without_hanging};

/// The files of the path section, in order: each line of its numbered
/// list names one file as its first code span.
fn listed_path() -> Vec<String> {
    let doc = include_str!("../ARCHITECTURE.md");
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("The path of a spawned task"))
        .expect("ARCHITECTURE.md has a section \"The path of a spawned task\"");
    let files: Vec<String> = section
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.trim_start().split_once(". ")?;
            number.parse::<usize>().ok()?;
            let file = rest.strip_prefix('`')?.split('`').next()?;
            Some(file.to_owned())
        })
        .collect();
    let count: usize = section
        .lines()
        .find_map(|line| line.strip_prefix("Files on the path: "))
        .and_then(|rest| rest.trim_end_matches('.').parse().ok())
        .expect("the section states \"Files on the path: N.\"");
    assert_eq!(count, files.len(), "the stated count is the list's length");
    files
}

/// The distinct files of `steps`, in the order the path meets them: the
/// spawning thread's steps up to its join (`mark`), then the steps of the
/// worker that ran the task, up to the end of that run, then the joining
/// thread's. What other threads did meanwhile (a worker woken by the
/// search, say) and what the worker did after the run are not the task's
/// path.
fn path_of(steps: &[Step], me: ThreadId, mark: usize) -> Vec<String> {
    let mut order: Vec<&'static str> = Vec::new();
    let mut add = |step: &Step| {
        if step.kind != Kind::Ran && !order.contains(&step.file) {
            order.push(step.file);
        }
    };
    steps[..mark]
        .iter()
        .filter(|s| s.thread == me)
        .for_each(&mut add);
    let runner = steps
        .iter()
        .find(|s| s.kind == Kind::Ran && s.thread != me)
        .expect("a worker ran the task")
        .thread;
    steps
        .iter()
        .filter(|s| s.thread == runner)
        .take_while(|s| s.kind != Kind::Ran)
        .for_each(&mut add);
    steps[mark..]
        .iter()
        .filter(|s| s.thread == me)
        .for_each(&mut add);
    order.into_iter().map(str::to_owned).collect()
}

/// One spawn and join, recorded; the path it took.
fn one_recorded_task() -> Vec<String> {
    // This thread's cache of free blocks holds one of the task's size (a
    // cell allocated and freed here), as it does on any thread that spawned
    // and joined before: the spawn takes its cell from there.
    let (job, handle) = rt_handle::Job::new(|| 0);
    job.run();
    assert_eq!(handle.join(), Ok(0));
    // Let the workers go to sleep: the path starts from an idle runtime.
    std::thread::sleep(Duration::from_millis(30));
    let me = std::thread::current().id();
    path_trace::start();
    let handle = rt_core::spawn(|| 1);
    let mark = path_trace::len();
    assert_eq!(handle.join(), Ok(1));
    wait_until("the task's cell is recycled", || {
        path_trace::recycled_count() >= 1
    });
    let steps = path_trace::stop();
    path_of(&steps, me, mark)
}

#[test]
fn the_path_of_a_spawned_task_is_the_one_architecture_md_lists() {
    without_hanging(|| {
        let listed = listed_path();
        assert!(!listed.is_empty(), "ARCHITECTURE.md lists the path's files");
        // The global runtime started, and its threads' caches warm.
        for _ in 0..4 {
            assert_eq!(rt_core::spawn(|| 0).join(), Ok(0));
        }
        // A join usually sees its task complete while it polls (the
        // worker wakes and runs it meanwhile): the path listed. Should the
        // polls end first (a loaded machine) the join parks, through one
        // more file; should the task finish before the join starts, it
        // takes a shorter way. So a few tries, of which one must be the
        // listed path.
        let mut seen = Vec::new();
        for attempt in 1..=20 {
            let path = one_recorded_task();
            if path == listed {
                eprintln!("the listed path, at attempt {attempt}");
                return;
            }
            seen.push(path);
        }
        let crossed = seen.last().expect("tried at least once");
        panic!(
            "ARCHITECTURE.md lists {} files:\n{}\n\nthe path crossed {}:\n{}",
            listed.len(),
            listed.join("\n"),
            crossed.len(),
            crossed.join("\n"),
        );
    });
}
