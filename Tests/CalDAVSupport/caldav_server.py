#!/usr/bin/env python3
"""Starts a real CalDAV server on 127.0.0.1 for the tests, in a temporary folder.

    caldav_server.py radicale|xandikos --user NAME --password SECRET [--refuse-sync-collection]
                     [--tls]

Radicale runs with an htpasswd file (plain entries) and its storage in the folder. Xandikos has
no login of its own: it listens on a loopback port of its own, behind `auth_proxy.py` (beside this
file), which checks HTTP Basic and forwards, as Xandikos' documentation advises for a reverse
proxy. In both, a calendar collection for VTODOs is made with MKCALENDAR.

With --tls (Xandikos only), the proxy speaks HTTPS with a self-signed certificate for 127.0.0.1
made by openssl in the folder; "ca" names it.

When the server answers, one JSON line goes to stdout:
    {"url": "http://127.0.0.1:PORT/alice/tasks/", "port": PORT, "folder": "/tmp/...", "ca": null}
The servers stop and the folder is removed when stdin closes (the test process ended or called
stop) or on SIGTERM. Only the standard library: the servers come from Debian's packages.
"""

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CONTEXT = None  # the SSL context trusting the test certificate, with --tls


def request(method, url, user, password, body=None, headers=None):
    req = urllib.request.Request(url, data=body, method=method)
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    try:
        with urllib.request.urlopen(req, timeout=10, context=CONTEXT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_until_answering(url, user, password, processes, log):
    """Polls until the server answers an HTTP request (any status), or a process died."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise SystemExit(f"the server exited early (status {process.returncode}); log:\n" + read(log))
        try:
            request("PROPFIND", url, user, password, headers={"Depth": "0"})
            return
        except (urllib.error.URLError, ConnectionError, OSError, ssl.SSLError):
            time.sleep(0.05)
    raise SystemExit("the server did not answer within 60 s; log:\n" + read(log))


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()[-4000:]
    except OSError:
        return ""


MKCALENDAR = b"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>Tasks</D:displayname>
    <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>"""


def start_radicale(folder, user, password, log):
    port = free_port()
    htpasswd = os.path.join(folder, "htpasswd")
    with open(htpasswd, "w", encoding="utf-8") as handle:
        handle.write(f"{user}:{password}\n")
    config = os.path.join(folder, "config")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(
            f"""[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {htpasswd}
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {os.path.join(folder, "collections")}
[web]
type = none
[logging]
level = warning
"""
        )
    process = subprocess.Popen(
        ["radicale", "--config", config],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    return [process], port, base, f"{base}/{user}/tasks/"


def make_certificate(folder):
    certificate = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
         "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return certificate, key


def start_xandikos(folder, user, password, log, refuse_sync, tls):
    backend_port = free_port()
    data = os.path.join(folder, "data")
    xandikos = subprocess.Popen(
        [
            "xandikos", "-d", data, "-l", "127.0.0.1", "-p", str(backend_port),
            "--current-user-principal", f"/{user}/", "--defaults",
        ],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
        start_new_session=True,
    )
    port = free_port()
    proxy_args = [
        sys.executable, os.path.join(HERE, "auth_proxy.py"),
        "--port", str(port), "--backend", f"http://127.0.0.1:{backend_port}",
        "--user", user, "--password-file", os.path.join(folder, "proxy-password"),
    ]
    with open(os.path.join(folder, "proxy-password"), "w", encoding="utf-8") as handle:
        handle.write(password)
    if refuse_sync:
        proxy_args.append("--refuse-sync-collection")
    if tls:
        proxy_args += ["--tls", *tls]
    proxy = subprocess.Popen(
        proxy_args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
        start_new_session=True,
    )
    base = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    return [xandikos, proxy], port, base, f"{base}/{user}/calendars/tasks/"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["radicale", "xandikos"])
    parser.add_argument("--user", default="alice")
    parser.add_argument("--password", required=True)
    parser.add_argument("--refuse-sync-collection", action="store_true",
                        help="xandikos only: the proxy answers sync-collection REPORTs with 501")
    parser.add_argument("--tls", action="store_true",
                        help="xandikos only: the proxy speaks HTTPS with a self-signed certificate")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix=f"ootd-caldav-{args.kind}-")
    log_path = os.path.join(folder, "server.log")
    log = open(log_path, "ab")
    processes = []

    def stop(*_):
        for process in processes:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except OSError:
                    pass
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    global CONTEXT
    ca = None
    try:
        tls = None
        if args.tls:
            tls = make_certificate(folder)
            ca = tls[0]
            CONTEXT = ssl.create_default_context(cafile=ca)
        if args.kind == "radicale":
            started, port, base, url = start_radicale(folder, args.user, args.password, log)
        else:
            started, port, base, url = start_xandikos(
                folder, args.user, args.password, log, args.refuse_sync_collection, tls)
        processes.extend(started)
        wait_until_answering(f"{base}/{args.user}/", args.user, args.password, processes, log_path)
        status, body = request("MKCALENDAR", url, args.user, args.password, MKCALENDAR,
                               {"Content-Type": "application/xml; charset=utf-8"})
        if status not in (200, 201):
            raise SystemExit(f"MKCALENDAR {url} answered {status}: {body[:500]!r}\n" + read(log_path))
    except BaseException as error:
        sys.stderr.write(f"{error}\n")
        sys.stderr.flush()
        stop()

    sys.stdout.write(json.dumps({"url": url, "port": port, "folder": folder, "ca": ca}) + "\n")
    sys.stdout.flush()
    # Until the test process closes our stdin (or ends).
    while sys.stdin.buffer.read(65536):
        pass
    stop()


if __name__ == "__main__":
    main()
