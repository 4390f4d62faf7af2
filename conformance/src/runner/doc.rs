//! `--check-doc`: every JSON answer of a documented operation is checked against the schema
//! the implementation's own OpenAPI document (`{base_url}/{namespace}/doc`) gives for its path,
//! method and status. An implementer learns where the answers and the document part ways; the
//! `cargo test` gate uses it to keep the reference server's `/doc` true to what it sends.

use std::sync::atomic::{AtomicUsize, Ordering};

use reference_server::openapi_check::{response_schema, violations};
use serde_json::Value;

use super::endpoint::Endpoint;
use crate::matcher::Mismatch;
use crate::outcome::SentRequest;
use crate::yaml::Pos;

/// Most violations reported for one answer.
const MAX_VIOLATIONS: usize = 5;

/// The document, and how many answers it checked.
pub struct DocCheck {
    doc: Value,
    /// The path templates of the document (`/events/{id}`), split into segments.
    templates: Vec<(String, Vec<String>)>,
    checked: AtomicUsize,
}

impl DocCheck {
    /// Reads an OpenAPI document; it must have `paths`.
    pub fn new(doc: Value) -> Result<DocCheck, String> {
        let paths = doc.get("paths").and_then(Value::as_object).ok_or("the document has no `paths` object")?;
        let templates = paths.keys().map(|t| (t.clone(), segments(t))).collect();
        Ok(DocCheck { doc, templates, checked: AtomicUsize::new(0) })
    }

    /// How many answers were checked so far.
    pub fn checked(&self) -> usize {
        self.checked.load(Ordering::Relaxed)
    }

    /// The mismatches of one answer: none when the request went to no documented operation
    /// (an unknown route on purpose, a method the route lacks, an overridden method), or when
    /// `_fields` or `_envelope` asked the CMS's REST layer to reshape the answer.
    pub fn check(&self, endpoint: &Endpoint, request: &SentRequest, status: u16, body: &Value) -> Vec<Mismatch> {
        let Some(template) = self.operation(endpoint, request) else { return Vec::new() };
        self.checked.fetch_add(1, Ordering::Relaxed);
        let method = request.method.to_ascii_uppercase();
        let expected = format!("an answer as /doc describes {method} {template} {status}");
        let mismatch =
            |actual: String| Mismatch { path: "doc".into(), expected: expected.clone(), actual, at: Pos::NONE };
        match response_schema(&self.doc, template, &method, status) {
            Ok(schema) => violations(&self.doc, schema, body).into_iter().take(MAX_VIOLATIONS).map(mismatch).collect(),
            Err(message) => vec![mismatch(message)],
        }
    }

    /// The document's path template for a request, when it went to one of its operations
    /// under its own method.
    fn operation(&self, endpoint: &Endpoint, request: &SentRequest) -> Option<&str> {
        let method = request.method.to_ascii_lowercase();
        let overridden = request.url.contains("_method=")
            || request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("x-http-method-override"));
        if overridden || !matches!(method.as_str(), "get" | "post" | "put" | "patch" | "delete") {
            return None;
        }
        let url = reqwest::Url::parse(&request.url).ok()?;
        if url.query_pairs().any(|(name, _)| name == "_fields" || name == "_envelope") {
            return None;
        }
        let prefix = reqwest::Url::parse(&endpoint.namespace_url()).ok()?.path().trim_end_matches('/').to_string();
        // Also under a language base address (`/fr/wp-json/...`).
        let path = url.path();
        let after = &path[path.find(&prefix)? + prefix.len()..];
        if !(after.is_empty() || after.starts_with('/')) {
            return None;
        }
        let actual = segments(after);
        let mut best: Option<(&str, usize)> = None;
        for (template, parts) in &self.templates {
            if parts.len() != actual.len() || self.doc["paths"][template].get(&method).is_none() {
                continue;
            }
            let literal = parts.iter().filter(|p| !p.starts_with('{')).count();
            let fits = parts.iter().zip(&actual).all(|(p, a)| p.starts_with('{') && !a.is_empty() || p == a);
            if fits && best.is_none_or(|(_, l)| literal > l) {
                best = Some((template, literal));
            }
        }
        best.map(|(template, _)| template)
    }
}

fn segments(path: &str) -> Vec<String> {
    path.trim_matches('/').split('/').filter(|s| !s.is_empty()).map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(method: &str, url: &str) -> SentRequest {
        SentRequest {
            method: method.into(),
            url: url.into(),
            headers: Vec::new(),
            auth: None,
            auth_name: None,
            body: None,
        }
    }

    #[test]
    fn answers_are_matched_to_the_most_literal_template() {
        let doc = json!({"paths": {
            "/": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "object"}}}}}}},
            "/events/{id}": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "object", "required": ["id"]}}}}}}},
            "/events/by-slug/{slug}": {"get": {"responses": {}}},
        }});
        let check = DocCheck::new(doc).unwrap();
        let endpoint = Endpoint {
            base_url: "http://h/wp-json".into(),
            namespace: "calendar/events/v1".into(),
            language_param: "lang".into(),
            credentials: Default::default(),
        };
        let ns = "http://h/wp-json/calendar/events/v1";
        assert_eq!(check.operation(&endpoint, &request("GET", ns)), Some("/"));
        assert_eq!(check.operation(&endpoint, &request("GET", &format!("{ns}/events/7?x=1"))), Some("/events/{id}"));
        assert_eq!(
            check.operation(&endpoint, &request("GET", &format!("{ns}/events/by-slug/a"))),
            Some("/events/by-slug/{slug}")
        );
        assert_eq!(
            check.operation(&endpoint, &request("GET", "http://h/fr/wp-json/calendar/events/v1/events/7")),
            Some("/events/{id}")
        );
        assert_eq!(check.operation(&endpoint, &request("DELETE", &format!("{ns}/events/7"))), None, "not documented");
        assert_eq!(check.operation(&endpoint, &request("GET", &format!("{ns}/nothing"))), None);
        for reshaped in ["_fields=id", "_envelope=1"] {
            let url = format!("{ns}/events/7?x=1&{reshaped}");
            assert_eq!(check.operation(&endpoint, &request("GET", &url)), None, "{reshaped} reshapes the answer");
        }
        let found = check.check(&endpoint, &request("GET", &format!("{ns}/events/7")), 200, &json!({}));
        assert_eq!(found.len(), 1, "{found:?}");
        let found = check.check(&endpoint, &request("GET", &format!("{ns}/events/by-slug/a")), 404, &json!({}));
        assert!(found[0].actual.contains("status 404 is not documented"), "{found:?}");
        assert_eq!(check.checked(), 2);
    }
}
