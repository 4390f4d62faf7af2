//! The benchmark calendar of `--seed-events N`: N events of a large, realistic site, built in
//! seconds and the same for the same N and clock.
//!
//! The site has venues in a dozen cities and time zones, organizers, a nested category tree and
//! a few thousand tags (both in four languages), and events spread from a year ago to two years
//! ahead: mostly timed evenings, some all-day, some over several days, a few ongoing now. Most
//! descriptions are a paragraph or two; one in forty is several kilobytes of HTML. Languages are
//! mostly `en`; a few events are drafts, pending, private or hidden from listings, some are
//! featured or sticky.
//!
//! Nothing depends on anything but N and the server's clock: choices come from a fixed-seed
//! PRNG, dates are offsets from "now" (so `--clock` makes the calendar reproducible), and
//! records are built as [`crate::demo`] builds them (slugs unique per kind and language as the
//! API makes them, UTC times from local times in each event's zone, term counts kept by the
//! store, one event at a time). The load runs inside [`Data::bulk_load`].

use std::collections::HashMap;

use chrono::{Days, Duration, NaiveDate, NaiveDateTime, NaiveTime};
use serde_json::Value;

use crate::app::App;
use crate::config::Role;
use crate::cost::{store_cost, StoredCost};
use crate::dates::{end_of_day, start_of_day, Zone};
use crate::model::{Event, Id, Lang, Organizer, Post, Status, Taxonomy, Term, Venue};
use crate::store::{Data, SlugKind};
use crate::text::sanitize_title;

pub(crate) mod rng;
mod tables;

use rng::Rng;
use tables::*;

/// Fills the store with `count` events and the venues, organizers and terms they use.
pub fn load(app: &App, count: usize) {
    if count == 0 {
        return;
    }
    let started = std::time::Instant::now();
    let mut data = app.store.write();
    data.bulk_load(|data| Seeder::new(app, data, count).run());
    tracing::info!(target: "reference_server::seed", "seeded {count} events in {:?}", started.elapsed());
}

// ----- building -----

/// A venue or organizer made so far, for events to link to.
#[derive(Clone, Copy)]
struct Linked {
    id: Id,
    city: usize,
}

struct Seeder<'a> {
    app: &'a App,
    data: &'a mut Data,
    rng: Rng,
    count: usize,
    now: NaiveDateTime,
    publishers: Vec<Id>,
    /// Who writes drafts and pending events.
    drafter: Id,
    contributor: Id,
    /// Posts made so far (publication dates spread evenly over the past year in this order).
    made: usize,
    /// Posts to make in all, to spread publication dates.
    planned: usize,
    images: Vec<Id>,
    zones: Vec<Zone>,
    venues: HashMap<Lang, Vec<Linked>>,
    organizers: HashMap<Lang, Vec<Id>>,
    /// Categories by (language, key).
    categories: HashMap<(Lang, &'static str), Id>,
    category_parents: HashMap<Id, Id>,
    tags: HashMap<Lang, Vec<Id>>,
    /// Next free suffix per (kind, language, base slug), so no slug is probed twice.
    slug_next: HashMap<(SlugKind, Lang, String), u32>,
    /// Base slugs of titles already seen.
    title_slugs: HashMap<String, String>,
}

/// How many of each linked item a calendar of `count` events has.
fn venue_count(count: usize) -> usize {
    (count / 100).clamp(10, 10_000)
}

fn organizer_count(count: usize) -> usize {
    (count / 250).clamp(5, 4_000)
}

fn tag_count(count: usize) -> usize {
    (count / 500).clamp(40, TAG_FIRST.len() * TAG_SECOND.len())
}

