//! A case process (`--case ID`): prepare the case, warm up once, say
//! `ready` (with the rayon-core it runs on), then run one round per line
//! read on the standard input (`--step`; without it, one after another)
//! and print `round I FIGURES…` after each.

use std::io::{BufRead, Write};

use crate::case::Case;
use crate::options::Options;
use crate::{backend, on_rt, priorities};

/// Runs the case `id` in this process.
pub fn case(id: &str, opts: &Options) {
    if opts.step {
        die_with_parent();
    }
    let (mut case, rounds): (Box<dyn Case>, usize) = match id.split_once(':') {
        Some(("a", workload)) => (on_rt::case(workload), opts.rounds_a),
        Some(("b", setup)) => (priorities::case(setup, opts.seconds), opts.rounds_b),
        _ => panic!("unknown case `{id}` (a:WORKLOAD or b:SETUP)"),
    };
    case.warm_up();
    let mut out = std::io::stdout().lock();
    let ready = format!(
        "ready rayon-core={} on-rt-worker={}",
        backend::name(),
        case.on_rt_worker()
    );
    writeln!(out, "{ready}")
        .and_then(|_| out.flush())
        .expect("stdout");
    let mut requests = std::io::stdin().lock().lines();
    for i in 0..rounds {
        if opts.step && !matches!(requests.next(), Some(Ok(_))) {
            return; // the parent is gone
        }
        let figures = case.round();
        writeln!(out, "round {i} {figures}")
            .and_then(|_| out.flush())
            .expect("stdout");
    }
}

/// Asks Linux to kill this case process when the parent dies, so that a
/// case stuck in a deadlock never outlives an interrupted run (the parent
/// kills it itself after its time limit otherwise).
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_PDEATHSIG) only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}
