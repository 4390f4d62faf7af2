//! The library entry point: the suite the runner carries, against an implementation at a base
//! URL, as [libtest-mimic](libtest_mimic) trials, so that a Rust implementation gates on the
//! suite in its own `cargo test` (a `harness = false` test). The crate documentation shows a
//! whole test file.
//!
//! The options are the runner's: [`Gate`] turns them into its command line, so they are
//! checked, and mean, exactly what they do for the `conformance` binary.

use std::ffi::OsString;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libtest_mimic::{Completion, Failed, Trial};

use super::shared::{Mode, Shared};
use super::{count_cases, file_error, shared_of, trial};
use crate::harness::Verdict;
use crate::model::{Level, Loaded};
use crate::source::{load_cases, Source};

/// The conformance suite against one implementation, as libtest-mimic trials: one per case,
/// named `FILE::CASE NAME` (as `conformance --list` prints them), of the kind of the case's
/// level (`test [must] events/create::…`).
///
/// Build it with [`Gate::new`] and the options, call [`Gate::trials`], run them with
/// [`libtest_mimic::run`], then print [`Gate::summary`] if you like. A case that cannot run
/// here (a feature given to [`Gate::without`], a role without credentials, a case that needs
/// an empty store without [`Gate::reset_command`]) is ignored at run time, with the reason.
///
/// Credentials also come from the environment variables `CONFORMANCE_AUTH_ROLE`
/// (`CONFORMANCE_AUTH_EDITOR=USER:PASSWORD`) for the roles [`Gate::auth`] does not give.
pub struct Gate {
    args: Vec<OsString>,
    /// What the last [`Gate::trials`] built: the state its trials share and record into.
    shared: Mutex<Option<Arc<Shared>>>,
}

impl Gate {
    /// The suite against the implementation whose `{base_url}` is `base_url`, e.g.
    /// `http://127.0.0.1:8080/wp-json` (the routes are under `{base_url}/calendar/events/v1`).
    pub fn new(base_url: impl AsRef<str>) -> Gate {
        Gate {
            args: vec!["conformance".into(), format!("--base-url={}", base_url.as_ref()).into()],
            shared: Mutex::default(),
        }
    }

    fn arg(mut self, option: &str, value: impl AsRef<str>) -> Gate {
        self.args.push(format!("--{option}={}", value.as_ref()).into());
        self
    }

    /// The credentials of a role: `administrator`, `editor`, `author`, `contributor` or
    /// `subscriber` (HTTP Basic). Cases that act as a role without credentials are ignored.
    pub fn auth(self, role: &str, user: &str, password: &str) -> Gate {
        self.arg("auth", format!("{role}={user}:{password}"))
    }

    /// The route namespace (default `calendar/events/v1`).
    pub fn namespace(self, namespace: &str) -> Gate {
        self.arg("namespace", namespace)
    }

    /// The name of the language parameter (default `multilingual_language`).
    pub fn language_param(self, name: &str) -> Gate {
        self.arg("language-param", name)
    }

