//! The site's pages: the calendar at `/` (and `/fr/`…), its assets, and the journal page at
//! `/__admin/` with `--admin` only. (What the scripts draw is checked in a real browser by
//! `scripts/browser-test.sh`.)

use crate::common;

use common::*;
use reqwest::Method;

#[tokio::test]
async fn the_front_page_is_the_calendar_in_the_addresses_language() {
    let srv = start().await;
    let page = srv.site_req(Method::GET, "/").send().await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("script-src 'self'") && policy.contains("default-src 'none'"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert!(page.text.contains(r#"<html lang="en">"#));
    assert!(page.text.contains(r#"data-api="/wp-json/calendar/events/v1""#));
    assert!(page.text.contains(r#"data-today="2026-11-22""#), "today by the server's clock");
    assert!(!page.text.contains("<script>"), "no inline script");
    for (path, lang) in [("/fr/", "fr"), ("/de", "de"), ("/es/", "es"), ("/en/", "en")] {
        let page = srv.site_req(Method::GET, path).send().await;
        assert_eq!(page.status, 200, "{path}");
        assert!(page.text.contains(&format!(r#"<html lang="{lang}">"#)), "{path}");
        if lang != "en" {
            assert!(page.text.contains(&format!(r#"data-api="/{lang}/wp-json/calendar/events/v1""#)), "{path}");
        }
    }
    let head = srv.site_req(Method::HEAD, "/").send().await;
    assert_eq!(head.status, 200);
    assert!(head.text.is_empty());
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_assets_are_served_and_the_api_keeps_its_addresses() {
    let srv = start().await;
    for (path, kind) in [
        ("/__pages/style.css", "text/css"),
        ("/__pages/calendar.js", "text/javascript"),
        ("/__pages/journal.js", "text/javascript"),
    ] {
        let asset = srv.site_req(Method::GET, path).send().await;
        assert_eq!(asset.status, 200, "{path}");
        assert!(asset.header("content-type").unwrap().starts_with(kind), "{path}");
    }
    // The scripts write text, never markup.
    let script = srv.site_req(Method::GET, "/__pages/calendar.js").send().await.text;
    assert!(
        !script.contains("innerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("document.write")
    );
    let script = srv.site_req(Method::GET, "/__pages/journal.js").send().await.text;
    assert!(
        !script.contains("innerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("document.write")
    );
    // The plain-permalink form and other methods on `/` are still the API's.
    let list = srv.site_req(Method::GET, "/?rest_route=/calendar/events/v1/events").send().await;
    assert_eq!(list.expect(200)["events"], serde_json::json!([]));
    srv.site_req(Method::POST, "/").send().await.expect_error(404, "rest_no_route");
    srv.site_req(Method::GET, "/xx/").send().await.expect_error(404, "rest_no_route");
    srv.site_req(Method::GET, "/__pages/other.js").send().await.expect_error(404, "rest_no_route");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn the_journal_page_needs_admin() {
    let srv = start().await;
    srv.site_req(Method::GET, "/__admin/").send().await.expect_error(404, "rest_no_route");
    srv.server.shutdown().await;
    let srv = start_with(reference_server::Config { admin: true, ..config() }).await;
    for path in ["/__admin/", "/__admin"] {
        let page = srv.site_req(Method::GET, path).send().await;
        assert_eq!(page.status, 200, "{path}");
        assert!(page.text.contains("Request journal"));
        assert!(page.header("content-security-policy").is_some());
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn pages_follow_a_site_address_with_a_path() {
    let mut config = config();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    config.listen = addr;
    config.site_url = Some(format!("http://{addr}/blog"));
    let srv = start_with(config).await;
    let page = srv.raw(Method::GET, &format!("http://{addr}/blog/")).send().await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(r#"data-api="/blog/wp-json/calendar/events/v1""#), "{}", page.text);
    assert!(page.text.contains(r#"href="/blog/__pages/style.css""#));
    srv.server.shutdown().await;
}
