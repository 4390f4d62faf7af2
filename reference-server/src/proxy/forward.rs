//! Sending a request on to the real site and reading its answer, within bounds: the answer's
//! size, the time allowed, no redirect followed (the client sees the site's own answer).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use hyper::http::{HeaderMap, HeaderName, Method as HttpMethod};

/// The most bytes of an answer the proxy reads and passes on; a larger one is refused (502).
pub const MAX_ANSWER_BYTES: usize = 32 * 1024 * 1024;
/// How long the site has to answer a request, body included.
pub const SITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The request headers passed on to the site: what decides how the interface answers
/// (credentials, the body's type, languages, conditional requests, the method override). Others
/// (hop-by-hop headers, `Host`, `Accept-Encoding`: the proxy reads answers as they are) are not.
const FORWARDED: &[&str] = &[
    "authorization",
    "content-type",
    "accept",
    "accept-language",
    "cookie",
    "x-wp-nonce",
    "x-http-method-override",
    "if-match",
    "if-none-match",
    "if-modified-since",
    "if-unmodified-since",
    "origin",
    "user-agent",
    "via",
];

/// Answer headers not passed back: hop-by-hop ones, and the length (the proxy's own framing).
const NOT_RETURNED: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
];

/// The real site.
pub struct Site {
    client: reqwest::Client,
    /// Its `{base_url}`, without a trailing slash.
    base: String,
    /// The `Via` value this proxy adds to what it forwards (`1.1 reference-server-…`, a token
    /// of its own): a request that comes back with it has gone round a loop.
    via: String,
}

/// The site's answer, read whole.
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// Why there is no answer to pass on.
#[derive(Debug)]
pub enum Failure {
    /// The site could not be reached, or did not answer in time.
    Unreachable(String),
    /// The answer was larger than `MAX_ANSWER_BYTES`.
    TooLarge,
}

impl Site {
    /// The site at `base` (an `http://` URL; `https://` with the `tls` feature), which may not
    /// be `own`, the address the server listens on (every request would come back to it).
    pub fn new(base: &str, own: SocketAddr) -> Result<Site, String> {
        let base = checked_base(base)?;
        if names_address(&base, own) {
            return Err(format!(
                "--proxy-to {base} names this server's own address ({own}): every request would come back to it"
            ));
        }
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(SITE_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|error| format!("--proxy-to: cannot make an HTTP client: {error}"))?;
        let token = std::hash::BuildHasher::hash_one(&std::collections::hash_map::RandomState::new(), own);
        Ok(Site { client, base, via: format!("1.1 reference-server-{token:016x}") })
    }

    /// Whether a request has already gone through this proxy (its `Via` names it).
    pub fn came_back(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all("via")
            .iter()
            .any(|value| value.as_bytes().windows(self.via.len()).any(|w| w == self.via.as_bytes()))
    }

    /// The site's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends `method` `{base}{rest}` (for a language, `{site}/{lang}{root}{rest}`, the root
    /// being the base's last segment) with the forwarded headers and the body; reads the answer.
    pub async fn send(
        &self,
        method: &HttpMethod,
        (lang, rest): (Option<&str>, &str),
        headers: &HeaderMap,
        body: Bytes,
    ) -> Result<Answer, Failure> {
        let url = match (lang, split_root(&self.base)) {
            (Some(lang), Some((site, root))) => format!("{site}/{lang}/{root}{rest}"),
            (Some(lang), None) => format!("{}/{lang}{rest}", self.base),
            (None, _) => format!("{}{rest}", self.base),
        };
        let mut request = self.client.request(method.clone(), url);
        for name in FORWARDED {
            for value in headers.get_all(*name) {
                request = request.header(*name, value.clone());
            }
        }
        request = request.header("via", self.via.as_str());
        if !body.is_empty() {
            request = request.body(body);
        }
        let response = request.send().await.map_err(unreachable)?;
        let status = response.status().as_u16();
        let mut kept = HeaderMap::new();
        for (name, value) in response.headers() {
            if !NOT_RETURNED.contains(&name.as_str()) {
                kept.append(HeaderName::clone(name), value.clone());
            }
        }
        let body = read_bounded(response).await?;
        Ok(Answer { status, headers: kept, body })
    }
}

