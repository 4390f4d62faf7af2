//! Categories and tags: create, read, update, delete by term ID; list filters; term errors.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn category_create_and_read() {
    let srv = start().await;
    let resp = srv
        .post(Some("admin"), "/categories", &json!({"name": "Live Music", "description": "Bands", "slug": "live"}))
        .await;
    let created = resp.expect(201).clone();
    let term_id = id(&created);
    assert_eq!(created["name"], "Live Music");
    assert_eq!(created["slug"], "live");
    assert_eq!(created["description"], "Bands");
    assert_eq!(created["taxonomy"], "tribe_events_cat");
    assert_eq!(created["parent"], 0);
    assert_eq!(created["count"], 0);
    assert_eq!(created["meta"], json!([]));
    assert_eq!(created["url"], format!("{}/events/category/live/", srv.site()));
    assert_eq!(created["urls"]["self"], format!("{}/categories/{term_id}", srv.api()));
    assert_eq!(created["urls"]["collection"], format!("{}/categories", srv.api()));
    assert!(created["urls"].get("up").is_none());
    assert!(created.get("_links").is_some(), "term routes carry the core links");
    assert_eq!(
        resp.header("location"),
        Some(format!("{}/wp-json/wp/v2/tribe_events_cat/{term_id}", srv.site()).as_str())
    );

    let read = srv.get(&format!("/categories/{term_id}")).await;
    let got = read.expect(200);
    assert_eq!(got["id"], term_id);
    assert_eq!(got["name"], "Live Music");
    assert!(got.get("_links").is_some());
    // The slug is derived from the name when not given.
    let derived = srv.category("Kids & Family", json!({})).await;
    assert_eq!(derived["slug"], "kids-family");
}

#[tokio::test]
async fn tag_create_and_read() {
    let srv = start().await;
    let tag = srv.tag("Free Entry", json!({"description": "No ticket"})).await;
    assert_eq!(tag["taxonomy"], "post_tag");
    assert_eq!(tag["slug"], "free-entry");
    assert_eq!(tag["description"], "No ticket");
    assert!(tag.get("parent").is_none(), "tags are not hierarchical: {tag}");
    assert_eq!(tag["url"], format!("{}/tag/free-entry/", srv.site()));
    assert_eq!(tag["urls"]["self"], format!("{}/tags/{}", srv.api(), id(&tag)));
    let read = srv.get(&format!("/tags/{}", id(&tag))).await;
    assert_eq!(read.expect(200)["name"], "Free Entry");
}

#[tokio::test]
async fn term_create_errors() {
    let srv = start().await;
    for collection in ["categories", "tags"] {
        let resp = srv.post(Some("admin"), &format!("/{collection}"), &json!({"description": "no name"})).await;
        let err = resp.expect_error(400, "rest_missing_callback_param");
        assert_eq!(err["data"]["params"], json!(["name"]));
        assert_eq!(err["message"], "Missing parameter(s): name");
        for (name, value) in [("name", json!("")), ("description", json!("")), ("slug", json!("")), ("name", json!(7))]
        {
            let mut body = json!({"name": "X"});
            body[name] = value.clone();
            let resp = srv.post(Some("admin"), &format!("/{collection}"), &body).await;
            assert!(
                resp.expect_error(400, "rest_invalid_param")["data"]["params"].get(name).is_some(),
                "{collection} {name}={value}"
            );
        }
        let first = srv.create("admin", collection, json!({"name": "Same"})).await;
        let resp = srv.post(Some("admin"), &format!("/{collection}"), &json!({"name": "Same"})).await;
        let err = resp.expect_error(400, "term_exists");
        assert_eq!(err["data"]["term_id"], id(&first));
    }
    let resp = srv.post(Some("admin"), "/tags", &json!({"name": "Child tag", "parent": 1})).await;
    let err = resp.expect_error(400, "rest_taxonomy_not_hierarchical");
    assert_eq!(err["message"], "Cannot set parent term, taxonomy is not hierarchical.");
    for bad in [json!(999), json!("foo"), json!("")] {
        let resp = srv.post(Some("admin"), "/categories", &json!({"name": "Orphan", "parent": bad})).await;
        assert!(resp.expect_error(400, "rest_invalid_param")["data"]["params"].get("parent").is_some(), "{bad}");
    }
}

