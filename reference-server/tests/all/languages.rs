//! Languages (Part A 4–8): the language parameter, language base addresses, per-language lists
//! and slugs, reads by ID across languages.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::json;

fn event_body(title: &str) -> serde_json::Value {
    json!({"title": title, "start_date": at(3, 0), "end_date": at(3, 2)})
}

#[tokio::test]
async fn unknown_language_is_an_invalid_parameter() {
    let srv = start().await;
    let event = srv.event("E", 3, json!({})).await;
    for path in [
        "/events?multilingual_language=xx".to_string(),
        "/events?multilingual_language=EN".to_string(),
        format!("/events/{}?multilingual_language=xx", id(&event)),
        "/venues?multilingual_language=it".to_string(),
        "/categories?multilingual_language=".to_string(),
    ] {
        let resp = srv.get(&path).await;
        let err = resp.expect_error(400, "rest_invalid_param");
        assert!(err["data"]["params"].get("multilingual_language").is_some(), "{path}: {}", resp.text);
        assert_eq!(err["message"], "Invalid parameter(s): multilingual_language");
    }
    let mut body = event_body("Bad language");
    body["multilingual_language"] = json!("klingon");
    srv.post(Some("admin"), "/events", &body).await.expect_error(400, "rest_invalid_param");
    for lang in ["en", "fr", "de", "es"] {
        assert_eq!(srv.get(&format!("/events?multilingual_language={lang}")).await.status, 200, "{lang}");
    }
}

#[tokio::test]
async fn unknown_language_on_the_index_and_doc() {
    let srv = start().await;
    for path in ["?multilingual_language=xx", "/doc?multilingual_language=xx"] {
        let resp = srv.get(path).await;
        let err = resp.expect_error(400, "rest_invalid_param");
        assert!(err["data"]["params"].get("multilingual_language").is_some(), "{path}");
    }
}

#[tokio::test]
async fn items_belong_to_the_language_they_were_created_in() {
    let srv = start().await;
    let english = srv.event("English event", 3, json!({})).await;
    let by_param = srv.post(Some("admin"), "/events?multilingual_language=fr", &event_body("Par paramètre")).await;
    let by_param = by_param.expect(201).clone();
    let mut body = event_body("Dans le corps");
    body["multilingual_language"] = json!("fr");
    let in_body = srv.create("admin", "events", body).await;
    let by_base = srv
        .site_req(Method::POST, "/fr/wp-json/calendar/events/v1/events")
        .user("admin")
        .json(&event_body("Par adresse"))
        .send()
        .await;
    let by_base = by_base.expect(201).clone();
    assert!(
        by_base["rest_url"].as_str().unwrap().contains("/fr/wp-json/calendar/events/v1/events/"),
        "{}",
        by_base["rest_url"]
    );
    let german = srv
        .site_req(Method::POST, "/de/wp-json/calendar/events/v1/events")
        .user("admin")
        .json(&event_body("Deutsch"))
        .send()
        .await;
    let german = german.expect(201).clone();

    let french = sorted(vec![id(&by_param), id(&in_body), id(&by_base)]);
    assert_eq!(srv.list_ids(None, "/events", "events").await, [id(&english)]);
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=en", "events").await, [id(&english)]);
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=fr", "events").await, french);
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=de", "events").await, [id(&german)]);
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=es", "events").await, Vec::<u64>::new());
    let fr_list = srv.site_req(Method::GET, "/fr/wp-json/calendar/events/v1/events").send().await;
    assert_eq!(ids(&fr_list.expect(200)["events"]), french);
    assert_eq!(fr_list.json["total"], 3);
    // The parameter wins over the base address.
    let resp = srv.site_req(Method::GET, "/fr/wp-json/calendar/events/v1/events?multilingual_language=de").send().await;
    assert_eq!(ids(&resp.expect(200)["events"]), [id(&german)]);
    // `/en/` is the default language.
    let en = srv.site_req(Method::GET, "/en/wp-json/calendar/events/v1/events").send().await;
    assert_eq!(ids(&en.expect(200)["events"]), [id(&english)]);

    // Reads, updates and deletes by ID find any language.
    for event in [&english, &by_param, &german] {
        assert_eq!(srv.get(&format!("/events/{}", id(event))).await.expect(200)["id"], id(event));
        let fr =
            srv.site_req(Method::GET, &format!("/fr/wp-json/calendar/events/v1/events/{}", id(event))).send().await;
        assert_eq!(fr.expect(200)["id"], id(event));
    }
    let resp = srv.patch(Some("admin"), &format!("/events/{}", id(&german)), &json!({"title": "Deutsch 2"})).await;
    assert_eq!(resp.expect(200)["title"], "Deutsch 2");
    // Updates do not change the language.
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=de", "events").await, [id(&german)]);
    let resp = srv
        .patch(Some("admin"), &format!("/events/{}?multilingual_language=es", id(&german)), &json!({"title": "x"}))
        .await;
    resp.expect(200);
    assert_eq!(srv.list_ids(None, "/events?multilingual_language=de", "events").await, [id(&german)]);
    assert_eq!(srv.delete(Some("admin"), &format!("/events/{}", id(&by_param))).await.expect(200)["status"], "trash");
}

