//! Authentication and permissions: each role × create/update/delete for each resource,
//! object-level rules (also on by-slug routes), status scale-back, read visibility, and the
//! order of validation and authorization.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const ROLES: [&str; 5] = ["admin", "editor", "author", "contributor", "subscriber"];

fn create_body(collection: &str, n: usize) -> Value {
    match collection {
        "events" => json!({"title": format!("Event {n}"), "start_date": at(3, 0), "end_date": at(3, 1)}),
        "venues" => json!({"venue": format!("Venue {n}")}),
        "organizers" => json!({"organizer": format!("Organizer {n}")}),
        _ => json!({"name": format!("Term {n}")}),
    }
}

#[tokio::test]
async fn create_permissions_by_role() {
    let srv = start().await;
    // (collection, roles that may create)
    let table: [(&str, &[&str]); 5] = [
        ("events", &["admin", "editor", "author", "contributor"]),
        ("venues", &["admin", "editor", "author", "contributor"]),
        ("organizers", &["admin", "editor", "author", "contributor"]),
        ("categories", &["admin", "editor", "author"]),
        ("tags", &["admin", "editor"]),
    ];
    let mut n = 0;
    for (collection, allowed) in table {
        for role in ROLES {
            n += 1;
            let resp = srv.post(Some(role), &format!("/{collection}"), &create_body(collection, n)).await;
            if allowed.contains(&role) {
                assert_eq!(resp.status, 201, "{role} creates {collection}: {}", resp.text);
            } else {
                let err = resp.expect_error(403, "rest_forbidden");
                assert_eq!(err["message"], "Sorry, you are not allowed to do that.", "{role} {collection}");
            }
        }
        n += 1;
        let resp = srv.post(None, &format!("/{collection}"), &create_body(collection, n)).await;
        let err = resp.expect_error(401, "rest_forbidden");
        assert_eq!(err["message"], "Sorry, you are not allowed to do that.");
    }
}

#[tokio::test]
async fn update_and_delete_of_others_items_by_role() {
    let srv = start().await;
    for collection in ["events", "venues", "organizers"] {
        for role in ROLES {
            let item = srv.create("admin", collection, create_body(collection, 0)).await;
            let path = format!("/{collection}/{}", id(&item));
            let update = srv.patch(Some(role), &path, &json!({"description": "changed"})).await;
            let delete = srv.delete(Some(role), &path).await;
            if matches!(role, "admin" | "editor") {
                assert_eq!(update.status, 200, "{role} updates admin's {collection}: {}", update.text);
                assert_eq!(delete.status, 200, "{role} deletes admin's {collection}: {}", delete.text);
            } else {
                update.expect_error(403, "rest_forbidden");
                delete.expect_error(403, "rest_forbidden");
            }
        }
        let item = srv.create("admin", collection, create_body(collection, 1)).await;
        let path = format!("/{collection}/{}", id(&item));
        srv.patch(None, &path, &json!({"description": "x"})).await.expect_error(401, "rest_forbidden");
        srv.delete(None, &path).await.expect_error(401, "rest_forbidden");
        // Nothing changed.
        let read = srv.get_as("admin", &path).await;
        assert_eq!(read.expect(200)["status"], "publish");
        assert_eq!(read.json["description"].as_str().unwrap_or(""), "", "{collection}");
    }
}

#[tokio::test]
async fn term_update_and_delete_by_role() {
    let srv = start().await;
    for (collection, allowed) in
        [("categories", ["admin", "editor", "author"].as_slice()), ("tags", ["admin", "editor"].as_slice())]
    {
        for role in ROLES {
            let term = srv.create("admin", collection, json!({"name": format!("{role} term")})).await;
            let path = format!("/{collection}/{}", id(&term));
            let update = srv.patch(Some(role), &path, &json!({"description": "changed"})).await;
            let delete = srv.delete(Some(role), &path).await;
            if allowed.contains(&role) {
                assert_eq!(update.status, 200, "{role} updates {collection}: {}", update.text);
                assert_eq!(delete.status, 200, "{role} deletes {collection}: {}", delete.text);
            } else {
                update.expect_error(403, "rest_forbidden");
                delete.expect_error(403, "rest_forbidden");
            }
        }
        let term = srv.create("admin", collection, json!({"name": "anon"})).await;
        let path = format!("/{collection}/{}", id(&term));
        srv.patch(None, &path, &json!({"description": "x"})).await.expect_error(401, "rest_forbidden");
        srv.delete(None, &path).await.expect_error(401, "rest_forbidden");
    }
}

