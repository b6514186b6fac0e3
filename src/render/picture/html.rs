//! The self-contained HTML report (`--report FILE.html`): one file, no scripts, no fonts or
//! anything else fetched (a Content-Security-Policy forbids it), light and dark colour schemes
//! and a print style. Every text is escaped ([`esc`]): a server named `<script>` stays text.

use std::fmt::Write as _;

use super::svg::{esc, STYLE};

/// A table of plain-text cells (newlines become line breaks).
#[derive(Debug, Clone, Default)]
pub(crate) struct TableView {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Said under the table (e.g. rows left out).
    pub note: Option<String>,
}

/// One "Why" finding, as the diagnosis gives it.
#[derive(Debug, Clone)]
pub(crate) struct DiagnosisView {
    pub summary: String,
    pub evidence: Vec<String>,
    pub next_step: String,
}

/// One server's part of the page (the only one for `probe`, one per server for `--all`, one per
/// rule for `simulate`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Section {
    /// `None`: the page's only section, no heading.
    pub heading: Option<String>,
    pub facts: Vec<(String, String)>,
    pub verdict: Option<String>,
    /// The diagnosis ("Why"), when there is one.
    pub diagnosis: Vec<DiagnosisView>,
    pub launches: TableView,
    /// The small multiples (an SVG this module made) and the predictions table.
    pub predictions_svg: Option<String>,
    pub predictions: Option<TableView>,
    pub predictions_caption: String,
    /// Lines of notes (stderr tails, pings, ...).
    pub notes: Vec<String>,
}

/// The whole page.
#[derive(Debug, Clone, Default)]
pub(crate) struct Page {
    /// `probe`, `probe --all`, `simulate`.
    pub kind: String,
    pub title: String,
    /// The command line, secrets masked.
    pub command: String,
    pub facts: Vec<(String, String)>,
    /// The verdict of the whole run (`--all`: the count of servers that stayed up).
    pub verdict: Option<String>,
    /// A summary table (`--all`: one row per server).
    pub summary: Option<TableView>,
    /// The timeline SVG (made by [`super::svg::timeline`]) and what it shows.
    pub timeline_svg: String,
    pub timeline_caption: String,
    pub sections: Vec<Section>,
}

const CSS: &str = "\
:root{color-scheme:light dark;--fg:#212529;--bg:#fff;--dim:#495057;--line:#dee2e6;--box:#f8f9fa;\
--accent:#1864ab}\
@media (prefers-color-scheme: dark){:root{--fg:#e9ecef;--bg:#1a1b1e;--dim:#adb5bd;--line:#373a40;\
--box:#25262b;--accent:#74c0fc}}\
*{box-sizing:border-box}\
body{margin:0 auto;max-width:1060px;padding:16px 24px 48px;font:14px/1.45 system-ui,-apple-system,\
'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:var(--fg);background:var(--bg)}\
h1{font-size:22px;margin:8px 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid \
var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}\
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}\
pre{white-space:pre-wrap;word-break:break-all;background:var(--box);padding:8px 10px;\
border-radius:4px;margin:6px 0}\
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 16px;margin:8px 0}\
dt{color:var(--dim)}dd{margin:0}\
h1,h2,h3,figcaption,dd,li,p,.verdict{overflow-wrap:anywhere}\
.verdict{background:var(--box);border-left:4px solid var(--accent);padding:8px 12px;margin:10px 0}\
.why li{margin:4px 0}.dim{color:var(--dim)}\
figure{margin:8px 0}figure svg{width:100%;min-width:720px;height:auto;display:block}\
figcaption{color:var(--dim);font-size:12.5px;margin-top:4px}\
table{border-collapse:collapse;width:100%;font-size:12.5px;margin:6px 0}\
th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}\
th{background:var(--bg)}td.n{text-align:right;font-variant-numeric:tabular-nums}\
.scroll{overflow-x:auto}\
@media print{body{max-width:none;padding:0;color:#000;background:#fff}.scroll{max-height:none;\
overflow:visible}figure svg{min-width:0}h2{break-after:avoid}figure,tr{break-inside:avoid}\
.verdict{border-left-color:#000}}";

fn facts(out: &mut String, facts: &[(String, String)]) {
    if facts.is_empty() {
        return;
    }
    out.push_str("<dl>");
    for (k, v) in facts {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", esc(k), cell(v));
    }
    out.push_str("</dl>");
}

/// A cell's text: escaped, each line on its own.
fn cell(text: &str) -> String {
    text.split('\n').map(esc).collect::<Vec<_>>().join("<br>")
}

fn numeric(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '%' | '<'))
}

