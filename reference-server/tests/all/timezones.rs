//! Dates and time zones: DST, fixed offsets, ISO 8601 offsets, all-day events, end before start,
//! time zone changes on update, the site zone, and the date forms people type.

use crate::common;

use common::*;
use reference_server::Config;
use serde_json::{json, Value};

async fn make(srv: &Srv, body: Value) -> Value {
    srv.create("admin", "events", body).await
}

#[tokio::test]
async fn new_york_across_the_dst_change() {
    let srv = start().await;
    let before = make(
        &srv,
        json!({"title": "Before DST", "timezone": "America/New_York", "start_date": "2027-03-13 19:00:00", "end_date": "2027-03-13 21:00:00"}),
    )
    .await;
    assert_eq!(before["start_date"], "2027-03-13 19:00:00");
    assert_eq!(before["utc_start_date"], "2027-03-14 00:00:00");
    assert_eq!(before["utc_end_date"], "2027-03-14 02:00:00");
    assert_eq!(before["timezone"], "America/New_York");
    assert_eq!(before["timezone_abbr"], "EST");
    assert_eq!(
        before["utc_start_date_details"],
        json!({"year": "2027", "month": "03", "day": "14", "hour": "00", "minutes": "00", "seconds": "00"})
    );
    let after = make(
        &srv,
        json!({"title": "After DST", "timezone": "America/New_York", "start_date": "2027-03-15 19:00:00", "end_date": "2027-03-15 21:00:00"}),
    )
    .await;
    assert_eq!(after["start_date"], "2027-03-15 19:00:00");
    assert_eq!(after["utc_start_date"], "2027-03-15 23:00:00");
    assert_eq!(after["timezone_abbr"], "EDT");
    // The JSON-LD of a single read carries the offset.
    let read = srv.get(&format!("/events/{}", id(&after))).await;
    assert_eq!(read.expect(200)["json_ld"]["startDate"], "2027-03-15T19:00:00-04:00");
}

#[tokio::test]
async fn fixed_offsets() {
    let srv = start().await;
    let event = make(
        &srv,
        json!({"title": "Offset", "timezone": "UTC+5", "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-10 12:00:00"}),
    )
    .await;
    assert_eq!(event["timezone"], "UTC+5");
    assert_eq!(event["timezone_abbr"], "UTC+5");
    assert_eq!(event["utc_start_date"], "2027-01-10 05:00:00");
    assert_eq!(event["utc_end_date"], "2027-01-10 07:00:00");
    let west = make(
        &srv,
        json!({"title": "West", "timezone": "UTC-3:30", "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-10 12:00:00"}),
    )
    .await;
    assert_eq!(west["utc_start_date"], "2027-01-10 13:30:00");
    for bad in ["UTC+99", "Mars/Olympus", "EST5EDT-nope"] {
        let resp = srv
            .post(
                Some("admin"),
                "/events",
                &json!({"title": "x", "timezone": bad, "start_date": "2027-01-10", "end_date": "2027-01-10"}),
            )
            .await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("timezone").is_some(), "{bad}");
    }
}

#[tokio::test]
async fn iso_offsets_are_converted_into_the_event_zone() {
    let srv = start().await;
    let event = make(
        &srv,
        json!({"title": "ISO", "timezone": "Europe/Paris", "start_date": "2027-01-10T10:00:00Z", "end_date": "2027-01-10T10:00:00-05:00"}),
    )
    .await;
    assert_eq!(event["start_date"], "2027-01-10 11:00:00");
    assert_eq!(event["utc_start_date"], "2027-01-10 10:00:00");
    assert_eq!(event["end_date"], "2027-01-10 16:00:00");
    assert_eq!(event["utc_end_date"], "2027-01-10 15:00:00");
    assert_eq!(event["timezone_abbr"], "CET");
    let plus = make(
        &srv,
        json!({"title": "ISO plus", "timezone": "Asia/Tokyo", "start_date": "2027-06-01T08:00:00+02:00", "end_date": "2027-06-01T09:00:00+02:00"}),
    )
    .await;
    assert_eq!(plus["utc_start_date"], "2027-06-01 06:00:00");
    assert_eq!(plus["start_date"], "2027-06-01 15:00:00");
    assert_eq!(plus["timezone_abbr"], "JST");
}

