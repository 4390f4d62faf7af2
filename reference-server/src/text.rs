//! PLACEHOLDER until the real module lands.
pub fn sanitize_title(title: &str) -> String {
    let mut out = String::new();
    for c in title.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c)
        } else if !out.ends_with('-') {
            out.push('-')
        }
    }
    out.trim_matches('-').to_string()
}
pub fn sanitize_slug(slug: &str) -> String {
    sanitize_title(slug)
}
pub fn render_content(raw: &str) -> String {
    if raw.trim().is_empty() {
        String::new()
    } else {
        format!("<p>{}</p>", raw.trim())
    }
}
pub fn render_excerpt(raw_excerpt: &str, _raw_content: &str) -> String {
    render_content(raw_excerpt)
}
pub fn render_title(raw: &str) -> String {
    raw.to_string()
}
pub fn esc_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#039;")
}
pub fn strip_tags(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in text.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}
pub fn is_valid_url(text: &str) -> bool {
    text.split_once("://").is_some_and(|(s, rest)| !s.is_empty() && !rest.is_empty())
}
