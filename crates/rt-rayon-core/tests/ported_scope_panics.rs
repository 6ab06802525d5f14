//! A panic in a scope's closure or in any of its (nested) spawns propagates
//! out of `scope` once every spawn has finished, and the other spawns still
//! run: rayon-core 1.13.0's `src/scope/test.rs` (its `panic_propagate_*`
//! tests), ported to an integration test of the public API.
//!
//! Changes: `crate::unwind::halt_unwinding` (internal) is
//! `std::panic::catch_unwind` (with `AssertUnwindSafe`, as `halt_unwinding`
//! does) in the four `panic_propagate_still_execute_*` tests; every test body
//! runs under `rt_testkit::without_hanging` (which resumes the body's panic
//! with its payload, so `#[should_panic(expected = ...)]` still checks the
//! message). Nothing left out.

use rayon_core::scope;
use rt_testkit::without_hanging;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_scope() {
    without_hanging(|| {
        scope(|_| panic!("Hello, world!"));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_spawn() {
    without_hanging(|| {
        scope(|s| s.spawn(|_| panic!("Hello, world!")));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_nested_spawn() {
    without_hanging(|| {
        scope(|s| s.spawn(|s| s.spawn(|s| s.spawn(|_| panic!("Hello, world!")))));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_nested_scope_spawn() {
    without_hanging(|| {
        scope(|s| s.spawn(|_| scope(|s| s.spawn(|_| panic!("Hello, world!")))));
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_propagate_still_execute_1() {
    without_hanging(|| {
        let mut x = false;
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope(|s| {
                s.spawn(|_| panic!("Hello, world!")); // job A
                s.spawn(|_| x = true); // job B, should still execute even though A panics
            });
        }));
        match result {
            Ok(_) => panic!("failed to propagate panic"),
            Err(_) => assert!(x, "job b failed to execute"),
        }
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_propagate_still_execute_2() {
    without_hanging(|| {
        let mut x = false;
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope(|s| {
                s.spawn(|_| x = true); // job B, should still execute even though A panics
                s.spawn(|_| panic!("Hello, world!")); // job A
            });
        }));
        match result {
            Ok(_) => panic!("failed to propagate panic"),
            Err(_) => assert!(x, "job b failed to execute"),
        }
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_propagate_still_execute_3() {
    without_hanging(|| {
        let mut x = false;
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope(|s| {
                s.spawn(|_| x = true); // spawned job should still execute despite later panic
                panic!("Hello, world!");
            });
        }));
        match result {
            Ok(_) => panic!("failed to propagate panic"),
            Err(_) => assert!(x, "panic after spawn, spawn failed to execute"),
        }
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_propagate_still_execute_4() {
    without_hanging(|| {
        let mut x = false;
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope(|s| {
                s.spawn(|_| panic!("Hello, world!"));
                x = true;
            });
        }));
        match result {
            Ok(_) => panic!("failed to propagate panic"),
            Err(_) => assert!(x, "panic in spawn tainted scope"),
        }
    });
}
