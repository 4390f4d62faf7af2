//! The events list's counted total against walking the window (issue 10): per-day counts,
//! less the long events that end after the window, plus the edges, for random calendars and
//! windows.

use chrono::{Duration, NaiveDate, NaiveDateTime};

use super::{counted_total, Window};
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
