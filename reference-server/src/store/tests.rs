//! The store's kept-up indexes against what walking the records gives, through random writes
//! of every kind (issue 9, C3: counts and duplicate checks without scans must stay right;
//! issue 10: the venues list's order and counts).

use super::*;
use crate::cost::StoredCost;
use crate::dates::Zone;
use crate::model::Post;
use crate::seed::rng::Rng;
use chrono::NaiveDate;

fn at(day: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2027, 1, 1 + day % 28).and_then(|d| d.and_hms_opt(19, 0, 0)).expect("a date")
}

fn post(id: Id, title: &str, status: Status, lang: Lang) -> Post {
    Post {
        id,
        author: 1,
        status,
        lang,
        slug: format!("p{id}").into(),
        title: title.into(),
        content: Box::from(""),
        excerpt: Box::from(""),
        date: at(0),
        date_utc: Some(at(0)),
        modified: at(0),
        modified_utc: at(0),
        image: None,
        password: None,
        trashed: None,
    }
}

fn event(id: Id, status: Status, categories: Vec<Id>, tags: Vec<Id>, day: u32) -> Event {
    let zone = Zone::parse("UTC").expect("UTC");
    Event {
        post: post(id, "Event", status, Lang::En),
        zone,
        start: at(day),
        end: at(day),
        start_utc: at(day),
        end_utc: at(day),
        all_day: false,
        cost: StoredCost::default(),
        website: None,
        show_map: false,
        show_map_link: false,
        hide_from_listings: false,
        sticky: false,
        featured: false,
        ticketed: false,
        categories,
        tags,
        venue: None,
        organizers: vec![],
        parent: None,
    }
}

fn term(id: Id, taxonomy: Taxonomy, name: &str, parent: Id) -> Term {
    Term {
        id,
        taxonomy,
        name: name.into(),
        slug: format!("t{id}").into(),
        description: Box::from(""),
        parent,
        lang: Lang::En,
        count: 0,
    }
}

/// Everything the indexes answer, checked against the records themselves.
fn check(data: &Data) {
    check_term_counts(data);
    for term in data.terms.values() {
        check_term_names(data, term);
        check_descendants(data, term);
    }
    check_venue_titles(data);
    check_venue_order(data);
}

/// A term's count is the number of published events that have it.
fn check_term_counts(data: &Data) {
    for term in data.terms.values() {
        let published = data
            .events
            .values()
            .filter(|e| {
                e.post.status == Status::Publish && (e.categories.contains(&term.id) || e.tags.contains(&term.id))
            })
            .count();
        assert_eq!(term.count, published as u64, "count of term {}", term.id);
    }
}

/// A term is found by its name in any case, under any parent, its own or none.
fn check_term_names(data: &Data, term: &Term) {
    for parent in [None, Some(0), Some(term.parent)] {
        let walked = data
            .terms
            .values()
            .find(|t| {
                t.taxonomy == term.taxonomy
                    && t.lang == term.lang
                    && parent.is_none_or(|p| t.parent == p)
                    && t.name.to_lowercase() == term.name.to_uppercase().to_lowercase()
            })
            .map(|t| t.id);
        assert_eq!(data.term_named(term.taxonomy, term.lang, &term.name.to_uppercase(), parent), walked);
    }
}

/// A term's descendants (itself included) are those a walk of the parents finds.
fn check_descendants(data: &Data, term: &Term) {
    let mut walked = vec![term.id];
    let mut index = 0;
    while index < walked.len() {
        let parent = walked[index];
        let children: Vec<Id> =
            data.terms.values().filter(|t| t.parent == parent && !walked.contains(&t.id)).map(|t| t.id).collect();
        walked.extend(children);
        index += 1;
    }
    let mut indexed = data.with_descendants(&[term.id]);
    walked.sort_unstable();
    indexed.sort_unstable();
    assert_eq!(indexed, walked, "descendants of {}", term.id);
}

/// The venues of a title (trimmed, in any case) in a language.
fn check_venue_titles(data: &Data) {
    for venue in data.venues.values() {
        let walked: Vec<Id> = data
            .venues
            .values()
            .filter(|v| {
                v.post.lang == venue.post.lang
                    && v.post.title.trim().to_lowercase() == venue.post.title.trim().to_lowercase()
            })
            .map(|v| v.post.id)
            .collect();
        let indexed: Vec<Id> =
            data.titled(PostKind::Venue, venue.post.lang, &format!(" {} ", venue.post.title)).collect();
        assert_eq!(indexed, walked);
    }
}

/// The venues list's order and counts (`linked`).
fn check_venue_order(data: &Data) {
    for lang in [Lang::En, Lang::Fr] {
        for statuses in [&[Status::Publish][..], &[Status::Draft, Status::Private], &[Status::Trash, Status::Publish]] {
            let mut walked: Vec<&Post> = data
                .venues
                .values()
                .map(|v| &v.post)
                .filter(|p| p.lang == lang && statuses.contains(&p.status))
                .collect();
            walked.sort_by(|a, b| b.date.cmp(&a.date).then(b.id.cmp(&a.id)));
            let walked: Vec<Id> = walked.iter().map(|p| p.id).collect();
            let indexed: Vec<Id> = data
                .linked_order
                .newest_first(PostKind::Venue, lang)
                .filter(|(_, status)| statuses.contains(status))
                .map(|(id, _)| id)
                .collect();
            assert_eq!(indexed, walked, "{lang:?} {statuses:?}");
            assert_eq!(data.linked_order.total(PostKind::Venue, lang, statuses), walked.len());
        }
    }
}

