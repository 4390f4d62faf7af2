//! The library entry point (`conformance::Gate`) against in-process reference servers: its
//! trials fail when the implementation does not conform, honour `without`, `expectations`,
//! `skip` and missing credentials as the runner does, and bad options or an address that is
//! not the interface are errors before any trial.

use std::collections::BTreeSet;

use conformance::libtest_mimic::{self, Arguments, Conclusion};
use conformance::model::Loaded;
use conformance::Gate;

use crate::common;
use common::*;

fn all_roles(gate: Gate) -> Gate {
    ["administrator", "editor", "author", "contributor", "subscriber"].iter().fold(gate, |gate, role| {
        let user = if *role == "administrator" { "admin" } else { role };
        gate.auth(role, user, &format!("{user}-password"))
    })
}

/// Runs the gate's trials whose name contains `filter`; their output goes to a log file (the
/// expected failures would read as this test's own), which a failed assertion can show.
fn run(gate: &Gate, filter: &str) -> Conclusion {
    let trials = gate.trials().unwrap();
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = std::env::temp_dir().join(format!("conformance-gate-{}-{n}.log", std::process::id()));
    let args = Arguments {
        filter: Some(filter.into()),
        quiet: true,
        test_threads: Some(2),
        logfile: Some(log.display().to_string()),
        ..Arguments::default()
    };
    let conclusion = libtest_mimic::run(&args, trials);
    if conclusion.has_failed() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    let _ = std::fs::remove_file(&log);
    conclusion
}

/// The names of the suite's cases that require `feature`.
fn requiring(feature: &str) -> BTreeSet<String> {
    conformance::suite::load()
        .into_iter()
        .filter_map(|l| match l {
            Loaded::File(f) => Some(f.cases),
            Loaded::Error(_) => None,
        })
        .flatten()
        .filter(|c| c.requires.iter().any(|r| r == feature))
        .map(|c| c.name)
        .collect()
}

#[test]
fn trials_fail_where_the_implementation_differs_and_without_or_expectations_gate_it() {
    let site = server(false);
    // Against an outside server without a reset command, the cases that need an empty store
    // are skipped whatever the features: they are counted apart.
    let fresh = requiring("fresh-store");
    let ticket_cases: BTreeSet<String> = requiring("tickets").difference(&fresh).cloned().collect();
    assert!(ticket_cases.len() >= 2, "{ticket_cases:?}");
    // The filter keeps the cases of the files that hold ticket cases.
    let files: BTreeSet<&str> = ticket_cases.iter().map(|n| n.split("::").next().unwrap()).collect();
    let fresh_in_files = fresh.iter().filter(|n| files.contains(n.split("::").next().unwrap())).count();
    let filter = |gate: &Gate| {
        files
            .iter()
            .map(|file| run(gate, &format!("{file}::")))
            .fold((0, 0, 0), |(p, f, i), c| (p + c.num_passed, f + c.num_failed, i + c.num_ignored))
    };

    // Told nothing, the cases that need tickets fail against a site without them.
    let gate = all_roles(Gate::new(&site.base_url));
    let (passed, failed, _) = filter(&gate);
    assert_eq!(failed as usize, ticket_cases.len(), "every ticket case fails");
    assert!(passed > 0);
    assert!(gate.summary().contains("failed"), "{}", gate.summary());

    // Told the site has no tickets, they are ignored and nothing fails.
    // The cases of those files that need a server without geolocation are ignored too: the site
    // has it.
    let without_geoloc = requiring("!geoloc").iter().filter(|n| files.contains(n.split("::").next().unwrap())).count();
    let gate = all_roles(Gate::new(&site.base_url)).without(["tickets"]);
    let (_, failed, ignored) = filter(&gate);
    assert_eq!((failed, ignored as usize), (0, ticket_cases.len() + without_geoloc + fresh_in_files));

    // Listed as known failures, they pass; a listed case that passes fails.
    let dir = std::env::temp_dir().join(format!("conformance-gate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let known = dir.join("known.txt");
    let list: Vec<&str> = ticket_cases.iter().map(String::as_str).collect();
    std::fs::write(&known, list.join("\n")).unwrap();
    let gate = all_roles(Gate::new(&site.base_url)).expectations(&known);
    assert_eq!(filter(&gate).1, 0);
    let passing = server(true);
    let gate = all_roles(Gate::new(&passing.base_url)).expectations(&known);
    assert_eq!(filter(&gate).1 as usize, ticket_cases.len(), "unexpected passes fail");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cases_without_credentials_are_ignored_and_skip_leaves_cases_out() {
    let site = server(true);
    let gate = Gate::new(&site.base_url).skip("auth/matrix::");
    let trials = gate.trials().unwrap();
    assert!(trials.iter().all(|t| !t.name().starts_with("auth/matrix::")));
    assert!(trials.iter().any(|t| t.name().starts_with("auth/visibility::")));
    assert!(trials.iter().all(|t| ["must", "should", "may"].contains(&t.kind())), "kinds are levels");
    // Without credentials, the cases that act as a role are ignored, not failed.
    let conclusion = run(&gate, "events/create::");
    assert_eq!(conclusion.num_failed, 0);
    assert!(conclusion.num_ignored > 0);
}

#[test]
fn wrong_options_and_wrong_addresses_are_errors_before_any_trial() {
    let site = server(true);
    let error = |gate: Gate| gate.trials().err().unwrap_or_else(|| panic!("expected an error"));
    let e = error(Gate::new(&site.base_url).auth("admin", "admin", "admin-password"));
    assert!(e.contains("unknown credential name `admin`"), "{e}");
    let e = error(Gate::new(&site.base_url).without(["teleport"]));
    assert!(e.contains("teleport"), "{e}");
    let e = error(Gate::new(format!("{}/calendar/events/v1", site.base_url)));
    assert!(e.contains("pre-flight") && e.contains("already ends with the namespace"), "{e}");
    let e = error(Gate::new(&site.base_url).auth("editor", "editor", "wrong"));
    assert!(e.contains("pre-flight") && e.contains("editor"), "{e}");
    let e = error(Gate::new("http://127.0.0.1:9/wp-json"));
    assert!(e.contains("pre-flight"), "{e}");
}
