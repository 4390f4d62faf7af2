//! The events list's shortcuts against walking (issue 10): the counted total (per-day
//! counts, less the long events that end after the window, plus the edges) and the days a
//! deep page skips, for random calendars and windows; the answers from the store's ID sets (`by_sets`) for every kind of
//! caller, search, flag, page and window, before and after writes.

use chrono::{Duration, NaiveDate, NaiveDateTime};

use super::days::{counted_total, skip_whole_days};
use super::Window;
use crate::cost::StoredCost;
use crate::dates::Zone;
use crate::model::{Event, Id, Lang, Post, Status};
use crate::store::{Data, Listing};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn base() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2027, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).expect("a date")
}

fn event(rng: &mut Rng, id: Id) -> Event {
    let zones = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "Europe/Paris"];
    let zone = Zone::parse(zones[rng.below(4) as usize]).expect("a zone");
    let start = base() + Duration::minutes(rng.below(60 * 24 * 200) as i64);
    // Mostly evenings; some several days long; a few longer than the windows.
    let length = match rng.below(10) {
        0 => Duration::days(3 + rng.below(60) as i64),
        1 => Duration::days(400),
        _ => Duration::hours(rng.below(48) as i64),
    };
    let end = start + length;
    let statuses = [Status::Publish, Status::Publish, Status::Draft, Status::Private, Status::Trash];
    Event {
        post: Post {
            id,
            author: 1 + rng.below(3),
            status: statuses[rng.below(5) as usize],
            lang: if rng.below(5) == 0 { Lang::Fr } else { Lang::En },
            slug: format!("e{id}").into(),
            title: "E".into(),
            content: Box::from(""),
            excerpt: Box::from(""),
            date: base(),
            date_utc: Some(base()),
            modified: base(),
            modified_utc: base(),
            image: None,
            password: None,
            trashed: None,
        },
        start_utc: zone.local_to_utc(start),
        end_utc: zone.local_to_utc(end),
        zone,
        start,
        end,
        all_day: false,
        cost: StoredCost::default(),
        website: None,
        show_map: false,
        show_map_link: false,
        hide_from_listings: rng.below(20) == 0,
        sticky: false,
        featured: false,
        ticketed: false,
        categories: vec![],
        tags: vec![],
        venue: None,
        organizers: vec![],
        parent: None,
    }
}

#[test]
fn counted_totals_are_walked_totals() {
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    let mut data = Data::default();
    for id in 1..=3_000 {
        data.put_event(event(&mut rng, id));
    }
    // Replacing events moves them between days and the long-event index.
    for _ in 0..1_000 {
        let id = 1 + rng.below(3_000);
        data.put_event(event(&mut rng, id));
    }
    let allowed_sets: [&[Status]; 3] =
        [&[Status::Publish], &[Status::Publish, Status::Draft, Status::Private], &[Status::Draft]];
    let mut checked = 0;
    for _ in 0..300 {
        let from = base() + Duration::hours(rng.below(24 * 150) as i64);
        let until = from + Duration::hours(rng.below(24 * 120) as i64);
        let window = Window { start_min: Some(from), end_max: Some(until), ..Window::default() };
        let lang = if rng.below(3) == 0 { Lang::Fr } else { Lang::En };
        let allowed = allowed_sets[rng.below(3) as usize];
        let listed = |listing: &Listing| {
            listing.lang == lang
                && !listing.hidden
                && allowed.contains(&listing.status)
                && window.contains_times(listing.start_utc, listing.end_utc)
        };
        let walked = data.events_by_start.values().filter(|listing| listed(listing)).count();
        if let Some(counted) = counted_total(&data, lang, allowed, &window, &listed) {
            assert_eq!(counted, walked, "window {from} to {until}, {lang:?}, {allowed:?}");
            checked += 1;
        }
    }
    assert!(checked > 150, "most windows are counted ({checked})");
}

