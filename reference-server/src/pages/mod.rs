//! The site's own pages: plain HTML, CSS and a little JavaScript compiled into the binary (no
//! build step, no outside assets).
//!
//! - `GET /` (and `/fr/`, `/de/`, `/es/`, `/en/`): the calendar as a person sees it, a month
//!   view and the upcoming events with their venues, organizers and categories, in the
//!   address's language. The page's script builds it from the public API alone (anonymous
//!   `fetch` calls to the namespace): it is a client of the interface like any other. The
//!   page only tells it where the API is and the site's "today" (the server's clock, so that
//!   `--clock` shows the same month).
//! - `GET /__admin/` (with `--admin`, see `admin`): the request journal, live.
//!
//! Every text the scripts put in the page goes through `textContent` (never `innerHTML`), and
//! the pages forbid inline and outside scripts (`Content-Security-Policy`).

use bytes::Bytes;
use http_body_util::Full;
use hyper::http::{HeaderValue, Method as HttpMethod, Response, StatusCode};

use crate::app::App;
use crate::devtools::DevTools;
use crate::model::Lang;

const CALENDAR_HTML: &str = include_str!("calendar.html");
const JOURNAL_HTML: &str = include_str!("journal.html");

/// The static files, by path.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/__pages/style.css", "text/css; charset=utf-8", include_str!("style.css")),
    ("/__pages/calendar.js", "text/javascript; charset=utf-8", include_str!("calendar.js")),
    ("/__pages/journal.js", "text/javascript; charset=utf-8", include_str!("journal.js")),
];

/// Scripts and styles from the site only; pictures may come from anywhere (event images).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: http: https:; \
                      connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The answer for one of the site's pages (`path` without the site's own path), if it is one.
pub fn answer(
    app: &App,
    _tools: &DevTools,
    method: &HttpMethod,
    path: &str,
    query: Option<&str>,
) -> Option<Response<Full<Bytes>>> {
    if method != HttpMethod::GET && method != HttpMethod::HEAD {
        return None;
    }
    if let Some((_, content_type, body)) = ASSETS.iter().find(|(asset, _, _)| *asset == path) {
        return Some(respond(method, content_type, body.to_string()));
    }
    // `/?rest_route=…` is the API's plain-permalink form, not the front page.
    if query.is_some_and(|query| query.split('&').any(|pair| pair.split('=').next() == Some("rest_route"))) {
        return None;
    }
    let lang = front_page_lang(path)?;
    Some(respond(method, "text/html; charset=utf-8", calendar_page(app, lang)))
}

/// The language of a front-page address: `/` and `/en/` English, `/fr/` French…
fn front_page_lang(path: &str) -> Option<Option<Lang>> {
    if path.is_empty() || path == "/" {
        return Some(None);
    }
    let code = path.strip_prefix('/')?.strip_suffix('/').unwrap_or(&path[1..]);
    Lang::parse(code).map(Some)
}

fn calendar_page(app: &App, lang: Option<Lang>) -> String {
    let site_path = site_path(&app.site_url);
    let lang_segment = lang.map_or(String::new(), |lang| format!("/{}", lang.code()));
    let api = format!("{site_path}{lang_segment}{}/{}", app.config.root, app.config.namespace);
    let today = app.site_zone.utc_to_local(app.clock.now()).date().format("%Y-%m-%d").to_string();
    let code = lang.unwrap_or_default().code();
    CALENDAR_HTML
        .replace("{{lang}}", code)
        .replace("{{api}}", &attribute(&api))
        .replace("{{site}}", &attribute(&site_path))
        .replace("{{today}}", &today)
}

/// The request journal page (served by the admin API).
pub fn journal_page(app: &App) -> String {
    let site_path = site_path(&app.site_url);
    JOURNAL_HTML
        .replace("{{site}}", &attribute(&site_path))
        .replace("{{quirks}}", &attribute(&quirks_line(app.config.quirks)))
}

/// Which of the plugin's quirks the server reproduces, in words, for the journal page.
fn quirks_line(quirks: crate::quirks::Quirks) -> String {
    let names: Vec<&str> = quirks.specs().map(|spec| spec.name).collect();
    match crate::quirks::like_of(quirks) {
        _ if names.is_empty() => "Answering as the reference: no quirk of the plugin is on.".to_string(),
        Some(like) => format!("Answering like {like}, every quirk on: {}.", names.join(", ")),
        None => format!("Quirks of the plugin on: {}.", names.join(", ")),
    }
}

/// `/blog` for `http://host/blog`, or empty.
fn site_path(site_url: &str) -> String {
    site_url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map_or(String::new(), |(_, path)| format!("/{}", path.trim_end_matches('/')))
}

/// Text made safe inside a double-quoted HTML attribute.
fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A page or asset answer with the headers every page carries.
pub fn respond(method: &HttpMethod, content_type: &str, body: String) -> Response<Full<Bytes>> {
    let length = body.len();
    let body = if method == HttpMethod::HEAD { Bytes::new() } else { Bytes::from(body) };
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    for (name, value) in [
        ("content-type", content_type),
        ("content-security-policy", POLICY),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("cache-control", "no-cache"),
    ] {
        headers.insert(name, HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")));
    }
    if method == HttpMethod::HEAD {
        headers.insert("content-length", HeaderValue::from(length));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_page_addresses() {
        assert_eq!(front_page_lang("/"), Some(None));
        assert_eq!(front_page_lang(""), Some(None));
        assert_eq!(front_page_lang("/fr/"), Some(Some(Lang::Fr)));
        assert_eq!(front_page_lang("/de"), Some(Some(Lang::De)));
        assert_eq!(front_page_lang("/xx/"), None);
        assert_eq!(front_page_lang("/events"), None);
        assert_eq!(front_page_lang("/fr/wp-json"), None);
    }

    #[test]
    fn the_journal_page_names_the_quirks_that_are_on() {
        let page = |quirks| JOURNAL_HTML.replace("{{quirks}}", &attribute(&quirks_line(quirks)));
        assert!(page(Default::default()).contains(">Answering as the reference: no quirk of the plugin is on.<"));
        let like = page(crate::quirks::Quirks::like("plugin-6.17.2").unwrap());
        assert!(like.contains(">Answering like plugin-6.17.2, every quirk on: tags-first-only, "), "{like}");
        let one = page(crate::quirks::Quirks::default().with_name("draft-no-slug").unwrap());
        assert!(one.contains(">Quirks of the plugin on: draft-no-slug.<"), "{one}");
    }

    #[test]
    fn attributes_are_escaped() {
        assert_eq!(attribute(r#"/a"><script>&'"#), "/a&quot;&gt;&lt;script&gt;&amp;&#39;");
    }
}
