#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Slow is not silent (issue 26): `fenbridge check` gives the same report
on a busy machine as on an idle one. The fake engine spends 20 ms of CPU
time before each answer (--burn); run at nice 10 on one core beside a
CPU-bound process pinned to that core (taskset), it gets about a tenth of
the core (weights 110 against 1024), so each answer takes about 0.2 s,
past the 0.1 s deadlines given, and far from the cap of 100 times the
deadline (a busier machine gives it less). Its move after `go infinite`
comes at once (before `stop`: early) idle, and loaded too, since the
search before `stop` is the engine's time, not the wall's. Before the
waits learned to tell slow from silent (src/daemon/wait.c) each such step
was SILENT and the engine restarted; now the answers are waited for,
reported `(slow: N s)`, and the verdicts, findings and INI lines are those
of the idle run. Nothing here asserts how fast anything was.

Linux only (taskset, /proc); 77 when taskset is missing."""

import os
import re
import shutil
import subprocess
import sys

import fbtest
from fbtest import check, eq, test

HOGS = 1


def report(ctx, prefix, name):
    """fenbridge check against the burning fake engine, run after prefix
    (a command line that loads or pins it): its report, from stdout."""
    argv = prefix + fbtest.cmd(
        "check", "--timeout", "0.1", "--search-timeout", "0.2", "--",
        fbtest.FAKE, "--burn=20", "--on-go=bestmove a2a3", ctx.path(name))
    # In a sanitizer build the fake engine's leak check at its exit runs in
    # a tracer process of its own while the engine's threads stand
    # stopped: the wait sees an engine neither working nor waiting for a
    # CPU, and the quit step (0.1 s) fires. Real engines do not do that;
    # the leak checks of check itself run in the other e2e tests.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(
        [o for o in env.get("ASAN_OPTIONS", "").replace(":", ",").split(",")
         if o and not o.startswith("detect_leaks")] + ["detect_leaks=0"])
    p = subprocess.run(argv, capture_output=True, timeout=1800, env=env)
    check(p.returncode in (0, 1),
          "check exited %d: %s" % (p.returncode, fbtest.show(p.stderr)))
    return p.stdout.decode()


def findings(text):
    """The findings and the INI lines (what a user acts on), and each
    step's verdict with its slowness taken out."""
    steps = [re.sub(r" \(slow: \d+ s\)$", "", ln)
             for ln in text[:text.find("\nrestarts:")].split("\n")
             if re.match(r"^(ok|wrong|ILLEGAL|SILENT|DIED) ", ln)]
    return steps, text[text.find("\nfindings:"):]


@test(timeout=1800)
def check_loaded_same_as_idle(ctx):
    idle = report(ctx, [], "idle")
    cpu = sorted(os.sched_getaffinity(0))[0]
    pin = ["taskset", "-c", str(cpu)]
    hogs = [subprocess.Popen(pin + ["sh", "-c", "while :; do :; done"])
            for _ in range(HOGS)]
    try:
        loaded = report(ctx, pin + ["nice", "-n", "10"], "loaded")
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    steps_i, tail_i = findings(idle)
    steps_l, tail_l = findings(loaded)
    check(len(steps_i) > 20, "the idle report has its steps:\n" + idle)
    eq(steps_l, steps_i, "the steps' verdicts, loaded against idle")
    eq(tail_l, tail_i, "the findings and INI lines, loaded against idle")
    check("SILENT" not in loaded, "a SILENT step when loaded:\n" + loaded)
    if "(slow:" not in loaded:
        print("    note: no answer was late: the load did not bite")


if __name__ == "__main__":
    if shutil.which("taskset") is None or not sys.platform.startswith(
            "linux"):
        print("taskset (Linux) is needed: skipped")
        sys.exit(77)
    fbtest.main()