/// The base URL as given, checked: http(s), no credentials, no query; without a trailing slash.
fn checked_base(base: &str) -> Result<String, String> {
    let base = base.trim().trim_end_matches('/');
    let lower = base.to_ascii_lowercase();
    let rest = match lower.split_once("://") {
        Some(("http", rest)) => rest,
        Some(("https", rest)) if cfg!(feature = "tls") => rest,
        Some(("https", _)) => {
            return Err(
                "--proxy-to: https needs a build with TLS (cargo build -p reference-server --features tls)".into()
            )
        }
        _ => return Err(format!("--proxy-to must be an http:// or https:// URL, not {base:?}")),
    };
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty() || host.contains('@') || base.contains(['?', '#']) || base.chars().any(char::is_control) {
        return Err(
            "--proxy-to: a URL with a host, without credentials, query or fragment (the site's base URL)".into()
        );
    }
    reqwest::Url::parse(base).map_err(|error| format!("--proxy-to: not a URL ({error})"))?;
    Ok(base.to_string())
}

/// Whether the base URL's host and port are `own` (the same address, or a loopback or
/// unspecified one on both sides, with the same port). Host names other than `localhost` are
/// not resolved: the `Via` header cuts a loop through them.
fn names_address(base: &str, own: SocketAddr) -> bool {
    let Ok(url) = reqwest::Url::parse(base) else { return false };
    let host = url.host_str().unwrap_or("").trim_start_matches('[').trim_end_matches(']');
    let ip = match host.parse::<IpAddr>() {
        Ok(ip) => ip,
        Err(_) if host.eq_ignore_ascii_case("localhost") => IpAddr::from([127, 0, 0, 1]),
        Err(_) => return false,
    };
    let near = |a: IpAddr| a.is_loopback() || a.is_unspecified();
    url.port_or_known_default() == Some(own.port()) && (ip == own.ip() || (near(ip) && near(own.ip())))
}

/// The base URL as the site's address and the REST root's last segment
/// (`http://host/blog`, `wp-json`); `None` for a base without a path.
fn split_root(base: &str) -> Option<(&str, &str)> {
    let path_at = base.find("://").map(|at| at + 3)?;
    base[path_at..].contains('/').then(|| base.rsplit_once('/')).flatten()
}

/// Why the site gave no answer, in words that name no credential.
fn unreachable(error: reqwest::Error) -> Failure {
    let what = if error.is_timeout() {
        format!("no answer within {} seconds", SITE_TIMEOUT.as_secs())
    } else if error.is_connect() {
        "the connection failed".to_string()
    } else {
        "the exchange failed".to_string()
    };
    Failure::Unreachable(what)
}

/// The answer's body, refused past `MAX_ANSWER_BYTES`.
async fn read_bounded(mut response: reqwest::Response) -> Result<Bytes, Failure> {
    if response.content_length().is_some_and(|length| length > MAX_ANSWER_BYTES as u64) {
        return Err(Failure::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Err(Failure::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_url_is_checked() {
        assert_eq!(checked_base("http://127.0.0.1:9/wp-json/").unwrap(), "http://127.0.0.1:9/wp-json");
        for bad in ["ftp://x/wp-json", "http://user:secret@x/wp-json", "http:///wp-json", "http://x/wp-json?a=1", "x"] {
            assert!(checked_base(bad).is_err(), "{bad}");
        }
        assert_eq!(split_root("http://h:1/blog/wp-json"), Some(("http://h:1/blog", "wp-json")));
        assert_eq!(split_root("http://h:1"), None);
        // The refusal does not repeat a credential.
        assert!(!checked_base("http://user:secret@x/").unwrap_err().contains("secret"));
    }

    #[test]
    fn its_own_address_is_named() {
        let own: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for base in [
            "http://127.0.0.1:8080/wp-json",
            "http://localhost:8080/wp-json",
            "http://0.0.0.0:8080",
            "http://[::1]:8080",
        ] {
            assert!(names_address(base, own), "{base}");
        }
        for base in
            ["http://127.0.0.1:8081/wp-json", "http://192.0.2.1:8080", "http://example.org:8080", "http://127.0.0.1/"]
        {
            assert!(!names_address(base, own), "{base}");
        }
        assert!(names_address("http://127.0.0.1:80/", "0.0.0.0:80".parse().unwrap()));
        assert!(!names_address("http://192.0.2.1:80/", "0.0.0.0:80".parse().unwrap()));
    }
}