#[test]
fn skipped_days_hold_the_events_before_the_page() {
    let mut rng = Rng(0xDA75_5C1F_0000_0042);
    let mut data = Data::default();
    for id in 1..=3_000 {
        data.put_event(event(&mut rng, id));
    }
    for _ in 0..500 {
        let id = 1 + rng.below(3_000);
        data.put_event(event(&mut rng, id));
    }
    let allowed_sets: [&[Status]; 2] = [&[Status::Publish], &[Status::Publish, Status::Draft, Status::Private]];
    let mut skipped_some = 0;
    for _ in 0..300 {
        let from = base() + Duration::hours(rng.below(24 * 150) as i64);
        let until = from + Duration::hours(rng.below(24 * 120) as i64);
        let window = Window { start_min: Some(from), end_max: Some(until), ..Window::default() };
        let lang = if rng.below(3) == 0 { Lang::Fr } else { Lang::En };
        let allowed = allowed_sets[rng.below(2) as usize];
        let listed = |listing: &Listing| {
            listing.lang == lang
                && !listing.hidden
                && allowed.contains(&listing.status)
                && window.contains_times(listing.start_utc, listing.end_utc)
        };
        let walked: Vec<(NaiveDateTime, Id)> =
            data.events_by_start.iter().filter(|(_, listing)| listed(listing)).map(|(key, _)| *key).collect();
        let offset = rng.below(walked.len() as u64 + 20) as usize;
        if let Some((resume, skipped)) = skip_whole_days(&data, lang, allowed, &window, offset, &listed) {
            // The walk from `resume` meets the events after the first `skipped`, in order.
            assert!(skipped <= offset, "{skipped} skipped for offset {offset}");
            let before = walked.iter().filter(|(start, _)| *start < resume).count();
            assert_eq!(before, skipped, "window {from} to {until}, {lang:?}, {allowed:?}, offset {offset}");
            skipped_some += 1;
        }
    }
    assert!(skipped_some > 100, "days were skipped for most pages ({skipped_some})");
}

// ----- answers from the ID sets against the walk -----

mod sets {
    use chrono::{TimeZone, Utc};
    use hyper::HeaderMap;
    use serde_json::{json, Value};

    use super::super::by_sets::{DISABLED, USED};
    use super::Rng;
    use crate::app::{App, Clock, Ctx};
    use crate::auth::Users;
    use crate::config::{Config, UserSpec};
    use crate::dates::Zone;
    use crate::http::{parse_form, route_for, ApiRequest};
    use crate::interface::Method;
    use crate::model::{Id, Lang};
    use crate::store::{Data, Store};
    use crate::validate::Params;

    fn app() -> App {
        let clock = Utc.with_ymd_and_hms(2026, 11, 22, 1, 42, 13).single();
        let config = Config { demo: true, clock, ..Config::ephemeral() };
        let app = App {
            users: Users::new(&UserSpec::defaults()),
            store: Store::new(Data::fresh_site("http://sets.test")),
            clock: Clock::new(config.clock),
            site_zone: Zone::parse("UTC").expect("UTC is a zone"),
            site_url: "http://sets.test".to_string(),
            config,
        };
        crate::demo::load(&app);
        crate::seed::load(&app, 1_500);
        app
    }

