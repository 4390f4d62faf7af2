//! Checks a JSON value against a schema of the `/doc` document: the subset of OpenAPI 3.0
//! schemas the document uses (`$ref`, `type`, `nullable`, `properties`, `required`,
//! `additionalProperties`, `items`, `enum`, `oneOf`/`anyOf`/`allOf`, bounds). The server's tests
//! and the conformance runner's use it to check that answers conform to the document.

use serde_json::{Map, Number, Value};

/// Checks `value` against an OpenAPI 3.0 schema of `doc`; returns every violation found.
pub fn violations(doc: &Value, schema: &Value, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check(doc, schema, value, "$", &mut errors, 0);
    errors
}

fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    doc.pointer(reference.strip_prefix('#')?)
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

fn check(doc: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>, depth: usize) {
    if depth >= 64 {
        errors.push(format!("{at}: the schema nests too deep"));
        return;
    }
    // An OpenAPI 3.0 schema is an object: anything else (a `null` where a schema belongs) would
    // let every value through unseen.
    let Some(schema) = schema.as_object() else {
        errors.push(format!("{at}: the document's schema here is not an object: {schema}"));
        return;
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        // In OpenAPI 3.0 the siblings of `$ref` are ignored.
        match resolve(doc, reference) {
            Some(target) => check(doc, target, value, at, errors, depth + 1),
            None => errors.push(format!("{at}: the document has no {reference}")),
        }
        return;
    }
    if value.is_null() && null_settles(schema, at, errors) {
        return;
    }
    check_combinations(doc, schema, value, at, errors, depth);
    if !check_type_and_enum(schema, value, at, errors) {
        return;
    }
    match value {
        Value::String(text) => check_string(schema, text, at, errors),
        Value::Number(number) => check_number(schema, number, at, errors),
        Value::Array(items) => check_array(doc, schema, items, at, errors, depth),
        Value::Object(map) => check_object(doc, schema, map, at, errors, depth),
        _ => {}
    }
}

/// Whether a null value is settled by the schema alone: allowed (nullable, or any value), or
/// refused (the schema names a type or values) with the violation noted.
fn null_settles(schema: &Map<String, Value>, at: &str, errors: &mut Vec<String>) -> bool {
    if schema.get("nullable") == Some(&Value::Bool(true)) || schema.is_empty() {
        return true;
    }
    if schema.contains_key("type") || schema.contains_key("enum") {
        errors.push(format!("{at}: null is not allowed"));
        return true;
    }
    false
}

/// `allOf`, `anyOf`, `oneOf` and `not`.
fn check_combinations(
    doc: &Value,
    schema: &Map<String, Value>,
    value: &Value,
    at: &str,
    errors: &mut Vec<String>,
    depth: usize,
) {
    let mut sub = |subschema: &Value| {
        let mut found = Vec::new();
        check(doc, subschema, value, at, &mut found, depth + 1);
        found
    };
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for subschema in all {
            errors.extend(sub(subschema));
        }
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let results: Vec<Vec<String>> = any.iter().map(&mut sub).collect();
        if results.iter().all(|found| !found.is_empty()) {
            errors.push(format!("{at}: matches none of anyOf: {results:?}"));
        }
    }
    if let Some(one) = schema.get("oneOf").and_then(Value::as_array) {
        let results: Vec<Vec<String>> = one.iter().map(&mut sub).collect();
        let matching = results.iter().filter(|found| found.is_empty()).count();
        if matching != 1 {
            errors.push(format!("{at}: matches {matching} of oneOf (exactly one wanted): {results:?}"));
        }
    }
    if let Some(not) = schema.get("not") {
        if sub(not).is_empty() {
            errors.push(format!("{at}: matches a `not` schema"));
        }
    }
}

/// `type` and `enum`; false when the type is wrong (nothing more is worth checking then).
fn check_type_and_enum(schema: &Map<String, Value>, value: &Value, at: &str, errors: &mut Vec<String>) -> bool {
    if let Some(name) = schema.get("type").and_then(Value::as_str) {
        if !type_matches(name, value) {
            errors.push(format!("{at}: {value} is not of type {name}"));
            return false;
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            errors.push(format!("{at}: {value} is not one of {allowed:?}"));
        }
    }
    true
}

