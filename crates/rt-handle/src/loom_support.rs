//! What the loom models of this crate share: a result that counts its drops,
//! and a panic hook that keeps the models' deliberate panics quiet.

use std::panic;
use std::sync::Once;

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;

/// The message of every panic the models raise on purpose.
pub(crate) const EXPECTED_PANIC: &str = "loom model: deliberate panic";

/// A value that counts how often it is dropped, so a model can check that a
/// result (or a closure's capture) is freed exactly once, whichever thread
/// ends up dropping it.
pub(crate) struct Tracked {
    pub(crate) value: u32,
    drops: Arc<AtomicUsize>,
}

impl Tracked {
    /// A tracked `value` and the counter its drops go to.
    pub(crate) fn new(value: u32) -> (Self, DropCount) {
        let drops = Arc::new(AtomicUsize::new(0));
        (
            Self {
                value,
                drops: drops.clone(),
            },
            DropCount(drops),
        )
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        // Relaxed is enough: the models read the count only after joining
        // every thread, which orders all the increments before the read.
        self.drops.fetch_add(1, Ordering::Relaxed);
    }
}

/// How often the matching [`Tracked`] has been dropped.
pub(crate) struct DropCount(Arc<AtomicUsize>);

impl DropCount {
    pub(crate) fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// Installs, once per test binary, a panic hook that drops the report of a
/// deliberate panic and passes every other panic (a failed assertion in a
/// model) to the default hook.
pub(crate) fn silence_deliberate_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let deliberate = payload.downcast_ref::<&str>() == Some(&EXPECTED_PANIC)
                || payload.downcast_ref::<String>().map(String::as_str) == Some(EXPECTED_PANIC);
            if !deliberate {
                default(info);
            }
        }));
    });
}
