//! The `--demo` calendar, seen over HTTP.

use reference_server::{serve, Config};
use serde_json::Value;

async fn get(client: &reqwest::Client, api: &str, path: &str) -> (u16, Value) {
    let response = client.get(format!("{api}{path}")).send().await.expect("request");
    let status = response.status().as_u16();
    let body = response.json::<Value>().await.expect("JSON body");
    (status, body)
}

fn ids(body: &Value, key: &str) -> Vec<u64> {
    body[key].as_array().expect(key).iter().map(|item| item["id"].as_u64().expect("id")).collect()
}

#[tokio::test]
async fn demo_calendar_is_browsable() {
    let server = serve(Config { demo: true, ..Config::ephemeral() }).await.expect("server starts");
    let api = server.api_url().to_string();
    let client = reqwest::Client::new();

    // A few dozen upcoming events, more than one page of them.
    let (status, events) = get(&client, &api, "/events").await;
    assert_eq!(status, 200, "{events}");
    assert!(events["total"].as_u64().unwrap() >= 30, "total {}", events["total"]);
    assert!(events["next_rest_url"].is_string(), "next_rest_url missing");

    // Each language has its own events, and only its own.
    let mut seen = Vec::new();
    for lang in ["en", "fr", "de", "es"] {
        let (status, list) = get(&client, &api, &format!("/events?per_page=50&multilingual_language={lang}")).await;
        assert_eq!(status, 200, "{list}");
        let found = ids(&list, "events");
        assert!(!found.is_empty(), "no {lang} events");
        assert!(found.iter().all(|id| !seen.contains(id)), "{lang} list shares events with another language");
        seen.extend(&found);
        if lang == "fr" {
            // Every French event is found by its slug in French.
            for event in list["events"].as_array().unwrap() {
                let slug = event["slug"].as_str().unwrap();
                let (status, single) =
                    get(&client, &api, &format!("/events/by-slug/{slug}?multilingual_language=fr")).await;
                assert_eq!((status, &single["id"]), (200, &event["id"]), "{slug}");
            }
        }
    }

    // Venues, organizers and terms.
    for (path, key) in [("/venues", "venues"), ("/organizers", "organizers")] {
        let (status, list) = get(&client, &api, path).await;
        assert_eq!(status, 200, "{list}");
        assert!(!ids(&list, key).is_empty(), "no {key}");
    }
    let (status, categories) = get(&client, &api, "/categories?hide_empty=false&per_page=50").await;
    assert_eq!(status, 200, "{categories}");
    assert!(categories["total"].as_u64().unwrap() >= 8, "categories {}", categories["total"]);
    let (_, tags) = get(&client, &api, "/tags").await;
    assert!(!ids(&tags, "tags").is_empty(), "no tags");

    // Time zones: New York events show its abbreviation.
    let all = events["total"].as_u64().unwrap();
    let (_, every) = get(&client, &api, &format!("/events?per_page={}", all.min(50))).await;
    let list = every["events"].as_array().unwrap();
    let new_york = list.iter().find(|e| e["timezone"] == "America/New_York").expect("an event in New York");
    let abbr = new_york["timezone_abbr"].as_str().unwrap();
    assert!(abbr == "EST" || abbr == "EDT", "abbreviation {abbr}");
    assert!(list.iter().any(|e| e["timezone"] == "UTC+5:30"), "an event at a fixed offset");

    // Geolocation finds events at venues with coordinates.
    let (status, located) = get(&client, &api, "/events?geoloc=true").await;
    assert_eq!(status, 200, "{located}");
    assert!(!ids(&located, "events").is_empty(), "geoloc=true found nothing");

    server.shutdown().await;
}
