//! The JSON Schema of case files (`conformance schema`), for YAML editors.
//!
//! It checks shapes and completes keys; the loader checks the rest (variables, JSONPath,
//! regexes). The copy in `docs/case.schema.json` must equal what this prints (a test says so).

use serde_json::{json, Value};

/// Every form a `requires` entry may take: each feature and alias, plain and with `!`.
fn requirement_names() -> Vec<String> {
    let names = crate::features::FEATURES.iter().map(|f| f.name).chain(crate::features::ALIASES.iter().map(|a| a.0));
    names.flat_map(|name| [name.to_string(), format!("!{name}")]).collect()
}

/// Every value `auth` may take.
fn auth_names() -> Vec<String> {
    use crate::credentials::{NONE, ROLES, WRONG_PASSWORD};
    let roles = ROLES.iter().map(|r| r.to_string());
    let wrong = ROLES.iter().map(|r| format!("{r}{WRONG_PASSWORD}"));
    std::iter::once(NONE.to_string()).chain(roles).chain(wrong).collect()
}

/// The schema document: the file's keys, then the definitions they refer to.
pub fn schema() -> Value {
    let mut defs = serde_json::Map::new();
    for part in [file_defs(), case_defs(), request_defs(), pattern_defs(), matcher_defs()] {
        if let Value::Object(entries) = part {
            defs.extend(entries);
        }
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.invalid/conformance/case.schema.json",
        "title": "Conformance case file",
        "description": "A file of cases for the conformance runner: see docs/case-format.md.",
        "type": "object",
        "additionalProperties": false,
        "required": ["cases"],
        "properties": {
            "tags": {"description": "Tags inherited by every case.", "type": "array", "items": {"type": "string"}},
            "spec": {"description": "Sections of the interface document this file checks.", "$ref": "#/$defs/strings"},
            "level": {"$ref": "#/$defs/level"},
            "requires": {"$ref": "#/$defs/requires"},
            "vars": {"$ref": "#/$defs/vars"},
            "cases": {"type": "array", "items": {"$ref": "#/$defs/case"}}
        },
        "$defs": defs
    })
}

/// What the file and its cases share: spec lists, levels, requirements, variables.
fn file_defs() -> Value {
    json!({
    "strings": {"type": "array", "items": {"type": ["string", "number"]}},
    "level": {
        "description": "must: stated by the interface document; should: reference behaviour; may: informational.",
        "enum": ["must", "should", "may"]
    },
    "requires": {
        "description": "Features the implementation must have (see `conformance --help`); !name needs a server without that feature.",
        "type": "array",
        "items": {"enum": requirement_names()}
    },
    "vars": {
        "description": "Values available to templates as {{name}}; patterns when used in expectations.",
        "type": "object",
        "additionalProperties": {"$ref": "#/$defs/pattern"}
    }
    })
}

/// A case and its steps.
fn case_defs() -> Value {
    json!({
    "case": {
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "steps"],
        "properties": {
            "name": {"description": "One line, unique in the file.", "type": "string"},
            "steps": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/step"}},
            "cleanup": {
                "description": "Steps that always run after the steps; their failures do not fail the case.",
                "type": "array",
                "items": {"$ref": "#/$defs/step"}
            },
            "tags": {"type": "array", "items": {"type": "string"}},
            "spec": {"$ref": "#/$defs/strings"},
            "level": {"$ref": "#/$defs/level"},
            "requires": {"$ref": "#/$defs/requires"},
            "vars": {"$ref": "#/$defs/vars"}
        }
    },
    "step": {
        "type": "object",
        "additionalProperties": false,
        "required": ["request"],
        "properties": {
            "request": {"$ref": "#/$defs/request"},
            "expect": {"$ref": "#/$defs/expect"},
            "capture": {
                "description": "Variable name to a JSONPath into the body ($ is the whole body; it may hold {{templates}}) or header:Name.",
                "type": "object",
                "additionalProperties": {"type": "string"}
            },
            "repeat": {"description": "Run this step N times (at most 1000), with {{index}}.", "type": "integer", "minimum": 0, "maximum": 1000},
            "foreach": {"description": "A list variable: run once per element, with {{item}} and {{index}}.", "type": "string"},
            "concurrency": {"description": "With repeat or foreach: send up to N iterations at a time (their order of arrival is then not that of {{index}}).", "type": "integer", "minimum": 1, "maximum": 16}
        },
        "not": {"required": ["repeat", "foreach"]}
    }
    })
}

