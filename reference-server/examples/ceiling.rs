//! The ceiling of `scripts/bench.sh`: a bare axum server answering JSON of the sizes the
//! reference server answers, with no work beyond serializing a typed value. What it serves per
//! second on a machine is the most a JSON API built on the same stack can expect there.
//!
//! - `GET /one`: one event-like object of about 1 KB (a single read);
//! - `GET /list`: a page of event-like objects, about 25 KB (a list page).
//!
//! Each answer is serialized on every request from a value built at start, as a handler
//! returning a typed `Json` value would. Usage: `ceiling [ADDRESS]` (default `127.0.0.1:0`);
//! prints its base address (`http://127.0.0.1:PORT`) on the first line, stops on Ctrl-C or SIGTERM.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Response};
use axum::routing::get;
use serde::Serialize;

#[derive(Serialize, Clone)]
struct Details {
    year: String,
    month: String,
    day: String,
    hour: String,
    minutes: String,
    seconds: String,
}

#[derive(Serialize, Clone)]
struct Item {
    id: u64,
    global_id: String,
    author: String,
    status: &'static str,
    date: String,
    date_utc: String,
    url: String,
    rest_url: String,
    title: String,
    description: String,
    slug: String,
    all_day: bool,
    start_date: String,
    start_date_details: Details,
    end_date: String,
    end_date_details: Details,
    timezone: &'static str,
    cost: &'static str,
    featured: bool,
    categories: Vec<Term>,
}

#[derive(Serialize, Clone)]
struct Term {
    id: u64,
    name: &'static str,
    slug: &'static str,
    taxonomy: &'static str,
    count: u64,
}

#[derive(Serialize)]
struct Page {
    events: Vec<Item>,
    rest_url: String,
    next_rest_url: String,
    total: u64,
    total_pages: u64,
}

fn details(day: u32, hour: u32) -> Details {
    Details {
        year: "2027".into(),
        month: "03".into(),
        day: format!("{day:02}"),
        hour: format!("{hour:02}"),
        minutes: "30".into(),
        seconds: "00".into(),
    }
}

fn item(id: u64) -> Item {
    let slug = format!("late-night-jazz-session-{id}");
    Item {
        id,
        global_id: format!("127.0.0.1?id={id}"),
        author: "1".into(),
        status: "publish",
        date: "2026-10-31 16:17:04".into(),
        date_utc: "2026-10-31 16:17:04".into(),
        url: format!("http://127.0.0.1:8080/event/{slug}/"),
        rest_url: format!("http://127.0.0.1:8080/wp-json/calendar/events/v1/events/{id}"),
        title: "Late Night Jazz Session".into(),
        description: "<p>Join us for an evening of live music, good company and the best view in town. \
                      Doors open thirty minutes before the start &#8211; arrive early to get a seat.</p>"
            .into(),
        slug,
        all_day: false,
        start_date: "2027-03-12 19:30:00".into(),
        start_date_details: details(12, 19),
        end_date: "2027-03-12 22:30:00".into(),
        end_date_details: details(12, 22),
        timezone: "America/New_York",
        cost: "$15 &#8211; $25",
        featured: false,
        categories: vec![Term { id: 2, name: "Jazz", slug: "jazz", taxonomy: "tribe_events_cat", count: 4210 }],
    }
}

struct Payloads {
    one: Item,
    list: Page,
}

fn json<T: Serialize>(value: &T) -> Response<Body> {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    let mut response = Response::new(Body::from(bytes));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json; charset=UTF-8"));
    response
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address: SocketAddr = match std::env::args().nth(1) {
        Some(text) => text.parse().map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?,
        None => SocketAddr::from(([127, 0, 0, 1], 0)),
    };
    let payloads = Arc::new(Payloads {
        one: item(1),
        list: Page {
            events: (100..125).map(item).collect(),
            rest_url: "http://127.0.0.1:8080/wp-json/calendar/events/v1/events/".into(),
            next_rest_url: "http://127.0.0.1:8080/wp-json/calendar/events/v1/events/?page=2".into(),
            total: 70_000,
            total_pages: 7_000,
        },
    });
    let (one, list) = (payloads.clone(), payloads);
    let router = axum::Router::new()
        .route("/one", get(move || std::future::ready(json(&one.one))))
        .route("/list", get(move || std::future::ready(json(&list.list))));
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("http://{}", listener.local_addr()?);
    axum::serve(listener, router).with_graceful_shutdown(stop()).await
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
