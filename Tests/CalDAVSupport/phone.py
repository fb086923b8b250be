#!/usr/bin/env python3
"""Plays the phone against a CalDAV collection: plain HTTP with urllib, no PyPI dependency.

    phone.py --url COLLECTION --user NAME --password-env VAR COMMAND [ARGS]

The password is read from the environment variable named by --password-env (default
CALDAV_PASSWORD), never from argv. Every change is a GET, an edit of the VTODO's text and a PUT
with If-Match (If-None-Match: * for `add`), as a phone client does; properties the edit does not
touch (X- properties, VALARM, anything else) are kept byte for byte. Commands, UID being the
VTODO's UID:

    list                       JSON [{"href", "etag", "uid"}] of every resource (sorted by href)
    get UID                    JSON {"href", "etag", "ics"}
    tick UID [WHEN]            STATUS:COMPLETED and COMPLETED:WHEN (UTC, default 20260101T120000Z)
    untick UID                 STATUS:NEEDS-ACTION, no COMPLETED
    retitle UID TITLE          SUMMARY:TITLE
    move UID YYYYMMDD          DTSTART;VALUE=DATE:YYYYMMDD and DUE the day after
    add UID TITLE [YYYYMMDD]   a new VTODO (NEEDS-ACTION), named UID.ics
    set UID NAME VALUE         sets (or adds) the property NAME (e.g. X-PHONE-COLOR, PRIORITY)
    alarm UID                  adds a VALARM (DISPLAY, 15 minutes before)
    put-raw UID FILE           replaces the whole text with FILE's (If-Match)
    delete UID                 DELETE with If-Match

Each change prints JSON {"href", "etag"} (etag null when the server sent none; `delete`: the
href). Exit status 1 with one line on stderr when the server refuses (the status is in it).
"""

import argparse
import base64
import datetime
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

DAV = "{DAV:}"


