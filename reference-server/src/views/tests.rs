//! Cached renderings against fresh ones (issue 10): after every kind of write, every event,
//! venue and organizer as the server's cache assembles it is the same text as a rendering
//! from nothing, for every viewer and base address, in lists and single reads.

use chrono::{TimeZone, Utc};
use hyper::HeaderMap;
use serde_json::{json, Value};

use super::snapshot::{self, EventSnapshot};
use super::Renderer;
use crate::access::{is_protected_for, Reveal};
use crate::app::{App, Clock, Ctx};
use crate::auth::Users;
use crate::cache::{RenderCache, DEFAULT_BUDGET};
use crate::config::{Config, UserSpec};
use crate::dates::Zone;
use crate::http::{route_for, ApiRequest};
use crate::interface::Method;
use crate::model::{Id, Lang};
use crate::store::{Data, Store};
use crate::validate::Params;

const SITE: &str = "http://render.test";

fn app() -> App {
    let clock = Utc.with_ymd_and_hms(2026, 11, 22, 1, 42, 13).single();
    let config = Config { demo: true, clock, ..Config::ephemeral() };
    let app = App {
        users: Users::new(&UserSpec::defaults()),
        store: Store::new(Data::fresh_site(SITE)),
        clock: Clock::new(config.clock),
        site_zone: Zone::parse("UTC").expect("UTC is a zone"),
        site_url: SITE.to_string(),
        config,
    };
    crate::demo::load(&app);
    crate::seed::load(&app, 10);
    app
}

/// A request's view: a user (by ID, 0 for anonymous) and a base address (`None`: the default
/// one; else a language prefix).
fn ctx(app: &App, user: Id, base: Option<Lang>) -> Ctx<'_> {
    let segment = base.map_or(String::new(), |lang| format!("/{}", lang.code()));
    Ctx {
        app,
        user: app.users.get(user),
        lang: base.unwrap_or_default(),
        api_base: format!("{}{}{}/{}", app.site_url, segment, app.config.root, app.config.namespace),
        now: app.clock.now(),
    }
}

/// A write through the handlers, as a user; it must succeed.
fn write(app: &App, user: Id, method: Method, path: &str, body: Value) -> Value {
    let (route, var) = route_for(path).expect("a route");
    let body: Params = body.as_object().map(|map| map.clone().into_iter().collect()).unwrap_or_default();
    let request = ApiRequest { method, route, var, query: Params::new(), body, headers: HeaderMap::new() };
    let ctx = ctx(app, user, None);
    match crate::api::dispatch(&ctx, &request) {
        Ok(reply) => reply.body.into_value(),
        Err(error) => panic!("{method:?} {path} failed: {}", error.to_json()),
    }
}

