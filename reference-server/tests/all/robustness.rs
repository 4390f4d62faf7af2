//! No request makes the server fail: every odd input gets a JSON answer below 500, and the
//! server still answers normally afterwards.

use crate::common;

use reference_server::interface::{self, Arg};

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

/// Sends a request and checks the answer is a well-formed JSON answer below 500.
async fn survive(srv: &Srv, method: Method, path: &str, content_type: Option<&str>, body: Option<String>) -> Resp {
    let mut req = srv.req(method.clone(), path).user("admin");
    if let Some(body) = body {
        req = req.body(content_type.unwrap_or("application/json"), body);
    }
    let resp = req.send().await;
    assert!(resp.status < 500, "{method} {path}: {} {}", resp.status, resp.text);
    if method != Method::HEAD {
        assert!(serde_json::from_str::<Value>(&resp.text).is_ok(), "{method} {path}: not JSON: {}", resp.text);
        assert_json_content_type(&resp);
    }
    resp
}

async fn still_answers(srv: &Srv) {
    let resp = srv.get("/events").await;
    assert_eq!(resp.status, 200, "{}", resp.text);
    let created = srv.event("Still alive", 2, json!({})).await;
    assert_eq!(srv.get(&format!("/events/{}", id(&created))).await.status, 200);
}

#[tokio::test]
async fn odd_bodies() {
    let srv = start().await;
    let event = srv.event("Target", 3, json!({})).await;
    let single = format!("/events/{}", id(&event));
    let bodies = [
        "",
        "{",
        "}",
        "[]",
        "[1,2,3]",
        "\"a string\"",
        "42",
        "-1",
        "true",
        "null",
        "{\"title\":",
        "{\"title\": null}",
        "{\"title\": []}",
        "{\"title\": {}}",
        "{\"a\": {\"b\": {\"c\": {\"d\": [[[[[[]]]]]]}}}}",
        "\u{feff}{}",
        "{\"title\": \"\\ud800\"}",
        "99999999999999999999",
        "1e999",
        "[{\"venue\": 1}]",
    ];
    for path in ["/events", single.as_str(), "/venues", "/organizers", "/categories", "/tags", "/events/by-slug/target"]
    {
        for body in bodies {
            survive(&srv, Method::POST, path, Some("application/json"), Some(body.to_string())).await;
        }
        survive(
            &srv,
            Method::POST,
            path,
            Some("application/x-www-form-urlencoded"),
            Some("a[b][c]=1&a[]=2&&=&%zz=%".into()),
        )
        .await;
        survive(&srv, Method::POST, path, Some("multipart/form-data; boundary=x"), Some("--x\r\nbroken".into())).await;
        survive(&srv, Method::POST, path, Some("multipart/form-data"), Some("no boundary".into())).await;
        survive(&srv, Method::POST, path, Some("application/octet-stream"), Some("\u{0}\u{1}\u{2}".into())).await;
    }
    still_answers(&srv).await;
}

#[tokio::test]
async fn wrong_types_for_every_field() {
    let srv = start().await;
    let venue = srv.venue("V", json!({})).await;
    let event = srv.event("Target", 3, json!({"venue": id(&venue)})).await;
    let category = srv.category("C", json!({})).await;
    let values = [
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(99999999999999999999u128 as f64),
        json!(18446744073709551615u64),
        json!(-9223372036854775808i64),
        json!(""),
        json!(" "),
        json!("0"),
        json!("99999999999999999999"),
        json!("ünïcödé ✓ 日本語 🎉"),
        json!("a/b%2Fc%25%"),
        json!("<script>alert(1)</script>"),
        json!("x".repeat(5000)),
        json!([]),
        json!([null, "", 0, {}]),
        json!({}),
        json!({"id": "x", "venue": [], "organizer": {}}),
        json!([[["deep"]]]),
    ];
    // The write fields come from the interface table, so a new field is tried too.
    let names = |fields: &[Arg]| fields.iter().map(|field| field.name).collect::<Vec<&str>>();
    let mut event_fields = names(interface::EVENT_FIELDS);
    event_fields.push("multilingual_language");
    let venue_fields = names(interface::VENUE_FIELDS);
    let organizer_fields = names(interface::ORGANIZER_FIELDS);
    let term_fields = names(&interface::term_fields(interface::Resource::Categories));
    let targets: Vec<(String, String, &[&str])> = vec![
        ("/events".into(), format!("/events/{}", id(&event)), &event_fields[..]),
        ("/venues".into(), format!("/venues/{}", id(&venue)), &venue_fields[..]),
        ("/organizers".into(), "/organizers".into(), &organizer_fields[..]),
        ("/categories".into(), format!("/categories/{}", id(&category)), &term_fields[..]),
    ];
    for (create, update, fields) in &targets {
        for field in fields.iter() {
            for value in &values {
                let body = json!({ *field: value });
                survive(&srv, Method::POST, create, None, Some(body.to_string())).await;
                survive(&srv, Method::PATCH, update, None, Some(body.to_string())).await;
            }
        }
    }
    // The event's venue may have been changed, but the event still reads.
    assert!(srv.get_as("admin", &format!("/events/{}", id(&event))).await.status < 500);
    still_answers(&srv).await;
}

