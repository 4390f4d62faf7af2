//! The JSON Schema of case files: the committed copy is what `conformance schema` prints, and
//! every case file of the project (the suite under `cases/` and the test fixtures) validates.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A YAML text as JSON, read by the runner's own reader.
fn yaml_json(text: &str) -> serde_json::Value {
    conformance::yaml::to_json(&conformance::yaml::parse(text).expect("YAML").root.expect("a value"))
}

fn compiled() -> (boon::Schemas, boon::SchemaIndex) {
    let schema = conformance::schema::schema();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("case.schema.json", schema).expect("the schema is a resource");
    let mut schemas = boon::Schemas::new();
    let index = compiler.compile("case.schema.json", &mut schemas).expect("the schema compiles");
    (schemas, index)
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    conformance::loader::find_files(dir).expect("readable folder").into_iter().map(|(path, _)| path).collect()
}

#[test]
fn the_committed_schema_is_the_printed_one() {
    let committed = std::fs::read_to_string(root().join("docs/case.schema.json")).expect("docs/case.schema.json");
    assert_eq!(
        committed,
        conformance::schema::text(),
        "docs/case.schema.json is stale: run `cargo run -p conformance -- schema > docs/case.schema.json`"
    );
}

#[test]
fn every_case_file_validates() {
    let (schemas, index) = compiled();
    let mut files = yaml_files(&root().join("cases"));
    for fixture in ["pass", "fail", "embedded", "renamed", "features", "credentials", "repro", "hostile"] {
        files.extend(yaml_files(&root().join("conformance/tests/fixtures").join(fixture)));
    }
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let value = yaml_json(&text);
        if let Err(e) = schemas.validate(&value, index) {
            panic!("{} does not validate against the schema: {e:#}", file.display());
        }
    }
}

#[test]
fn the_schema_rejects_what_the_loader_rejects() {
    let (schemas, index) = compiled();
    let bad = [
        "cases: [{name: a, steps: [{request: {path: /}, expct: 1}]}]",
        "cases: [{name: a, level: often, steps: [{request: {path: /}}]}]",
        "cases: [{name: a, steps: [{request: {path: /, url: /}}]}]",
        "cases: [{name: a, steps: [{request: {path: /}, expect: {json: {$typo: 1}}}]}]",
        "cases: [{name: a, steps: [{request: {path: /}, expect: {json: {$any: false}}}]}]",
        "cases: [{name: a, steps: [{request: {path: /}, repeat: 2, foreach: x}]}]",
        "cases: [{name: a, requires: [tikets], steps: [{request: {path: /}}]}]",
        "cases: [{name: a, steps: [{request: {path: /, auth: admin}}]}]",
    ];
    for text in bad {
        let value = yaml_json(text);
        assert!(schemas.validate(&value, index).is_err(), "the schema accepts {text}");
    }
}

#[test]
fn the_whole_file_examples_of_the_documentation_load_and_validate() {
    let doc = std::fs::read_to_string(root().join("docs/case-format.md")).expect("docs/case-format.md");
    let (schemas, index) = compiled();
    let mut checked = 0;
    for block in doc.split("```yaml\n").skip(1) {
        let block = block.split("```").next().unwrap_or("");
        if !block.lines().any(|line| line.starts_with("cases:")) {
            continue; // a fragment of a file
        }
        match conformance::loader::load_source("doc", "docs/case-format.md", block) {
            conformance::model::Loaded::File(_) => {}
            conformance::model::Loaded::Error(e) => panic!("a documentation example does not load:\n{e}\n{block}"),
        }
        let value = yaml_json(block);
        assert!(schemas.validate(&value, index).is_ok(), "a documentation example does not validate:\n{block}");
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} whole-file examples found");
}

/// The name filters the documentation shows (`… --test suite -- 'FILTER'`, `conformance -- 'FILTER'`).
fn documented_filters(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for marker in ["--test suite -- '", "-p conformance -- '"] {
            if let Some(at) = line.find(marker) {
                let rest = &line[at + marker.len()..];
                if let Some(end) = rest.find('\'') {
                    out.push(rest[..end].to_string());
                }
            }
        }
    }
    out
}

#[test]
fn the_filter_examples_of_the_documentation_match_cases() {
    let mut names = Vec::new();
    for item in conformance::loader::load_dir(&root().join("cases")).expect("cases/") {
        if let conformance::model::Loaded::File(file) = item {
            names.extend(file.cases.into_iter().map(|c| c.name));
        }
    }
    let mut checked = 0;
    for doc in ["README.md", "docs/case-format.md"] {
        let text = std::fs::read_to_string(root().join(doc)).expect("the document");
        for filter in documented_filters(&text) {
            assert!(names.iter().any(|n| n.contains(&filter)), "{doc}: the filter {filter:?} matches no case");
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} filter examples found");
}
