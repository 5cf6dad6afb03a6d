#!/usr/bin/env python3
"""Runs cargo's test binaries two at a time, each in a network namespace of its own.

CI's tests spend most of their time waiting on a simulated robot, a DDS discovery or a browser:
one binary at a time (as `cargo test` runs them) kept the machine half idle (docs/results.md,
"CI's time"). This builds each set with `cargo test ARGS --no-run`, then runs every binary of
every set in LANES lanes, the longest first. Each binary runs in a network namespace of its own
(`unshare --net`, loopback only), so two graphs never hear each other whatever ROS domain
they pick, and a test that binds a fixed port or domain is alone there, as under `cargo test`.

Usage: test_lanes.py [--lanes N] [--again "VARS | NAMES"]... SET [SET ...]
  SET: "[VAR=VALUE ...] | CARGO_TEST_ARGS", e.g. "| --workspace"; the variables are set for the
  build and the run.
  --again: the binaries NAMES (test target names; `*` all, `!NAME` but not that one) of the sets
  above run once more with the variables VARS, e.g. "RMW_IMPLEMENTATION=rmw_fastrtps_cpp |
  ros2_interop ros2_launch". Nothing is built again: a cargo build of only those targets
  resolves the dev-dependencies' features otherwise and builds half the workspace anew.

Without root (no network namespaces) it runs one binary at a time, as `cargo test` would. The
output of each binary is printed whole when it ends, after a `Running NAME` line as cargo
prints it, so tools/ci/slowest.sh reads it. Exits 1 when a binary failed, after running all.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time

# Seconds each slow binary took in CI (tools/ci/slowest.sh), so that the longest start first
# and the lanes end together; the rest take a few seconds each.
EXPECTED = {
    "security": 240,
    "graph_emulated": 155,
    "two_hosts": 120,
    "ros2_interop": 95,
    "cli_soak": 90,
    "emulated_switches": 90,
    "graph_faults": 72,
    "shipped": 54,
    "cli_hw": 48,
    "graph_respawn": 45,
    "ros2_launch": 35,
    "boards": 22,
    "ros2_rviz": 20,
    "graph_game": 18,
    "multiprocess": 7,
}


# Binaries that run with nothing beside them but the quick ones (those not in EXPECTED) and
# their COMPANIONS, in the host's network. The secured graph's discovery sometimes never
# completed (issue 70; the test launches it again, up to four times), more often under load.
ALONE = {"security"}
# What may run beside an ALONE binary once the quick ones are done: in CI of 2026-12-06 the
# quick ones filled the other lane for the first 170 s of the secured test's 240, and it then
# stood idle. The ROS 2 interop tests mostly wait on rclpy and DDS discovery.
COMPANIONS = {"ros2_interop"}

# Never beside each other: the emulated Picos (rp2040js, a core each while they run) starve a
# graph whose simulated controllers must answer within a second. In a CI run of 2026-12-05,
# two_hosts beside emulated_switches saw the sim fall silent on every serial link for over a
# second, twice, and the arm's move fail.
HOGS = {"graph_emulated", "emulated_switches", "cli_hw"}
DELICATE = {"two_hosts"}


def parse_set(text):
    env_part, _, args = text.partition("|") if "|" in text else ("", "", text)
    env = dict(kv.split("=", 1) for kv in shlex.split(env_part))
    return env, shlex.split(args)


def build(env, args):
    """Builds one set; its test executables as (name, executable, package dir)."""
    cmd = ["cargo", "test", *args, "--no-run", "--message-format=json-render-diagnostics"]
    print(f"== building: {' '.join(cmd)} {env or ''}", flush=True)
    out = subprocess.run(cmd, env={**os.environ, **env}, stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        sys.exit(f"the build failed: {' '.join(cmd)}")
    found = []
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if not msg["profile"].get("test"):
            continue
        found.append(
            (
                msg["target"]["name"],
                msg["executable"],
                os.path.dirname(msg["manifest_path"]),
            )
        )
    return found


def isolated():
    """Whether this process may make network namespaces (root, with unshare and ip)."""
    try:
        probe = ["unshare", "--net", "--", "ip", "link", "set", "lo", "up"]
        return subprocess.run(probe, capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lanes", type=int, default=2)
    parser.add_argument("--again", action="append", default=[])
    parser.add_argument("sets", nargs="+")
    opts = parser.parse_args()

    jobs = []
    for text in opts.sets:
        env, args = parse_set(text)
        for name, exe, cwd in build(env, args):
            jobs.append({"name": name, "exe": exe, "cwd": cwd, "env": env})
    built = list(jobs)
    for text in opts.again:
        env, names = parse_set(text)
        wanted = {n for n in names if not n.startswith("!")}
        unwanted = {n[1:] for n in names if n.startswith("!")}
        chosen = [
            j
            for j in built
            if ("*" in wanted or j["name"] in wanted) and j["name"] not in unwanted
        ]
        missing = wanted - {"*"} - {j["name"] for j in chosen}
        if missing:
            sys.exit(f"--again names binaries no set built: {', '.join(sorted(missing))}")
        jobs.extend({**j, "env": {**j["env"], **env}} for j in chosen)
    lanes = opts.lanes if isolated() else 1
    if lanes == 1 and opts.lanes > 1:
        print("== no network namespaces here (not root?): one binary at a time", flush=True)
    jobs.sort(key=lambda j: -EXPECTED.get(j["name"], 1))
    print(f"== running {len(jobs)} test binaries in {lanes} lane(s)", flush=True)

    lock = threading.Lock()
    failed = []
    start = time.monotonic()

    def run(job):
        cmd = [job["exe"]]
        # A binary that runs alone keeps the host's network, as under `cargo test`: the others
        # beside it are each in a namespace of their own.
        if lanes > 1 and job["name"] not in ALONE:
            # Loopback with multicast, as the host's own, in a namespace of its own.
            setup = (
                "ip link set lo up && ip link set lo multicast on && "
                "ip route add 224.0.0.0/4 dev lo && exec \"$0\" \"$@\""
            )
            cmd = ["unshare", "--net", "--", "sh", "-c", setup, *cmd]
        env = {
            **os.environ,
            **job["env"],
            "CARGO_MANIFEST_DIR": job["cwd"],
        }
        with tempfile.TemporaryFile() as out:
            began = time.monotonic()
            code = subprocess.run(
                cmd, cwd=job["cwd"], env=env, stdout=out, stderr=subprocess.STDOUT, check=False
            ).returncode
            took = time.monotonic() - began
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
        variant = " ".join(f"{k}={v}" for k, v in job["env"].items())
        head = f"     Running {job['exe']} ({job['name']}{', ' + variant if variant else ''})"
        with lock:
            print(head, flush=True)
            print(text, end="" if text.endswith("\n") else "\n", flush=True)
            print(
                f"== {job['name']} {'ok' if code == 0 else f'FAILED ({code})'} in {took:.0f} s"
                f" (at {time.monotonic() - start:.0f} s)",
                flush=True,
            )
            if code != 0:
                failed.append(f"{job['name']} {variant}".strip())

    queue = list(jobs)
    # How many binaries run now, and whether one of them runs alone.
    state = {"running": 0, "alone": False, "names": []}
    changed = threading.Condition(lock)

    def allowed(job):
        if state["alone"]:
            if job["name"] in ALONE:
                return False
            if job["name"] in COMPANIONS:
                # Only when no quick one is left to go first.
                return not any(j["name"] not in EXPECTED for j in queue)
            return job["name"] not in EXPECTED
        if job["name"] in ALONE:
            return state["running"] == 0
        if job["name"] in HOGS and DELICATE.intersection(state["names"]):
            return False
        if job["name"] in DELICATE and HOGS.intersection(state["names"]):
            return False
        return True

    def lane():
        while True:
            with changed:
                while True:
                    if not queue:
                        return
                    job = next((j for j in queue if allowed(j)), None)
                    if job is not None:
                        break
                    changed.wait()
                queue.remove(job)
                state["running"] += 1
                state["names"].append(job["name"])
                alone = job["name"] in ALONE
                state["alone"] = state["alone"] or alone
            run(job)
            with changed:
                state["running"] -= 1
                state["names"].remove(job["name"])
                if alone:
                    state["alone"] = False
                changed.notify_all()

    threads = [threading.Thread(target=lane) for _ in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"== {len(jobs)} test binaries in {time.monotonic() - start:.0f} s", flush=True)
    if failed:
        print("== failed: " + ", ".join(failed), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
