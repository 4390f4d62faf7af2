//! The two JSON operations of stubs: whether a request's body contains a subset, and a JSON
//! merge patch (RFC 7396) on an answer.

use serde_json::Value;

/// Whether `actual` contains `wanted`: every key of a wanted mapping is in the actual one with
/// a value that contains the wanted value (recursively); lists must be equal item by item
/// (contained the same way); a wanted number or boolean also matches its text (form bodies and
/// query strings carry only texts).
pub fn contains(actual: &Value, wanted: &Value) -> bool {
    match (actual, wanted) {
        (Value::Object(actual), Value::Object(wanted)) => {
            wanted.iter().all(|(key, wanted)| actual.get(key).is_some_and(|actual| contains(actual, wanted)))
        }
        (Value::Array(actual), Value::Array(wanted)) => {
            actual.len() == wanted.len() && actual.iter().zip(wanted).all(|(actual, wanted)| contains(actual, wanted))
        }
        (Value::String(actual), Value::Number(_) | Value::Bool(_)) => {
            let text = wanted.to_string();
            *actual == text
        }
        _ => actual == wanted,
    }
}

/// Applies a JSON merge patch: a mapping patches a mapping key by key (`null` removes the
/// key), anything else replaces the target.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    let Value::Object(map) = target else { return };
    for (key, value) in patch {
        if value.is_null() {
            map.remove(key);
        } else {
            merge_patch(map.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

/// Applies `patch` to each item of an answer's list: the answer itself when it is a list, else
/// every list of mappings at its top level (the `events` of `/events`). Returns how many items
/// were patched.
pub fn merge_each(answer: &mut Value, patch: &Value) -> usize {
    let lists: Vec<&mut Vec<Value>> = match answer {
        Value::Array(items) => vec![items],
        Value::Object(map) => map
            .values_mut()
            .filter_map(|value| match value {
                Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => Some(items),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut count = 0;
    for items in lists {
        for item in items.iter_mut() {
            merge_patch(item, patch);
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_rfc_7396_examples() {
        let mut target = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        merge_patch(&mut target, &json!({"a": "z", "c": {"f": null}}));
        assert_eq!(target, json!({"a": "z", "c": {"d": "e"}}));
        for (target, patch, result) in [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "b"}), json!({"b": "c"}), json!({"a": "b", "b": "c"})),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (json!({"a": {"b": "c"}}), json!({"a": {"b": "d", "c": null}}), json!({"a": {"b": "d"}})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (json!({"e": null}), json!({"a": 1}), json!({"e": null, "a": 1})),
            (json!([1, 2]), json!({"a": "b", "c": null}), json!({"a": "b"})),
            (json!({}), json!({"a": {"bb": {"ccc": null}}}), json!({"a": {"bb": {}}})),
        ] {
            let mut value = target.clone();
            merge_patch(&mut value, &patch);
            assert_eq!(value, result, "{target} + {patch}");
        }
    }

    #[test]
    fn each_item_of_a_list() {
        let mut list = json!({"events": [{"id": 1, "venue": {"id": 5}}, {"id": 2}], "total": 2});
        assert_eq!(merge_each(&mut list, &json!({"venue": []})), 2);
        assert_eq!(list, json!({"events": [{"id": 1, "venue": []}, {"id": 2, "venue": []}], "total": 2}));
        let mut bare = json!([{"id": 1}]);
        assert_eq!(merge_each(&mut bare, &json!({"name": "x"})), 1);
        assert_eq!(bare, json!([{"id": 1, "name": "x"}]));
        assert_eq!(merge_each(&mut json!({"id": 1}), &json!({"x": 1})), 0);
    }

    #[test]
    fn subsets() {
        let body = json!({"title": "T", "venue": {"id": 5, "city": "Lyon"}, "tags": [1, 2], "n": "3"});
        assert!(contains(&body, &json!({})));
        assert!(contains(&body, &json!({"title": "T"})));
        assert!(contains(&body, &json!({"venue": {"city": "Lyon"}})));
        assert!(contains(&body, &json!({"n": 3})));
        assert!(contains(&body, &json!({"tags": [1, 2]})));
        assert!(!contains(&body, &json!({"tags": [1]})));
        assert!(!contains(&body, &json!({"venue": {"city": "Paris"}})));
        assert!(!contains(&body, &json!({"missing": null})));
        assert!(!contains(&body, &json!({"title": "t"})));
    }
}
