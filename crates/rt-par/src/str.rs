//! Parallel iterators over strings (rayon's `ParallelString`): the text is
//! split near its middle at a char boundary (for `par_chars`) or at a
//! separator (for `par_split`), and each piece walks its part with the
//! standard sequential iterator.

use crate::iter::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use crate::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

mod pattern {
    /// What a string splits at: a char, any of some chars, or a predicate
    /// on chars (rayon's `Pattern`; sealed).
    pub trait Pattern: Sync + Send {
        /// The byte index of the first match in `text`, and its length.
        fn find_in(&self, text: &str) -> Option<(usize, usize)>;
        /// The byte index of the last match in `text`, and its length.
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)>;
        /// Whether `c` matches.
        fn matches(&self, c: char) -> bool;
    }

    fn at(text: &str, index: Option<usize>) -> Option<(usize, usize)> {
        let index = index?;
        let len = text[index..].chars().next().map_or(0, char::len_utf8);
        Some((index, len))
    }

    impl Pattern for char {
        fn find_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.find(*self))
        }
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.rfind(*self))
        }
        fn matches(&self, c: char) -> bool {
            c == *self
        }
    }

    impl Pattern for &[char] {
        fn find_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.find(*self))
        }
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.rfind(*self))
        }
        fn matches(&self, c: char) -> bool {
            self.contains(&c)
        }
    }

    impl<const N: usize> Pattern for [char; N] {
        fn find_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.find(self))
        }
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.rfind(self))
        }
        fn matches(&self, c: char) -> bool {
            self.contains(&c)
        }
    }

    impl<const N: usize> Pattern for &[char; N] {
        fn find_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.find(*self))
        }
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.rfind(*self))
        }
        fn matches(&self, c: char) -> bool {
            self.contains(&c)
        }
    }

    impl<F: Fn(char) -> bool + Sync + Send> Pattern for F {
        fn find_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.find(self))
        }
        fn rfind_in(&self, text: &str) -> Option<(usize, usize)> {
            at(text, text.rfind(self))
        }
        fn matches(&self, c: char) -> bool {
            self(c)
        }
    }
}

pub use pattern::Pattern;

/// Parallel methods of `str` (rayon's `ParallelString`).
///
/// ```
/// use rt_par::prelude::*;
/// let text = "one two  three";
/// assert_eq!(text.par_split_whitespace().count(), 3);
/// assert_eq!(text.par_chars().filter(|c| *c == 'e').count(), 3);
/// let parts: Vec<&str> = "a,b,,c".par_split(',').collect();
/// assert_eq!(parts, ["a", "b", "", "c"]);
/// ```
pub trait ParallelString {
    /// The string itself.
    fn as_parallel_string(&self) -> &str;

