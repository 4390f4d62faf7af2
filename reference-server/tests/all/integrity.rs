//! Data integrity: a rejected write changes nothing; slugs stay unique and findable through
//! trash and restore; every published item and term has a slug (issue 9, D1–D3).

use crate::common;

use common::*;
use serde_json::{json, Value};

// ----- D1: a write that answers 4xx changes nothing -----

/// Sends a write and checks it was refused and left the store as it was.
async fn refused_without_a_trace(srv: &Srv, method: reqwest::Method, user: &str, path: &str, body: Value) -> Resp {
    let before = srv.server.store_fingerprint();
    let resp = srv.req(method.clone(), path).user(user).json(&body).send().await;
    assert!((400..500).contains(&resp.status), "{method} {path} {body}: {} {}", resp.status, resp.text);
    assert_eq!(srv.server.store_fingerprint(), before, "{method} {path} {body} changed the store: {}", resp.text);
    resp
}

/// The fingerprint these checks compare does tell stores apart: every accepted write changes it
/// (a fingerprint that never changed would let every check above pass).
#[tokio::test]
async fn d1_the_fingerprint_changes_with_every_accepted_write() {
    let srv = start().await;
    let before = srv.server.store_fingerprint();
    let event = srv.event("Fingerprinted", 3, json!({})).await;
    let created = srv.server.store_fingerprint();
    assert_ne!(created, before, "a create");
    let path = format!("/events/{}", id(&event));
    let resp = srv.req(reqwest::Method::PATCH, &path).user("admin").json(&json!({"title": "Renamed"})).send().await;
    assert_eq!(resp.status, 200, "{}", resp.text);
    assert_ne!(srv.server.store_fingerprint(), created, "an update");
}

#[tokio::test]
async fn d1_an_event_write_refused_late_creates_no_terms_images_or_linked_items() {
    let srv = start().await;
    // Inline organizer data that passes the event's checks but cannot become an organizer
    // (its website is not a URL), after new terms, an image URL and an inline venue.
    let late = json!({
        "categories": ["Fresh Category"], "tags": ["fresh tag"],
        "image": "https://images.example.com/fresh.png",
        "venue": {"venue": "Fresh Inline Hall"},
        "organizer": [{"organizer": "Fresh Org", "website": "not a url"}],
    });
    let mut create = json!({"title": "Late failure", "start_date": at(3, 0), "end_date": at(3, 1)});
    merge(&mut create, late.clone());
    refused_without_a_trace(&srv, reqwest::Method::POST, "admin", "/events", create).await;
    let event = srv.event("Target", 3, json!({})).await;
    refused_without_a_trace(&srv, reqwest::Method::PATCH, "admin", &format!("/events/{}", id(&event)), late).await;
    for (collection, search) in
        [("categories", "fresh"), ("tags", "fresh"), ("venues", "fresh"), ("organizers", "fresh")]
    {
        let path = format!("/{collection}?search={search}&hide_empty=false");
        assert!(srv.list_ids(Some("admin"), &path, collection).await.is_empty(), "{collection}");
    }
}

#[tokio::test]
async fn d1_an_inline_item_that_cannot_be_created_leaves_nothing_behind() {
    let srv = start().await;
    // A contributor may not write as another author: the inline organizer cannot be made,
    // after an image URL and an inline venue that could.
    let body = json!({
        "title": "Late failure", "start_date": at(3, 0), "end_date": at(3, 1),
        "image": "https://images.example.com/other.png",
        "venue": {"venue": "Would-be Hall"},
        "organizer": [{"organizer": "Someone else's", "author": 1}],
    });
    let resp = refused_without_a_trace(&srv, reqwest::Method::POST, "contributor", "/events", body).await;
    resp.expect_error(400, "could-not-create-organizer");
    let body = json!({
        "title": "Late failure", "start_date": at(3, 0), "end_date": at(3, 1),
        "categories": ["Would-be Category"],
        "venue": {"venue": "Someone else's hall", "author": 2},
    });
    let resp = refused_without_a_trace(&srv, reqwest::Method::POST, "author", "/events", body).await;
    resp.expect_error(400, "could-not-create-venue");
}

// ----- D2: slugs stay unique through trash and restore -----

