//! Events: create, read, update and delete, by ID and by slug; every write field; defaults;
//! validation errors; linked venues, organizers and terms; password-protected events.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn create_sets_every_write_field_and_reads_it_back() {
    let srv = start().await;
    let venue = srv.venue("Blue Hall", json!({"city": "Lyon"})).await;
    let organizer = srv.organizer("Ada Events", json!({"email": "ada@example.com"})).await;
    let category = srv.category("Jazz", json!({})).await;
    let tag = srv.tag("Outdoor", json!({})).await;
    let body = json!({
        "title": "Summer Concert",
        "description": "A long evening of music",
        "excerpt": "Music all night",
        "slug": "summer-concert-2027",
        "status": "publish",
        "author": 3,
        "date": "2026-11-01 08:30:00",
        "timezone": "Europe/Paris",
        "all_day": false,
        "start_date": "2027-07-01 20:00:00",
        "end_date": "2027-07-01 23:00:00",
        "image": "4",
        "cost": "20$",
        "website": "https://concert.example.com/",
        "show_map": true,
        "show_map_link": true,
        "hide_from_listings": false,
        "sticky": true,
        "featured": true,
        "categories": [id(&category)],
        "tags": [id(&tag)],
        "venue": id(&venue),
        "organizer": [id(&organizer)],
    });
    let created = srv.create("admin", "events", body).await;
    let event_id = id(&created);
    assert!(event_id >= 6, "calendar items start at 6: {event_id}");
    assert!(created.get("json_ld").is_none(), "no json_ld outside single reads");

    let got = srv.get(&format!("/events/{event_id}")).await;
    let event = got.expect(200);
    assert_eq!(event["id"], event_id);
    assert_eq!(event["title"], "Summer Concert");
    assert_eq!(event["description"], "<p>A long evening of music</p>");
    assert_eq!(event["excerpt"], "<p>Music all night</p>");
    assert_eq!(event["slug"], "summer-concert-2027");
    assert_eq!(event["status"], "publish");
    assert_eq!(event["author"], "3");
    assert_eq!(event["date"], "2026-11-01 08:30:00");
    assert_eq!(event["date_utc"], "2026-11-01 08:30:00");
    assert_eq!(event["timezone"], "Europe/Paris");
    assert_eq!(event["timezone_abbr"], "CEST");
    assert_eq!(event["all_day"], false);
    assert_eq!(event["start_date"], "2027-07-01 20:00:00");
    assert_eq!(event["end_date"], "2027-07-01 23:00:00");
    assert_eq!(event["utc_start_date"], "2027-07-01 18:00:00");
    assert_eq!(event["utc_end_date"], "2027-07-01 21:00:00");
    assert_eq!(
        event["start_date_details"],
        json!({"year": "2027", "month": "07", "day": "01", "hour": "20", "minutes": "00", "seconds": "00"})
    );
    assert_eq!(event["image"]["id"], 4);
    assert_eq!(event["image"]["extension"], "png");
    assert!(event["image"]["url"].as_str().unwrap().ends_with(".png"));
    assert!(event["image"]["width"].as_u64().is_some_and(|w| w > 0), "{}", event["image"]);
    assert!(event["image"]["height"].as_u64().is_some_and(|h| h > 0), "{}", event["image"]);
    assert_eq!(event["cost"], "20$");
    assert_eq!(event["website"], "https://concert.example.com/");
    assert_eq!(event["show_map"], true);
    assert_eq!(event["show_map_link"], true);
    assert_eq!(event["hide_from_listings"], false);
    assert_eq!(event["sticky"], true);
    assert_eq!(event["featured"], true);
    assert_eq!(event["categories"].as_array().unwrap().len(), 1);
    assert_eq!(event["categories"][0]["id"], id(&category));
    assert_eq!(event["categories"][0]["name"], "Jazz");
    assert_eq!(event["categories"][0]["slug"], "jazz");
    assert_eq!(event["categories"][0]["taxonomy"], "tribe_events_cat");
    assert_eq!(event["tags"][0]["id"], id(&tag));
    assert_eq!(event["tags"][0]["taxonomy"], "post_tag");
    assert_eq!(event["venue"]["id"], id(&venue), "one venue is a single object");
    assert_eq!(event["venue"]["venue"], "Blue Hall");
    assert_eq!(event["venue"]["city"], "Lyon");
    assert_eq!(event["organizer"].as_array().unwrap().len(), 1, "organizers are always an array");
    assert_eq!(event["organizer"][0]["id"], id(&organizer));
    assert_eq!(event["organizer"][0]["email"], "ada@example.com");
    assert_eq!(event["rest_url"], format!("{}/events/{event_id}", srv.api()));
    assert_eq!(event["url"], format!("{}/event/summer-concert-2027/", srv.site()));
    assert_eq!(event["global_id"], format!("127.0.0.1?id={event_id}"));
    assert_eq!(event["global_id_lineage"], json!([format!("127.0.0.1?id={event_id}")]));
    assert_eq!(event["json_ld"]["@type"], "Event");
    assert_eq!(event["json_ld"]["name"], "Summer Concert");
    assert_eq!(event["json_ld"]["startDate"], "2027-07-01T20:00:00+02:00");
}