    /// The chars, in order.
    fn par_chars(&self) -> Chars<'_> {
        Chars {
            text: self.as_parallel_string(),
        }
    }

    /// The chars with their byte indices, in order.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<(usize, char)> = "aé".par_char_indices().collect();
    /// assert_eq!(v, [(0, 'a'), (1, 'é')]);
    /// ```
    fn par_char_indices(&self) -> CharIndices<'_> {
        CharIndices {
            text: self.as_parallel_string(),
        }
    }

    /// The bytes, in order (an indexed iterator).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!("abc".par_bytes().map(u32::from).sum::<u32>(), 294);
    /// ```
    fn par_bytes(&self) -> Bytes<'_> {
        Bytes {
            bytes: self.as_parallel_string().as_bytes().into_par_iter(),
        }
    }

    /// The UTF-16 code units, in order.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!("a𝄞".par_encode_utf16().count(), 3);
    /// ```
    fn par_encode_utf16(&self) -> EncodeUtf16<'_> {
        EncodeUtf16 {
            text: self.as_parallel_string(),
        }
    }

    /// The substrings between matches of `separator` (as `str::split`).
    fn par_split<P: Pattern>(&self, separator: P) -> Split<'_, P> {
        Split::new(self.as_parallel_string(), separator, false)
    }

    /// The substrings each ending with a match of `separator` (the last
    /// may not; as `str::split_inclusive`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&str> = "a,b,c".par_split_inclusive(',').collect();
    /// assert_eq!(v, ["a,", "b,", "c"]);
    /// ```
    fn par_split_inclusive<P: Pattern>(&self, separator: P) -> SplitInclusive<'_, P> {
        SplitInclusive {
            text: self.as_parallel_string(),
            separator,
        }
    }

    /// The matches of `pattern` (as `str::matches`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&str> = "a1b22".par_matches(|c: char| c.is_numeric()).collect();
    /// assert_eq!(v, ["1", "2", "2"]);
    /// ```
    fn par_matches<P: Pattern>(&self, pattern: P) -> Matches<'_, P> {
        Matches {
            text: self.as_parallel_string(),
            pattern,
        }
    }

    /// The matches of `pattern` with their byte indices (as
    /// `str::match_indices`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<(usize, &str)> = "a1b2".par_match_indices(|c: char| c.is_numeric()).collect();
    /// assert_eq!(v, [(1, "1"), (3, "2")]);
    /// ```
    fn par_match_indices<P: Pattern>(&self, pattern: P) -> MatchIndices<'_, P> {
        MatchIndices {
            text: self.as_parallel_string(),
            pattern,
        }
    }

    /// The substrings between matches of `terminator`, without the empty
    /// one after a final terminator (as `str::split_terminator`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&str> = "a;b;".par_split_terminator(';').collect();
    /// assert_eq!(v, ["a", "b"]);
    /// ```
    fn par_split_terminator<P: Pattern>(&self, terminator: P) -> Split<'_, P> {
        Split::new(self.as_parallel_string(), terminator, true)
    }

    /// The lines, without their `\n` or `\r\n` (as `str::lines`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&str> = "a\r\nb\n\nc\n".par_lines().collect();
    /// assert_eq!(v, ["a", "b", "", "c"]);
    /// ```
    fn par_lines(&self) -> Lines<'_> {
        Lines {
            split: Split::new(self.as_parallel_string(), '\n', true),
        }
    }

    /// The words between runs of whitespace (as `str::split_whitespace`).
    fn par_split_whitespace(&self) -> SplitWhitespace<'_> {
        SplitWhitespace {
            split: Split::new(self.as_parallel_string(), char::is_whitespace, false),
        }
    }

    /// The words between runs of ASCII whitespace (as
    /// `str::split_ascii_whitespace`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!(" a  b ".par_split_ascii_whitespace().count(), 2);
    /// ```
    fn par_split_ascii_whitespace(&self) -> SplitAsciiWhitespace<'_> {
        let is_ascii_whitespace: fn(char) -> bool = |c| c.is_ascii_whitespace();
        SplitAsciiWhitespace {
            split: Split::new(self.as_parallel_string(), is_ascii_whitespace, false),
        }
    }
}

impl ParallelString for str {
    fn as_parallel_string(&self) -> &str {
        self
    }
}

/// The byte index of a char boundary near the middle of `text` (0 if there
/// is none but the ends).
fn middle_boundary(text: &str) -> usize {
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle += 1;
    }
    if middle == text.len() {
        0
    } else {
        middle
    }
}

/// A part of the text and the byte index where it starts in the whole.
struct TextProducer<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> TextProducer<'a> {
    fn split(self) -> (Self, Option<Self>) {
        match middle_boundary(self.text) {
            0 => (self, None),
            middle => {
                let (left, right) = self.text.split_at(middle);
                let right = TextProducer {
                    text: right,
                    offset: self.offset + middle,
                };
                let left = TextProducer {
                    text: left,
                    offset: self.offset,
                };
                (left, Some(right))
            }
        }
    }
}

/// Defines a parallel iterator over the chars (or code units) of a text.
macro_rules! text_iter {
    ($(#[$doc:meta])* $name:ident, $producer:ident, $item:ty, |$part:ident| $iter:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        #[must_use = "iterators do nothing unless consumed"]
        pub struct $name<'a> {
            text: &'a str,
        }

        impl ParallelIterator for $name<'_> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                let producer = $producer(TextProducer {
                    text: self.text,
                    offset: 0,
                });
                bridge_unindexed(producer, consumer)
            }
        }

        struct $producer<'a>(TextProducer<'a>);

        impl UnindexedProducer for $producer<'_> {
            type Item = $item;

            fn split(self) -> (Self, Option<Self>) {
                let (left, right) = self.0.split();
                ($producer(left), right.map($producer))
            }

            fn fold_with<F: Folder<$item>>(self, folder: F) -> F {
                let $part = self.0;
                folder.consume_iter($iter)
            }
        }
    };
}

text_iter!(
    /// The iterator of [`ParallelString::par_chars`].
    Chars, CharsProducer, char, |part| part.text.chars()
);

