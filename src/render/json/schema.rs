//! `mcpl-doctor schema`: JSON Schemas (draft 2020-12).
//!
//! - `config`: host configuration files, generated from the checker's own field tables
//!   (`engine::config::fields`), so an editor flags what `check-config` flags: a field the
//!   host does not read (`additionalProperties: false` per table format), a value of the wrong
//!   type, a timing that is not a positive number.
//! - `check-config`, `probe`, `simulate`, `events`: the `--format json` / `--format json` / `--format events`
//!   documents, generated from the typed structs the renderers serialise (schemars).
//!
//! The generated text is checked in under `schema/`; a test fails when the two differ.

use serde_json::{json, Map, Value};

use crate::engine::config::fields::{self, Field, Ty};
use crate::engine::config::TableKind;

/// What `mcpl-doctor schema` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Which {
    /// Host configuration files (for editors, through `$schema`).
    Config,
    /// `check-config --format json`.
    CheckConfig,
    /// `simulate --format json`.
    Simulate,
    /// `probe --format json` (one server, or every server with `--all`).
    Probe,
    /// One `probe --format events` line (each line is one document).
    Events,
}

/// The schema's text (pretty JSON, ending in a newline).
pub(crate) fn text(which: Which) -> String {
    let value = match which {
        Which::Config => config(),
        Which::CheckConfig => document::<super::check_config::JsonDoc<'static>>(
            "mcpl-doctor check-config --format json",
        ),
        Which::Simulate => {
            document::<super::simulate::JsonDoc<'static>>("mcpl-doctor simulate --format json")
        }
        Which::Probe => {
            document::<super::probe_all::ProbeJson<'static>>("mcpl-doctor probe --format json")
        }
        Which::Events => document::<super::events::EventLine<'static>>(
            "mcpl-doctor probe --format events (one line)",
        ),
    };
    let mut s =
        serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// A document's schema from its typed struct.
fn document<T: schemars::JsonSchema>(title: &str) -> Value {
    // What the documents look like as written (a member skipped when empty is optional), not
    // what a reader would accept.
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut v = serde_json::to_value(&schema).unwrap_or(Value::Null);
    close_objects(&mut v);
    if let Some(obj) = v.as_object_mut() {
        obj.insert("title".into(), Value::String(title.to_string()));
    }
    v
}

/// Every object schema with `properties` gets `additionalProperties: false`: the documents are
/// ours, so a field that is not in the struct (a `json!` slipped back in) fails validation.
fn close_objects(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            for (k, child) in map.iter_mut() {
                // `properties` and `$defs` are maps of names to schemas, not schemas.
                if k == "properties" || k == "$defs" {
                    if let Value::Object(m) = child {
                        m.values_mut().for_each(close_objects);
                    }
                } else if k != "enum" && k != "const" && k != "default" && k != "examples" {
                    close_objects(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// A number of milliseconds from a default's words (`"5000 ms"` -> 5000).
fn default_value(f: &Field) -> Option<Value> {
    let d = f.default?;
    match f.ty {
        Ty::Millis | Ty::TimeoutMillis => d
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .map(|n| json!(n)),
        Ty::Bool => Some(json!(d.starts_with("true"))),
        Ty::OneOf(values) => values.iter().find(|v| d == **v).map(|v| json!(v)),
        _ => None,
    }
}

fn field_schema(f: &Field) -> Value {
    let mut s = match f.ty {
        Ty::String => json!({"type": "string"}),
        Ty::Strings => json!({"type": "array", "items": {"type": "string"}}),
        Ty::StringMap => json!({"type": "object", "additionalProperties": {"type": "string"}}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::Millis => json!({"type": "number", "exclusiveMinimum": 0, "maximum": 2147483647}),
        Ty::TimeoutMillis => json!({"type": "number", "maximum": 2147483647}),
        Ty::OneOf(values) => json!({"enum": values}),
        Ty::Object => json!({"type": "object"}),
        Ty::Any => json!({}),
    };
    if let Some(obj) = s.as_object_mut() {
        obj.insert("description".into(), json!(f.doc));
        if let Some(d) = default_value(f) {
            obj.insert("default".into(), d);
        }
    }
    s
}

fn entry_schema(kind: TableKind, description: &str) -> Value {
    let props: Map<String, Value> = fields::entry_fields(kind)
        .map(|f| (f.name.to_string(), field_schema(f)))
        .collect();
    json!({
        "type": "object",
        "description": description,
        "properties": props,
        "additionalProperties": false
    })
}

/// The configuration files' schema, from the field tables.
pub(crate) fn config() -> Value {
    let tables = fields::TABLE_KEYS
        .iter()
        .map(|(k, formats)| format!("`{k}` ({formats})"))
        .collect::<Vec<_>>()
        .join(", ");
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "MCP/MCPL host configuration (mcpl-doctor)",
        "description": format!(
            "Server tables anywhere in the document: {tables}. Generated by `mcpl-doctor schema \
             config` from the tables `mcpl-doctor check-config` checks with; check-config also \
             judges what a schema cannot (reconnect timings under the host's rule, bindings, \
             clear-text credentials)."
        ),
        "type": "object",
        "$ref": "#/$defs/block",
        "$defs": {
            "block": {
                "description": "Any object may hold server tables (e.g. hosts nested by name).",
                "properties": {
                    "mcplServers": {"$ref": "#/$defs/mcplServers"},
                    "mcpServers": {"$ref": "#/$defs/mcpServers"},
                    "servers": {
                        "if": {"type": "object"},
                        "then": {"$ref": "#/$defs/servers"},
                        "else": {"$ref": "#/$defs/block"}
                    }
                },
                "additionalProperties": {"$ref": "#/$defs/block"},
                "items": {"$ref": "#/$defs/block"}
            },
            "mcplServers": {
                "description": "connectome-host registry and agent overlay (an object keyed by server id), or agent-framework FrameworkConfig (an array of entries each with an `id`).",
                "type": ["object", "array", "null"],
                "additionalProperties": {"$ref": "#/$defs/mcplEntry"},
                "items": {"$ref": "#/$defs/mcplEntry", "required": ["id"]}
            },
            "mcpServers": {
                "description": "connectome-host recipe, Claude Desktop, Claude Code `.mcp.json`: an object keyed by server id.",
                "type": ["object", "null"],
                "additionalProperties": {"$ref": "#/$defs/mcpEntry"}
            },
            "servers": {
                "description": "VS Code `.vscode/mcp.json`: an object keyed by server id.",
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/vscodeEntry"}
            },
            "mcplEntry": entry_schema(TableKind::McplServers, "An MCPL server entry (connectome-host, agent-framework)."),
            "mcpEntry": entry_schema(TableKind::McpServers, "A server entry of a connectome-host recipe or a Claude `.mcp.json`."),
            "vscodeEntry": entry_schema(TableKind::Servers, "A server entry of VS Code's mcp.json.")
        }
    })
}
