//! Credential names: the five roles cases may send requests as (`auth:` in a case file,
//! `--auth ROLE=USER:PASSWORD`), and which of them a case needs.
//!
//! Against an outside server a case that needs a role without credentials is skipped before
//! anything of it is sent: a case that fails halfway for lack of a password would leave data
//! behind and count as a failure of the implementation.

use std::collections::BTreeSet;

use crate::model::{Case, Step};

/// The roles, in decreasing order of power; the embedded reference server has one user each.
pub const ROLES: &[&str] = &["administrator", "editor", "author", "contributor", "subscriber"];

/// The `auth` value of a request sent without credentials (the default).
pub const NONE: &str = "none";

/// The suffix of a credential name that sends that role's user with a wrong password.
pub const WRONG_PASSWORD: &str = ":wrong-password";

/// The role an `auth` value sends credentials of (`None` for `none`), or why the value is wrong.
pub fn role_of(auth: &str) -> Result<Option<&'static str>, String> {
    if auth == NONE {
        return Ok(None);
    }
    let name = auth.strip_suffix(WRONG_PASSWORD).unwrap_or(auth);
    match ROLES.iter().find(|role| **role == name) {
        Some(role) => Ok(Some(role)),
        None => Err(format!(
            "unknown credential name `{auth}`: use {}, `ROLE{WRONG_PASSWORD}` or `{NONE}`",
            ROLES.join(", ")
        )),
    }
}

/// Checks the NAME of `--auth NAME=USER:PASSWORD`; the error is one line.
pub fn check_given(name: &str) -> Result<(), String> {
    if ROLES.contains(&name) {
        Ok(())
    } else {
        Err(format!("unknown credential name `{name}` in --auth: use {}", ROLES.join(", ")))
    }
}

/// The environment variable that may hold a role's credentials as `USER:PASSWORD`:
/// `CONFORMANCE_AUTH_EDITOR`. A CI job passes its secrets that way, so that no password is on
/// a command line, where other processes of the machine can read it.
pub fn env_var(role: &str) -> String {
    format!("CONFORMANCE_AUTH_{}", role.to_ascii_uppercase())
}

