//! What the command line gives, read into the configuration: `--user NAME:PASSWORD:ROLE` and
//! `--without geoloc,tickets`; and the check, made on any configuration at start, that no user
//! name is given twice. An embedding program (and the conformance suite) builds its `Config`
//! directly instead.

use crate::config::{Features, Role, UserSpec};

impl UserSpec {
    /// Parses `NAME:PASSWORD:ROLE`. The name ends at the first colon and the role starts after
    /// the last, so a password may contain colons.
    pub fn parse(text: &str) -> Result<UserSpec, String> {
        let Some((name, password, role)) = text
            .split_once(':')
            .and_then(|(name, rest)| rest.rsplit_once(':').map(|(password, role)| (name, password, role)))
        else {
            return Err(format!("expected NAME:PASSWORD:ROLE, got {text:?}"));
        };
        if name.is_empty() || password.is_empty() {
            return Err(format!("user name and password must not be empty in {text:?}"));
        }
        let role = Role::parse(role).ok_or_else(|| {
            format!("unknown role {role:?}: use administrator, editor, author, contributor or subscriber")
        })?;
        Ok(UserSpec { name: name.to_string(), password: password.to_string(), role })
    }

    /// Refuses a list in which two users have the same name (only one of them could log in).
    pub fn check_unique(users: &[UserSpec]) -> Result<(), String> {
        for (index, user) in users.iter().enumerate() {
            if users[..index].iter().any(|other| other.name == user.name) {
                return Err(format!("user name {:?} is given twice", user.name));
            }
        }
        Ok(())
    }
}

impl Features {
    /// Applies a `--without geoloc,tickets` list.
    pub fn without(mut self, list: &str) -> Result<Features, String> {
        for name in list.split(',').map(str::trim).filter(|name| !name.is_empty()) {
            match name {
                "geoloc" => self.geoloc = false,
                "tickets" => self.tickets = false,
                other => return Err(format!("unknown feature {other:?}: use geoloc or tickets")),
            }
        }
        Ok(self)
    }
}
