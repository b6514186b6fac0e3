# A minimal modern MCP server over HTTP for examples and benchmarks, with no dependencies:
# answers every `server/discover` POST with a valid result (2026-07-28) and `tools/list` with one
# tool; a path ending in
# /status/NNN answers that HTTP status instead. Prints the port it listens on (127.0.0.1; $PORT,
# else any free one).
import sys as _sys

if any(a in ("-h", "--help") for a in _sys.argv[1:]):
    print('A minimal modern MCP server over HTTP for examples and benchmarks, with no dependencies:\nanswers every `server/discover` POST with a valid result (2026-07-28) and `tools/list` with one\ntool; a path ending in\n/status/NNN answers that HTTP status instead. Prints the port it listens on (127.0.0.1; $PORT,\nelse any free one).')
    _sys.exit(0)
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        parts = self.path.rstrip("/").split("/")
        if len(parts) >= 2 and parts[-2] == "status":
            self.send_response(int(parts[-1]))
            self.send_header("content-length", "0")
            self.end_headers()
            return
        request = json.loads(body or b"{}")
        if request.get("method") == "tools/list":
            result = {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
        else:
            result = {"resultType": "complete", "supportedVersions": ["2026-07-28"],
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "example-http", "version": "1"}}
        answer = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "result": result}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "0"))), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
