#!/usr/bin/env python3
"""A small fake of the GitHub REST API, for ootd's tests and benchmarks. Python 3 stdlib only.

It binds a loopback address only (127.0.0.1 by default; port 0 picks a free port) and prints
the chosen port as the first line of stdout. It stops when its stdin closes (unless
--ignore-stdin) or on SIGTERM/SIGINT.

Served (JSON shaped like GitHub's, with x-ratelimit-* headers on every response):
  GET /user                                   the authenticated user (401 without a token)
  GET /rate_limit                             resources.core + rate (not counted)
  GET /user/repos                             every served repository (401 without a token)
  GET /users/{login}/repos, /user/{id}/repos  repositories owned by login (404 if unknown)
  GET /repos/{o}/{r}                          one repository
  GET /repos/{o}/{r}/commits, /repositories/{id}/commits
        ?author=&since=&until=&sha=&per_page=&page=   commits from a TSV, newest first (sha=
        a branch: gh-pages of a --pages-branch repository; another name: 404)
  GET /user/emails                            the e-mails --link-email links to the token's
                                              owner (404 with --no-emails-scope)
  GET /search/commits?q=author:LOGIN+author-date:A..B   commits of every served repository
        but forks, on its default branch, whose linked login is LOGIN, authored (UTC day) in
        A..B, newest first: {"total_count", "incomplete_results", "items"}; only the first
        1,000 results are served (a later page: 422); a query without author: or a date
        range: 422 "Validation Failed"; --search-404: 404; --search-incomplete N: the first N
        searches say "incomplete_results": true and return half their items
  GET /search/issues?q=author:LOGIN+type:pr+is:merged[+merged:A..B]   the --merged-pr pull
        requests (other /search/issues queries are left to later routes)
Search has its own rate limit (x-ratelimit-resource: search): --search-rate-limit a minute,
default 30 with a token and 10 without; past it, 403 with x-ratelimit-remaining: 0.

Repositories: --repo ones are the user's (listed by /user/repos); --outside-repo ones are
served but listed for nobody (an upstream project the user only committed to); --fork-repo
ones are listed and say "fork": true; --pages-branch OWNER/NAME=FILE.tsv gives a repository a
gh-pages branch and "has_pages": true. --header-scopes sets X-OAuth-Scopes on GET /user.
Lists paginate with Link headers (rel="next"/"last"/"first"/"prev", absolute URLs back to this
server; commit pages link to the /repositories/{id}/... form, like GitHub). Responses carry an
ETag; a matching If-None-Match gets 304.

Commit TSV format (like shared/data/commit-histories/grdb.tsv), one commit a line:
  sha  parents(space-separated)  author-name  author-email  author-date
  committer-name  committer-email  committer-date  subject

Faults (--fault, repeatable; or "faults" in a --scenario JSON file), KIND@WHEN[:ARG]:
  WHEN is a 1-based request number counted over all requests, or a path prefix starting
  with "/" (then the first request whose path starts with it).
  502@N                 502 Bad Gateway with an HTML body
  500@N                 500 with a JSON body
  primary@N[:S]         primary rate limit: 403, x-ratelimit-remaining: 0, reset S seconds ahead
                        (default 2); every request until then gets the same 403
  primary429@N[:S]      the same with status 429
  secondary@N[:S|none]  secondary rate limit: 403 with Retry-After: S (default 60), or
                        without Retry-After when "none" (message names the secondary limit)
  secondary429@N[:S|none]  the same with status 429
  401@N                 401 Bad credentials
  422@N                 422 Validation Failed (as search answers a query it refuses)
  primaryonce@N[:S|at=T]  one primary-limit 403 whose x-ratelimit-reset is S seconds ahead
                        (default 2) or the epoch second T; the next request succeeds, so a
                        client that waits with a fake clock can be tested without real time
  huge@N[:M]            200 with a body of M MiB (default 40) and no Content-Length, sent until
                        the client hangs up

Scenario file (JSON), every key optional:
  {"login": "gr", "token": "t0k", "rate_limit": 5000,
   "repos": {"groue/GRDB.swift": "path/to/grdb.tsv"},
   "empty_repos": ["me/empty"], "missing_repos": ["me/gone"],
   "link_emails": {"gr@pierlis.com": "gr"},
   "faults": [{"kind": "502", "request": 1},
              {"kind": "primary", "path": "/repos/a/b/commits", "seconds": 2},
              {"kind": "secondary", "request": 3, "retry_after": null}]}

--message SHA=JSON sets a commit's message to a JSON string literal, so that it can hold what
a TSV cannot: "fix\u0000 rest", "\ud800 lone surrogate", a line of 5,000 characters. The
literal is sent as it is written.

--log FILE appends one JSON line per request: n, method, path (with query), authorization
(true/false; the token itself is never logged), if_none_match, user_agent, accept,
api_version, header_names (every request header's name, sorted), status.
"""

import argparse
import hashlib
import json
import math
import os
import signal
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit, unquote

import fake_issues

DOCS = "https://docs.github.com/rest"


