//! The HTTP layer: the route table, unknown routes and methods, path tolerance, HEAD, OPTIONS,
//! method overrides, CORS, content types, body formats, the `rest_route` form, `_fields`, the
//! namespace index and `/doc`, and the body size limit.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const NO_ROUTE: &str = "No route was found matching the URL and request method.";

/// Every route × method of the interface answers with what the operation does.
#[tokio::test]
async fn every_route_and_method_answers() {
    let srv = start().await;
    let venue = srv.venue("Route venue", json!({})).await;
    let organizer = srv.organizer("Route organizer", json!({})).await;
    let category = srv.category("Route category", json!({})).await;
    let tag = srv.tag("Route tag", json!({})).await;
    let event = srv.event("Route event", 3, json!({})).await;
    let (e, v, o, c, t) = (id(&event), id(&venue), id(&organizer), id(&category), id(&tag));

    let index = srv.get("").await;
    assert_eq!(index.expect(200)["namespace"], "calendar/events/v1");
    assert_eq!(srv.get("/doc").await.expect(200)["openapi"], "3.0.0");
    for (path, key) in [("/events", "events"), ("/venues", "venues"), ("/organizers", "organizers")] {
        assert!(srv.get(path).await.expect(200)[key].is_array(), "{path}");
    }
    assert!(srv.get("/categories?hide_empty=0").await.expect(200)["categories"].is_array());
    assert!(srv.get("/tags?hide_empty=0").await.expect(200)["tags"].is_array());

    // Single reads, by ID and by slug.
    for path in [
        format!("/events/{e}"),
        "/events/by-slug/route-event".to_string(),
        format!("/venues/{v}"),
        "/venues/by-slug/route-venue".to_string(),
        format!("/organizers/{o}"),
        "/organizers/by-slug/route-organizer".to_string(),
        format!("/categories/{c}"),
        format!("/tags/{t}"),
    ] {
        assert_eq!(
            srv.get(&path).await.expect(200)["slug"].as_str().map(|s| s.starts_with("route")),
            Some(true),
            "{path}"
        );
    }

    // Updates with POST, PUT and PATCH.
    for method in [Method::POST, Method::PUT, Method::PATCH] {
        let cases = [
            (format!("/events/{e}"), json!({"description": method.as_str()}), "description"),
            ("/events/by-slug/route-event".to_string(), json!({"description": method.as_str()}), "description"),
            (format!("/venues/{v}"), json!({"city": method.as_str()}), "city"),
            ("/venues/by-slug/route-venue".to_string(), json!({"city": method.as_str()}), "city"),
            (format!("/organizers/{o}"), json!({"phone": method.as_str()}), "phone"),
            ("/organizers/by-slug/route-organizer".to_string(), json!({"phone": method.as_str()}), "phone"),
            (format!("/categories/{c}"), json!({"description": method.as_str()}), "description"),
            (format!("/tags/{t}"), json!({"description": method.as_str()}), "description"),
        ];
        for (path, body, field) in cases {
            let resp = srv.req(method.clone(), &path).user("admin").json(&body).send().await;
            let value = resp.expect(200)[field].as_str().unwrap_or("").to_string();
            assert!(value.contains(method.as_str()), "{method} {path}: {}", resp.text);
        }
    }

    // Deletes, by ID and by slug.
    assert_eq!(srv.delete(Some("admin"), "/events/by-slug/route-event").await.expect(200)["status"], "trash");
    assert_eq!(srv.delete(Some("admin"), "/venues/by-slug/route-venue").await.expect(200)["status"], "trash");
    assert_eq!(srv.delete(Some("admin"), "/organizers/by-slug/route-organizer").await.expect(200)["status"], "trash");
    let e2 = srv.event("Second", 3, json!({})).await;
    let v2 = srv.venue("Second venue", json!({})).await;
    let o2 = srv.organizer("Second organizer", json!({})).await;
    for path in [format!("/events/{}", id(&e2)), format!("/venues/{}", id(&v2)), format!("/organizers/{}", id(&o2))] {
        assert_eq!(srv.delete(Some("admin"), &path).await.expect(200)["status"], "trash", "{path}");
    }
    assert_eq!(srv.delete(Some("admin"), &format!("/categories/{c}")).await.expect(200)["id"], c);
    assert_eq!(srv.delete(Some("admin"), &format!("/tags/{t}")).await.expect(200)["id"], t);
}

