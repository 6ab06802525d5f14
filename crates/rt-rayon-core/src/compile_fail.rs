//! Programs that must not compile, as `compile_fail` doc tests (run by
//! `cargo test --doc`): rayon-core 1.13's own (`src/compile_fail/`), which
//! prove that `join` and `scope` keep Rust's borrow and `Send` rules, and
//! that the contexts stay on their thread.

/// Two halves of a `join` borrowing the same slice mutably
/// (rayon-core's `quicksort_race1`).
///
/// ```compile_fail,E0524
/// fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
///     if v.len() <= 1 {
///         return;
///     }
///     let mid = v.len() / 2;
///     let (lo, _hi) = v.split_at_mut(mid);
///     rayon_core::join(|| quick_sort(lo), || quick_sort(lo));
/// }
/// ```
///
/// One half borrowing what the other's borrow came from
/// (`quicksort_race2`).
///
/// ```compile_fail,E0500
/// fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
///     if v.len() <= 1 {
///         return;
///     }
///     let mid = v.len() / 2;
///     let (lo, _hi) = v.split_at_mut(mid);
///     rayon_core::join(|| quick_sort(lo), || quick_sort(v));
/// }
/// ```
///
/// The other half, twice (`quicksort_race3`).
///
/// ```compile_fail,E0524
/// fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
///     if v.len() <= 1 {
///         return;
///     }
///     let mid = v.len() / 2;
///     let (_lo, hi) = v.split_at_mut(mid);
///     rayon_core::join(|| quick_sort(hi), || quick_sort(hi));
/// }
/// ```
pub mod races {}

/// A `join` half returning what is not `Send` (`rc_return`), on either
/// side.
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// rayon_core::join(|| Rc::new(22), || ());
/// ```
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// rayon_core::join(|| (), || Rc::new(23));
/// ```
///
/// Halves capturing what is not `Send` (`rc_upvar`).
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// let r = Rc::new(22);
/// rayon_core::join(|| r.clone(), || r.clone());
/// ```
pub mod not_send {}

/// A scope's task borrowing a local of the scope's body, which ends before
/// the task may (`scope_join_bad`).
///
/// ```compile_fail,E0373
/// fn bad_scope<F>(f: F)
/// where
///     F: FnOnce(&i32) + Send,
/// {
///     rayon_core::scope(|s| {
///         let x = 22;
///         s.spawn(|_| f(&x));
///     });
/// }
/// ```
pub mod scope_borrows {}

/// The contexts stay on their thread, as rayon-core's do.
///
/// ```compile_fail,E0277
/// fn send<T: Send>() {}
/// send::<rayon_core::FnContext>();
/// ```
///
/// ```compile_fail,E0277
/// fn send<T: Send>() {}
/// send::<rayon_core::BroadcastContext<'static>>();
/// ```
pub mod contexts {}