text_iter!(
    /// The iterator of [`ParallelString::par_char_indices`].
    CharIndices, CharIndicesProducer, (usize, char),
    |part| part.text.char_indices().map(move |(i, c)| (part.offset + i, c))
);

text_iter!(
    /// The iterator of [`ParallelString::par_encode_utf16`].
    EncodeUtf16, EncodeUtf16Producer, u16, |part| part.text.encode_utf16()
);

/// The iterator of [`ParallelString::par_bytes`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Bytes<'a> {
    bytes: crate::slice::Iter<'a, u8>,
}

impl ParallelIterator for Bytes<'_> {
    type Item = u8;

    fn drive_unindexed<C: UnindexedConsumer<u8>>(self, consumer: C) -> C::Result {
        self.bytes.copied().drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.bytes.len())
    }
}

impl IndexedParallelIterator for Bytes<'_> {
    fn drive<C: crate::iter::plumbing::Consumer<u8>>(self, consumer: C) -> C::Result {
        self.bytes.copied().drive(consumer)
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }

    fn with_producer<CB: crate::iter::plumbing::ProducerCallback<u8>>(
        self,
        callback: CB,
    ) -> CB::Output {
        self.bytes.copied().with_producer(callback)
    }
}

/// The iterator of [`ParallelString::par_split`] and
/// [`ParallelString::par_split_terminator`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Split<'a, P> {
    text: &'a str,
    separator: P,
    /// Whether an empty last piece is dropped (`split_terminator`).
    terminated: bool,
}

impl<'a, P: Pattern> Split<'a, P> {
    fn new(text: &'a str, separator: P, terminated: bool) -> Self {
        Split {
            text,
            separator,
            terminated,
        }
    }
}

impl<'a, P: Pattern> ParallelIterator for Split<'a, P> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        let producer = SplitProducer {
            text: self.text,
            separator: &self.separator,
            last: true,
            terminated: self.terminated,
        };
        bridge_unindexed(producer, consumer)
    }
}

/// A part of the text that starts after a separator (or at the start) and
/// ends before one (or at the end, if `last`).
struct SplitProducer<'a, 'p, P> {
    text: &'a str,
    separator: &'p P,
    last: bool,
    terminated: bool,
}

impl<'a, P: Pattern> UnindexedProducer for SplitProducer<'a, '_, P> {
    type Item = &'a str;

    fn split(self) -> (Self, Option<Self>) {
        let middle = match middle_boundary(self.text) {
            0 => return (self, None),
            middle => middle,
        };
        let (head, tail) = self.text.split_at(middle);
        let found = match self.separator.find_in(tail) {
            Some((i, len)) => Some((middle + i, len)),
            None => self.separator.rfind_in(head),
        };
        let Some((at, len)) = found else {
            return (self, None);
        };
        let left = SplitProducer {
            text: &self.text[..at],
            last: false,
            ..self
        };
        let right = SplitProducer {
            text: &self.text[at + len..],
            ..self
        };
        (left, Some(right))
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let separator = self.separator;
        let mut parts = self.text.split(|c| separator.matches(c)).peekable();
        let drop_last = self.last && self.terminated;
        let mut folder = folder;
        while let Some(part) = parts.next() {
            if drop_last && part.is_empty() && parts.peek().is_none() {
                break;
            }
            folder = folder.consume(part);
            if folder.full() {
                break;
            }
        }
        folder
    }
}

/// The iterator of [`ParallelString::par_lines`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Lines<'a> {
    split: Split<'a, char>,
}

impl<'a> ParallelIterator for Lines<'a> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        self.split
            .map(|line| line.strip_suffix('\r').unwrap_or(line))
            .drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelString::par_split_whitespace`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct SplitWhitespace<'a> {
    split: Split<'a, fn(char) -> bool>,
}

impl<'a> ParallelIterator for SplitWhitespace<'a> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        self.split
            .filter(|word| !word.is_empty())
            .drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelString::par_split_ascii_whitespace`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct SplitAsciiWhitespace<'a> {
    split: Split<'a, fn(char) -> bool>,
}

