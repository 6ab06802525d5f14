//! `use rt::prelude::*` beside the globs a program already has (std's
//! prelude, `use tokio::*`, `use rayon::prelude::*`) makes no name
//! ambiguous: the prelude brings the parallel iterators' methods and no
//! name at all.
//!
//! Each module below globs the prelude and a stand-in module declaring the
//! names of one of those globs, then uses every one of them. Two globs
//! that bring the same name make its use an error, so if the prelude
//! brought any of these names this file would not compile.

use rt_testkit::without_hanging;

/// Declares, in a module named `$module`, a unit struct for each name;
/// the test module beside it globs both that module and `rt::prelude`, and
/// resolves every name to the stand-in.
macro_rules! names_resolve_to_the_other_glob {
    ($test:ident, $module:ident: $($name:ident),+ $(,)?) => {
        #[allow(non_camel_case_types, dead_code)]
        mod $module {
            $(pub struct $name;)+
        }

        #[test]
        fn $test() {
            without_hanging(|| {
                #[allow(unused_imports)]
                use rt::prelude::*;
                #[allow(unused_imports)]
                use $module::*;
                // Each name, used as a type and as a value, must resolve
                // to the stand-in. (The std names are shadowed here: no
                // `Vec`, `Some` or `Option` of std's below.)
                let mut resolved = 0usize;
                $(
                    let _: $name = $name;
                    resolved += 1;
                )+
                assert_eq!(resolved, [$(stringify!($name)),+].len());
            });
        }
    };
}

names_resolve_to_the_other_glob!(
    rayon_prelude_names_stay_rayons,
    rayon_prelude: FromParallelIterator,
    IndexedParallelIterator,
    IntoParallelIterator,
    IntoParallelRefIterator,
    IntoParallelRefMutIterator,
    ParallelBridge,
    ParallelDrainFull,
    ParallelDrainRange,
    ParallelExtend,
    ParallelIterator,
    ParallelSlice,
    ParallelSliceMut,
    ParallelString,
);

names_resolve_to_the_other_glob!(
    tokio_root_names_stay_tokios,
    tokio_root: spawn,
    join,
    try_join,
    select,
    pin,
    main,
    test,
    task,
    runtime,
    sync,
    time,
    io,
    net,
    fs,
    process,
    signal,
    stream,
);

names_resolve_to_the_other_glob!(
    rayon_root_names_stay_rayons,
    rayon_root: join,
    scope,
    spawn,
    in_place_scope,
    broadcast,
    ThreadPool,
    ThreadPoolBuilder,
    current_num_threads,
    current_thread_index,
    iter,
    slice,
    str,
    prelude,
);

names_resolve_to_the_other_glob!(
    std_prelude_names_stay_stds,
    std_prelude: Option,
    Some,
    None,
    Result,
    Ok,
    Err,
    Vec,
    String,
    Box,
    ToString,
    ToOwned,
    Iterator,
    IntoIterator,
    FromIterator,
    Extend,
    DoubleEndedIterator,
    ExactSizeIterator,
    Default,
    Clone,
    Copy,
    Send,
    Sync,
    Sized,
    Drop,
    Fn,
    FnMut,
    FnOnce,
    AsRef,
    AsMut,
    Into,
    From,
    TryFrom,
    TryInto,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    drop,
);

/// The glob still brings what it is for: the iterators' methods.
#[test]
fn the_prelude_still_brings_the_parallel_iterators_methods() {
    without_hanging(|| {
        use rt::prelude::*;
        let v = vec![1u32, 2, 3];
        assert_eq!(v.par_iter().map(|x| x * 2).sum::<u32>(), 12);
        let mut w = vec![3, 1, 2];
        w.par_sort();
        assert_eq!(w, [1, 2, 3]);
        assert_eq!("a b".par_split_whitespace().count(), 2);
    });
}