#[tokio::test]
async fn all_day_events_cover_whole_days() {
    let srv = start().await;
    let event = make(
        &srv,
        json!({"title": "All day", "all_day": true, "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-12 15:00:00"}),
    )
    .await;
    assert_eq!(event["all_day"], true);
    assert_eq!(event["start_date"], "2027-01-10 00:00:00");
    assert_eq!(event["end_date"], "2027-01-12 23:59:59");
    assert_eq!(event["utc_end_date"], "2027-01-12 23:59:59");
    let ny = make(
        &srv,
        json!({"title": "All day NY", "all_day": "true", "timezone": "America/New_York", "start_date": "2027-01-10", "end_date": "2027-01-10"}),
    )
    .await;
    assert_eq!(ny["start_date"], "2027-01-10 00:00:00");
    assert_eq!(ny["end_date"], "2027-01-10 23:59:59");
    assert_eq!(ny["utc_start_date"], "2027-01-10 05:00:00");
    assert_eq!(ny["utc_end_date"], "2027-01-11 04:59:59");
    // Turning all_day on by update widens the stored times.
    let timed = srv.event("Timed", 5, json!({})).await;
    let resp = srv.patch(Some("admin"), &format!("/events/{}", id(&timed)), &json!({"all_day": true})).await;
    let body = resp.expect(200);
    assert_eq!(body["start_date"], format!("{} 00:00:00", day(5)));
    assert_eq!(body["end_date"], format!("{} 23:59:59", day(5)));
}

#[tokio::test]
async fn end_before_start_becomes_start() {
    let srv = start().await;
    let event = make(
        &srv,
        json!({"title": "Backwards", "timezone": "Europe/Berlin", "start_date": "2027-05-05 18:00:00", "end_date": "2027-05-05 09:00:00"}),
    )
    .await;
    assert_eq!(event["end_date"], "2027-05-05 18:00:00");
    assert_eq!(event["end_date"], event["start_date"]);
    assert_eq!(event["utc_end_date"], event["utc_start_date"]);
    assert_eq!(event["utc_start_date"], "2027-05-05 16:00:00");
    // Also when an update moves the start past the end.
    let resp = srv
        .patch(Some("admin"), &format!("/events/{}", id(&event)), &json!({"start_date": "2027-05-06 10:00:00"}))
        .await;
    let body = resp.expect(200);
    assert_eq!(body["end_date"], "2027-05-06 10:00:00");
    assert_eq!(body["utc_end_date"], body["utc_start_date"]);
}

#[tokio::test]
async fn timezone_change_on_update_keeps_wall_times() {
    let srv = start().await;
    let event =
        make(&srv, json!({"title": "Moving", "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-10 12:00:00"}))
            .await;
    assert_eq!(event["timezone"], "UTC");
    assert_eq!(event["utc_start_date"], "2027-01-10 10:00:00");
    let path = format!("/events/{}", id(&event));
    let resp = srv.patch(Some("admin"), &path, &json!({"timezone": "America/New_York"})).await;
    let body = resp.expect(200);
    assert_eq!(body["timezone"], "America/New_York");
    assert_eq!(body["start_date"], "2027-01-10 10:00:00");
    assert_eq!(body["end_date"], "2027-01-10 12:00:00");
    assert_eq!(body["utc_start_date"], "2027-01-10 15:00:00");
    assert_eq!(body["utc_end_date"], "2027-01-10 17:00:00");
    assert_eq!(body["timezone_abbr"], "EST");
    let resp = srv.patch(Some("admin"), &path, &json!({"timezone": "Asia/Kolkata"})).await;
    let body = resp.expect(200);
    assert_eq!(body["start_date"], "2027-01-10 10:00:00");
    assert_eq!(body["utc_start_date"], "2027-01-10 04:30:00");
    assert_eq!(body["timezone_abbr"], "IST");
    // New dates in the same update are read in the new zone.
    let resp = srv
        .patch(
            Some("admin"),
            &path,
            &json!({"timezone": "Europe/Paris", "start_date": "2027-07-01 20:00", "end_date": "2027-07-01 22:00"}),
        )
        .await;
    let body = resp.expect(200);
    assert_eq!(body["utc_start_date"], "2027-07-01 18:00:00");
    assert_eq!(body["timezone_abbr"], "CEST");
    // The list finds it by its UTC instant.
    let list = srv.get("/events?start_date=2027-07-01&end_date=2027-07-01").await;
    assert_eq!(ids(&list.expect(200)["events"]), [id(&event)]);
}