#[tokio::test]
async fn contributor_object_level_rules() {
    let srv = start().await;
    // A contributor's event is a draft; asking to publish makes it pending.
    let own = srv.event_as("contributor", "Mine", 3, json!({})).await;
    assert_eq!(own["status"], "draft");
    assert_eq!(own["author"], "4");
    let pending = srv.event_as("contributor", "Wants publish", 3, json!({"status": "publish"})).await;
    assert_eq!(pending["status"], "pending");
    let future = srv.event_as("contributor", "Wants future", 3, json!({"status": "future"})).await;
    assert_eq!(future["status"], "pending");
    let path = format!("/events/{}", id(&own));
    let resp = srv.patch(Some("contributor"), &path, &json!({"title": "Mine, edited"})).await;
    assert_eq!(resp.expect(200)["title"], "Mine, edited");
    assert_eq!(resp.json["status"], "draft");
    let resp = srv.patch(Some("contributor"), &path, &json!({"status": "publish"})).await;
    assert_eq!(resp.expect(200)["status"], "pending", "scale-back applies on update too");
    // By slug as well.
    let resp = srv.patch(Some("contributor"), "/events/by-slug/mine", &json!({"description": "by slug"})).await;
    assert_eq!(resp.expect(200)["description"], "<p>by slug</p>");

    // Once published by an editor, the contributor may no longer touch it.
    srv.patch(Some("editor"), &path, &json!({"status": "publish"})).await.expect(200);
    srv.patch(Some("contributor"), &path, &json!({"title": "x"})).await.expect_error(403, "rest_forbidden");
    srv.delete(Some("contributor"), &path).await.expect_error(403, "rest_forbidden");
    srv.patch(Some("contributor"), "/events/by-slug/mine", &json!({"title": "x"}))
        .await
        .expect_error(403, "rest_forbidden");
    srv.delete(Some("contributor"), "/events/by-slug/mine").await.expect_error(403, "rest_forbidden");

    // The admin's draft is not the contributor's either, by ID or by slug (Part A 21).
    let admin_draft = srv.event("Admin draft", 3, json!({"status": "draft"})).await;
    let admin_path = format!("/events/{}", id(&admin_draft));
    srv.patch(Some("contributor"), &admin_path, &json!({"title": "x"})).await.expect_error(403, "rest_forbidden");
    srv.delete(Some("contributor"), &admin_path).await.expect_error(403, "rest_forbidden");
    srv.patch(Some("contributor"), "/events/by-slug/admin-draft", &json!({"title": "x"}))
        .await
        .expect_error(403, "rest_forbidden");
    srv.delete(Some("contributor"), "/events/by-slug/admin-draft").await.expect_error(403, "rest_forbidden");

    // Deleting their own draft is fine.
    let deletable = srv.event_as("contributor", "Delete me", 3, json!({})).await;
    let resp = srv.delete(Some("contributor"), &format!("/events/{}", id(&deletable))).await;
    assert_eq!(resp.expect(200)["status"], "trash");
    let deletable = srv.event_as("contributor", "Delete by slug", 3, json!({})).await;
    let resp =
        srv.delete(Some("contributor"), &format!("/events/by-slug/{}", deletable["slug"].as_str().unwrap())).await;
    assert_eq!(resp.expect(200)["status"], "trash");
}