/// `minLength` and `pattern`.
fn check_string(schema: &Map<String, Value>, text: &str, at: &str, errors: &mut Vec<String>) {
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
        if (text.chars().count() as u64) < min {
            errors.push(format!("{at}: shorter than {min}"));
        }
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        match compiled(pattern) {
            Ok(regex) if !regex.is_match(text) => errors.push(format!("{at}: {text:?} does not match {pattern}")),
            Ok(_) => {}
            Err(_) => errors.push(format!("{at}: the document's pattern {pattern:?} is not a valid regex")),
        }
    }
}

/// How many compiled patterns [`compiled`] keeps, and how large a kept one may be.
const KEPT_PATTERNS: usize = 32;
const KEPT_PATTERN_BYTES: usize = 64 * 1024;

static KEPT: parking_lot::Mutex<Option<std::collections::HashMap<String, regex::Regex>>> =
    parking_lot::Mutex::new(None);

/// The document's few patterns are checked against thousands of answers, and compiling one
/// costs far more than matching it, so compiled patterns are kept. The document is the
/// implementation's, so what is kept is bounded: at most [`KEPT_PATTERNS`], each compiling
/// within [`KEPT_PATTERN_BYTES`] (with a lazy DFA of the same bound). Any other pattern is
/// compiled for the one check, as `Regex::new` would, so the verdict never depends on the cache.
fn compiled(pattern: &str) -> Result<regex::Regex, regex::Error> {
    if let Some(regex) = KEPT.lock().as_ref().and_then(|kept| kept.get(pattern)) {
        return Ok(regex.clone());
    }
    let small =
        regex::RegexBuilder::new(pattern).size_limit(KEPT_PATTERN_BYTES).dfa_size_limit(KEPT_PATTERN_BYTES).build();
    let Ok(regex) = small else { return regex::Regex::new(pattern) };
    let mut kept = KEPT.lock();
    let kept = kept.get_or_insert_with(Default::default);
    if kept.len() < KEPT_PATTERNS {
        kept.insert(pattern.to_string(), regex.clone());
    }
    Ok(regex)
}

/// `minimum`.
fn check_number(schema: &Map<String, Value>, number: &Number, at: &str, errors: &mut Vec<String>) {
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_f64), number.as_f64()) {
        if n < min {
            errors.push(format!("{at}: {n} is below {min}"));
        }
    }
}

/// `maxItems`, `minItems` and every item against `items`.
fn check_array(
    doc: &Value,
    schema: &Map<String, Value>,
    items: &[Value],
    at: &str,
    errors: &mut Vec<String>,
    depth: usize,
) {
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
        if items.len() as u64 > max {
            errors.push(format!("{at}: more than {max} items"));
        }
    }
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
        if (items.len() as u64) < min {
            errors.push(format!("{at}: fewer than {min} items"));
        }
    }
    if let Some(item_schema) = schema.get("items") {
        for (index, item) in items.iter().enumerate() {
            check(doc, item_schema, item, &format!("{at}[{index}]"), errors, depth + 1);
        }
    }
}

/// `minProperties`, `required`, and every property against `properties` or
/// `additionalProperties`.
fn check_object(
    doc: &Value,
    schema: &Map<String, Value>,
    map: &Map<String, Value>,
    at: &str,
    errors: &mut Vec<String>,
    depth: usize,
) {
    if let Some(min) = schema.get("minProperties").and_then(Value::as_u64) {
        if (map.len() as u64) < min {
            errors.push(format!("{at}: fewer than {min} properties"));
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
        let name = name.as_str().unwrap_or_default();
        if !map.contains_key(name) {
            errors.push(format!("{at}: missing required {name:?}"));
        }
    }
    for (key, item) in map {
        let path = format!("{at}.{key}");
        match properties.and_then(|properties| properties.get(key)) {
            Some(property) => check(doc, property, item, &path, errors, depth + 1),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => errors.push(format!("{path}: not allowed (additionalProperties)")),
                Some(extra @ Value::Object(_)) => check(doc, extra, item, &path, errors, depth + 1),
                _ => {}
            },
        }
    }
}

