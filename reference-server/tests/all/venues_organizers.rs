//! Venues and organizers: create, read, update, delete by ID and by slug; every write field;
//! duplicate detection; lists and their filters; their error codes.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn venue_create_sets_every_field() {
    let srv = start().await;
    let body = json!({
        "venue": "Grand Hall",
        "description": "A big hall",
        "status": "publish",
        "author": 2,
        "date": "2026-10-01 09:00:00",
        "show_map": "true",
        "show_map_link": "false",
        "address": "1 Main Street",
        "city": "Toronto",
        "country": "Canada",
        "province": "Ontario",
        "state": "",
        "zip": "M5V 2T6",
        "phone": "+1 416 555 0100",
        "website": "https://hall.example.com/",
        "image": "4",
    });
    let resp = srv.post(Some("admin"), "/venues", &body).await;
    let venue = resp.expect(201).clone();
    let venue_id = id(&venue);
    assert!(venue.get("json_ld").is_none());
    let read = srv.get(&format!("/venues/{venue_id}")).await;
    let got = read.expect(200);
    assert_eq!(got["venue"], "Grand Hall");
    assert_eq!(got["description"], "<p>A big hall</p>");
    assert_eq!(got["status"], "publish");
    assert_eq!(got["author"], "2");
    assert_eq!(got["date"], "2026-10-01 09:00:00");
    assert_eq!(got["show_map"], true);
    assert_eq!(got["show_map_link"], false, "the string 'false' is false");
    assert_eq!(got["address"], "1 Main Street");
    assert_eq!(got["city"], "Toronto");
    assert_eq!(got["country"], "Canada");
    assert_eq!(got["province"], "Ontario");
    assert!(got.get("state").is_none(), "empty fields are left out: {got}");
    assert_eq!(got["zip"], "M5V 2T6");
    assert_eq!(got["phone"], "+1 416 555 0100");
    assert_eq!(got["website"], "https://hall.example.com/");
    assert_eq!(got["stateprovince"], "Ontario", "derived from the province outside the US");
    assert_eq!(got["image"]["id"], 4);
    assert_eq!(got["slug"], "grand-hall");
    assert_eq!(got["url"], format!("{}/venue/grand-hall/", srv.site()));
    assert_eq!(got["global_id"], format!("127.0.0.1?id={venue_id}"));
    assert_eq!(got["json_ld"]["@type"], "Place");
    assert_eq!(got["json_ld"]["name"], "Grand Hall");
}

#[tokio::test]
async fn venue_defaults_and_empty_fields() {
    let srv = start().await;
    let venue = srv.venue("Bare", json!({})).await;
    assert_eq!(venue["show_map"], true, "show_map defaults to true");
    assert_eq!(venue["show_map_link"], true);
    for absent in
        ["address", "city", "country", "province", "state", "zip", "phone", "website", "stateprovince", "image"]
    {
        assert!(venue.get(absent).is_none(), "{absent} should be absent: {venue}");
    }
    let us = srv.venue("US Venue", json!({"state": "NY", "country": "US"})).await;
    assert_eq!(us["stateprovince"], "NY");
    let given = srv.venue("Given SP", json!({"state": "NY", "stateprovince": "New York State"})).await;
    assert_eq!(given["stateprovince"], "New York State");
}

#[tokio::test]
async fn venue_validation() {
    let srv = start().await;
    let resp = srv.post(Some("admin"), "/venues", &json!({"city": "Nowhere"})).await;
    let err = resp.expect_error(400, "rest_missing_callback_param");
    assert_eq!(err["data"]["params"], json!(["venue"]));
    assert_eq!(err["message"], "Missing parameter(s): venue");
    let cases: Vec<(&str, Value)> = vec![
        ("venue", json!("")),
        ("status", json!("kinda_thinking_about_it")),
        ("author", json!(23)),
        ("website", json!("not a url")),
        ("image", json!("https://example.com/doc.pdf")),
        ("show_map", json!(1)),
        ("show_map_link", json!(true)),
        ("city", json!(5)),
        ("date", json!("whenever")),
    ];
    for (name, value) in cases {
        let mut body = json!({"venue": "V"});
        body[name] = value.clone();
        let resp = srv.post(Some("admin"), "/venues", &body).await;
        assert_eq!(resp.status, 400, "{name}={value}: {}", resp.text);
        assert_eq!(resp.json["code"], "rest_invalid_param");
        assert!(resp.json["data"]["params"].get(name).is_some(), "{name}={value}: {}", resp.text);
    }
    let resp = srv.post(Some("admin"), "/venues", &json!({"venue": "V", "show_map": 1})).await;
    assert_eq!(resp.json["data"]["params"]["show_map"], "show_map is not of type string.");
    assert_eq!(srv.get_as("admin", "/venues").await.json["total"], 0);
}

