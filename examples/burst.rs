//! A producer that is idle most of the time and then hands a batch of packets
//! to the workers at once: each burst wakes exactly the parked workers it
//! needs, each once. Shows round-robin spreading, a full queue handing the
//! item back, a panicking handler that is survived, and the per-worker stats.
//!
//! Run with `cargo run --release --example burst`.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use rt::burst::{BurstPool, SendError};

/// One packet of a batch: its sequence number, when the producer sent it,
/// and its payload.
struct Packet {
    seq: u64,
    sent: Instant,
    payload: Vec<u8>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (done, results) = mpsc::channel();
    let mut pool = BurstPool::builder()
        .queue_capacity(4)
        .thread_name("packet")
        .build()?;
    for worker in 0..4 {
        let done = done.clone();
        pool.spawn_worker(move |p: Packet| {
            let woke_after = p.sent.elapsed();
            if p.payload.is_empty() {
                panic!("packet {} has no payload", p.seq); // caught, counted
            }
            let checksum = p
                .payload
                .iter()
                .fold(0u32, |a, &b| a.rotate_left(5) ^ u32::from(b));
            done.send((worker, p.seq, woke_after, checksum)).unwrap();
        });
    }
    drop(done);
    // Keep the one expected panic (on a `packet-*` worker) off the output.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !thread::current().name().unwrap_or("").starts_with("packet") {
            default_hook(info);
        }
    }));

    // Five ticks: the workers sleep between them, and each tick's batch of
    // 8 packets wakes each of the 4 workers once (2 packets each).
    let mut seq = 0;
    for tick in 0..5 {
        thread::sleep(Duration::from_millis(5));
        let sent = Instant::now();
        let batch = (0..8).map(|i| {
            seq += 1;
            let len = if tick == 4 && i == 0 { 0 } else { 64 + i };
            Packet {
                seq,
                sent,
                payload: vec![tick as u8; len],
            }
        });
        if let Err(err) = pool.send_burst(batch) {
            println!("tick {tick}: {} packets came back", err.into_inner().len());
        }
    }

    // Back-pressure: with every worker busy and every queue (4 each) full,
    // the packet comes back instead of piling up.
    let gate = std::sync::Arc::new(std::sync::Barrier::new(5));
    let mut blocked = BurstPool::builder()
        .queue_capacity(4)
        .thread_name("busy")
        .build()?;
    for _ in 0..4 {
        let gate = gate.clone();
        blocked.spawn_worker(move |first: bool| {
            if first {
                gate.wait();
            }
        });
    }
    thread::sleep(Duration::from_millis(20)); // let the workers park
    blocked
        .send_burst([true; 4])
        .map_err(|_| "room for the first four")?;
    while blocked.stats().queued() > 0 {
        thread::yield_now(); // until each worker is inside its handler
    }
    blocked
        .send_burst([false; 16])
        .map_err(|_| "room for sixteen more")?;
    match blocked.send(false) {
        Err(SendError::Full(item)) => println!("every queue full: got the item back ({item})"),
        other => println!("unexpected: {other:?}"),
    }
    gate.wait();
    blocked.shutdown();

    pool.shutdown(); // handles everything queued, then joins the workers
    let mut handled: Vec<_> = results.iter().collect();
    handled.sort_by_key(|&(_, seq, _, _)| seq);
    let mean_us =
        handled.iter().map(|h| h.2.as_secs_f64() * 1e6).sum::<f64>() / handled.len() as f64;
    println!(
        "{} packets handled, mean send-to-handler {mean_us:.0} µs",
        handled.len()
    );
    for (w, s) in pool.stats().workers.iter().enumerate() {
        println!("worker {w}: handled {} (panics {})", s.handled, s.panics);
    }
    let stats = pool.stats();
    assert_eq!(stats.handled(), 40);
    assert_eq!(stats.panics(), 1);
    assert_eq!(handled.len(), 39);
    assert!(matches!(
        pool.send(Packet {
            seq: 0,
            sent: Instant::now(),
            payload: vec![]
        }),
        Err(SendError::Closed(_))
    ));
    Ok(())
}
