//! Who may read what, however an item is reached: directly, embedded in an event, linked by a
//! write, matched as a duplicate, through a list filter or a term list (issue 9, S1–S7).

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

/// A venue the public may not read, with details worth hiding.
async fn secret_venue(srv: &Srv, status: &str) -> Value {
    srv.venue("Secret HQ", json!({"status": status, "address": "1 Hidden Lane", "phone": "555-0199"})).await
}

fn mentions_secret(body: &Value) -> bool {
    let text = body.to_string();
    text.contains("Hidden Lane") || text.contains("555-0199") || text.contains("Secret HQ")
}

// ----- S1: linking and embedding obey the read rules -----

#[tokio::test]
async fn s1_linking_a_venue_the_caller_may_not_read_is_refused() {
    let srv = start().await;
    for status in ["draft", "private", "pending"] {
        let venue = secret_venue(&srv, status).await;
        for user in ["author", "contributor"] {
            let body = json!({"title": "Mine", "start_date": at(3, 0), "end_date": at(3, 1), "venue": id(&venue)});
            let resp = srv.post(Some(user), "/events", &body).await;
            let err = resp.expect_error(400, "rest_invalid_param");
            assert_eq!(err["data"]["params"]["venue"], "Invalid parameter.", "{user} links a {status} venue");
            assert!(!mentions_secret(&resp.json), "{}", resp.text);
            // The `{id}` form and an update are refused alike.
            let mine = srv.event_as(user, "Own event", 3, json!({})).await;
            let resp =
                srv.patch(Some(user), &format!("/events/{}", id(&mine)), &json!({"venue": {"id": id(&venue)}})).await;
            resp.expect_error(400, "rest_invalid_param");
            assert!(!mentions_secret(&resp.json), "{}", resp.text);
        }
    }
}

#[tokio::test]
async fn s1_linking_a_trashed_venue_or_a_draft_organizer_of_someone_else_is_refused() {
    let srv = start().await;
    let venue = srv.venue("Gone Hall", json!({"address": "1 Hidden Lane"})).await;
    srv.delete(Some("admin"), &format!("/venues/{}", id(&venue))).await.expect(200);
    let organizer = srv.organizer("Secret HQ", json!({"status": "draft", "phone": "555-0199"})).await;
    let base = json!({"title": "Mine", "start_date": at(3, 0), "end_date": at(3, 1)});
    let mut with_venue = base.clone();
    merge(&mut with_venue, json!({"venue": id(&venue)}));
    let resp = srv.post(Some("author"), "/events", &with_venue).await;
    resp.expect_error(400, "rest_invalid_param");
    let mut with_organizer = base.clone();
    merge(&mut with_organizer, json!({"organizer": [id(&organizer)]}));
    let resp = srv.post(Some("contributor"), "/events", &with_organizer).await;
    let err = resp.expect_error(400, "rest_invalid_param");
    assert_eq!(err["data"]["params"]["organizer"], "Invalid parameter.");
    assert!(!mentions_secret(&resp.json), "{}", resp.text);
}

#[tokio::test]
async fn s1_an_embedded_venue_or_organizer_shows_only_to_those_who_may_read_it() {
    let srv = start().await;
    let venue = secret_venue(&srv, "draft").await;
    let organizer = srv.organizer("Secret HQ", json!({"status": "draft", "phone": "555-0199"})).await;
    let event = srv.event("Public gig", 3, json!({"venue": id(&venue), "organizer": [id(&organizer)]})).await;
    let path = format!("/events/{}", id(&event));
    for user in [None, Some("subscriber"), Some("author"), Some("contributor")] {
        let resp = srv.req(Method::GET, &path).maybe_user(user).send().await;
        let body = resp.expect(200);
        assert_eq!(body["venue"], json!([]), "{user:?}");
        assert_eq!(body["organizer"], json!([]), "{user:?}");
        assert!(!mentions_secret(body), "{user:?}: {}", resp.text);
        let list = srv.req(Method::GET, "/events").maybe_user(user).send().await;
        assert!(!mentions_secret(&list.json), "{user:?} list: {}", list.text);
    }
    // Editors may read the draft venue, so they see it embedded.
    let body = srv.get_as("editor", &path).await.json;
    assert_eq!(body["venue"]["id"], id(&venue));
    assert_eq!(body["organizer"][0]["id"], id(&organizer));
}