#[tokio::test]
async fn d2_trashed_slugs_stay_unique_and_findable() {
    let srv = start().await;
    let first = srv.event("Foo", 3, json!({})).await;
    let trashed_first = srv.delete(Some("admin"), &format!("/events/{}", id(&first))).await.json;
    let second = srv.event("Foo", 4, json!({})).await;
    assert_eq!(second["slug"], "foo");
    let trashed_second = srv.delete(Some("admin"), &format!("/events/{}", id(&second))).await.json;
    assert_ne!(trashed_first["slug"], trashed_second["slug"], "two trashed events share a slug");
    // Restoring both gives each a slug of its own, each found by slug.
    let restored_first =
        srv.put(Some("admin"), &format!("/events/{}", id(&first)), &json!({"status": "publish"})).await;
    let restored_second =
        srv.put(Some("admin"), &format!("/events/{}", id(&second)), &json!({"status": "publish"})).await;
    let slugs = [restored_first.expect(200)["slug"].clone(), restored_second.expect(200)["slug"].clone()];
    assert_ne!(slugs[0], slugs[1]);
    for (slug, event) in slugs.iter().zip([&first, &second]) {
        let found = srv.get(&format!("/events/by-slug/{}", slug.as_str().unwrap())).await;
        assert_eq!(id(found.expect(200)), id(event), "by-slug {slug}");
    }
}

#[tokio::test]
async fn d2_a_trashed_venue_keeps_its_own_slug_in_the_index() {
    let srv = start().await;
    let first = srv.venue("Bar", json!({})).await;
    let first_trashed = srv.delete(Some("admin"), &format!("/venues/{}", id(&first))).await.json;
    let second = srv.venue("Bar", json!({"city": "Elsewhere"})).await;
    assert_ne!(id(&first), id(&second));
    let second_trashed = srv.delete(Some("admin"), &format!("/venues/{}", id(&second))).await.json;
    assert_ne!(first_trashed["slug"], second_trashed["slug"]);
    for (trashed, venue) in [(&first_trashed, &first), (&second_trashed, &second)] {
        let path = format!("/venues/by-slug/{}", trashed["slug"].as_str().unwrap());
        assert_eq!(id(srv.get_as("admin", &path).await.expect(200)), id(venue), "{path}");
    }
}

// ----- D3: no empty slugs, none over 200 characters -----

#[tokio::test]
async fn d3_a_title_without_slug_characters_falls_back_to_the_id() {
    let srv = start().await;
    let first = srv.event("!!!", 3, json!({})).await;
    let second = srv.event("!!!", 4, json!({})).await;
    for event in [&first, &second] {
        assert_eq!(event["slug"], id(event).to_string(), "{event}");
        let found = srv.get(&format!("/events/by-slug/{}", id(event))).await;
        assert_eq!(id(found.expect(200)), id(event));
        assert!(event["url"].as_str().unwrap().ends_with(&format!("/event/{}/", id(event))), "{}", event["url"]);
    }
    let tag = srv.tag("!!!", json!({})).await;
    assert_eq!(tag["slug"], id(&tag).to_string());
    assert!(!tag["url"].as_str().unwrap().contains("/tag//"), "{}", tag["url"]);
    let venue = srv.venue("???", json!({})).await;
    assert_eq!(venue["slug"], id(&venue).to_string());
}

#[tokio::test]
async fn d3_a_suffixed_slug_stays_within_200_characters() {
    let srv = start().await;
    let title = "a".repeat(250);
    let mut slugs = Vec::new();
    for day in 3..6 {
        let event = srv.event(&title, day, json!({})).await;
        let slug = event["slug"].as_str().unwrap().to_string();
        assert!(slug.len() <= 200, "{} characters: {slug}", slug.len());
        let found = srv.get(&format!("/events/by-slug/{slug}")).await;
        assert_eq!(id(found.expect(200)), id(&event));
        slugs.push(slug);
    }
    slugs.dedup();
    assert_eq!(slugs.len(), 3);
    // Trashing keeps the cap too.
    let event = srv.event(&title, 7, json!({})).await;
    let trashed = srv.delete(Some("admin"), &format!("/events/{}", id(&event))).await.json;
    assert!(trashed["slug"].as_str().unwrap().len() <= 200, "{}", trashed["slug"]);
}
