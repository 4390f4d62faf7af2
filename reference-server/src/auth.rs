//! Users, HTTP Basic authentication and what each role may do.
//!
//! Capabilities follow the CMS's roles as the calendar plugin maps them onto its own post types
//! (reference profile, Part B §4), with the stricter object-level checks of Part A.

use base64::Engine;

use crate::config::{Role, UserSpec};
use crate::error::ApiError;
use crate::interface::errors;

/// A configured user; IDs are 1, 2, 3… in configuration order.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
    password: String,
    pub role: Role,
}

/// The publication state of a post, as far as permissions care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// `publish`: everyone may read it.
    Published,
    /// `future`: published-like for editing, hidden from the public.
    PublishedHidden,
    /// `draft`, `pending`, `private`, `trash`…: not published or scheduled, so the author needs
    /// only the right to edit posts (the CMS asks for more only of `publish` and `future`).
    Unpublished,
}

impl User {
    /// Create events, venues and organizers (the post types' `edit_posts`).
    pub fn can_edit_posts(&self) -> bool {
        self.role != Role::Subscriber
    }

    /// Publish without review (`publish_posts`).
    pub fn can_publish(&self) -> bool {
        matches!(self.role, Role::Administrator | Role::Editor | Role::Author)
    }

    /// Edit, delete and read what other users wrote (`edit_others_posts`, `read_private_posts`).
    pub fn can_edit_others(&self) -> bool {
        matches!(self.role, Role::Administrator | Role::Editor)
    }

    /// Manage event categories (`manage_terms` of the category taxonomy = `publish_posts`).
    pub fn can_manage_categories(&self) -> bool {
        self.can_publish()
    }

    /// Manage tags (core `manage_categories`).
    pub fn can_manage_tags(&self) -> bool {
        self.can_edit_others()
    }

    /// Object-level edit (and delete) right on a post written by `author`.
    pub fn can_edit_post(&self, author: u64, visibility: Visibility) -> bool {
        if self.can_edit_others() {
            return true;
        }
        if author != self.id || !self.can_edit_posts() {
            return false;
        }
        match visibility {
            Visibility::Unpublished => true,
            Visibility::Published | Visibility::PublishedHidden => self.can_publish(),
        }
    }

    /// Object-level read right on a post that is not public.
    pub fn can_read_post(&self, author: u64) -> bool {
        self.can_edit_others() || (author == self.id && self.can_edit_posts())
    }
}

/// The users of one server.
#[derive(Clone, Debug, Default)]
pub struct Users {
    users: Vec<User>,
}

impl Users {
    pub fn new(specs: &[UserSpec]) -> Users {
        let users = specs
            .iter()
            .zip(1..)
            .map(|(spec, id)| User { id, name: spec.name.clone(), password: spec.password.clone(), role: spec.role })
            .collect();
        Users { users }
    }

    pub fn get(&self, id: u64) -> Option<&User> {
        self.users.iter().find(|user| user.id == id)
    }

    pub fn exists(&self, id: u64) -> bool {
        self.get(id).is_some()
    }

    /// Authenticates an `Authorization` header value.
    ///
    /// A header that is not well-formed Basic credentials is ignored (anonymous), as the CMS
    /// does; well-formed credentials that match no user fail the request.
    pub fn authenticate(&self, header: Option<&str>) -> Result<Option<&User>, ApiError> {
        let Some((name, password)) = header.and_then(decode_basic) else {
            return Ok(None);
        };
        let Some(user) = self.users.iter().find(|user| user.name == name) else {
            return Err(ApiError::of(&errors::INVALID_USERNAME).because(format!("no user is named {name:?}")));
        };
        if !constant_time_eq(user.password.as_bytes(), password.as_bytes()) {
            return Err(ApiError::of(&errors::INCORRECT_PASSWORD).because(format!("wrong password for user {name:?}")));
        }
        Ok(Some(user))
    }
}

/// The name and password of Basic credentials (`None` for anything else).
pub fn decode_basic(header: &str) -> Option<(String, String)> {
    let (scheme, encoded) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (name, password) = text.split_once(':')?;
    Some((name.to_string(), password.to_string()))
}

/// Compares without an early exit, so the time taken does not reveal how much matched.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for (index, byte) in a.iter().enumerate() {
        let other = b.get(index % b.len().max(1)).copied().unwrap_or(0);
        difference |= usize::from(byte ^ other);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(name: &str, password: &str) -> String {
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{name}:{password}")))
    }

    #[test]
    fn authenticates_known_users_and_rejects_bad_credentials() {
        let users = Users::new(&UserSpec::defaults());
        let admin = users.authenticate(Some(&header("admin", "admin-password"))).unwrap().unwrap();
        assert_eq!((admin.id, admin.role), (1, Role::Administrator));
        assert_eq!(users.authenticate(Some(&header("admin", "nope"))).unwrap_err().code, "incorrect_password");
        assert_eq!(users.authenticate(Some(&header("ghost", "x"))).unwrap_err().code, "invalid_username");
        assert!(users.authenticate(Some("Bearer abc")).unwrap().is_none());
        assert!(users.authenticate(Some("Basic !!!")).unwrap().is_none());
        assert!(users.authenticate(None).unwrap().is_none());
    }

    #[test]
    fn object_level_rules() {
        let users = Users::new(&UserSpec::defaults());
        let contributor = users.get(4).unwrap();
        let author = users.get(3).unwrap();
        assert!(contributor.can_edit_post(4, Visibility::Unpublished));
        assert!(!contributor.can_edit_post(4, Visibility::Published));
        assert!(!contributor.can_edit_post(1, Visibility::Unpublished));
        assert!(author.can_edit_post(3, Visibility::Published));
        assert!(!author.can_edit_post(1, Visibility::Published));
        assert!(users.get(2).unwrap().can_edit_post(1, Visibility::Published));
        assert!(!users.get(5).unwrap().can_edit_post(5, Visibility::Unpublished));
    }

    #[test]
    fn constant_time_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert!(!constant_time_eq(b"", b"a"));
        assert!(constant_time_eq(b"", b""));
    }
}
