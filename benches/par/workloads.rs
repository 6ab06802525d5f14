//! The seven workloads, each written three times: a sequential `Iterator`,
//! rayon, and rt-par (the same code with the other prelude), and checked
//! against the sequential result.

use std::collections::HashMap;
use std::hint::black_box;
use std::num::Wrapping;

/// What a workload needs prepared before it is timed (its input, made once
/// per round outside the timing).
pub enum Input {
    None,
    Words(Vec<&'static str>),
    U64s(Vec<u64>),
    Pairs(Vec<(u32, u32)>),
    Bodies(Vec<Body>),
    Haystack(Vec<u32>),
}

/// What a workload gives, to compare with the sequential result.
#[derive(PartialEq, Debug)]
pub enum Output {
    Number(u64),
    Rows(Vec<Vec<u16>>),
    Counts(HashMap<&'static str, usize>),
    Sorted(Vec<u64>),
    SortedPairs(Vec<(u32, u32)>),
    Bodies(Vec<Body>),
    Items(Vec<u64>),
    Found(Option<usize>),
}

/// Sizes, full or quick.
#[derive(Clone, Copy)]
pub struct Sizes {
    pub squares: u64,
    pub mandelbrot: usize,
    pub text_bytes: usize,
    pub sort: usize,
    pub bodies: usize,
    pub map_collect: u64,
    pub haystack: usize,
}

impl Sizes {
    pub const FULL: Sizes = Sizes {
        squares: 50_000_000,
        mandelbrot: 1024,
        text_bytes: 20 << 20,
        sort: 10_000_000,
        bodies: 4096,
        map_collect: 10_000_000,
        haystack: 50_000_000,
    };

    pub const QUICK: Sizes = Sizes {
        squares: 10_000_000,
        mandelbrot: 512,
        text_bytes: 4 << 20,
        sort: 2_000_000,
        bodies: 2048,
        map_collect: 2_000_000,
        haystack: 10_000_000,
    };
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Workload {
    SumOfSquares,
    Mandelbrot,
    WordFrequencies,
    SortUnstable,
    SortPairsByKey,
    NBody,
    MapCollect,
    FindFirst,
}

impl Workload {
    pub const ALL: [Workload; 8] = [
        Workload::SumOfSquares,
        Workload::Mandelbrot,
        Workload::WordFrequencies,
        Workload::SortUnstable,
        Workload::SortPairsByKey,
        Workload::NBody,
        Workload::MapCollect,
        Workload::FindFirst,
    ];

    pub fn name(self, sizes: &Sizes) -> String {
        match self {
            Workload::SumOfSquares => {
                format!("sum of squares, 0..{}", millions(sizes.squares as usize))
            }
            Workload::Mandelbrot => format!(
                "Mandelbrot {0}×{0}, 256 iterations, rows collected",
                sizes.mandelbrot
            ),
            Workload::WordFrequencies => format!(
                "word frequencies, {} MB of text (fold + reduce)",
                sizes.text_bytes >> 20
            ),
            Workload::SortUnstable => format!("par_sort_unstable, {} u64", millions(sizes.sort)),
            Workload::SortPairsByKey => {
                format!("par_sort_by_key, {} (u32, u32)", millions(sizes.sort))
            }
            Workload::NBody => format!("n-body step, {} bodies (par_iter_mut)", sizes.bodies),
            Workload::MapCollect => format!(
                "map + collect into Vec, {} items",
                millions(sizes.map_collect as usize)
            ),
            Workload::FindFirst => {
                format!("find_first, match at 10% of {}", millions(sizes.haystack))
            }
        }
    }

