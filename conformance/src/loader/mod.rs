//! Loading: finds the case files, reads each once and validates everything that can be checked
//! before running, so that every mistake of every file is reported in one run with its
//! `file:line:column` and what to change, and the other files still run.
//!
//! - [`raw`]: the shape of a file (fields, kinds of values);
//! - [`build`]: the meaning (levels, features, variables, patterns, paths, bounds);
//! - [`bounds`]: how large a case's templates can grow (template bombs, fillers);
//! - [`types`]: what `status` and header patterns can be compared with (a number, a text).

mod bounds;
mod build;
mod raw;
mod types;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::model::{FileError, Loaded, LocatedError};
use crate::node::Issue;
use crate::yaml::{self, Pos};

pub use raw::MAX_REPEAT;

/// The largest case file, in bytes: a bigger one is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The extensions a case file may have.
pub const EXTENSIONS: &[&str] = &["yaml", "yml", "json"];

/// Lists the case files under `dir`, sorted, with their test names (path without extension).
pub fn find_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e)) {
            let name = test_name(path.strip_prefix(root).unwrap_or(&path));
            out.push((path, name));
        }
    }
    Ok(())
}

/// The test name of a case file from its path under the cases folder: the path without its
/// extension, with `/` separators (`events/create.yaml` → `events/create`).
pub fn test_name(relative: &Path) -> String {
    let rel = relative.with_extension("");
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Loads every case file under `dir`. `Err` only when the folder itself cannot be read.
pub fn load_dir(dir: &Path) -> Result<Vec<Loaded>, String> {
    let files = find_files(dir)?;
    let files = files.into_iter().map(|(path, name)| (name, path.display().to_string(), path)).collect();
    Ok(load_files(files, |path| read(path)))
}

/// Loads files given as (test name, path as shown, handle), in that order; `read` gives the
/// text of a file from its handle, or why it cannot. Two files with one test name (`a.yaml`
/// and `a.yml`) are an error of the second.
pub fn load_files<T>(files: Vec<(String, String, T)>, read: impl Fn(&T) -> Result<String, String>) -> Vec<Loaded> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (name, shown, handle) in files {
        if !seen.insert(name.clone()) {
            out.push(Loaded::Error(FileError {
                name: format!("{name} ({shown})"),
                path: shown,
                errors: vec![LocatedError {
                    line: 1,
                    column: 1,
                    message: format!("another file also has the test name `{name}`: rename one of them"),
                }],
            }));
            continue;
        }
        let loaded = match read(&handle) {
            Ok(source) => load_source(&name, &shown, &source),
            Err(message) => Loaded::Error(FileError {
                name,
                path: shown,
                errors: vec![LocatedError { line: 1, column: 1, message }],
            }),
        };
        out.push(loaded);
    }
    out
}