#[tokio::test]
async fn create_response_has_every_key_in_order() {
    let srv = start().await;
    let event = srv.event("Keys", 3, json!({})).await;
    let expected = [
        "id",
        "global_id",
        "global_id_lineage",
        "author",
        "status",
        "date",
        "date_utc",
        "modified",
        "modified_utc",
        "url",
        "rest_url",
        "title",
        "description",
        "excerpt",
        "slug",
        "image",
        "all_day",
        "start_date",
        "start_date_details",
        "end_date",
        "end_date_details",
        "utc_start_date",
        "utc_start_date_details",
        "utc_end_date",
        "utc_end_date_details",
        "timezone",
        "timezone_abbr",
        "cost",
        "cost_details",
        "website",
        "show_map",
        "show_map_link",
        "hide_from_listings",
        "sticky",
        "featured",
        "categories",
        "tags",
        "venue",
        "organizer",
        "custom_fields",
    ];
    assert_eq!(keys(&event), expected);
}

#[tokio::test]
async fn create_defaults() {
    let srv = start().await;
    let event = srv.event("Plain Event", 2, json!({})).await;
    assert_eq!(event["status"], "publish", "a publisher's event is published");
    assert_eq!(event["author"], "1");
    assert_eq!(event["slug"], "plain-event");
    assert_eq!(event["all_day"], false);
    assert_eq!(event["url"], format!("{}/event/plain-event/", srv.site()));
    assert_eq!(event["website"], event["url"], "no website shows the permalink");
    assert_eq!(event["show_map"], false);
    assert_eq!(event["show_map_link"], false);
    assert_eq!(event["hide_from_listings"], false);
    assert_eq!(event["sticky"], false);
    assert_eq!(event["featured"], false);
    assert_eq!(event["image"], false);
    assert_eq!(event["description"], "");
    assert_eq!(event["excerpt"], "");
    assert_eq!(event["cost"], "");
    assert_eq!(event["categories"], json!([]));
    assert_eq!(event["tags"], json!([]));
    assert_eq!(event["venue"], json!([]));
    assert_eq!(event["organizer"], json!([]));
    assert_eq!(event["custom_fields"], json!([]));
    assert_eq!(event["timezone"], "UTC");
    assert_eq!(event["timezone_abbr"], "UTC");
    assert_eq!(event["start_date"], at(2, 0));
    assert_eq!(event["utc_start_date"], at(2, 0));
    assert_eq!(event["end_date"], at(2, 2));

    // An empty website also shows the permalink.
    let empty = srv.event("Empty Site", 2, json!({"website": ""})).await;
    assert_eq!(empty["website"], empty["url"]);

    // The same slug again gets a suffix.
    let again = srv.event("Plain Event", 3, json!({})).await;
    assert_eq!(again["slug"], "plain-event-2");
}

#[tokio::test]
async fn create_with_missing_required_fields() {
    let srv = start().await;
    let resp = srv.post(Some("admin"), "/events", &json!({"description": "no title"})).await;
    let body = resp.expect_error(400, "rest_missing_callback_param");
    let mut params: Vec<String> =
        body["data"]["params"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    params.sort();
    assert_eq!(params, ["end_date", "start_date", "title"]);
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with("Missing parameter(s): "), "{message}");
    for name in ["title", "start_date", "end_date"] {
        assert!(message.contains(name), "{message}");
    }

    let resp = srv.post(Some("admin"), "/events", &json!({"title": "T", "start_date": at(1, 0)})).await;
    let body = resp.expect_error(400, "rest_missing_callback_param");
    assert_eq!(body["message"], "Missing parameter(s): end_date");
    assert_eq!(body["data"]["params"], json!(["end_date"]));
}