# ----------------------------------------------------------------------------------------------
# Data


def utc_iso(text):
    """'2025-10-02T08:11:07+02:00' -> '2025-10-02T06:11:07Z'."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_instant(text):
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


class Commit:
    __slots__ = ("sha", "parents", "author_name", "author_email", "author_date",
                 "committer_name", "committer_email", "committer_date", "committed_at", "subject")

    def __init__(self, fields):
        (self.sha, parents, self.author_name, self.author_email, author_date,
         self.committer_name, self.committer_email, committer_date) = fields[:8]
        self.subject = fields[8] if len(fields) > 8 else ""
        self.parents = parents.split() if parents else []
        self.author_date = utc_iso(author_date)
        self.committer_date = utc_iso(committer_date)
        self.committed_at = parse_instant(committer_date)


def load_tsv(path):
    commits = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) < 8:
                raise SystemExit(f"fake_github: bad TSV line in {path}: {line[:80]!r}")
            commits.append(Commit(fields))
    return commits


class Repo:
    def __init__(self, repo_id, full_name, commits, empty=False, fork=False, listed=True):
        self.id = repo_id
        self.owner, self.name = full_name.split("/", 1)
        self.full_name = full_name
        self.commits = commits
        self.empty = empty
        self.fork = fork
        self.listed = listed
        self.branches = {}  # branch name -> commits, besides the default branch

    def pushed_at(self):
        dates = [c.committer_date for c in self.commits[:1]]
        dates += [b[0].committer_date for b in self.branches.values() if b]
        return max(dates) if dates else None

    def json(self, base, owner_ids):
        # An empty repository was never pushed to: GitHub reports its creation time.
        pushed = self.pushed_at() or ("2020-01-01T00:00:00Z" if self.empty else None)
        return {
            "id": self.id,
            "node_id": f"R_fake{self.id}",
            "name": self.name,
            "full_name": self.full_name,
            "private": False,
            "owner": {"login": self.owner, "id": owner_ids.get(self.owner, 1), "type": "User",
                      "url": f"{base}/users/{self.owner}"},
            "html_url": f"{base}/{self.full_name}",
            "description": None,
            "fork": self.fork,
            "has_pages": "gh-pages" in self.branches,
            "url": f"{base}/repos/{self.full_name}",
            "commits_url": f"{base}/repos/{self.full_name}/commits{{/sha}}",
            "created_at": self.commits[-1].author_date if self.commits else "2020-01-01T00:00:00Z",
            "updated_at": pushed or "2020-01-01T00:00:00Z",
            "pushed_at": pushed,
            "size": 0 if self.empty else len(self.commits),
            "archived": False,
            "disabled": False,
            "visibility": "public",
            "default_branch": "main",
        }


# ----------------------------------------------------------------------------------------------
# Faults


class Fault:
    def __init__(self, kind, request=None, path=None, arg=None):
        if kind not in ("502", "500", "401", "422", "primary", "primary429", "secondary",
                        "secondary429", "huge", "primaryonce"):
            raise SystemExit(f"fake_github: unknown fault kind {kind!r}")
        self.kind = kind
        self.request = request
        self.path = path
        self.arg = arg
        self.used = False

    @staticmethod
    def parse(spec):
        kind, _, rest = spec.partition("@")
        if not rest:
            raise SystemExit(f"fake_github: fault {spec!r} needs @N or @/path")
        when, _, arg = rest.partition(":")
        if when.startswith("/"):
            return Fault(kind, path=when, arg=arg or None)
        return Fault(kind, request=int(when), arg=arg or None)

    def matches(self, number, path):
        if self.used:
            return False
        if self.request is not None:
            return number == self.request
        return self.path is not None and path.startswith(self.path)


# ----------------------------------------------------------------------------------------------
# Server state


class State:
    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.login = options.login
        self.token = options.token
        self.limit = options.rate_limit
        self.used = 0
        self.window_reset = int(time.time()) + 3600
        self.limited_until = 0  # a primary-limit fault keeps answering 403 until then
        self.limited_status = 403
        self.requests = 0
        self.faults = options.faults
        self.link_emails = {k.lower(): v for k, v in options.link_emails.items()}
        self.log_path = options.log
        self.messages = options.messages  # sha -> JSON string literal, sent as written
        self.repos = {}
        self.repos_by_id = {}
        self.missing = set(name.lower() for name in options.missing_repos)
        next_id = 1000
        for full_name, path in options.repos.items():
            next_id += 1
            self.add_repo(Repo(next_id, full_name, load_tsv(path)))
        for full_name, path in options.outside_repos.items():
            next_id += 1
            self.add_repo(Repo(next_id, full_name, load_tsv(path), listed=False))
        for full_name, path in options.fork_repos.items():
            next_id += 1
            self.add_repo(Repo(next_id, full_name, load_tsv(path), fork=True))
        for full_name in options.empty_repos:
            next_id += 1
            self.add_repo(Repo(next_id, full_name, [], empty=True))
        for full_name, path in options.pages_branches.items():
            repo = self.repos.get(full_name.lower())
            if repo is None:
                raise SystemExit(f"fake_github: --pages-branch for unknown {full_name}")
            repo.branches["gh-pages"] = load_tsv(path)
        self.merged_prs = options.merged_prs  # [(full_name, "YYYY-MM-DD")]
        self.search_limit = options.search_rate_limit
        self.search_used = 0
        self.search_reset = int(time.time()) + 60
        self.searches = 0
        self.search_incomplete = options.search_incomplete
        self.owner_ids = {}
        for index, owner in enumerate(sorted({r.owner for r in self.repos.values()} | {self.login})):
            self.owner_ids[owner] = 500 + index

    def add_repo(self, repo):
        self.repos[repo.full_name.lower()] = repo
        self.repos_by_id[repo.id] = repo

    def rate_headers(self):
        now = time.time()
        if now >= self.window_reset:
            self.window_reset = int(now) + 3600
            self.used = 0
        if now < self.limited_until:
            return {"x-ratelimit-limit": str(self.limit), "x-ratelimit-remaining": "0",
                    "x-ratelimit-reset": str(int(self.limited_until)),
                    "x-ratelimit-used": str(self.limit), "x-ratelimit-resource": "core"}
        return {"x-ratelimit-limit": str(self.limit),
                "x-ratelimit-remaining": str(max(0, self.limit - self.used)),
                "x-ratelimit-reset": str(self.window_reset),
                "x-ratelimit-used": str(min(self.used, self.limit)),
                "x-ratelimit-resource": "core"}

    def search_headers(self, authorized):
        """The search bucket's headers for a search request now, counting it."""
        now = time.time()
        if now >= self.search_reset:
            self.search_reset = int(now) + 60
            self.search_used = 0
        limit = self.search_limit or (30 if authorized else 10)
        exhausted = self.search_used >= limit
        if not exhausted:
            self.search_used += 1
        return exhausted, {"x-ratelimit-limit": str(limit),
                           "x-ratelimit-remaining": str(max(0, limit - self.search_used)),
                           "x-ratelimit-reset": str(self.search_reset),
                           "x-ratelimit-used": str(min(self.search_used, limit)),
                           "x-ratelimit-resource": "search"}

    def log(self, entry):
        if not self.log_path:
            return
        with open(self.log_path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")


# ----------------------------------------------------------------------------------------------
# HTTP


class RawJSON(str):
    """JSON text sent exactly as written (a --message literal such as "\\ud800")."""


def encode(payload):
    """Compact JSON bytes; RawJSON strings are inserted as written, not re-escaped."""
    raws = []

    def swap(value):
        if isinstance(value, RawJSON):
            raws.append(str(value))
            return f"\u0001RAW{len(raws) - 1}\u0001"
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value
    text = json.dumps(swap(payload), separators=(",", ":"))
    for index, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\u0001RAW{index}\u0001"), raw)
    return text.encode("utf-8", "surrogatepass")


def etag_of(body):
    return '"' + hashlib.sha1(body).hexdigest() + '"'


def etag_matches(header, etag):
    if not header:
        return False
    bare = etag[2:] if etag.startswith("W/") else etag
    for candidate in header.split(","):
        candidate = candidate.strip()
        if candidate == "*":
            return True
        if candidate.startswith("W/"):
            candidate = candidate[2:]
        if candidate == bare:
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without TCP_NODELAY a kept-alive
        # connection waits for the client's delayed ACK (~40 ms) on every response.
        import socket
        try:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def version_string(self):
        return "GitHub.com"

    # Quiet: tests read stdout for the port and stderr for real problems only.
    def log_message(self, format, *args):
        pass

    @property
    def state(self):
        return self.server.state

    @property
    def base(self):
        host, port = self.server.server_address[:2]
        if ":" in host:
            host = f"[{host}]"
        scheme = "https" if getattr(self.server, "tls", False) else "http"
        return f"{scheme}://{host}:{port}"

    def do_GET(self):
        self.handle_request("GET")

    def do_HEAD(self):
        self.handle_request("HEAD")

    def do_POST(self):
        self.handle_request("POST")

    def do_PATCH(self):
        self.handle_request("PATCH")

    def handle_request(self, method):
        state = self.state
        if state.options.latency:
            time.sleep(state.options.latency / 1000)
        split = urlsplit(self.path)
        path = split.path
        query = {k: v[-1] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        authorization = self.headers.get("Authorization")
        with state.lock:
            state.requests += 1
            number = state.requests
        self.number = number
        self.respond(method, number, path, query, authorization)

    def send(self, status, body=b"", headers=None, content_type="application/json; charset=utf-8",
             counted=True, rate_override=None):
        state = self.state
        with state.lock:
            if counted and status != 304:
                state.used += 1
            rate = state.rate_headers()
        rate.update(rate_override or {})
        # Logged before the response goes out, so a client that has the response finds the line.
        self.record_request(status)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-github-api-version-selected", "2022-11-28")
        self.send_header("x-github-request-id", f"FAKE:{os.getpid()}:{state.requests}")
        for name, value in rate.items():
            self.send_header(name, value)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return status

    def record_request(self, status):
        self.state.log({
            "n": getattr(self, "number", 0), "method": self.command, "path": self.path,
            "authorization": self.headers.get("Authorization") is not None,
            "if_none_match": self.headers.get("If-None-Match"),
            "user_agent": self.headers.get("User-Agent"),
            "accept": self.headers.get("Accept"),
            "api_version": self.headers.get("X-GitHub-Api-Version"),
            "header_names": sorted(self.headers.keys()),
            "status": status,
            "client_port": self.client_address[1],
        })

    def send_endless(self, mebibytes):
        """200 with a JSON array of `mebibytes` MiB of strings and no Content-Length: the body
        ends when the connection closes (HTTP/1.0), so only the client can bound it."""
        self.record_request(200)
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.end_headers()
        chunk = b'"' + b"x" * ((1 << 20) - 3) + b'",'
        try:
            self.wfile.write(b"[")
            for _ in range(mebibytes):
                self.wfile.write(chunk)
            self.wfile.write(b'""]')
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading, as it should
        self.close_connection = True
        return 200

    def send_json(self, status, payload, headers=None, counted=True, rate_override=None):
        body = encode(payload)
        return self.send(status, body, headers, counted=counted, rate_override=rate_override)

    def error(self, status, message, headers=None, doc="", extra=None):
        payload = {"message": message, "documentation_url": f"{DOCS}{doc}", "status": str(status)}
        payload.update(extra or {})
        return self.send_json(status, payload, headers)

    def send_cacheable(self, payload, headers=None):
        body = encode(payload)
        etag = etag_of(body)
        all_headers = {"ETag": etag, "Cache-Control": "private, max-age=60, s-maxage=60",
                       "Vary": "Accept, Authorization, Cookie, X-GitHub-OTP"}
        all_headers.update(headers or {})
        if etag_matches(self.headers.get("If-None-Match"), etag):
            return self.send(304, b"", {"ETag": etag, "Cache-Control": all_headers["Cache-Control"]})
        return self.send(200, body, all_headers)

    # --------------------------------------------------------------------------- faults

    def fault_response(self, number, path):
        state = self.state
        with state.lock:
            now = time.time()
            limited_status = None
            fault = None
            if now < state.limited_until:
                limited_status = state.limited_status
            elif state.used >= state.limit:
                state.limited_until = state.window_reset
                state.limited_status = limited_status = 403
            else:
                fault = next((f for f in state.faults if f.matches(number, path)), None)
                if fault is not None:
                    fault.used = True
                    if fault.kind in ("primary", "primary429"):
                        seconds = float(fault.arg) if fault.arg not in (None, "") else 2.0
                        state.limited_until = math.ceil(now + seconds)
                        state.limited_status = 429 if fault.kind == "primary429" else 403
        if limited_status is not None:
            return self.primary_limit(limited_status, None)
        if fault is None:
            return None
        kind = fault.kind
        if kind == "502":
            html = (b"<html><head><title>502 Bad Gateway</title></head><body><center>"
                    b"<h1>502 Bad Gateway</h1></center><hr><center>fake</center></body></html>\n")
            return self.send(502, html, content_type="text/html")
        if kind == "500":
            return self.error(500, "Server Error")
        if kind == "401":
            return self.error(401, "Bad credentials")
        if kind == "422":
            return self.error(422, "Validation Failed", doc="/search/search",
                              extra={"errors": [{"resource": "Search", "field": "q",
                                                 "code": "invalid"}]})
        if kind == "huge":
            return self.send_endless(int(fault.arg or 40))
        if kind == "primaryonce":
            arg = fault.arg or "2"
            if arg.startswith("at="):
                reset_at = int(arg[3:])
            else:
                reset_at = math.ceil(time.time() + float(arg))
            return self.primary_limit(403, reset_at)
        if kind in ("primary", "primary429"):
            return self.primary_limit(state.limited_status, None)
        status = 429 if kind == "secondary429" else 403
        headers = {}
        if fault.arg != "none":
            headers["Retry-After"] = fault.arg if fault.arg not in (None, "") else "60"
        return self.error(status, "You have exceeded a secondary rate limit. Please wait a few "
                          "minutes before you try again. If you reach out to GitHub Support for "
                          "help, please include the request ID FAKE.", headers,
                          doc="/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits")

    def primary_limit(self, status, reset_at):
        """The primary-limit answer; `reset_at` (epoch seconds) overrides the reset headers."""
        override = None
        if reset_at is not None:
            override = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset_at),
                        "x-ratelimit-used": str(self.state.limit)}
        self.send_json(status, {
            "message": "API rate limit exceeded for user ID 1. If you reach out to GitHub Support "
                       "for help, please include the request ID FAKE.",
            "documentation_url": f"{DOCS}/overview/rate-limits-for-the-rest-api",
        }, counted=False, rate_override=override)
        return status

    # --------------------------------------------------------------------------- routing

    def respond(self, method, number, path, query, authorization):
        state = self.state
        if authorization is not None and state.token is not None:
            if authorization.strip() not in (f"Bearer {state.token}", f"token {state.token}"):
                return self.error(401, "Bad credentials")
        limited = self.fault_response(number, path)
        if limited is not None:
            return limited
        parts = [unquote(p) for p in path.strip("/").split("/")] if path.strip("/") else []
        length = int(self.headers.get("Content-Length") or 0)
        issues = fake_issues.respond(self, method, parts, query, authorization,
                                     self.rfile.read(length) if length else b"")
        if issues is not None:
            return issues
        if method != "GET" and method != "HEAD":
            return self.error(404, "Not Found")

        if parts == ["user"]:
            if authorization is None:
                return self.error(401, "Requires authentication")
            scopes = state.options.header_scopes
            return self.send_cacheable(self.user_json(state.login),
                                       {"X-OAuth-Scopes": scopes} if scopes is not None else None)
        if parts == ["rate_limit"]:
            with state.lock:
                rate = state.rate_headers()
            bucket = {"limit": int(rate["x-ratelimit-limit"]),
                      "remaining": int(rate["x-ratelimit-remaining"]),
                      "reset": int(rate["x-ratelimit-reset"]),
                      "used": int(rate["x-ratelimit-used"]), "resource": "core"}
            return self.send_json(200, {"resources": {"core": bucket}, "rate": bucket},
                                  counted=False)
        if parts == ["user", "emails"]:
            if authorization is None:
                return self.error(401, "Requires authentication")
            if state.options.no_emails_scope:
                return self.error(404, "Not Found", doc="/users/emails")
            emails = [{"email": e, "primary": i == 0, "verified": True, "visibility": None}
                      for i, (e, login) in enumerate(sorted(state.link_emails.items()))
                      if login.lower() == state.login.lower()]
            return self.send_json(200, emails)
        if parts and parts[0] == "search":
            answered = self.search(parts, query, authorization)
            if answered is not None:
                return answered
        if parts == ["user", "repos"]:
            if authorization is None:
                return self.error(401, "Requires authentication")
            repos = self.sorted_repos(r for r in state.repos.values() if r.listed)
            return self.list_page(repos, query, "/user/repos", lambda r: r.json(self.base,
                                                                                state.owner_ids))
        if len(parts) == 3 and parts[0] == "users" and parts[2] == "repos":
            return self.user_repos(parts[1], query)
        if len(parts) == 3 and parts[0] == "user" and parts[2] == "repos":
            login = next((o for o, i in state.owner_ids.items() if str(i) == parts[1]), None)
            if login is None:
                return self.error(404, "Not Found")
            return self.user_repos(login, query)
        if len(parts) >= 3 and parts[0] == "repos":
            repo = self.find_repo(f"{parts[1]}/{parts[2]}")
            if repo is None:
                return self.error(404, "Not Found", doc="/repos/repos#get-a-repository")
            if len(parts) == 3:
                return self.send_cacheable(repo.json(self.base, state.owner_ids))
            if parts[3:] == ["commits"]:
                return self.commits(repo, query)
        if len(parts) == 3 and parts[0] == "repositories" and parts[2] == "commits":
            repo = state.repos_by_id.get(int(parts[1])) if parts[1].isdigit() else None
            if repo is None:
                return self.error(404, "Not Found")
            return self.commits(repo, query)
        return self.error(404, "Not Found")

    def sorted_repos(self, repos):
        repos = list(repos)
        if self.query_value("sort") == "pushed":
            repos.sort(key=lambda r: (r.pushed_at() or "", r.full_name.lower()),
                       reverse=self.query_value("direction", "desc") != "asc")
        else:
            repos.sort(key=lambda r: r.full_name.lower())
        return repos

    def query_value(self, name, default=None):
        values = parse_qs(urlsplit(self.path).query).get(name)
        return values[-1] if values else default

    # --------------------------------------------------------------------------- search

    def search(self, parts, query, authorization):
        """Search routes; None for a query this route does not serve (left to later routes)."""
        state = self.state
        if parts not in (["search", "commits"], ["search", "issues"]):
            return None
        terms = (query.get("q") or "").split()
        qualifiers = {}
        for term in terms:
            key, sep, value = term.partition(":")
            if sep:
                qualifiers[key] = value
        if parts == ["search", "issues"] and qualifiers.get("is") != "merged":
            return None
        if state.options.search_404:
            return self.error(404, "Not Found")
        with state.lock:
            exhausted, rate = state.search_headers(authorization is not None)
            state.searches += 1
            number = state.searches
        if exhausted:
            self.send_json(403, {
                "message": "API rate limit exceeded for search. If you reach out to GitHub "
                           "Support for help, please include the request ID FAKE.",
                "documentation_url": f"{DOCS}/overview/rate-limits-for-the-rest-api"},
                counted=False, rate_override={**rate, "x-ratelimit-remaining": "0"})
            return 403

        def invalid(message):
            return self.send_json(422, {
                "message": "Validation Failed",
                "errors": [{"message": message, "resource": "Search", "field": "q",
                            "code": "invalid"}],
                "documentation_url": f"{DOCS}/search/search", "status": "422"},
                counted=False, rate_override=rate)
        login = qualifiers.get("author", "").lower()
        if not login:
            return invalid("The search needs an author: qualifier.")
        date_key = "author-date" if parts[1] == "commits" else "merged"
        low, high = "0000-00-00", "9999-99-99"
        if date_key in qualifiers:
            low, sep, high = qualifiers[date_key].partition("..")
            if not sep or not all(len(d) == 10 and d[4] == "-" and d[7] == "-"
                                  for d in (low, high)):
                return invalid(f"The {date_key} qualifier must be a range YYYY-MM-DD..YYYY-MM-DD.")
        elif parts[1] == "commits":
            return invalid("The search needs an author-date: range.")
        if parts[1] == "commits":
            links = state.link_emails
            found = []
            for repo in state.repos.values():
                if repo.fork:  # a repository the token cannot list is still searchable
                    continue
                for c in repo.commits:
                    if links.get(c.author_email.lower(), "").lower() != login:
                        continue
                    if low <= c.author_date[:10] <= high:
                        found.append((c.author_date, c.sha, repo))
            found.sort(key=lambda item: (item[0], item[1]), reverse=True)
            render = (lambda item: self.search_commit_json(item[2], item[1]))
        else:
            found = [(day, name) for name, day in state.merged_prs
                     if login == state.login.lower() and low <= day <= high]
            found.sort(reverse=True)
            render = (lambda item: self.search_pull_json(item, found.index(item) + 1))
        try:
            per_page = max(1, min(100, int(query.get("per_page") or 30)))
            page = max(1, int(query.get("page") or 1))
        except ValueError:
            return invalid("Invalid pagination parameters.")
        total = len(found)
        if page * per_page > 1000 and (page - 1) * per_page >= 1000:
            return invalid("Only the first 1000 search results are available.")
        served = found[:1000]
        chunk = served[(page - 1) * per_page: page * per_page]
        incomplete = number <= state.search_incomplete
        if incomplete:
            chunk = chunk[: len(chunk) // 2]
        links = []
        last = max(1, math.ceil(len(served) / per_page))
        if page < last:
            params = {k: v for k, v in query.items() if k != "page"}
            url = f"{self.base}/search/{parts[1]}?" + urlencode({**params, "page": page + 1})
            links.append(f'<{url}>; rel="next"')
        headers = {"Link": ", ".join(links)} if links else {}
        body = encode({"total_count": total, "incomplete_results": incomplete,
                       "items": [render(item) for item in chunk]})
        return self.send(200, body, headers, counted=False, rate_override=rate)

    def search_commit_json(self, repo, sha):
        commit = next(c for c in repo.commits if c.sha == sha)
        item = self.commit_json(repo, commit)
        item["repository"] = repo.json(self.base, self.state.owner_ids)
        item["score"] = 1.0
        return item

    def search_pull_json(self, item, number):
        day, full_name = item
        return {"number": number, "title": f"Merged pull request {number}", "state": "closed",
                "repository_url": f"{self.base}/repos/{full_name}",
                "html_url": f"{self.base}/{full_name}/pull/{number}",
                "pull_request": {"merged_at": f"{day}T12:00:00Z",
                                 "url": f"{self.base}/repos/{full_name}/pulls/{number}"},
                "user": {"login": self.state.login}, "closed_at": f"{day}T12:00:00Z"}

    def find_repo(self, full_name):
        if full_name.lower() in self.state.missing:
            return None
        return self.state.repos.get(full_name.lower())

    def user_json(self, login):
        return {"login": login, "id": self.state.owner_ids.get(login, 1), "type": "User",
                "site_admin": False, "name": login, "url": f"{self.base}/users/{login}",
                "html_url": f"{self.base}/{login}"}

    def user_repos(self, login, query):
        state = self.state
        repos = self.sorted_repos(r for r in state.repos.values()
                                  if r.owner.lower() == login.lower() and r.listed)
        if not repos and login.lower() != state.login.lower():
            return self.error(404, "Not Found", doc="/repos/repos#list-repositories-for-a-user")
        user_id = state.owner_ids.get(login, 1)
        return self.list_page(repos, query, f"/user/{user_id}/repos",
                              lambda r: r.json(self.base, state.owner_ids))

    def commits(self, repo, query):
        if repo.empty:
            return self.error(409, "Git Repository is empty.", doc="/commits/commits#list-commits")
        selected = repo.commits
        branch = query.get("sha")
        if branch and branch != "main":
            if branch not in repo.branches:
                return self.error(404, f"No commit found for SHA: {branch}",
                                  doc="/commits/commits#list-commits")
            selected = repo.branches[branch]
        author = query.get("author")
        try:
            since = parse_instant(query["since"]) if query.get("since") else None
            until = parse_instant(query["until"]) if query.get("until") else None
        except ValueError:
            return self.error(400, "Invalid time value")
        if author or since is not None or until is not None:
            wanted = (author or "").lower()
            links = self.state.link_emails

            def keep(c):
                if since is not None and c.committed_at < since:
                    return False
                if until is not None and c.committed_at > until:
                    return False
                if author:
                    email = c.author_email.lower()
                    return email == wanted or links.get(email, "").lower() == wanted
                return True
            selected = [c for c in selected if keep(c)]
        return self.list_page(selected, query, f"/repositories/{repo.id}/commits",
                              lambda c: self.commit_json(repo, c))

    def account(self, email):
        login = self.state.link_emails.get(email.lower())
        if login is None:
            return None
        return {"login": login, "id": self.state.owner_ids.get(login, 1), "type": "User",
                "site_admin": False, "url": f"{self.base}/users/{login}",
                "html_url": f"{self.base}/{login}"}

    def commit_json(self, repo, c):
        api = f"{self.base}/repos/{repo.full_name}"
        return {
            "sha": c.sha,
            "node_id": f"C_fake{c.sha[:12]}",
            "commit": {
                "author": {"name": c.author_name, "email": c.author_email, "date": c.author_date},
                "committer": {"name": c.committer_name, "email": c.committer_email,
                              "date": c.committer_date},
                "message": c.subject if c.sha not in self.state.messages
                else RawJSON(self.state.messages[c.sha]),
                "tree": {"sha": c.sha, "url": f"{api}/git/trees/{c.sha}"},
                "url": f"{api}/git/commits/{c.sha}",
                "comment_count": 0,
                "verification": {"verified": False, "reason": "unsigned", "signature": None,
                                 "payload": None, "verified_at": None},
            },
            "url": f"{api}/commits/{c.sha}",
            "html_url": f"{self.base}/{repo.full_name}/commit/{c.sha}",
            "comments_url": f"{api}/commits/{c.sha}/comments",
            "author": self.account(c.author_email),
            "committer": self.account(c.committer_email),
            "parents": [{"sha": p, "url": f"{api}/commits/{p}",
                         "html_url": f"{self.base}/{repo.full_name}/commit/{p}"}
                        for p in c.parents],
        }

    def list_page(self, items, query, link_path, render):
        try:
            per_page = max(1, min(100, int(query.get("per_page") or 30)))
            page = max(1, int(query.get("page") or 1))
        except ValueError:
            return self.error(400, "Invalid pagination parameters")
        last = max(1, math.ceil(len(items) / per_page))
        chunk = items[(page - 1) * per_page: page * per_page]
        payload = [render(item) for item in chunk]
        links = []
        if len(items) > per_page:
            params = {k: v for k, v in query.items() if k != "page"}

            def url(n):
                return f"{self.base}{link_path}?" + urlencode({**params, "page": n})
            if page > 1:
                links.append(f'<{url(page - 1)}>; rel="prev"')
            if page < last:
                links.append(f'<{url(page + 1)}>; rel="next"')
                links.append(f'<{url(last)}>; rel="last"')
            if page > 1:
                links.append(f'<{url(1)}>; rel="first"')
        headers = {"Link": ", ".join(links)} if links else {}
        return self.send_cacheable(payload, headers)


# ----------------------------------------------------------------------------------------------
# Main


def is_loopback(host):
    host = host.strip("[]").lower()
    if host in ("localhost", "::1"):
        return True
    parts = host.split(".")
    return len(parts) == 4 and parts[0] == "127" and all(p.isdigit() and int(p) < 256
                                                          for p in parts)


def key_value(text):
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def parse_options(argv):
    parser = argparse.ArgumentParser(
        description="Fake GitHub REST API on loopback (see the module docstring).")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind")
    parser.add_argument("--port", type=int, default=0, help="port (0: any free port)")
    parser.add_argument("--login", default=None, help="the token owner's login (default octocat)")
    parser.add_argument("--token", default=None,
                        help="the only valid token; any other Authorization gets 401")
    parser.add_argument("--repo", action="append", type=key_value, default=[],
                        metavar="OWNER/NAME=FILE.tsv", help="serve a repository's commits")
    parser.add_argument("--outside-repo", action="append", type=key_value, default=[],
                        metavar="OWNER/NAME=FILE.tsv",
                        help="a repository nobody's listing shows (found by search only)")
    parser.add_argument("--fork-repo", action="append", type=key_value, default=[],
                        metavar="OWNER/NAME=FILE.tsv", help="a listed repository that is a fork")
    parser.add_argument("--pages-branch", action="append", type=key_value, default=[],
                        metavar="OWNER/NAME=FILE.tsv",
                        help="a gh-pages branch (and has_pages) for a served repository")
    parser.add_argument("--merged-pr", action="append", type=key_value, default=[],
                        metavar="OWNER/NAME=YYYY-MM-DD",
                        help="a merged pull request of the user, for /search/issues")
    parser.add_argument("--search-404", action="store_true",
                        help="no search API: /search/* answers 404")
    parser.add_argument("--search-incomplete", type=int, default=0, metavar="N",
                        help="the first N searches say incomplete_results: true")
    parser.add_argument("--search-rate-limit", type=int, default=None,
                        help="search requests a minute (default 30 with a token, 10 without)")
    parser.add_argument("--no-emails-scope", action="store_true",
                        help="GET /user/emails answers 404 (the token lacks user:email)")
    parser.add_argument("--header-scopes", default=None,
                        help="X-OAuth-Scopes sent with GET /user, e.g. 'repo, read:org'")
    parser.add_argument("--empty-repo", action="append", default=[], metavar="OWNER/NAME",
                        help="a repository without commits (409 on commits)")
    parser.add_argument("--missing-repo", action="append", default=[], metavar="OWNER/NAME",
                        help="a repository that answers 404")
    parser.add_argument("--link-email", action="append", type=key_value, default=[],
                        metavar="EMAIL=LOGIN", help="commits by EMAIL show author.login LOGIN")
    parser.add_argument("--message", action="append", type=key_value, default=[],
                        metavar="SHA=JSON", help="a commit's message, as a JSON string literal")
    parser.add_argument("--fault", action="append", default=[], metavar="KIND@WHEN[:ARG]",
                        help="inject a failure (see the module docstring)")
    parser.add_argument("--scenario", help="a JSON scenario file (see the module docstring)")
    parser.add_argument("--rate-limit", type=int, default=None, help="requests per hour")
    parser.add_argument("--log", help="append one JSON line per request to this file")
    parser.add_argument("--keep-alive", action="store_true",
                        help="HTTP/1.1 with persistent connections (default: one per request)")
    parser.add_argument("--latency", type=int, default=0, metavar="MS",
                        help="wait this long before answering each request")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"),
                        help="serve HTTPS with this certificate and key (PEM)")
    parser.add_argument("--ignore-stdin", action="store_true",
                        help="do not stop when stdin closes (stop with SIGTERM)")
    fake_issues.add_arguments(parser)
    args = parser.parse_args(argv)

    scenario = {}
    if args.scenario:
        with open(args.scenario, encoding="utf-8") as handle:
            scenario = json.load(handle)
    base_dir = os.path.dirname(os.path.abspath(args.scenario)) if args.scenario else os.getcwd()

    class Options:
        pass
    options = Options()
    options.login = args.login or scenario.get("login") or "octocat"
    options.token = args.token if args.token is not None else scenario.get("token")
    options.rate_limit = args.rate_limit or scenario.get("rate_limit") or 5000
    options.repos = {name: os.path.join(base_dir, path)
                     for name, path in scenario.get("repos", {}).items()}
    options.repos.update(dict(args.repo))
    options.empty_repos = list(scenario.get("empty_repos", [])) + args.empty_repo
    options.outside_repos = dict(args.outside_repo)
    options.fork_repos = dict(args.fork_repo)
    options.pages_branches = dict(args.pages_branch)
    options.merged_prs = list(args.merged_pr)
    options.search_404 = args.search_404
    options.search_incomplete = args.search_incomplete
    options.search_rate_limit = args.search_rate_limit
    options.no_emails_scope = args.no_emails_scope
    options.header_scopes = args.header_scopes
    options.missing_repos = list(scenario.get("missing_repos", [])) + args.missing_repo
    options.link_emails = dict(scenario.get("link_emails", {}))
    options.link_emails.update(dict(args.link_email))
    options.log = args.log
    options.issues = args.issues
    options.latency = args.latency
    options.messages = dict(args.message)
    for sha, literal in options.messages.items():
        try:
            json.loads(literal)
        except ValueError:
            parser.error(f"--message {sha}=...: not a JSON string literal")
    faults = []
    for entry in scenario.get("faults", []):
        arg = entry.get("seconds", entry.get("retry_after", ""))
        arg = "none" if arg is None else str(arg)
        faults.append(Fault(str(entry["kind"]), request=entry.get("request"),
                            path=entry.get("path"), arg=arg or None))
    faults += [Fault.parse(spec) for spec in args.fault]
    options.faults = faults
    for name in (list(options.repos) + options.empty_repos + options.missing_repos
                 + list(options.outside_repos) + list(options.fork_repos)):
        if name.count("/") != 1:
            parser.error(f"repository names are OWNER/NAME, not {name!r}")
    if not is_loopback(args.host):
        parser.error("the fake server only binds loopback addresses")
    return args, options


def main(argv):
    args, options = parse_options(argv)
    state = State(options)

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True
    if ":" in args.host:
        import socket
        Server.address_family = socket.AF_INET6
    handler = Handler
    if args.keep_alive:
        class KeepAliveHandler(Handler):
            protocol_version = "HTTP/1.1"
        handler = KeepAliveHandler
    server = Server((args.host.strip("[]"), args.port), handler)
    if args.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        server.tls = True
    server.state = state
    print(server.server_address[1], flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if not args.ignore_stdin:
        def watch_stdin():
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            except (OSError, ValueError):
                pass
            stop.set()
        threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    stop.wait()  # signal handlers still run: the wait is interrupted on POSIX
    server.shutdown()
    server.server_close()
    sys.stdout.flush()
    # A daemon thread may still block reading stdin; skip interpreter finalisation.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
