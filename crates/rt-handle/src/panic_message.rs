//! Turning a caught panic payload into the text of `JoinError::Panicked`.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The text used when a task panicked with a payload that is not a string
/// (`std::panic::panic_any(42)`, for instance).
pub const NON_STRING_PAYLOAD: &str = "task panicked with a non-string payload";

/// The panic's message: the payload itself when it is a `&str` or `String`,
/// else [`NON_STRING_PAYLOAD`].
///
/// The payload is dropped here, and a payload whose own `Drop` panics is
/// contained too, so that reporting a panic can never unwind into a worker.
pub fn panic_message(payload: Box<dyn Any + Send>) -> String {
    let message = payload_message(payload.as_ref());
    drop_quietly(payload);
    message
}

/// The message of a panic payload that the caller keeps (to resume the
/// panic with it, say): the same text as [`panic_message`].
pub fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        NON_STRING_PAYLOAD.to_owned()
    }
}

/// Drops `value`, swallowing a panic from its destructor. The panic's payload
/// is dropped too (it is almost always a string); only if *that* panics as
/// well is the last payload leaked, since dropping it could panic again.
///
/// Executors drop whatever user code left behind (captures of a cancelled
/// closure, an unjoined result, a panic payload) with it, so that a
/// destructor's panic never unwinds into a worker.
///
/// ```
/// struct Bomb;
/// impl Drop for Bomb {
///     fn drop(&mut self) { panic!("in drop") }
/// }
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// rt_handle::support::drop_quietly(Bomb); // returns normally
/// # std::panic::set_hook(prev);
/// ```
pub fn drop_quietly<V>(value: V) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        if let Err(nested) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
            std::mem::forget(nested);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_and_string_payloads_become_the_message() {
        assert_eq!(panic_message(Box::new("boom")), "boom");
        assert_eq!(panic_message(Box::new(String::from("bang"))), "bang");
    }

    #[test]
    fn other_payloads_get_a_clear_placeholder() {
        assert_eq!(panic_message(Box::new(42_u32)), NON_STRING_PAYLOAD);
    }

    #[test]
    fn a_payload_whose_drop_panics_is_contained() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("payload drop");
            }
        }
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let message = panic_message(Box::new(Bomb));
        std::panic::set_hook(prev);
        assert_eq!(message, NON_STRING_PAYLOAD);
    }
}
