#!/usr/bin/env python3
"""A small authenticating reverse proxy for Xandikos (which has no login of its own).

    auth_proxy.py --port PORT --backend http://127.0.0.1:BACKEND --user NAME --password-file FILE
                  [--refuse-sync-collection] [--tls CERT KEY]

Checks HTTP Basic against one user and password (compared in constant time), answers 401 with a
WWW-Authenticate challenge otherwise, and forwards every other request to the backend with its
method, path, headers and body, returning the backend's answer unchanged. It stops on SIGTERM.
With --refuse-sync-collection, a REPORT whose body is a DAV:sync-collection gets 501, as from a
server without RFC 6578 (the client's fallback is tested through it).
"""

import argparse
import base64
import hmac
import http.client
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
              "trailers", "transfer-encoding", "upgrade", "host", "authorization"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--refuse-sync-collection", action="store_true")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    with open(args.password_file, encoding="utf-8") as handle:
        expected = base64.b64encode(f"{args.user}:{handle.read()}".encode()).decode()
    backend = urlsplit(args.backend)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            given = self.headers.get("Authorization", "")
            if not given.startswith("Basic ") or not hmac.compare_digest(given[6:].strip(), expected):
                self.reply(401, [("WWW-Authenticate", 'Basic realm="xandikos"'),
                                 ("Content-Type", "text/plain")], b"Unauthorized\n")
                return
            if args.refuse_sync_collection and self.command == "REPORT" and b"sync-collection" in body:
                self.reply(501, [("Content-Type", "text/plain")], b"sync-collection not supported\n")
                return
            connection = http.client.HTTPConnection(backend.hostname, backend.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            headers["Host"] = self.headers.get("Host", f"127.0.0.1:{args.port}")
            headers["X-Forwarded-Host"] = headers["Host"]
            connection.request(self.command, self.path, body=body if body or length else None,
                               headers=headers)
            answer = connection.getresponse()
            payload = answer.read()
            kept = [(k, v) for k, v in answer.getheaders()
                    if k.lower() not in HOP_BY_HOP and k.lower() != "content-length"]
            connection.close()
            self.reply(answer.status, kept, payload)

        def reply(self, status, headers, payload):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)

        do_GET = do_HEAD = do_PUT = do_DELETE = do_POST = do_OPTIONS = handle_any
        do_PROPFIND = do_PROPPATCH = do_REPORT = do_MKCALENDAR = do_MKCOL = handle_any
        do_MOVE = do_COPY = do_LOCK = do_UNLOCK = handle_any

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.serve_forever()


if __name__ == "__main__":
    main()
