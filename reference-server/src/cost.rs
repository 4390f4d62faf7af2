//! PLACEHOLDER until the real module lands.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StoredCost(pub String);
pub fn store_cost(value: &serde_json::Value) -> Option<StoredCost> {
    match value {
        serde_json::Value::String(s) => Some(StoredCost(s.clone())),
        serde_json::Value::Number(n) => Some(StoredCost(n.to_string())),
        _ => None,
    }
}
pub fn render_cost(stored: &StoredCost) -> (String, serde_json::Value) {
    (
        stored.0.clone(),
        serde_json::json!({"currency_symbol": "", "currency_code": "", "currency_position": "", "values": []}),
    )
}
pub fn lowest_price(_stored: &StoredCost) -> Option<String> {
    None
}