#[tokio::test]
async fn s1_a_trashed_venue_shows_only_to_those_who_may_read_it() {
    let srv = start().await;
    let venue = srv.venue("Gone Hall", json!({"address": "1 Hidden Lane"})).await;
    let event = srv.event("Public gig", 3, json!({"venue": id(&venue)})).await;
    srv.delete(Some("admin"), &format!("/venues/{}", id(&venue))).await.expect(200);
    let path = format!("/events/{}", id(&event));
    assert_eq!(srv.get(&path).await.json["venue"], json!([]));
    // The recorded site embeds a trashed venue for those who may read it.
    assert_eq!(srv.get_as("admin", &path).await.json["venue"]["id"], id(&venue));
}

// ----- S2: duplicate detection matches only readable items -----

#[tokio::test]
async fn s2_duplicate_detection_never_returns_an_item_the_caller_may_not_read() {
    let srv = start().await;
    let venue = secret_venue(&srv, "draft").await;
    let organizer = srv.organizer("Secret Org", json!({"status": "draft", "phone": "555-0199"})).await;
    let resp = srv.post(Some("contributor"), "/venues", &json!({"venue": "secret hq"})).await;
    let body = resp.expect(201);
    assert_ne!(id(body), id(&venue));
    assert!(!resp.text.contains("Hidden Lane"), "{}", resp.text);
    let resp = srv.post(Some("author"), "/organizers", &json!({"organizer": "SECRET ORG"})).await;
    assert_ne!(id(resp.expect(201)), id(&organizer));
    assert!(!resp.text.contains("555-0199"), "{}", resp.text);
    // Inline data in an event write, too.
    let body = json!({"title": "Gig", "start_date": at(3, 0), "end_date": at(3, 1),
        "venue": {"venue": "Secret HQ"}, "organizer": [{"organizer": "Secret Org"}]});
    let resp = srv.post(Some("contributor"), "/events", &body).await;
    let event = resp.expect(201);
    assert_ne!(event["venue"]["id"], id(&venue));
    assert_ne!(event["organizer"][0]["id"], id(&organizer));
    assert!(!resp.text.contains("Hidden Lane") && !resp.text.contains("555-0199"), "{}", resp.text);
    // An editor may read the draft, so the editor's request matches it.
    let resp = srv.post(Some("editor"), "/venues", &json!({"venue": "secret hq"})).await;
    assert_eq!(id(resp.expect(201)), id(&venue));
}

// ----- S3: protected content is not searchable by those who cannot read it -----

