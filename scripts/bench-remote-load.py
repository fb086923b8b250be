#!/usr/bin/env python3
"""The load part of scripts/bench-remote (`scripts/bench-remote --load ...`), run by it against
the throwaway PostgreSQL it started (env: OOTD, WORK, PORT, PSQL, ADMIN, DURATION, ROLES,
INTERVAL, PHASES).

ROLES member roles with two machines each (2 x ROLES database files) sync against the one server
in two phases of DURATION seconds each:

- paced: each machine runs one command and syncs, then waits a jittered INTERVAL (uniformly 0.5x
  to 1.5x, the first wait anywhere in 0..INTERVAL so that machines do not start in step), as a
  device that syncs after each command its user types. The issue's goal (p95 of a no-op sync
  under 0.5 s) is read from this phase: it is what a user waits for with the server shared by
  everyone's devices at a realistic cadence.
- hot: each machine syncs back to back with no pause (one command in four adds a todo): every
  machine's next sync starts the instant its last ends, so the machine is saturated by design
  (100 processes on 2 cores queue for the CPU). This phase is the stress test: errors,
  deadlocks, serialisation failures and convergence under the worst contention; its latencies
  are CPU queueing of this machine, and its throughput is the capacity of this machine.

Then every machine syncs twice more, one at a time, and the two machines of each role are
compared (uuid, number, title, done). Per phase: syncs, syncs/s, errors, p50/p95/p99 of every
sync and of the syncs with nothing to do, server statements per sync (pg_stat_statements), the
client's CPU per command (getrusage of the children) and the server's CPU per sync (the
postmaster's and its exited backends'), the load average. Last, one no-op sync alone on the
quiet server: its statements and wall time.
"""
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ootd, work, port = os.environ["OOTD"], os.environ["WORK"], os.environ["PORT"]
duration, roles = float(os.environ["DURATION"]), int(os.environ["ROLES"])
interval = float(os.environ.get("INTERVAL") or 5)
phases = (os.environ.get("PHASES") or "paced,hot").split(",")
psql = [os.environ["PSQL"], "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", os.environ["ADMIN"]]
machines = [(r, d) for r in range(1, roles + 1) for d in "ab"]


def admin(sql):
    return subprocess.run([*psql, "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def env(r, d):
    e = dict(os.environ)
    e.update(OOTD_DB=f"{work}/load{r}{d}.sqlite", OOTD_REMOTE=f"postgresql://load{r}@127.0.0.1:{port}/postgres")
    return e


def run(r, d, *args):
    return subprocess.run([ootd, *args], env=env(r, d), capture_output=True, text=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def server_cpu():
    """Seconds of CPU of the postmaster, its running children and its exited ones."""
    pid = int(open(f"{work}/data/postmaster.pid").readline())
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p):
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            return 0, 0
        return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])

    own, exited = stat(pid)
    children = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                children += stat(entry)[0]
    return (own + exited + children) / tick


def client_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def statements():
    """Statements the load roles ran (pg_stat_statements), since the last reset."""
    return int(admin(
        "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid "
        "WHERE r.rolname LIKE 'load%'"))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


lock = threading.Lock()
errors = []


class Phase:
    def __init__(self, name):
        self.name, self.times, self.idle, self.commands = name, [], [], 0


def sync(r, d, phase=None):
    t0 = time.monotonic()
    p = run(r, d, "remote", "sync", "--json")
    elapsed = time.monotonic() - t0
    with lock:
        if p.returncode != 0:
            errors.append(f"load{r}{d} ({phase.name if phase else 'final'}): exit {p.returncode}: {p.stderr.strip()}")
            return None
        j = json.loads(p.stdout)
        if phase is not None:
            phase.times.append(elapsed)
            if j["pushed"] == 0 and j["pulled"] == 0:
                phase.idle.append(elapsed)
        return j


