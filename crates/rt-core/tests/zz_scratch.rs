use std::sync::{Arc, Mutex, OnceLock, Weak};
use rt_core::Runtime;
#[test]
fn spawn_from_stop_hook() {
    let slot: Arc<OnceLock<Weak<Runtime>>> = Arc::default();
    let handles: Arc<Mutex<Vec<rt_core::JoinHandle<u8>>>> = Arc::default();
    let (s, h) = (slot.clone(), handles.clone());
    let rt = Arc::new(Runtime::builder().threads(2).after_worker_stop(move |_| {
        if let Some(rt) = s.get().and_then(Weak::upgrade) {
            h.lock().unwrap().push(rt.spawn(|| 1));
        }
    }).build().unwrap());
    slot.set(Arc::downgrade(&rt)).unwrap();
    rt.spawn(|| ()).join().unwrap();
    rt.shutdown();
    eprintln!("shut down; joining {} handles", handles.lock().unwrap().len());
    for h in handles.lock().unwrap().drain(..) {
        eprintln!("status {:?}", h.status());
        eprintln!("{:?}", h.join());
    }
}
#[test]
fn spawn_and_join_from_start_hook() {
    let slot: Arc<OnceLock<Weak<Runtime>>> = Arc::default();
    let s = slot.clone();
    let rt = Arc::new(Runtime::builder().threads(2).after_task(move |_| {
        if let Some(rt) = s.get().and_then(Weak::upgrade) {
            eprintln!("after_task join {:?}", rt.spawn(|| 1).join());
        }
    }).build().unwrap());
    slot.set(Arc::downgrade(&rt)).unwrap();
    rt.spawn(|| ()).join().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    eprintln!("dropping");
    drop(rt);
    eprintln!("dropped");
}