#[tokio::test]
async fn s3_list_filters_do_not_select_a_protected_event_on_what_its_password_hides() {
    let srv = start().await;
    let venue = srv.venue("Open Hall", json!({})).await;
    let organizer = srv.organizer("Open Org", json!({})).await;
    let category = srv.category("Open Cat", json!({})).await;
    let tag = srv.tag("Open Tag", json!({})).await;
    let event = srv
        .event(
            "Members night",
            3,
            json!({"description": "the zebra code", "password": "pw", "featured": true, "venue": id(&venue),
                "organizer": [id(&organizer)], "categories": [id(&category)], "tags": [id(&tag)]}),
        )
        .await;
    let filters = [
        "search=zebra".to_string(),
        "search=members%20zebra".to_string(),
        "featured=true".to_string(),
        format!("venue={}", id(&venue)),
        format!("organizer={}", id(&organizer)),
        format!("categories={}", id(&category)),
        format!("tags={}", id(&tag)),
    ];
    for filter in &filters {
        for user in [None, Some("subscriber"), Some("author"), Some("contributor")] {
            let resp = srv.req(Method::GET, &format!("/events?{filter}")).maybe_user(user).send().await;
            assert_eq!(resp.expect(200)["total"], 0, "{filter} as {user:?}: {}", resp.text);
        }
        // With the password the event is revealed, and the filters see it; so do those who
        // may edit it (they may read it with context=edit), though the list still blanks it.
        let ids = srv.list_ids(None, &format!("/events?{filter}&password=pw"), "events").await;
        assert_eq!(ids, vec![id(&event)], "{filter} with the password");
        let ids = srv.list_ids(Some("editor"), &format!("/events?{filter}"), "events").await;
        assert_eq!(ids, vec![id(&event)], "{filter} as an editor");
    }
    // Unfiltered, it is listed (blanked), as the plugin does; a search for its title, which
    // the list shows anyway, finds it.
    assert_eq!(srv.list_ids(None, "/events", "events").await, vec![id(&event)]);
    assert_eq!(srv.list_ids(None, "/events?search=members", "events").await, vec![id(&event)]);
}

// ----- S4: a contributor's statuses are draft and pending -----

#[tokio::test]
async fn s4_a_contributor_cannot_make_anything_private() {
    let srv = start().await;
    for (collection, body) in [
        ("events", json!({"title": "C", "start_date": at(3, 0), "end_date": at(3, 1), "status": "private"})),
        ("venues", json!({"venue": "C venue", "status": "private"})),
        ("organizers", json!({"organizer": "C organizer", "status": "private"})),
    ] {
        let created = srv.create("contributor", collection, body).await;
        assert_eq!(created["status"], "pending", "{collection} create");
        let draft = srv
            .post(Some("contributor"), &format!("/{collection}/{}", id(&created)), &json!({"status": "draft"}))
            .await;
        assert_eq!(draft.expect(200)["status"], "draft");
        let resp = srv
            .patch(Some("contributor"), &format!("/{collection}/{}", id(&created)), &json!({"status": "private"}))
            .await;
        assert_eq!(resp.expect(200)["status"], "pending", "{collection} update: {}", resp.text);
    }
    // Authors may publish, so they may make their posts private.
    let created = srv.create("author", "venues", json!({"venue": "A venue", "status": "private"})).await;
    assert_eq!(created["status"], "private");
}

// ----- S5: term lists by post follow the event's read rules -----

#[tokio::test]
async fn s5_terms_of_an_event_the_caller_may_not_read_are_not_listed() {
    let srv = start().await;
    let category = srv.category("Listed Cat", json!({})).await;
    let tag = srv.tag("Listed Tag", json!({})).await;
    let terms = json!({"categories": [id(&category)], "tags": [id(&tag)]});
    let mut cases = Vec::new();
    for status in ["draft", "private", "pending"] {
        let mut extra = terms.clone();
        merge(&mut extra, json!({"status": status}));
        cases.push((status, srv.event("Hidden", 3, extra).await));
    }
    let mut extra = terms.clone();
    merge(&mut extra, json!({"password": "pw"}));
    cases.push(("protected", srv.event("Protected", 3, extra).await));
    let trashed = srv.event("Trashed", 3, terms.clone()).await;
    srv.delete(Some("admin"), &format!("/events/{}", id(&trashed))).await.expect(200);
    cases.push(("trash", trashed));
    for (what, event) in &cases {
        for (collection, param) in [("categories", "post"), ("tags", "event"), ("categories", "event")] {
            let path = format!("/{collection}?{param}={}&hide_empty=false", id(event));
            for user in [None, Some("subscriber"), Some("contributor")] {
                let resp = srv.req(Method::GET, &path).maybe_user(user).send().await;
                let body = resp.expect(200);
                assert_eq!(body["total"], 0, "{what} {path} as {user:?}: {}", resp.text);
            }
        }
    }
    // A published event's terms are listed for everyone.
    let open = srv.event("Open", 3, terms).await;
    let ids = srv.list_ids(None, &format!("/tags?event={}&hide_empty=false", id(&open)), "tags").await;
    assert_eq!(ids, vec![id(&tag)]);
}