#[tokio::test]
async fn author_object_level_rules() {
    let srv = start().await;
    let own = srv.event_as("author", "Author event", 3, json!({})).await;
    assert_eq!(own["status"], "publish", "authors publish");
    let path = format!("/events/{}", id(&own));
    assert_eq!(srv.patch(Some("author"), &path, &json!({"title": "Edited"})).await.expect(200)["title"], "Edited");
    assert_eq!(
        srv.patch(Some("author"), "/events/by-slug/author-event", &json!({"cost": "3"})).await.expect(200)["cost"],
        "$3"
    );
    let admin_event = srv.event("Admin event", 3, json!({})).await;
    let admin_path = format!("/events/{}", id(&admin_event));
    srv.patch(Some("author"), &admin_path, &json!({"title": "x"})).await.expect_error(403, "rest_forbidden");
    srv.delete(Some("author"), &admin_path).await.expect_error(403, "rest_forbidden");
    srv.put(Some("author"), "/events/by-slug/admin-event", &json!({"title": "x"}))
        .await
        .expect_error(403, "rest_forbidden");
    srv.delete(Some("author"), "/events/by-slug/admin-event").await.expect_error(403, "rest_forbidden");
    assert_eq!(srv.get(&admin_path).await.json["title"], "Admin event");
    assert_eq!(srv.delete(Some("author"), &path).await.expect(200)["status"], "trash");
    // Venues and organizers: the same rules.
    let venue = srv.venue("Admin venue", json!({})).await;
    srv.patch(Some("author"), &format!("/venues/{}", id(&venue)), &json!({"city": "x"}))
        .await
        .expect_error(403, "rest_forbidden");
    srv.patch(Some("author"), "/venues/by-slug/admin-venue", &json!({"city": "x"}))
        .await
        .expect_error(403, "rest_forbidden");
    srv.delete(Some("contributor"), "/venues/by-slug/admin-venue").await.expect_error(403, "rest_forbidden");
    let own_venue = srv.create("contributor", "venues", json!({"venue": "Contributor venue"})).await;
    assert_eq!(own_venue["status"], "draft");
    let resp = srv.patch(Some("contributor"), &format!("/venues/{}", id(&own_venue)), &json!({"city": "Rome"})).await;
    assert_eq!(resp.expect(200)["city"], "Rome");
    let organizer = srv.organizer("Admin organizer", json!({})).await;
    srv.delete(Some("contributor"), &format!("/organizers/{}", id(&organizer)))
        .await
        .expect_error(403, "rest_forbidden");
    srv.patch(Some("author"), "/organizers/by-slug/admin-organizer", &json!({"phone": "1"}))
        .await
        .expect_error(403, "rest_forbidden");
}

#[tokio::test]
async fn editors_may_do_anything() {
    let srv = start().await;
    let contributor_event = srv.event_as("contributor", "Contributor event", 3, json!({})).await;
    let path = format!("/events/{}", id(&contributor_event));
    let resp = srv.patch(Some("editor"), &path, &json!({"status": "publish"})).await;
    assert_eq!(resp.expect(200)["status"], "publish");
    assert_eq!(resp.json["author"], "4", "the author stays");
    srv.patch(Some("editor"), "/events/by-slug/contributor-event", &json!({"title": "E"})).await.expect(200);
    assert_eq!(srv.delete(Some("editor"), "/events/by-slug/contributor-event").await.expect(200)["status"], "trash");
}

#[tokio::test]
async fn setting_another_author_needs_the_right_to_edit_others() {
    let srv = start().await;
    for role in ["author", "contributor"] {
        let body = json!({"title": "Ghost", "start_date": at(3, 0), "end_date": at(3, 1), "author": 1});
        let resp = srv.post(Some(role), "/events", &body).await;
        resp.expect_error(403, "rest_cannot_edit_others");
        let venue = srv.post(Some(role), "/venues", &json!({"venue": "Ghost venue", "author": 2})).await;
        venue.expect_error(403, "rest_cannot_edit_others");
    }
    // Naming oneself is fine.
    let own = srv.event_as("author", "Self", 3, json!({"author": 3})).await;
    assert_eq!(own["author"], "3");
    let resp = srv.patch(Some("author"), &format!("/events/{}", id(&own)), &json!({"author": 2})).await;
    resp.expect_error(403, "rest_cannot_edit_others");
    let editor_sets = srv.event_as("editor", "Delegated", 3, json!({"author": 3})).await;
    assert_eq!(editor_sets["author"], "3");
    assert_eq!(srv.get(&format!("/events/{}", id(&own))).await.json["author"], "3");
}