#[tokio::test]
async fn venue_duplicates_return_the_existing_venue() {
    let srv = start().await;
    let first = srv.venue("Town Hall", json!({"city": "Bern", "address": "Main 1"})).await;
    let same = srv.post(Some("admin"), "/venues", &json!({"venue": "town hall", "city": "BERN"})).await;
    assert_eq!(same.expect(201)["id"], id(&first), "case-insensitive match of the provided fields");
    let other = srv.venue("Town Hall", json!({"city": "Basel"})).await;
    assert_ne!(id(&other), id(&first));
    // The existing venue is not modified by the duplicate request.
    assert_eq!(srv.get(&format!("/venues/{}", id(&first))).await.json["city"], "Bern");
    assert_eq!(srv.get("/venues").await.json["total"], 2);
}

#[tokio::test]
async fn venue_update_by_id_and_by_slug() {
    let srv = start().await;
    let venue = srv.venue("Old Name", json!({"city": "Oslo", "phone": "123", "zip": "0150"})).await;
    let path = format!("/venues/{}", id(&venue));
    let resp = srv.post(Some("admin"), &path, &json!({"venue": "New Name", "city": "Bergen"})).await;
    let updated = resp.expect(200);
    assert_eq!(updated["venue"], "New Name");
    assert_eq!(updated["city"], "Bergen");
    assert_eq!(updated["phone"], "123", "untouched fields keep their values");
    assert_eq!(updated["slug"], "old-name", "a title change does not change the slug");
    // An empty string clears a field, which then disappears.
    let resp = srv.put(Some("admin"), &path, &json!({"phone": ""})).await;
    assert!(resp.expect(200).get("phone").is_none(), "{}", resp.text);
    assert_eq!(resp.json["zip"], "0150");
    // By slug, with each update method.
    for (method, city) in [(Method::POST, "Trondheim"), (Method::PUT, "Tromso"), (Method::PATCH, "Bodo")] {
        let resp =
            srv.req(method.clone(), "/venues/by-slug/old-name").user("admin").json(&json!({"city": city})).send().await;
        assert_eq!(resp.expect(200)["city"], city, "{method}");
        assert_eq!(resp.json["id"], id(&venue));
    }
    let read = srv.get("/venues/by-slug/old-name").await;
    assert_eq!(read.expect(200)["id"], id(&venue));
    assert_eq!(read.json["json_ld"]["@type"], "Place");
    // `venue: ""` is refused on update.
    srv.patch(Some("admin"), &path, &json!({"venue": ""})).await.expect_error(400, "rest_invalid_param");
    // Another venue may take the same title.
    let other = srv.venue("Other", json!({})).await;
    let resp = srv.patch(Some("admin"), &format!("/venues/{}", id(&other)), &json!({"venue": "New Name"})).await;
    assert_eq!(resp.expect(200)["venue"], "New Name");
}

#[tokio::test]
async fn venue_and_organizer_rename_by_slug() {
    let srv = start().await;
    let venue = srv.venue("Slugged", json!({})).await;
    let resp = srv.patch(Some("admin"), "/venues/by-slug/slugged", &json!({"slug": "renamed"})).await;
    assert_eq!(resp.expect(200)["slug"], "renamed");
    assert_eq!(srv.get("/venues/by-slug/renamed").await.expect(200)["id"], id(&venue));
    let organizer = srv.organizer("Named", json!({})).await;
    let resp = srv.patch(Some("admin"), "/organizers/by-slug/named", &json!({"slug": "renamed-org"})).await;
    assert_eq!(resp.expect(200)["slug"], "renamed-org");
    assert_eq!(srv.get("/organizers/by-slug/renamed-org").await.expect(200)["id"], id(&organizer));
}

