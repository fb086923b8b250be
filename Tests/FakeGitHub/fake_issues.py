"""Issues and pull requests for fake_github.py (Python 3 stdlib only).

fake_github.py passes `--issues FILE.json` here. The file is read again whenever its text
changes, so a test changes GitHub between two runs of ootd by rewriting it (close, retitle,
delete, transfer an issue). A PATCH changes the served issue in memory (until the file changes)
and is appended, as received and before any delay, to FILE.json.patches.jsonl.

FILE.json:
  {"issues": [
     {"repo": "gr/app", "number": 1, "title": "Fix the crash", "state": "open",
      "closed_at": null, "labels": ["P1"], "assignees": ["gr"], "review_requested": [],
      "pull_request": false, "milestone_due": "2026-12-01T08:00:00Z",
      "deleted": false, "moved_to": null}],
   "patch_delay": 0,          seconds to wait before answering a PATCH (the request is
                              recorded first: a client that times out has still sent it)
   "search_missing": false}   /search/issues answers 404 (as some GitHub Enterprise servers)
  "deleted": true             the issue answers 410 Gone and is listed nowhere
  "moved_to": "other/repo#7"  transferred: GET/PATCH answer 301 to the new issue (which must
                              be in the file too); the old one is listed nowhere

Served:
  GET   /issues?filter=assigned&state=open   open issues assigned to the token's owner, with
                                            a "repository" object, paginated with Link
  GET   /search/issues?q=...                 `is:open`, `is:pr`, `is:issue`,
                                            `review-requested:LOGIN`, `assignee:LOGIN`
  GET   /repos/{o}/{r}/issues/{n}            one issue (301 when moved, 410 when deleted)
  PATCH /repos/{o}/{r}/issues/{n}            {"state": "closed"|"open", "title": ...}
"""

import json
import os
import threading
import time
from datetime import datetime, timezone
from urllib.parse import urlencode

_lock = threading.Lock()
_loaded = {"path": None, "text": None, "data": {"issues": []}}


def add_arguments(parser):
    parser.add_argument("--issues", metavar="FILE.json",
                        help="serve issues and pull requests from this file (see fake_issues.py)")


def _data(path):
    with _lock:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError:
            text = '{"issues": []}'
        if text != _loaded["text"] or path != _loaded["path"]:
            _loaded.update(path=path, text=text, data=json.loads(text))
        return _loaded["data"]


def _now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _issue_json(handler, issue, with_repository):
    base = handler.base
    repo = issue["repo"]
    number = issue["number"]
    is_pr = bool(issue.get("pull_request"))
    kind = "pull" if is_pr else "issues"
    payload = {
        "id": 100000 + number,
        "node_id": issue.get("node_id") or f"I_fake_{repo.replace('/', '_')}_{number}",
        "url": f"{base}/repos/{repo}/issues/{number}",
        "repository_url": f"{base}/repos/{repo}",
        "html_url": f"{base}/{repo}/{kind}/{number}",
        "number": number,
        "state": issue.get("state", "open"),
        "state_reason": "completed" if issue.get("state") == "closed" else None,
        "title": issue.get("title", ""),
        "body": None,
        "user": {"login": "someone", "id": 1, "type": "User"},
        "labels": [{"id": index + 1, "name": name, "color": "ededed", "default": False}
                   for index, name in enumerate(issue.get("labels", []))],
        "assignee": ({"login": issue["assignees"][0], "id": 2, "type": "User"}
                     if issue.get("assignees") else None),
        "assignees": [{"login": login, "id": 2, "type": "User"}
                      for login in issue.get("assignees", [])],
        "milestone": ({"number": 1, "title": "Next", "state": "open",
                       "due_on": issue["milestone_due"]}
                      if issue.get("milestone_due") else None),
        "comments": 0,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": issue.get("closed_at") or "2026-01-02T00:00:00Z",
        "closed_at": issue.get("closed_at"),
    }
    if is_pr:
        payload["pull_request"] = {"url": f"{base}/repos/{repo}/pulls/{number}",
                                   "html_url": f"{base}/{repo}/pull/{number}",
                                   "merged_at": None}
    if with_repository:
        owner, name = repo.split("/", 1)
        payload["repository"] = {"id": 9000, "name": name, "full_name": repo,
                                 "owner": {"login": owner, "id": 3, "type": "User"},
                                 "private": False, "fork": False,
                                 "html_url": f"{base}/{repo}"}
    return payload


def _listed(issue):
    return not issue.get("deleted") and not issue.get("moved_to")


def _find(data, repo, number):
    for issue in data.get("issues", []):
        if issue["repo"].lower() == repo.lower() and issue["number"] == number:
            return issue
    return None