#[tokio::test]
async fn odd_query_parameters_on_lists() {
    let srv = start().await;
    srv.event("Listed", 3, json!({})).await;
    let params = [
        "page",
        "per_page",
        "start_date",
        "end_date",
        "starts_before",
        "starts_after",
        "ends_before",
        "ends_after",
        "strict_dates",
        "search",
        "categories",
        "tags",
        "venue",
        "organizer",
        "featured",
        "status",
        "geoloc",
        "geoloc_lat",
        "geoloc_lng",
        "include",
        "post_parent",
        "ticketed",
        "event",
        "has_events",
        "only_with_upcoming",
        "exclude",
        "order",
        "orderby",
        "hide_empty",
        "parent",
        "post",
        "slug",
        "password",
        "context",
        "_fields",
        "_method",
        "multilingual_language",
        "namespace",
        "rest_route",
    ];
    let values = [
        "",
        "0",
        "99999999999999999999",
        "%",
        "-1",
        "1e308",
        "%00%FF",
        "%25%2F",
        "a,b,,c",
        "ünï",
        "9999-12-31%2023:59:59",
        "+99999%20years",
        "1,2,3,-4",
    ];
    for collection in ["/events", "/venues", "/organizers", "/categories", "/tags", "", "/doc"] {
        // The index and /doc are large answers: a few values each are enough there.
        let values: &[&str] = if collection.is_empty() || collection == "/doc" { &values[..4] } else { &values };
        for name in params {
            for value in values {
                let path = format!("{collection}?{name}={value}");
                survive(&srv, Method::GET, &path, None, None).await;
            }
            survive(&srv, Method::GET, &format!("{collection}?{name}[]=1&{name}[x]=2&{name}[][]=3"), None, None).await;
        }
    }
    still_answers(&srv).await;
}

#[tokio::test]
async fn odd_paths_slugs_and_ids() {
    let srv = start().await;
    srv.event("Slugged", 3, json!({})).await;
    let paths = [
        "/events/99999999999999999999",
        "/events/18446744073709551616",
        "/events/00000000000000000006",
        "/venues/99999999999999999999",
        "/organizers/99999999999999999999",
        "/categories/99999999999999999999",
        "/tags/18446744073709551615",
        "/events/by-slug/a%2Fb",
        "/events/by-slug/%25",
        "/events/by-slug/%",
        "/events/by-slug/%zz",
        "/events/by-slug/%00",
        "/events/by-slug/%FF%FE",
        "/events/by-slug/ünïcödé",
        "/events/by-slug/%E2%9C%93",
        "/venues/by-slug/..",
        "/organizers/by-slug/.%2E",
        "/events/by-slug/a b",
        "/events/..%2F..%2Fetc%2Fpasswd",
        "/events/%2e%2e",
    ];
    for path in paths {
        for method in
            [Method::GET, Method::HEAD, Method::POST, Method::PUT, Method::PATCH, Method::DELETE, Method::OPTIONS]
        {
            let body = if method == Method::GET || method == Method::HEAD { None } else { Some("{}".to_string()) };
            survive(&srv, method, path, Some("application/json"), body).await;
        }
    }
    let long_slug = format!("/events/by-slug/{}", "s".repeat(10_000));
    survive(&srv, Method::GET, &long_slug, None, None).await;
    still_answers(&srv).await;
}

#[tokio::test]
async fn long_queries_and_odd_methods() {
    let srv = start().await;
    let long_value = "x".repeat(60_000);
    survive(&srv, Method::GET, &format!("/events?search={long_value}"), None, None).await;
    let many: String = (0..2000).map(|n| format!("p{n}={n}&")).collect();
    survive(&srv, Method::GET, &format!("/events?{many}"), None, None).await;
    let list: String = (1..3000).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
    survive(&srv, Method::GET, &format!("/events?include={list}"), None, None).await;
    survive(&srv, Method::GET, &format!("/categories?include={list}"), None, None).await;
    for name in ["PURGE", "PROPFIND", "CONNECT-ISH", "BREW", "LINK"] {
        survive(&srv, Method::from_bytes(name.as_bytes()).unwrap(), "/events", None, None).await;
    }
    for override_to in ["TRACE", "HEAD", "OPTIONS", "get", "", "\u{7f}"] {
        let resp =
            srv.req(Method::POST, &format!("/events?_method={}", encode(override_to))).user("admin").send().await;
        assert!(resp.status < 500, "_method={override_to:?}: {}", resp.text);
        if let Ok(header) = reqwest::header::HeaderValue::from_str(override_to) {
            let resp = srv
                .req(Method::POST, "/events")
                .header("x-http-method-override", header.to_str().unwrap())
                .send()
                .await;
            assert!(resp.status < 500, "override {override_to:?}: {}", resp.text);
        }
    }
    // Odd authorization headers.
    for header in [
        "Basic",
        "Basic ",
        "Basic !!!",
        "Basic Og==",
        "Basic YWRtaW4=",
        "basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=",
        "Digest x",
    ] {
        let resp = srv.req(Method::GET, "/events").header("authorization", header).send().await;
        assert!(resp.status < 500, "{header}: {}", resp.text);
    }
    still_answers(&srv).await;
}

