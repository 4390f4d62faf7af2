//! The implementation under test as a case sees it: its addresses, names and credentials.

use std::collections::BTreeMap;

/// The key of request data that is sent under the implementation's language parameter name.
pub const LANGUAGE_KEY: &str = crate::template::DEFAULT_LANGUAGE_PARAM;

/// The implementation under test, as one case sees it.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// `{base_url}`, without a trailing slash, e.g. `http://host/wp-json`.
    pub base_url: String,
    pub namespace: String,
    /// The name the language parameter is sent under.
    pub language_param: String,
    /// Credential sets by name: (user, password).
    pub credentials: BTreeMap<String, (String, String)>,
}

impl Endpoint {
    /// `{base_url}/{namespace}`.
    pub fn namespace_url(&self) -> String {
        format!("{}/{}", self.base_url, self.namespace.trim_matches('/'))
    }

    /// `{base_url}` without its last path segment, and that segment (the REST root).
    pub fn site_and_root(&self) -> (String, String) {
        match self.base_url.rfind('/') {
            Some(i) if i > self.base_url.find("://").map_or(0, |s| s + 2) => {
                (self.base_url[..i].to_string(), self.base_url[i..].to_string())
            }
            _ => (self.base_url.clone(), String::new()),
        }
    }
}