    /// The input of one round (not timed).
    pub fn input(self, sizes: &Sizes, text: &'static [&'static str]) -> Input {
        match self {
            Workload::WordFrequencies => Input::Words(text.to_vec()),
            Workload::SortUnstable => Input::U64s(random_u64s(sizes.sort, 11)),
            Workload::SortPairsByKey => Input::Pairs(
                random_u64s(sizes.sort, 13)
                    .into_iter()
                    .map(|x| ((x >> 40) as u32, x as u32))
                    .collect(),
            ),
            Workload::NBody => Input::Bodies(bodies(sizes.bodies)),
            Workload::FindFirst => {
                let mut haystack: Vec<u32> = random_u64s(sizes.haystack, 17)
                    .into_iter()
                    .map(|x| (x as u32) | 1)
                    .collect();
                haystack[sizes.haystack / 10] = NEEDLE;
                Input::Haystack(haystack)
            }
            _ => Input::None,
        }
    }
}

// The sums of squares shift each square by a `black_box`ed 0: the result
// is the sum of squares, but the compiler cannot replace the loop by its
// closed form (which it does for `x * x`), so the items are really summed.

/// The value `find_first` looks for (every other item is odd).
const NEEDLE: u32 = 2;

fn millions(n: usize) -> String {
    if n % 1_000_000 == 0 {
        format!("{} M", n / 1_000_000)
    } else {
        n.to_string()
    }
}

/// A xorshift sequence.
pub fn random_u64s(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// Text of about `bytes` bytes: lines of eight words drawn (skewed towards
/// the first ones) from a vocabulary of 20,000 made-up words.
pub fn text(bytes: usize) -> Vec<&'static str> {
    let vocabulary: Vec<String> = (0..20_000u32)
        .map(|i| {
            let mut w = String::new();
            let mut x = i + 1;
            while x > 0 {
                w.push(char::from(b'a' + (x % 26) as u8));
                x /= 26;
            }
            w
        })
        .collect();
    let mut lines = Vec::new();
    let mut size = 0;
    let mut draws = random_u64s(bytes / 4, 5).into_iter();
    while size < bytes {
        let mut line = String::new();
        for _ in 0..8 {
            let r = draws.next().unwrap_or(7);
            // Squaring a uniform fraction skews towards small indices.
            let f = (r >> 11) as f64 / (1u64 << 53) as f64;
            let index = ((f * f) * vocabulary.len() as f64) as usize;
            line.push_str(&vocabulary[index.min(vocabulary.len() - 1)]);
            line.push(' ');
        }
        size += line.len() + 1;
        lines.push(&*Box::leak(line.into_boxed_str()));
    }
    lines
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Body {
    pos: [f64; 3],
    vel: [f64; 3],
    mass: f64,
}

fn bodies(n: usize) -> Vec<Body> {
    let r = random_u64s(n * 4, 23);
    (0..n)
        .map(|i| {
            let f = |k: usize| (r[i * 4 + k] >> 11) as f64 / (1u64 << 53) as f64;
            Body {
                pos: [f(0) * 100.0, f(1) * 100.0, f(2) * 100.0],
                vel: [0.0; 3],
                mass: 1.0 + f(3),
            }
        })
        .collect()
}

/// One body's step against a snapshot of all: the same arithmetic in the
/// same order on every system.
#[inline]
fn advance(body: &mut Body, all: &[Body]) {
    const DT: f64 = 0.01;
    let mut acc = [0.0f64; 3];
    for other in all {
        let d = [
            other.pos[0] - body.pos[0],
            other.pos[1] - body.pos[1],
            other.pos[2] - body.pos[2],
        ];
        let dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
        let inv = other.mass / (dist2 * dist2.sqrt());
        for (a, d) in acc.iter_mut().zip(d) {
            *a += d * inv;
        }
    }
    for ((pos, vel), acc) in body.pos.iter_mut().zip(&mut body.vel).zip(acc) {
        *vel += acc * DT;
        *pos += *vel * DT;
    }
}

fn mandelbrot_row(y: usize, size: usize) -> Vec<u16> {
    let ci = y as f64 / size as f64 * 2.5 - 1.25;
    (0..size)
        .map(|x| {
            let cr = x as f64 / size as f64 * 3.0 - 2.2;
            let (mut zr, mut zi, mut i) = (0.0f64, 0.0f64, 0u16);
            while i < 256 && zr * zr + zi * zi <= 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                i += 1;
            }
            i
        })
        .collect()
}

fn count_words<'a>(mut counts: HashMap<&'a str, usize>, line: &&'a str) -> HashMap<&'a str, usize> {
    for word in line.split_ascii_whitespace() {
        *counts.entry(word).or_insert(0) += 1;
    }
    counts
}

fn merge_counts<'a>(
    mut a: HashMap<&'a str, usize>,
    b: HashMap<&'a str, usize>,
) -> HashMap<&'a str, usize> {
    let (mut big, small) = if a.len() >= b.len() {
        (a, b)
    } else {
        (b, std::mem::take(&mut a))
    };
    for (word, n) in small {
        *big.entry(word).or_insert(0) += n;
    }
    big
}

