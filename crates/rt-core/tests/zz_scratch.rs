use rt_core::Runtime;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn probe_one_worker_adopted_shutdown_elsewhere() {
    let rt = Arc::new(
        Runtime::builder()
            .threads(1)
            .use_current_thread()
            .build()
            .unwrap(),
    );
    let rt2 = rt.clone();
    let t = std::thread::spawn(move || rt2.shutdown());
    std::thread::sleep(Duration::from_secs(2));
    eprintln!("shutdown thread finished: {}", t.is_finished());
    eprintln!("is_shutdown: {}", rt.is_shutdown());
    eprintln!(
        "wait_termination_timeout(1s): {}",
        rt.wait_termination_timeout(Duration::from_secs(1))
    );
    eprintln!("stats: {:?}", rt.stats().workers.len());
    drop(rt); // on the adopted thread: releases
    std::thread::sleep(Duration::from_secs(1));
    eprintln!(
        "after drop on adopted thread, shutdown thread finished: {}",
        t.is_finished()
    );
}

#[test]
fn probe_one_worker_adopted_stop_elsewhere() {
    let rt = Arc::new(
        Runtime::builder()
            .threads(1)
            .use_current_thread()
            .build()
            .unwrap(),
    );
    let rt2 = rt.clone();
    let t = std::thread::spawn(move || {
        rt2.stop();
        rt2.wait_termination()
    });
    std::thread::sleep(Duration::from_secs(2));
    eprintln!("stop+wait_termination thread finished: {}", t.is_finished());
}

#[test]
fn probe_one_worker_adopted_shutdown_here() {
    let rt = Runtime::builder()
        .threads(1)
        .use_current_thread()
        .build()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = rx.recv_timeout(Duration::from_secs(3)).is_err() && {
            eprintln!("shutdown on adopted thread HUNG");
            true
        };
    });
    rt.shutdown();
    tx.send(()).unwrap();
    eprintln!("shutdown on the adopted thread returned");
}