impl<'a> ParallelIterator for SplitAsciiWhitespace<'a> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        self.split
            .filter(|word| !word.is_empty())
            .drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelString::par_split_inclusive`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct SplitInclusive<'a, P> {
    text: &'a str,
    separator: P,
}

impl<'a, P: Pattern> ParallelIterator for SplitInclusive<'a, P> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        let producer = SplitInclusiveProducer {
            text: self.text,
            separator: &self.separator,
        };
        bridge_unindexed(producer, consumer)
    }
}

/// A part of the text that starts after a separator (or at the start) and
/// ends with one (or at the end).
struct SplitInclusiveProducer<'a, 'p, P> {
    text: &'a str,
    separator: &'p P,
}

impl<'a, P: Pattern> UnindexedProducer for SplitInclusiveProducer<'a, '_, P> {
    type Item = &'a str;

    fn split(self) -> (Self, Option<Self>) {
        let middle = match middle_boundary(self.text) {
            0 => return (self, None),
            middle => middle,
        };
        let (head, tail) = self.text.split_at(middle);
        let found = match self.separator.find_in(tail) {
            Some((i, len)) => Some(middle + i + len),
            None => self.separator.rfind_in(head).map(|(i, len)| i + len),
        };
        match found {
            Some(end) if end < self.text.len() => {
                let (left, right) = self.text.split_at(end);
                let separator = self.separator;
                (
                    SplitInclusiveProducer {
                        text: left,
                        separator,
                    },
                    Some(SplitInclusiveProducer {
                        text: right,
                        separator,
                    }),
                )
            }
            _ => (self, None),
        }
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let separator = self.separator;
        folder.consume_iter(self.text.split_inclusive(|c| separator.matches(c)))
    }
}

/// The iterator of [`ParallelString::par_matches`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Matches<'a, P> {
    text: &'a str,
    pattern: P,
}

/// The iterator of [`ParallelString::par_match_indices`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct MatchIndices<'a, P> {
    text: &'a str,
    pattern: P,
}

/// A part of the text (any char boundary will do: every match is one
/// char) and the pattern.
struct MatchProducer<'a, 'p, P> {
    part: TextProducer<'a>,
    pattern: &'p P,
}

impl<'a, 'p, P> MatchProducer<'a, 'p, P> {
    fn split_text(self) -> (Self, Option<Self>) {
        let pattern = self.pattern;
        let (left, right) = self.part.split();
        (
            MatchProducer {
                part: left,
                pattern,
            },
            right.map(|part| MatchProducer { part, pattern }),
        )
    }
}

impl<'a, P: Pattern> ParallelIterator for Matches<'a, P> {
    type Item = &'a str;

    fn drive_unindexed<C: UnindexedConsumer<&'a str>>(self, consumer: C) -> C::Result {
        let producer = MatchesProducer(MatchProducer {
            part: TextProducer {
                text: self.text,
                offset: 0,
            },
            pattern: &self.pattern,
        });
        bridge_unindexed(producer, consumer)
    }
}

struct MatchesProducer<'a, 'p, P>(MatchProducer<'a, 'p, P>);

impl<'a, P: Pattern> UnindexedProducer for MatchesProducer<'a, '_, P> {
    type Item = &'a str;

    fn split(self) -> (Self, Option<Self>) {
        let (left, right) = self.0.split_text();
        (MatchesProducer(left), right.map(MatchesProducer))
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let pattern = self.0.pattern;
        folder.consume_iter(self.0.part.text.matches(|c| pattern.matches(c)))
    }
}

impl<'a, P: Pattern> ParallelIterator for MatchIndices<'a, P> {
    type Item = (usize, &'a str);

    fn drive_unindexed<C: UnindexedConsumer<(usize, &'a str)>>(self, consumer: C) -> C::Result {
        let producer = MatchIndicesProducer(MatchProducer {
            part: TextProducer {
                text: self.text,
                offset: 0,
            },
            pattern: &self.pattern,
        });
        bridge_unindexed(producer, consumer)
    }
}

struct MatchIndicesProducer<'a, 'p, P>(MatchProducer<'a, 'p, P>);

impl<'a, P: Pattern> UnindexedProducer for MatchIndicesProducer<'a, '_, P> {
    type Item = (usize, &'a str);

    fn split(self) -> (Self, Option<Self>) {
        let (left, right) = self.0.split_text();
        (MatchIndicesProducer(left), right.map(MatchIndicesProducer))
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let (pattern, offset) = (self.0.pattern, self.0.part.offset);
        let matches = self.0.part.text.match_indices(|c| pattern.matches(c));
        folder.consume_iter(matches.map(move |(i, m)| (offset + i, m)))
    }
}