#[inline]
fn item(i: u64) -> u64 {
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i >> 7)
}

/// Runs `workload` sequentially.
pub fn sequential(workload: Workload, sizes: &Sizes, input: &mut Input) -> Output {
    match (workload, input) {
        (Workload::SumOfSquares, _) => {
            let (n, shift) = (black_box(sizes.squares), black_box(0));
            Output::Number(
                (0..n)
                    .map(|x| Wrapping((x * x) >> shift))
                    .sum::<Wrapping<u64>>()
                    .0,
            )
        }
        (Workload::Mandelbrot, _) => {
            let size = sizes.mandelbrot;
            Output::Rows((0..size).map(|y| mandelbrot_row(y, size)).collect())
        }
        (Workload::WordFrequencies, Input::Words(lines)) => {
            Output::Counts(lines.iter().fold(HashMap::new(), count_words))
        }
        (Workload::SortUnstable, Input::U64s(v)) => {
            v.sort_unstable();
            Output::Sorted(std::mem::take(v))
        }
        (Workload::SortPairsByKey, Input::Pairs(v)) => {
            v.sort_by_key(|p| p.0);
            Output::SortedPairs(std::mem::take(v))
        }
        (Workload::NBody, Input::Bodies(bodies)) => {
            let snapshot = bodies.clone();
            bodies.iter_mut().for_each(|b| advance(b, &snapshot));
            Output::Bodies(std::mem::take(bodies))
        }
        (Workload::MapCollect, _) => {
            let n = black_box(sizes.map_collect);
            Output::Items((0..n).map(item).collect())
        }
        (Workload::FindFirst, Input::Haystack(v)) => {
            Output::Found(v.iter().position(|&x| x == NEEDLE))
        }
        _ => unreachable!("input does not match the workload"),
    }
}

/// The same code for rayon and for rt-par: only the prelude differs.
macro_rules! parallel {
    ($name:ident, $krate:ident) => {
        pub fn $name(workload: Workload, sizes: &Sizes, input: &mut Input) -> Output {
            use $krate::prelude::*;
            match (workload, input) {
                (Workload::SumOfSquares, _) => {
                    let (n, shift) = (black_box(sizes.squares), black_box(0));
                    Output::Number(
                        (0..n)
                            .into_par_iter()
                            .map(|x| Wrapping((x * x) >> shift))
                            .sum::<Wrapping<u64>>()
                            .0,
                    )
                }
                (Workload::Mandelbrot, _) => {
                    let size = sizes.mandelbrot;
                    Output::Rows(
                        (0..size)
                            .into_par_iter()
                            .map(|y| mandelbrot_row(y, size))
                            .collect(),
                    )
                }
                (Workload::WordFrequencies, Input::Words(lines)) => Output::Counts(
                    lines
                        .par_iter()
                        .fold(HashMap::new, count_words)
                        .reduce(HashMap::new, merge_counts),
                ),
                (Workload::SortUnstable, Input::U64s(v)) => {
                    v.par_sort_unstable();
                    Output::Sorted(std::mem::take(v))
                }
                (Workload::SortPairsByKey, Input::Pairs(v)) => {
                    v.par_sort_by_key(|p| p.0);
                    Output::SortedPairs(std::mem::take(v))
                }
                (Workload::NBody, Input::Bodies(bodies)) => {
                    let snapshot = bodies.clone();
                    bodies.par_iter_mut().for_each(|b| advance(b, &snapshot));
                    Output::Bodies(std::mem::take(bodies))
                }
                (Workload::MapCollect, _) => {
                    let n = black_box(sizes.map_collect);
                    Output::Items((0..n).into_par_iter().map(item).collect())
                }
                (Workload::FindFirst, Input::Haystack(v)) => Output::Found(
                    v.par_iter()
                        .enumerate()
                        .find_first(|&(_, &x)| x == NEEDLE)
                        .map(|(i, _)| i),
                ),
                _ => unreachable!("input does not match the workload"),
            }
        }
    };
}

parallel!(with_rayon, rayon);
parallel!(with_rt_par, rt);
