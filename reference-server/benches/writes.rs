//! `cargo bench -p reference-server --features bench --bench writes`: what one write costs in a calendar of
//! 1,000 events and in one of 100,000 (issue 9, C3: each should cost the same in both).
//!
//! For each size, the site is seeded as `--seed-events N` seeds it, then each kind of write
//! runs `BENCH_WRITES` times (default 2,000) in a row as the administrator, without HTTP:
//! - `same-title create`: events that all have one title (slug suffixes `-2`, `-3`, …);
//! - `same-category create`: published events in the seed's busiest category (its count);
//! - `venue create` / `organizer create` / `category create`: new items with new names (the
//!   duplicate checks against every existing one);
//! - `deep category filter`: a list filtered on the root of a chain of nested categories
//!   (as deep as the number of writes), which includes every descendant.
//!
//! It prints the mean time per write for each size and the ratio of the two.

use std::time::Instant;

use reference_server::bench::Site;
use serde_json::{json, Value};

fn writes() -> usize {
    std::env::var("BENCH_WRITES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000)
}

/// Mean microseconds per call of `write(i)` over `count` calls; every call must succeed.
fn time(count: usize, mut write: impl FnMut(usize) -> (u16, Value)) -> f64 {
    let started = Instant::now();
    for i in 0..count {
        let (status, body) = write(i);
        assert!(status < 300, "write {i} answered {status}: {body}");
    }
    started.elapsed().as_secs_f64() * 1e6 / count as f64
}

fn measure(size: usize) -> Vec<(&'static str, f64)> {
    eprintln!("writes: seeding {size} events");
    let site = Site::seeded(size);
    let count = writes();
    let busiest = site.answer("/categories?orderby=count&order=desc&per_page=1");
    let category = busiest["categories"][0]["id"].as_u64().expect("a category");
    let (start, end) = ("2027-03-01 19:00:00", "2027-03-01 21:00:00");
    let mut rows = Vec::new();
    rows.push((
        "same-title create",
        time(count, |_| {
            site.post("/events", &json!({"title": "Same Title Every Time", "start_date": start, "end_date": end}))
        }),
    ));
    rows.push((
        "same-category create",
        time(count, |i| {
            let title = format!("Counted {i}");
            site.post("/events", &json!({"title": title, "status": "publish", "start_date": start, "end_date": end, "categories": [category]}))
        }),
    ));
    rows.push(("venue create", time(count, |i| site.post("/venues", &json!({"venue": format!("Bench Hall {i}")})))));
    rows.push((
        "organizer create",
        time(count, |i| site.post("/organizers", &json!({"organizer": format!("Bench Crew {i}")}))),
    ));
    rows.push((
        "category create",
        time(count, |i| site.post("/categories", &json!({"name": format!("Bench Topic {i}")}))),
    ));
    // A chain of nested categories, then a filter on its root.
    let mut parent = 0u64;
    let mut root = 0u64;
    for i in 0..count {
        let mut body = json!({"name": format!("Nested {i}")});
        if parent != 0 {
            body["parent"] = json!(parent);
        }
        let (status, body) = site.post("/categories", &body);
        parent = body["id"].as_u64().unwrap_or_else(|| panic!("a category, not {status} {body}"));
        if i == 0 {
            root = parent;
        }
    }
    let filter = format!("/events?categories={root}");
    let runs = 20;
    let started = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(site.get(&filter));
    }
    rows.push(("deep category filter", started.elapsed().as_secs_f64() * 1e6 / runs as f64));
    rows
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported here.
    let small = measure(1_000);
    let large = measure(100_000);
    println!("{:<24} {:>14} {:>14} {:>8}", "write", "1,000 events", "100,000 events", "ratio");
    for ((name, a), (_, b)) in small.iter().zip(&large) {
        println!("{name:<24} {:>11.1} µs {:>11.1} µs {:>7.2}×", a, b, b / a);
    }
}
