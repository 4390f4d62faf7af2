//! The coverage matrix (`conformance coverage`): as text for a terminal, and as JSON (`--json`).

use std::fmt::Write;

use serde_json::{json, Value};

use crate::coverage::{self, Coverage, Item, Section, SectionKind};

/// The mark of an item without a case; grep for it.
pub const UNCOVERED: &str = "NO CASE";

struct Paint(bool);

impl Paint {
    fn red(&self, text: &str) -> String {
        if self.0 {
            format!("\x1b[1;31m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn green(&self, text: &str) -> String {
        if self.0 {
            format!("\x1b[32m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn bold(&self, text: &str) -> String {
        if self.0 {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn note(item: &Item) -> String {
    item.note.as_deref().map(|n| format!("  ({n})")).unwrap_or_default()
}

/// The mark after a covered item (none) or an uncovered one.
fn mark(paint: &Paint, covered: bool) -> String {
    if covered {
        String::new()
    } else {
        format!("  {}", paint.red(UNCOVERED))
    }
}

/// The matrix as text: one block per section, then a summary line per section and a verdict.
/// `source` names where the cases came from (the folder).
pub fn render(coverage: &Coverage, source: &str, color: bool) -> String {
    let paint = Paint(color);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "coverage of the interface by {} case{} in {} file{} ({source}); a number is how many cases touch the item\n",
        coverage.cases,
        if coverage.cases == 1 { "" } else { "s" },
        coverage.files,
        if coverage.files == 1 { "" } else { "s" },
    );
    for section in &coverage.sections {
        match section.kind {
            SectionKind::Routes => routes_block(&mut out, section, &paint),
            SectionKind::Parameters | SectionKind::Errors => grouped_block(&mut out, section, &paint),
            SectionKind::WriteFields => write_fields_block(&mut out, section, &paint),
        }
        out.push('\n');
    }
    if !coverage.unresolved.is_empty() {
        let _ = writeln!(
            out,
            "note: {} step{} address no route of the interface (unknown paths on purpose, urls outside the namespace, or a typo); the JSON report lists them",
            coverage.unresolved.len(),
            if coverage.unresolved.len() == 1 { "" } else { "s" },
        );
    }
    out.push_str(&summary(coverage, color));
    out
}

/// Routes × methods: one line per item, the method then the route.
fn routes_block(out: &mut String, section: &Section, paint: &Paint) {
    let width = section.items.iter().map(|i| i.group.len()).max().unwrap_or(0);
    let _ = writeln!(out, "{}", paint.bold(section.kind.name()));
    for item in &section.items {
        let mark = mark(paint, item.is_covered());
        let _ = writeln!(out, "  {:<7} {:<width$} {:>5}{mark}{}", item.name, item.group, item.cases.len(), note(item));
    }
}

/// Parameters, errors: the items under their group.
fn grouped_block(out: &mut String, section: &Section, paint: &Paint) {
    let width = section.items.iter().map(|i| i.name.len()).max().unwrap_or(0).max(24);
    let _ = writeln!(out, "{}", paint.bold(section.kind.name()));
    for (group, items) in coverage::groups(section) {
        let indent = if group.is_empty() { "  " } else { "    " };
        if !group.is_empty() {
            let _ = writeln!(out, "  {group}");
        }
        for item in items {
            let mark = mark(paint, item.is_covered());
            let _ = writeln!(out, "{indent}{:<width$} {:>5}{mark}{}", item.name, item.cases.len(), note(item));
        }
    }
}

/// Write fields: one line per field of a resource, with a column for create and one for update.
fn write_fields_block(out: &mut String, section: &Section, paint: &Paint) {
    let width = section.items.iter().map(|i| i.name.len()).max().unwrap_or(0).max(24);
    let _ = writeln!(
        out,
        "{}{}create  update",
        paint.bold(section.kind.name()),
        " ".repeat((4 + width + 1).saturating_sub(section.kind.name().chars().count()))
    );
    for (group, items) in coverage::groups(section) {
        let _ = writeln!(out, "  {group}");
        for create in items.iter().filter(|i| i.column == Some("create")) {
            let update = items.iter().find(|i| i.column == Some("update") && i.name == create.name).copied();
            let update_count = update.map(|u| u.cases.len().to_string()).unwrap_or_else(|| "-".into());
            let mut missing = Vec::new();
            if !create.is_covered() {
                missing.push("create");
            }
            if update.is_some_and(|u| !u.is_covered()) {
                missing.push("update");
            }
            let mark = if missing.is_empty() {
                String::new()
            } else {
                format!("  {}", paint.red(&format!("{UNCOVERED}: {}", missing.join(", "))))
            };
            let _ = writeln!(
                out,
                "    {:<width$} {:>6} {:>7}{mark}{}",
                create.name,
                create.cases.len(),
                update_count,
                note(create)
            );
        }
    }
}

/// The summary lines: one per section, then the verdict.
pub fn summary(coverage: &Coverage, color: bool) -> String {
    let paint = Paint(color);
    let mut out = String::new();
    for (name, covered, total) in coverage::totals(coverage) {
        let line = if covered == total {
            format!("{name}: {covered}/{total} covered")
        } else {
            format!("{name}: {covered}/{total} covered, {} without a case", total - covered)
        };
        let _ = writeln!(out, "{}", if covered == total { line } else { paint.red(&line) });
    }
    let (uncovered, total) = (coverage.uncovered(), coverage.total());
    let _ = if uncovered == 0 {
        writeln!(
            out,
            "{}",
            paint.green(&format!("coverage: COMPLETE: each of the {total} items of the interface has a case"))
        )
    } else {
        writeln!(
            out,
            "{}",
            paint.red(&format!(
                "coverage: INCOMPLETE: {uncovered} of {total} items of the interface have no case (marked {UNCOVERED})"
            ))
        )
    };
    out
}

/// The matrix as JSON: `{sections: [{name, covered, total, items: [{item, cases, case_names}]}],
/// uncovered, ...}`.
pub fn json(coverage: &Coverage) -> Value {
    let sections: Vec<Value> = coverage
        .sections
        .iter()
        .map(|section| {
            let items: Vec<Value> = section
                .items
                .iter()
                .map(|item| json!({"item": item.label, "cases": item.cases.len(), "case_names": item.cases}))
                .collect();
            json!({
                "name": section.kind.name(),
                "covered": section.covered(),
                "total": section.items.len(),
                "items": items,
            })
        })
        .collect();
    let unresolved: Vec<Value> = coverage
        .unresolved
        .iter()
        .map(|u| json!({"case": u.case, "step": u.step, "method": u.method, "address": u.address}))
        .collect();
    json!({
        "cases": coverage.cases,
        "files": coverage.files,
        "sections": sections,
        "total": coverage.total(),
        "uncovered": coverage.uncovered(),
        "unresolved_steps": unresolved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::Options;

    #[test]
    fn uncovered_items_are_marked_and_counted() {
        let mut coverage = Coverage::empty(&Options::default());
        for item in coverage.sections.iter_mut().flat_map(|s| &mut s.items) {
            if item.label != "PATCH /events/<id>" && item.label != "venues update: geo_lat" {
                item.cases.insert("f::c".into());
            }
        }
        let text = render(&coverage, "cases/", false);
        let line =
            |needle: &str| text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle}")).to_string();
        assert!(line("PATCH   /events/<id>").ends_with(UNCOVERED), "{text}");
        assert!(line("    geo_lat").contains("NO CASE: update"), "{text}");
        assert!(!line("    geo_lng").contains(UNCOVERED), "{text}");
        assert!(text.contains("routes × methods: "), "{text}");
        assert!(text.contains("write fields: "), "{text}");
        assert!(text.contains("coverage: INCOMPLETE: 2 of"), "{text}");
        let doc = json(&coverage);
        assert_eq!(doc["uncovered"], 2);
        let routes = &doc["sections"][0];
        assert_eq!(routes["name"], "routes × methods");
        let patch = routes["items"].as_array().unwrap().iter().find(|i| i["item"] == "PATCH /events/<id>").unwrap();
        assert_eq!(patch["cases"], 0);
        assert_eq!(patch["case_names"], json!([]));
    }

    #[test]
    fn complete_coverage_says_so() {
        let mut coverage = Coverage::empty(&Options::default());
        for item in coverage.sections.iter_mut().flat_map(|s| &mut s.items) {
            item.cases.insert("f::c".into());
        }
        let text = summary(&coverage, false);
        assert!(text.contains("coverage: COMPLETE"), "{text}");
        assert!(!text.contains(UNCOVERED), "{text}");
    }
}