#[tokio::test]
async fn unknown_routes_and_methods_are_rest_no_route() {
    let srv = start().await;
    srv.event("E", 3, json!({})).await;
    let cases: Vec<(Method, &str)> = vec![
        (Method::GET, "/nope"),
        (Method::GET, "/events/abc"),
        (Method::GET, "/events/-1"),
        (Method::GET, "/events/6/extra"),
        (Method::GET, "/events/by-slug/"),
        (Method::GET, "/categories/by-slug/anything"),
        (Method::GET, "/tags/by-slug/anything"),
        (Method::GET, "/venue"),
        (Method::PUT, "/events"),
        (Method::PATCH, "/events"),
        (Method::DELETE, "/events"),
        (Method::DELETE, "/venues"),
        (Method::POST, "/doc"),
        (Method::DELETE, ""),
        (Method::POST, ""),
        (Method::from_bytes(b"PURGE").unwrap(), "/events"),
        (Method::from_bytes(b"TRACE").unwrap(), "/events"),
    ];
    for (method, path) in cases {
        let resp = srv.req(method.clone(), path).user("admin").send().await;
        let err = resp.expect_error(404, "rest_no_route");
        assert_eq!(err["message"], NO_ROUTE, "{method} {path}");
    }
    // Outside the namespace, and other namespaces.
    for url in ["/wp-json/other/v1/events", "/wp-json/calendar/events/v2/events", "/nothing-here"] {
        let resp = srv.site_req(Method::GET, url).send().await;
        resp.expect_error(404, "rest_no_route");
    }
}

#[tokio::test]
async fn path_tolerance() {
    let srv = start().await;
    let event = srv.event("Tolerant", 3, json!({})).await;
    for path in ["/events/", "//events", "/Events", "/EVENTS/", "/events//"] {
        let resp = srv.get(path).await;
        assert_eq!(resp.expect(200)["total"], 1, "{path}");
    }
    let single = format!("/events/{}/", id(&event));
    assert_eq!(srv.get(&single).await.expect(200)["id"], id(&event));
    assert_eq!(srv.get("/Events/By-Slug/tolerant").await.expect(200)["id"], id(&event));
    let resp = srv.site_req(Method::GET, "//wp-json//calendar/events/v1//events").send().await;
    assert_eq!(resp.expect(200)["total"], 1);
    // The namespace index with and without a trailing slash.
    assert_eq!(srv.get("/").await.expect(200)["namespace"], "calendar/events/v1");
}

