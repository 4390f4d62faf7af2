//! A client's whole session, end to end: build a small calendar, browse it with every kind of
//! filter, change it by ID and by slug, and take it apart again.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn a_client_builds_browses_changes_and_deletes_a_calendar() {
    let srv = start().await;
    let admin = Some("admin");

    // The building blocks.
    let venue = srv
        .post(
            admin,
            "/venues",
            &json!({"venue": "Harbour Stage", "address": "Quay 4", "city": "Hamburg", "country": "Germany"}),
        )
        .await;
    let venue = venue.expect(201).clone();
    let organizer = srv
        .post(admin, "/organizers", &json!({"organizer": "Nordlicht GmbH", "email": "info@nordlicht.example"}))
        .await;
    let organizer = organizer.expect(201).clone();
    let category = srv.post(admin, "/categories", &json!({"name": "Concerts"})).await;
    let category = category.expect(201).clone();
    let tag = srv.post(admin, "/tags", &json!({"name": "Open Air"})).await;
    let tag = tag.expect(201).clone();

    // An event linking them by ID.
    let first = srv
        .post(
            admin,
            "/events",
            &json!({
                "title": "Harbour Concert",
                "description": "Music by the water",
                "start_date": at(10, 8),
                "end_date": at(10, 11),
                "venue": id(&venue),
                "organizer": [id(&organizer)],
                "categories": [id(&category)],
                "tags": [id(&tag)],
                "featured": true,
                "cost": "25",
            }),
        )
        .await;
    let first = first.expect(201).clone();
    assert_eq!(first["venue"]["venue"], "Harbour Stage");
    assert_eq!(first["organizer"][0]["organizer"], "Nordlicht GmbH");
    assert_eq!(first["categories"][0]["slug"], "concerts");
    assert_eq!(first["tags"][0]["slug"], "open-air");

    // Another one with its venue and organizer given inline.
    let second = srv
        .post(
            admin,
            "/events",
            &json!({
                "title": "Market Day",
                "start_date": at(20, 0),
                "end_date": at(20, 6),
                "venue": {"venue": "Old Market", "city": "Lübeck"},
                "organizer": [{"organizer": "Market Guild", "phone": "0451 123"}],
            }),
        )
        .await;
    let second = second.expect(201).clone();
    let inline_venue = id(&second["venue"]);
    let inline_organizer = id(&second["organizer"][0]);
    assert_eq!(srv.get(&format!("/venues/{inline_venue}")).await.expect(200)["city"], "Lübeck");
    assert_eq!(srv.get(&format!("/organizers/{inline_organizer}")).await.expect(200)["phone"], "0451 123");

    // Browse with each filter.
    let both = sorted(vec![id(&first), id(&second)]);
    assert_eq!(srv.list_ids(None, "/events", "events").await, both);
    let srv = &srv;
    let by = |query: String| async move { srv.list_ids(None, &format!("/events?{query}"), "events").await };
    assert_eq!(by(format!("categories={}", id(&category))).await, [id(&first)]);
    assert_eq!(by("categories=concerts".into()).await, [id(&first)]);
    assert_eq!(by(format!("tags={}", id(&tag))).await, [id(&first)]);
    assert_eq!(by(format!("venue={inline_venue}")).await, [id(&second)]);
    assert_eq!(by(format!("organizer={}", id(&organizer))).await, [id(&first)]);
    assert_eq!(by("featured=true".into()).await, [id(&first)]);
    assert_eq!(by("featured=false".into()).await, [id(&second)]);
    assert_eq!(by("search=water".into()).await, [id(&first)]);
    assert_eq!(by(format!("start_date={}", day(15))).await, [id(&second)]);
    assert_eq!(by(format!("end_date={}", day(15))).await, [id(&first)]);
    assert_eq!(by(format!("starts_after={}", day(10))).await, [id(&second)]);
    assert_eq!(by(format!("starts_before={}", day(15))).await, [id(&first)]);
    assert_eq!(by(format!("ends_after={}", day(15))).await, [id(&second)]);
    assert_eq!(by(format!("ends_before={}", day(15))).await, [id(&first)]);
    assert_eq!(by(format!("include={}", id(&second))).await, [id(&second)]);
    assert_eq!(by("status=publish".into()).await, both);
    let page = srv.get("/events?per_page=1").await;
    assert_eq!(page.expect(200)["total_pages"], 2);
    let next = page.json["next_rest_url"].as_str().unwrap().to_string();
    let page2 = srv.raw(reqwest::Method::GET, &next).send().await;
    assert_eq!(ids(&page2.expect(200)["events"]), [id(&second)], "following next_rest_url");
    assert_eq!(srv.list_ids(None, &format!("/venues?event={}", id(&first)), "venues").await, [id(&venue)]);
    assert_eq!(srv.list_ids(None, "/venues?has_events=true", "venues").await, sorted(vec![id(&venue), inline_venue]));
    assert_eq!(
        srv.list_ids(None, "/organizers?only_with_upcoming=true", "organizers").await,
        sorted(vec![id(&organizer), inline_organizer])
    );
    assert_eq!(srv.list_ids(None, &format!("/categories?event={}", id(&first)), "categories").await, [id(&category)]);
    assert_eq!(srv.list_ids(None, "/tags", "tags").await, [id(&tag)]);

    // Change them: by ID, then by slug.
    let resp = srv
        .put(
            admin,
            &format!("/events/{}", id(&first)),
            &json!({"title": "Harbour Concert (moved)", "start_date": at(11, 8), "end_date": at(11, 11)}),
        )
        .await;
    let moved = resp.expect(200);
    assert_eq!(moved["title"], "Harbour Concert (moved)");
    assert_eq!(moved["start_date"], at(11, 8));
    assert_eq!(moved["venue"]["id"], id(&venue), "links survive an update");
    assert_eq!(moved["featured"], true);
    let slug = second["slug"].as_str().unwrap().to_string();
    assert_eq!(slug, "market-day");
    let resp =
        srv.patch(admin, &format!("/events/by-slug/{slug}"), &json!({"cost": "Free", "venue": id(&venue)})).await;
    let changed = resp.expect(200);
    assert_eq!(changed["id"], id(&second));
    assert_eq!(changed["cost"], "Free");
    assert_eq!(changed["venue"]["id"], id(&venue));
    assert_eq!(srv.list_ids(None, &format!("/events?venue={}", id(&venue)), "events").await, both);
    let read = srv.get(&format!("/events/by-slug/{slug}")).await;
    assert_eq!(read.expect(200)["cost"], "Free");

    // Delete, read after delete, delete again.
    let resp = srv.delete(admin, &format!("/events/{}", id(&first))).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    srv.get(&format!("/events/{}", id(&first))).await.expect_error(403, "event-no-longer-available");
    srv.delete(admin, &format!("/events/{}", id(&first))).await.expect_error(410, "event-is-in-trash");
    assert_eq!(srv.list_ids(None, "/events", "events").await, [id(&second)]);
    let resp = srv.delete(admin, &format!("/events/by-slug/{slug}")).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    srv.get(&format!("/events/{}", id(&second))).await.expect_error(403, "event-no-longer-available");
    srv.delete(admin, &format!("/events/{}", id(&second))).await.expect_error(410, "event-is-in-trash");
    let empty = srv.get("/events").await;
    assert_eq!(empty.expect(200)["total"], 0);
    assert_eq!(empty.header("x-tec-total"), Some("0"));

    // And the building blocks.
    assert_eq!(srv.delete(admin, &format!("/venues/{}", id(&venue))).await.expect(200)["status"], "trash");
    srv.delete(admin, &format!("/venues/{}", id(&venue))).await.expect_error(410, "venue-is-in-trash");
    assert_eq!(srv.delete(admin, &format!("/organizers/{}", id(&organizer))).await.expect(200)["status"], "trash");
    srv.delete(admin, &format!("/organizers/{}", id(&organizer))).await.expect_error(410, "organizer-is-in-trash");
    assert_eq!(srv.delete(admin, &format!("/categories/{}", id(&category))).await.expect(200)["name"], "Concerts");
    srv.get(&format!("/categories/{}", id(&category))).await.expect_error(400, "rest_invalid_param");
    assert_eq!(srv.delete(admin, &format!("/tags/{}", id(&tag))).await.expect(200)["name"], "Open Air");
    assert_eq!(srv.list_ids(None, "/venues", "venues").await, [inline_venue]);
    assert_eq!(srv.list_ids(None, "/organizers", "organizers").await, [inline_organizer]);
}
