//! Running code whose panics are expected.

use std::panic::{catch_unwind, resume_unwind, set_hook, take_hook, AssertUnwindSafe};
use std::sync::Mutex;

/// Runs `f` with the panic hook silenced, so that panics the test expects
/// (in `f` or on the threads it drives) do not clutter the output; a panic
/// of `f` itself is re-raised after the hook is restored.
///
/// The hook is process-wide: calls are serialised so that two tests doing
/// this at once restore it in the right order.
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    static HOOK: Mutex<()> = Mutex::new(());
    let _serial = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let previous = take_hook();
    set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    set_hook(previous);
    result.unwrap_or_else(|payload| resume_unwind(payload))
}