#[tokio::test]
async fn category_parents() {
    let srv = start().await;
    let music = srv.category("Music", json!({})).await;
    let jazz = srv.category("Jazz", json!({"parent": id(&music)})).await;
    assert_eq!(jazz["parent"], id(&music));
    assert_eq!(jazz["urls"]["up"], format!("{}/categories/{}", srv.api(), id(&music)));
    assert_eq!(jazz["url"], format!("{}/events/category/music/jazz/", srv.site()));
    // The same name under another parent is allowed.
    let other = srv.category("Jazz", json!({})).await;
    assert_ne!(id(&other), id(&jazz));
    assert_eq!(other["slug"], "jazz-2");
}

#[tokio::test]
async fn term_update_by_id() {
    let srv = start().await;
    let parent = srv.category("Parent", json!({})).await;
    let cat = srv.category("Before", json!({"description": "old"})).await;
    let path = format!("/categories/{}", id(&cat));
    let resp = srv.post(Some("admin"), &path, &json!({"name": "After"})).await;
    let updated = resp.expect(200);
    assert_eq!(updated["name"], "After");
    assert_eq!(updated["description"], "old", "untouched fields keep their values");
    assert_eq!(updated["slug"], "before");
    let resp = srv.put(Some("admin"), &path, &json!({"description": "new", "slug": "after"})).await;
    assert_eq!(resp.expect(200)["description"], "new");
    assert_eq!(resp.json["slug"], "after");
    let resp = srv.patch(Some("admin"), &path, &json!({"parent": id(&parent)})).await;
    assert_eq!(resp.expect(200)["parent"], id(&parent));
    assert_eq!(srv.get(&path).await.json["parent"], id(&parent));
    // Errors on update.
    srv.patch(Some("admin"), &path, &json!({"parent": 999})).await.expect_error(400, "rest_invalid_param");
    srv.patch(Some("admin"), &path, &json!({"description": ""})).await.expect_error(400, "rest_invalid_param");
    srv.post(Some("admin"), "/categories/999", &json!({"name": "x"})).await.expect_error(400, "rest_invalid_param");
    let sibling = srv.category("Sibling", json!({"parent": id(&parent)})).await;
    // A taken name is refused on create only: as on real sites, an update may take it, and each
    // term keeps its own slug.
    let resp = srv.patch(Some("admin"), &format!("/categories/{}", id(&sibling)), &json!({"name": "After"})).await;
    assert_eq!((resp.expect(200)["name"].clone(), resp.json["slug"].clone()), (json!("After"), json!("sibling")));
    assert_eq!(srv.get(&path).await.json["slug"], "after");
    let tag = srv.tag("A tag", json!({})).await;
    let resp = srv.patch(Some("admin"), &format!("/tags/{}", id(&tag)), &json!({"parent": id(&parent)})).await;
    resp.expect_error(400, "rest_taxonomy_not_hierarchical");
    let resp = srv.patch(Some("admin"), &format!("/tags/{}", id(&tag)), &json!({"name": "Renamed tag"})).await;
    assert_eq!(resp.expect(200)["name"], "Renamed tag");
}

#[tokio::test]
async fn term_read_errors() {
    let srv = start().await;
    let tag = srv.tag("T", json!({})).await;
    let cat = srv.category("C", json!({})).await;
    srv.get("/categories/999").await.expect_error(400, "rest_invalid_param");
    srv.get(&format!("/categories/{}", id(&tag))).await.expect_error(400, "rest_invalid_param");
    srv.get(&format!("/tags/{}", id(&cat))).await.expect_error(400, "rest_invalid_param");
    srv.get("/categories/abc").await.expect_error(404, "rest_no_route");
    srv.get("/categories/by-slug/c").await.expect_error(404, "rest_no_route");
    srv.get("/tags/by-slug/t").await.expect_error(404, "rest_no_route");
}

#[tokio::test]
async fn term_delete_is_for_good() {
    let srv = start().await;
    let parent = srv.category("Parent", json!({})).await;
    let child = srv.category("Child", json!({"parent": id(&parent)})).await;
    let event = srv.event("Tagged", 3, json!({"categories": [id(&parent)]})).await;
    let path = format!("/categories/{}", id(&parent));
    let resp = srv.delete(Some("admin"), &path).await;
    let deleted = resp.expect(200);
    assert_eq!(deleted["id"], id(&parent));
    assert_eq!(deleted["name"], "Parent");
    assert_eq!(deleted["count"], 1, "the count before deletion");
    assert!(deleted.get("_links").is_none(), "no links on DELETE");
    srv.delete(Some("admin"), &path).await.expect_error(400, "rest_invalid_param");
    srv.get(&path).await.expect_error(400, "rest_invalid_param");
    // Children move to the top level; events lose the term.
    assert_eq!(srv.get(&format!("/categories/{}", id(&child))).await.json["parent"], 0);
    assert_eq!(srv.get(&format!("/events/{}", id(&event))).await.json["categories"], json!([]));
    let tag = srv.tag("Gone", json!({})).await;
    assert_eq!(srv.delete(Some("admin"), &format!("/tags/{}", id(&tag))).await.expect(200)["name"], "Gone");
    srv.delete(Some("admin"), &format!("/tags/{}", id(&tag))).await.expect_error(400, "rest_invalid_param");
}

