//! The suite under other names: with `--namespace tribe/events/v1 --language-param
//! wpml_language` (the real plugin's), every case has the outcome it has under the default
//! names, which the `cargo test` gate (`tests/suite.rs`) requires to be a pass or a skip decided
//! before the case runs. So here every case must pass, or be skipped for that same reason: no
//! case hard-codes the namespace or the language parameter.

use std::collections::BTreeMap;
use std::path::Path;

use conformance::features::{unavailable, Place};
use conformance::model::Loaded;
use serde_json::Value;

#[test]
fn every_case_has_the_same_outcome_under_other_names() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    // The outcome of each case under the default names, known without running it.
    let mut expected = BTreeMap::new();
    for loaded in conformance::loader::load_dir(&cases).expect("cases") {
        let Loaded::File(file) = loaded else { panic!("a case file does not load") };
        for case in file.cases {
            let outcome = match unavailable(&case.requires, Place::Embedded { without: &[] }) {
                Some(reason) => ("skipped".to_string(), reason),
                None => ("passed".to_string(), String::new()),
            };
            expected.insert(case.name, outcome);
        }
    }
    assert!(expected.len() > 400, "only {} cases", expected.len());

    let report_path = std::env::temp_dir().join(format!("conformance-renamed-{}.json", std::process::id()));
    let args = [
        "conformance",
        "--quiet",
        "--namespace",
        "tribe/events/v1",
        "--language-param",
        "wpml_language",
        "--json",
        report_path.to_str().expect("temp path"),
    ];
    let status = conformance::app::run(args.iter().map(Into::into).collect(), cases);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report_path).expect("report")).expect("JSON");
    let _ = std::fs::remove_file(&report_path);

    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let actual: BTreeMap<String, (String, String)> = report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| (text(&c["name"]), (text(&c["outcome"]), text(&c["reason"]))))
        .collect();
    let mut differences = Vec::new();
    for name in expected.keys().chain(actual.keys().filter(|n| !expected.contains_key(*n))) {
        let (e, a) = (expected.get(name), actual.get(name));
        if e != a {
            differences
                .push(format!("{name}: {e:?} with the default names, {a:?} with tribe/events/v1 and wpml_language"));
        }
    }
    assert!(
        differences.is_empty(),
        "{} cases fare differently under other names (a case hard-codes the namespace or the language parameter: use {{{{namespace}}}} and {{{{language_param}}}}):\n{}",
        differences.len(),
        differences[..differences.len().min(30)].join("\n")
    );
    assert_eq!(status, 0);
}