#[tokio::test]
async fn venue_read_errors() {
    let srv = start().await;
    let event = srv.event("An event", 2, json!({})).await;
    for path in [
        "/venues/999999".to_string(),
        format!("/venues/{}", id(&event)),
        "/venues/1".to_string(),
        "/venues/0".to_string(),
    ] {
        let resp = srv.get(&path).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("id").is_some(), "{path}");
    }
    srv.get("/venues/abc").await.expect_error(404, "rest_no_route");
    srv.get("/venues/by-slug/nothing-here").await.expect_error(400, "rest_invalid_param");
    // Validation before permission: even anonymous deletes of unknown IDs are 400.
    srv.delete(None, "/venues/999999").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn draft_venue_visibility() {
    let srv = start().await;
    let venue = srv.venue("Secret venue", json!({"status": "draft"})).await;
    assert_eq!(venue["status"], "draft");
    let path = format!("/venues/{}", id(&venue));
    for user in [None, Some("subscriber"), Some("contributor"), Some("author")] {
        let resp = srv.req(Method::GET, &path).maybe_user(user).send().await;
        let err = resp.expect_error(403, "venue-not-accessible");
        assert_eq!(err["message"], "The requested venue is not accessible");
    }
    srv.get("/venues/by-slug/secret-venue").await.expect_error(403, "venue-not-accessible");
    assert_eq!(srv.get_as("editor", &path).await.expect(200)["venue"], "Secret venue");
    assert_eq!(srv.get_as("editor", "/venues/by-slug/secret-venue").await.expect(200)["id"], id(&venue));
}

#[tokio::test]
async fn venue_delete_trashes_then_410() {
    let srv = start().await;
    let venue = srv.venue("Gone", json!({})).await;
    let event = srv.event("Still linked", 3, json!({"venue": id(&venue)})).await;
    let path = format!("/venues/{}", id(&venue));
    let resp = srv.delete(Some("admin"), &path).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    assert_eq!(resp.json["venue"], "Gone");
    let again = srv.delete(Some("admin"), &path).await;
    assert_eq!(again.expect_error(410, "venue-is-in-trash")["message"], "The venue is already trashed");
    assert_eq!(srv.get_as("admin", "/venues").await.json["total"], 0, "trashed venues are not listed");
    // Trashing a venue leaves it linked to its events; it shows there to those who may read
    // it (S1 of issue 9: not to anonymous readers).
    let read = srv.get_as("admin", &format!("/events/{}", id(&event))).await;
    assert_eq!(read.expect(200)["venue"]["id"], id(&venue));
    assert_eq!(srv.get(&format!("/events/{}", id(&event))).await.expect(200)["venue"], json!([]));
    // Delete by slug.
    srv.venue("By slug", json!({})).await;
    let resp = srv.delete(Some("admin"), "/venues/by-slug/by-slug").await;
    assert_eq!(resp.expect(200)["status"], "trash");
}

