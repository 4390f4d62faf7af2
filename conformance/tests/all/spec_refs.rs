//! Every case's `spec` names sources that exist, and its level agrees with them
//! (docs/case-format.md, "Levels"): a `must` case cites the interface document and no decision,
//! a `should` case cites what real sites do (an `S` section of docs/behaviour.md) and no
//! decision, a `may` case cites a decision of the reference server (a `D` section).
//!
//! And a `must` step asserts only what the interface document states (docs/case-format.md,
//! "What a must step may assert"): a status class (`2xx`, `4xx`), never one status; no header;
//! no error `code`, `message` or `data`; no list `total`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use conformance::model::{Capture, Case, Level, Loaded, Step};
use conformance::node::{Node, NodeKind};

/// The sections of the interface document (it is not part of the project, so its list is here).
const INTERFACE: &[&str] =
    &["1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4", "4.1", "4.2", "4.3", "4.4", "5", "6", "7", "8", "9"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The section numbers of docs/behaviour.md: headings that start with `S<n>`, `S<n>.<m>` or `D<n>`.
/// Duplicates and subsections without their section are errors.
fn behaviour_sections(text: &str) -> Result<BTreeSet<String>, Vec<String>> {
    let heading = regex::Regex::new(r"^#{2,6}\s+([SD][1-9][0-9]*(?:\.[1-9][0-9]*)?)\s").unwrap();
    let mut found = BTreeSet::new();
    let mut errors = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if let Some(m) = heading.captures(line) {
            let id = m[1].to_string();
            if id.starts_with('D') && id.contains('.') {
                errors.push(format!("line {}: decisions have no subsections: {id}", number + 1));
            }
            if let Some((top, _)) = id.split_once('.') {
                if !found.contains(top) {
                    errors.push(format!("line {}: {id} comes before (or without) its section {top}", number + 1));
                }
            }
            if !found.insert(id.clone()) {
                errors.push(format!("line {}: section {id} appears twice", number + 1));
            }
        }
    }
    if errors.is_empty() {
        Ok(found)
    } else {
        Err(errors)
    }
}

/// What is wrong with one case's citations, if anything.
fn problems(case: &Case, behaviour: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    let (mut interface, mut real, mut decisions) = (0, 0, 0);
    for cited in &case.spec {
        if INTERFACE.contains(&cited.as_str()) {
            interface += 1;
        } else if behaviour.contains(cited) {
            if cited.starts_with('S') {
                real += 1;
            } else {
                decisions += 1;
            }
        } else {
            out.push(format!(
                "cites `{cited}`, which is neither a section of the interface document nor of docs/behaviour.md"
            ));
        }
    }
    let rule = match case.level {
        Level::Must if interface == 0 => Some("a must case cites at least one interface section"),
        Level::Must if decisions > 0 => Some("a must case cites no decision (D section)"),
        Level::Should if real == 0 => Some("a should case cites at least one S section of docs/behaviour.md"),
        Level::Should if decisions > 0 => Some("a should case cites no decision (D section)"),
        Level::May if decisions == 0 => Some("a may case cites at least one decision (D section)"),
        _ => None,
    };
    if let Some(rule) = rule {
        out.push(format!("level {:?} disagrees with its sources {:?}: {rule}", case.level, case.spec));
    }
    out
}

/// Keys that a must step's body patterns may not name: the error payload and the list totals,
/// which the interface document leaves to each implementation (its sections 2, 4 and 7).
const BEYOND_THE_DOCUMENT: &[&str] = &["code", "message", "data", "total", "total_pages"];

/// What one must case asserts beyond the interface document, step by step.
fn must_overreach(case: &Case) -> Vec<String> {
    if case.level != Level::Must {
        return Vec::new();
    }
    let mut out = Vec::new();
    let steps = case.steps.iter().map(|s| ("step", s)).chain(case.cleanup.iter().map(|s| ("cleanup step", s)));
    for (n, (kind, step)) in steps.enumerate() {
        for problem in step_overreach(case, step) {
            out.push(format!("{kind} {} ({}): {problem}", n + 1, step.request.method));
        }
    }
    out
}

