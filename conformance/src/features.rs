//! Optional features: the one table of the names `requires` and `--without` may use (the
//! reference server's, whose own `--without` takes the same names), and the rule that decides
//! whether a case can run where it is about to run.
//!
//! An implementation is assumed to have every feature unless `--without` names it, except
//! `fresh-store`, which an outside server has only with `--reset-command`. `!name` in
//! `requires` asks for a server *without* the feature.

// The table is the reference server's: one list of features for both programs (its
// `--without` takes the switchable ones; the runner takes them all).
pub use reference_server::{Feature, FEATURES, FEATURE_ALIASES as ALIASES};

/// The feature a name (or an alias) stands for.
pub fn canonical(name: &str) -> Option<&'static str> {
    reference_server::feature_name(name)
}

/// The known names, for messages: `fresh-store, geoloc, … or languages (password-on-create is
/// another name for event-password)`.
pub fn known() -> String {
    let names: Vec<&str> = FEATURES.iter().map(|f| f.name).collect();
    let (last, rest) = names.split_last().expect("the table is not empty");
    let aliases: Vec<String> =
        ALIASES.iter().map(|(alias, feature)| format!("{alias} is another name for {feature}")).collect();
    format!("{} or {last} ({})", rest.join(", "), aliases.join("; "))
}

/// A `requires` entry (`name` or `!name`) with the feature's own name, or why it is wrong.
pub fn requirement(text: &str) -> Result<String, String> {
    let (negated, name) = match text.strip_prefix('!') {
        Some(name) => (true, name),
        None => (false, text),
    };
    match canonical(name.trim()) {
        Some(feature) if negated => Ok(format!("!{feature}")),
        Some(feature) => Ok(feature.to_string()),
        None => {
            Err(format!("unknown feature `{text}` in `requires`: use {} (`!name` for a server without it)", known()))
        }
    }
}

/// A `--without` list, with the features' own names, or a one-line error.
pub fn without(list: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for name in list.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        match canonical(name) {
            Some(feature) if !out.iter().any(|f| f == feature) => out.push(feature.to_string()),
            Some(_) => {}
            None => return Err(format!("unknown feature `{name}` in --without: use {}", known())),
        }
    }
    Ok(out)
}

/// Where a case is about to run, as far as features go.
#[derive(Clone, Copy, Debug)]
pub enum Place<'a> {
    /// A fresh embedded reference server per case; `without` switches features off in it.
    Embedded { without: &'a [String] },
    /// An outside implementation that lacks `without`.
    Outside { without: &'a [String], reset_command: bool },
}

/// Why a case with these (canonical) `requires` cannot run at `place`, if it cannot.
pub fn unavailable(requires: &[String], place: Place) -> Option<String> {
    for entry in requires {
        if let Some(absent) = entry.strip_prefix('!') {
            match place {
                // The embedded server is started without the feature when it can be.
                Place::Embedded { .. } => {
                    if !FEATURES.iter().any(|f| f.name == absent && f.switchable) {
                        return Some(format!(
                            "requires a server without {absent}: the embedded reference server always has it"
                        ));
                    }
                }
                // An outside server counts as lacking it only when --without says so.
                Place::Outside { without, .. } => {
                    if !without.iter().any(|name| name == absent) {
                        return Some(format!("requires a server without {absent}: run with --without {absent}"));
                    }
                }
            }
            continue;
        }
        let (Place::Embedded { without } | Place::Outside { without, .. }) = place;
        if without.contains(entry) {
            return Some(format!("requires {entry}, which --without names"));
        }
        if entry == "fresh-store" {
            if let Place::Outside { reset_command: false, .. } = place {
                return Some("requires fresh-store: give --reset-command to run it against an outside server".into());
            }
        }
    }
    None
}

/// The lines of `--help` that list the features.
pub fn help() -> String {
    let width = FEATURES.iter().map(|f| f.name.len()).max().unwrap_or(0);
    let mut out = String::from("Features (for --without and the `requires` of case files):\n");
    for feature in FEATURES {
        out.push_str(&format!("  {:width$}  {}\n", feature.name, feature.description));
    }
    for (alias, feature) in ALIASES {
        out.push_str(&format!("  {alias} is accepted as another name for {feature}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_negations() {
        assert_eq!(requirement("geoloc").unwrap(), "geoloc");
        assert_eq!(requirement("password-on-create").unwrap(), "event-password");
        assert_eq!(requirement("!password-on-create").unwrap(), "!event-password");
        let e = requirement("tikets").unwrap_err();
        assert!(
            e.contains("unknown feature `tikets`") && e.contains("languages") && e.contains("event-password"),
            "{e}"
        );
        assert!(requirement("!nope").is_err());
        assert_eq!(
            without(&["geoloc".into(), " password-on-create".into(), "".into()]).unwrap(),
            ["geoloc", "event-password"]
        );
        let e = without(&["geoloc".into(), "translations".into()]).unwrap_err();
        assert!(e.starts_with("unknown feature `translations` in --without: use fresh-store, geoloc"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn where_a_case_can_run() {
        let none: Vec<String> = Vec::new();
        let tickets = vec!["tickets".to_string()];
        let req = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let embedded = Place::Embedded { without: &none };
        let outside = Place::Outside { without: &none, reset_command: false };
        assert_eq!(unavailable(&req(&["fresh-store", "languages"]), embedded), None);
        assert!(unavailable(&req(&["fresh-store"]), outside).unwrap().contains("--reset-command"));
        assert_eq!(unavailable(&req(&["fresh-store"]), Place::Outside { without: &none, reset_command: true }), None);
        assert!(unavailable(&req(&["tickets"]), Place::Embedded { without: &tickets }).is_some());
        assert_eq!(unavailable(&req(&["!tickets"]), embedded), None, "the embedded server is started without it");
        assert!(unavailable(&req(&["!languages"]), embedded).unwrap().contains("always has it"));
        assert!(unavailable(&req(&["!tickets"]), outside).unwrap().contains("--without tickets"));
        assert_eq!(unavailable(&req(&["!tickets"]), Place::Outside { without: &tickets, reset_command: false }), None);
    }

    #[test]
    fn the_help_lists_every_feature_and_alias() {
        let help = help();
        for feature in FEATURES {
            assert!(help.contains(feature.name) && help.contains(feature.description), "{help}");
        }
        assert!(help.contains("password-on-create"));
    }
}