/// The response schema the document gives for a path template, method and status.
pub fn response_schema<'a>(doc: &'a Value, template: &str, method: &str, status: u16) -> Result<&'a Value, String> {
    let operation = doc["paths"]
        .get(template)
        .and_then(|item| item.get(method.to_ascii_lowercase()))
        .ok_or_else(|| format!("{method} {template} is not in the document"))?;
    let response = operation["responses"]
        .get(status.to_string())
        .ok_or_else(|| format!("{method} {template}: status {status} is not documented"))?;
    response["content"]["application/json"]["schema"]
        .as_object()
        .map(|_| &response["content"]["application/json"]["schema"])
        .ok_or_else(|| format!("{method} {template} {status}: no JSON schema"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A kept pattern gives the verdict a fresh one gives; patterns too large to keep, and more
    /// patterns than are kept, are still compiled and judged; an invalid one stays an error; and
    /// no more than [`KEPT_PATTERNS`] are ever kept.
    #[test]
    fn kept_patterns_judge_as_fresh_ones_and_stay_bounded() {
        let large = r"^\w{40}$".to_string();
        assert!(regex::RegexBuilder::new(&large).size_limit(KEPT_PATTERN_BYTES).build().is_err(), "too large to keep");
        let mut patterns: Vec<String> = (0..3 * KEPT_PATTERNS).map(|n| format!("^x{n}-[0-9]+$")).collect();
        patterns.push(large);
        for _round in 0..2 {
            for (n, pattern) in patterns.iter().enumerate() {
                let fresh = regex::Regex::new(pattern).unwrap();
                let text = if n < 3 * KEPT_PATTERNS { format!("x{n}-42") } else { "é".repeat(40) };
                for candidate in [text.as_str(), "x0-", &"é".repeat(39), ""] {
                    assert_eq!(
                        compiled(pattern).unwrap().is_match(candidate),
                        fresh.is_match(candidate),
                        "{pattern} {candidate}"
                    );
                }
            }
        }
        assert!(compiled("(unclosed").is_err());
        // Something was kept (the small patterns fit), and never more than the bound.
        assert!(KEPT.lock().as_ref().is_some_and(|kept| !kept.is_empty() && kept.len() <= KEPT_PATTERNS));
    }

    /// Each keyword the checker knows, with a value just inside and just outside what it allows.
    #[test]
    fn each_keyword_passes_what_it_allows_and_flags_what_it_does_not() {
        let doc = json!({"components": {"schemas": {
            "Thing": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "minimum": 1}},
                      "additionalProperties": false},
            "Open": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}},
        }}});
        let cases = [
            (json!({"type": "string"}), json!("a"), json!(1)),
            (json!({"type": "integer"}), json!(-3), json!(1.5)),
            (json!({"type": "integer"}), json!(u64::MAX), json!("1")),
            (json!({"type": "number"}), json!(1.5), json!("1.5")),
            (json!({"type": "boolean"}), json!(false), json!(0)),
            (json!({"type": "array"}), json!([]), json!({})),
            (json!({"type": "object"}), json!({}), json!([])),
            (json!({"enum": ["a", "b"]}), json!("b"), json!("c")),
            (json!({"type": "string", "minLength": 2}), json!("ab"), json!("a")),
            (json!({"type": "string", "pattern": "^[0-9]+$"}), json!("12"), json!("1a")),
            (json!({"type": "number", "minimum": 1}), json!(1), json!(0.5)),
            (json!({"type": "array", "maxItems": 1}), json!([1]), json!([1, 2])),
            (json!({"type": "array", "minItems": 1}), json!([1]), json!([])),
            (json!({"type": "array", "items": {"type": "integer"}}), json!([1, 2]), json!([1, "2"])),
            (json!({"$ref": "#/components/schemas/Thing"}), json!({"id": 1}), json!({"id": 0})),
            (json!({"$ref": "#/components/schemas/Thing"}), json!({"id": 1}), json!({})),
            (json!({"$ref": "#/components/schemas/Thing"}), json!({"id": 1}), json!({"id": 1, "x": 2})),
            (json!({"$ref": "#/components/schemas/Open"}), json!({"x": "y"}), json!({})),
            (json!({"$ref": "#/components/schemas/Open"}), json!({"x": "y"}), json!({"x": 1})),
            (json!({"$ref": "#/components/schemas/Nothing"}), json!(null), json!(1)),
            (json!({"type": "string", "nullable": true}), json!(null), json!(2)),
            (json!({"type": "string"}), json!("x"), json!(null)),
            (json!({"enum": [1]}), json!(1), json!(null)),
            (json!({"allOf": [{"type": "integer"}, {"minimum": 2}]}), json!(2), json!(1)),
            (json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}), json!("a"), json!(true)),
            (json!({"anyOf": [{"type": "integer"}, {"minimum": 0}]}), json!(3), json!(-1.5)),
            (json!({"oneOf": [{"type": "integer"}, {"minimum": 5}]}), json!(1), json!(7)),
            (json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}), json!(1), json!(false)),
            (json!({"not": {"enum": ["0"]}}), json!("1"), json!("0")),
            (
                json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}}}}),
                json!({"a": {"b": 1}}),
                json!({"a": {"b": "1"}}),
            ),
            (
                json!({"type": "array", "items": {"type": "array", "items": {"type": "string"}}}),
                json!([["a"]]),
                json!([[1]]),
            ),
            (json!({"type": "object", "properties": {"a": null}}), json!({}), json!({"a": 1})),
        ];
        for (schema, good, bad) in cases {
            let unresolved = schema.get("$ref") == Some(&json!("#/components/schemas/Nothing"));
            if !unresolved {
                assert_eq!(violations(&doc, &schema, &good), Vec::<String>::new(), "{schema} should allow {good}");
            }
            assert!(!violations(&doc, &schema, &bad).is_empty(), "{schema} should flag {bad}");
        }
    }

    /// Nesting goes one level deeper per schema, whichever keyword nests it, and stops at 64.
    #[test]
    fn nesting_is_counted_and_bounded() {
        let doc = json!({"components": {"schemas": {"Loop": {"$ref": "#/components/schemas/Loop"}}}});
        let found = violations(&doc, &json!({"$ref": "#/components/schemas/Loop"}), &json!(1));
        assert_eq!(found, vec!["$: the schema nests too deep".to_string()]);
        type Wrap = fn(Value) -> Value;
        // (anyOf and oneOf nest through the same step as allOf; their messages quote the inner
        // ones, which grow twice as long at each level, so they are left out here.)
        let kinds: [(&str, Wrap, Wrap); 4] = [
            ("items", |s| json!({"type": "array", "items": s}), |v| json!([v])),
            ("properties", |s| json!({"type": "object", "properties": {"a": s}}), |v| json!({"a": v})),
            ("additionalProperties", |s| json!({"type": "object", "additionalProperties": s}), |v| json!({"a": v})),
            ("allOf", |s| json!({"allOf": [s]}), |v| v),
        ];
        for (name, wrap_schema, wrap_value) in kinds {
            let nested = |levels: usize| {
                let (mut schema, mut value) = (json!({"type": "integer"}), json!(1));
                for _ in 0..levels {
                    schema = wrap_schema(schema);
                    value = wrap_value(value);
                }
                violations(&doc, &schema, &value)
            };
            assert_eq!(nested(63), Vec::<String>::new(), "{name}: 63 levels");
            let found = nested(64);
            assert!(!found.is_empty() && found.iter().all(|e| e.contains("nests too deep")), "{name}: {found:?}");
        }
    }

    #[test]
    fn the_response_schema_is_found_by_path_method_and_status() {
        let doc = json!({"paths": {"/x": {"get": {"responses": {
            "200": {"content": {"application/json": {"schema": {"type": "integer"}}}}, "204": {}}}}}});
        assert_eq!(response_schema(&doc, "/x", "GET", 200), Ok(&json!({"type": "integer"})));
        assert!(response_schema(&doc, "/x", "GET", 204).is_err());
        assert!(response_schema(&doc, "/x", "GET", 404).is_err());
        assert!(response_schema(&doc, "/x", "POST", 200).is_err());
        assert!(response_schema(&doc, "/y", "GET", 200).is_err());
    }
}
