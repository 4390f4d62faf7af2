//! The schema builder: typed fields with descriptions in one language, closed objects.

use serde_json::{json, Map, Value};

use crate::doc::i18n::Text;
use crate::interface::POST_STATUSES;
use crate::model::Lang;

/// `YYYY-MM-DD HH:MM:SS`, as the CMS writes dates.
const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$";

/// Builds schemas with descriptions in one language.
pub(super) struct B {
    pub(super) lang: Lang,
}

impl B {
    pub(super) fn with(&self, mut schema: Value, text: Text) -> Value {
        schema["description"] = json!(text.get(self.lang));
        schema
    }

    pub(super) fn string(&self, text: Text) -> Value {
        self.with(json!({"type": "string"}), text)
    }

    pub(super) fn date(&self, text: Text) -> Value {
        self.with(json!({"type": "string", "pattern": DATE_PATTERN}), text)
    }

    pub(super) fn uri(&self, text: Text) -> Value {
        self.with(json!({"type": "string", "format": "uri"}), text)
    }

    /// A list of strings.
    pub(super) fn strings(&self, text: Text) -> Value {
        self.with(json!({"type": "array", "items": {"type": "string"}}), text)
    }

    /// A number written as a string of digits, such as an author ID.
    pub(super) fn digits(&self, text: Text) -> Value {
        self.with(json!({"type": "string", "pattern": "^[0-9]+$"}), text)
    }

    /// A post status.
    pub(super) fn status(&self, text: Text) -> Value {
        self.with(json!({"type": "string", "enum": POST_STATUSES}), text)
    }

    pub(super) fn number(&self, text: Text) -> Value {
        self.with(json!({"type": "number"}), text)
    }

    pub(super) fn integer(&self, text: Text) -> Value {
        self.with(json!({"type": "integer"}), text)
    }

    pub(super) fn boolean(&self, text: Text) -> Value {
        self.with(json!({"type": "boolean"}), text)
    }

    /// A flag a password can hide (then `null`).
    pub(super) fn flag(&self, text: Text) -> Value {
        self.with(json!({"type": "boolean", "nullable": true}), text)
    }

    pub(super) fn reference(&self, name: &str, text: Text) -> Value {
        self.with(json!({"allOf": [{"$ref": format!("#/components/schemas/{name}")}]}), text)
    }

    pub(super) fn list_of(&self, name: &str, text: Text) -> Value {
        self.with(json!({"type": "array", "items": {"$ref": format!("#/components/schemas/{name}")}}), text)
    }
}

/// One property of a schema table: its name, the shape of its schema, its description.
pub(super) type Row = (&'static str, fn(&B, Text) -> Value, Text);

/// The properties of a schema table, in its order.
pub(super) fn rows(b: &B, table: &[Row]) -> Vec<(&'static str, Value)> {
    table.iter().map(|&(name, shape, text)| (name, shape(b, text))).collect()
}

/// The names of a table's properties (all of them required), in its order.
pub(super) fn names(table: &[Row]) -> Vec<&'static str> {
    table.iter().map(|&(name, _, _)| name).collect()
}

/// A closed object.
pub(super) fn object(properties: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> = properties.into_iter().map(|(key, value)| (key.to_string(), value)).collect();
    let mut schema = json!({"type": "object", "properties": properties, "additionalProperties": false});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// `[]`: what the CMS writes for an empty PHP array where an object would otherwise be.
pub(super) fn empty_list() -> Value {
    json!({"type": "array", "maxItems": 0, "items": {}})
}