#[tokio::test]
async fn the_site_zone_is_the_default() {
    let srv = start_with(Config { timezone: "America/New_York".into(), ..config() }).await;
    let event =
        make(&srv, json!({"title": "Local", "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-10 11:00:00"}))
            .await;
    assert_eq!(event["timezone"], "America/New_York");
    assert_eq!(event["timezone_abbr"], "EST");
    assert_eq!(event["utc_start_date"], "2027-01-10 15:00:00");
    // "Today" is the site's day: at 10:00 UTC it is 05:00 in New York on the same date, so an
    // event at 01:00 local today is listed and one yesterday evening local is not.
    make(&srv, json!({"title": "Early", "start_date": "2026-11-22 01:00:00", "end_date": "2026-11-22 02:00:00"})).await;
    make(&srv, json!({"title": "Last night", "start_date": "2026-11-21 22:00:00", "end_date": "2026-11-21 23:00:00"}))
        .await;
    let list = srv.get("/events").await;
    let titles: Vec<&str> =
        list.expect(200)["events"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Early", "Local"]);
}

#[tokio::test]
async fn date_forms_people_type() {
    let srv = start().await;
    let cases = [
        ("2027-01-10", "2027-01-10 00:00:00"),
        ("2027-01-10 16:30", "2027-01-10 16:30:00"),
        ("2027-01-10T16:30:15", "2027-01-10 16:30:15"),
        ("tomorrow 9am", "2026-11-23 09:00:00"),
        ("tomorrow", "2026-11-23 00:00:00"),
        ("2018-01-01 4pm", "2018-01-01 16:00:00"),
        ("next wednesday 4pm", "2026-11-25 16:00:00"),
        ("1800000000", "2027-01-15 08:00:00"),
        ("December 25, 2026", "2026-12-25 00:00:00"),
    ];
    for (input, expected) in cases {
        let event = make(&srv, json!({"title": input, "start_date": input, "end_date": input})).await;
        assert_eq!(event["start_date"], expected, "{input}");
    }
    let plus = make(&srv, json!({"title": "plus", "start_date": "+5 weeks", "end_date": "+5 weeks"})).await;
    assert_eq!(&plus["start_date"].as_str().unwrap()[..10], day(35));
    let now = make(&srv, json!({"title": "now", "start_date": "now", "end_date": "now"})).await;
    assert_eq!(&now["start_date"].as_str().unwrap()[..13], "2026-11-22 10");
    // Publication dates as well.
    let published = make(
        &srv,
        json!({"title": "dated", "start_date": "2027-01-10", "end_date": "2027-01-10", "date": "2026-11-01 12:00:00", "date_utc": "2026-11-01 12:00:00"}),
    )
    .await;
    assert_eq!(published["date"], "2026-11-01 12:00:00");
    assert_eq!(published["date_utc"], "2026-11-01 12:00:00");
}

#[tokio::test]
async fn a_future_publication_date_schedules_the_event() {
    let srv = start().await;
    let event = make(
        &srv,
        json!({"title": "Scheduled", "status": "publish", "date": "2026-12-24 08:00:00", "start_date": "2027-01-10", "end_date": "2027-01-10"}),
    )
    .await;
    assert_eq!(event["status"], "future");
    srv.get(&format!("/events/{}", id(&event))).await.expect_error(403, "event-not-accessible");
}