/// What a step sends and what it expects back.
fn request_defs() -> Value {
    json!({
    "request": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "method": {"description": "GET by default.", "type": "string"},
            "path": {"description": "Appended to {base_url}/{namespace}; \"\" is the namespace index.", "type": "string"},
            "url": {"description": "Appended to the site address ({base_url} without its last segment).", "type": "string"},
            "lang": {"description": "Send to the language-specific address {site}/{lang}{root}/{namespace}.", "type": "string"},
            "query": {"description": "Parameter name (it may hold {{templates}}) to value.", "type": "object", "additionalProperties": {"$ref": "#/$defs/data"}},
            "json": {"$ref": "#/$defs/data"},
            "form": {"description": "Field name (it may hold {{templates}}) to value.", "type": "object", "additionalProperties": {"$ref": "#/$defs/data"}},
            "body": {"description": "A raw body, sent as it is.", "type": "string"},
            "headers": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}},
            "auth": {"description": "A role, ROLE:wrong-password (that role's user with a wrong password), or none.", "enum": auth_names()}
        },
        "oneOf": [
            {"required": ["path"], "not": {"required": ["url"]}},
            {"required": ["url"], "not": {"required": ["path"]}}
        ]
    },
    "expect": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "status": {"$ref": "#/$defs/pattern"},
            "headers": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pattern"}},
            "json": {"$ref": "#/$defs/pattern"},
            "assume": {
                "description": "A body pattern the case needs and the interface does not promise (a precondition): when it does not hold, the case is skipped, not failed.",
                "$ref": "#/$defs/pattern"
            },
            "paths": {
                "description": "JSONPath (RFC 9535; it may hold {{templates}}) to the pattern every selected node must match.",
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/pattern"}
            }
        }
    },
    "data": {"description": "Any value; strings and object keys may hold {{templates}}."}
    })
}

/// Patterns: values, lists, matchers and objects of patterns.
fn pattern_defs() -> Value {
    json!({
    "pattern": {
        "anyOf": [
            {"type": ["string", "number", "boolean", "null"]},
            {"type": "array", "items": {"$ref": "#/$defs/pattern"}},
            {"$ref": "#/$defs/matchers"},
            {
                "type": "object",
                "propertyNames": {"pattern": "^$|^[^$]|^[$][$]"},
                "additionalProperties": {"$ref": "#/$defs/pattern"}
            }
        ]
    },
    "patterns": {
        "anyOf": [{"type": "array", "items": {"$ref": "#/$defs/pattern"}}, {"type": "string"}]
    },
    "number": {"type": ["number", "string"]}
    })
}

/// The matchers (`$type`, `$regex`, …) and the JSON types `$type` names.
fn matcher_defs() -> Value {
    json!({
    "matchers": {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": false,
        "properties": {
            "$type": {
                "description": "The value's JSON type (integer is a number without fraction).",
                "anyOf": [
                    {"$ref": "#/$defs/type"},
                    {"type": "array", "items": {"$ref": "#/$defs/type"}},
                    {"type": "string", "pattern": "[{][{]"}
                ]
            },
            "$regex": {"description": "A string containing a match (unanchored).", "type": "string"},
            "$any": {"description": "The key is present, any value.", "const": true},
            "$absent": {"description": "The key is missing.", "const": true},
            "$in": {"description": "Matches one of the patterns.", "$ref": "#/$defs/patterns"},
            "$not": {"description": "The pattern does not match.", "$ref": "#/$defs/pattern"},
            "$gt": {"$ref": "#/$defs/number"},
            "$gte": {"$ref": "#/$defs/number"},
            "$lt": {"$ref": "#/$defs/number"},
            "$lte": {"$ref": "#/$defs/number"},
            "$len": {"description": "Length of an array, object or string.", "$ref": "#/$defs/pattern"},
            "$contains": {"description": "Every pattern matches some element.", "$ref": "#/$defs/patterns"},
            "$unordered": {"description": "Same length, matched as a set.", "$ref": "#/$defs/patterns"},
            "$each": {"description": "Every element matches.", "$ref": "#/$defs/pattern"},
            "$exact": {"description": "Exactly these keys at this level.", "type": ["object", "string"]},
            "$date": {"description": "A text of the same date and time (wall time) in any common form: a space or T, seconds or not, a zone or not.", "type": "string"},
            "$url": {
                "description": "A URL string, compared by parts, or {path, query}.",
                "anyOf": [
                    {"type": "string"},
                    {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "path": {"$ref": "#/$defs/pattern"},
                            "query": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pattern"}}
                        }
                    }
                ]
            }
        }
    },
    "type": {"enum": ["integer", "number", "string", "boolean", "null", "array", "object", null]}
    })
}

/// The schema as printed and committed: pretty JSON with a final newline.
pub fn text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).unwrap_or_default();
    text.push('\n');
    text
}