#[tokio::test]
async fn single_read_visibility() {
    let srv = start().await;
    let draft = srv.event_as("author", "Author draft", 3, json!({"status": "draft"})).await;
    let path = format!("/events/{}", id(&draft));
    for user in [None, Some("subscriber"), Some("contributor")] {
        let resp = srv.req(Method::GET, &path).maybe_user(user).send().await;
        let err = resp.expect_error(403, "event-not-accessible");
        assert_eq!(err["message"], "The requested event is not accessible");
        let resp = srv.req(Method::GET, "/events/by-slug/author-draft").maybe_user(user).send().await;
        resp.expect_error(403, "event-not-accessible");
    }
    for user in ["author", "editor", "admin"] {
        assert_eq!(srv.get_as(user, &path).await.expect(200)["status"], "draft", "{user}");
        assert_eq!(srv.get_as(user, "/events/by-slug/author-draft").await.expect(200)["id"], id(&draft), "{user}");
    }
    for status in ["pending", "private", "future"] {
        let event = srv.event(&format!("Status {status}"), 3, json!({"status": status, "date": at(30, 0)})).await;
        let resp = srv.get(&format!("/events/{}", id(&event))).await;
        resp.expect_error(403, "event-not-accessible");
        assert_eq!(srv.get_as("editor", &format!("/events/{}", id(&event))).await.status, 200);
    }
}

#[tokio::test]
async fn list_visibility_by_role() {
    let srv = start().await;
    let published = srv.event("Published", 3, json!({})).await;
    let admin_draft = srv.event("Admin draft", 3, json!({"status": "draft"})).await;
    let contributor_draft = srv.event_as("contributor", "Contributor draft", 3, json!({})).await;
    let contributor_pending = srv.event_as("contributor", "Contributor pending", 3, json!({"status": "pending"})).await;
    let author_private = srv.event_as("author", "Author private", 3, json!({"status": "private"})).await;
    let trashed = srv.event("Trashed", 3, json!({})).await;
    srv.delete(Some("admin"), &format!("/events/{}", id(&trashed))).await.expect(200);

    assert_eq!(srv.list_ids(None, "/events", "events").await, [id(&published)]);
    assert_eq!(srv.list_ids(Some("subscriber"), "/events", "events").await, [id(&published)]);
    assert_eq!(
        srv.list_ids(Some("contributor"), "/events", "events").await,
        sorted(vec![id(&published), id(&contributor_draft), id(&contributor_pending)]),
        "contributors see published items and their own (Part A 22)"
    );
    assert_eq!(
        srv.list_ids(Some("author"), "/events", "events").await,
        sorted(vec![id(&published), id(&author_private)])
    );
    let everything = sorted(vec![
        id(&published),
        id(&admin_draft),
        id(&contributor_draft),
        id(&contributor_pending),
        id(&author_private),
    ]);
    assert_eq!(srv.list_ids(Some("editor"), "/events", "events").await, everything);
    assert_eq!(srv.list_ids(Some("admin"), "/events", "events").await, everything);
    assert_eq!(srv.list_ids(Some("editor"), "/events?status=trash", "events").await, Vec::<u64>::new());
    assert_eq!(
        srv.list_ids(Some("contributor"), "/events?status=draft", "events").await,
        [id(&contributor_draft)],
        "an explicit status still shows only their own unpublished items"
    );
    let resp = srv.get_as("contributor", "/events").await;
    assert_eq!(resp.json["total"], 3);
    assert_eq!(resp.header("x-tec-total"), Some("3"));
}

#[tokio::test]
async fn validation_comes_before_authorization() {
    let srv = start().await;
    let resp = srv.post(None, "/events", &json!({})).await;
    resp.expect_error(400, "rest_missing_callback_param");
    let resp = srv.post(Some("subscriber"), "/events", &json!({"title": "x"})).await;
    resp.expect_error(400, "rest_missing_callback_param");
    let body = json!({"title": "x", "start_date": "nonsense", "end_date": "nonsense"});
    srv.post(None, "/events", &body).await.expect_error(400, "rest_invalid_param");
    srv.post(None, "/venues", &json!({"venue": "v", "website": "bad"})).await.expect_error(400, "rest_invalid_param");
    srv.post(Some("subscriber"), "/tags", &json!({})).await.expect_error(400, "rest_missing_callback_param");
    srv.delete(Some("subscriber"), "/categories/999").await.expect_error(400, "rest_invalid_param");
    srv.delete(None, "/tags/999").await.expect_error(400, "rest_invalid_param");
    srv.delete(None, "/venues/999999").await.expect_error(400, "rest_invalid_param");
    srv.delete(None, "/organizers/999999").await.expect_error(400, "rest_invalid_param");
    let event = srv.event("E", 3, json!({})).await;
    let path = format!("/events/{}", id(&event));
    srv.patch(None, &path, &json!({"featured": "nope"})).await.expect_error(400, "rest_invalid_param");
    srv.patch(Some("subscriber"), &path, &json!({"start_date": "nope"})).await.expect_error(400, "rest_invalid_param");
    // Events that do not exist: the permission check comes first (401/403), then 404.
    srv.delete(None, "/events/999999").await.expect_error(401, "rest_forbidden");
    srv.delete(Some("subscriber"), "/events/999999").await.expect_error(403, "rest_forbidden");
}