#[tokio::test]
async fn organizer_create_read_update_delete() {
    let srv = start().await;
    let body = json!({
        "organizer": "Mia Promotions",
        "description": "We organize",
        "status": "publish",
        "author": 3,
        "date": "2026-09-09 09:09:09",
        "phone": "555-0199",
        "website": "https://mia.example.com/",
        "email": "not-an-email-but-accepted",
        "image": "https://img.example.com/logo.png",
    });
    let created = srv.post(Some("admin"), "/organizers", &body).await;
    let org = created.expect(201).clone();
    let org_id = id(&org);
    let got = srv.get(&format!("/organizers/{org_id}")).await;
    let got = got.expect(200);
    assert_eq!(got["organizer"], "Mia Promotions");
    assert_eq!(got["description"], "<p>We organize</p>");
    assert_eq!(got["author"], "3");
    assert_eq!(got["date"], "2026-09-09 09:09:09");
    assert_eq!(got["phone"], "555-0199");
    assert_eq!(got["website"], "https://mia.example.com/");
    assert_eq!(got["email"], "not-an-email-but-accepted");
    assert_eq!(got["image"]["url"], "https://img.example.com/logo.png");
    assert_eq!(got["image"]["extension"], "png");
    assert_eq!(got["slug"], "mia-promotions");
    assert_eq!(got["url"], format!("{}/organizer/mia-promotions/", srv.site()));
    assert_eq!(got["json_ld"]["name"], "Mia Promotions");

    // Update by ID and by slug; clearing a field removes it.
    let resp =
        srv.patch(Some("admin"), &format!("/organizers/{org_id}"), &json!({"email": "", "phone": "555-0100"})).await;
    let updated = resp.expect(200);
    assert!(updated.get("email").is_none(), "{updated}");
    assert_eq!(updated["phone"], "555-0100");
    assert_eq!(updated["website"], "https://mia.example.com/");
    let resp = srv.put(Some("admin"), "/organizers/by-slug/mia-promotions", &json!({"organizer": "Mia Events"})).await;
    assert_eq!(resp.expect(200)["organizer"], "Mia Events");
    assert_eq!(srv.get("/organizers/by-slug/mia-promotions").await.expect(200)["organizer"], "Mia Events");
    let resp = srv.patch(Some("admin"), &format!("/organizers/{org_id}"), &json!({"image": ""})).await;
    assert!(resp.expect(200).get("image").is_none());

    // Delete, second delete, trashed not listed.
    let resp = srv.delete(Some("admin"), &format!("/organizers/{org_id}")).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    let again = srv.delete(Some("admin"), &format!("/organizers/{org_id}")).await;
    assert_eq!(again.expect_error(410, "organizer-is-in-trash")["message"], "The organizer is already trashed");
    assert_eq!(srv.get_as("admin", "/organizers").await.json["total"], 0);
}

#[tokio::test]
async fn organizer_defaults_validation_and_errors() {
    let srv = start().await;
    let org = srv.organizer("Bare Org", json!({})).await;
    for absent in ["phone", "website", "email", "image", "description", "excerpt"] {
        assert!(org.get(absent).is_none(), "{absent} should be absent: {org}");
    }
    let resp = srv.post(Some("admin"), "/organizers", &json!({"email": "x@example.com"})).await;
    assert_eq!(resp.expect_error(400, "rest_missing_callback_param")["data"]["params"], json!(["organizer"]));
    for (name, value) in
        [("organizer", json!("")), ("website", json!("nope")), ("status", json!("weird")), ("phone", json!(12))]
    {
        let mut body = json!({"organizer": "O"});
        body[name] = value.clone();
        let resp = srv.post(Some("admin"), "/organizers", &body).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get(name).is_some(), "{name}={value}");
    }
    srv.get("/organizers/999999").await.expect_error(400, "rest_invalid_param");
    srv.get("/organizers/by-slug/unknown").await.expect_error(400, "rest_invalid_param");
    srv.get("/organizers/xyz").await.expect_error(404, "rest_no_route");
    let draft = srv.organizer("Hidden Org", json!({"status": "draft"})).await;
    let err = srv.get(&format!("/organizers/{}", id(&draft))).await;
    assert_eq!(
        err.expect_error(403, "organizer-not-accessible")["message"],
        "The requested organizer is not accessible"
    );
    assert_eq!(srv.get_as("editor", &format!("/organizers/{}", id(&draft))).await.status, 200);
    // Duplicates.
    let first = srv.organizer("Dup", json!({"email": "dup@example.com"})).await;
    let again = srv.post(Some("admin"), "/organizers", &json!({"organizer": "DUP", "email": "DUP@example.com"})).await;
    assert_eq!(again.expect(201)["id"], id(&first));
    let different = srv.organizer("Dup", json!({"email": "other@example.com"})).await;
    assert_ne!(id(&different), id(&first));
}

// ----- lists -----