class Phone:
    def __init__(self, url, user, password):
        self.url = url if url.endswith("/") else url + "/"
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def send(self, method, url, body=None, headers=None):
        req = urllib.request.Request(url, data=body, method=method)
        req.add_header("Authorization", self.auth)
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers.items()), error.read()

    def absolute(self, href):
        return urllib.parse.urljoin(self.url, href)

    def listing(self):
        body = (b'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:">'
                b"<d:prop><d:getetag/></d:prop></d:propfind>")
        status, _, payload = self.send("PROPFIND", self.url, body,
                                       {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
        if status != 207:
            fail(f"PROPFIND answered {status}")
        own = urllib.parse.urlsplit(self.url).path
        items = []
        for response in ET.fromstring(payload).iter(DAV + "response"):
            href = response.findtext(DAV + "href")
            if href is None or urllib.parse.urlsplit(self.absolute(href)).path.rstrip("/") == own.rstrip("/"):
                continue
            etag = None
            for propstat in response.iter(DAV + "propstat"):
                if " 200 " in (propstat.findtext(DAV + "status") or ""):
                    etag = propstat.findtext(f"{DAV}prop/{DAV}getetag") or etag
            items.append({"href": href, "etag": etag})
        return sorted(items, key=lambda item: item["href"])

    def get(self, href):
        status, headers, payload = self.send("GET", self.absolute(href))
        if status != 200:
            fail(f"GET {href} answered {status}")
        etag = next((v for k, v in headers.items() if k.lower() == "etag"), None)
        return etag, payload.decode("utf-8")

    def find(self, uid):
        for item in self.listing():
            etag, text = self.get(item["href"])
            if uid_of(text) == uid:
                return item["href"], etag or item["etag"], text
        fail(f"no VTODO with UID {uid}")

    def put(self, href, text, etag=None, create=False):
        headers = {"Content-Type": "text/calendar; charset=utf-8"}
        if create:
            headers["If-None-Match"] = "*"
        else:
            headers["If-Match"] = etag
        status, answer, _ = self.send("PUT", self.absolute(href), text.encode("utf-8"), headers)
        if status not in (200, 201, 204):
            fail(f"PUT {href} answered {status}")
        etag = next((v for k, v in answer.items() if k.lower() == "etag"), None)
        return {"href": href, "etag": etag}


def fail(message):
    sys.stderr.write(f"phone: {message}\n")
    sys.exit(1)


def unfold(text):
    return re.sub(r"\r?\n[ \t]", "", text).replace("\r\n", "\n").split("\n")


def fold(lines):
    return "".join(line + "\r\n" for line in lines if line != "")


def uid_of(text):
    for line in unfold(text):
        if line.upper().startswith("UID:") or line.upper().startswith("UID;"):
            return line.split(":", 1)[1]
    return None


def edit_vtodo(text, change):
    """Calls change(props) on the VTODO's own lines (not a VALARM's), keeping everything else."""
    lines = unfold(text)
    start = lines.index("BEGIN:VTODO")
    end = lines.index("END:VTODO", start)
    body = lines[start + 1:end]
    # The VTODO's own properties are the lines outside nested components.
    own, nested, depth = [], [], 0
    for line in body:
        if line.startswith("BEGIN:"):
            depth += 1
        if depth:
            nested.append(line)
        else:
            own.append(line)
        if line.startswith("END:"):
            depth -= 1
    own = change(own)
    return fold(lines[:start + 1] + own + nested + lines[end:])


def name_of(line):
    return re.split(r"[;:]", line, maxsplit=1)[0].upper()


def setting(name, line):
    def change(props):
        kept = [p for p in props if name_of(p) != name]
        return kept + ([line] if line else [])
    return change


def chain(*changes):
    def change(props):
        for step in changes:
            props = step(props)
        return props
    return change


def escape(text):
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def next_day(day):
    date = datetime.datetime.strptime(day, "%Y%m%d").date() + datetime.timedelta(days=1)
    return date.strftime("%Y%m%d")


STAMP = "DTSTAMP:20260101T120000Z"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-env", default="CALDAV_PASSWORD")
    parser.add_argument("command")
    parser.add_argument("args", nargs="*")
    args = parser.parse_args()
    phone = Phone(args.url, args.user, os.environ.get(args.password_env, ""))
    a = args.args

    def change(uid, step):
        href, etag, text = phone.find(uid)
        return phone.put(href, edit_vtodo(text, chain(step, setting("DTSTAMP", STAMP))), etag)

    command = args.command
    if command == "list":
        out = []
        for item in phone.listing():
            _, text = phone.get(item["href"])
            out.append({"href": item["href"], "etag": item["etag"], "uid": uid_of(text)})
        result = out
    elif command == "get":
        href, etag, text = phone.find(a[0])
        result = {"href": href, "etag": etag, "ics": text}
    elif command == "tick":
        when = a[1] if len(a) > 1 else "20260101T120000Z"
        result = change(a[0], chain(setting("STATUS", "STATUS:COMPLETED"),
                                    setting("COMPLETED", f"COMPLETED:{when}"),
                                    setting("PERCENT-COMPLETE", "PERCENT-COMPLETE:100")))
    elif command == "untick":
        result = change(a[0], chain(setting("STATUS", "STATUS:NEEDS-ACTION"),
                                    setting("COMPLETED", None), setting("PERCENT-COMPLETE", None)))
    elif command == "retitle":
        result = change(a[0], setting("SUMMARY", f"SUMMARY:{escape(a[1])}"))
    elif command == "move":
        result = change(a[0], chain(setting("DTSTART", f"DTSTART;VALUE=DATE:{a[1]}"),
                                    setting("DUE", f"DUE;VALUE=DATE:{next_day(a[1])}")))
    elif command == "set":
        result = change(a[0], setting(a[1].upper(), f"{a[1]}:{a[2]}"))
    elif command == "alarm":
        href, etag, text = phone.find(a[0])
        alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
        result = phone.put(href, text.replace("END:VTODO", alarm + "END:VTODO", 1), etag)
    elif command == "add":
        uid, title = a[0], a[1]
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ootd tests//phone//EN", "BEGIN:VTODO",
                 f"UID:{uid}", STAMP, f"SUMMARY:{escape(title)}", "STATUS:NEEDS-ACTION"]
        if len(a) > 2:
            lines += [f"DTSTART;VALUE=DATE:{a[2]}", f"DUE;VALUE=DATE:{next_day(a[2])}"]
        lines += ["END:VTODO", "END:VCALENDAR"]
        href = urllib.parse.urlsplit(phone.url).path + urllib.parse.quote(uid) + ".ics"
        result = phone.put(href, fold(lines), create=True)
    elif command == "put-raw":
        href, etag, _ = phone.find(a[0])
        with open(a[1], encoding="utf-8") as handle:
            result = phone.put(href, handle.read(), etag)
    elif command == "delete":
        href, etag, _ = phone.find(a[0])
        status, _, _ = phone.send("DELETE", phone.absolute(href), headers={"If-Match": etag})
        if status not in (200, 204):
            fail(f"DELETE {href} answered {status}")
        result = {"href": href, "etag": None}
    else:
        fail(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
