//! What the host asks beyond its listing: the capabilities it grants from the handshake's
//! answer, and the one opt-in `tools/call` of `--call TOOL[=JSON]` (never by default: a tool
//! can have side effects), made once the listing ends, whose failure is a finding.

use serde::Serialize;
use serde_json::Value;

use super::record::{CallAnswer, ExchangeResult, CALL_TEXT_MAX};
use crate::engine::folded::short_text;
use crate::engine::redact::Redactor;

/// `--call TOOL[=JSON]`: the tool and its arguments (a JSON object; `{}` without `=`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ToolCall {
    pub name: String,
    pub arguments: Value,
}

/// Why a `--call TOOL[=JSON]` does not parse.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CallError {
    #[error("give the tool's name: --call TOOL or --call TOOL='{{...}}'")]
    NoName,
    /// serde_json's reason.
    #[error("the arguments after `=` are not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("the arguments after `=` must be a JSON object: {{\"key\": ...}}")]
    NotAnObject,
}

impl ToolCall {
    /// `query={"sql": "SELECT 1"}`, `list_tables`.
    pub(crate) fn parse(s: &str) -> Result<ToolCall, CallError> {
        let (name, json) = match s.split_once('=') {
            Some((n, j)) => (n.trim(), Some(j)),
            None => (s.trim(), None),
        };
        if name.is_empty() {
            return Err(CallError::NoName);
        }
        let arguments = match json {
            None => Value::Object(Default::default()),
            Some(j) => serde_json::from_str::<Value>(j).map_err(CallError::NotJson)?,
        };
        if !arguments.is_object() {
            return Err(CallError::NotAnObject);
        }
        Ok(ToolCall {
            name: name.to_string(),
            arguments,
        })
    }
}

/// What a `tools/call` answer says: a JSON-RPC error, a result with `isError` (its first text),
/// or a result.
pub(crate) fn result_of(msg: &Value, redactor: &Redactor) -> ExchangeResult {
    if let Some(e) = msg.get("error") {
        // Its first 2 KiB, as a result's text: what names the fix is often past its first line
        // (a list of ways to give a credential, the variable last).
        return ExchangeResult::Error {
            code: e.get("code").and_then(Value::as_i64),
            message: crate::engine::folded::text_within(
                redactor,
                e.get("message").and_then(Value::as_str).unwrap_or_default(),
                CALL_TEXT_MAX,
            ),
        };
    }
    let result = msg.get("result").unwrap_or(&Value::Null);
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = result
            .get("content")
            .and_then(Value::as_array)
            .and_then(|c| c.iter().find_map(|x| x.get("text").and_then(Value::as_str)))
            .unwrap_or("the tool reported an error");
        return ExchangeResult::Error {
            code: None,
            message: short_text(redactor, text),
        };
    }
    ExchangeResult::Answered
}

/// The result of a `tools/call` answer (none for a JSON-RPC error): its content's text parts,
/// one a line, redacted whole before they are cut to [`CALL_TEXT_MAX`] bytes (a cut never
/// shows a secret's first part), and its `isError`.
pub(crate) fn answer_of(msg: &Value, redactor: &Redactor) -> Option<CallAnswer> {
    if msg.get("error").is_some() {
        return None;
    }
    let result = msg.get("result")?;
    let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
    // Enough to redact what is kept: any secret that begins in the first 2 KiB ends in it.
    let read = CALL_TEXT_MAX + redactor.longest().max(4096);
    let mut text = String::new();
    let parts = result.get("content").and_then(Value::as_array);
    for t in parts
        .into_iter()
        .flatten()
        .filter_map(|x| x.get("text").and_then(Value::as_str))
    {
        if text.len() >= read {
            break;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&t[..floor_boundary(t, read - text.len().min(read))]);
    }
    let mut shown = if text.len() >= read {
        redactor.redact_cut(&text)
    } else {
        redactor.redact(&text)
    };
    if shown.len() > CALL_TEXT_MAX || text.len() >= read {
        shown.truncate(floor_boundary(&shown, CALL_TEXT_MAX));
        shown.push('…');
    }
    Some(CallAnswer {
        text: shown,
        is_error,
        failed: None,
    })
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The capability paths the probe grants when the server advertises them (what connectome-host
/// grants a server it trusts with channels; SPEC §6.2's vocabulary).
pub(super) const GRANTABLE: &[&str] = &[
    "tools",
    "pushEvents",
    "channels.register",
    "channels.lifecycle",
    "channels.publish",
    "channels.incoming",
    "channels.acknowledge",
    "channels.streaming",
    "channels.typing",
];

/// Every leaf of SPEC §6.2's vocabulary, for expanding a `true` shorthand.
const VOCABULARY: &[&str] = &[
    "pushEvents",
    "tools",
    "modelInfo",
    "inferenceRequest.streaming",
    "inferenceLifecycle",
    "contextHooks.beforeInference.observe",
    "contextHooks.beforeInference.inject.system",
    "contextHooks.beforeInference.inject.beforeUser",
    "contextHooks.beforeInference.inject.afterUser",
    "channels.register",
    "channels.lifecycle",
    "channels.publish",
    "channels.incoming",
    "channels.streaming",
    "channels.acknowledge",
    "channels.typing",
];

/// The leaves a server advertised (`experimental.mcpl` walked recursively; `true` at a node
/// means every vocabulary leaf beneath it), plus `tools` when `capabilities.tools` is present.
pub(super) fn advertised(capabilities: &Value) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Bool(true) => {
                for leaf in VOCABULARY {
                    if *leaf == prefix || leaf.starts_with(&format!("{prefix}.")) {
                        out.push((*leaf).to_string());
                    }
                }
            }
            Value::Object(m) => {
                for (k, child) in m {
                    if prefix.is_empty() && (k == "version" || k == "featureSets") {
                        continue;
                    }
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, child, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if capabilities.get("tools").is_some() {
        out.push("tools".to_string());
    }
    if let Some(mcpl) = capabilities.get("experimental").and_then(|e| e.get("mcpl")) {
        walk("", mcpl, &mut out);
    }
    out.dedup();
    out
}
