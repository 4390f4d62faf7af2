//! The request phase: a step's request with its templates filled in, addressed to the
//! implementation (namespace, language base address, renamed language parameter), its data
//! encoded and its credentials attached.

use serde_json::Value;

use super::endpoint::{Endpoint, LANGUAGE_KEY};
use crate::credentials::WRONG_PASSWORD;
use crate::env::{Env, TemplateError};
use crate::model::{Body, Request, Target};
use crate::node::{Key, NodeKind};
use crate::outcome::{SentRequest, StepError};

/// The password sent for `ROLE:wrong-password`: one no user has.
pub const WRONG_PASSWORD_SENT: &str = "not-the-password-0";

/// Builds the request of a step with its templates filled in.
pub fn render(request: &Request, env: &Env, endpoint: &Endpoint) -> Result<SentRequest, StepError> {
    render_template_parts(request, env, endpoint).map_err(|e| match e {
        Failure::Template(e) => StepError::Template(e.0),
        Failure::Credentials(message) => StepError::Credentials(message),
    })
}

/// Why a request could not be built.
enum Failure {
    Template(TemplateError),
    Credentials(String),
}

impl From<TemplateError> for Failure {
    fn from(e: TemplateError) -> Failure {
        Failure::Template(e)
    }
}

fn render_template_parts(request: &Request, env: &Env, endpoint: &Endpoint) -> Result<SentRequest, Failure> {
    let url = url(request, env, endpoint)?;
    let mut headers = Vec::new();
    let body = body(request, env, endpoint, &mut headers)?;
    for (name, t) in &request.headers {
        let value = env.render_text(t)?;
        headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        headers.push((name.clone(), value));
    }
    let auth = credentials(request, endpoint)?;
    let auth_name = auth.as_ref().and(request.auth.clone());
    Ok(SentRequest { method: request.method.clone(), url, headers, auth, auth_name, body })
}

/// The request's address: the namespace's or the site's, under the language's base address,
/// with the query.
fn url(request: &Request, env: &Env, endpoint: &Endpoint) -> Result<String, Failure> {
    let lang = match &request.lang {
        Some(t) => Some(env.render_text(t)?),
        None => None,
    };
    let (site, root) = endpoint.site_and_root();
    let mut url = match &request.target {
        Target::Path(t) => {
            let path = slash(&env.render_text(t)?);
            match &lang {
                Some(lang) => format!("{site}/{lang}{root}/{}{path}", endpoint.namespace.trim_matches('/')),
                None => format!("{}{path}", endpoint.namespace_url()),
            }
        }
        Target::Url(t) => {
            let path = slash(&env.render_text(t)?);
            match &lang {
                Some(lang) => format!("{site}/{lang}{path}"),
                None => format!("{site}{path}"),
            }
        }
    };
    if !request.query.is_empty() {
        let mut pairs = Vec::new();
        for (key, node) in &request.query {
            flatten(&rename(key, env, endpoint)?, &env.render_data(node)?, &mut pairs);
        }
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(&encode(&pairs));
    }
    Ok(url)
}

/// The request's body, encoded, and the `Content-Type` it goes with (into `headers`).
fn body(
    request: &Request,
    env: &Env,
    endpoint: &Endpoint,
    headers: &mut Vec<(String, String)>,
) -> Result<Option<String>, Failure> {
    Ok(match &request.body {
        Body::None => None,
        Body::Json(node) => {
            let mut value = env.render_data(node)?;
            let renamed = match &node.kind {
                NodeKind::Object(entries) => entries.iter().any(|(k, _)| is_language_key(k)),
                _ => false,
            };
            if let (true, Value::Object(map)) = (renamed, &mut value) {
                if let Some(v) = map.remove(LANGUAGE_KEY) {
                    map.insert(endpoint.language_param.clone(), v);
                }
            }
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
            Some(value.to_string())
        }
        Body::Form(entries) => {
            let mut pairs = Vec::new();
            for (key, node) in entries {
                flatten(&rename(key, env, endpoint)?, &env.render_data(node)?, &mut pairs);
            }
            headers.push(("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()));
            Some(encode(&pairs))
        }
        Body::Raw(t) => Some(env.render_text(t)?),
    })
}

/// The user and password of the request's `auth` (`NAME:wrong-password`: NAME's user with a
/// password that cannot be right).
fn credentials(request: &Request, endpoint: &Endpoint) -> Result<Option<(String, String)>, Failure> {
    Ok(match request.auth.as_deref() {
        None | Some("none") => None,
        Some(name) => match endpoint.credentials.get(name.strip_suffix(WRONG_PASSWORD).unwrap_or(name)) {
            Some((user, _)) if name.ends_with(WRONG_PASSWORD) => Some((user.clone(), WRONG_PASSWORD_SENT.to_string())),
            Some(pair) => Some(pair.clone()),
            None => {
                let known: Vec<&str> = endpoint.credentials.keys().map(String::as_str).collect();
                return Err(Failure::Credentials(format!(
                    "no credentials named `{name}` (known: {}): give them with --auth {name}=USER:PASSWORD",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                )));
            }
        },
    })
}

fn slash(path: &str) -> String {
    if path.is_empty() || path.starts_with('/') || path.starts_with('?') {
        path.to_string()
    } else {
        format!("/{path}")
    }
}

/// The literal key `multilingual_language` (not one a template makes), which request data
/// sends under the implementation's name for the language parameter.
fn is_language_key(key: &Key) -> bool {
    key.template.is_literal() && key.text == LANGUAGE_KEY
}

/// The name a top-level key of `query` or `form` is sent under.
fn rename(key: &Key, env: &Env, endpoint: &Endpoint) -> Result<String, TemplateError> {
    if is_language_key(key) {
        Ok(endpoint.language_param.clone())
    } else {
        env.render_key(key)
    }
}

/// Query and form encoding: lists as `key[]=`, maps as `key[sub]=`, null as an empty value.
fn flatten(key: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| flatten(&format!("{key}[]"), item, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| flatten(&format!("{key}[{k}]"), v, out)),
        Value::Null => out.push((key.to_string(), String::new())),
        Value::String(s) => out.push((key.to_string(), s.clone())),
        other => out.push((key.to_string(), other.to_string())),
    }
}

fn encode(pairs: &[(String, String)]) -> String {
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        serializer.append_pair(k, v);
    }
    serializer.finish()
}
