//! Parallel iterators over a `Result`'s `Ok` value (zero or one item).

use crate::iter::IntoParallelIterator;
use crate::option;

/// The iterator of `Result<T, E>::into_par_iter()`: the `Ok` value, if any.
///
/// ```
/// use rt_par::prelude::*;
/// let ok: Result<i32, ()> = Ok(3);
/// assert_eq!(ok.into_par_iter().sum::<i32>(), 3);
/// ```
pub type IntoIter<T> = option::IntoIter<T>;

/// The iterator of `(&Result<T, E>).into_par_iter()`.
pub type Iter<'a, T> = option::IntoIter<&'a T>;

/// The iterator of `(&mut Result<T, E>).into_par_iter()`.
pub type IterMut<'a, T> = option::IntoIter<&'a mut T>;

impl<T: Send, E> IntoParallelIterator for Result<T, E> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        self.ok().into_par_iter()
    }
}

impl<'a, T: Sync, E> IntoParallelIterator for &'a Result<T, E> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        self.as_ref().ok().into_par_iter()
    }
}

impl<'a, T: Send, E> IntoParallelIterator for &'a mut Result<T, E> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        self.as_mut().ok().into_par_iter()
    }
}