# Set-up, nothing timed: ROLES roles, 3 todos on each machine. One Argon2id in all (256 MiB and
# seconds in a release build, minutes for 50 roles on a loaded machine): role 1's first machine
# makes its key; the server's owner gives every other role a copy of that key record, and every
# machine a copy of that key file, so each `remote set` finds its key (one data key shared by
# all roles: the load's sealing and opening cost the same).
admin("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
for i in range(1, roles + 1):
    admin(f"CREATE ROLE load{i} LOGIN IN ROLE ootd_member")


def set_up(r):
    for d in "ab":
        for k in range(3):
            run(r, d, "add", f"{d} seed {k}")
        if (r, d) != (1, "a"):
            shutil.copy(f"{work}/load1a.sqlite.sync-key", f"{work}/load{r}{d}.sqlite.sync-key")
        p = run(r, d, "remote", "set", env(r, d)["OOTD_REMOTE"])
        if p.returncode != 0:
            with lock:
                errors.append(f"load{r}{d}: remote set: {p.stderr.strip()}")
        if (r, d) == (1, "a"):
            admin("INSERT INTO ootd.keys (owner, key_id, salt, ops_limit, mem_limit, wrapped_key) "
                  "SELECT 'load' || i, key_id, salt, ops_limit, mem_limit, wrapped_key "
                  f"FROM ootd.keys, generate_series(2, {roles}) i WHERE owner = 'load1'")


set_up(1)
t0 = time.monotonic()
with ThreadPoolExecutor(max_workers=2) as pool:
    list(pool.map(set_up, range(2, roles + 1)))
print(f"set-up: {roles} roles x 2 machines in {time.monotonic() - t0:.0f} s (not timed below)", flush=True)
# Every machine once, so that the phases start from machines that have pulled each other's seeds.
for r, d in machines:
    sync(r, d)


def run_phase(name):
    phase = Phase(name)
    paced = name == "paced"
    end = time.monotonic() + duration

    def loop(r, d):
        rng = random.Random(f"{name} {r}{d}")
        n = 0
        if paced:
            time.sleep(rng.uniform(0, interval))
        while time.monotonic() < end:
            # A paced machine's user types a command (one in four adds a todo, the others read),
            # then the machine syncs; a hot machine adds one sync in four and syncs at once.
            if n % 4 == 0:
                run(r, d, "add", f"{d} {name} {n}")
                with lock:
                    phase.commands += 1
            elif paced:
                run(r, d, "list")
                with lock:
                    phase.commands += 1
            sync(r, d, phase)
            n += 1
            if paced:
                pause = rng.uniform(0.5 * interval, 1.5 * interval)
                time.sleep(max(0, min(pause, end - time.monotonic())))

    admin("SELECT pg_stat_statements_reset()")
    cpu0, server0, loads = client_cpu(), server_cpu(), [loadavg()]
    threads = [threading.Thread(target=loop, args=m) for m in machines]
    started = time.monotonic()
    for t in threads:
        t.start()
    stop = threading.Event()

    def sample():
        while not stop.wait(10):
            loads.append(loadavg())

    sampler = threading.Thread(target=sample)
    sampler.start()
    for t in threads:
        t.join()
    stop.set()
    sampler.join()
    ran = time.monotonic() - started
    count = statements()
    cpu, server = client_cpu() - cpu0, server_cpu() - server0
    n = len(phase.times)
    how = f"every machine every {interval:g} s (0.5x-1.5x)" if paced else "back to back"
    print(f"{name}: {roles} roles x 2 machines syncing {how}, {ran:.0f} s, load average "
          f"{min(loads):.1f}-{max(loads):.1f} (mean {statistics.mean(loads):.1f})")
    print(f"  {n} syncs ({n / ran:.1f}/s), {len(phase.idle)} with nothing to do; "
          f"{phase.commands} other commands")
    print(f"  every sync: p50 {pct(phase.times, .5):.0f} ms, p95 {pct(phase.times, .95):.0f} ms, "
          f"p99 {pct(phase.times, .99):.0f} ms, max {pct(phase.times, 1):.0f} ms")
    print(f"  syncs with nothing to do: p50 {pct(phase.idle, .5):.0f} ms, p95 {pct(phase.idle, .95):.0f} ms, "
          f"p99 {pct(phase.idle, .99):.0f} ms")
    if n:
        print(f"  server: {count / n:.2f} statements a sync (pg_stat_statements), "
              f"{server / n * 1000:.1f} ms of CPU a sync (postmaster and backends); "
              f"client: {cpu / (n + phase.commands) * 1000:.1f} ms of CPU a command")
    return phase


for name in phases:
    if name not in ("paced", "hot"):
        raise SystemExit(f"bench-remote-load: unknown phase {name!r} (paced, hot)")
    run_phase(name)

for _ in range(2):
    for r, d in machines:
        sync(r, d)


def shapes(r, d):
    p = run(r, d, "list", "--all", "--json")
    return sorted((t["uuid"], t["id"], t["title"], t["done"]) for t in json.loads(p.stdout))


diverged = [r for r in range(1, roles + 1) if shapes(r, "a") != shapes(r, "b")]
for r in diverged[:3]:
    a, b = set(shapes(r, "a")), set(shapes(r, "b"))
    print(f"  load{r}: only on a: {sorted(a - b)[:4]}; only on b: {sorted(b - a)[:4]}")

# One no-op sync alone on the quiet server: its statements and its time (best of 5).
admin("SELECT pg_stat_statements_reset()")
sync(1, "a")
alone = statements()
walls = []
for _ in range(5):
    t0 = time.monotonic()
    sync(1, "a")
    walls.append(time.monotonic() - t0)
print(f"one no-op sync alone: {alone} statements on the server, {min(walls) * 1000:.0f} ms "
      f"(best of 5; median {statistics.median(walls) * 1000:.0f} ms)")
print(f"errors: {len(errors)}; roles whose two machines differ at the end: {len(diverged)}")
for e in errors[:10]:
    print("  " + e)
