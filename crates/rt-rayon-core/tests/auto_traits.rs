//! The public types are `Send` and `Sync` where rayon-core's are, and
//! `BroadcastContext` and `FnContext` stay on their thread as there: a
//! program that moves a pool or shares a scope across threads with rayon
//! builds on rt too.

use rayon_core::{
    BroadcastContext, FnContext, Scope, ScopeFifo, ThreadBuilder, ThreadPool, ThreadPoolBuildError,
    Yield,
};

fn send_and_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

#[test]
fn pools_scopes_errors_and_yields_are_send_and_sync() {
    send_and_sync::<ThreadPool>();
    send_and_sync::<Scope<'static>>();
    send_and_sync::<ScopeFifo<'static>>();
    send_and_sync::<ThreadPoolBuildError>();
    send_and_sync::<Yield>();
    send::<ThreadBuilder>();
}

/// `BroadcastContext` and `FnContext` are not `Send` (as in rayon-core):
/// checked by the compiler in `compile_fail` examples of the crate docs would
/// need a trybuild harness; here, that they are at least `Debug`.
#[test]
fn contexts_are_debug() {
    fn debug<T: std::fmt::Debug>() {}
    debug::<BroadcastContext<'static>>();
    debug::<FnContext>();
}