impl<'a> Seeder<'a> {
    fn new(app: &'a App, data: &'a mut Data, count: usize) -> Seeder<'a> {
        let users: Vec<_> = (1..).map_while(|id| app.users.get(id)).collect();
        let mut publishers: Vec<Id> = users.iter().filter(|user| user.can_publish()).map(|user| user.id).collect();
        if publishers.is_empty() {
            publishers.push(1);
        }
        let first = |role: Role| users.iter().find(|user| user.role == role).map_or(1, |user| user.id);
        let mut images: Vec<Id> = data.images.keys().copied().collect();
        images.sort_unstable();
        let zones = CITIES.iter().map(|city| Zone::parse(city.zone).unwrap_or_else(|| app.site_zone.clone())).collect();
        Seeder {
            app,
            data,
            rng: Rng(0x5EED_0000 ^ count as u64),
            count,
            now: app.clock.now(),
            publishers,
            drafter: first(Role::Author),
            contributor: first(Role::Contributor),
            made: 0,
            planned: count + venue_count(count) + organizer_count(count),
            images,
            zones,
            venues: HashMap::new(),
            organizers: HashMap::new(),
            categories: HashMap::new(),
            category_parents: HashMap::new(),
            tags: HashMap::new(),
            slug_next: HashMap::new(),
            title_slugs: HashMap::new(),
        }
    }

    fn run(mut self) {
        self.terms();
        for index in 0..organizer_count(self.count) {
            self.organizer(index);
        }
        for index in 0..venue_count(self.count) {
            self.venue(index);
        }
        for _ in 0..self.count {
            self.event();
        }
    }

    /// Mostly `en`, and one event, venue or organizer in ten in another language.
    fn lang(&mut self) -> Lang {
        match self.rng.below(100) {
            0..=3 => Lang::Fr,
            4..=6 => Lang::De,
            7..=9 => Lang::Es,
            _ => Lang::En,
        }
    }

    /// `base`, then `base-2`, `base-3`… per kind and language, as the API's `unique_slug`
    /// gives them, without probing the ones this load handed out already.
    fn slug(&mut self, kind: SlugKind, lang: Lang, base: &str) -> String {
        let next = self.slug_next.entry((kind, lang, base.to_string())).or_insert(1);
        loop {
            let candidate = if *next == 1 { base.to_string() } else { format!("{base}-{next}") };
            *next += 1;
            if self.data.slug_owner(kind, lang, &candidate).is_none() {
                return candidate;
            }
        }
    }

    fn title_slug(&mut self, title: &str) -> String {
        if let Some(slug) = self.title_slugs.get(title) {
            return slug.clone();
        }
        let slug = sanitize_title(title);
        self.title_slugs.insert(title.to_string(), slug.clone());
        slug
    }

    /// A post's common fields, as the API's `new_post` makes them (the ID comes later).
    fn post(&mut self, kind: SlugKind, lang: Lang, title: String, content: String, status: Status) -> Post {
        let author = match status {
            Status::Draft => self.drafter,
            Status::Pending => self.contributor,
            _ => self.publishers[self.made % self.publishers.len()],
        };
        // Published over the last year, oldest first.
        let year = Duration::days(365).num_seconds();
        let offset = year * self.made as i64 / self.planned.max(1) as i64;
        let published = self.now - Duration::days(365) + Duration::seconds(offset);
        self.made += 1;
        let date = self.app.site_zone.utc_to_local(published);
        let base = self.title_slug(&title);
        let slug = self.slug(kind, lang, &base);
        Post {
            id: 0,
            author,
            status,
            lang,
            slug: slug.into(),
            title: title.into(),
            content: content.into(),
            excerpt: Box::from(""),
            date,
            date_utc: matches!(status, Status::Publish | Status::Future | Status::Private).then_some(published),
            modified: date,
            modified_utc: published,
            image: None,
            password: None,
            trashed: None,
        }
    }

    fn paragraph(&mut self, sentences: usize) -> String {
        let mut text = String::new();
        for index in 0..sentences {
            if index > 0 {
                text.push(' ');
            }
            let sentence = *self.rng.pick(SENTENCES);
            text.push_str(sentence);
        }
        text
    }

    /// A description: one or two paragraphs, or (one in forty) several kilobytes of HTML with
    /// headings and a list.
    fn description(&mut self) -> String {
        if self.rng.per_mille(25) {
            let mut text = String::new();
            let sections = 4 + self.rng.below(6);
            for section in 0..sections {
                text.push_str(&format!("<h3>Part {}</h3>\n\n", section + 1));
                for _ in 0..2 + self.rng.below(3) {
                    let sentences = 3 + self.rng.below(4) as usize;
                    text.push_str(&self.paragraph(sentences));
                    text.push_str("\n\n");
                }
                if section % 2 == 0 {
                    text.push_str("<ul>\n");
                    for _ in 0..3 {
                        text.push_str(&format!("<li>{}</li>\n", self.rng.pick(SENTENCES)));
                    }
                    text.push_str("</ul>\n\n");
                }
            }
            return text;
        }
        let first = 1 + self.rng.below(3) as usize;
        let mut text = self.paragraph(first);
        if self.rng.below(3) == 0 {
            text.push_str("\n\n");
            let second = 1 + self.rng.below(2) as usize;
            text.push_str(&self.paragraph(second));
        }
        text
    }

    fn terms(&mut self) {
        for (key, name, parent) in CATEGORIES {
            self.category(Lang::En, key, name, *parent);
        }
        for (lang, key, name, parent) in LOCAL_CATEGORIES {
            self.category(*lang, key, name, *parent);
        }
        for index in 0..tag_count(self.count) {
            let name = format!(
                "{} {}",
                TAG_FIRST[index % TAG_FIRST.len()],
                TAG_SECOND[(index / TAG_FIRST.len() + index) % TAG_SECOND.len()]
            );
            // One tag in ten is another language's.
            let lang = Lang::ALL[if index % 10 == 9 { 1 + (index / 10) % 3 } else { 0 }];
            let id = self.term(Taxonomy::Tag, lang, &name, 0);
            self.tags.entry(lang).or_default().push(id);
        }
    }

    fn category(&mut self, lang: Lang, key: &'static str, name: &str, parent: Option<&str>) {
        let parent = parent.and_then(|parent| self.categories.get(&(lang, parent)).copied()).unwrap_or(0);
        let id = self.term(Taxonomy::Category, lang, name, parent);
        self.categories.insert((lang, key), id);
        if parent != 0 {
            self.category_parents.insert(id, parent);
        }
    }

    fn term(&mut self, taxonomy: Taxonomy, lang: Lang, name: &str, parent: Id) -> Id {
        let id = self.data.allocate_term_id();
        let base = sanitize_title(name);
        let slug = self.slug(SlugKind::from(taxonomy), lang, &base);
        let description =
            if taxonomy == Taxonomy::Category { format!("Everything about {name}.") } else { String::new() };
        self.data.put_term(Term {
            id,
            taxonomy,
            name: name.into(),
            slug: slug.into(),
            description: description.into(),
            parent,
            lang,
            count: 0,
        });
        id
    }

    fn organizer(&mut self, index: usize) {
        let lang = self.lang();
        let name = format!(
            "{} {}",
            ORGANIZER_NAMES[index % ORGANIZER_NAMES.len()],
            ORGANIZER_KINDS[(index / ORGANIZER_NAMES.len()) % ORGANIZER_KINDS.len()]
        );
        let description = self.paragraph(2);
        let mut post = self.post(SlugKind::Organizer, lang, name, format!("<p>{description}</p>"), Status::Publish);
        post.id = self.data.allocate_post_id();
        let id = post.id;
        let domain = format!("{}.example", post.slug);
        let phone = if index % 3 == 0 { String::new() } else { format!("+1 555 01{:02}", index % 100) };
        self.data.put_organizer(Organizer {
            post,
            phone: phone.into(),
            website: format!("https://{domain}").into(),
            email: format!("hello@{domain}").into(),
        });
        self.organizers.entry(lang).or_default().push(id);
    }

    fn venue(&mut self, index: usize) {
        let lang = self.lang();
        // A city of the venue's language.
        let cities: Vec<usize> = (0..CITIES.len()).filter(|at| CITIES[*at].lang == lang).collect();
        let city_index = *self.rng.pick(&cities);
        let city = &CITIES[city_index];
        let name = format!(
            "{} {}",
            VENUE_NAMES[index % VENUE_NAMES.len()],
            VENUE_KINDS[(index / VENUE_NAMES.len()) % VENUE_KINDS.len()]
        );
        let description = self.paragraph(1);
        let mut post = self.post(SlugKind::Venue, lang, name, format!("<p>{description}</p>"), Status::Publish);
        post.id = self.data.allocate_post_id();
        let id = post.id;
        let number = 1 + self.rng.below(900);
        let address = format!("{number} {}", self.rng.pick(STREETS));
        let zip = format!("{}{:02}", city.zip, self.rng.below(100));
        let geo = (index % 2 == 0 && self.app.config.features.geoloc).then(|| {
            let jitter = |rng: &mut Rng| (rng.below(2000) as f64 - 1000.0) / 10_000.0;
            (city.geo.0 + jitter(&mut self.rng), city.geo.1 + jitter(&mut self.rng))
        });
        // As the plugin fills it: the state for US addresses, else the province.
        let stateprovince = if city.country == "United States" { city.state } else { city.province };
        let phone = if index % 4 == 0 { String::new() } else { format!("+1 555 02{:02}", index % 100) };
        self.data.put_venue(Venue {
            post,
            address: address.into(),
            city: city.name.into(),
            country: city.country.into(),
            province: city.province.into(),
            state: city.state.into(),
            zip: zip.into(),
            phone: phone.into(),
            stateprovince: stateprovince.into(),
            website: Box::from(""),
            show_map: None,
            show_map_link: None,
            geo,
        });
        self.venues.entry(lang).or_default().push(Linked { id, city: city_index });
    }

    fn status(&mut self) -> Status {
        match self.rng.below(1000) {
            0..=14 => Status::Draft,
            15..=24 => Status::Pending,
            25..=29 => Status::Private,
            _ => Status::Publish,
        }
    }

    fn event(&mut self) {
        let lang = self.lang();
        let (theme, category) = *self.rng.pick(THEMES);
        let adjective = *self.rng.pick(ADJECTIVES);
        let format = *self.rng.pick(FORMATS);
        let title =
            if adjective.is_empty() { format!("{theme} {format}") } else { format!("{adjective} {theme} {format}") };
        let status = self.status();
        let content = self.description();
        let venue = match self.venues.get(&lang) {
            Some(venues) if !self.rng.per_mille(100) => Some(*self.rng.pick(venues)),
            _ => None,
        };
        let zone = match venue {
            Some(venue) => self.zones[venue.city].clone(),
            None if self.rng.below(2) == 0 => self.app.site_zone.clone(),
            None => {
                let at = self.rng.below(self.zones.len() as u64) as usize;
                self.zones[at].clone()
            }
        };
        let Some((start, end, all_day)) = self.schedule(&zone) else { return };
        let mut post = self.post(SlugKind::Event, lang, title, content, status);
        if self.rng.per_mille(250) {
            post.excerpt = self.rng.pick(SENTENCES).to_string().into();
        }
        if !self.images.is_empty() && self.rng.per_mille(150) {
            post.image = Some(*self.rng.pick(&self.images));
        }
        let organizers: Vec<Id> = match self.organizers.get(&lang) {
            Some(pool) => {
                let wanted = match self.rng.below(100) {
                    0..=14 => 0,
                    15..=84 => 1,
                    _ => 2,
                };
                let mut chosen: Vec<Id> = (0..wanted).map(|_| *self.rng.pick(pool)).collect();
                chosen.dedup();
                chosen
            }
            None => Vec::new(),
        };
        let categories = self.event_categories(lang, category);
        let tags = self.event_tags(lang);
        let cost = match *self.rng.pick(COSTS) {
            "" => StoredCost::default(),
            written => store_cost(&Value::from(written)).unwrap_or_default(),
        };
        let website = self.rng.per_mille(200).then(|| format!("https://tickets.example/{}", post.slug).into());
        post.id = self.data.allocate_post_id();
        self.data.put_event(Event {
            post,
            start_utc: zone.local_to_utc(start),
            end_utc: zone.local_to_utc(end),
            zone,
            start,
            end,
            all_day,
            cost,
            website,
            show_map: venue.is_some(),
            show_map_link: venue.is_some(),
            hide_from_listings: self.rng.per_mille(10),
            sticky: self.rng.per_mille(10),
            featured: self.rng.per_mille(50),
            ticketed: self.rng.per_mille(80),
            categories,
            tags,
            venue: venue.map(|venue| venue.id),
            organizers,
            parent: None,
        });
    }

    /// The theme's category in the event's language (or that language's nearest), sometimes
    /// with its parent or a second, unrelated category.
    fn event_categories(&mut self, lang: Lang, key: &'static str) -> Vec<Id> {
        let own = self.categories.get(&(lang, key)).or_else(|| {
            let local: Vec<&(Lang, &str, &str, Option<&str>)> =
                LOCAL_CATEGORIES.iter().filter(|(other, ..)| *other == lang).collect();
            let (_, fallback, ..) = local.get(key.len() % local.len().max(1))?;
            self.categories.get(&(lang, *fallback))
        });
        let mut ids: Vec<Id> = own.copied().into_iter().collect();
        if let Some(first) = ids.first().copied() {
            if self.rng.per_mille(300) {
                if let Some(parent) = self.category_parents.get(&first) {
                    ids.push(*parent);
                }
            }
        }
        if lang == Lang::En && self.rng.per_mille(150) {
            let (other, ..) = *self.rng.pick(CATEGORIES);
            if let Some(id) = self.categories.get(&(Lang::En, other)) {
                if !ids.contains(id) {
                    ids.push(*id);
                }
            }
        }
        ids
    }

    /// Zero to four tags of the event's language.
    fn event_tags(&mut self, lang: Lang) -> Vec<Id> {
        let Some(pool) = self.tags.get(&lang) else { return Vec::new() };
        // Popular tags (the first ones) are used far more than the rest.
        let wanted = self.rng.below(5);
        let mut ids = Vec::new();
        for _ in 0..wanted {
            let span = if self.rng.below(2) == 0 { pool.len().min(20) } else { pool.len() };
            let id = pool[self.rng.below(span as u64) as usize];
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }

    /// Local start, end and all-day flag: a fifth in the past year, a few ongoing now, the rest
    /// over the next two years; mostly evenings of one to four hours, some all-day (up to three
    /// days), a few over several days.
    fn schedule(&mut self, zone: &Zone) -> Option<(NaiveDateTime, NaiveDateTime, bool)> {
        let today = zone.utc_to_local(self.now).date();
        let shape = self.rng.below(1000);
        let (day, ongoing): (NaiveDate, bool) = match self.rng.below(100) {
            0..=19 => (today.checked_sub_days(Days::new(1 + self.rng.below(365)))?, false),
            20..=22 => (today.checked_sub_days(Days::new(self.rng.below(3)))?, true),
            _ => (today.checked_add_days(Days::new(self.rng.below(731)))?, false),
        };
        if shape < 80 || (ongoing && shape < 500) {
            let days = if ongoing { 3 + self.rng.below(5) } else { 1 + self.rng.below(3) };
            let last = day.checked_add_days(Days::new(days - 1))?;
            let start = start_of_day(day.and_time(NaiveTime::MIN));
            return Some((start, end_of_day(last.and_time(NaiveTime::MIN)), true));
        }
        let slot = 14 + self.rng.below(30) as u32; // 07:00 to 21:30
        let at = NaiveTime::from_hms_opt(slot / 2, 30 * (slot % 2), 0)?;
        let start = zone.utc_to_local(zone.local_to_utc(day.and_time(at)));
        let minutes = if ongoing || shape < 120 {
            // Over several days (a festival, a conference).
            60 * 24 * (2 + self.rng.below(8) as i64) + 60 * self.rng.below(6) as i64
        } else {
            60 + 30 * self.rng.below(7) as i64
        };
        let end = start.checked_add_signed(Duration::minutes(minutes))?;
        Some((start, zone.utc_to_local(zone.local_to_utc(end)), false))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::app::Clock;
    use crate::auth::Users;
    use crate::config::{Config, UserSpec};
    use crate::store::Store;

    const SITE: &str = "http://seed.test";

    fn seeded(count: usize, demo: bool) -> App {
        let clock = Utc.with_ymd_and_hms(2026, 11, 22, 1, 42, 13).single();
        let config = Config { clock, demo, ..Config::ephemeral() };
        let app = App {
            users: Users::new(&UserSpec::defaults()),
            store: Store::new(Data::fresh_site(SITE)),
            clock: Clock::new(config.clock),
            site_zone: Zone::parse("UTC").expect("UTC is a zone"),
            site_url: SITE.to_string(),
            config,
        };
        if demo {
            crate::demo::load(&app);
        }
        load(&app, count);
        app
    }

    type Row = (Id, String, NaiveDateTime, NaiveDateTime, Vec<Id>, Vec<Id>, Option<Id>);

    fn snapshot(app: &App) -> Vec<Row> {
        let data = app.store.read();
        let mut rows: Vec<Row> = data
            .events
            .values()
            .map(|e| {
                (
                    e.post.id,
                    e.post.slug.to_string(),
                    e.start_utc,
                    e.end_utc,
                    e.categories.clone(),
                    e.tags.clone(),
                    e.venue,
                )
            })
            .collect();
        rows.sort();
        rows
    }

    #[test]
    fn the_same_count_and_clock_give_the_same_calendar() {
        assert_eq!(snapshot(&seeded(500, false)), snapshot(&seeded(500, false)));
    }

    #[test]
    fn records_are_like_api_ones_and_every_index_agrees() {
        let app = seeded(3000, false);
        let now = app.clock.now();
        let data = app.store.read();
        assert_eq!(data.events.len(), 3000);
        assert_eq!(data.events_by_start.len(), 3000);
        let mut slugs = HashSet::new();
        for event in data.events.values() {
            let post = &event.post;
            assert!(!post.slug.is_empty(), "{}", post.title);
            assert!(slugs.insert((post.lang, post.slug.clone())), "duplicate slug {}", post.slug);
            assert_eq!(data.slug_owner(SlugKind::Event, post.lang, &post.slug), Some(post.id));
            assert_eq!(event.start_utc, event.zone.local_to_utc(event.start), "{}", post.id);
            assert!(event.end_utc >= event.start_utc, "{}", post.id);
            assert_eq!(post.date_utc.is_some(), matches!(post.status, Status::Publish | Status::Private));
            for id in event.categories.iter().chain(&event.tags) {
                assert_eq!(data.terms[id].lang, post.lang, "terms in the event's language");
                assert!(data.term_events[id].contains(&post.id));
            }
            if let Some(venue) = event.venue {
                assert_eq!(data.venues[&venue].post.lang, post.lang);
                assert!(data.venue_events[&venue].contains(&post.id));
            }
        }
        // Term counts are the published events of each term, as the store keeps them.
        for term in data.terms.values() {
            let published = data
                .term_events
                .get(&term.id)
                .map_or(0, |ids| ids.iter().filter(|id| data.events[id].post.status == Status::Publish).count());
            assert_eq!(term.count, published as u64, "{}", term.name);
        }
        // The variety the benchmark relies on.
        let events: Vec<&Event> = data.events.values().map(|e| e.value()).collect();
        let share = |test: &dyn Fn(&Event) -> bool| events.iter().filter(|e| test(e)).count();
        assert!(share(&|e| e.end_utc < now) > 300, "past events");
        assert!(share(&|e| e.start_utc <= now && e.end_utc >= now) > 10, "ongoing events");
        assert!(share(&|e| e.start_utc > now + Duration::days(365)) > 500, "events next year");
        assert!(share(&|e| e.all_day) > 100, "all-day events");
        assert!(share(&|e| e.end_utc - e.start_utc > Duration::days(2)) > 30, "events over several days");
        assert!(share(&|e| e.featured) > 50, "featured events");
        assert!(share(&|e| e.post.status == Status::Draft) > 10, "drafts");
        assert!(share(&|e| e.hide_from_listings) > 5, "hidden events");
        assert!(share(&|e| e.post.content.len() > 2000) > 20, "long descriptions");
        assert!(share(&|e| e.post.lang == Lang::En) > 2500, "mostly en");
        assert!(share(&|e| e.post.lang == Lang::Fr) > 30, "some fr");
        let zones: HashSet<String> = events.iter().map(|e| e.zone.name()).collect();
        assert!(zones.len() >= 8, "{zones:?}");
        assert!(data.terms.values().any(|t| data.terms.get(&t.parent).is_some_and(|p| p.parent != 0)), "nesting");
    }

    #[test]
    fn seeding_after_the_demo_keeps_slugs_unique() {
        let app = seeded(2000, true);
        let data = app.store.read();
        let mut seen = HashSet::new();
        for event in data.events.values() {
            assert!(seen.insert((event.post.lang, event.post.slug.clone())), "duplicate {}", event.post.slug);
        }
        assert!(data.events.len() > 2000);
    }
}
