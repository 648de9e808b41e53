"""A real HTTP server on 127.0.0.1 for the clients astrag speaks to (embedding and chat
endpoints): each POST's JSON body goes to a function that decides the reply."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# (path, request headers with lower-case names, JSON body) -> (status, headers, JSON body)
Respond = Callable[[str, Mapping[str, str], Any], tuple[int, Mapping[str, str], Any]]


@contextmanager
def json_server(respond: Respond) -> Iterator[str]:
    """Serve ``respond`` until the block ends; yields ``http://127.0.0.1:PORT``."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}  # HTTP names are case-free
            status, reply_headers, body = respond(self.path, headers, json.loads(raw or b"{}"))
            data = json.dumps(body).encode()
            try:
                self.send_response(status)
                for name, value in reply_headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and left

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
