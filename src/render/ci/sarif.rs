//! `check-config --format sarif`: SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps).
//!
//! One run; the tool's driver names every finding code as a rule (id, short description, help,
//! default level); each result has its rule, level, message, a region with start and end
//! line/column, the JSON path as a logical location, and a `partialFingerprints` entry that
//! depends on the file, the code and the JSON path only (not on line numbers), so GitHub keeps
//! an alert's identity when lines move. Messages never hold secrets (the engine masks them) and
//! every string goes through the shared sanitiser.

use serde::Serialize;

use crate::engine::config::{Code, Finding, LoadError, Report, Severity};

/// The official schema's URI (SARIF 2.1.0 errata 01).
pub(crate) const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    invocations: [Invocation; 1],
    column_kind: &'static str,
    original_uri_base_ids: OriginalUriBaseIds,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct OriginalUriBaseIds {
    #[serde(rename = "%SRCROOT%")]
    srcroot: Description,
}

#[derive(Serialize)]
struct Description {
    description: Text,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: [&'static str; 1],
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties<'a>>,
}

#[derive(Serialize)]
struct ResultProperties<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

#[derive(Serialize)]
struct Fingerprints {
    /// The `partialFingerprints` key (versioned: a change of what is hashed gets a new key).
    #[serde(rename = "mcplDoctorFinding/v1")]
    finding: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn text(s: &str) -> Text {
    Text {
        text: s.to_string(),
    }
}

/// `reconnect-timing` -> `ReconnectTiming` (a rule's `name`).
fn pascal(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn rules() -> Vec<Rule> {
    Code::ALL
        .iter()
        .map(|c| Rule {
            id: c.as_str(),
            name: pascal(c.as_str()),
            short_description: text(c.summary()),
            full_description: text(&format!("{}.", c.summary())),
            help: text(c.help()),
            default_configuration: Configuration {
                level: level(c.severity()),
            },
            properties: RuleProperties {
                tags: ["configuration"],
            },
        })
        .collect()
}

/// A file name as a URI reference: relative names against `%SRCROOT%` (the repository root in
/// GitHub code scanning), absolute ones as `file://` URIs; reserved bytes percent-encoded.
pub(crate) fn file_uri(file: &str) -> (String, Option<&'static str>) {
    let norm = file.replace('\\', "/");
    let encode = |s: &str| -> String {
        let mut out = String::with_capacity(s.len());
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    };
    if norm.starts_with('/') {
        (format!("file://{}", encode(&norm)), None)
    } else {
        let rel = norm.trim_start_matches("./");
        (encode(rel), Some("%SRCROOT%"))
    }
}

fn artifact(file: &str) -> ArtifactLocation {
    let (uri, uri_base_id) = file_uri(file);
    ArtifactLocation { uri, uri_base_id }
}

/// FNV-1a, 64 bits: stable across Rust versions and platforms (std's hasher is not).
fn fnv1a(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The fingerprint of a finding: its file, code, JSON path and field, not its position.
pub(crate) fn fingerprint(f: &Finding) -> String {
    fnv1a(&[
        &f.file,
        f.code.as_str(),
        &f.path,
        f.field.as_deref().unwrap_or(""),
    ])
}

fn result(f: &Finding) -> SarifResult<'_> {
    let rule_index = Code::ALL.iter().position(|c| *c == f.code).unwrap_or(0);
    let properties = (f.server.is_some() || f.field.is_some()).then_some(ResultProperties {
        server: f.server.as_deref(),
        field: f.field.as_deref(),
    });
    SarifResult {
        rule_id: f.code.as_str(),
        rule_index,
        level: level(f.severity),
        message: text(&f.message),
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: artifact(&f.file),
                region: Some(Region {
                    start_line: f.line,
                    start_column: f.column,
                    end_line: f.end_line.max(f.line),
                    end_column: if f.end_line > f.line {
                        f.end_column
                    } else {
                        f.end_column.max(f.column + 1)
                    },
                }),
            },
            logical_locations: vec![LogicalLocation {
                fully_qualified_name: f.path.clone(),
                kind: "member",
            }],
        }],
        partial_fingerprints: Fingerprints {
            finding: fingerprint(f),
        },
        properties,
    }
}

fn notification(e: &LoadError) -> Notification {
    let region = e.position().map(|(l, c)| Region {
        start_line: l,
        start_column: c,
        end_line: l,
        end_column: c + 1,
    });
    Notification {
        level: "error",
        message: text(&e.to_string()),
        locations: vec![Location {
            physical_location: PhysicalLocation {
                artifact_location: artifact(e.file()),
                region,
            },
            logical_locations: Vec::new(),
        }],
    }
}

/// The SARIF log of one `check-config` run.
pub(crate) fn sarif(reports: &[Report], errors: &[LoadError]) -> String {
    let log = Log {
        schema: SARIF_SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "mcpl-doctor",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules: rules(),
                },
            },
            invocations: [Invocation {
                execution_successful: errors.is_empty(),
                tool_execution_notifications: errors.iter().map(notification).collect(),
            }],
            column_kind: "unicodeCodePoints",
            original_uri_base_ids: OriginalUriBaseIds {
                srcroot: Description {
                    description: text(
                        "The folder check-config ran in (the repository root in CI).",
                    ),
                },
            },
            results: reports
                .iter()
                .flat_map(|r| &r.findings)
                .map(result)
                .collect(),
        }],
    };
    let mut s =
        crate::render::sanitize::json(serde_json::to_string_pretty(&log).unwrap_or_else(|e| {
            format!("{{\"version\": \"2.1.0\", \"runs\": [], \"error\": \"{e}\"}}")
        }));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(
            file_uri("./a b/mcp.json"),
            ("a%20b/mcp.json".to_string(), Some("%SRCROOT%"))
        );
        assert_eq!(
            file_uri("/etc/x.json"),
            ("file:///etc/x.json".to_string(), None)
        );
        assert_eq!(file_uri("<stdin>").0, "%3Cstdin%3E");
    }

    #[test]
    fn names_and_hashes_are_stable() {
        assert_eq!(pascal("reconnect-timing"), "ReconnectTiming");
        // FNV-1a's published test vector, then our separator.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in b"a" {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(h, 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(&["a", "b"]), fnv1a(&["a", "b"]));
        assert_ne!(fnv1a(&["ab", ""]), fnv1a(&["a", "b"]));
    }
}
