//! Hooks for `cargo bench` (`reference-server/benches/`); not part of the library's API.
//!
//! A [`Site`] is a server's state seeded as `--seed-events N` seeds it, without a listener.
//! [`Site::get`] runs a GET the way the request pipeline does minus HTTP (routing, validation,
//! the handler's query and rendering, serialization of the body), [`Site::post`] a write as
//! the administrator, and the `render_*` methods time the rendering alone. The internals stay
//! private: benches see byte counts and answers only.

use chrono::{TimeZone, Utc};
use hyper::HeaderMap;
use serde_json::Value;

use crate::app::{App, Clock, Ctx};
use crate::auth::Users;
use crate::cache::RenderCache;
use crate::config::{Config, UserSpec};
use crate::dates::Zone;
use crate::http::{parse_form, route_for, ApiRequest, Body};
use crate::interface::Method;
use crate::model::{Id, Lang};
use crate::store::{Data, Store};
use crate::validate::Params;
use crate::views::{EventSnapshot, Renderer};

const SITE: &str = "http://127.0.0.1:8080";

/// A seeded site, and the targets of the request shapes `scripts/bench.sh` measures.
pub struct Site {
    app: App,
    /// The first event of the default list (reads by ID and slug).
    pub event_id: Id,
    pub event_slug: String,
    /// The venue of the first listed event that has one, and the top-level category with the
    /// most upcoming events there (as `scripts/bench.sh` picks them).
    pub category_slug: String,
    pub venue_id: Id,
    /// Page 100 of 50 of the default list, or its last full page when it has fewer.
    pub deep_page: u64,
    /// The events of the first page of 50 of the default list, in order (for rendering).
    page: Vec<Id>,
}

impl Site {
    /// A site with the default users and `events` seeded events, its clock at the instant the
    /// golden corpus starts (so the same count gives the same site).
    pub fn seeded(events: usize) -> Site {
        let config = Config { clock: Utc.with_ymd_and_hms(2026, 11, 22, 1, 42, 13).single(), ..Config::ephemeral() };
        let app = App {
            users: Users::new(&UserSpec::defaults()),
            store: Store::new(Data::fresh_site(SITE)),
            clock: Clock::new(config.clock),
            site_zone: Zone::parse("UTC").unwrap_or(Zone::Fixed { seconds: 0, label: "UTC+0".into() }),
            site_url: SITE.to_string(),
            config,
        };
        crate::seed::load(&app, events);
        let mut site = Site {
            app,
            event_id: 0,
            event_slug: String::new(),
            category_slug: String::new(),
            venue_id: 0,
            deep_page: 1,
            page: vec![],
        };
        let first_page = site.answer("/events?per_page=50");
        let listed = first_page["events"].as_array().cloned().unwrap_or_default();
        let pages = first_page["total_pages"].as_u64().unwrap_or(1);
        site.deep_page = if pages <= 100 { pages.saturating_sub(1).max(1) } else { 100 };
        site.page = listed.iter().filter_map(|event| event["id"].as_u64()).collect();
        if let Some(first) = listed.first() {
            site.event_id = first["id"].as_u64().unwrap_or(0);
            site.event_slug = first["slug"].as_str().unwrap_or("").to_string();
        }
        if let Some(linked) = listed.iter().find(|e| e["venue"]["id"].is_u64() && e["categories"][0].is_object()) {
            site.venue_id = linked["venue"]["id"].as_u64().unwrap_or(0);
        }
        let categories = site.answer("/categories?per_page=50");
        let mut best = 0;
        for category in categories["categories"].as_array().into_iter().flatten() {
            let Some(slug) = category["slug"].as_str().filter(|_| category["parent"] == 0) else { continue };
            let path = format!("/events?categories={slug}&venue={}&per_page=1", site.venue_id);
            let found = site.answer(&path)["total"].as_u64().unwrap_or(0);
            if found > best {
                best = found;
                site.category_slug = slug.to_string();
            }
        }
        site
    }