/// Every event, venue and organizer, rendered through the server's cache (twice, so the
/// second comes from it) and from an empty one, as JSON text and as a value.
fn compare_everything(app: &App, step: &str) {
    for (user, base) in [(0, None), (1, None), (4, None), (0, Some(Lang::Fr)), (2, Some(Lang::De))] {
        let ctx = ctx(app, user, base);
        let fresh_cache = RenderCache::new(DEFAULT_BUDGET);
        let cached = Renderer::new(&ctx);
        let fresh = Renderer::with_cache(&ctx, &fresh_cache);
        let data = app.store.read();
        for event in data.events.values() {
            for single in [false, true] {
                let protected = is_protected_for(&ctx, &event.post, Reveal::default());
                let snap = EventSnapshot::take(&ctx, &data, event, protected, single);
                let (mut first, mut second, mut cold) = (Vec::new(), Vec::new(), Vec::new());
                cached.event(&mut first, &snap);
                cached.event(&mut second, &snap);
                fresh.event(&mut cold, &snap);
                let value = serde_json::to_vec(&fresh.event_value(&snap)).expect("serializable");
                let what = format!("{step}: event {} as user {user} at {base:?}, single {single}", event.post.id);
                assert_eq!(String::from_utf8_lossy(&second), String::from_utf8_lossy(&value), "{what}");
                assert_eq!(first, second, "{what}");
                assert_eq!(cold, second, "{what}");
            }
        }
        for id in data.venues.keys().chain(data.organizers.keys()) {
            let (venue, organizer) = (snapshot::venue(&data, *id), snapshot::organizer(&data, *id));
            for single in [false, true] {
                let (mut cached_text, mut cold_text) = (Vec::new(), Vec::new());
                let site = super::parts::Site { url: &app.site_url, global_id_base: app.global_id_base() };
                let value = match (&venue, &organizer) {
                    (Some(v), _) => {
                        cached.venue(&mut cached_text, v, single);
                        fresh.venue(&mut cold_text, v, single);
                        super::parts::venue(&site, &v.record, v.image.as_deref(), single)
                    }
                    (_, Some(o)) => {
                        cached.organizer(&mut cached_text, o, single);
                        fresh.organizer(&mut cold_text, o, single);
                        super::parts::organizer(&site, &o.record, o.image.as_deref(), single)
                    }
                    _ => continue,
                };
                let what = format!("{step}: linked item {id}, single {single}");
                assert_eq!(cached_text, cold_text, "{what}");
                assert_eq!(cached_text, serde_json::to_vec(&value).expect("serializable"), "{what}");
            }
        }
    }
}

#[test]
fn cached_renderings_match_fresh_ones_after_every_kind_of_write() {
    let app = app();
    compare_everything(&app, "start");
    let (venue, organizer, category) = {
        let data = app.store.read();
        let venue = *data.venues.keys().next().expect("a venue");
        let organizer = *data.organizers.keys().next().expect("an organizer");
        let category = data.terms.values().find(|t| t.parent != 0).map(|t| t.parent).expect("a parent category");
        (venue, organizer, category)
    };
    // A published event in a category, at the venue, with the organizer: counts change.
    let created = write(
        &app,
        1,
        Method::Post,
        "/events",
        json!({"title": "Render \"check\" -- one", "description": "A & B\n\nTwo", "start_date": "2027-01-05 19:00:00",
               "end_date": "2027-01-05 21:00:00", "categories": [category], "tags": ["Fresh Tag"], "venue": venue,
               "organizer": [organizer], "status": "publish", "cost": "$10"}),
    );
    let event = created["id"].as_u64().expect("an id");
    compare_everything(&app, "create");
    write(&app, 1, Method::Post, &format!("/events/{event}"), json!({"title": "Renamed", "excerpt": "Short"}));
    compare_everything(&app, "event update");
    write(&app, 1, Method::Post, &format!("/venues/{venue}"), json!({"venue": "Renamed Hall", "city": "Lyon"}));
    compare_everything(&app, "venue update");
    write(&app, 1, Method::Post, &format!("/venues/{venue}"), json!({"status": "draft"}));
    compare_everything(&app, "venue to draft");
    write(
        &app,
        1,
        Method::Post,
        &format!("/organizers/{organizer}"),
        json!({"organizer": "New Crew", "email": "a@b.c"}),
    );
    compare_everything(&app, "organizer update");
    write(&app, 1, Method::Delete, &format!("/organizers/{organizer}"), json!({}));
    compare_everything(&app, "organizer trash");
    write(&app, 1, Method::Post, &format!("/categories/{category}"), json!({"name": "Renamed Topic"}));
    compare_everything(&app, "category update");
    write(&app, 1, Method::Post, &format!("/events/{event}"), json!({"password": "secret"}));
    compare_everything(&app, "event password");
    write(&app, 1, Method::Post, &format!("/events/{event}"), json!({"password": "", "status": "draft"}));
    compare_everything(&app, "event to draft");
    write(&app, 1, Method::Delete, &format!("/events/{event}"), json!({}));
    compare_everything(&app, "event trash");
    write(&app, 1, Method::Delete, &format!("/categories/{category}"), json!({"force": true}));
    compare_everything(&app, "category delete");
}