/// One invalid field at a time: the answer names it in `data.params`.
#[tokio::test]
async fn create_with_invalid_values_names_each_parameter() {
    let srv = start().await;
    let cases: Vec<(&str, Value)> = vec![
        ("title", json!("")),
        ("title", json!(5)),
        ("start_date", json!("before my birthday")),
        ("end_date", json!("not a date at all")),
        ("author", json!(23)),
        ("author", json!("abc")),
        ("date", json!("foo")),
        ("date_utc", json!("foo")),
        ("description", json!("")),
        ("status", json!("kinda_thinking_about_it")),
        ("timezone", json!("Mars/Olympus")),
        ("image", json!("https://example.com/file.txt")),
        ("image", json!("1")),
        ("image", json!(4)),
        ("image", json!(999999)),
        ("website", json!("foo")),
        ("all_day", json!("maybe")),
        ("show_map", json!("yes")),
        ("show_map_link", json!([1, 2])),
        ("hide_from_listings", json!("nope")),
        ("sticky", json!({"a": 1})),
        ("featured", json!("yes")),
        ("venue", json!(999999)),
        ("organizer", json!([999999])),
        ("multilingual_language", json!("xx")),
    ];
    for (name, value) in cases {
        let mut body = json!({"title": "Bad", "start_date": at(1, 0), "end_date": at(1, 1)});
        body[name] = value.clone();
        let resp = srv.post(Some("admin"), "/events", &body).await;
        assert_eq!(resp.status, 400, "{name}={value}: {}", resp.text);
        assert_eq!(resp.json["code"], "rest_invalid_param", "{name}={value}: {}", resp.text);
        assert_eq!(resp.json["data"]["status"], 400);
        assert!(resp.json["data"]["params"].get(name).is_some(), "{name}={value}: {}", resp.text);
        assert!(resp.json["message"].as_str().unwrap().starts_with("Invalid parameter(s): "));
        assert!(resp.json["message"].as_str().unwrap().contains(name));
    }
    // Nothing was created along the way.
    assert_eq!(srv.get("/events").await.json["total"], 0);
}

#[tokio::test]
async fn boolean_type_errors_use_the_cms_wording() {
    let srv = start().await;
    let body = json!({"title": "T", "start_date": at(1, 0), "end_date": at(1, 1), "featured": "yes"});
    let resp = srv.post(Some("admin"), "/events", &body).await;
    let err = resp.expect_error(400, "rest_invalid_param");
    assert_eq!(err["message"], "Invalid parameter(s): featured");
    assert_eq!(err["data"]["params"]["featured"], "featured is not of type boolean.");
    assert_eq!(err["data"]["details"]["featured"]["code"], "rest_invalid_type");
}

#[tokio::test]
async fn several_invalid_parameters_are_reported_together() {
    let srv = start().await;
    let body = json!({"title": "T", "start_date": "garbage", "end_date": at(1, 1), "website": "nope"});
    let resp = srv.post(Some("admin"), "/events", &body).await;
    let err = resp.expect_error(400, "rest_invalid_param");
    let params = err["data"]["params"].as_object().unwrap();
    assert!(params.contains_key("start_date") && params.contains_key("website"), "{err}");
    assert_eq!(params.len(), 2);
}

#[tokio::test]
async fn booleans_accept_the_cms_forms() {
    let srv = start().await;
    for (value, expected) in [
        (json!(true), true),
        (json!("true"), true),
        (json!("1"), true),
        (json!(1), true),
        (json!("false"), false),
        (json!(0), false),
    ] {
        let event = srv.event("Flags", 2, json!({"featured": value, "sticky": value})).await;
        assert_eq!(event["featured"], expected, "featured={value}");
        assert_eq!(event["sticky"], expected, "sticky={value}");
    }
}

