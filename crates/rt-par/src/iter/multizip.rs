//! Tuples of indexed parallel iterators zip into one (rayon's
//! `MultiZip`): `(a, b, c).into_par_iter()` yields `(a_i, b_i, c_i)` up to
//! the shortest, as nested `zip`s flattened by a `map`.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of a tuple of indexed parallel iterators.
///
/// ```
/// use rt_par::prelude::*;
/// let (a, b, c) = (vec![1, 2, 3], vec!['a', 'b'], 0..10);
/// let v: Vec<(&i32, &char, i32)> = (&a, &b, c).into_par_iter().collect();
/// assert_eq!(v, [(&1, &'a', 0), (&2, &'b', 1)]);
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct MultiZip<T> {
    tuple: T,
}

/// Implements the traits for one tuple size: `$zip` zips the parts (named
/// by the lower-case identifiers) and `$nested` is the shape of its items.
macro_rules! multizip {
    ($($T:ident $t:ident),+; zip: $zip:expr; nested: $nested:pat_param) => {
        impl<$($T),+> IntoParallelIterator for ($($T,)+)
        where
            $($T: IntoParallelIterator, $T::Iter: IndexedParallelIterator,)+
        {
            type Iter = MultiZip<($($T::Iter,)+)>;
            type Item = ($($T::Item,)+);

            fn into_par_iter(self) -> Self::Iter {
                let ($($t,)+) = self;
                MultiZip {
                    tuple: ($($t.into_par_iter(),)+),
                }
            }
        }

        impl<$($T),+> ParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            type Item = ($($T::Item,)+);

            fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
                self.drive(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<$($T),+> IndexedParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
                let ($($t,)+) = self.tuple;
                $zip.map(|$nested| ($($t,)+)).drive(consumer)
            }

            fn len(&self) -> usize {
                let ($($t,)+) = &self.tuple;
                let mut len = usize::MAX;
                $(len = len.min($t.len());)+
                len
            }

            fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
                let ($($t,)+) = self.tuple;
                $zip.map(|$nested| ($($t,)+)).with_producer(callback)
            }
        }
    };
}

multizip!(A a; zip: a; nested: a);
multizip!(A a, B b; zip: a.zip(b); nested: (a, b));
multizip!(A a, B b, C c; zip: a.zip(b).zip(c); nested: ((a, b), c));
multizip!(A a, B b, C c, D d; zip: a.zip(b).zip(c).zip(d); nested: (((a, b), c), d));
multizip!(A a, B b, C c, D d, E e; zip: a.zip(b).zip(c).zip(d).zip(e); nested: ((((a, b), c), d), e));
multizip!(A a, B b, C c, D d, E e, F f; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f); nested: (((((a, b), c), d), e), f));
multizip!(A a, B b, C c, D d, E e, F f, G g; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g); nested: ((((((a, b), c), d), e), f), g));
multizip!(A a, B b, C c, D d, E e, F f, G g, H h; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g).zip(h); nested: (((((((a, b), c), d), e), f), g), h));
multizip!(A a, B b, C c, D d, E e, F f, G g, H h, I i; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g).zip(h).zip(i); nested: ((((((((a, b), c), d), e), f), g), h), i));
multizip!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g).zip(h).zip(i).zip(j); nested: (((((((((a, b), c), d), e), f), g), h), i), j));
multizip!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g).zip(h).zip(i).zip(j).zip(k); nested: ((((((((((a, b), c), d), e), f), g), h), i), j), k));
multizip!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l; zip: a.zip(b).zip(c).zip(d).zip(e).zip(f).zip(g).zip(h).zip(i).zip(j).zip(k).zip(l); nested: (((((((((((a, b), c), d), e), f), g), h), i), j), k), l));