fn table(out: &mut String, t: &TableView, class: &str) {
    let _ = write!(
        out,
        r#"<div class="scroll"><table class="{class}"><thead><tr>"#
    );
    for h in &t.header {
        let _ = write!(out, "<th>{}</th>", cell(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &t.rows {
        out.push_str("<tr>");
        for c in row {
            if numeric(c) {
                let _ = write!(out, r#"<td class="n">{}</td>"#, cell(c));
            } else {
                let _ = write!(out, "<td>{}</td>", cell(c));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if let Some(note) = &t.note {
        let _ = write!(out, r#"<p class="dim">{}</p>"#, esc(note));
    }
}

fn section(out: &mut String, s: &Section) {
    match &s.heading {
        Some(h) => {
            let _ = write!(out, r#"<section class="server"><h2>{}</h2>"#, esc(h));
        }
        None => out.push_str(r#"<section class="server">"#),
    }
    facts(out, &s.facts);
    if let Some(v) = &s.verdict {
        let _ = write!(
            out,
            r#"<p class="verdict"><strong>Verdict:</strong> {}</p>"#,
            esc(v)
        );
    }
    // The diagnosis ("Why"): the likely causes, surest first, as the terminal report gives them.
    if !s.diagnosis.is_empty() {
        out.push_str(r#"<div class="why"><h3>Why</h3><ul>"#);
        for d in &s.diagnosis {
            let _ = write!(out, "<li><strong>{}</strong>", esc(&d.summary));
            if !d.evidence.is_empty() {
                out.push_str("<ul>");
                for e in &d.evidence {
                    let _ = write!(out, "<li>{}</li>", esc(e));
                }
                out.push_str("</ul>");
            }
            if !d.next_step.is_empty() {
                let _ = write!(out, r#"<div class="dim">Next: {}</div>"#, esc(&d.next_step));
            }
            out.push_str("</li>");
        }
        out.push_str("</ul></div>");
    }
    if !s.launches.rows.is_empty() {
        out.push_str("<h3>Launches</h3>");
        table(out, &s.launches, "launches");
    }
    if !s.notes.is_empty() {
        out.push_str("<h3>Notes</h3><pre>");
        for n in &s.notes {
            out.push_str(&esc(n).replace("\\n", "\n"));
            out.push('\n');
        }
        out.push_str("</pre>");
    }
    if s.predictions_svg.is_some() || s.predictions.is_some() {
        let _ = write!(out, "<h3>{}</h3>", esc(&s.predictions_caption));
        if let Some(svg) = &s.predictions_svg {
            let _ = write!(out, r#"<figure><div class="scroll">{svg}</div></figure>"#);
        }
        if let Some(t) = &s.predictions {
            table(out, t, "predictions");
        }
    }
    out.push_str("</section>");
}

/// The page as one HTML document.
pub(crate) fn page(p: &Page) -> String {
    let mut out = String::with_capacity(64 * 1024 + p.timeline_svg.len());
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <meta name=\"generator\" content=\"mcpl-doctor {}\">\
         <title>{}</title><style>{CSS}{STYLE}</style></head><body>",
        env!("CARGO_PKG_VERSION"),
        esc(&p.title)
    );
    let _ = write!(
        out,
        r#"<header><h1>{}</h1><p class="dim">mcpl-doctor {} report</p></header>"#,
        esc(&p.title),
        esc(&p.kind)
    );
    out.push_str(r#"<section id="run"><h2>What was run</h2>"#);
    let _ = write!(out, "<pre>{}</pre>", esc(&p.command));
    facts(&mut out, &p.facts);
    if let Some(v) = &p.verdict {
        let _ = write!(
            out,
            r#"<p class="verdict"><strong>Verdict:</strong> {}</p>"#,
            esc(v)
        );
    }
    out.push_str("</section>");
    if let Some(t) = &p.summary {
        out.push_str(r#"<section id="summary"><h2>Servers</h2>"#);
        table(&mut out, t, "summary");
        out.push_str("</section>");
    }
    let _ = write!(
        out,
        r#"<section id="timeline"><h2>Timeline</h2><figure><div class="scroll">{}</div><figcaption>{}</figcaption></figure></section>"#,
        p.timeline_svg,
        esc(&p.timeline_caption)
    );
    for s in &p.sections {
        section(&mut out, s);
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_is_escaped() {
        let p = Page {
            kind: "probe".into(),
            title: "<script>alert(1)</script>".into(),
            command: "a & b".into(),
            facts: vec![("rule".into(), "<b>x</b>".into())],
            sections: vec![Section {
                heading: Some("<img src=x>".into()),
                launches: TableView {
                    header: vec!["#".into()],
                    rows: vec![vec!["<script>".into()]],
                    note: None,
                },
                ..Section::default()
            }],
            ..Page::default()
        };
        let html = page(&p);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("<b>x"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("default-src 'none'"));
    }
}