#[tokio::test]
async fn rest_route_query_form() {
    let srv = start().await;
    srv.event("Plain permalinks", 3, json!({})).await;
    for path in ["/?rest_route=/calendar/events/v1/events", "/index.php?rest_route=/calendar/events/v1/events"] {
        let resp = srv.site_req(Method::GET, path).send().await;
        assert_eq!(resp.expect(200)["total"], 1, "{path}");
    }
    let resp = srv.site_req(Method::GET, "/?rest_route=/calendar/events/v1/events&search=plain").send().await;
    assert_eq!(resp.expect(200)["events"][0]["title"], "Plain permalinks");
    let resp = srv
        .site_req(Method::POST, "/?rest_route=/calendar/events/v1/events")
        .user("admin")
        .json(&json!({"title": "Via rest_route", "start_date": at(2, 0), "end_date": at(2, 1)}))
        .send()
        .await;
    assert_eq!(resp.expect(201)["title"], "Via rest_route");
    let resp = srv.site_req(Method::GET, "/?rest_route=/calendar/events/v1/nowhere").send().await;
    resp.expect_error(404, "rest_no_route");
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    let srv = start().await;
    let event = srv.event("Head", 3, json!({})).await;
    for path in ["/events".to_string(), format!("/events/{}", id(&event)), "".to_string(), "/venues".to_string()] {
        let get = srv.get(&path).await;
        let head = srv.req(Method::HEAD, &path).send().await;
        assert_eq!(head.status, get.status, "{path}");
        assert!(head.text.is_empty(), "HEAD {path} has a body: {}", head.text);
        for name in ["content-type", "x-tec-total", "x-tec-totalpages", "allow", "link"] {
            assert_eq!(head.header(name), get.header(name), "{name} of HEAD {path}");
        }
    }
    let missing = srv.req(Method::HEAD, "/events/999999").send().await;
    assert_eq!(missing.status, 404);
    assert!(missing.text.is_empty());
}

