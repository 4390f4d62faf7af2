//! The one error type of the server and the envelope it renders to.
//!
//! Every failure becomes `{"code", "message", "data": {"status", ...}}`, the envelope of the
//! CMS's REST layer, so clients can handle errors from a real site and from this server alike.

use serde_json::{json, Map, Value};

use crate::interface::errors::{self, BAD_REQUEST};
use crate::interface::ErrorKind;

/// An error answer: HTTP status, machine code, human message and extra `data` members.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    /// Members added to `data` after `status`.
    pub data: Vec<(&'static str, Value)>,
    /// Members added beside `code`, `message` and `data` (rare: `term_exists`).
    pub extra: Vec<(&'static str, Value)>,
    /// Which check refused and why, in words, for the request journal (never sent: the
    /// answer is the CMS's). `None`: the message says it.
    pub reason: Option<String>,
}

/// One rejected parameter: its message and, for rules that explain themselves, the detail error.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidParam {
    pub name: String,
    pub message: String,
    pub detail: Option<Box<(String, Value)>>,
    /// What is wrong with the value, in words, for the request journal ("not a date").
    pub reason: Option<String>,
}

impl InvalidParam {
    /// The generic "Invalid parameter." of a rule that only says no.
    pub fn plain(name: &str) -> InvalidParam {
        InvalidParam { name: name.to_string(), message: "Invalid parameter.".to_string(), detail: None, reason: None }
    }

    /// Says what is wrong with the value, for the request journal.
    pub fn because(mut self, reason: impl Into<String>) -> InvalidParam {
        self.reason = Some(reason.into());
        self
    }

    /// A type error, as the CMS's schema validation words it.
    pub fn wrong_type(name: &str, type_name: &str) -> InvalidParam {
        let message = format!("{name} is not of type {type_name}.");
        let detail = json!({"param": name});
        InvalidParam {
            name: name.to_string(),
            message,
            detail: Some(Box::new(("rest_invalid_type".to_string(), detail))),
            reason: Some(format!("not of type {type_name}")),
        }
    }

    /// A rule that explains itself with its own code and message.
    pub fn explained(name: &str, code: &str, message: &str, data: Value) -> InvalidParam {
        InvalidParam {
            name: name.to_string(),
            message: message.to_string(),
            detail: Some(Box::new((code.to_string(), data))),
            reason: None,
        }
    }
}

/// The messages of the refusals of [`ApiError::bad_request`] other than a plain 400.
const TRANSPORT_MESSAGES: [(u16, &str); 3] = [
    (408, "The request body was not received in time."),
    (414, "The request URI is too long."),
    (431, "The request headers are too large."),
];

impl ApiError {
    /// The error of a catalog entry, with the entry's status and message.
    pub fn of(kind: &ErrorKind) -> ApiError {
        ApiError {
            status: kind.status,
            code: kind.code,
            message: kind.message.to_string(),
            data: Vec::new(),
            extra: Vec::new(),
            reason: None,
        }
    }

    /// Records which check refused and why, for the request journal; the answer is unchanged.
    pub fn because(mut self, reason: impl Into<String>) -> ApiError {
        self.reason = Some(reason.into());
        self
    }

    /// The error of a catalog entry whose message has a detail (`{}` in the entry's message).
    pub fn detailed(kind: &ErrorKind, detail: impl std::fmt::Display) -> ApiError {
        ApiError::of(kind).with_message(kind.message.replacen("{}", &detail.to_string(), 1))
    }

    pub fn with_message(mut self, message: impl Into<String>) -> ApiError {
        self.message = message.into();
        self
    }

    pub fn with_status(mut self, status: u16) -> ApiError {
        self.status = status;
        self
    }

    pub fn with_data(mut self, key: &'static str, value: Value) -> ApiError {
        self.data.push((key, value));
        self
    }

    pub fn no_route() -> ApiError {
        ApiError::of(&errors::NO_ROUTE)
    }