#[tokio::test]
async fn update_by_id_changes_each_field_and_keeps_the_rest() {
    let srv = start().await;
    let venue = srv.venue("Hall A", json!({})).await;
    let organizer = srv.organizer("Org A", json!({})).await;
    let event = srv
        .event(
            "Original",
            5,
            json!({"description": "Desc", "excerpt": "Exc", "featured": true, "sticky": true, "show_map": true,
                   "show_map_link": true, "website": "https://a.example.com/", "cost": "10", "venue": id(&venue),
                   "organizer": [id(&organizer)], "categories": ["Rock"], "tags": ["Loud"], "image": "5"}),
        )
        .await;
    let path = format!("/events/{}", id(&event));
    let updates: Vec<(&str, Value, &str, Value)> = vec![
        ("title", json!("Renamed"), "title", json!("Renamed")),
        ("description", json!("New description"), "description", json!("<p>New description</p>")),
        ("excerpt", json!("New excerpt"), "excerpt", json!("<p>New excerpt</p>")),
        ("slug", json!("renamed-event"), "slug", json!("renamed-event")),
        ("start_date", json!("2027-02-01 09:00:00"), "start_date", json!("2027-02-01 09:00:00")),
        ("end_date", json!("2027-02-01 18:00:00"), "end_date", json!("2027-02-01 18:00:00")),
        ("website", json!("https://b.example.com/"), "website", json!("https://b.example.com/")),
        ("featured", json!(false), "featured", json!(false)),
        ("sticky", json!(false), "sticky", json!(false)),
        ("show_map", json!(false), "show_map", json!(false)),
        ("show_map_link", json!(false), "show_map_link", json!(false)),
        ("hide_from_listings", json!(true), "hide_from_listings", json!(true)),
        ("all_day", json!(true), "all_day", json!(true)),
        ("cost", json!("15"), "cost", json!("$15")),
        ("status", json!("draft"), "status", json!("draft")),
        ("author", json!(2), "author", json!("2")),
        ("date", json!("2026-10-01 12:00:00"), "date", json!("2026-10-01 12:00:00")),
        ("timezone", json!("Asia/Tokyo"), "timezone", json!("Asia/Tokyo")),
    ];
    for (field, value, key, expected) in updates {
        let before = without_json_ld(srv.get_as("admin", &path).await.json);
        let resp = srv.post(Some("admin"), &path, &json!({ field: value })).await;
        let after = resp.expect(200);
        assert_eq!(after[key], expected, "{field}: {}", resp.text);
        assert!(after.get("json_ld").is_none());
        // Everything the update did not carry keeps its value (Part A 14 and 28).
        for other in ["venue", "organizer", "image", "cost", "website", "featured", "sticky", "show_map"] {
            if other != field {
                assert_eq!(after[other], before[other], "{other} changed by an update of {field}");
            }
        }
        for terms in ["categories", "tags"] {
            assert_eq!(ids(&after[terms]), ids(&before[terms]), "{terms} changed by an update of {field}");
        }
        if field != "status" {
            assert_eq!(after["status"], before["status"], "status changed by an update of {field}");
        }
    }
    let last = srv.get_as("admin", &path).await.json;
    assert_eq!(last["title"], "Renamed");
    assert_eq!(last["venue"]["id"], id(&venue));
    assert_eq!(last["organizer"][0]["id"], id(&organizer));
    assert_eq!(last["categories"][0]["name"], "Rock");
    assert_eq!(last["tags"][0]["name"], "Loud");
    assert_eq!(last["image"]["id"], 5);
}

#[tokio::test]
async fn update_with_put_patch_and_post_all_work() {
    let srv = start().await;
    let event = srv.event("Methods", 5, json!({})).await;
    let path = format!("/events/{}", id(&event));
    for (method, title) in [(Method::POST, "Via POST"), (Method::PUT, "Via PUT"), (Method::PATCH, "Via PATCH")] {
        let resp = srv.req(method.clone(), &path).user("admin").json(&json!({"title": title})).send().await;
        assert_eq!(resp.expect(200)["title"], title, "{method}");
    }
    assert_eq!(srv.get(&path).await.json["title"], "Via PATCH");
}

#[tokio::test]
async fn update_errors() {
    let srv = start().await;
    let resp = srv.post(Some("admin"), "/events/999999", &json!({"title": "x"})).await;
    let err = resp.expect_error(404, "rest-event-not-found");
    assert_eq!(err["message"], "Event with ID 999999 does not exist.");
    // A post that is not an event.
    let resp = srv.put(Some("admin"), "/events/1", &json!({"title": "x"})).await;
    let err = resp.expect_error(400, "rest-invalid-event-id");
    assert_eq!(err["message"], "The specified ID is not a valid event.");
    // Bad values on update are 400 too.
    let event = srv.event("U", 3, json!({})).await;
    let path = format!("/events/{}", id(&event));
    let resp = srv.patch(Some("admin"), &path, &json!({"start_date": "whenever"})).await;
    assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("start_date").is_some());
    let resp = srv.patch(Some("admin"), &path, &json!({"featured": "yes"})).await;
    assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("featured").is_some());
    // Anonymous: 401.
    let resp = srv.patch(None, &path, &json!({"title": "x"})).await;
    resp.expect_error(401, "rest_forbidden");
    assert_eq!(srv.get(&path).await.json["title"], "U");
}