    fn ctx(app: &App, user: Id, lang: Lang) -> Ctx<'_> {
        Ctx {
            app,
            user: app.users.get(user),
            lang,
            api_base: format!("{}{}/{}", app.site_url, app.config.root, app.config.namespace),
            now: app.clock.now(),
        }
    }

    /// A request through the handlers: status, `x-tec-total` and body.
    fn call(app: &App, user: Id, method: Method, path_and_query: &str, body: Value) -> (u16, String, Value) {
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        let (route, var) = route_for(path).expect("a route");
        let body: Params = body.as_object().map(|map| map.clone().into_iter().collect()).unwrap_or_default();
        let request = ApiRequest { method, route, var, query: parse_form(query), body, headers: HeaderMap::new() };
        let lang = if query.contains("lang=fr") { Lang::Fr } else { Lang::En };
        match crate::api::dispatch(&ctx(app, user, lang), &request) {
            Ok(reply) => {
                let total = reply.headers.iter().find(|(name, _)| *name == "x-tec-total").map(|(_, v)| v.clone());
                (reply.status, total.unwrap_or_default(), reply.body.into_value())
            }
            Err(error) => (error.status, String::new(), error.to_json()),
        }
    }

    /// Events with passwords, by several authors and statuses, matching the search words in
    /// their title or only in their description; some featured, ticketed or hidden.
    fn write_some(app: &App, rng: &mut Rng, round: u64) {
        for index in 0..40 {
            let (user, status) =
                [(1, "publish"), (3, "publish"), (3, "draft"), (1, "private"), (2, "pending")][rng.below(5) as usize];
            let title = ["Night owls", "Jazz at noon", "Quiet morning", "Ni"][rng.below(4) as usize];
            let description = ["A late night of jazz.", "Nothing to see.", "Jazz"][rng.below(3) as usize];
            let day = 1 + rng.below(27);
            let mut body = json!({
                "title": format!("{title} {round}-{index}"),
                "description": description,
                "status": status,
                "start_date": format!("2026-12-{day:02} 19:00:00"),
                "end_date": format!("2026-12-{day:02} 21:00:00"),
                "featured": rng.below(3) == 0,
                "ticketed": rng.below(3) == 0,
                "hide_from_listings": rng.below(10) == 0,
            });
            if rng.below(2) == 0 {
                body["password"] = json!(["secret", "other"][rng.below(2) as usize]);
            }
            let (status, _, answer) = call(app, user, Method::Post, "/events", body);
            assert!(status < 300, "create as {user}: {answer}");
        }
        // Some earlier events change: flags, password, status.
        for _ in 0..20 {
            let listed = call(app, 1, Method::Get, "/events?per_page=50&search=night", json!({})).2;
            let Some(events) = listed["events"].as_array() else { continue };
            if events.is_empty() {
                continue;
            }
            let id = events[rng.below(events.len() as u64) as usize]["id"].as_u64().expect("an id");
            let change = match rng.below(4) {
                0 => json!({"featured": rng.below(2) == 0}),
                1 => json!({"password": if rng.below(2) == 0 { "secret" } else { "" }}),
                2 => json!({"status": "draft"}),
                _ => {
                    json!({"title": "Renamed quietly", "start_date": "2027-03-01 10:00:00", "end_date": "2027-03-01 11:00:00"})
                }
            };
            call(app, 1, Method::Post, &format!("/events/{id}"), change);
        }
    }

    fn queries(rng: &mut Rng) -> Vec<String> {
        let searches = ["", "night", "jazz", "night jazz", "ni", "j", "nomatchatall", "NIGHT", "quiet"];
        let mut out = Vec::new();
        for _ in 0..160 {
            let mut query = vec![format!("per_page={}", [1, 5, 10, 50][rng.below(4) as usize])];
            query.push(format!("page={}", 1 + rng.below(4)));
            let search = searches[rng.below(searches.len() as u64) as usize];
            if !search.is_empty() {
                query.push(format!("search={}", search.replace(' ', "+")));
            }
            match rng.below(4) {
                0 => query.push("featured=true".into()),
                1 => query.push("featured=false".into()),
                _ => {}
            }
            match rng.below(4) {
                0 => query.push("ticketed=true".into()),
                1 => query.push("ticketed=false".into()),
                _ => {}
            }
            match rng.below(5) {
                0 => query.push("start_date=2026-12-01&end_date=2026-12-20".into()),
                1 => query.push("starts_after=2026-12-10".into()),
                2 => query.push("start_date=2020-01-01".into()),
                _ => {}
            }
            match rng.below(6) {
                0 => query.push("password=secret".into()),
                1 => query.push("status=draft".into()),
                2 => query.push("lang=fr".into()),
                _ => {}
            }
            out.push(query.join("&"));
        }
        out
    }

    fn compare(app: &App, rng: &mut Rng) {
        for query in queries(rng) {
            let user = rng.below(6);
            let path = format!("/events?{query}");
            let fast = call(app, user, Method::Get, &path, json!({}));
            DISABLED.with(|disabled| disabled.set(true));
            let walked = call(app, user, Method::Get, &path, json!({}));
            DISABLED.with(|disabled| disabled.set(false));
            assert_eq!(fast, walked, "user {user}: {path}");
        }
    }

    #[test]
    fn answers_from_the_sets_are_those_of_the_walk() {
        let app = app();
        let mut rng = Rng(0x5E75_0F1D_5EED_0001);
        compare(&app, &mut rng);
        for round in 0..3 {
            write_some(&app, &mut rng, round);
            compare(&app, &mut rng);
        }
        let [sorting, walking] = USED.with(std::cell::Cell::get);
        assert!(sorting > 50 && walking > 50, "answers from the sets: {sorting} sorted, {walking} walked");
    }
}