/// Credentials from the environment (`get` reads a variable) for the roles `given` lacks:
/// (role, user, password). An empty variable counts as unset, as CI systems give an unset
/// secret as an empty text. The error names the variable, never its value.
pub fn from_env(
    given: impl Fn(&str) -> bool,
    get: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<Vec<(String, String, String)>, String> {
    let mut out = Vec::new();
    for role in ROLES.iter().copied().filter(|role| !given(role)) {
        let var = env_var(role);
        let Some(value) = get(&var).filter(|v| !v.is_empty()) else {
            continue;
        };
        let bad = || format!("{var} must be USER:PASSWORD (the user not empty)");
        let value = value.into_string().map_err(|_| bad())?;
        match value.split_once(':') {
            Some((user, password)) if !user.is_empty() => out.push((role.to_string(), user.into(), password.into())),
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

fn step_roles(step: &Step, out: &mut BTreeSet<&'static str>) {
    if let Some(Ok(Some(role))) = step.request.auth.as_deref().map(role_of) {
        out.insert(role);
    }
}

/// The roles a case sends requests as, in its steps or its cleanup.
pub fn needed(case: &Case) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    case.steps.iter().chain(&case.cleanup).for_each(|step| step_roles(step, &mut out));
    out
}

/// The roles `case` needs that `given` lacks, in the order of [`ROLES`].
pub fn missing(case: &Case, given: impl Fn(&str) -> bool) -> Vec<&'static str> {
    let needed = needed(case);
    ROLES.iter().copied().filter(|role| needed.contains(role) && !given(role)).collect()
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why a case that needs the `missing` roles is skipped.
pub fn skip_reason(missing: &[&str]) -> String {
    let options: Vec<String> = missing.iter().map(|role| format!("--auth {role}=USER:PASSWORD")).collect();
    format!("needs credentials for {}: give {}", and_list(missing), options.join(" "))
}

/// The line a run against an outside server starts with when `count` selected cases are
/// skipped for lack of credentials for `lacking`.
pub fn note(lacking: &BTreeSet<&str>, count: usize) -> String {
    let roles: Vec<&str> = ROLES.iter().copied().filter(|role| lacking.contains(role)).collect();
    let (cases, need, are) = if count == 1 { ("case", "needs", "is") } else { ("cases", "need", "are") };
    format!(
        "note: no credentials for {}: {count} {cases} that {need} them {are} skipped (give --auth ROLE=USER:PASSWORD)",
        and_list(&roles)
    )
}

/// The lines of `--help` that list the credential names.
pub fn help() -> String {
    format!(
        "Credential names (--auth NAME=USER:PASSWORD; `auth: NAME` in case files): {}. Case files also use \
         `{NONE}` and `NAME{WRONG_PASSWORD}`. Against --base-url, a case that needs a name not given is skipped.\n",
        ROLES.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::load_source;
    use crate::model::Loaded;

    #[test]
    fn names_are_the_five_roles() {
        assert_eq!(role_of("editor"), Ok(Some("editor")));
        assert_eq!(role_of("author:wrong-password"), Ok(Some("author")));
        assert_eq!(role_of("none"), Ok(None));
        let e = role_of("admin").unwrap_err();
        assert!(e.contains("unknown credential name `admin`") && e.contains("subscriber"), "{e}");
        assert!(role_of("none:wrong-password").is_err());
        assert!(check_given("contributor").is_ok());
        assert_eq!(
            check_given("admin").unwrap_err(),
            "unknown credential name `admin` in --auth: use administrator, editor, author, contributor, subscriber"
        );
    }

    #[test]
    fn a_case_needs_the_roles_of_its_steps_and_cleanup() {
        let source = "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, auth: subscriber}\n      - request: {path: /, auth: \"editor:wrong-password\"}\n      - request: {path: /, auth: none}\n    cleanup:\n      - request: {path: /, auth: author}\n";
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!() };
        let case = &file.cases[0];
        assert_eq!(needed(case).into_iter().collect::<Vec<_>>(), ["author", "editor", "subscriber"]);
        let given = |role: &str| role == "editor";
        assert_eq!(missing(case, given), ["author", "subscriber"]);
        assert_eq!(
            skip_reason(&missing(case, given)),
            "needs credentials for author and subscriber: give --auth author=USER:PASSWORD --auth subscriber=USER:PASSWORD"
        );
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        let lacking: BTreeSet<&str> = ["subscriber", "author"].into();
        assert_eq!(
            note(&lacking, 1),
            "note: no credentials for author and subscriber: 1 case that needs them is skipped (give --auth ROLE=USER:PASSWORD)"
        );
    }

    #[test]
    fn credentials_come_from_the_environment_for_roles_not_given() {
        let env = |var: &str| -> Option<std::ffi::OsString> {
            match var {
                "CONFORMANCE_AUTH_ADMINISTRATOR" => Some("root:pa:ss".into()),
                "CONFORMANCE_AUTH_EDITOR" => Some("ed:from-env".into()),
                "CONFORMANCE_AUTH_AUTHOR" => Some("".into()),
                _ => None,
            }
        };
        let found = from_env(|role| role == "editor", env).unwrap();
        assert_eq!(found, [("administrator".to_string(), "root".to_string(), "pa:ss".to_string())]);
        let bad = |var: &str| (var == "CONFORMANCE_AUTH_SUBSCRIBER").then(|| "secret-without-user".into());
        assert_eq!(
            from_env(|_| false, bad).unwrap_err(),
            "CONFORMANCE_AUTH_SUBSCRIBER must be USER:PASSWORD (the user not empty)",
            "the value is not shown"
        );
        assert!(from_env(|_| false, |v: &str| (v == "CONFORMANCE_AUTH_AUTHOR").then(|| ":x".into())).is_err());
    }
}