#[tokio::test]
async fn read_by_slug_update_by_slug_and_rename() {
    let srv = start().await;
    let event = srv.event("Slug Party", 4, json!({"description": "d"})).await;
    assert_eq!(event["slug"], "slug-party");
    let got = srv.get("/events/by-slug/slug-party").await;
    let body = got.expect(200);
    assert_eq!(body["id"], id(&event));
    assert_eq!(body["json_ld"]["@type"], "Event");

    // Update through the slug route.
    let resp = srv.patch(Some("admin"), "/events/by-slug/slug-party", &json!({"title": "Renamed"})).await;
    let updated = resp.expect(200);
    assert_eq!(updated["id"], id(&event));
    assert_eq!(updated["title"], "Renamed");
    assert_eq!(updated["slug"], "slug-party");
    assert_eq!(updated["description"], "<p>d</p>");
    for method in [Method::POST, Method::PUT] {
        let resp = srv
            .req(method.clone(), "/events/by-slug/slug-party")
            .user("admin")
            .json(&json!({"cost": "5"}))
            .send()
            .await;
        assert_eq!(resp.expect(200)["cost"], "$5", "{method}");
    }

    // An unknown slug is an invalid parameter.
    let resp = srv.get("/events/by-slug/no-such-event").await;
    assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("slug").is_some());

    let deleted = srv.delete(Some("admin"), "/events/by-slug/slug-party").await;
    assert_eq!(deleted.expect(200)["status"], "trash");
    assert_eq!(deleted.json["id"], id(&event));
}

#[tokio::test]
async fn update_by_slug_with_a_body_slug_renames() {
    let srv = start().await;
    let event = srv.event("Slug Party", 4, json!({})).await;
    // The path slug finds the event; the body slug renames it (Part A 32).
    let resp = srv.patch(Some("admin"), "/events/by-slug/slug-party", &json!({"slug": "new-slug"})).await;
    assert_eq!(resp.expect(200)["slug"], "new-slug");
    assert_eq!(srv.get("/events/by-slug/new-slug").await.expect(200)["id"], id(&event));
    srv.get("/events/by-slug/slug-party").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn delete_by_unknown_slug_is_invalid_and_update_is_not_found() {
    let srv = start().await;
    // DELETE (like GET) validates the slug: 400 whoever asks.
    let resp = srv.req(Method::DELETE, "/events/by-slug/no-such-event").user("admin").send().await;
    assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("slug").is_some());
    srv.delete(None, "/events/by-slug/no-such-event").await.expect_error(400, "rest_invalid_param");
    // Updates answer as the real plugin does: the event is not found (no ID resolved).
    for method in [Method::POST, Method::PUT, Method::PATCH] {
        let resp = srv
            .req(method.clone(), "/events/by-slug/no-such-event")
            .user("admin")
            .json(&json!({"title": "x"}))
            .send()
            .await;
        let err = resp.expect_error(404, "rest-event-not-found");
        assert_eq!(err["message"], "Event with ID 0 does not exist.", "{method}");
    }
}

#[tokio::test]
async fn read_errors_by_id() {
    let srv = start().await;
    let resp = srv.get("/events/999999").await;
    let err = resp.expect_error(404, "rest-event-not-found");
    assert_eq!(err["message"], "Event with ID 999999 does not exist.");
    let err = srv.get("/events/0").await;
    assert_eq!(err.expect_error(404, "rest-event-not-found")["message"], "Event with ID 0 does not exist.");
    for not_event in [1, 2, 3, 4, 5] {
        let resp = srv.get(&format!("/events/{not_event}")).await;
        let err = resp.expect_error(400, "rest-invalid-event-id");
        assert_eq!(err["message"], "The specified ID is not a valid event.");
    }
    let venue = srv.venue("Not an event", json!({})).await;
    srv.get(&format!("/events/{}", id(&venue))).await.expect_error(400, "rest-invalid-event-id");
    srv.get("/events/abc").await.expect_error(404, "rest_no_route");
}

#[tokio::test]
async fn delete_trashes_then_410_and_read_is_403() {
    let srv = start().await;
    let event = srv.event("Doomed", 4, json!({})).await;
    let path = format!("/events/{}", id(&event));
    let resp = srv.delete(Some("admin"), &path).await;
    let trashed = resp.expect(200);
    assert_eq!(trashed["id"], id(&event));
    assert_eq!(trashed["status"], "trash");
    assert_eq!(trashed["title"], "Doomed");
    assert!(trashed.get("json_ld").is_none());

    let again = srv.delete(Some("admin"), &path).await;
    assert_eq!(again.expect_error(410, "event-is-in-trash")["message"], "The event is already trashed");
    for user in [None, Some("admin")] {
        let read = srv.req(Method::GET, &path).maybe_user(user).send().await;
        assert_eq!(read.expect_error(403, "event-no-longer-available")["message"], "This event is no longer available");
    }
    // Trashed events never appear in lists, not even for editors asking for the trash.
    assert_eq!(srv.get_as("admin", "/events").await.json["total"], 0);

    let resp = srv.delete(Some("admin"), "/events/999999").await;
    assert_eq!(resp.expect_error(404, "rest-event-not-found")["message"], "Event with ID 999999 does not exist.");
    srv.delete(Some("admin"), "/events/2").await.expect_error(400, "rest-invalid-event-id");
}

