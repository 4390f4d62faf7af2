//! The located value tree: what `serde_yaml_ng` turns a case file into before validation.
//!
//! Every scalar, list and map that the loader may need to blame gets a node id, assigned in
//! document order while deserializing. Deserialization is deterministic, so the same file
//! always yields the same ids. To put a `file:line:column` on an error found later (an unknown
//! variable, a bad JSONPath, ...), the loader parses the file again with [`fail_at`] set to the
//! node's id: that node's visitor then fails, and `serde_yaml_ng` attaches the position of the
//! YAML event it was reading. This keeps the only YAML parser in the crate the serde one.

use std::cell::Cell;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Number;

use crate::template::Template;

thread_local! {
    static NEXT_ID: Cell<usize> = const { Cell::new(0) };
    static FAIL_AT: RefCell<Option<(usize, String)>> = const { RefCell::new(None) };
}

/// Resets the id counter; call before each parse of a file.
pub fn reset_ids() {
    NEXT_ID.with(|next| next.set(0));
}

/// Makes the next parse fail at node `id` with `message` (or clears it with `None`).
pub fn fail_at(target: Option<(usize, String)>) {
    FAIL_AT.with(|fail| *fail.borrow_mut() = target);
}

fn next_id() -> usize {
    NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id + 1);
        id
    })
}

fn check_fail<E: de::Error>(id: usize) -> Result<(), E> {
    FAIL_AT.with(|fail| match &*fail.borrow() {
        Some((target, message)) if *target == id => Err(E::custom(message)),
        _ => Ok(()),
    })
}

/// A scalar read as text (strings, and numbers or booleans written where text is expected).
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub id: usize,
    pub text: String,
}

/// A string that may hold `{{...}}` templates, parsed as it is read.
#[derive(Clone, Debug, PartialEq)]
pub struct Tpl {
    pub id: usize,
    pub template: Template,
}

/// A map key that may hold `{{...}}` templates (keys of request data and of patterns), parsed
/// as it is read. `text` is the key as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub id: usize,
    pub text: String,
    pub template: Template,
}

impl Key {
    /// A key without templates, built in code.
    pub fn literal(text: &str) -> Key {
        Key { id: usize::MAX, text: text.to_string(), template: Template::literal(text) }
    }

    /// Parses a located text as a templated key.
    pub fn parse(text: &Text) -> Result<Key, String> {
        Ok(Key { id: text.id, text: text.text.clone(), template: Template::parse(&text.text)? })
    }
}

/// A map with located keys, in document order; duplicate keys are rejected where they stand.
#[derive(Clone, Debug, PartialEq)]
pub struct Map<V> {
    pub id: usize,
    pub entries: Vec<(Text, V)>,
}

impl<V> Map<V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.entries.iter().find(|(k, _)| k.text == key).map(|(_, v)| v)
    }
}

/// A JSON-like value whose strings are templates: request bodies, patterns, `vars`.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: usize,
    pub kind: NodeKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Null,
    Bool(bool),
    Number(Number),
    Str(Template),
    Array(Vec<Node>),
    /// Keys may hold templates; duplicate keys (as written) are rejected.
    Object(Vec<(Key, Node)>),
}

impl Node {
    /// A node built in code (tests, defaults); id `usize::MAX` is never blamed.
    pub fn synthetic(kind: NodeKind) -> Node {
        Node { id: usize::MAX, kind }
    }

    /// Converts plain JSON (no templates) into a node.
    pub fn from_json(value: &serde_json::Value) -> Node {
        use serde_json::Value;
        let kind = match value {
            Value::Null => NodeKind::Null,
            Value::Bool(b) => NodeKind::Bool(*b),
            Value::Number(n) => NodeKind::Number(n.clone()),
            Value::String(s) => NodeKind::Str(Template::literal(s)),
            Value::Array(items) => NodeKind::Array(items.iter().map(Node::from_json).collect()),
            Value::Object(map) => {
                NodeKind::Object(map.iter().map(|(k, v)| (Key::literal(k), Node::from_json(v))).collect())
            }
        };
        Node::synthetic(kind)
    }

    /// Visits this node and every node under it (pre-order).
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Node)) {
        f(self);
        match &self.kind {
            NodeKind::Array(items) => items.iter().for_each(|item| item.walk(f)),
            NodeKind::Object(entries) => entries.iter().for_each(|(_, v)| v.walk(f)),
            _ => {}
        }
    }
}

fn number_text(n: &Number) -> String {
    n.to_string()
}

// ---------------------------------------------------------------------------------------------
// Text