#[tokio::test]
async fn venue_list_pages_and_errors() {
    let srv = start().await;
    for n in 0..12 {
        srv.venue(&format!("Venue {n}"), json!({})).await;
    }
    let resp = srv.get("/venues").await;
    let body = resp.expect(200);
    assert_eq!(body["venues"].as_array().unwrap().len(), 10);
    assert_eq!(body["total"], 12);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(resp.header("x-tec-total"), Some("12"));
    assert_eq!(resp.header("x-tec-totalpages"), Some("2"));
    assert_eq!(body["rest_url"], format!("{}/venues/", srv.api()));
    assert_eq!(body["next_rest_url"], format!("{}/venues/?page=2", srv.api()));
    assert_eq!(keys(body), ["venues", "rest_url", "next_rest_url", "total", "total_pages"]);
    let page2 = srv.get("/venues?page=2").await;
    assert_eq!(page2.expect(200)["venues"].as_array().unwrap().len(), 2);
    assert_eq!(page2.json["previous_rest_url"], format!("{}/venues/", srv.api()));
    // The two pages together hold every venue once.
    let mut all = ids(&body["venues"]);
    all.extend(ids(&page2.json["venues"]));
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 12);
    let err = srv.get("/venues?page=3").await;
    assert_eq!(
        err.expect_error(404, "venue-archive-page-not-found")["message"],
        "The requested venue archive page does not exist"
    );
    let err = srv.get("/organizers?page=2").await;
    assert_eq!(
        err.expect_error(404, "organizer-archive-page-not-found")["message"],
        "The requested organizer archive page does not exist"
    );
    for bad in ["page=0", "per_page=abc", "page=-2", "per_page=0"] {
        srv.get(&format!("/venues?{bad}")).await.expect_error(400, "rest_invalid_param");
        srv.get(&format!("/organizers?{bad}")).await.expect_error(400, "rest_invalid_param");
    }
    let clamped = srv.get("/venues?per_page=100").await;
    assert_eq!(clamped.expect(200)["venues"].as_array().unwrap().len(), 12);
    assert_eq!(clamped.json["total_pages"], 1);
    let empty = srv.get("/organizers").await;
    assert_eq!(empty.expect(200)["organizers"], json!([]));
    assert_eq!(empty.json["total"], 0);
    assert_eq!(empty.json["total_pages"], 0);
}

#[tokio::test]
async fn venue_and_organizer_search() {
    let srv = start().await;
    let a = srv.venue("Riverside", json!({"city": "Dublin"})).await;
    let b = srv.venue("Hilltop", json!({"description": "Near the river"})).await;
    let c = srv.venue("Arena", json!({"zip": "D02 X285", "phone": "0199"})).await;
    assert_eq!(srv.list_ids(None, "/venues?search=river", "venues").await, sorted(vec![id(&a), id(&b)]));
    assert_eq!(srv.list_ids(None, "/venues?search=dublin", "venues").await, [id(&a)]);
    assert_eq!(srv.list_ids(None, "/venues?search=X285", "venues").await, [id(&c)]);
    let none = srv.get("/venues?search=zzz").await;
    assert_eq!(none.expect(200)["venues"], json!([]));
    assert_eq!(none.json["total"], 0, "totals describe the filtered result");
    assert_eq!(none.header("x-tec-total"), Some("0"));
    let o1 = srv.organizer("Acme", json!({"email": "hello@acme.example"})).await;
    let o2 = srv.organizer("Zeta", json!({"website": "https://zeta.example/", "phone": "777"})).await;
    assert_eq!(srv.list_ids(None, "/organizers?search=acme", "organizers").await, [id(&o1)]);
    assert_eq!(srv.list_ids(None, "/organizers?search=zeta.example", "organizers").await, [id(&o2)]);
    assert_eq!(srv.list_ids(None, "/organizers?search=777", "organizers").await, [id(&o2)]);
}

