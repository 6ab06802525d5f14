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

/// Installs, once per test binary, a panic hook that keeps quiet about the
/// panics `expected` recognises (the panics a test provokes on purpose, on
/// whatever thread) and passes every other panic to the previous hook. For
/// panics on threads a test does not control, where [`quietly`] cannot
/// reach; the first call in a binary decides the filter.
///
/// ```
/// rt_testkit::silence_panics_matching(|info| {
///     std::thread::current().name().is_some_and(|n| n.starts_with("quiet-"))
/// });
/// ```
pub fn silence_panics_matching(
    expected: impl Fn(&std::panic::PanicHookInfo<'_>) -> bool + Send + Sync + 'static,
) {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = take_hook();
        set_hook(Box::new(move |info| {
            if !expected(info) {
                previous(info);
            }
        }));
    });
}

/// The text of a panic, for filters given to [`silence_panics_matching`].
pub fn panic_text<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> &'a str {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("")
}