struct TextVisitor(usize);

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        check_fail(self.0)?;
        Ok(Text { id: self.0, text: v.to_string() })
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Text, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
        self.visit_str(&v.to_string())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        let id = next_id();
        d.deserialize_any(TextVisitor(id))
    }
}

/// A key seed that rejects a key already seen in the same map.
struct KeySeed<'a>(&'a mut HashSet<String>);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Text;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text, D::Error> {
        let id = next_id();
        let seen = self.0;
        struct V<'a>(usize, &'a mut HashSet<String>);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                let text = TextVisitor(self.0).visit_str::<E>(v)?;
                if !self.1.insert(v.to_string()) {
                    return Err(E::custom(format!("duplicate key `{v}`: each key may appear once in a map")));
                }
                Ok(text)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Text, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
                self.visit_str(&v.to_string())
            }
        }
        d.deserialize_any(V(id, seen))
    }
}

/// A key seed for the maps of [`Node`]s: a unique key whose templates parse (a syntax error is
/// reported at the key).
struct TemplateKeySeed<'a>(&'a mut HashSet<String>);

impl<'de> DeserializeSeed<'de> for TemplateKeySeed<'_> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        let text = KeySeed(self.0).deserialize(d)?;
        Key::parse(&text).map_err(de::Error::custom)
    }
}

// ---------------------------------------------------------------------------------------------
// Tpl

impl<'de> Deserialize<'de> for Tpl {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tpl, D::Error> {
        let id = next_id();
        struct V(usize);
        impl<'de> Visitor<'de> for V {
            type Value = Tpl;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tpl, E> {
                check_fail(self.0)?;
                let template = Template::parse(v).map_err(E::custom)?;
                Ok(Tpl { id: self.0, template })
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Tpl, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Tpl, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tpl, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tpl, E> {
                self.visit_str(&v.to_string())
            }
        }
        d.deserialize_any(V(id))
    }
}

// ---------------------------------------------------------------------------------------------
// Map

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Map<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Map<V>, D::Error> {
        let id = next_id();
        struct MV<V>(usize, std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MV<V> {
            type Value = Map<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Map<V>, A::Error> {
                let mut seen = HashSet::new();
                let mut entries = Vec::new();
                while let Some(key) = access.next_key_seed(KeySeed(&mut seen))? {
                    let value = access.next_value::<V>()?;
                    entries.push((key, value));
                }
                check_fail(self.0)?;
                Ok(Map { id: self.0, entries })
            }
        }
        d.deserialize_map(MV(id, std::marker::PhantomData))
    }
}

// ---------------------------------------------------------------------------------------------
// Node

struct NodeVisitor(usize);

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Null })
    }
    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        self.visit_unit()
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Bool(v) })
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Number(v.into()) })
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Number(v.into()) })
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        check_fail(self.0)?;
        let number = Number::from_f64(v).ok_or_else(|| E::custom("numbers must be finite (no .inf or .nan)"))?;
        Ok(Node { id: self.0, kind: NodeKind::Number(number) })
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        check_fail(self.0)?;
        let template = Template::parse(v).map_err(E::custom)?;
        Ok(Node { id: self.0, kind: NodeKind::Str(template) })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = access.next_element::<Node>()? {
            items.push(item);
        }
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Array(items) })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Node, A::Error> {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        while let Some(key) = access.next_key_seed(TemplateKeySeed(&mut seen))? {
            let value = access.next_value::<Node>()?;
            entries.push((key, value));
        }
        check_fail(self.0)?;
        Ok(Node { id: self.0, kind: NodeKind::Object(entries) })
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let id = next_id();
        d.deserialize_any(NodeVisitor(id))
    }
}

/// The text of a scalar node (for keys and messages).
pub fn scalar_text(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Null => Some("null".into()),
        NodeKind::Bool(b) => Some(b.to_string()),
        NodeKind::Number(n) => Some(number_text(n)),
        NodeKind::Str(t) => Some(t.source.clone()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Located

/// A map-shaped value (a derived struct) with a node id, so that errors about the whole map
/// (a missing key, keys that exclude each other) can point at where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    pub id: usize,
    pub value: T,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Located<T>, D::Error> {
        let id = next_id();
        struct LV<T>(usize, std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for LV<T> {
            type Value = Located<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Located<T>, A::Error> {
                check_fail(self.0)?;
                let value = T::deserialize(de::value::MapAccessDeserializer::new(access))?;
                Ok(Located { id: self.0, value })
            }
        }
        d.deserialize_map(LV(id, std::marker::PhantomData))
    }
}