#[tokio::test]
async fn linked_lists_by_event_has_events_and_upcoming() {
    let srv = start().await;
    let v_up = srv.venue("Upcoming venue", json!({})).await;
    let v_past = srv.venue("Past venue", json!({})).await;
    let v_draft = srv.venue("Draft-only venue", json!({})).await;
    let v_none = srv.venue("Unused venue", json!({})).await;
    let o_up = srv.organizer("Upcoming org", json!({})).await;
    let o_none = srv.organizer("Unused org", json!({})).await;
    let upcoming = srv.event("Upcoming", 5, json!({"venue": id(&v_up), "organizer": [id(&o_up)]})).await;
    srv.event("Past", -5, json!({"venue": id(&v_past)})).await;
    let draft = srv.event("Draft", 6, json!({"venue": id(&v_draft), "status": "draft"})).await;

    assert_eq!(srv.list_ids(None, &format!("/venues?event={}", id(&upcoming)), "venues").await, [id(&v_up)]);
    assert_eq!(srv.list_ids(None, &format!("/organizers?event={}", id(&upcoming)), "organizers").await, [id(&o_up)]);
    // A draft event's links show only to those who may read it (S1/S5 of issue 9).
    assert_eq!(srv.list_ids(Some("admin"), &format!("/venues?event={}", id(&draft)), "venues").await, [id(&v_draft)]);
    assert!(srv.list_ids(None, &format!("/venues?event={}", id(&draft)), "venues").await.is_empty());
    for bad in ["999999", "abc", "1", ""] {
        srv.get(&format!("/venues?event={bad}")).await.expect_error(400, "rest_invalid_param");
        srv.get(&format!("/organizers?event={bad}")).await.expect_error(400, "rest_invalid_param");
    }
    srv.get(&format!("/venues?event={}", id(&v_up))).await.expect_error(400, "rest_invalid_param");

    assert_eq!(
        srv.list_ids(None, "/venues?has_events=true", "venues").await,
        sorted(vec![id(&v_up), id(&v_past)]),
        "draft events do not count"
    );
    assert_eq!(srv.list_ids(None, "/venues?has_events=false", "venues").await, sorted(vec![id(&v_draft), id(&v_none)]));
    assert_eq!(srv.list_ids(None, "/venues?has_events=0", "venues").await, sorted(vec![id(&v_draft), id(&v_none)]));
    assert_eq!(srv.list_ids(None, "/venues?only_with_upcoming=true", "venues").await, [id(&v_up)]);
    assert_eq!(srv.list_ids(None, "/venues?only_with_upcoming=1", "venues").await, [id(&v_up)]);
    assert_eq!(srv.list_ids(None, "/venues?only_with_upcoming=false", "venues").await.len(), 4, "false: no filtering");
    assert_eq!(srv.list_ids(None, "/venues", "venues").await.len(), 4);
    assert_eq!(srv.list_ids(None, "/organizers?has_events=true", "organizers").await, [id(&o_up)]);
    assert_eq!(srv.list_ids(None, "/organizers?has_events=false", "organizers").await, [id(&o_none)]);
    assert_eq!(srv.list_ids(None, "/organizers?only_with_upcoming=true", "organizers").await, [id(&o_up)]);
}

#[tokio::test]
async fn private_events_count_for_upcoming_only_for_those_who_can_read_them() {
    let srv = start().await;
    let venue = srv.venue("Private venue", json!({})).await;
    srv.event("Private event", 5, json!({"venue": id(&venue), "status": "private"})).await;
    assert_eq!(srv.list_ids(None, "/venues?only_with_upcoming=true", "venues").await, Vec::<u64>::new());
    assert_eq!(srv.list_ids(Some("editor"), "/venues?only_with_upcoming=true", "venues").await, [id(&venue)]);
}

#[tokio::test]
async fn linked_list_status_by_role() {
    let srv = start().await;
    let published = srv.venue("Published venue", json!({})).await;
    let draft = srv.venue("Draft venue", json!({"status": "draft"})).await;
    let mine = srv.create("author", "venues", json!({"venue": "Author draft", "status": "draft"})).await;
    assert_eq!(srv.list_ids(None, "/venues", "venues").await, [id(&published)]);
    assert_eq!(srv.list_ids(None, "/venues?status=publish", "venues").await, [id(&published)]);
    srv.get("/venues?status=draft").await.expect_error(400, "rest_invalid_param");
    srv.get_as("subscriber", "/venues?status=draft").await.expect_error(400, "rest_invalid_param");
    assert_eq!(
        srv.list_ids(Some("editor"), "/venues", "venues").await,
        sorted(vec![id(&published), id(&draft), id(&mine)])
    );
    assert_eq!(
        srv.list_ids(Some("editor"), "/venues?status=draft", "venues").await,
        sorted(vec![id(&draft), id(&mine)])
    );
    assert_eq!(srv.list_ids(Some("author"), "/venues", "venues").await, sorted(vec![id(&published), id(&mine)]));
    srv.get_as("editor", "/venues?status=bogus").await.expect_error(400, "rest_invalid_param");
    let org = srv.organizer("Draft org", json!({"status": "draft"})).await;
    assert_eq!(srv.list_ids(None, "/organizers", "organizers").await, Vec::<u64>::new());
    assert_eq!(srv.list_ids(Some("admin"), "/organizers?status=draft", "organizers").await, [id(&org)]);
}