#[tokio::test]
async fn bad_credentials_fail_every_request() {
    let srv = start().await;
    srv.event("Public", 3, json!({})).await;
    for path in ["/events", "", "/doc", "/venues", "/categories", "/events/6"] {
        let resp = srv.req(Method::GET, path).login("admin", "wrong-password").send().await;
        let err = resp.expect_error(401, "incorrect_password");
        assert!(!resp.text.contains("admin-password"), "{path}: {}", resp.text);
        assert_eq!(err["data"]["status"], 401);
        let resp = srv.req(Method::GET, path).login("nobody", "whatever").send().await;
        resp.expect_error(401, "invalid_username");
    }
    let resp = srv.req(Method::POST, "/events").login("admin", "").json(&json!({})).send().await;
    resp.expect_error(401, "incorrect_password");
    // Headers that are not Basic credentials are ignored (anonymous).
    let resp = srv.req(Method::GET, "/events").header("authorization", "Bearer abc").send().await;
    assert_eq!(resp.expect(200)["total"], 1);
    let resp = srv
        .req(Method::POST, "/events")
        .header("authorization", "Bearer abc")
        .json(&json!({"title": "t", "start_date": at(1, 0), "end_date": at(1, 1)}))
        .send()
        .await;
    resp.expect_error(401, "rest_forbidden");
}

#[tokio::test]
async fn custom_users() {
    let config = reference_server::Config {
        users: vec![reference_server::UserSpec {
            name: "boss".into(),
            password: "s3cret".into(),
            role: reference_server::Role::Editor,
        }],
        ..config()
    };
    let srv = start_with(config).await;
    let resp = srv
        .req(Method::POST, "/events")
        .login("boss", "s3cret")
        .json(&json!({"title": "By boss", "start_date": at(1, 0), "end_date": at(1, 1)}))
        .send()
        .await;
    assert_eq!(resp.expect(201)["author"], "1");
    srv.req(Method::GET, "/events").login("admin", "admin-password").send().await.expect_error(401, "invalid_username");
    assert_eq!(srv.server.users().len(), 1);
}

#[tokio::test]
async fn allow_header_lists_what_the_user_may_do() {
    let srv = start().await;
    let event = srv.event("Allowed", 3, json!({})).await;
    let path = format!("/events/{}", id(&event));
    let anon = srv.get(&path).await;
    assert_eq!(anon.header("allow"), Some("GET"));
    let admin = srv.get_as("admin", &path).await;
    let mut methods: Vec<&str> = admin.header("allow").unwrap().split(", ").collect();
    methods.sort_unstable();
    assert_eq!(methods, ["DELETE", "GET", "PATCH", "POST", "PUT"]);
    let contributor = srv.get_as("contributor", &path).await;
    assert_eq!(contributor.header("allow"), Some("GET"));
    let list = srv.get_as("contributor", "/events").await;
    let mut methods: Vec<&str> = list.header("allow").unwrap().split(", ").collect();
    methods.sort_unstable();
    assert_eq!(methods, ["GET", "POST"]);
    assert_eq!(srv.get_as("subscriber", "/events").await.header("allow"), Some("GET"));
}

#[tokio::test]
async fn passwords_never_appear_in_answers() {
    let srv = start().await;
    let event = srv.event("Locked", 3, json!({"password": "hunter2-unique"})).await;
    let path = format!("/events/{}", id(&event));
    let answers = [
        srv.get_as("admin", "/events").await,
        srv.get_as("admin", &format!("{path}?password=hunter2-unique")).await,
        srv.get_as("admin", &format!("{path}?context=edit")).await,
        srv.patch(Some("admin"), &path, &json!({"title": "Locked 2"})).await,
        srv.get_as("admin", "").await,
        srv.delete(Some("admin"), &path).await,
    ];
    for resp in answers {
        assert!(resp.status < 500);
        assert!(!resp.text.contains("hunter2-unique"), "{}", resp.text);
        assert!(!resp.text.contains("admin-password"), "{}", resp.text);
    }
}
