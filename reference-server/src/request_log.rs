//! What the request log shows of a request: its address, with secrets taken out.

use hyper::http::Uri;

/// Query parameters whose values never reach the log (compared without case, at any depth of
/// a nested name: `password`, `password[]`, `filter[password]`): the password of a protected
/// event travels in the query string.
const SECRET_PARAMS: &[&str] = &["password", "_wpnonce"];

/// The path and query of `uri`, with the values of secret parameters replaced.
pub fn redacted(uri: &Uri) -> String {
    let path = uri.path();
    let Some(query) = uri.query() else {
        return path.to_string();
    };
    format!("{path}?{}", redact_pairs(query))
}

/// `key=value&…` pairs with the values of secret parameters replaced.
pub fn redact_pairs(query: &str) -> String {
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let key = pair.split_once('=').map_or(pair, |(key, _)| key);
            let decoded =
                percent_encoding::percent_decode_str(&key.replace('+', " ")).decode_utf8_lossy().to_ascii_lowercase();
            // `event[password]`, `a[b][_wpnonce]`: a secret at any depth of a nested name.
            let secret = decoded.split(['[', ']']).any(|name| SECRET_PARAMS.contains(&name.trim()));
            if secret && pair.contains('=') {
                format!("{key}=[redacted]")
            } else {
                pair.to_string()
            }
        })
        .collect();
    pairs.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redact(text: &str) -> String {
        redacted(&text.parse().unwrap())
    }

    #[test]
    fn hides_passwords_in_every_spelling() {
        assert_eq!(redact("/e?password=s3cret&search=x"), "/e?password=[redacted]&search=x");
        assert_eq!(redact("/e?Password=a&PASSWORD%5B%5D=b"), "/e?Password=[redacted]&PASSWORD%5B%5D=[redacted]");
        assert_eq!(redact("/e?pass%77ord=a"), "/e?pass%77ord=[redacted]");
        assert_eq!(redact("/e?search=password"), "/e?search=password");
        assert_eq!(redact("/e"), "/e");
    }

    #[test]
    fn r6_hides_nested_secrets() {
        assert_eq!(redact("/e?filter[password]=a&x=1"), "/e?filter[password]=[redacted]&x=1");
        assert_eq!(redact("/e?filter%5BPassword%5D=a"), "/e?filter%5BPassword%5D=[redacted]");
        assert_eq!(redact("/e?a[b][_wpnonce]=n&a[passwords]=k"), "/e?a[b][_wpnonce]=[redacted]&a[passwords]=k");
        assert_eq!(
            redact_pairs("title=F&event[password]=p&a[_wpnonce]=n"),
            "title=F&event[password]=[redacted]&a[_wpnonce]=[redacted]"
        );
    }
}