/// Three categories, two of them used by events.
async fn term_calendar(srv: &Srv) -> (Value, Value, Value, Value) {
    let alpha = srv.category("Alpha", json!({"description": "zzz"})).await;
    let beta = srv.category("Beta", json!({"parent": id(&alpha), "description": "aaa"})).await;
    let gamma = srv.category("Gamma", json!({})).await;
    let event = srv.event("E1", 2, json!({"categories": [id(&alpha), id(&beta)]})).await;
    srv.event("E2", 3, json!({"categories": [id(&beta)]})).await;
    (alpha, beta, gamma, event)
}

async fn names(srv: &Srv, path: &str, key: &str) -> Vec<String> {
    let resp = srv.get(path).await;
    let body = resp.expect(200);
    body[key].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn term_list_envelope_and_hide_empty() {
    let srv = start().await;
    let (_, beta, _, _) = term_calendar(&srv).await;
    let resp = srv.get("/categories").await;
    let body = resp.expect(200);
    assert_eq!(keys(body), ["rest_url", "total", "total_pages", "categories"]);
    assert_eq!(body["rest_url"], format!("{}/categories/", srv.api()));
    assert_eq!(body["total"], 2, "empty terms are hidden by default");
    assert_eq!(body["total_pages"], 1);
    assert_eq!(resp.header("x-tec-total"), Some("2"));
    assert_eq!(resp.header("x-tec-totalpages"), Some("1"));
    let items = body["categories"].as_array().unwrap();
    let beta_item = items.iter().find(|t| t["id"] == id(&beta)).unwrap();
    assert_eq!(beta_item["count"], 2);
    assert!(beta_item.get("_links").is_none(), "list items carry no _links");
    assert_eq!(names(&srv, "/categories", "categories").await, ["Alpha", "Beta"], "ordered by name");
    assert_eq!(names(&srv, "/categories?hide_empty=false", "categories").await, ["Alpha", "Beta", "Gamma"]);
    assert_eq!(names(&srv, "/categories?hide_empty=0", "categories").await, ["Alpha", "Beta", "Gamma"]);
    srv.get("/categories?hide_empty=maybe").await.expect_error(400, "rest_invalid_param");
    let tags = srv.get("/tags").await;
    assert_eq!(tags.expect(200)["tags"], json!([]));
    assert_eq!(tags.json["total"], 0);
    assert_eq!(tags.json["total_pages"], 0);
}

#[tokio::test]
async fn term_list_pages() {
    let srv = start().await;
    for n in 0..12 {
        srv.tag(&format!("Tag {n:02}"), json!({})).await;
    }
    let resp = srv.get("/tags?hide_empty=false&per_page=5&page=2").await;
    let body = resp.expect(200);
    assert_eq!(body["tags"].as_array().unwrap().len(), 5);
    assert_eq!(body["tags"][0]["name"], "Tag 05");
    assert_eq!(body["total"], 12);
    assert_eq!(body["total_pages"], 3);
    assert!(body["next_rest_url"].as_str().unwrap().contains("page=3"));
    assert!(body["previous_rest_url"].as_str().is_some());
    assert_eq!(keys(body), ["rest_url", "total", "total_pages", "tags", "next_rest_url", "previous_rest_url"]);
    let beyond = srv.get("/tags?hide_empty=false&page=9").await;
    assert_eq!(beyond.expect(200)["tags"], json!([]), "a page out of range is empty, not an error");
    let clamped = srv.get("/tags?hide_empty=false&per_page=100").await;
    assert_eq!(clamped.expect(200)["tags"].as_array().unwrap().len(), 12);
    for bad in ["page=0", "per_page=abc", "per_page=-5"] {
        srv.get(&format!("/tags?{bad}")).await.expect_error(400, "rest_invalid_param");
    }
    assert_eq!(srv.get("/tags?hide_empty=false").await.json["tags"].as_array().unwrap().len(), 10, "default 10");
}

#[tokio::test]
async fn term_list_filters() {
    let srv = start().await;
    let (alpha, beta, gamma, event) = term_calendar(&srv).await;
    let all = "/categories?hide_empty=false";
    assert_eq!(names(&srv, &format!("{all}&search=alp"), "categories").await, ["Alpha"]);
    assert_eq!(names(&srv, &format!("{all}&search=zzz-none"), "categories").await, Vec::<String>::new());
    assert_eq!(names(&srv, &format!("{all}&exclude={}", id(&alpha)), "categories").await, ["Beta", "Gamma"]);
    assert_eq!(names(&srv, &format!("{all}&exclude={},{}", id(&alpha), id(&gamma)), "categories").await, ["Beta"]);
    assert_eq!(
        names(&srv, &format!("{all}&include={},{}", id(&beta), id(&gamma)), "categories").await,
        ["Beta", "Gamma"]
    );
    assert_eq!(
        names(&srv, &format!("{all}&include[]={}&include[]={}", id(&gamma), id(&alpha)), "categories").await,
        ["Alpha", "Gamma"]
    );
    assert_eq!(names(&srv, &format!("{all}&order=desc"), "categories").await, ["Gamma", "Beta", "Alpha"]);
    assert_eq!(names(&srv, &format!("{all}&order=asc"), "categories").await, ["Alpha", "Beta", "Gamma"]);
    assert_eq!(names(&srv, &format!("{all}&orderby=id&order=desc"), "categories").await, ["Gamma", "Beta", "Alpha"]);
    assert_eq!(names(&srv, &format!("{all}&orderby=description"), "categories").await, ["Gamma", "Beta", "Alpha"]);
    assert_eq!(names(&srv, &format!("{all}&orderby=count&order=desc"), "categories").await[0], "Beta");
    assert_eq!(names(&srv, &format!("{all}&orderby=no-such-key"), "categories").await, ["Alpha", "Beta", "Gamma"]);
    assert_eq!(names(&srv, &format!("{all}&parent={}", id(&alpha)), "categories").await, ["Beta"]);
    assert_eq!(names(&srv, &format!("{all}&post={}", id(&event)), "categories").await, ["Alpha", "Beta"]);
    assert_eq!(names(&srv, &format!("{all}&event={}", id(&event)), "categories").await, ["Alpha", "Beta"]);
    let other = srv.event("Other", 4, json!({"categories": [id(&gamma)]})).await;
    assert_eq!(
        names(&srv, &format!("{all}&post={}&event={}", id(&event), id(&other)), "categories").await,
        ["Gamma"],
        "event wins over post"
    );
    assert_eq!(names(&srv, &format!("{all}&slug=beta"), "categories").await, ["Beta"]);
    assert_eq!(names(&srv, &format!("{all}&slug=nothing"), "categories").await, Vec::<String>::new());

    for bad in [
        "exclude=999",
        "include=999",
        "include=no-such-slug",
        "parent=2389",
        "parent=",
        "post=",
        "post=23",
        "post=foo",
        "event=23",
        "slug=",
        "order=",
        "orderby=",
        "search=",
    ] {
        let resp = srv.get(&format!("{all}&{bad}")).await;
        let name = bad.split('=').next().unwrap();
        assert!(
            resp.expect_error(400, "rest_invalid_param")["data"]["params"].get(name).is_some(),
            "{bad}: {}",
            resp.text
        );
    }
    // `parent` is for categories only: on tags it is not an argument and has no effect.
    let tag = srv.tag("Solo", json!({})).await;
    let resp = srv.get(&format!("/tags?hide_empty=false&parent={}", id(&alpha))).await;
    assert_eq!(ids(&resp.expect(200)["tags"]), [id(&tag)]);
}

#[tokio::test]
async fn term_routes_answer_every_method() {
    let srv = start().await;
    let cat = srv.category("C", json!({})).await;
    let path = format!("/categories/{}", id(&cat));
    for (method, name) in [(Method::POST, "C1"), (Method::PUT, "C2"), (Method::PATCH, "C3")] {
        let resp = srv.req(method, &path).user("editor").json(&json!({"name": name})).send().await;
        assert_eq!(resp.expect(200)["name"], name);
    }
    assert_eq!(srv.req(Method::DELETE, &path).user("editor").send().await.expect(200)["name"], "C3");
    srv.req(Method::PUT, "/categories")
        .user("admin")
        .json(&json!({"name": "x"}))
        .send()
        .await
        .expect_error(404, "rest_no_route");
    srv.req(Method::DELETE, "/tags").user("admin").send().await.expect_error(404, "rest_no_route");
}