#[tokio::test]
async fn concurrent_requests() {
    let srv = start().await;
    let mut handles = Vec::new();
    for n in 0..40 {
        let client = srv.client.clone();
        let url = format!("{}/events", srv.api());
        handles.push(tokio::spawn(async move {
            let body =
                json!({"title": format!("Parallel {n}"), "start_date": at(2 + n % 5, 0), "end_date": at(2 + n % 5, 1)});
            let resp = client.post(&url).basic_auth("admin", Some("admin-password")).json(&body).send().await.unwrap();
            assert_eq!(resp.status().as_u16(), 201);
            let list = client.get(&url).send().await.unwrap();
            assert_eq!(list.status().as_u16(), 200);
        }));
    }
    for handle in handles {
        handle.await.unwrap();
    }
    assert_eq!(srv.get("/events?per_page=50").await.json["total"], 40);
}

#[tokio::test]
async fn extreme_dates_and_numbers() {
    let srv = start().await;
    for (start, end) in [
        ("0001-01-01 00:00:00", "9999-12-31 23:59:59"),
        ("9999-12-31 23:59:59", "9999-12-31 23:59:59"),
        ("0001-01-01", "0001-01-01"),
        ("99999999999", "99999999999"),
        ("-1", "0"),
        ("+10000 years", "+10000 years"),
        ("2027-02-30", "2027-13-01"),
        ("2027-03-14 02:30:00", "2027-11-07 01:30:00"),
    ] {
        for zone in ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "UTC+14", "UTC-12"] {
            let body =
                json!({"title": "Extreme", "start_date": start, "end_date": end, "timezone": zone, "all_day": true});
            survive(&srv, Method::POST, "/events", None, Some(body.to_string())).await;
        }
    }
    for query in [
        "start_date=0001-01-01&end_date=9999-12-31",
        "starts_after=9999-12-31",
        "ends_before=0001-01-01",
        "start_date=-99999999999",
    ] {
        survive(&srv, Method::GET, &format!("/events?{query}"), None, None).await;
        survive(&srv, Method::GET, &format!("/events?{query}&strict_dates=true"), None, None).await;
    }
    survive(&srv, Method::GET, "/events?page=99999999999999999999&per_page=50", None, None).await;
    survive(&srv, Method::GET, "/events?page=9223372036854775807", None, None).await;
    survive(&srv, Method::GET, "/venues?page=9223372036854775807&per_page=9223372036854775807", None, None).await;
    survive(&srv, Method::GET, "/tags?page=9223372036854775807&per_page=50", None, None).await;
    survive(&srv, Method::GET, "/events?geoloc_lat=1e308&geoloc_lng=-1e308", None, None).await;
    survive(&srv, Method::GET, "/events?geoloc_lat=91&geoloc_lng=181", None, None).await;
    still_answers(&srv).await;
}

/// Issue 9, C1: a description of a megabyte of `&` (each one six bytes once rendered) reads
/// back exactly, in the write's answer, a single read, a list and again from the cache, and
/// the server answers other requests meanwhile.
#[tokio::test]
async fn a_huge_description_reads_back_exactly() {
    let srv = start().await;
    let count = 1024 * 1024;
    let event = srv.event("Ampersands", 3, json!({"description": "&".repeat(count)})).await;
    let rendered = format!("<p>{}</p>", "&#038;".repeat(count));
    assert_eq!(event["description"].as_str().map(str::len), Some(rendered.len()));
    assert!(event["description"] == rendered.as_str());
    let single = format!("/events/{}", id(&event));
    for _ in 0..2 {
        let read = srv.get(&single).await;
        assert!(read.expect(200)["description"] == rendered.as_str());
        let ld = read.json["json_ld"]["description"].as_str().unwrap_or("");
        assert_eq!(ld, format!("&lt;p&gt;{}&lt;/p&gt;\\n", "&amp;".repeat(count)));
    }
    let list = srv.get("/events").await;
    assert!(list.expect(200)["events"][0]["description"] == rendered.as_str());
    still_answers(&srv).await;
}

/// Issue 21, H14: a large rich-text description is rendered once, not at every read: a second
/// single read and a list read render nothing again (counted, not timed).
#[tokio::test]
async fn h14_a_large_description_is_rendered_once() {
    let srv = start().await;
    for (title, description) in [("Paragraphs", "<p>x</p>".repeat(256 * 1024)), ("Ampersands", "&".repeat(1024 * 1024))]
    {
        let event = srv.event(title, 3, json!({"description": description})).await;
        let single = format!("/events/{}", id(&event));
        let first = srv.get(&single).await.expect(200)["description"].clone();
        let before = srv.server.renderings();
        let again = srv.get(&single).await.expect(200)["description"].clone();
        assert_eq!(again, first);
        srv.get("/events?per_page=1").await.expect(200);
        assert_eq!(srv.server.renderings(), before, "{title}: nothing rendered again");
    }
}
