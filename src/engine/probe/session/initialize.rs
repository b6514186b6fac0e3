//! The `initialize` of the HTTP eras before 2026-07-28, as today's SDK clients send it: the
//! version offered, and reading the answer into a verdict (the versions a client of that era
//! accepts; a negotiation failure diagnosed with the versions the server names).

use serde_json::{json, Value};

use super::handshake::{self, Answer};
use crate::engine::probe::model::{Protocol, ServerInfo};
use crate::engine::redact::Redactor;

/// The Streamable HTTP revisions, newest first (the first is offered).
pub(crate) const STREAMABLE_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// The legacy HTTP+SSE revision.
pub(crate) const SSE_VERSION: &str = "2024-11-05";

/// The versions today's MCP clients accept in an `initialize` answer, newest first: the
/// TypeScript SDK's `SUPPORTED_PROTOCOL_VERSIONS` (1.32, in `types.js`), which Claude Code,
/// VS Code, Cursor, Cline and the other editors' clients are built on.
pub(crate) const MCP_CLIENT_VERSIONS: [&str; 5] = [
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "2024-10-07",
];

/// Who plays the host's side of a stdio (or WebSocket) handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Client {
    /// agent-framework: MCP 2024-11-05 with the MCPL capability, the one version it accepts
    /// (or `server/discover` on its modern engine).
    #[default]
    AgentFramework,
    /// An MCP client as today's editors run one: the SDK's newest version offered, any
    /// version it supports accepted ([`MCP_CLIENT_VERSIONS`]).
    Mcp,
}

/// The era's name of a handshake over stdio.
pub(crate) const STDIO_ERA: &str = "stdio";

/// The first request `client` sends over stdio on `protocol`'s engine.
pub(crate) fn stdio_first_request(client: Client, protocol: Protocol) -> Value {
    match (client, protocol) {
        (Client::Mcp, Protocol::Legacy) => request(MCP_CLIENT_VERSIONS[0]),
        _ => handshake::first_request(protocol),
    }
}

/// Read `msg` against the pending stdio handshake of `client`: the version the server
/// answered is recorded against the one offered, and one the client cannot use refuses the
/// server (C4), with the versions it names.
pub(crate) fn stdio_read_answer(
    client: Client,
    protocol: Protocol,
    msg: &Value,
    redactor: &Redactor,
) -> Answer {
    if let (Client::Mcp, Protocol::Legacy) = (client, protocol) {
        let offered = MCP_CLIENT_VERSIONS[0];
        return read_answer(msg, offered, &MCP_CLIENT_VERSIONS, STDIO_ERA, redactor);
    }
    let offered = match protocol {
        Protocol::Legacy => handshake::LEGACY_VERSION,
        Protocol::Modern => handshake::MODERN_VERSION,
    };
    let stamp = |mut info: ServerInfo| {
        info.era = Some(STDIO_ERA.to_string());
        info.offered_version = Some(offered.to_string());
        info
    };
    match handshake::read_answer(protocol, msg, redactor) {
        Answer::Connected(info) => Answer::Connected(stamp(info)),
        Answer::Refused { error, server } => Answer::Refused {
            error,
            server: stamp(server),
        },
        Answer::Failed { error, server } => Answer::Failed {
            error,
            server: server.map(stamp),
        },
        Answer::NotYet => Answer::NotYet,
    }
}

/// The `initialize` request offering `version`, with no client capabilities.
pub(crate) fn request(version: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": handshake::HANDSHAKE_ID,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": { "name": "mcpl-doctor", "version": env!("CARGO_PKG_VERSION") },
        },
    })
}

/// Read `msg` against the pending `initialize` that offered `offered`, accepting any of
/// `accepted` (C4: a server answers the offered version or another it supports; a client
/// that cannot use the answer disconnects). `era` is recorded in the server's facts.
pub(crate) fn read_answer(
    msg: &Value,
    offered: &str,
    accepted: &[&str],
    era: &str,
    redactor: &Redactor,
) -> Answer {
    if !handshake::is_response_to(msg, handshake::HANDSHAKE_ID) {
        return Answer::NotYet;
    }
    let facts = |mut info: ServerInfo| {
        info.era = Some(era.to_string());
        info.offered_version = Some(offered.to_string());
        info
    };
    if let Some(err) = msg.get("error") {
        return refused(err, offered, facts(ServerInfo::default()), redactor);
    }
    let Some(result) = msg.get("result") else {
        return Answer::NotYet;
    };
    let info = facts(handshake::server_info(result, redactor));
    match info.protocol_version.as_deref() {
        Some(v) if accepted.contains(&v) => Answer::Connected(info),
        Some(v) => {
            let error = format!(
                "server answered protocol version {v:?} to initialize offering {offered}; \
                 the host's client accepts {}",
                accepted.join(", ")
            );
            Answer::Refused {
                error,
                server: info,
            }
        }
        None => Answer::Refused {
            error: format!(
                "server answered initialize without a protocolVersion (offered {offered})"
            ),
            server: info,
        },
    }
}

/// An error answer to `initialize`: a version refusal (naming the versions the server
/// supports, in `data.supported`) is permanent; anything else an ordinary failure.
fn refused(err: &Value, offered: &str, mut info: ServerInfo, redactor: &Redactor) -> Answer {
    let (code, message, supported) = handshake::error_parts(err, redactor);
    let code_text = code.map_or_else(|| "no code".to_string(), |c| format!("code {c}"));
    let said = if message.is_empty() {
        code_text
    } else {
        format!("{message} ({code_text})")
    };
    let about_version = code == Some(handshake::VERSION_REFUSED)
        || !supported.is_empty()
        || message.to_ascii_lowercase().contains("protocol version");
    if about_version {
        let hint = if supported.is_empty() {
            String::new()
        } else {
            format!("; it supports {}", supported.join(", "))
        };
        info.supported_versions = supported;
        return Answer::Refused {
            error: format!("server refused protocol version {offered}: {said}{hint}"),
            server: info,
        };
    }
    Answer::Failed {
        error: format!("initialize failed: {said}"),
        server: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r() -> Redactor {
        Redactor::default()
    }

    #[test]
    fn an_accepted_version_connects_and_records_era_and_offer() {
        let msg = json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "serverInfo": {"name": "x", "version": "1"}}});
        match read_answer(
            &msg,
            "2025-11-25",
            &STREAMABLE_VERSIONS,
            "streamable-http",
            &r(),
        ) {
            Answer::Connected(info) => {
                assert_eq!(info.protocol_version.as_deref(), Some("2025-06-18"));
                assert_eq!(info.offered_version.as_deref(), Some("2025-11-25"));
                assert_eq!(info.era.as_deref(), Some("streamable-http"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_unknown_version_or_a_refusal_naming_versions_is_permanent() {
        let msg = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "1999-01-01"}});
        assert!(matches!(
            read_answer(&msg, "2025-11-25", &STREAMABLE_VERSIONS, "e", &r()),
            Answer::Refused { .. }
        ));
        let msg = json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32602,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}});
        match read_answer(&msg, "2025-11-25", &STREAMABLE_VERSIONS, "e", &r()) {
            Answer::Refused { error, server } => {
                assert!(error.contains("it supports 2026-07-28"), "{error}");
                assert_eq!(server.supported_versions, vec!["2026-07-28"]);
            }
            other => panic!("{other:?}"),
        }
        let msg = json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32603, "message": "boom"}});
        assert!(matches!(
            read_answer(&msg, "2025-11-25", &STREAMABLE_VERSIONS, "e", &r()),
            Answer::Failed { .. }
        ));
    }
}
