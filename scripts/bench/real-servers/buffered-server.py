"""A hand-written stdio MCP server as users write it from the protocol's description: one JSON
object a line, answered with print() and no flush. Part of the real-servers corpus: on a pipe
its stdout is block-buffered, so the host sees the answer only when the process exits (the
corpus's "block-buffered stdout" case; `python -u` or PYTHONUNBUFFERED=1 is the fix)."""

import json
import sys

TOOLS = [{"name": "echo", "description": "Echo the text back.",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "echo", "version": "0.1.0"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        text = msg.get("params", {}).get("arguments", {}).get("text", "")
        result = {"content": [{"type": "text", "text": text}]}
    elif method == "ping":
        result = {}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"],
                          "error": {"code": -32601, "message": "Method not found"}}))
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}))