// ----- S6: who may create terms, on both paths -----

#[tokio::test]
async fn s6_an_event_write_creates_terms_only_for_those_who_may_manage_them() {
    let srv = start().await;
    let event = |title: &str, extra: Value| {
        let mut body = json!({"title": title, "start_date": at(3, 0), "end_date": at(3, 1)});
        merge(&mut body, extra);
        body
    };
    // (user, field, may create)
    let table = [
        ("contributor", "categories", false),
        ("contributor", "tags", false),
        ("author", "tags", false),
        ("author", "categories", true),
        ("editor", "tags", true),
    ];
    for (n, (user, field, allowed)) in table.into_iter().enumerate() {
        let name = format!("Brand New {n}");
        let resp = srv.post(Some(user), "/events", &event("E", json!({field: [name.clone()]}))).await;
        let listed = srv.list_ids(None, &format!("/{field}?hide_empty=false&search={}", encode(&name)), field).await;
        if allowed {
            resp.expect(201);
            assert_eq!(listed.len(), 1, "{user} {field}");
        } else {
            resp.expect_error(403, "rest_forbidden");
            assert!(listed.is_empty(), "{user} created a term in {field}");
            // And through an update of their own event.
            let mine = srv.event_as(user, "Own", 3, json!({})).await;
            let resp = srv.patch(Some(user), &format!("/events/{}", id(&mine)), &json!({field: [name.clone()]})).await;
            resp.expect_error(403, "rest_forbidden");
        }
    }
    // Existing terms may be assigned by name by anyone who may write the event.
    srv.category("Shared Cat", json!({})).await;
    srv.tag("Shared Tag", json!({})).await;
    let resp = srv
        .post(Some("contributor"), "/events", &event("E", json!({"categories": ["Shared Cat"], "tags": "Shared Tag"})))
        .await;
    let body = resp.expect(201);
    assert_eq!(body["categories"][0]["name"], "Shared Cat");
    assert_eq!(body["tags"][0]["name"], "Shared Tag");
}

// ----- S7: a trashed item keeps the rights of the status it had -----

#[tokio::test]
async fn s7_a_contributor_cannot_edit_or_restore_a_published_then_trashed_item() {
    let srv = start().await;
    for collection in ["events", "venues", "organizers"] {
        let body = match collection {
            "events" => json!({"title": "Draft", "start_date": at(3, 0), "end_date": at(3, 1)}),
            "venues" => json!({"venue": "Draft venue"}),
            _ => json!({"organizer": "Draft organizer"}),
        };
        let item = srv.create("contributor", collection, body).await;
        let path = format!("/{collection}/{}", id(&item));
        srv.put(Some("editor"), &path, &json!({"status": "publish"})).await.expect(200);
        srv.delete(Some("editor"), &path).await.expect(200);
        srv.put(Some("contributor"), &path, &json!({"description": "mine again"}))
            .await
            .expect_error(403, "rest_forbidden");
        srv.put(Some("contributor"), &path, &json!({"status": "draft"})).await.expect_error(403, "rest_forbidden");
        // A contributor's own draft, trashed, stays theirs.
        let body = match collection {
            "events" => json!({"title": "Own", "start_date": at(3, 0), "end_date": at(3, 1)}),
            "venues" => json!({"venue": "Own venue"}),
            _ => json!({"organizer": "Own organizer"}),
        };
        let own = srv.create("contributor", collection, body).await;
        let own_path = format!("/{collection}/{}", id(&own));
        srv.delete(Some("contributor"), &own_path).await.expect(200);
        let restored = srv.put(Some("contributor"), &own_path, &json!({"status": "draft"})).await;
        assert_eq!(restored.expect(200)["status"], "draft");
    }
}