def _page(handler, items, query, path, render, wrap=None):
    try:
        per_page = max(1, min(100, int(query.get("per_page") or 30)))
        page = max(1, int(query.get("page") or 1))
    except ValueError:
        return handler.error(400, "Invalid pagination parameters")
    last = max(1, -(-len(items) // per_page))
    chunk = [render(item) for item in items[(page - 1) * per_page: page * per_page]]
    links = []
    params = {k: v for k, v in query.items() if k != "page"}
    if page < last:
        links.append(f'<{handler.base}{path}?{urlencode({**params, "page": page + 1})}>; rel="next"')
        links.append(f'<{handler.base}{path}?{urlencode({**params, "page": last})}>; rel="last"')
    headers = {"Link": ", ".join(links)} if links else {}
    payload = wrap(chunk) if wrap else chunk
    return handler.send_json(200, payload, headers)


def respond(handler, method, parts, query, authorization, body):
    """The answer to an issues request, or None when the request is not about issues."""
    path = handler.state.options.issues
    if not path:
        return None
    data = _data(path)
    login = handler.state.login.lower()

    if parts == ["issues"] and method == "GET":
        if authorization is None:
            return handler.error(401, "Requires authentication")
        if query.get("filter", "assigned") != "assigned" or query.get("state", "open") != "open":
            return handler.error(422, "the fake serves filter=assigned&state=open only")
        items = [i for i in data.get("issues", []) if _listed(i) and i.get("state") == "open"
                 and login in [a.lower() for a in i.get("assignees", [])]]
        return _page(handler, items, query, "/issues", lambda i: _issue_json(handler, i, True))

    if parts == ["search", "issues"] and method == "GET":
        if data.get("search_missing"):
            return handler.error(404, "Not Found")
        terms = query.get("q", "").split()
        if not terms:
            return handler.error(422, "Validation Failed", extra={"errors": [
                {"resource": "Search", "field": "q", "code": "missing"}]})

        def keep(issue):
            if not _listed(issue):
                return False
            for term in terms:
                key, _, value = term.partition(":")
                value = value.lower()
                if key == "is" and value in ("open", "closed"):
                    if issue.get("state") != value:
                        return False
                elif key in ("is", "type") and value == "pr":
                    if not issue.get("pull_request"):
                        return False
                elif key in ("is", "type") and value == "issue":
                    if issue.get("pull_request"):
                        return False
                elif key == "review-requested":
                    if value not in [r.lower() for r in issue.get("review_requested", [])]:
                        return False
                elif key == "assignee":
                    if value not in [a.lower() for a in issue.get("assignees", [])]:
                        return False
                else:
                    return False
            return True
        items = [i for i in data.get("issues", []) if keep(i)]
        return _page(handler, items, query, "/search/issues",
                     lambda i: _issue_json(handler, i, False),
                     wrap=lambda chunk: {"total_count": len(items), "incomplete_results": False,
                                         "items": chunk})

    if len(parts) == 5 and parts[0] == "repos" and parts[3] == "issues" and parts[4].isdigit():
        repo = f"{parts[1]}/{parts[2]}"
        issue = _find(data, repo, int(parts[4]))
        if method == "PATCH":
            entry = {"path": handler.path, "body": body.decode("utf-8", "replace"),
                     "content_type": handler.headers.get("Content-Type"),
                     "at": time.time()}
            with _lock:
                with open(path + ".patches.jsonl", "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry) + "\n")
        if issue is None:
            return handler.error(404, "Not Found")
        if issue.get("moved_to"):
            target_repo, _, target_number = issue["moved_to"].partition("#")
            return handler.send_json(301, {"message": "Moved Permanently",
                                           "url": f"{handler.base}/repos/{target_repo}/issues/{target_number}"},
                                     {"Location": f"{handler.base}/repos/{target_repo}/issues/{target_number}"})
        if issue.get("deleted"):
            return handler.error(410, "This issue was deleted")
        if method == "GET":
            return handler.send_json(200, _issue_json(handler, issue, False))
        if method == "PATCH":
            delay = float(data.get("patch_delay") or 0)
            try:
                change = json.loads(body or b"{}")
            except ValueError:
                return handler.error(400, "Problems parsing JSON")
            with _lock:
                if change.get("state") == "closed" and issue.get("state") != "closed":
                    issue["state"] = "closed"
                    issue["closed_at"] = _now_iso()
                elif change.get("state") == "open":
                    issue["state"] = "open"
                    issue["closed_at"] = None
                if "title" in change:
                    issue["title"] = change["title"]
            if delay:
                time.sleep(delay)
            try:
                return handler.send_json(200, _issue_json(handler, issue, False))
            except (BrokenPipeError, ConnectionResetError):
                return 200
    return None
