//! The settings of an executor's threads, checked once for every executor:
//! a name the OS accepts and a stack big enough for a worker's own frames.

use std::io;
use std::thread;

use crate::thread_name_error::ThreadNameError;
use crate::MIN_STACK_SIZE;

/// Refuses a thread name (or name prefix) that the OS cannot take: one with
/// a NUL byte, which `std::thread::Builder` rejects with a panic.
///
/// ```
/// use rt_handle::raw::check_thread_name;
///
/// assert!(check_thread_name("compute").is_ok());
/// assert!(check_thread_name("bad\0name").is_err());
/// ```
pub fn check_thread_name(name: &str) -> Result<(), ThreadNameError> {
    if name.contains('\0') {
        return Err(ThreadNameError {
            name: name.to_owned(),
        });
    }
    Ok(())
}

/// The checked settings of one executor thread: its name, free of NUL
/// bytes, and its stack size, raised to [`MIN_STACK_SIZE`] (`None`: the
/// platform's default). Executors apply them to their thread builder.
///
/// ```
/// use rt_handle::raw::{ThreadSettings, MIN_STACK_SIZE};
///
/// let settings = ThreadSettings::new("io-0".to_owned(), Some(0))?;
/// assert_eq!(settings.stack_size, Some(MIN_STACK_SIZE));
/// let handle = settings.builder().spawn(|| 1)?;
/// assert_eq!(handle.join().unwrap(), 1);
///
/// let refused = ThreadSettings::new("bad\0name".to_owned(), None);
/// assert_eq!(refused.unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadSettings {
    /// The thread's name.
    pub name: String,
    /// The thread's stack size in bytes, at least [`MIN_STACK_SIZE`].
    pub stack_size: Option<usize>,
}

impl ThreadSettings {
    /// Checks `name` and raises `stack_size` to [`MIN_STACK_SIZE`]. A name
    /// with a NUL byte is an [`io::ErrorKind::InvalidInput`] error (wrapping
    /// [`ThreadNameError`]), not a panic.
    pub fn new(name: String, stack_size: Option<usize>) -> io::Result<Self> {
        if let Err(error) = check_thread_name(&name) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, error));
        }
        let stack_size = stack_size.map(|bytes| bytes.max(MIN_STACK_SIZE));
        Ok(Self { name, stack_size })
    }

    /// A `std::thread::Builder` with these settings.
    pub fn builder(self) -> thread::Builder {
        let builder = thread::Builder::new().name(self.name);
        match self.stack_size {
            Some(bytes) => builder.stack_size(bytes),
            None => builder,
        }
    }
}