#[tokio::test]
async fn update_with_status_moves_out_of_the_trash() {
    let srv = start().await;
    let event = srv.event("Back", 4, json!({})).await;
    let path = format!("/events/{}", id(&event));
    srv.delete(Some("admin"), &path).await.expect(200);
    // An update without status leaves it in the trash (Part A 28).
    let resp = srv.patch(Some("admin"), &path, &json!({"title": "Still trashed"})).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    let resp = srv.patch(Some("admin"), &path, &json!({"status": "publish"})).await;
    assert_eq!(resp.expect(200)["status"], "publish");
    assert_eq!(srv.get(&path).await.expect(200)["title"], "Still trashed");
}

#[tokio::test]
async fn inline_venue_and_organizers_on_create() {
    let srv = start().await;
    let existing = srv.organizer("Known Org", json!({})).await;
    let event = srv
        .event(
            "Inline",
            6,
            json!({
                "venue": {"venue": "Inline Hall", "address": "1 Main St", "city": "Springfield", "country": "US", "state": "IL", "zip": "62701"},
                "organizer": [{"organizer": "New Org", "email": "new@example.com"}, id(&existing), {"id": id(&existing)}],
            }),
        )
        .await;
    let venue = &event["venue"];
    assert_eq!(venue["venue"], "Inline Hall");
    assert_eq!(venue["address"], "1 Main St");
    assert_eq!(venue["city"], "Springfield");
    assert_eq!(venue["stateprovince"], "IL", "derived from state for a US address");
    let venue_id = id(venue);
    assert_eq!(srv.get(&format!("/venues/{venue_id}")).await.expect(200)["venue"], "Inline Hall");
    let organizers = event["organizer"].as_array().unwrap();
    assert_eq!(organizers.len(), 2, "duplicates collapse: {}", event["organizer"]);
    assert_eq!(organizers[0]["organizer"], "New Org");
    assert_eq!(organizers[0]["email"], "new@example.com");
    assert_eq!(organizers[1]["id"], id(&existing));

    // The same inline venue again finds the existing one (duplicate detection).
    let second = srv.event("Inline 2", 7, json!({"venue": {"venue": "Inline Hall", "city": "Springfield"}})).await;
    assert_eq!(id(&second["venue"]), venue_id);
    assert_eq!(srv.get("/venues").await.json["total"], 1);

    // A venue given as `{id}` and organizers as a comma-separated string of IDs.
    let other = srv.organizer("Second Org", json!({})).await;
    let third = srv
        .event(
            "Inline 3",
            8,
            json!({"venue": {"id": venue_id}, "organizer": format!("{},{}", id(&existing), id(&other))}),
        )
        .await;
    assert_eq!(id(&third["venue"]), venue_id);
    assert_eq!(ids(&third["organizer"]), sorted(vec![id(&existing), id(&other)]));
}

#[tokio::test]
async fn inline_data_that_cannot_become_an_item_is_could_not_create() {
    let srv = start().await;
    // Data that fails the venue's own checks is an invalid `venue` (see tests/fidelity.rs);
    // data that passes them but cannot be written, here as another author by a contributor,
    // is could-not-create.
    let body = json!({"title": "Foreign venue", "start_date": at(1, 0), "end_date": at(1, 1),
                      "venue": {"venue": "Hall", "author": 1}});
    let resp = srv.post(Some("contributor"), "/events", &body).await;
    let err = resp.expect_error(400, "could-not-create-venue");
    assert_eq!(err["message"], "The venue could not be created from the provided data");

    let body = json!({"title": "Foreign organizer", "start_date": at(1, 0), "end_date": at(1, 1),
                      "organizer": [{"organizer": "Org", "author": 2}]});
    let resp = srv.post(Some("author"), "/events", &body).await;
    let err = resp.expect_error(400, "could-not-create-organizer");
    assert_eq!(err["message"], "The organizer could not be created from the provided data");
    assert_eq!(srv.get_as("admin", "/events").await.json["total"], 0);
    assert_eq!(srv.get_as("admin", "/venues").await.json["total"], 0);
}

