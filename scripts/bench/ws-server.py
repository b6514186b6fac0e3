# A minimal legacy MCPL server over WebSocket for scripts/bench/probe-all.sh, with no dependencies
# (RFC 6455 by hand: upgrade, masked client frames, unmasked server frames).
#   /up[/NAME]         answers initialize and every request, stays up
#   /close/MS[/NAME]   answers initialize, closes with 4000 "idle" MS ms after
#                      notifications/initialized
# Prints the port it listens on (127.0.0.1; $PORT, else any free one), then serves until killed. With a file argument, logs
# {"name", "event": "initialized" | "close", "t": wall-clock ms} lines to it (NAME from the path).
import sys as _sys

if any(a in ("-h", "--help") for a in _sys.argv[1:]):
    print('A minimal legacy MCPL server over WebSocket for scripts/bench/probe-all.sh, with no dependencies\n(RFC 6455 by hand: upgrade, masked client frames, unmasked server frames).\n  /up[/NAME]         answers initialize and every request, stays up\n  /close/MS[/NAME]   answers initialize, closes with 4000 "idle" MS ms after\n                     notifications/initialized\nPrints the port it listens on (127.0.0.1; $PORT, else any free one), then serves until killed. With a file argument, logs\n{"name", "event": "initialized" | "close", "t": wall-clock ms} lines to it (NAME from the path).')
    _sys.exit(0)
import asyncio, base64, hashlib, json, os, struct, sys, time

log = open(sys.argv[1], "a") if len(sys.argv) > 1 else None


def note(name, event):
    if log:
        log.write(json.dumps({"name": name, "event": event, "t": time.time() * 1000}) + "\n")
        log.flush()

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload):
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


async def read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", await reader.readexactly(2))
    elif n == 127:
        (n,) = struct.unpack("!Q", await reader.readexactly(8))
    mask = await reader.readexactly(4) if b1 & 0x80 else b"\0\0\0\0"
    data = bytes(c ^ mask[i % 4] for i, c in enumerate(await reader.readexactly(n)))
    return b0 & 0x0F, data


async def serve(reader, writer):
    closer = None
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1].split("?")[0]
        key = next(l.split(":", 1)[1].strip() for l in lines if l.lower().startswith("sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        writer.write(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode()
        )
        parts = path.split("/")
        close_after = int(parts[2]) / 1000 if parts[1] == "close" else None
        name = parts[-1]
        while True:
            opcode, data = await read_frame(reader)
            if opcode == 8:  # close: answer it and go
                writer.write(frame(8, data[:2]))
                break
            if opcode == 9:
                writer.write(frame(10, data))
                continue
            if opcode != 1:
                continue
            msg = json.loads(data)
            if msg.get("method") == "notifications/initialized":
                note(name, "initialized")
            if msg.get("method") == "notifications/initialized" and close_after is not None:
                async def close_later():
                    await asyncio.sleep(close_after)
                    writer.write(frame(8, struct.pack("!H", 4000) + b"idle"))
                    note(name, "close")
                closer = asyncio.ensure_future(close_later())
            if "id" not in msg or "method" not in msg:
                continue
            result = {}
            if msg["method"] == "initialize":
                result = {"protocolVersion": "2024-11-05",
                          "capabilities": {"experimental": {"mcpl": {"version": "0.5"}}},
                          "serverInfo": {"name": "bench-ws", "version": "1"}}
            writer.write(frame(1, json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode()))
    except (asyncio.IncompleteReadError, ConnectionError, StopIteration, ValueError, IndexError):
        pass
    finally:
        if closer is not None:
            closer.cancel()
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", int(os.environ.get("PORT", "0")))
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
