//! Configuring and starting a runtime.

use std::sync::{Arc, Mutex};
use std::thread;

use rt_handle::BuildError;
use rt_queue::work_queues;

use crate::shared::Shared;
use crate::worker::run_worker;
use crate::Runtime;

/// The default prefix of worker thread names.
pub const DEFAULT_THREAD_NAME: &str = "rt-worker";

/// Configures a [`Runtime`]; [`build`](Builder::build) starts it.
///
/// ```
/// let rt = rt_core::Runtime::builder()
///     .threads(2)
///     .thread_name("compute")
///     .stack_size(4 << 20)
///     .build()?;
/// let name = rt.spawn(|| std::thread::current().name().map(str::to_owned)).join()?;
/// assert!(matches!(name.as_deref(), Some("compute-0") | Some("compute-1")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    threads: Option<usize>,
    thread_name: String,
    stack_size: Option<usize>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// A builder with the defaults: one worker per available CPU, threads
    /// named `rt-worker-0`, `rt-worker-1`, ..., the platform's stack size.
    pub fn new() -> Self {
        Self {
            threads: None,
            thread_name: DEFAULT_THREAD_NAME.to_owned(),
            stack_size: None,
        }
    }

    /// Number of worker threads. Zero is refused by [`build`](Self::build).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Prefix of worker thread names: workers are `prefix-0`, `prefix-1`, ...
    pub fn thread_name(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = prefix.into();
        self
    }

    /// Stack size of each worker thread, in bytes.
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Starts the workers.
    ///
    /// # Errors
    ///
    /// [`BuildError::ZeroThreads`] for zero threads; [`BuildError::Spawn`] if
    /// the OS refuses to start a thread, after the workers already started
    /// have been shut down again.
    pub fn build(self) -> Result<Runtime, BuildError> {
        let threads = self.threads.unwrap_or_else(default_threads);
        if threads == 0 {
            return Err(BuildError::ZeroThreads);
        }
        let (global, locals) = work_queues(threads);
        let shared = Arc::new(Shared::new(global, self.thread_name));
        let mut handles = Vec::with_capacity(threads);
        for (index, queues) in locals.into_iter().enumerate() {
            let mut thread = thread::Builder::new().name(format!("{}-{index}", shared.thread_name));
            if let Some(bytes) = self.stack_size {
                thread = thread.stack_size(bytes);
            }
            let worker_shared = shared.clone();
            match thread.spawn(move || run_worker(worker_shared, queues)) {
                Ok(handle) => handles.push(handle),
                Err(source) => {
                    // The started workers must not wait for one that never
                    // came: let them exit once all of *them* are idle.
                    shared.idle.set_live(index);
                    let partial = Runtime {
                        shared,
                        workers: Mutex::new(handles),
                    };
                    partial.shutdown();
                    return Err(BuildError::Spawn { index, source });
                }
            }
        }
        Ok(Runtime {
            shared,
            workers: Mutex::new(handles),
        })
    }
}

fn default_threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}
