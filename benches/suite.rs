//! The criterion suite (`cargo xtask bench --full`): every workload on every
//! strategy, with criterion's statistics and HTML reports.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rt_bench_report::cli;

use common::strategies;
use common::workloads::{self, Shape};

fn bench_all(c: &mut Criterion) {
    let list = workloads::all();
    let mut pools = std::collections::BTreeMap::new();
    for w in &list {
        let set = pools
            .entry(w.workers)
            .or_insert_with(|| strategies::all(w.workers, &|_| true));
        let mut group = c.benchmark_group(w.name);
        group.sample_size(10);
        for s in set.iter() {
            let supported = match w.shape {
                Shape::Graph { width } => s.graph(width, w.task),
                Shape::Chain { links } => s.chain(links, w.task),
                _ => true,
            };
            if !supported {
                continue;
            }
            group.bench_function(BenchmarkId::from_parameter(s.name()), |b| {
                b.iter(|| match w.shape {
                    Shape::Detached { n } => s.detached(0..n, w.task),
                    Shape::Joined { n } => s.joined(n, w.task),
                    Shape::Nested { outer, inner } => s.nested(outer, inner, w.task),
                    Shape::FanOutJoin { width } => s.fan_out_join(width, w.task),
                    Shape::Graph { width } => {
                        s.graph(width, w.task);
                    }
                    Shape::Chain { links } => {
                        s.chain(links, w.task);
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_all);
criterion_main!(benches);