    fn ctx(&self, lang: Lang) -> Ctx<'_> {
        self.ctx_as(lang, None)
    }

    fn ctx_as(&self, lang: Lang, user: Option<u64>) -> Ctx<'_> {
        Ctx {
            app: &self.app,
            user: user.and_then(|id| self.app.users.get(id)),
            lang,
            api_base: format!("{}{}/{}", self.app.site_url, self.app.config.root, self.app.config.namespace),
            now: self.app.clock.now(),
        }
    }

    /// The body of an anonymous GET of `path_and_query`, relative to the namespace
    /// (`/events?page=2`); errors are answered as their envelope.
    pub fn answer(&self, path_and_query: &str) -> Value {
        self.reply(path_and_query).into_value()
    }

    fn reply(&self, path_and_query: &str) -> Body {
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        let query: Params = parse_form(query);
        let Some((route, var)) = route_for(path) else { return Body::Value(Value::Null) };
        let request =
            ApiRequest { method: Method::Get, route, var, query, body: Params::new(), headers: HeaderMap::new() };
        let lang = request.params().get(&self.app.config.language_param).and_then(Value::as_str).and_then(Lang::parse);
        let ctx = self.ctx(lang.unwrap_or_default());
        match crate::api::dispatch(&ctx, &request) {
            Ok(reply) => reply.body,
            Err(error) => Body::Value(error.to_json()),
        }
    }

    /// Runs a POST of a JSON body as the administrator (user 1), the way the request pipeline
    /// does minus HTTP: the status and the answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let Some((route, var)) = route_for(path) else { return (404, Value::Null) };
        let body: Params = body.as_object().map(|map| map.clone().into_iter().collect()).unwrap_or_default();
        let request =
            ApiRequest { method: Method::Post, route, var, query: Params::new(), body, headers: HeaderMap::new() };
        let ctx = self.ctx_as(Lang::En, Some(1));
        match crate::api::dispatch(&ctx, &request) {
            Ok(reply) => (reply.status, reply.body.into_value()),
            Err(error) => (error.status, error.to_json()),
        }
    }

    /// Runs a GET as [`Site::answer`] does, to the body's text: its length.
    pub fn get(&self, path_and_query: &str) -> usize {
        match self.reply(path_and_query) {
            Body::Text(text) => text.len(),
            Body::Value(value) => serde_json::to_vec(&value).map_or(0, |bytes| bytes.len()),
        }
    }

    /// The number of events the site holds.
    pub fn events(&self) -> usize {
        self.app.store.read().events.len()
    }

    /// Renders the event of a single read (with `json_ld`) as JSON text: the body length.
    /// `cold` renders it with an empty cache, as the first read after a write does.
    pub fn render_event(&self, id: Id, cold: bool) -> usize {
        let ctx = self.ctx(Lang::En);
        let snapshot = {
            let data = self.app.store.read();
            let Some(event) = data.events.get(&id) else { return 0 };
            EventSnapshot::take(&ctx, &data, event, false, true)
        };
        let empty = RenderCache::new(crate::cache::DEFAULT_BUDGET);
        let renderer = if cold { Renderer::with_cache(&ctx, &empty) } else { Renderer::new(&ctx) };
        let mut out = Vec::new();
        renderer.event(&mut out, &snapshot);
        out.len()
    }

    /// Renders the first `count` events of the default list as a list page shows them (at
    /// most 50), with the server's cache or an empty one (`cold`): the length of the text.
    pub fn render_page(&self, count: usize, cold: bool) -> usize {
        let ctx = self.ctx(Lang::En);
        let snapshots: Vec<EventSnapshot> = {
            let data = self.app.store.read();
            self.page
                .iter()
                .take(count)
                .filter_map(|id| data.events.get(id))
                .map(|event| EventSnapshot::take(&ctx, &data, event, false, false))
                .collect()
        };
        let empty = RenderCache::new(crate::cache::DEFAULT_BUDGET);
        let renderer = if cold { Renderer::with_cache(&ctx, &empty) } else { Renderer::new(&ctx) };
        let mut out = Vec::new();
        for snapshot in &snapshots {
            renderer.event(&mut out, snapshot);
        }
        out.len()
    }
}