    /// `rest_forbidden`: 401 for anonymous requests, 403 for logged-in users.
    pub fn forbidden(logged_in: bool) -> ApiError {
        ApiError::of(&errors::FORBIDDEN).with_status(if logged_in { 403 } else { 401 })
    }

    pub fn missing_params(names: &[String]) -> ApiError {
        let reason = names.iter().map(|name| format!("{name}: missing (required)")).collect::<Vec<_>>().join("; ");
        ApiError::detailed(&errors::MISSING_PARAM, names.join(", ")).with_data("params", json!(names)).because(reason)
    }

    /// The HTTP request itself cannot be read: malformed (400), too slow (408), a URI too long
    /// (414) or headers too large (431).
    pub fn bad_request(status: u16) -> ApiError {
        let message =
            TRANSPORT_MESSAGES.iter().find(|(known, _)| *known == status).map_or(BAD_REQUEST.message, |(_, m)| m);
        ApiError::of(&BAD_REQUEST).with_status(status).with_message(message)
    }

    pub fn invalid_params(params: &[InvalidParam]) -> ApiError {
        let names: Vec<&str> = params.iter().map(|param| param.name.as_str()).collect();
        let mut messages = Map::new();
        let mut details = Map::new();
        for param in params {
            messages.insert(param.name.clone(), Value::String(param.message.clone()));
            if let Some(detail) = &param.detail {
                let (code, data) = &**detail;
                details.insert(param.name.clone(), json!({"code": code, "message": param.message, "data": data}));
            }
        }
        // The CMS renders an empty PHP array, so no details is `[]`, not `{}`.
        let details = if details.is_empty() { json!([]) } else { Value::Object(details) };
        let reason = params
            .iter()
            .map(|param| format!("{}: {}", param.name, param.reason.as_deref().unwrap_or(&param.message)))
            .collect::<Vec<_>>()
            .join("; ");
        ApiError::detailed(&errors::INVALID_PARAM, names.join(", "))
            .with_data("params", Value::Object(messages))
            .with_data("details", details)
            .because(reason)
    }

    pub fn invalid_param(name: &str) -> ApiError {
        ApiError::invalid_params(&[InvalidParam::plain(name)])
    }

    pub fn invalid_json(message: &str) -> ApiError {
        ApiError::of(&errors::INVALID_JSON)
            .with_data("json_error_code", json!(4))
            .with_data("json_error_message", json!(message))
    }

    /// The envelope as JSON.
    pub fn to_json(&self) -> Value {
        let mut data = Map::new();
        data.insert("status".to_string(), json!(self.status));
        data.extend(self.data.iter().map(|(key, value)| (key.to_string(), value.clone())));
        let mut body = Map::new();
        body.insert("code".to_string(), json!(self.code));
        body.insert("message".to_string(), json!(self.message));
        body.insert("data".to_string(), Value::Object(data));
        body.extend(self.extra.iter().map(|(key, value)| (key.to_string(), value.clone())));
        Value::Object(body)
    }
}

/// Shorthand for handler results.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_params_without_details_render_an_empty_list() {
        let body = ApiError::invalid_param("page").to_json();
        assert_eq!(body["code"], "rest_invalid_param");
        assert_eq!(body["message"], "Invalid parameter(s): page");
        assert_eq!(body["data"]["params"]["page"], "Invalid parameter.");
        assert_eq!(body["data"]["details"], json!([]));
        assert_eq!(body["data"]["status"], 400);
    }

    #[test]
    fn type_errors_carry_details() {
        let body = ApiError::invalid_params(&[InvalidParam::wrong_type("image", "string")]).to_json();
        assert_eq!(body["data"]["params"]["image"], "image is not of type string.");
        assert_eq!(body["data"]["details"]["image"]["code"], "rest_invalid_type");
    }

    #[test]
    fn forbidden_depends_on_login() {
        assert_eq!(ApiError::forbidden(false).status, 401);
        assert_eq!(ApiError::forbidden(true).status, 403);
    }
}
