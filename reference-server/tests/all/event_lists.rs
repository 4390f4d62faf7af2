//! `GET /events`: every list parameter with an effect, its default and its invalid values;
//! pages, totals, links and headers.

use crate::common;

use common::*;
use reference_server::{Config, Features};
use serde_json::{json, Value};

/// The query pairs of a URL, decoded.
fn query_of(url: &str) -> Vec<(String, String)> {
    let query = url.split_once('?').map_or("", |(_, query)| query);
    form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

/// The part of a URL before the query.
fn base_of(url: &str) -> &str {
    url.split_once('?').map_or(url, |(base, _)| base)
}

async fn titles(srv: &Srv, user: Option<&str>, query: &str) -> Vec<String> {
    let resp = srv.req(reqwest::Method::GET, &format!("/events{query}")).maybe_user(user).send().await;
    let body = resp.expect(200);
    let mut titles: Vec<String> =
        body["events"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap().to_string()).collect();
    titles.sort();
    titles
}

fn names(list: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    names.sort();
    names
}

#[tokio::test]
async fn empty_list() {
    let srv = start().await;
    let resp = srv.get("/events").await;
    let body = resp.expect(200);
    assert_eq!(body["events"], json!([]));
    assert_eq!(body["total"], 0);
    assert_eq!(body["total_pages"], 0);
    assert!(body.get("next_rest_url").is_none());
    assert!(body.get("previous_rest_url").is_none());
    assert_eq!(body["rest_url"], format!("{}/events/", srv.api()));
    assert_eq!(resp.header("x-tec-total"), Some("0"));
    assert_eq!(resp.header("x-tec-totalpages"), Some("0"));
    assert_eq!(keys(body), ["events", "rest_url", "total", "total_pages"]);
}

#[tokio::test]
async fn pages_totals_links_and_headers() {
    let srv = start().await;
    for n in 0..12 {
        srv.event(&format!("Event {n:02}"), 1 + n, json!({})).await;
    }
    let first = srv.get("/events").await;
    let body = first.expect(200);
    assert_eq!(body["events"].as_array().unwrap().len(), 10, "per_page defaults to 10");
    assert_eq!(body["total"], 12);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(first.header("x-tec-total"), Some("12"));
    assert_eq!(first.header("x-tec-totalpages"), Some("2"));
    assert_eq!(body["rest_url"], format!("{}/events/", srv.api()));
    assert_eq!(body["next_rest_url"], format!("{}/events/?page=2", srv.api()));
    assert!(body.get("previous_rest_url").is_none());
    assert_eq!(keys(body), ["events", "rest_url", "next_rest_url", "total", "total_pages"]);
    // Ordered by start date.
    let starts: Vec<String> =
        body["events"].as_array().unwrap().iter().map(|e| e["start_date"].as_str().unwrap().to_string()).collect();
    let mut sorted_starts = starts.clone();
    sorted_starts.sort();
    assert_eq!(starts, sorted_starts);
    assert_eq!(body["events"][0]["title"], "Event 00");

    let second = srv.get("/events?page=2").await;
    let body = second.expect(200);
    assert_eq!(body["events"].as_array().unwrap().len(), 2);
    assert_eq!(body["events"][1]["title"], "Event 11");
    assert_eq!(body["rest_url"], format!("{}/events/?page=2", srv.api()));
    assert_eq!(body["previous_rest_url"], format!("{}/events/", srv.api()));
    assert!(body.get("next_rest_url").is_none());
    assert_eq!(body["total"], 12);

    let third = srv.get("/events?page=3").await;
    let err = third.expect_error(404, "event-archive-page-not-found");
    assert_eq!(err["message"], "The requested event archive page does not exist");

    let small = srv.get("/events?per_page=5&page=2").await;
    let body = small.expect(200);
    assert_eq!(body["events"].as_array().unwrap().len(), 5);
    assert_eq!(body["total_pages"], 3);
    assert_eq!(small.header("x-tec-totalpages"), Some("3"));
    assert_eq!(body["events"][0]["title"], "Event 05");
    assert_eq!(base_of(body["rest_url"].as_str().unwrap()), format!("{}/events/", srv.api()));
    let mut query = query_of(body["rest_url"].as_str().unwrap());
    query.sort();
    assert_eq!(query, [("page".to_string(), "2".to_string()), ("per_page".to_string(), "5".to_string())]);
    let mut next = query_of(body["next_rest_url"].as_str().unwrap());
    next.sort();
    assert_eq!(next, [("page".to_string(), "3".to_string()), ("per_page".to_string(), "5".to_string())]);
    assert_eq!(query_of(body["previous_rest_url"].as_str().unwrap()), [("per_page".to_string(), "5".to_string())]);
}

#[tokio::test]
async fn rest_url_carries_the_request_parameters_url_encoded() {
    let srv = start().await;
    srv.event("foo bar & more", 2, json!({})).await;
    let resp = srv.get("/events?search=foo%20bar&per_page=3").await;
    let body = resp.expect(200);
    assert_eq!(body["total"], 1);
    let url = body["rest_url"].as_str().unwrap();
    assert!(!url.contains(' '), "no raw spaces: {url}");
    let mut query = query_of(url);
    query.sort();
    assert_eq!(query, [("per_page".to_string(), "3".to_string()), ("search".to_string(), "foo bar".to_string())]);
}

#[tokio::test]
async fn per_page_is_clamped_to_50() {
    let srv = start().await;
    for n in 0..55 {
        srv.event(&format!("E{n}"), 1 + n / 3, json!({})).await;
    }
    let body = srv.get("/events?per_page=100").await;
    let body = body.expect(200);
    assert_eq!(body["events"].as_array().unwrap().len(), 50);
    assert_eq!(body["total"], 55);
    assert_eq!(body["total_pages"], 2);
    let page2 = srv.get("/events?per_page=100&page=2").await;
    assert_eq!(page2.expect(200)["events"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn invalid_page_and_per_page() {
    let srv = start().await;
    srv.event("One", 2, json!({})).await;
    for (name, value) in [
        ("page", "0"),
        ("page", "-1"),
        ("page", "foo"),
        ("page", "foo%20bar"),
        ("page", "1.5"),
        ("per_page", "abc"),
        ("per_page", "0"),
        ("per_page", "-1"),
        ("per_page", "2.5"),
    ] {
        let resp = srv.get(&format!("/events?{name}={value}")).await;
        let err = resp.expect_error(400, "rest_invalid_param");
        assert_eq!(err["message"], format!("Invalid parameter(s): {name}"), "{name}={value}");
        assert!(err["data"]["params"].get(name).is_some(), "{name}={value}: {}", resp.text);
    }
    // Numeric strings that are whole numbers are fine.
    assert_eq!(srv.get("/events?page=1&per_page=3.0").await.expect(200)["total"], 1);
}

#[tokio::test]
async fn default_date_window_is_today_to_two_years() {
    let srv = start().await;
    srv.event("Yesterday", -1, json!({})).await;
    // Earlier today (already over at 10:00) still counts: the window starts at 00:00.
    srv.create("admin", "events", json!({"title": "Early today", "start_date": at(0, -9), "end_date": at(0, -8)}))
        .await;
    srv.event("Tomorrow", 1, json!({})).await;
    srv.event("In 700 days", 700, json!({})).await;
    srv.event("In 800 days", 800, json!({})).await;
    assert_eq!(titles(&srv, None, "").await, names(&["Early today", "Tomorrow", "In 700 days"]));
}

#[tokio::test]
async fn start_and_end_date_cover_whole_days_unless_strict() {
    let srv = start().await;
    let d = "2027-01-15";
    let make = |title: &str, start: &str, end: &str| json!({"title": title, "start_date": format!("{d} {start}"), "end_date": format!("{d} {end}")});
    srv.create("admin", "events", make("Afternoon", "16:00:00", "16:30:00")).await;
    srv.create("admin", "events", make("Evening", "20:00:00", "20:30:00")).await;
    srv.event("Other day", 100, json!({})).await;

    let query = format!("?start_date={d}%2015:00:00&end_date={d}%2018:00:00");
    assert_eq!(titles(&srv, None, &query).await, names(&["Afternoon", "Evening"]));
    assert_eq!(titles(&srv, None, &format!("{query}&strict_dates=false")).await, names(&["Afternoon", "Evening"]));
    assert_eq!(titles(&srv, None, &format!("{query}&strict_dates=true")).await, names(&["Afternoon"]));
    assert_eq!(titles(&srv, None, &format!("{query}&strict_dates=1")).await, names(&["Afternoon"]));
    // Only a start date: everything from that day on (up to the default end).
    assert_eq!(titles(&srv, None, &format!("?start_date={d}")).await, names(&["Afternoon", "Evening", "Other day"]));
    // Dates may be written as a person would.
    assert_eq!(
        titles(&srv, None, "?start_date=2027-01-15&end_date=January%2015,%202027").await,
        names(&["Afternoon", "Evening"])
    );
    // An empty strict_dates is invalid (it must be a non-empty string).
    srv.get("/events?strict_dates=").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn end_date_excludes_events_ending_later() {
    let srv = start().await;
    srv.create(
        "admin",
        "events",
        json!({"title": "Long", "start_date": "2027-01-10 10:00", "end_date": "2027-01-20 10:00"}),
    )
    .await;
    srv.create(
        "admin",
        "events",
        json!({"title": "Short", "start_date": "2027-01-10 10:00", "end_date": "2027-01-10 12:00"}),
    )
    .await;
    assert_eq!(titles(&srv, None, "?start_date=2027-01-10&end_date=2027-01-12").await, names(&["Short"]));
}

#[tokio::test]
async fn unparseable_dates_are_invalid() {
    let srv = start().await;
    for name in ["start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"] {
        let resp = srv.get(&format!("/events?{name}=before%20my%20birthday")).await;
        let err = resp.expect_error(400, "rest_invalid_param");
        assert!(err["data"]["params"].get(name).is_some(), "{name}: {}", resp.text);
    }
}

#[tokio::test]
async fn starts_and_ends_filters_drop_the_default_window() {
    let srv = start().await;
    srv.event("Past", -10, json!({})).await;
    srv.event("Soon", 5, json!({})).await;
    srv.event("Later", 20, json!({})).await;
    srv.event("Far", 1000, json!({})).await;
    let d0 = day(0);
    let d5 = day(5);
    let d10 = day(10);
    // starts_after uses the end of its day.
    assert_eq!(titles(&srv, None, &format!("?starts_after={d0}")).await, names(&["Soon", "Later", "Far"]));
    assert_eq!(titles(&srv, None, &format!("?starts_after={d5}")).await, names(&["Later", "Far"]));
    assert_eq!(titles(&srv, None, &format!("?starts_before={d10}")).await, names(&["Past", "Soon"]));
    assert_eq!(titles(&srv, None, &format!("?ends_before={d5}")).await, names(&["Past", "Soon"]));
    assert_eq!(titles(&srv, None, &format!("?ends_after={d5}")).await, names(&["Later", "Far"]));
    assert_eq!(titles(&srv, None, &format!("?starts_after={d0}&starts_before={d10}")).await, names(&["Soon"]));
    // An explicit start_date still applies alongside them.
    assert_eq!(titles(&srv, None, &format!("?starts_before={d10}&start_date={d0}")).await, names(&["Soon"]));
    // Strict: exact times.
    let soon_start = encode(&at(5, 0));
    assert_eq!(
        titles(&srv, None, &format!("?starts_after={soon_start}&strict_dates=true")).await,
        names(&["Later", "Far"])
    );
    let just_before = encode(&at(5, -1));
    assert_eq!(
        titles(&srv, None, &format!("?starts_after={just_before}&starts_before={d10}&strict_dates=true")).await,
        names(&["Soon"])
    );
}

#[tokio::test]
async fn search_matches_title_and_description() {
    let srv = start().await;
    srv.event("foo", 1, json!({})).await;
    srv.event("foo bar", 2, json!({})).await;
    srv.event("bar", 3, json!({})).await;
    srv.event("Quiet", 4, json!({"description": "a FOO inside"})).await;
    assert_eq!(titles(&srv, None, "?search=foo").await, names(&["foo", "foo bar", "Quiet"]));
    assert_eq!(titles(&srv, None, "?search=bar").await, names(&["foo bar", "bar"]));
    assert_eq!(titles(&srv, None, "?search=nothing-like-this").await, Vec::<String>::new());
    srv.get("/events?search=").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn categories_filter_by_slug_or_id_with_children() {
    let srv = start().await;
    let music = srv.category("Music", json!({})).await;
    let jazz = srv.category("Jazz", json!({"parent": id(&music)})).await;
    let sport = srv.category("Sport", json!({})).await;
    let empty = srv.category("Empty", json!({})).await;
    srv.event("Concert", 1, json!({"categories": [id(&music)]})).await;
    srv.event("Jazz night", 2, json!({"categories": [id(&jazz)]})).await;
    srv.event("Match", 3, json!({"categories": [id(&sport)]})).await;
    srv.event("Nothing", 4, json!({})).await;

    assert_eq!(titles(&srv, None, "?categories=music").await, names(&["Concert", "Jazz night"]), "children count");
    assert_eq!(titles(&srv, None, &format!("?categories={}", id(&jazz))).await, names(&["Jazz night"]));
    assert_eq!(titles(&srv, None, "?categories=jazz,sport").await, names(&["Jazz night", "Match"]));
    assert_eq!(
        titles(&srv, None, &format!("?categories[]={}&categories[]=sport", id(&jazz))).await,
        names(&["Jazz night", "Match"])
    );
    let none = srv.get(&format!("/events?categories={}", id(&empty))).await;
    assert_eq!(none.expect(200)["events"], json!([]));
    assert_eq!(none.json["total"], 0);
    let resp = srv.get("/events?categories=no-such-category").await;
    assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("categories").is_some());
    srv.get("/events?categories=music,no-such-category").await.expect_error(400, "rest_invalid_param");
    srv.get("/events?categories=999999").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn tags_filter() {
    let srv = start().await;
    let a = srv.tag("Alpha", json!({})).await;
    srv.tag("Beta", json!({})).await;
    srv.event("With alpha", 1, json!({"tags": [id(&a)]})).await;
    srv.event("With beta", 2, json!({"tags": ["Beta"]})).await;
    srv.event("Untagged", 3, json!({})).await;
    assert_eq!(titles(&srv, None, "?tags=alpha").await, names(&["With alpha"]));
    assert_eq!(titles(&srv, None, &format!("?tags={},beta", id(&a))).await, names(&["With alpha", "With beta"]));
    srv.get("/events?tags=gamma").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn venue_and_organizer_filters() {
    let srv = start().await;
    let v1 = srv.venue("V1", json!({})).await;
    let v2 = srv.venue("V2", json!({})).await;
    let o1 = srv.organizer("O1", json!({})).await;
    let o2 = srv.organizer("O2", json!({})).await;
    srv.event("At V1", 1, json!({"venue": id(&v1), "organizer": [id(&o1), id(&o2)]})).await;
    srv.event("At V2", 2, json!({"venue": id(&v2), "organizer": [id(&o2)]})).await;
    srv.event("Nowhere", 3, json!({})).await;
    assert_eq!(titles(&srv, None, &format!("?venue={}", id(&v1))).await, names(&["At V1"]));
    assert_eq!(titles(&srv, None, &format!("?venue={},{}", id(&v1), id(&v2))).await, names(&["At V1", "At V2"]));
    assert_eq!(titles(&srv, None, &format!("?organizer={}", id(&o1))).await, names(&["At V1"]));
    assert_eq!(titles(&srv, None, &format!("?organizer={}", id(&o2))).await, names(&["At V1", "At V2"]));
    for query in ["venue=999999", "organizer=999999", &format!("venue={}", id(&o1)), "venue=abc"] {
        let resp = srv.get(&format!("/events?{query}")).await;
        resp.expect_error(400, "rest_invalid_param");
    }
}

#[tokio::test]
async fn featured_filter() {
    let srv = start().await;
    srv.event("Star", 1, json!({"featured": true})).await;
    srv.event("Regular", 2, json!({})).await;
    assert_eq!(titles(&srv, None, "?featured=true").await, names(&["Star"]));
    assert_eq!(titles(&srv, None, "?featured=1").await, names(&["Star"]));
    assert_eq!(titles(&srv, None, "?featured=false").await, names(&["Regular"]));
    let resp = srv.get("/events?featured=yes").await;
    let err = resp.expect_error(400, "rest_invalid_param");
    assert_eq!(err["data"]["params"]["featured"], "featured is not of type boolean.");
}

#[tokio::test]
async fn status_filter_depends_on_the_user() {
    let srv = start().await;
    srv.event("Published", 1, json!({})).await;
    srv.event("Drafted", 2, json!({"status": "draft"})).await;
    srv.event("Pending", 3, json!({"status": "pending"})).await;
    srv.event("Private", 4, json!({"status": "private"})).await;

    assert_eq!(titles(&srv, None, "").await, names(&["Published"]));
    assert_eq!(titles(&srv, None, "?status=publish").await, names(&["Published"]));
    for bad in ["draft", "publish,draft", "publish,%20draft", "any"] {
        let resp = srv.get(&format!("/events?status={bad}")).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("status").is_some(), "{bad}");
        srv.get_as("subscriber", &format!("/events?status={bad}")).await.expect_error(400, "rest_invalid_param");
    }
    assert_eq!(titles(&srv, Some("editor"), "").await, names(&["Published", "Drafted", "Pending", "Private"]));
    assert_eq!(titles(&srv, Some("editor"), "?status=draft").await, names(&["Drafted"]));
    assert_eq!(titles(&srv, Some("editor"), "?status=publish,%20draft").await, names(&["Published", "Drafted"]));
    assert_eq!(
        titles(&srv, Some("editor"), "?status[]=pending&status[]=private").await,
        names(&["Pending", "Private"])
    );
    for bad in ["foo", "any", "publish,foo"] {
        srv.get_as("editor", &format!("/events?status={bad}")).await.expect_error(400, "rest_invalid_param");
    }
}

#[tokio::test]
async fn include_lists_exactly_those_events_ignoring_dates() {
    let srv = start().await;
    let past = srv.event("Past", -30, json!({})).await;
    let soon = srv.event("Soon", 2, json!({})).await;
    let far = srv.event("Far", 1500, json!({})).await;
    srv.event("Not included", 3, json!({})).await;
    let resp = srv.get(&format!("/events?include={},{},{}", id(&far), id(&soon), id(&past))).await;
    let body = resp.expect(200);
    assert_eq!(body["total"], 3);
    let order: Vec<u64> = body["events"].as_array().unwrap().iter().map(id).collect();
    assert_eq!(order, [id(&past), id(&soon), id(&far)], "ascending start order");
    let resp = srv.get(&format!("/events?include[]={}&start_date={}", id(&past), day(1))).await;
    assert_eq!(ids(&resp.expect(200)["events"]), [id(&past)], "date filters are ignored");
    for bad in ["foo-bar,23,89", "0", "-3", "1.5", ""] {
        let resp = srv.get(&format!("/events?include={bad}")).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("include").is_some(), "{bad}");
    }
}

#[tokio::test]
async fn post_parent_filter() {
    let srv = start().await;
    let parent = srv.event("Parent", 2, json!({})).await;
    let lonely = srv.event("Lonely", 2, json!({})).await;
    let first = srv.event("Child 1", 3, json!({"post_parent": id(&parent)})).await;
    let second = srv.event("Child 2", 4, json!({"post_parent": id(&parent)})).await;
    let resp = srv.get(&format!("/events?post_parent={}", id(&parent))).await;
    let body = resp.expect(200);
    assert_eq!(ids(&body["events"]), sorted(vec![id(&first), id(&second)]), "the parent itself is not included");
    assert_eq!(body["total"], 2);
    let resp = srv.get(&format!("/events?post_parent={}", id(&lonely))).await;
    assert_eq!(resp.expect(200)["events"], json!([]));
    assert_eq!(resp.json["total"], 0);
    for bad in ["foo-bar", "999999", "1", ""] {
        let resp = srv.get(&format!("/events?post_parent={bad}")).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("post_parent").is_some(), "{bad}");
    }
}

#[tokio::test]
async fn hidden_events_are_left_out_of_lists_only() {
    let srv = start().await;
    let hidden = srv.event("Hidden", 2, json!({"hide_from_listings": true})).await;
    srv.event("Shown", 3, json!({})).await;
    assert_eq!(titles(&srv, None, "").await, names(&["Shown"]));
    assert_eq!(titles(&srv, Some("admin"), "").await, names(&["Shown"]));
    let read = srv.get(&format!("/events/{}", id(&hidden))).await;
    assert_eq!(read.expect(200)["hide_from_listings"], true);
    assert_eq!(srv.get(&format!("/events/by-slug/{}", hidden["slug"].as_str().unwrap())).await.status, 200);
}

async fn geo_calendar(srv: &Srv) {
    let paris = srv.venue("Paris Hall", json!({"geo_lat": 48.8566, "geo_lng": 2.3522})).await;
    let versailles = srv.venue("Versailles", json!({"geo_lat": "48.8049", "geo_lng": "2.1204"})).await;
    let tokyo = srv.venue("Tokyo Dome", json!({"geo_lat": 35.7056, "geo_lng": 139.7519})).await;
    let plain = srv.venue("No coordinates", json!({})).await;
    srv.event("In Paris", 1, json!({"venue": id(&paris)})).await;
    srv.event("In Versailles", 2, json!({"venue": id(&versailles)})).await;
    srv.event("In Tokyo", 3, json!({"venue": id(&tokyo)})).await;
    srv.event("Somewhere", 4, json!({"venue": id(&plain)})).await;
    srv.event("Online", 5, json!({})).await;
}

#[tokio::test]
async fn geolocation_filters() {
    let srv = start().await;
    geo_calendar(&srv).await;
    let venue = srv.get("/venues?search=Paris").await;
    assert_eq!(venue.expect(200)["venues"][0]["geo_lat"], 48.8566);
    assert_eq!(venue.json["venues"][0]["geo_lng"], 2.3522);
    assert_eq!(titles(&srv, None, "?geoloc=true").await, names(&["In Paris", "In Versailles", "In Tokyo"]));
    assert_eq!(titles(&srv, None, "?geoloc=false").await, names(&["Somewhere", "Online"]));
    assert_eq!(titles(&srv, None, "?geoloc_lat=48.85&geoloc_lng=2.35").await, names(&["In Paris", "In Versailles"]));
    assert_eq!(titles(&srv, None, "?geoloc_lat=35.7&geoloc_lng=139.75").await, names(&["In Tokyo"]));
    assert_eq!(titles(&srv, None, "?geoloc_lat=0&geoloc_lng=0").await, Vec::<String>::new());
    srv.get("/events?geoloc=maybe").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn ticketed_filter() {
    let srv = start().await;
    let with = srv.event("With tickets", 1, json!({"ticketed": true})).await;
    srv.event("Without tickets", 2, json!({})).await;
    assert_eq!(srv.get(&format!("/events/{}", id(&with))).await.status, 200);
    assert_eq!(titles(&srv, None, "?ticketed=true").await, names(&["With tickets"]));
    assert_eq!(titles(&srv, None, "?ticketed=false").await, names(&["Without tickets"]));
    srv.get("/events?ticketed=perhaps").await.expect_error(400, "rest_invalid_param");
}

#[tokio::test]
async fn without_the_extensions_geoloc_has_no_effect_and_ticketed_is_refused() {
    let srv =
        start_with(Config { features: Features { geoloc: false, tickets: false, ..Features::default() }, ..config() })
            .await;
    geo_calendar(&srv).await;
    let all = names(&["In Paris", "In Versailles", "In Tokyo", "Somewhere", "Online"]);
    assert_eq!(titles(&srv, None, "").await, all);
    assert_eq!(titles(&srv, None, "?geoloc=true").await, all);
    assert_eq!(titles(&srv, None, "?geoloc=false").await, all);
    assert_eq!(titles(&srv, None, "?geoloc_lat=35.7&geoloc_lng=139.75").await, all);
    let venue = srv.get("/venues?search=Paris").await;
    assert!(venue.expect(200)["venues"][0].get("geo_lat").is_none(), "{}", venue.text);

    let resp = srv.get("/events?ticketed=true").await;
    let err = resp.expect_error(400, "rest_invalid_param");
    assert_eq!(err["message"], "Invalid parameter(s): ticketed");
    assert_eq!(err["data"]["details"]["ticketed"]["code"], "event-tickets-not-active");
    assert_eq!(err["data"]["details"]["ticketed"]["message"], "Event Tickets plugin is not activated.");
    assert_eq!(err["data"]["params"]["ticketed"], "Event Tickets plugin is not activated.");
    // A falsy value is fine.
    assert_eq!(titles(&srv, None, "?ticketed=false").await, all);
}

/// `--without series,event-password` (the names of the one feature list the runner shares):
/// the write fields `post_parent` and `password` are ignored, as a site without them does.
#[tokio::test]
async fn also_without_series_and_event_password_their_write_fields_are_ignored() {
    let without = Features::default().without("series,event-password").expect("both can be switched off");
    for (features, has) in [(Features::default(), true), (without, false)] {
        let srv = start_with(Config { features, ..config() }).await;
        let parent = srv.event("Parent", 2, json!({})).await;
        let child = srv.event("Child", 3, json!({"post_parent": id(&parent), "password": "secret"})).await;
        let children = titles(&srv, None, &format!("?post_parent={}", id(&parent))).await;
        assert_eq!(children, if has { names(&["Child"]) } else { Vec::new() }, "series: {has}");
        let read = srv.get(&format!("/events/{}", id(&child))).await;
        assert_eq!(read.status, if has { 403 } else { 200 }, "event-password: {has}: {}", read.text);
    }
    for name in ["languages", "fresh-store", "large-store"] {
        assert!(Features::default().without(name).unwrap_err().contains("always has"), "{name}");
    }
}

#[tokio::test]
async fn unknown_parameters_are_ignored() {
    let srv = start().await;
    srv.event("Only", 1, json!({})).await;
    let resp = srv.get("/events?colour=blue&force=true").await;
    assert_eq!(resp.expect(200)["total"], 1);
}

#[tokio::test]
async fn filters_combine() {
    let srv = start().await;
    let cat = srv.category("Cat", json!({})).await;
    srv.event("A match", 1, json!({"categories": [id(&cat)], "featured": true})).await;
    srv.event("A miss", 2, json!({"categories": [id(&cat)]})).await;
    srv.event("B match", 3, json!({"featured": true})).await;
    assert_eq!(titles(&srv, None, "?categories=cat&featured=true").await, names(&["A match"]));
    assert_eq!(titles(&srv, None, "?search=match&featured=true").await, names(&["A match", "B match"]));
    let resp = srv.get("/events?categories=cat&per_page=1").await;
    let body: &Value = resp.expect(200);
    assert_eq!(body["total"], 2);
    assert_eq!(body["total_pages"], 2);
    let mut next = query_of(body["next_rest_url"].as_str().unwrap());
    next.sort();
    assert_eq!(
        next,
        [
            ("categories".to_string(), "cat".to_string()),
            ("page".to_string(), "2".to_string()),
            ("per_page".to_string(), "1".to_string())
        ]
    );
}

/// The events list counts its total from per-day counts when no filter looks at the events
/// themselves; a search that every title matches takes the event-by-event walk. Both must agree
/// for every kind of event the counts treat apart: short and multi-day, hidden, drafts, other
/// languages and zones far from UTC, near both edges of the window.
#[tokio::test]
async fn counted_totals_agree_with_walked_totals() {
    let srv = start().await;
    let zones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tokyo", "America/New_York"];
    let mut made = 0;
    for (index, days) in [-2i64, -1, 0, 1, 2, 3, 5, 40, 200, 725, 727, 728, 729, 730, 731, 733].into_iter().enumerate()
    {
        for (shape, zone) in zones.iter().enumerate() {
            let hours = [0i64, 1, 13, 23, 47, 60][(index + shape) % 6];
            let mut extra = json!({"timezone": zone, "end_date": at(days, hours + 1)});
            match (index + shape) % 7 {
                0 => extra["hide_from_listings"] = json!(true),
                1 => extra["status"] = json!("draft"),
                2 => extra["multilingual_language"] = json!("fr"),
                3 => extra["end_date"] = json!(at(days + 4, 0)),
                _ => {}
            }
            srv.event(&format!("Counted event {index} {shape}"), days, extra).await;
            made += 1;
        }
    }
    assert_eq!(made, 80);
    let queries = [
        String::new(),
        format!("start_date={}&end_date={}", day(1), day(729)),
        format!("start_date={}&end_date={}&strict_dates=true", at(0, 13), at(728, 5)),
        format!("start_date={}", day(-3)),
    ];
    for query in &queries {
        for user in [None, Some("admin"), Some("subscriber")] {
            let counted = srv.req(reqwest::Method::GET, &format!("/events?{query}")).maybe_user(user).send().await;
            let walked =
                srv.req(reqwest::Method::GET, &format!("/events?{query}&search=event")).maybe_user(user).send().await;
            assert_eq!(counted.expect(200)["total"], walked.expect(200)["total"], "query {query:?} as {user:?}");
            assert_eq!(counted.json["events"].as_array().map(Vec::len), walked.json["events"].as_array().map(Vec::len));
        }
    }
}

/// A status named twice is the same filter as named once: the total counts each event once
/// (the counted total summed a day's count once per name).
#[tokio::test]
async fn a_status_named_twice_counts_once() {
    let srv = start_with(Config { seed_events: 300, ..config() }).await;
    for (path, twice) in [
        ("/events?status=publish", "/events?status=publish,publish"),
        ("/events?status=publish,draft", "/events?status=draft,publish,draft"),
        ("/events?status=publish&featured=true", "/events?status=publish,publish&featured=true"),
        ("/venues?status=publish", "/venues?status=publish,publish"),
        ("/organizers?status=publish", "/organizers?status=publish,publish"),
    ] {
        let once = srv.get_as("admin", path).await;
        let total = once.header("x-tec-total").unwrap().to_string();
        let body = once.expect(200).clone();
        assert!(total.parse::<u64>().unwrap() > 0, "{path}");
        let repeated = srv.get_as("admin", twice).await;
        assert_eq!(repeated.header("x-tec-total"), Some(total.as_str()), "{twice}");
        let collection = if path.starts_with("/events") { "events" } else { &path[1..path.find('?').unwrap()] };
        assert_eq!(repeated.expect(200)[collection], body[collection], "{twice}");
    }
    srv.server.shutdown().await;
}
