//! Why a pool could not be built (rayon's `ThreadPoolBuildError`).

use std::error::Error;
use std::fmt;
use std::io;

use rt_core::BuildError;

/// The error of [`ThreadPoolBuilder::build`](crate::ThreadPoolBuilder::build)
/// and [`build_global`](crate::ThreadPoolBuilder::build_global), with
/// rayon's messages.
#[derive(Debug)]
pub struct ThreadPoolBuildError {
    kind: ErrorKind,
}

#[derive(Debug)]
enum ErrorKind {
    GlobalPoolAlreadyInitialized,
    CurrentThreadAlreadyInPool,
    /// The OS refused a thread, or the spawn handler returned an error.
    Io(io::Error),
}

const GLOBAL_POOL_ALREADY_INITIALIZED: &str =
    "The global thread pool has already been initialized.";

const CURRENT_THREAD_ALREADY_IN_POOL: &str =
    "The current thread is already part of another thread pool.";

impl From<BuildError> for ThreadPoolBuildError {
    fn from(error: BuildError) -> Self {
        let kind = match error {
            BuildError::GlobalAlreadyBuilt => ErrorKind::GlobalPoolAlreadyInitialized,
            BuildError::AlreadyAWorker => ErrorKind::CurrentThreadAlreadyInPool,
            BuildError::Spawn { source, .. } => ErrorKind::Io(source),
            // The builder keeps every other setting valid (the thread count
            // is clamped, the stack size raised, no queue bound is set).
            other => ErrorKind::Io(io::Error::other(other)),
        };
        Self { kind }
    }
}

impl Error for ThreadPoolBuildError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.kind {
            ErrorKind::GlobalPoolAlreadyInitialized | ErrorKind::CurrentThreadAlreadyInPool => None,
            ErrorKind::Io(error) => Some(error),
        }
    }
}

impl fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::GlobalPoolAlreadyInitialized => GLOBAL_POOL_ALREADY_INITIALIZED.fmt(f),
            ErrorKind::CurrentThreadAlreadyInPool => CURRENT_THREAD_ALREADY_IN_POOL.fmt(f),
            ErrorKind::Io(error) => error.fmt(f),
        }
    }
}