    /// Features the implementation lacks (`geoloc`, `tickets`, `series`, `event-password`,
    /// `languages`): the cases that require them are ignored.
    pub fn without<'a>(self, features: impl IntoIterator<Item = &'a str>) -> Gate {
        let features: Vec<&str> = features.into_iter().collect();
        if features.is_empty() {
            return self;
        }
        self.arg("without", features.join(","))
    }

    /// A file of test names known to fail (one a line, `#` comments): they pass, and one of
    /// them that passes fails ("unexpected pass").
    pub fn expectations(self, file: impl AsRef<Path>) -> Gate {
        self.arg("expectations", file.as_ref().display().to_string())
    }

    /// A shell command that empties the implementation's store; it runs before each case that
    /// needs an empty store (those cases then run alone). Without it they are ignored.
    pub fn reset_command(self, command: &str) -> Gate {
        self.arg("reset-command", command)
    }

    /// The timeout of each request (default 30 seconds).
    pub fn timeout(self, timeout: Duration) -> Gate {
        self.arg("timeout", timeout.as_secs_f64().to_string())
    }

    /// Also check every JSON answer against the OpenAPI document the implementation serves at
    /// `{base_url}/{namespace}/doc`.
    pub fn check_doc(mut self) -> Gate {
        self.args.push("--check-doc".into());
        self
    }

    /// Only the cases of these levels (all by default).
    pub fn levels(self, levels: &[Level]) -> Gate {
        let names: Vec<&str> = levels.iter().map(|l| l.name()).collect();
        self.arg("level", names.join(","))
    }

    /// Leave out the cases whose name (`FILE::CASE NAME`) contains `text`, as the runner's
    /// `--skip` does; repeatable. (`cargo test -- --skip TEXT` does the same for one run.)
    pub fn skip(self, text: &str) -> Gate {
        self.arg("skip", text)
    }

    /// The case files of a folder instead of the suite the crate carries.
    pub fn cases(self, dir: impl AsRef<Path>) -> Gate {
        self.arg("cases", dir.as_ref().display().to_string())
    }

    /// One trial per case of the suite. Before returning, it checks the implementation once, as
    /// the runner's pre-flight does: `{base_url}/{namespace}` must answer the namespace index,
    /// and every role's credentials must be accepted. `Err` says what is wrong in one line: an
    /// option, a case file folder, or the pre-flight.
    pub fn trials(&self) -> Result<Vec<Trial>, String> {
        let cli = crate::cli::parse(&self.args).map_err(|e| e.to_string().trim().to_string())?;
        let (source, loaded) = load_cases(cli.cases.clone(), &Source::Embedded)?;
        count_cases(&source, &loaded)?;
        let shared = Arc::new(shared_of(&cli, &loaded)?);
        if let Mode::Outside { endpoint, .. } = &shared.mode {
            shared.runtime.block_on(crate::preflight::check(&shared.client, endpoint))?;
        }
        let mut trials = Vec::new();
        let (mut lacking, mut skipped_for_credentials) = (std::collections::BTreeSet::new(), 0);
        for item in loaded {
            let shared = shared.clone();
            match item {
                Loaded::Error(error) if !cli.harness.is_filtered_out(&error.name) => {
                    trials.push(Trial::test(error.name.clone(), move || outcome(file_error(&shared, &error))));
                }
                Loaded::File(file) => {
                    for case in file.cases {
                        if !cli.selects(&case) || cli.harness.is_filtered_out(&case.name) {
                            continue;
                        }
                        let skip = trial::skip(&shared, &case);
                        if let Some(trial::Skip::Credentials(roles)) = &skip {
                            lacking.extend(roles.iter().copied());
                            skipped_for_credentials += 1;
                        }
                        let (name, level) = (case.name.clone(), case.level);
                        let shared = shared.clone();
                        let run = move || completion(trial::run(&shared, case, skip));
                        trials.push(Trial::ignorable_test(name, run).with_kind(level.name()));
                    }
                }
                Loaded::Error(_) => {}
            }
        }
        if skipped_for_credentials > 0 {
            eprintln!("{}", crate::credentials::note(&lacking, skipped_for_credentials));
        }
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = Some(shared);
        Ok(trials)
    }

    /// The runner's summary of the cases the last [`Gate::trials`] ran so far: per level, how
    /// many passed, then the verdict (the implementation conforms when every must case
    /// passed) and why the exit status of the runner would be what it is.
    pub fn summary(&self) -> String {
        let Some(shared) = self.shared.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
            return String::new();
        };
        let mut reports = shared.reports.lock().map(|r| r.clone()).unwrap_or_default();
        reports.sort_by(|a, b| a.name.cmp(&b.name));
        let tally = crate::report::summary::Tally::of(&reports);
        let mut summary = crate::report::summary::render(&tally, &shared.expectations_file);
        if let Some(doc) = &shared.settings.doc {
            summary
                .push_str(&format!("/doc: {} answers checked against the implementation's document\n", doc.checked()));
        }
        summary
    }
}

fn completion(verdict: Verdict) -> Result<Completion, Failed> {
    match verdict {
        Verdict::Passed => Ok(Completion::Completed),
        Verdict::Ignored(reason) => Ok(Completion::ignored_with(reason)),
        Verdict::Failed(message) => Err(message.into()),
    }
}

fn outcome(verdict: Verdict) -> Result<(), Failed> {
    completion(verdict).map(|_| ())
}
