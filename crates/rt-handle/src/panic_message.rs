//! A caught panic: its payload kept for the joiner, and its text for
//! display and comparison (`JoinError::Panicked`).

use std::any::Any;
use std::fmt;
use std::ops::Deref;
use std::sync::Mutex;

use crate::poison::unpoison;

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

/// A task's panic, as [`JoinError::Panicked`](crate::JoinError::Panicked)
/// holds it: the panic's message, which it displays, compares by and
/// dereferences to (a `&str`), and the payload the task panicked with, to
/// re-raise with [`std::panic::resume_unwind`] or downcast
/// ([`into_payload`](Self::into_payload), or
/// [`JoinError::into_panic`](crate::JoinError::into_panic)).
///
/// The message is the payload when it is a `&str` or a `String`, else
/// [`NON_STRING_PAYLOAD`]. Two messages are equal when their texts are,
/// whatever their payloads.
///
/// A message made from text (`"boom".into()`, for comparisons) has no
/// payload of its own, and neither has a clone (the payload cannot be
/// cloned; the original keeps it): `into_payload` gives such a message its
/// text as a `String` payload, which is what `panic!("{}", text)` carries.
///
/// The payload is held behind a `Mutex`, only ever reached through `self`
/// by value or `&mut self`, so that the message is `Sync` (and
/// [`JoinError`](crate::JoinError) with it) though a payload need only be
/// `Send`. Dropping a message drops its payload quietly:
/// a payload whose `Drop` panics never unwinds into the code that drops it.
///
/// ```
/// use rt_handle::{Job, JoinError, PanicMessage};
///
/// #[derive(Debug, PartialEq)]
/// struct Overheated(u16);
///
/// let (job, handle) = Job::new(|| std::panic::panic_any(Overheated(413)));
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// job.run();
/// # std::panic::set_hook(prev);
/// match handle.join() {
///     Err(JoinError::Panicked(message)) => {
///         assert_eq!(message, rt_handle::NON_STRING_PAYLOAD);
///         let payload = message.into_payload();
///         assert_eq!(payload.downcast_ref::<Overheated>(), Some(&Overheated(413)));
///     }
///     other => panic!("expected a panic, got {other:?}"),
/// }
///
/// let text = PanicMessage::from("boom");
/// assert!(text.contains("oo"));
/// assert_eq!(*text.into_payload().downcast::<String>().unwrap(), "boom");
/// ```
pub struct PanicMessage {
    text: String,
    /// `None` for a message made from text, or a clone.
    payload: Mutex<Option<Box<dyn Any + Send>>>,
}

impl PanicMessage {
    /// The message of a caught panic, keeping its payload.
    pub fn from_payload(payload: Box<dyn Any + Send>) -> Self {
        Self {
            text: payload_message(payload.as_ref()),
            payload: Mutex::new(Some(payload)),
        }
    }

    /// The message's text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The payload the task panicked with; for a message made from text,
    /// or a clone, the text as a `String` payload.
    pub fn into_payload(mut self) -> Box<dyn Any + Send> {
        match unpoison(self.payload.get_mut()).take() {
            Some(payload) => payload,
            None => Box::new(std::mem::take(&mut self.text)),
        }
    }
}

impl Drop for PanicMessage {
    fn drop(&mut self) {
        drop_quietly(unpoison(self.payload.get_mut()).take());
    }
}

impl Clone for PanicMessage {
    /// The text only: the payload stays with the original.
    fn clone(&self) -> Self {
        Self::from(self.text.clone())
    }
}

impl Deref for PanicMessage {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl AsRef<str> for PanicMessage {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl From<&str> for PanicMessage {
    fn from(text: &str) -> Self {
        Self::from(text.to_owned())
    }
}

impl From<String> for PanicMessage {
    fn from(text: String) -> Self {
        Self {
            text,
            payload: Mutex::new(None),
        }
    }
}

impl From<PanicMessage> for String {
    fn from(mut message: PanicMessage) -> Self {
        std::mem::take(&mut message.text)
    }
}

impl fmt::Display for PanicMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for PanicMessage {
    /// As the text's own `Debug`: `"boom"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

impl PartialEq for PanicMessage {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for PanicMessage {}

/// Comparisons with text both ways, as `String` has them.
macro_rules! compare_with_text {
    ($($text:ty),*) => {$(
        impl PartialEq<$text> for PanicMessage {
            fn eq(&self, other: &$text) -> bool {
                self.text[..] == other[..]
            }
        }

        impl PartialEq<PanicMessage> for $text {
            fn eq(&self, other: &PanicMessage) -> bool {
                self[..] == other.text[..]
            }
        }
    )*};
}

compare_with_text!(str, &str, String);

pub use crate::sync::drop_quietly;

#[cfg(test)]
mod tests {
    use super::*;

    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("payload drop");
        }
    }

    #[test]
    fn a_message_keeps_a_non_string_payload_for_its_owner() {
        let message = PanicMessage::from_payload(Box::new(413_u16));
        assert_eq!(message, NON_STRING_PAYLOAD);
        assert_eq!(*message.into_payload().downcast::<u16>().unwrap(), 413);
    }

    #[test]
    fn a_clone_compares_equal_and_gives_its_text_as_the_payload() {
        let message = PanicMessage::from_payload(Box::new(String::from("bang")));
        let clone = message.clone();
        assert_eq!(clone, message);
        assert_eq!(*clone.into_payload().downcast::<String>().unwrap(), "bang");
        assert_eq!(
            *message.into_payload().downcast::<String>().unwrap(),
            "bang"
        );
    }

    #[test]
    fn dropping_a_message_whose_payload_panics_in_drop_is_contained() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        drop(PanicMessage::from_payload(Box::new(Bomb)));
        std::panic::set_hook(prev);
    }

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
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let message = panic_message(Box::new(Bomb));
        std::panic::set_hook(prev);
        assert_eq!(message, NON_STRING_PAYLOAD);
    }
}