#[tokio::test]
async fn unlinking_venue_organizers_and_terms_on_update() {
    let srv = start().await;
    let venue = srv.venue("V", json!({})).await;
    let org = srv.organizer("O", json!({})).await;
    let event = srv
        .event(
            "Linked",
            5,
            json!({"venue": id(&venue), "organizer": id(&org), "categories": "Alpha, Beta", "tags": ["T1"]}),
        )
        .await;
    assert_eq!(event["venue"]["id"], id(&venue));
    assert_eq!(event["organizer"][0]["id"], id(&org));
    let mut names: Vec<&str> =
        event["categories"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["Alpha", "Beta"], "a comma-separated string of names makes two terms");
    let path = format!("/events/{}", id(&event));

    let resp = srv.patch(Some("admin"), &path, &json!({"organizer": []})).await;
    assert_eq!(resp.expect(200)["organizer"], json!([]));
    assert_eq!(resp.json["venue"]["id"], id(&venue));
    let resp = srv.patch(Some("admin"), &path, &json!({"venue": ""})).await;
    assert_eq!(resp.expect(200)["venue"], json!([]));
    let resp = srv.patch(Some("admin"), &path, &json!({"venue": id(&venue)})).await;
    assert_eq!(resp.expect(200)["venue"]["id"], id(&venue));
    let resp = srv.patch(Some("admin"), &path, &json!({"venue": 0})).await;
    assert_eq!(resp.expect(200)["venue"], json!([]));
    let resp = srv.patch(Some("admin"), &path, &json!({"categories": ""})).await;
    assert_eq!(resp.expect(200)["categories"], json!([]));
    assert_eq!(resp.json["tags"][0]["name"], "T1");
    let resp = srv.patch(Some("admin"), &path, &json!({"tags": []})).await;
    assert_eq!(resp.expect(200)["tags"], json!([]));
    let resp = srv.patch(Some("admin"), &path, &json!({"image": ""})).await;
    assert_eq!(resp.expect(200)["image"], false);
}

