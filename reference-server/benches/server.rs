//! `cargo bench -p reference-server --features bench`: the store's list queries and the rendering of events,
//! without a server (see `scripts/bench.sh` for the same shapes over HTTP).
//!
//! The site is seeded as `--seed-events N` seeds it, with `BENCH_EVENTS` events (default
//! 100000; the deep page is the last full one when there are fewer than 100 pages of 50).
//! Groups:
//! - `query`: list requests with `per_page=1`, so one event is rendered and the time is the
//!   query's (walking the window or an index, filtering, counting the total);
//! - `request`: whole GET requests as the handler answers them (query, rendering of the page,
//!   serialization), the shapes of `scripts/bench.sh`;
//! - `render`: one event as a single read shows it, and pages of 10 and 50 events, from the
//!   server's cache of rendered fragments and (`cold`) from an empty one, as after a write.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use reference_server::bench::Site;

fn site() -> Site {
    let events = std::env::var("BENCH_EVENTS").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let site = Site::seeded(events);
    assert_eq!(site.events(), events, "the seed made every event");
    site
}

fn benches(c: &mut Criterion) {
    let site = site();
    let (category, venue) = (&site.category_slug, site.venue_id);
    let deep = site.deep_page;
    let shapes: Vec<(&str, String)> = vec![
        ("default list", "/events".into()),
        ("deep page (100 of 50)", format!("/events?per_page=50&page={deep}")),
        ("search (50)", "/events?search=night&per_page=50".into()),
        ("category + venue", format!("/events?categories={category}&venue={venue}")),
        ("featured", "/events?featured=true".into()),
    ];

    let mut query = c.benchmark_group("query");
    for (name, path) in &shapes {
        // The same walk with one event on the page: page 100 of 50 starts at item 4951.
        let one = if name.starts_with("deep page") {
            format!("/events?per_page=1&page={}", (deep - 1) * 50 + 1)
        } else {
            let separator = if path.contains('?') { '&' } else { '?' };
            format!("{}{separator}per_page=1", path.replace("&per_page=50", "").replace("?per_page=50&", "?"))
        };
        query.bench_function(*name, |b| b.iter(|| black_box(site.get(black_box(&one)))));
    }
    query.finish();

    let mut request = c.benchmark_group("request");
    let singles = [
        ("event by ID", format!("/events/{}", site.event_id)),
        ("event by slug", format!("/events/by-slug/{}", site.event_slug)),
    ];
    let lists = [("venues list", "/venues".to_string()), ("term list", "/categories".to_string())];
    for (name, path) in singles.iter().chain(&shapes).chain(&lists) {
        request.bench_function(*name, |b| b.iter(|| black_box(site.get(black_box(path)))));
    }
    request.finish();

    let mut render = c.benchmark_group("render");
    for (label, cold) in [("", false), (", cold", true)] {
        render.bench_function(format!("one event (single read){label}"), |b| {
            b.iter(|| black_box(site.render_event(site.event_id, cold)))
        });
        for count in [10, 50] {
            render.bench_function(format!("page of {count}{label}"), |b| {
                b.iter(|| black_box(site.render_page(count, cold)))
            });
        }
    }
    render.finish();
}

criterion_group! {
    name = server;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(server);
