//! Dropping user values and reading panic payloads without ever unwinding
//! into an executor's thread.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Drops `value`; a panic in its `Drop` (a closure's capture, an output)
/// is caught and ignored: nobody is left to report it to.
pub(crate) fn drop_quietly<T>(value: T) {
    let _ = catch_unwind(AssertUnwindSafe(move || drop(value)));
}

/// The message of a caught panic: the payload when it is a string, else
/// [`rt_handle::NON_STRING_PAYLOAD`]. The payload is dropped quietly.
pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    let message = if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        rt_handle::NON_STRING_PAYLOAD.to_owned()
    };
    drop_quietly(payload);
    message
}
