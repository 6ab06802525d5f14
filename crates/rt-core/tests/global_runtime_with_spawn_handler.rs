//! `Builder::build_global_with`: the global runtime's workers started by a
//! spawn handler. A handler's error leaves the global runtime unbuilt (a
//! later call may still configure it); once built, further calls are
//! refused without calling their handler.

mod support;

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;
use std::thread;

use rt_core::{BuildError, Runtime};
use support::without_hanging;

/// How many times the successful handler was called.
static HANDLER_CALLS: AtomicUsize = AtomicUsize::new(0);

/// Every test of this binary configures the global runtime the same way
/// before anything uses it: a first `build_global_with` whose handler
/// fails, then one whose handler starts two workers named `handled-{i}`.
fn configure_the_global_runtime() {
    static CONFIGURED: Once = Once::new();
    CONFIGURED.call_once(|| {
        let failed = Runtime::builder().threads(2).build_global_with(|worker| {
            if worker.index() == 1 {
                return Err(io::Error::other("refused"));
            }
            worker.spawn()
        });
        assert!(
            matches!(failed, Err(BuildError::Spawn { index: 1, .. })),
            "{failed:?}"
        );
        Runtime::builder()
            .threads(2)
            .build_global_with(|worker| {
                HANDLER_CALLS.fetch_add(1, Ordering::SeqCst);
                thread::Builder::new()
                    .name(format!("handled-{}", worker.index()))
                    .spawn(move || worker.run())
                    .map(drop)
            })
            .expect("the global runtime was not built by the failed call");
    });
}

#[test]
fn the_global_runtime_runs_on_the_handler_s_threads() {
    without_hanging(|| {
        configure_the_global_runtime();
        assert_eq!(rt_core::current_num_threads(), 2);
        let names = rt_core::broadcast(|_| thread::current().name().map(str::to_owned));
        assert_eq!(
            names,
            [Some("handled-0".to_owned()), Some("handled-1".to_owned())]
        );
        let name = rt_core::spawn(|| thread::current().name().map(str::to_owned))
            .join()
            .unwrap();
        assert!(name.is_some_and(|n| n.starts_with("handled-")));
        let (a, b) = rt_core::join(rt_core::current_thread_index, rt_core::current_thread_index);
        assert!(a.is_some() && b.is_some());
    });
}

#[test]
fn a_second_build_global_with_is_refused_without_calling_its_handler() {
    without_hanging(|| {
        configure_the_global_runtime();
        let mut called = false;
        let late = Runtime::builder().threads(3).build_global_with(|worker| {
            called = true;
            worker.spawn()
        });
        assert!(
            matches!(late, Err(BuildError::GlobalAlreadyBuilt)),
            "{late:?}"
        );
        assert!(!called);
        assert_eq!(HANDLER_CALLS.load(Ordering::SeqCst), 2);
        assert_eq!(rt_core::current_num_threads(), 2);
    });
}