#[tokio::test]
async fn slugs_are_per_language_and_by_slug_looks_within_the_language() {
    let srv = start().await;
    let en = srv.event("Fete", 3, json!({})).await;
    let fr = srv.post(Some("admin"), "/events?multilingual_language=fr", &event_body("Fete")).await;
    let fr = fr.expect(201).clone();
    assert_eq!(en["slug"], "fete");
    assert_eq!(fr["slug"], "fete", "slugs are unique per language only");
    assert_eq!(srv.get("/events/by-slug/fete").await.expect(200)["id"], id(&en));
    assert_eq!(srv.get("/events/by-slug/fete?multilingual_language=fr").await.expect(200)["id"], id(&fr));
    let resp = srv.site_req(Method::GET, "/fr/wp-json/calendar/events/v1/events/by-slug/fete").send().await;
    assert_eq!(resp.expect(200)["id"], id(&fr));
    let only_fr = srv.post(Some("admin"), "/events?multilingual_language=fr", &event_body("Seulement")).await;
    only_fr.expect(201);
    srv.get("/events/by-slug/seulement").await.expect_error(400, "rest_invalid_param");
    srv.get("/events/by-slug/seulement?multilingual_language=de").await.expect_error(400, "rest_invalid_param");
    // Updates by slug act within the language too.
    let resp = srv.patch(Some("admin"), "/events/by-slug/fete?multilingual_language=fr", &json!({"cost": "5"})).await;
    assert_eq!(resp.expect(200)["id"], id(&fr));
    assert_eq!(srv.get(&format!("/events/{}", id(&en))).await.json["cost"], "");
}

#[tokio::test]
async fn venues_organizers_and_terms_by_language() {
    let srv = start().await;
    let en_venue = srv.venue("Salle", json!({})).await;
    let fr_venue = srv.post(Some("admin"), "/venues?multilingual_language=fr", &json!({"venue": "Salle"})).await;
    let fr_venue = fr_venue.expect(201).clone();
    assert_ne!(id(&fr_venue), id(&en_venue), "duplicate detection stays within a language");
    assert_eq!(srv.list_ids(None, "/venues", "venues").await, [id(&en_venue)]);
    assert_eq!(srv.list_ids(None, "/venues?multilingual_language=fr", "venues").await, [id(&fr_venue)]);
    assert_eq!(srv.get("/venues/by-slug/salle?multilingual_language=fr").await.expect(200)["id"], id(&fr_venue));
    assert_eq!(srv.get(&format!("/venues/{}", id(&fr_venue))).await.expect(200)["id"], id(&fr_venue));

    let org = srv
        .site_req(Method::POST, "/es/wp-json/calendar/events/v1/organizers")
        .user("admin")
        .json(&json!({"organizer": "Org"}))
        .send()
        .await;
    let org = org.expect(201).clone();
    assert_eq!(srv.list_ids(None, "/organizers?multilingual_language=es", "organizers").await, [id(&org)]);
    assert_eq!(srv.list_ids(None, "/organizers", "organizers").await, Vec::<u64>::new());

    let en_cat = srv.category("Musique", json!({})).await;
    let fr_cat = srv.post(Some("admin"), "/categories?multilingual_language=fr", &json!({"name": "Musique"})).await;
    let fr_cat = fr_cat.expect(201).clone();
    assert_ne!(id(&fr_cat), id(&en_cat), "the same name in another language is not a duplicate");
    assert_eq!(srv.list_ids(None, "/categories?hide_empty=false", "categories").await, [id(&en_cat)]);
    assert_eq!(
        srv.list_ids(None, "/categories?hide_empty=false&multilingual_language=fr", "categories").await,
        [id(&fr_cat)]
    );
    assert_eq!(srv.get(&format!("/categories/{}", id(&fr_cat))).await.expect(200)["name"], "Musique");

    // Linking across languages is allowed.
    let event = srv
        .event("Cross", 3, json!({"venue": id(&fr_venue), "organizer": [id(&org)], "categories": [id(&fr_cat)]}))
        .await;
    assert_eq!(event["venue"]["id"], id(&fr_venue));
    assert_eq!(event["organizer"][0]["id"], id(&org));
    assert_eq!(event["categories"][0]["id"], id(&fr_cat));
}

#[tokio::test]
async fn index_and_doc_under_every_base_address() {
    let srv = start().await;
    let en = srv.get("").await;
    let en_routes: Vec<String> = keys(&en.expect(200)["routes"]);
    for lang in ["fr", "de", "es", "en"] {
        let resp = srv.site_req(Method::GET, &format!("/{lang}/wp-json/calendar/events/v1")).send().await;
        assert_eq!(keys(&resp.expect(200)["routes"]), en_routes, "{lang}");
        let doc = srv.site_req(Method::GET, &format!("/{lang}/wp-json/calendar/events/v1/doc")).send().await;
        let mut paths = keys(&doc.expect(200)["paths"]);
        paths.sort();
        assert_eq!(paths.len(), 15, "{lang}");
    }
}