/// Reads a file, refusing one larger than [`MAX_FILE_BYTES`] before reading it, and anything
/// but a regular file (a FIFO would wait for a writer, a device might never end).
fn read(path: &Path) -> Result<String, String> {
    let size = fs::metadata(path).map_err(|e| format!("cannot read the file: {e}"))?.len();
    if size > MAX_FILE_BYTES {
        return Err(too_big(size));
    }
    let bytes = crate::files::read_regular(path, MAX_FILE_BYTES).map_err(|e| format!("cannot read the file: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "cannot read the file: stream did not contain valid UTF-8".to_string())
}

/// Why a file of `size` bytes is not read.
pub fn too_big(size: u64) -> String {
    format!("the file has {size} bytes, more than the {MAX_FILE_BYTES} a case file may have: split it")
}

/// Loads one file from its text. `name` is its test name, `path` how it is shown.
pub fn load_source(name: &str, path: &str, source: &str) -> Loaded {
    let error = |errors| Loaded::Error(FileError { name: name.into(), path: path.into(), errors });
    let document = match yaml::parse(source) {
        Ok(document) => document,
        Err(e) => return error(vec![located(e.at, e.message)]),
    };
    let Some(root) = document.root else {
        return error(vec![located(
            Pos::new(1, 1),
            "the file is empty: a case file is a map with `cases` (see docs/case-format.md)".into(),
        )]);
    };
    let mut issues: Vec<Issue> = document
        .duplicates
        .iter()
        .map(|d| Issue::new(d.at, format!("duplicate key `{}`: each key may appear once in a map", d.key)))
        .collect();
    let raw = raw::file(&root, &mut issues);
    let file = build::build_file(name, path, raw, &mut issues);
    if issues.is_empty() {
        return Loaded::File(file);
    }
    // Each message starts with the dotted path of the value it is about, as a YAML editor shows.
    let paths = yaml::paths_of(&root, &issues.iter().map(|i| i.at).collect::<Vec<_>>());
    let mut errors: Vec<LocatedError> = issues
        .into_iter()
        .map(|issue| match paths.get(&issue.at).filter(|p| !p.is_empty()) {
            Some(prefix) => located(issue.at, format!("{prefix}: {}", issue.message)),
            None => located(issue.at, issue.message),
        })
        .collect();
    errors.sort_by_key(|e| (e.line, e.column));
    errors.dedup();
    error(errors)
}

fn located(at: Pos, message: String) -> LocatedError {
    let at = if at.is_known() { at } else { Pos::new(1, 1) };
    LocatedError { line: at.line as usize, column: at.column as usize, message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Body, Level};

    fn errors(source: &str) -> Vec<LocatedError> {
        match load_source("x", "cases/x.yaml", source) {
            Loaded::Error(e) => e.errors,
            Loaded::File(_) => panic!("expected an error for:\n{source}"),
        }
    }

    fn one_error(source: &str, line: usize, needle: &str) -> LocatedError {
        let errs = errors(source);
        let e = errs.iter().find(|e| e.message.contains(needle)).unwrap_or_else(|| panic!("no {needle:?} in {errs:?}"));
        assert_eq!(e.line, line, "{e:?}");
        e.clone()
    }

    /// A name with a line break of any kind cannot be one line of an expectations file, of a
    /// terminal or of a test list: it is refused when the file loads.
    #[test]
    fn a_case_name_with_a_line_break_is_refused() {
        for name in ["a\\nb", "a\\rb", "a\\u2028b", "a\\x85b"] {
            let source =
                format!("level: must\ncases:\n  - name: \"{name}\"\n    steps: [{{request: {{path: /events}}}}]\n");
            one_error(&source, 3, "a case name must be one non-empty line");
        }
    }

    const GOOD: &str = r#"
level: must
tags: [t]
spec: ["2.1"]
vars: {title: x}
cases:
  - name: one
    level: should
    vars: {n: 1}
    steps:
      - request: {path: "/events/{{n}}", query: {search: "{{case_id}}"}}
        expect: {status: 200, json: {id: {$type: integer}}}
        capture: {id: $.id, loc: "header:Location"}
      - request: {path: "/events/{{id}}"}
        repeat: 2
        capture: {many: $.id}
    cleanup:
      - request: {method: delete, path: "/events/{{item}}"}
        foreach: many
  - name: two
    steps:
      - request: {url: "/?x={{title}}"}
"#;

    #[test]
    fn a_good_file_loads() {
        let Loaded::File(file) = load_source("events/x", "cases/events/x.yaml", GOOD) else { panic!() };
        assert_eq!(file.cases.len(), 2);
        let one = &file.cases[0];
        assert_eq!(one.name, "events/x::one");
        assert_eq!(one.level, Level::Should);
        assert_eq!(file.cases[1].level, Level::Must);
        assert_eq!(one.cleanup[0].request.method, "DELETE");
        assert_eq!(one.vars.len(), 2);
    }

    #[test]
    fn syntax_errors_have_a_location() {
        let e = one_error("level: must\ncases: []\n  c: d\n", 3, "");
        assert!(e.column >= 1);
        one_error("level: must\ncases:\n  - name: [1, 2]\n", 3, "expected a string");
    }

    #[test]
    fn unknown_keys_are_rejected_with_their_line() {
        one_error("level: must\ncases:\n  - name: a\n    stepz: []\n", 4, "unknown field `stepz`");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /x, bodyy: 1}\n",
            5,
            "unknown field `bodyy`",
        );
    }

    #[test]
    fn duplicate_names_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /}}]\n  - name: a\n    steps: [{request: {path: /}}]\n",
            5,
            "also named",
        );
    }

    #[test]
    fn unknown_variables_are_rejected() {
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /x}\n        capture: {id: $.id}\n      - request:\n          path: \"/{{idd}}\"\n",
            8,
            "unknown variable `idd`",
        );
        assert!(e.message.contains("defined here: id"), "{}", e.message);
        assert!(e.column > 10);
        // A capture is not visible before the step that makes it.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{id}}\"}\n        capture: {id: $.id}\n",
            5,
            "unknown variable `id`",
        );
        // `item` exists only in foreach steps.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{item}}\"}\n",
            5,
            "`item`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        foreach: nothing\n",
            6,
            "unknown variable `nothing`",
        );
    }

    #[test]
    fn bad_json_paths_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        capture: {id: \"$.[\"}\n",
            6,
            "bad JSONPath",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$$x\": 1}\n",
            7,
            "bad JSONPath",
        );
    }

    #[test]
    fn keys_and_json_paths_may_hold_templates() {
        let source = r#"
level: must
cases:
  - name: a
    steps:
      - request: {path: "", query: {"{{language_param}}": fr}, json: {"k{{case_id}}": 1}}
        expect:
          json: {routes: {"/{{namespace}}/events": {methods: {$contains: [GET]}}}}
          paths: {"$.routes['/{{namespace}}/events'].methods": {$len: 2}, "$.list[{{n}}]": 1, "$.{{k}}": 2}
        capture: {m: "$.routes['/{{namespace}}'].methods"}
    vars: {n: 1, k: key}
"#;
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!("{source}") };
        let step = &file.cases[0].steps[0];
        assert_eq!(step.request.query[0].0.text, "{{language_param}}");
        assert!(!step.request.query[0].0.template.is_literal());
        assert_eq!(step.expect.paths.len(), 3);
        assert!(step.expect.paths.iter().all(|(p, _)| p.compiled.is_none()), "compiled when run");
        let mut env = crate::env::Env::new(chrono::Utc::now());
        env.set("namespace", crate::env::Binding::Data(serde_json::json!("tribe/events/v1")));
        let compiled = step.expect.paths[0].0.resolve(&env).unwrap();
        let body = serde_json::json!({"routes": {"/tribe/events/v1/events": {"methods": ["GET", "POST"]}}});
        assert_eq!(compiled.query(&body).all(), vec![&serde_json::json!(["GET", "POST"])]);
    }

    #[test]
    fn templated_keys_and_paths_are_checked_when_loading() {
        // An unknown variable in a key of a pattern, of a query, of `paths` and of a capture.
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          json: {\"/{{namespac}}/events\": 1}\n",
            7,
            "unknown variable `namespac`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, query: {\"{{lang}}\": 1}}\n",
            5,
            "unknown variable `lang`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$.a['{{nope}}']\": 1}\n",
            7,
            "unknown variable `nope`",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        capture: {x: \"$.a['{{nope}}']\"}\n",
            6,
            "unknown variable `nope`",
        );
        // A path that does not parse whatever the template gives, and template syntax in a key.
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          paths: {\"$.routes['/{{namespace}}'\": 1}\n",
            7,
            "bad JSONPath",
        );
        assert!(e.message.contains("filled in as `$.routes['/calendar/events/v1'`"), "{}", e.message);
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: {\"{{x\": 1}}\n",
            5,
            "unclosed",
        );
    }

    #[test]
    fn mixed_matcher_keys_are_rejected() {
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        expect:\n          json:\n            id: {$type: integer, x: 1}\n",
            8,
            "mixes matcher keys",
        );
    }

    #[test]
    fn requirements_name_known_features() {
        let e = one_error(
            "level: must\nrequires: [geoloc]\ncases:\n  - name: a\n    requires: [\"!tikets\"]\n    steps: [{request: {path: /}}]\n",
            5,
            "unknown feature `!tikets`",
        );
        assert!(
            e.message.contains("fresh-store, geoloc, tickets, series, event-password, large-store or languages"),
            "{}",
            e.message
        );
        one_error("level: must\nrequires: [translations]\ncases: []\n", 2, "unknown feature `translations`");
        let source = "level: must\nrequires: [password-on-create]\ncases:\n  - name: a\n    requires: [\"!tickets\", languages]\n    steps: [{request: {path: /}}]\n";
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!() };
        assert_eq!(
            file.cases[0].requires,
            ["event-password", "!tickets", "languages"],
            "aliases become the feature's name"
        );
    }

    #[test]
    fn credential_names_are_roles() {
        let e = one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /, auth: editor}}]\n    cleanup:\n      - request: {path: /, auth: admin}\n",
            6,
            "unknown credential name `admin`",
        );
        assert!(e.message.contains("administrator, editor, author, contributor, subscriber"), "{}", e.message);
        assert_eq!(e.column, 34, "at the name");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps: [{request: {path: /, auth: \"none:wrong-password\"}}]\n",
            4,
            "unknown credential name",
        );
    }

    #[test]
    fn a_case_without_level_is_rejected() {
        one_error("cases:\n  - name: a\n    steps: [{request: {path: /}}]\n", 2, "has no level");
    }

    #[test]
    fn template_syntax_errors_have_a_location() {
        one_error("level: must\ncases:\n  - name: a\n    steps: [{request: {path: \"/{{x\"}}]\n", 4, "unclosed");
    }

    #[test]
    fn other_errors() {
        one_error("level: must\ncases:\n  - name: a\n    steps:\n      - request: {}\n", 5, "no address");
        one_error("level: often\ncases: []\n", 1, "unknown level");
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: 1, body: x}\n",
            5,
            "one body",
        );
        one_error(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, query: {a: 1, a: 2}}\n",
            5,
            "duplicate key",
        );
        let errs = errors("level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{x}}\"}\n      - request: {path: \"/{{y}}\"}\n");
        assert_eq!(errs.len(), 2, "every error is reported: {errs:?}");
    }

    #[test]
    fn json_files_load_too() {
        let source = r#"{"level": "may", "cases": [{"name": "j", "steps": [{"request": {"path": ""}}]}]}"#;
        assert!(matches!(load_source("j", "j.json", source), Loaded::File(_)));
        let source =
            "{\"level\": \"may\",\n \"cases\": [{\"name\": \"j\", \"steps\": [{\"request\": {\"pth\": \"\"}}]}]}";
        one_error(source, 2, "unknown field `pth`");
    }

    #[test]
    fn yaml_1_2_core_schema() {
        let source = "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /, json: {a: yes, b: on, c: 19:00, d: 2024-01-01, e: True, f: FALSE}}\n";
        let Loaded::File(file) = load_source("x", "x.yaml", source) else { panic!() };
        let Body::Json(node) = &file.cases[0].steps[0].request.body else { panic!() };
        let value = crate::env::Env::new(chrono::Utc::now()).render_data(node).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"a": "yes", "b": "on", "c": "19:00", "d": "2024-01-01", "e": true, "f": false})
        );
    }

    #[test]
    fn every_mistake_of_a_file_is_reported_at_once() {
        let source = r#"level: must
cases:
  - name: eight mistakes
    stepz: []
    steps:
      - request: {path: "/events/{{idd}}", auth: admin}
        expect:
          status: "200"
          headers: {X-WP-Total: 3}
          paths: {"$.[": 1}
      - request: {path: {{id}}}
        repeat: 100000000000
  - name: no steps
    level: sometimes
"#;
        let errs = errors(source);
        let found: Vec<String> = errs.iter().map(|e| format!("{}:{} {}", e.line, e.column, e.message)).collect();
        let expected = [
            "4:5 cases[0]: unknown field `stepz`",
            "6:25 cases[0].steps[0].request.path: unknown variable `idd`",
            "6:50 cases[0].steps[0].request.auth: unknown credential name `admin`",
            "8:19 cases[0].steps[0].expect.status: `status` is a number",
            "9:33 cases[0].steps[0].expect.headers.X-WP-Total: a header value is text",
            "10:19 cases[0].steps[0].expect.paths: bad JSONPath",
            "11:25 cases[0].steps[1].request.path: YAML reads an unquoted `{{...}}` as a map: write the template in quotes, \"{{id}}\"",
            "12:17 cases[0].steps[1].repeat: `repeat` is at most 1000",
            "13:5 cases[1]: missing field `steps`",
            "14:12 cases[1].level: unknown level `sometimes`",
        ];
        for needle in expected {
            assert!(found.iter().any(|f| f.starts_with(needle)), "no {needle:?} in:\n{}", found.join("\n"));
        }
        assert_eq!(found.len(), expected.len(), "one error per mistake:\n{}", found.join("\n"));
    }

    #[test]
    fn thousands_of_mistakes_are_found_in_one_reading() {
        // Each error used to cost one more parse of the whole file (2,000 errors in 81 KB took
        // over a minute); positions now come with the values.
        let mut source = String::from("level: must\ncases:\n");
        for i in 0..2000 {
            source.push_str(&format!("  - name: c{i}\n    steps: [{{request: {{path: \"/{{{{nope{i}}}}}\"}}}}]\n"));
        }
        assert!(source.len() > 80_000);
        let errs = errors(&source);
        assert_eq!(errs.len(), 2000);
        assert_eq!((errs[1999].line, errs[1999].column), (4002, 30));
        assert!(errs[1999].message.contains("unknown variable `nope1999`"), "{}", errs[1999].message);
    }

    #[test]
    fn deep_nesting_and_huge_files_are_refused() {
        let errs = errors(&format!("level: must\ncases: {}\n", "[".repeat(100_000)));
        assert!(errs[0].message.contains("nest deeper than 64 levels"), "{errs:?}");
        let dir = std::env::temp_dir().join(format!("conformance-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = std::fs::File::create(dir.join("huge.yaml")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let loaded = load_dir(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let Loaded::Error(e) = &loaded[0] else { panic!() };
        assert!(e.errors[0].message.contains("more than the 8388608 a case file may have"), "{e}");
    }

    #[test]
    fn repeat_fillers_and_template_bombs_are_bounded_when_loading() {
        // R1: each of these used to abort the runner ("memory allocation failed").
        let errs = errors(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /}\n        repeat: 100000000000\n",
        );
        assert!(errs[0].message.contains("`repeat` is at most 1000"), "{errs:?}");
        let fillers = vec!["\"{{filler(67108864)}}\""; 200].join(", ");
        let errs = errors(&format!(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {{path: /, json: [{fillers}]}}\n"
        ));
        assert!(errs[0].message.contains("this request can expand to 12800 MiB or more"), "{errs:?}");
        let mut vars = String::from("v0: \"0123456789abcdef\"");
        for i in 1..=40 {
            vars.push_str(&format!(", v{i}: \"{{{{v{p}}}}}{{{{v{p}}}}}\"", p = i - 1));
        }
        let errs = errors(&format!("level: must\nvars: {{{vars}}}\ncases:\n  - name: a\n    steps:\n      - request: {{path: \"/{{{{v40}}}}\"}}\n"));
        assert!(errs.iter().any(|e| e.message.contains("the variable `v40` can expand to")), "{errs:?}");
        assert!(errs.iter().any(|e| e.message.contains("this request can expand to")), "{errs:?}");
        assert!(errors(
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: \"/{{filler(99999999999)}}\"}\n"
        )[0]
        .message
        .contains("up to 67108864"));
    }
}