#[tokio::test]
async fn categories_and_tags_by_id_and_by_name() {
    let srv = start().await;
    let jazz = srv.category("Jazz", json!({})).await;
    let tag = srv.tag("Free", json!({})).await;
    let event = srv
        .event("Terms", 5, json!({"categories": [id(&jazz), "Blues", 999999], "tags": format!("{},Kids", id(&tag))}))
        .await;
    let cats = &event["categories"];
    assert_eq!(cats.as_array().unwrap().len(), 2, "unknown numeric IDs are ignored: {cats}");
    let blues = cats.as_array().unwrap().iter().find(|c| c["name"] == "Blues").expect("Blues created");
    assert_eq!(blues["slug"], "blues");
    assert_eq!(blues["taxonomy"], "tribe_events_cat");
    assert!(cats.as_array().unwrap().iter().any(|c| c["id"] == id(&jazz)));
    let tag_names: Vec<&str> = event["tags"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(tag_names.contains(&"Free") && tag_names.contains(&"Kids"), "{tag_names:?}");
    // The new term exists on its own route, with the event counted.
    let blues_id = blues["id"].as_u64().unwrap();
    let term = srv.get(&format!("/categories/{blues_id}")).await;
    assert_eq!(term.expect(200)["name"], "Blues");
    assert_eq!(term.json["count"], 1);
    // A name that exists is reused, not duplicated.
    let again = srv.event("Terms 2", 6, json!({"categories": ["Blues"]})).await;
    assert_eq!(again["categories"][0]["id"], blues_id);
}

#[tokio::test]
async fn image_by_url_and_by_id() {
    let srv = start().await;
    let event = srv.event("Poster", 5, json!({"image": "https://cdn.example.com/pics/poster.jpg"})).await;
    assert_eq!(event["image"]["url"], "https://cdn.example.com/pics/poster.jpg");
    assert_eq!(event["image"]["extension"], "jpg");
    let image_id = event["image"]["id"].as_u64().unwrap();
    assert!(image_id > 5);
    // The URL became an image record that can be used by ID.
    let other = srv.event("Poster 2", 6, json!({"image": image_id.to_string()})).await;
    assert_eq!(other["image"]["url"], "https://cdn.example.com/pics/poster.jpg");
    let sample = srv.event("Sample", 6, json!({"image": "5"})).await;
    assert_eq!(sample["image"]["id"], 5);
    assert!(sample["image"]["width"].as_u64().is_some_and(|w| w > 0), "{}", sample["image"]);
}

#[tokio::test]
async fn cost_is_parsed_into_details() {
    let srv = start().await;
    let event = srv.event("Cost", 5, json!({"cost": "20$"})).await;
    assert_eq!(event["cost"], "20$");
    assert_eq!(event["cost_details"]["currency_symbol"], "$");
    assert_eq!(event["cost_details"]["currency_position"], "postfix");
    assert_eq!(event["cost_details"]["values"], json!(["20"]));
    let event = srv.event("Cost 2", 5, json!({"cost": ["0$", "20$", "30$"]})).await;
    assert_eq!(event["cost"], "Free – 30$");
    assert_eq!(event["cost_details"]["values"], json!(["0", "20", "30"]));
}

#[tokio::test]
async fn overriding_generated_fields_is_ignored() {
    let srv = start().await;
    let event = srv
        .event(
            "Generated",
            5,
            json!({"url": "https://evil.example.com/", "rest_url": "x", "utc_start_date": "2000-01-01 00:00:00",
                   "timezone_abbr": "XYZ", "id": 424242}),
        )
        .await;
    assert_ne!(event["id"], 424242);
    assert_eq!(event["url"], format!("{}/event/generated/", srv.site()));
    assert_eq!(event["utc_start_date"], at(5, 0));
    assert_eq!(event["timezone_abbr"], "UTC");
}

// ----- password-protected events -----

#[tokio::test]
async fn password_protected_event_needs_the_password() {
    let srv = start().await;
    let venue = srv.venue("Secret Hall", json!({"city": "Paris"})).await;
    let event = srv
        .event(
            "Secret Party",
            5,
            json!({"password": "open-sesame", "description": "hidden text", "venue": id(&venue), "categories": ["Hush"],
                   "featured": true, "cost": "10"}),
        )
        .await;
    assert!(!event.to_string().contains("open-sesame"), "a password is never shown: {event}");
    let path = format!("/events/{}", id(&event));
    for user in [None, Some("subscriber"), Some("admin")] {
        let resp = srv.req(Method::GET, &path).maybe_user(user).send().await;
        let err = resp.expect_error(403, "event-password-protected");
        assert_eq!(err["message"], "The requested event is not accessible without a password");
    }
    let wrong = srv.get(&format!("{path}?password=nope")).await;
    wrong.expect_error(403, "event-password-protected");
    let right = srv.get(&format!("{path}?password=open-sesame")).await;
    let body = right.expect(200);
    assert_eq!(body["description"], "<p>hidden text</p>");
    assert_eq!(body["venue"]["venue"], "Secret Hall");
    assert!(!right.text.contains("open-sesame"));
    // context=edit with the right to edit also shows it; without the right it does not.
    let edit = srv.get_as("admin", &format!("{path}?context=edit")).await;
    assert_eq!(edit.expect(200)["title"], "Secret Party");
    srv.get_as("subscriber", &format!("{path}?context=edit")).await.expect_error(403, "event-password-protected");

    // In lists the event is present with its protected fields blanked.
    let list = srv.get("/events").await;
    let item = &list.expect(200)["events"][0];
    assert_eq!(item["id"], id(&event));
    assert_eq!(item["title"], "Secret Party");
    assert_eq!(item["description"], "");
    assert_eq!(item["excerpt"], "");
    assert_eq!(item["image"], false);
    assert_eq!(item["all_day"], Value::Null);
    assert_eq!(item["cost"], "");
    assert_eq!(
        item["cost_details"],
        json!({"currency_symbol": "", "currency_position": "", "currency_code": "", "values": []})
    );
    assert_eq!(item["website"], "");
    for flag in ["show_map", "show_map_link", "hide_from_listings", "sticky", "featured"] {
        assert_eq!(item[flag], Value::Null, "{flag}");
    }
    for list_field in ["categories", "tags", "venue", "organizer", "custom_fields"] {
        assert_eq!(item[list_field], json!([]), "{list_field}");
    }
    assert!(!list.text.contains("open-sesame"));
    // The right password in the list query reveals it.
    let revealed = srv.get("/events?password=open-sesame").await;
    assert_eq!(revealed.expect(200)["events"][0]["venue"]["id"], id(&venue));

    // Removing the password on update makes it public.
    srv.patch(Some("admin"), &path, &json!({"password": ""})).await.expect(200);
    assert_eq!(srv.get(&path).await.expect(200)["description"], "<p>hidden text</p>");
}

#[tokio::test]
async fn delete_of_a_protected_event_by_id() {
    let srv = start().await;
    let event = srv.event("Locked", 5, json!({"password": "pw"})).await;
    let resp = srv.delete(Some("admin"), &format!("/events/{}?password=pw", id(&event))).await;
    assert_eq!(resp.expect(200)["status"], "trash");
}

/// The value without `json_ld` members (single reads carry them, write answers do not).
fn without_json_ld(mut value: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("json_ld");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}
