//! Parallel iterators over an `Option`'s item (zero or one).

use crate::iter::IntoParallelIterator;

// Defined in `iter`, below both this module and `iter::once`, which wraps it.
pub use crate::iter::option_iter::IntoIter;

impl<T: Send> IntoParallelIterator for Option<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter::new(self)
    }
}

/// The iterator of `(&Option<T>).into_par_iter()`.
pub type Iter<'a, T> = IntoIter<&'a T>;

/// The iterator of `(&mut Option<T>).into_par_iter()`.
pub type IterMut<'a, T> = IntoIter<&'a mut T>;

impl<'a, T: Sync> IntoParallelIterator for &'a Option<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        IntoIter::new(self.as_ref())
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut Option<T> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IntoIter::new(self.as_mut())
    }
}