const NAMES: [&str; 5] = ["Jazz", "jazz", "Rock", "Folk", "Ska"];
const STATUSES: [Status; 5] = [Status::Publish, Status::Publish, Status::Draft, Status::Trash, Status::Private];

/// A new ID (one more than the last), or one of `ids` half of the time when there are some.
fn new_or_picked(rng: &mut Rng, ids: &[Id], next_id: &mut Id) -> Id {
    if ids.is_empty() || rng.below(2) == 0 {
        *next_id += 1;
        *next_id
    } else {
        *rng.pick(ids)
    }
}

/// A new term, or a term renamed or moved (a cycle of parents included).
fn random_term(rng: &mut Rng, terms: &[Id], next_id: &mut Id) -> Term {
    let id = new_or_picked(rng, terms, next_id);
    let taxonomy = if rng.below(3) == 0 { Taxonomy::Tag } else { Taxonomy::Category };
    let parent = if terms.is_empty() || rng.below(3) == 0 { 0 } else { *rng.pick(terms) };
    term(id, taxonomy, rng.pick::<&str>(&NAMES), parent)
}

/// A new event or a change of status, terms or day.
fn random_event(rng: &mut Rng, terms: &[Id], events: &[Id], next_id: &mut Id) -> Event {
    let id = new_or_picked(rng, events, next_id);
    let mut pick_terms = || -> Vec<Id> {
        if terms.is_empty() {
            return vec![];
        }
        let mut ids: Vec<Id> = (0..rng.below(3)).map(|_| *rng.pick(terms)).collect();
        ids.dedup();
        ids
    };
    let (categories, tags) = (pick_terms(), pick_terms());
    let status = *rng.pick(&STATUSES);
    event(id, status, categories, tags, rng.below(28) as u32)
}

/// A new venue, or one that takes the place of an existing one, with a title that may differ
/// from others only in case and spaces.
fn random_venue(rng: &mut Rng, data: &Data, id: Id) -> Venue {
    let (status, lang) = (*rng.pick(&STATUSES), *rng.pick(&[Lang::En, Lang::En, Lang::Fr]));
    let mut venue = Venue {
        post: post(id, rng.pick::<&str>(&["Hall", " hall", "Club", "Bar"]), status, lang),
        address: Box::from(""),
        city: Box::from(""),
        country: Box::from(""),
        province: Box::from(""),
        state: Box::from(""),
        zip: Box::from(""),
        phone: Box::from(""),
        stateprovince: Box::from(""),
        website: Box::from(""),
        show_map: None,
        show_map_link: None,
        geo: None,
    };
    let venues: Vec<Id> = data.venues.keys().copied().collect();
    if !venues.is_empty() && rng.below(2) == 0 {
        venue.post.id = *rng.pick(&venues);
    }
    // Venues published at the same instant are ordered by ID.
    venue.post.date = at(rng.below(5) as u32);
    venue
}

#[test]
fn counts_names_titles_and_trees_stay_right_through_every_write() {
    let mut rng = Rng(0x5EED_C0DE);
    let mut data = Data::default();
    let mut next_id: Id = 1;
    for step in 0..3_000 {
        let terms: Vec<Id> = data.terms.keys().copied().collect();
        let events: Vec<Id> = data.events.keys().collect();
        match rng.below(10) {
            0 | 1 => data.put_term(random_term(&mut rng, &terms, &mut next_id)),
            2 if !terms.is_empty() => {
                data.delete_term(*rng.pick(&terms));
            }
            3..=8 => data.put_event(random_event(&mut rng, &terms, &events, &mut next_id)),
            _ => {
                next_id += 1;
                let venue = random_venue(&mut rng, &data, next_id);
                data.put_venue(venue);
            }
        }
        if step % 50 == 0 {
            check(&data);
        }
    }
    check(&data);
}

/// The sample media library's copies keep the image's proportions, as the CMS makes them: a
/// medium copy 300 wide and as high as the ratio gives, a square thumbnail. (The sample images
/// are the reference server's own data, not the interface, so no case checks them; this does.)
#[test]
fn the_sample_images_copies_keep_their_proportions() {
    let data = Data::fresh_site("http://site.test");
    assert_eq!(data.images.len(), 2);
    for image in data.images.values() {
        let meta = image.meta.as_ref().expect("sample images have their sizes");
        assert!(meta.width > 0 && meta.height > 0 && meta.filesize > 0);
        for size in &meta.sizes {
            assert!(size.height > 0 && size.width > 0 && size.filesize > 0, "{}: {:?}", image.url, size.name);
            assert!(size.url.ends_with(&format!("-{}x{}.png", size.width, size.height)), "{}", size.url);
            match size.name {
                "medium" => {
                    assert_eq!(size.width, 300);
                    assert_eq!(size.height, 300 * meta.height / meta.width, "{}", image.url);
                }
                "thumbnail" => assert_eq!((size.width, size.height), (150, 150)),
                other => panic!("unexpected copy {other}"),
            }
        }
        let medium = meta.sizes.iter().any(|s| s.name == "medium");
        assert_eq!(medium, meta.width > 300, "a medium copy only for images wider than it: {}", image.url);
    }
}
