//! What a case process runs: the trait both sections' cases implement
//! (`on_rt/case.rs`, `priorities/mod.rs`), apart from `serve.rs`, which
//! picks a case and runs it, so that the cases do not depend on the file
//! that depends on them.

use crate::backend;

/// A case, prepared in its process.
pub trait Case {
    /// Runs one untimed round.
    fn warm_up(&mut self) {
        self.round();
    }

    /// Runs one round, checks its results (a mismatch panics) and returns
    /// its figures, separated by spaces.
    fn round(&mut self) -> String;

    /// Whether the case's rayon work runs on rt's workers.
    fn on_rt_worker(&self) -> bool {
        backend::on_rt_worker()
    }
}
