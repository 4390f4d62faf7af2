//! The runner's YAML reader reads every case file of the project (the suite and the test
//! fixtures) to the same values as `serde_yaml_ng`, the reader it replaced: moving to a reader
//! that knows positions changed no case.

use std::path::Path;

#[test]
fn every_case_file_reads_as_serde_yaml_read_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for dir in [root.join("../cases"), root.join("tests/fixtures")] {
        for (path, _) in conformance::loader::find_files(&dir).expect("readable folder") {
            let text = std::fs::read_to_string(&path).expect("readable file");
            let Ok(expected) = serde_yaml_ng::from_str::<serde_json::Value>(&text) else { continue };
            let document = conformance::yaml::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            let actual = document.root.map(|y| conformance::yaml::to_json(&y)).unwrap_or_default();
            assert_eq!(actual, expected, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} files");
}