fn step_overreach(case: &Case, step: &Step) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(status) = &step.expect.status {
        if !matches!(&status.kind, NodeKind::Str(t) if t.source == "2xx" || t.source == "4xx") {
            out.push(format!("asserts an exact status at line {} (write 2xx or 4xx)", status.at.line));
        }
    }
    for (name, _) in &step.expect.headers {
        out.push(format!("asserts the header {name}"));
    }
    for (name, capture) in &step.capture {
        if let Capture::Header(header) = capture {
            out.push(format!("captures `{name}` from the header {header}"));
        }
    }
    let mut keys = Vec::new();
    if let Some(json) = &step.expect.json {
        keys_of(case, json, &mut keys, 0);
    }
    for (path, node) in &step.expect.paths {
        let words: Vec<&str> = path.source.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
        keys.extend(words.into_iter().filter(|w| BEYOND_THE_DOCUMENT.contains(w)).map(str::to_string));
        keys_of(case, node, &mut keys, 0);
    }
    out.extend(keys.into_iter().map(|k| format!("asserts `{k}`, which the interface document does not name")));
    out
}

/// The keys of a pattern that the document does not name, following `{{var}}` into the case's vars.
fn keys_of(case: &Case, node: &Node, out: &mut Vec<String>, depth: usize) {
    match &node.kind {
        NodeKind::Object(entries) => {
            for (key, value) in entries {
                if BEYOND_THE_DOCUMENT.contains(&key.text.as_str()) {
                    out.push(key.text.clone());
                }
                keys_of(case, value, out, depth);
            }
        }
        NodeKind::Array(items) => items.iter().for_each(|item| keys_of(case, item, out, depth)),
        NodeKind::Str(t) if depth < 8 => {
            let var = t.single_expr().and_then(|e| e.variable());
            if let Some((_, value)) = case.vars.iter().find(|(name, _)| Some(name.as_str()) == var) {
                keys_of(case, value, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn cases_of(loaded: Vec<Loaded>) -> Vec<Case> {
    let mut cases = Vec::new();
    for file in loaded {
        match file {
            Loaded::File(file) => cases.extend(file.cases),
            Loaded::Error(error) => panic!("a case file does not load:\n{error}"),
        }
    }
    cases
}

/// The problems of the case files in `dir` (`conformance explore` writes them): citations that
/// do not exist or disagree with the level, and must steps that assert more than the document.
pub(crate) fn case_file_problems(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/behaviour.md")).expect("docs/behaviour.md");
    let behaviour = behaviour_sections(&text).unwrap_or_else(|e| panic!("docs/behaviour.md:\n{}", e.join("\n")));
    let cases = cases_of(conformance::loader::load_dir(dir).expect("the folder"));
    let problems = cases.iter().flat_map(|case| problems(case, &behaviour).into_iter().chain(must_overreach(case)));
    problems.collect()
}

#[test]
fn the_explore_examples_follow_the_rules() {
    let dir = root().join("docs/explore-examples");
    let count = std::fs::read_dir(&dir).expect("docs/explore-examples").count();
    assert!(count >= 4, "only {count} examples");
    let report = case_file_problems(&dir);
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn every_case_cites_existing_sections_that_agree_with_its_level() {
    let text = std::fs::read_to_string(root().join("docs/behaviour.md")).expect("docs/behaviour.md");
    let behaviour = behaviour_sections(&text).unwrap_or_else(|e| panic!("docs/behaviour.md:\n{}", e.join("\n")));
    let cases = cases_of(conformance::loader::load_dir(&root().join("cases")).expect("cases/"));
    assert!(cases.len() > 400, "only {} cases found", cases.len());
    let mut report = Vec::new();
    for case in &cases {
        for problem in problems(case, &behaviour) {
            report.push(format!("{} ({}): {problem}", case.name, case.file));
        }
    }
    assert!(report.is_empty(), "{} problem(s):\n{}", report.len(), report.join("\n"));
}

#[test]
fn every_must_step_asserts_only_what_the_document_states() {
    let cases = cases_of(conformance::loader::load_dir(&root().join("cases")).expect("cases/"));
    let musts = cases.iter().filter(|c| c.level == Level::Must).count();
    assert!(musts > 80, "only {musts} must cases found");
    let report: Vec<String> = cases
        .iter()
        .flat_map(|case| must_overreach(case).into_iter().map(move |p| format!("{} ({}): {p}", case.name, case.file)))
        .collect();
    assert!(report.is_empty(), "{} must step(s) assert more than the document:\n{}", report.len(), report.join("\n"));
}

#[test]
fn the_must_rule_catches_each_kind_of_overreach() {
    let source = r#"
level: must
vars:
  refusal: {code: rest_invalid_param}
cases:
  - {name: fine, steps: [{request: {path: /}, expect: {status: 2xx, json: {id: 1, events: []}}},
                         {request: {path: /x}, expect: {status: 4xx}}]}
  - {name: exact success, steps: [{request: {path: /}, expect: {status: 201}}]}
  - {name: set of statuses, steps: [{request: {path: /}, expect: {status: {$in: [200, 201]}}}]}
  - {name: exact refusal, steps: [{request: {path: /}, expect: {status: 400}}]}
  - {name: error code, steps: [{request: {path: /}, expect: {status: 4xx, json: {code: x}}}]}
  - {name: error message deep, steps: [{request: {path: /}, expect: {json: {data: {params: {}}}}}]}
  - {name: code through a var, steps: [{request: {path: /}, expect: {json: "{{refusal}}"}}]}
  - {name: a header, steps: [{request: {path: /}, expect: {headers: {X-WP-Total: "1"}}}]}
  - {name: a total, steps: [{request: {path: /}, expect: {json: {events: [], total: 0}}}]}
  - {name: a path to the code, steps: [{request: {path: /}, expect: {paths: {"$.code": x}}}]}
  - {name: a header capture, steps: [{request: {path: /}, capture: {where: "header:Location"}}]}
  - {name: in cleanup, steps: [{request: {path: /}}], cleanup: [{request: {path: /}, expect: {status: 200}}]}
  - {name: should may, level: should, spec: ["S1"], steps: [{request: {path: /}, expect: {status: 400, json: {code: x}}}]}
"#;
    let cases = cases_of(vec![conformance::loader::load_source("t", "t.yaml", source)]);
    let flagged: Vec<&str> =
        cases.iter().filter(|c| !must_overreach(c).is_empty()).map(|c| c.name.trim_start_matches("t::")).collect();
    assert_eq!(
        flagged,
        [
            "exact success",
            "set of statuses",
            "exact refusal",
            "error code",
            "error message deep",
            "code through a var",
            "a header",
            "a total",
            "a path to the code",
            "a header capture",
            "in cleanup",
        ]
    );
}

/// The set-up steps of a case that assert more than a status class. A set-up step prepares data
/// for a later step: it captures something and checks nothing but its status. Whatever the
/// case's level, it asserts `2xx` or `4xx` only, so that a freedom the interface leaves (a create
/// answered 200) does not hide what the case is about; a case whose name states the status
/// (`… answers 201 …`) is about it, and keeps it.
fn setup_overreach(case: &Case) -> Vec<String> {
    let mut out = Vec::new();
    let last = case.steps.len().saturating_sub(1);
    for (n, step) in case.steps.iter().enumerate() {
        let expect = &step.expect;
        if let Some(NodeKind::Number(code)) = expect.status.as_ref().map(|s| &s.kind) {
            if code.as_u64() == Some(201) && !case.name.contains("201") {
                let line = expect.status.as_ref().map_or(0, |s| s.at.line);
                out.push(format!("step {} asserts 201 at line {line}, in a case not about the 201 (write 2xx)", n + 1));
                continue;
            }
        }
        let checks_only_status = expect.json.is_none() && expect.headers.is_empty() && expect.paths.is_empty();
        if n == last || step.capture.is_empty() || !checks_only_status {
            continue;
        }
        let Some(status) = &expect.status else { continue };
        let exact = match &status.kind {
            NodeKind::Str(t) => !matches!(t.source.as_str(), "2xx" | "4xx" | "1xx" | "3xx" | "5xx"),
            _ => true,
        };
        let named = match &status.kind {
            NodeKind::Number(code) => case.name.contains(&code.to_string()),
            _ => false,
        };
        if exact && !named {
            out.push(format!(
                "set-up step {} asserts an exact status at line {} (write 2xx or 4xx)",
                n + 1,
                status.at.line
            ));
        }
    }
    out
}

#[test]
fn set_up_steps_assert_only_a_status_class() {
    let cases = cases_of(conformance::loader::load_dir(&root().join("cases")).expect("cases/"));
    let report: Vec<String> = cases
        .iter()
        .flat_map(|case| setup_overreach(case).into_iter().map(move |p| format!("{} ({}): {p}", case.name, case.file)))
        .collect();
    assert!(
        report.is_empty(),
        "{} set-up step(s) assert more than a status class:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn the_set_up_rule_catches_each_kind() {
    let source = r#"
level: should
spec: ["S1"]
cases:
  - {name: fine, steps: [{request: {path: /}, expect: {status: 2xx}, capture: {id: $.id}},
                         {request: {path: /x}, expect: {status: 200, json: {id: 1}}}]}
  - {name: exact create, steps: [{request: {path: /}, expect: {status: 201}, capture: {id: $.id}},
                                 {request: {path: /x}, expect: {status: 200}}]}
  - {name: exact refusal first, steps: [{request: {path: /}, expect: {status: 400}, capture: {c: $.code}},
                                        {request: {path: /x}, expect: {status: 200}}]}
  - {name: a set, steps: [{request: {path: /}, expect: {status: {$in: [200, 201]}}, capture: {id: $.id}},
                          {request: {path: /x}}]}
  - {name: the create answers 201, steps: [{request: {path: /}, expect: {status: 201}, capture: {id: $.id}},
                                           {request: {path: /x}}]}
  - {name: a check, steps: [{request: {path: /}, expect: {status: 201, json: {a: 1}}, capture: {id: $.id}},
                            {request: {path: /x}}]}
  - {name: no capture, steps: [{request: {path: /}, expect: {status: 201}}, {request: {path: /x}}]}
  - {name: the last step, steps: [{request: {path: /}, expect: {status: 201}, capture: {id: $.id}}]}
  - {name: a create checked, steps: [{request: {path: /}, expect: {status: 201, json: {a: 1}}}]}
  - {name: answers 201 with the item, steps: [{request: {path: /}, expect: {status: 201, json: {a: 1}}}]}
"#;
    let cases = cases_of(vec![conformance::loader::load_source("t", "t.yaml", source)]);
    let flagged: Vec<&str> =
        cases.iter().filter(|c| !setup_overreach(c).is_empty()).map(|c| c.name.trim_start_matches("t::")).collect();
    assert_eq!(
        flagged,
        ["exact create", "exact refusal first", "a set", "a check", "no capture", "the last step", "a create checked"]
    );
}

#[test]
fn behaviour_md_has_both_parts() {
    let text = std::fs::read_to_string(root().join("docs/behaviour.md")).expect("docs/behaviour.md");
    let sections = behaviour_sections(&text).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    assert!(sections.contains("S1") && sections.contains("S1.1") && sections.contains("D1"), "{sections:?}");
}

#[test]
fn the_checks_catch_each_kind_of_mistake() {
    let behaviour = behaviour_sections("## S5 Lists\n#### S5.4 Dates\n### D16 Updates\n").unwrap();
    let source = r#"
level: must
cases:
  - {name: fine must, spec: ["4.2"], steps: [{request: {path: /}}]}
  - {name: must with a decision, spec: ["4.2", "D16"], steps: [{request: {path: /}}]}
  - {name: must without the interface, spec: ["S5.4"], steps: [{request: {path: /}}]}
  - {name: fine should, level: should, spec: ["4.2", "S5.4"], steps: [{request: {path: /}}]}
  - {name: should without S, level: should, spec: ["4.2"], steps: [{request: {path: /}}]}
  - {name: should with a decision, level: should, spec: ["S5.4", "D16"], steps: [{request: {path: /}}]}
  - {name: fine may, level: may, spec: ["S5.4", "D16"], steps: [{request: {path: /}}]}
  - {name: may without D, level: may, spec: ["S5.4"], steps: [{request: {path: /}}]}
  - {name: unknown section, spec: ["4.2", "S5.9"], steps: [{request: {path: /}}]}
  - {name: old citation, level: should, spec: ["S5", "profile B4"], steps: [{request: {path: /}}]}
  - {name: interface section that does not exist, spec: ["4.5"], steps: [{request: {path: /}}]}
"#;
    let cases = cases_of(vec![conformance::loader::load_source("t", "t.yaml", source)]);
    let flagged: Vec<&str> = cases
        .iter()
        .filter(|c| !problems(c, &behaviour).is_empty())
        .map(|c| c.name.trim_start_matches("t::"))
        .collect();
    assert_eq!(
        flagged,
        [
            "must with a decision",
            "must without the interface",
            "should without S",
            "should with a decision",
            "may without D",
            "unknown section",
            "old citation",
            "interface section that does not exist",
        ]
    );
}

#[test]
fn the_heading_parser_refuses_duplicates_and_orphans() {
    assert!(behaviour_sections("## S1 A\n## S1 B\n").is_err());
    assert!(behaviour_sections("#### S2.1 Without its section\n").is_err());
    assert!(behaviour_sections("### D3.1 A decision subsection\n").is_err());
    let ok = behaviour_sections("## S1 A\n### S1.1 B\nSome text S2\n## D1 C\n").unwrap();
    assert_eq!(ok.into_iter().collect::<Vec<_>>(), ["D1", "S1", "S1.1"]);
}
