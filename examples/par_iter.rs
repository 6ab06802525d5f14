//! Parallel iterators: rayon code on this runtime, by changing one `use`.
//!
//! Counts the primes below two million, builds a histogram of word lengths
//! with `fold` and `reduce`, sorts, and shows the two additions to rayon's
//! API: a job that runs its pieces at Background priority, and one that a
//! cancellation token stops early.
//!
//! `cargo run --release --example par_iter`

use std::collections::HashMap;
use std::time::Instant;

use rt::prelude::*; // instead of `use rayon::prelude::*;`
use rt::{CancellationToken, Priority, Runtime};

fn is_prime(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

fn main() {
    // Outside any runtime, parallel iterators run on a global runtime with
    // one worker per core.
    let started = Instant::now();
    let primes = (0..2_000_000u64)
        .into_par_iter()
        .filter(|&n| is_prime(n))
        .count();
    println!("{primes} primes below 2,000,000 in {:?}", started.elapsed());

    // `rt.install` runs them on a runtime of your own.
    let rt = Runtime::new(2).expect("start the runtime");
    let text = "the quick brown fox jumps over the lazy dog ".repeat(10_000);
    let words: Vec<&str> = text.split_whitespace().collect();
    let lengths: HashMap<usize, usize> = rt.install(|| {
        words
            .par_iter()
            .fold(HashMap::new, |mut counts, word| {
                *counts.entry(word.len()).or_insert(0) += 1;
                counts
            })
            .reduce(HashMap::new, |mut a, b| {
                for (len, n) in b {
                    *a.entry(len).or_insert(0) += n;
                }
                a
            })
    });
    let mut histogram: Vec<_> = lengths.into_iter().collect();
    histogram.sort();
    println!("word lengths: {histogram:?}");

    // Ordered results stay in order, indexed or not.
    let squares_of_odds: Vec<u64> = rt.install(|| {
        (0..20u64)
            .into_par_iter()
            .filter(|x| x % 2 == 1)
            .map(|x| x * x)
            .collect()
    });
    println!("squares of odd numbers below 20: {squares_of_odds:?}");

    let mut values: Vec<u64> = (0..1_000_000u64).map(|i| i * 7919 % 1_000_003).collect();
    rt.install(|| values.par_sort_unstable());
    assert!(values.windows(2).all(|w| w[0] <= w[1]));
    println!("sorted {} values", values.len());

    // Beyond rayon: a batch job whose pieces other workers run at
    // Background priority, so it never delays High work on the same pool.
    let checksum: u64 = rt.install(|| {
        (0..10_000_000u64)
            .into_par_iter()
            .with_priority(Priority::Background)
            .map(|x| x ^ (x >> 3))
            .sum()
    });
    println!("background checksum: {checksum}");

    // Beyond rayon: a job that stops early once its token is cancelled, and
    // says so instead of returning the sum of the items it got to.
    let token = CancellationToken::new();
    let seen = rt.install(|| {
        (0..u64::MAX)
            .into_par_iter()
            .map(|i| {
                if i == 1_000_000 {
                    token.cancel();
                }
                1u64
            })
            .with_cancellation(&token)
            .sum::<u64>()
    });
    match seen {
        Ok(n) => println!("all {n} items seen"),
        Err(cancelled) => println!("stopped early: {cancelled}"),
    }
}