#[tokio::test]
async fn options_describes_the_route() {
    let srv = start().await;
    let resp = srv.req(Method::OPTIONS, "/events").send().await;
    let body = resp.expect(200);
    assert_json_content_type(&resp);
    assert_eq!(body["namespace"], "calendar/events/v1");
    assert_eq!(body["methods"], json!(["GET", "POST"]));
    let endpoints = body["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 2);
    assert!(endpoints[0]["args"].get("per_page").is_some());
    assert!(endpoints[1]["args"]["title"]["required"].as_bool().unwrap());
    let event = srv.event("Options", 3, json!({})).await;
    let resp = srv
        .req(Method::OPTIONS, &format!("/events/{}", id(&event)))
        .header("origin", "https://app.example")
        .send()
        .await;
    let body = resp.expect(200);
    let mut methods: Vec<&str> = body["methods"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    methods.sort_unstable();
    assert_eq!(methods, ["DELETE", "GET", "PATCH", "POST", "PUT"]);
    assert_eq!(resp.header("access-control-allow-origin"), Some("https://app.example"));
    assert_eq!(resp.header("access-control-allow-credentials"), Some("true"));
    assert_eq!(resp.header("allow"), Some("GET"));
    srv.req(Method::OPTIONS, "/nowhere").send().await.expect_error(404, "rest_no_route");
}

#[tokio::test]
async fn method_overrides() {
    let srv = start().await;
    let a = srv.event("Override A", 3, json!({})).await;
    let b = srv.event("Override B", 3, json!({})).await;
    let resp = srv.req(Method::POST, &format!("/events/{}?_method=DELETE", id(&a))).user("admin").send().await;
    assert_eq!(resp.expect(200)["status"], "trash");
    let resp = srv
        .req(Method::POST, &format!("/events/{}", id(&b)))
        .user("admin")
        .header("x-http-method-override", "DELETE")
        .send()
        .await;
    assert_eq!(resp.expect(200)["status"], "trash");
    let resp = srv.req(Method::POST, "/venues?_method=PUT").user("admin").json(&json!({"venue": "x"})).send().await;
    resp.expect_error(404, "rest_no_route");
    let c = srv.event("Override C", 3, json!({})).await;
    let resp = srv
        .req(Method::POST, &format!("/events/{}?_method=PATCH", id(&c)))
        .user("admin")
        .json(&json!({"title": "Patched"}))
        .send()
        .await;
    assert_eq!(resp.expect(200)["title"], "Patched");
}

#[tokio::test]
async fn cors_headers() {
    let srv = start().await;
    let origin = "https://calendar-app.example";
    for resp in [
        srv.req(Method::GET, "/events").header("origin", origin).send().await,
        srv.req(Method::GET, "/events/999999").header("origin", origin).send().await,
        srv.req(Method::POST, "/events").header("origin", origin).json(&json!({})).send().await,
    ] {
        assert_eq!(resp.header("access-control-allow-origin"), Some(origin), "{}", resp.text);
        assert_eq!(resp.header("access-control-allow-credentials"), Some("true"));
        let exposed = resp.header("access-control-expose-headers").unwrap_or("");
        for name in ["X-TEC-Total", "X-TEC-TotalPages", "Link"] {
            assert!(exposed.contains(name), "{name} not exposed: {exposed}");
        }
        let allowed = resp.header("access-control-allow-headers").unwrap_or("");
        assert!(allowed.contains("Authorization") && allowed.contains("Content-Type"), "{allowed}");
    }
    let preflight = srv
        .req(Method::OPTIONS, "/events")
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "authorization, content-type")
        .send()
        .await;
    assert_eq!(preflight.status, 200);
    assert_eq!(preflight.header("access-control-allow-origin"), Some(origin));
    let methods = preflight.header("access-control-allow-methods").unwrap_or("");
    assert!(methods.contains("POST") && methods.contains("DELETE"), "{methods}");
    // Without an Origin there is nothing to echo.
    assert!(srv.get("/events").await.header("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn standard_headers() {
    let srv = start().await;
    let resp = srv.get("/events").await;
    assert_eq!(resp.header("x-robots-tag"), Some("noindex"));
    assert_eq!(resp.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(resp.header("link"), Some(format!("<{}/wp-json/>; rel=\"https://api.w.org/\"", srv.site()).as_str()));
}

#[tokio::test]
async fn every_answer_is_json_with_the_cms_content_type() {
    let srv = start().await;
    let event = srv.event("Typed", 3, json!({})).await;
    let path = format!("/events/{}", id(&event));
    let answers = vec![
        (200, srv.get("/events").await),
        (200, srv.get(&path).await),
        (201, srv.post(Some("admin"), "/tags", &json!({"name": "t"})).await),
        (400, srv.get("/events?page=0").await),
        (401, srv.post(None, "/tags", &json!({"name": "u"})).await),
        (403, srv.post(Some("subscriber"), "/tags", &json!({"name": "v"})).await),
        (404, srv.get("/nowhere").await),
        (404, srv.get("/events/999999").await),
        (200, srv.delete(Some("admin"), &path).await),
        (410, srv.delete(Some("admin"), &path).await),
        (403, srv.get(&path).await),
    ];
    for (status, resp) in answers {
        assert_eq!(resp.status, status, "{}", resp.text);
        assert_json_content_type(&resp);
        assert!(serde_json::from_str::<Value>(&resp.text).is_ok(), "not JSON: {}", resp.text);
    }
}

#[tokio::test]
async fn malformed_json_is_rest_invalid_json() {
    let srv = start().await;
    for body in ["{", "{\"title\": }", "not json", "{\"a\":1,}", "\u{0}"] {
        let resp = srv.req(Method::POST, "/events").user("admin").body("application/json", body).send().await;
        let err = resp.expect_error(400, "rest_invalid_json");
        assert_eq!(err["message"], "Invalid JSON body passed.", "{body:?}");
    }
    let resp = srv.req(Method::POST, "/events").body("application/json; charset=utf-8", "{oops").send().await;
    resp.expect_error(400, "rest_invalid_json");
}

#[tokio::test]
async fn a_json_body_without_a_json_content_type_is_not_read() {
    let srv = start().await;
    let body = json!({"title": "Ignored", "start_date": at(2, 0), "end_date": at(2, 1)}).to_string();
    let resp = srv.req(Method::POST, "/events").user("admin").body("text/plain", body).send().await;
    let err = resp.expect_error(400, "rest_missing_callback_param");
    assert_eq!(err["data"]["params"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn form_encoded_bodies() {
    let srv = start().await;
    let cat = srv.category("Form cat", json!({})).await;
    let cat_id = id(&cat).to_string();
    let start = at(2, 0);
    let end = at(2, 1);
    let resp = srv
        .req(Method::POST, "/events")
        .user("admin")
        .form(&[
            ("title", "From a form"),
            ("start_date", &start),
            ("end_date", &end),
            ("featured", "true"),
            ("all_day", "0"),
            ("categories[]", &cat_id),
            ("categories[]", "Form second"),
            ("venue[venue]", "Form venue"),
            ("venue[city]", "Formville"),
        ])
        .send()
        .await;
    let event = resp.expect(201);
    assert_eq!(event["title"], "From a form");
    assert_eq!(event["featured"], true);
    assert_eq!(event["all_day"], false);
    assert_eq!(event["categories"].as_array().unwrap().len(), 2);
    assert_eq!(event["venue"]["venue"], "Form venue");
    assert_eq!(event["venue"]["city"], "Formville");
    // Query parameters count too; the body wins over the query.
    let resp = srv
        .req(
            Method::POST,
            &format!("/events?title=From%20query&start_date={}&end_date={}", encode(&start), encode(&end)),
        )
        .user("admin")
        .form(&[("title", "From body")])
        .send()
        .await;
    assert_eq!(resp.expect(201)["title"], "From body");
}

#[tokio::test]
async fn multipart_bodies() {
    let srv = start().await;
    let boundary = "XyZzY-boundary";
    let fields = [
        ("title", "From multipart".to_string()),
        ("start_date", at(2, 0)),
        ("end_date", at(2, 1)),
        ("tags[]", "Multi".to_string()),
        ("sticky", "1".to_string()),
    ];
    let mut body = String::new();
    for (name, value) in &fields {
        body.push_str(&format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    let resp = srv
        .req(Method::POST, "/events")
        .user("admin")
        .body(&format!("multipart/form-data; boundary={boundary}"), body)
        .send()
        .await;
    let event = resp.expect(201);
    assert_eq!(event["title"], "From multipart");
    assert_eq!(event["sticky"], true);
    assert_eq!(event["tags"][0]["name"], "Multi");
}

#[tokio::test]
async fn fields_filter() {
    let srv = start().await;
    let venue = srv.venue("Fields venue", json!({"city": "Kyoto"})).await;
    let event = srv.event("Fields", 3, json!({"venue": id(&venue)})).await;
    let resp = srv.get(&format!("/events/{}?_fields=id,title", id(&event))).await;
    assert_eq!(keys(resp.expect(200)), ["id", "title"]);
    assert_eq!(resp.json["title"], "Fields");
    let resp = srv.get(&format!("/events/{}?_fields=id,venue.city", id(&event))).await;
    assert_eq!(resp.expect(200)["venue"], json!({"city": "Kyoto"}));
    // Errors are not filtered.
    let resp = srv.get("/events/999999?_fields=id").await;
    resp.expect_error(404, "rest-event-not-found");
}

#[tokio::test]
async fn envelope_parameter() {
    let srv = start().await;
    let resp = srv.get("/events/999999?_envelope").await;
    let body = resp.expect(200);
    assert_eq!(body["status"], 404);
    assert_eq!(body["body"]["code"], "rest-event-not-found");
}

#[tokio::test]
async fn namespace_index() {
    let srv = start().await;
    let resp = srv.get("").await;
    let body = resp.expect(200);
    assert_eq!(body["namespace"], "calendar/events/v1");
    assert_eq!(body["_links"]["up"][0]["href"], format!("{}/wp-json/", srv.site()));
    let routes = body["routes"].as_object().unwrap();
    for key in [
        "/calendar/events/v1",
        "/calendar/events/v1/doc",
        "/calendar/events/v1/events",
        r"/calendar/events/v1/events/(?P<id>\d+)",
        "/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)",
        "/calendar/events/v1/venues",
        r"/calendar/events/v1/venues/(?P<id>\d+)",
        "/calendar/events/v1/venues/by-slug/(?P<slug>[^/]+)",
        "/calendar/events/v1/organizers",
        r"/calendar/events/v1/organizers/(?P<id>\d+)",
        "/calendar/events/v1/organizers/by-slug/(?P<slug>[^/]+)",
        "/calendar/events/v1/categories",
        r"/calendar/events/v1/categories/(?P<id>\d+)",
        "/calendar/events/v1/tags",
        r"/calendar/events/v1/tags/(?P<id>\d+)",
    ] {
        assert!(routes.contains_key(key), "missing route {key}: {:?}", routes.keys().collect::<Vec<_>>());
    }
    assert_eq!(routes.len(), 15);
    let events = &routes["/calendar/events/v1/events"];
    assert_eq!(events["methods"], json!(["GET", "POST"]));
    assert_eq!(events["_links"]["self"][0]["href"], format!("{}/events", srv.api()));
    assert!(routes[r"/calendar/events/v1/events/(?P<id>\d+)"].get("_links").is_none());
    assert!(!routes.keys().any(|k| k.contains("categories/by-slug") || k.contains("tags/by-slug")));

    assert_eq!(srv.get("?namespace=calendar/events/v1").await.expect(200)["namespace"], "calendar/events/v1");
    let err = srv.get("?namespace=other/v1").await;
    assert_eq!(
        err.expect_error(404, "rest_invalid_namespace")["message"],
        "The specified namespace could not be found."
    );
}

#[tokio::test]
async fn doc_is_an_openapi_document() {
    let srv = start().await;
    let resp = srv.get("/doc").await;
    let doc = resp.expect(200);
    assert_eq!(keys(doc), ["openapi", "info", "components", "servers", "paths"]);
    assert_eq!(doc["openapi"], "3.0.0");
    assert!(
        doc["info"]["version"].is_string()
            && doc["info"]["title"].is_string()
            && doc["info"]["description"].is_string()
    );
    let server_url = doc["servers"][0]["url"].as_str().unwrap();
    assert!(server_url.ends_with("/wp-json/calendar/events/v1/"), "{server_url}");
    let paths = doc["paths"].as_object().unwrap();
    let mut names: Vec<&str> = paths.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "/",
            "/categories",
            "/categories/{id}",
            "/doc",
            "/events",
            "/events/by-slug/{slug}",
            "/events/{id}",
            "/organizers",
            "/organizers/by-slug/{slug}",
            "/organizers/{id}",
            "/tags",
            "/tags/{id}",
            "/venues",
            "/venues/by-slug/{slug}",
            "/venues/{id}",
        ]
    );
    assert!(doc["paths"]["/events"]["get"]["parameters"].is_array());
    assert!(doc["paths"]["/events/{id}"]["get"].is_object());
    for schema in ["Event", "Venue", "Organizer"] {
        assert!(doc["components"]["schemas"].get(schema).is_some(), "schema {schema}");
    }
}

#[tokio::test]
async fn bodies_over_8_mib_are_413() {
    let srv = start().await;
    let huge = format!("{{\"title\": \"{}\"}}", "a".repeat(8 * 1024 * 1024 + 16));
    let resp = srv.req(Method::POST, "/events").user("admin").body("application/json", huge).send().await;
    assert_eq!(resp.status, 413, "{}", &resp.text[..resp.text.len().min(300)]);
    assert_json_content_type(&resp);
    assert_eq!(resp.json["data"]["status"], 413);
    assert!(resp.json["code"].as_str().is_some_and(|code| !code.is_empty()));
    // Just under the limit is read (and here fails validation normally).
    let big = format!("{{\"description\": \"{}\"}}", "b".repeat(1024 * 1024));
    let resp = srv.req(Method::POST, "/events").user("admin").body("application/json", big).send().await;
    resp.expect_error(400, "rest_missing_callback_param");
    // The server still answers.
    assert_eq!(srv.get("/events").await.status, 200);
}
