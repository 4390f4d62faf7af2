//! What the command line gives, read into the configuration: `--user NAME:PASSWORD:ROLE` and
//! `--without geoloc,tickets,…` (the features of `config::FEATURES`); and the check, made on any configuration at start, that no user
//! name is given twice. An embedding program (and the conformance suite) builds its `Config`
//! directly instead.

use crate::config::{feature_name, Features, Role, UserSpec, FEATURES};

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
    /// Applies a `--without` list: the names of the features the server and the conformance
    /// runner share (`FEATURES`); one the server always has is refused, saying so.
    pub fn without(mut self, list: &str) -> Result<Features, String> {
        for name in list.split(',').map(str::trim).filter(|name| !name.is_empty()) {
            if self.switch_off(name) {
                continue;
            }
            let switchable: Vec<&str> = FEATURES.iter().filter(|f| f.switchable).map(|f| f.name).collect();
            return Err(match feature_name(name) {
                Some(feature) => {
                    format!("the reference server always has {feature}: --without takes {}", switchable.join(", "))
                }
                None => format!("unknown feature {name:?}: --without takes {}", switchable.join(", ")),
            });
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn also_without_takes_the_one_list_of_features() {
        for feature in FEATURES {
            let result = Features::default().without(feature.name);
            match feature.switchable {
                true => assert!(!result.expect(feature.name).on(feature.name), "{}", feature.name),
                false => assert!(result.unwrap_err().contains("always has"), "{}", feature.name),
            }
        }
        let off = Features::default().without("series, password-on-create").unwrap();
        assert_eq!((off.series, off.event_password, off.geoloc, off.tickets), (false, false, true, true));
        let unknown = Features::default().without("geoloc,teleport").unwrap_err();
        assert_eq!(unknown, "unknown feature \"teleport\": --without takes geoloc, tickets, series, event-password");
    }
}
