//! The one submission path of an executor that can refuse work, and the
//! service methods written once on top of it.

/// Whether a submission may wait while the executor is saturated (its
/// bounded queue is full).
///
/// Every executor of this workspace that can refuse work has one method,
/// `offer(priority, payload, into_job, wait)`, through which all of its
/// submissions go: `spawn` and `Executor::submit` offer with
/// [`Wait::Block`]; `try_spawn`, `try_execute` and a `Submitter`'s
/// `try_submit` with [`Wait::Never`]. The payload (a closure, or a job) is
/// turned into a [`Job`](crate::Job) only once it is accepted, so a refusal
/// hands the caller's own value back in a [`SubmitError`](crate::SubmitError).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wait {
    /// Block until there is room; refuse only after shutdown.
    Block,
    /// Never block: a saturated executor hands the payload back.
    Never,
}

/// Emits the inherent `try_spawn`, `execute` and `try_execute` methods of an
/// executor, on top of its one submission path: an inherent method
///
/// ```text
/// fn offer<P>(&self, priority: Priority, payload: P,
///             into_job: impl FnOnce(P) -> Job, wait: Wait)
///     -> Result<(), SubmitError<P>>
/// ```
///
/// Use it inside the executor's `impl`, next to
/// [`inherent_spawn_methods!`](crate::inherent_spawn_methods):
///
/// ```
/// use rt_handle::raw::Wait;
/// use rt_handle::{Job, Priority, SubmitError};
///
/// /// Runs every job at once, until it is closed.
/// struct Inline { closed: bool }
///
/// impl Inline {
///     fn offer<P>(&self, _: Priority, payload: P, into_job: impl FnOnce(P) -> Job, _: Wait)
///         -> Result<(), SubmitError<P>>
///     {
///         if self.closed {
///             return Err(SubmitError::Shutdown(payload));
///         }
///         into_job(payload).run();
///         Ok(())
///     }
///
///     rt_handle::service_methods!();
/// }
///
/// assert_eq!(Inline { closed: false }.try_spawn(|| 2).unwrap().join(), Ok(2));
/// let refused = Inline { closed: true }.try_execute(|| ()).unwrap_err();
/// assert!(refused.is_shutdown());
/// ```
// Part of the executor interface, beside `raw`.
#[macro_export]
macro_rules! service_methods {
    () => {
        /// Spawns `f` at `Priority::Normal` unless the executor is shut down
        /// or saturated (its bounded queue is full): then the closure comes
        /// back in the error, untouched. Never blocks. A task of this
        /// executor spawning onto it is accepted until `stop`.
        pub fn try_spawn<F, T>(
            &self,
            f: F,
        ) -> ::std::result::Result<$crate::JoinHandle<T>, $crate::SubmitError<F>>
        where
            F: FnOnce() -> T + Send + 'static,
            T: Send + 'static,
        {
            let mut handle = None;
            self.offer(
                $crate::Priority::Normal,
                f,
                |f| {
                    let (job, h) = $crate::Job::new(f);
                    handle = Some(h);
                    job
                },
                $crate::raw::Wait::Never,
            )?;
            Ok(handle.expect("an accepted closure has been wrapped into a job"))
        }

        /// Runs `f` at `Priority::Normal` without a handle or a result slot
        /// (one allocation for the closure and a state word). A panic in it
        /// is caught, counted in the metrics' `panicked`, and passed to the
        /// builder's `panic_handler` if one is set.
        ///
        /// Blocks while the executor is saturated, unless called from one of
        /// its own tasks. After shutdown the closure comes back as
        /// `SubmitError::Shutdown`: nothing is dropped silently.
        pub fn execute<F>(&self, f: F) -> ::std::result::Result<(), $crate::SubmitError<F>>
        where
            F: FnOnce() + Send + 'static,
        {
            self.offer(
                $crate::Priority::Normal,
                f,
                $crate::Job::detached,
                $crate::raw::Wait::Block,
            )
        }

        /// Like `execute`, but never blocks: a saturated executor hands the
        /// closure back as `SubmitError::Saturated`.
        pub fn try_execute<F>(&self, f: F) -> ::std::result::Result<(), $crate::SubmitError<F>>
        where
            F: FnOnce() + Send + 'static,
        {
            self.offer(
                $crate::Priority::Normal,
                f,
                $crate::Job::detached,
                $crate::raw::Wait::Never,
            )
        }
    };
}
