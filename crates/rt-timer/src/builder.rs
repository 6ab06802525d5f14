//! Configuring and starting a [`DelayedTaskScheduler`].

use std::sync::Arc;

use crate::BuildError;
use rt_handle::raw::{check_thread_name, ThreadSettings};

use crate::shared::Shared;
use crate::{timer_thread, DelayedTaskScheduler};

/// The timer thread's name unless [`Builder::thread_name`] sets another.
pub const DEFAULT_THREAD_NAME: &str = "rt-timer";

/// Configures a [`DelayedTaskScheduler`] before its timer thread starts.
///
/// ```
/// use std::time::Duration;
/// use rt_timer::DelayedTaskScheduler;
///
/// let timer = DelayedTaskScheduler::builder().thread_name("retries").build()?;
/// let name = timer.schedule(Duration::ZERO, || {
///     std::thread::current().name().map(str::to_owned)
/// })?;
/// assert_eq!(name.join()?.as_deref(), Some("retries"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    thread_name: String,
    stack_size: Option<usize>,
}

impl Builder {
    /// Default settings: a thread named [`DEFAULT_THREAD_NAME`] with the
    /// platform's default stack size.
    pub fn new() -> Self {
        Self {
            thread_name: DEFAULT_THREAD_NAME.to_owned(),
            stack_size: None,
        }
    }

    /// The timer thread's name (shown by debuggers and in panic messages).
    pub fn thread_name(mut self, name: impl Into<String>) -> Self {
        self.thread_name = name.into();
        self
    }

    /// The timer thread's stack size in bytes. Callbacks run on it, unless
    /// given to an executor with `schedule_on`. A size below
    /// [`MIN_STACK_SIZE`](rt_handle::MIN_STACK_SIZE)
    /// (128 KiB), even 0, is raised to it.
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Starts the timer thread.
    ///
    /// # Errors
    ///
    /// [`BuildError::InvalidThreadName`] for a name with a NUL byte;
    /// [`BuildError::Spawn`] (with `index` 0) if the OS refuses the thread.
    pub fn build(self) -> Result<DelayedTaskScheduler, BuildError> {
        check_thread_name(&self.thread_name)?;
        let shared = Arc::new(Shared::new());
        let for_thread = shared.clone();
        let thread = ThreadSettings::new(self.thread_name.clone(), self.stack_size)
            .and_then(|settings| {
                settings
                    .builder()
                    .spawn(move || timer_thread::run(for_thread))
            })
            .map_err(|source| BuildError::Spawn { index: 0, source })?;
        Ok(DelayedTaskScheduler::from_parts(
            shared,
            thread,
            self.thread_name,
        ))
    }
}

// The scheduler's constructors are here rather than in `scheduler.rs`, so
// that the scheduler's file does not need the builder's type while this
// one needs the scheduler's.
impl DelayedTaskScheduler {
    /// Starts a scheduler with default settings (a thread named
    /// [`DEFAULT_THREAD_NAME`](crate::DEFAULT_THREAD_NAME)).
    ///
    /// # Errors
    ///
    /// [`BuildError::Spawn`] if the OS refuses the timer thread.
    pub fn new() -> Result<Self, BuildError> {
        Builder::new().build()
    }

    /// A [`Builder`] to set the timer thread's name and stack size.
    pub fn builder() -> Builder {
        Builder::new()
    }
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}
