#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The command line: usage errors exit 2 with a message and start nothing;
--help and --version exit 0."""

import os

import fbtest
from fbtest import check, eq, test


@test()
def usage_errors(ctx):
    events = ctx.path("events")
    engine = ["--", fbtest.FAKE, "--events=" + events, ctx.path("rec")]
    cases = [
        ([], "no engine"),
        (["--"], "no engine"),
        (["--log=/dev/null"], "no engine"),
        (["--bogus"] + engine, "--bogus"),
        (["-x"] + engine, "-x"),
        (["--engine-fen=lan"] + engine, "lan"),
        (["--gui-fen"] + engine[:0], "--gui-fen"),
        (["--protocol=winboard"] + engine, "winboard"),
        (["--grace=soon"] + engine, "soon"),
        (["--grace=-1"] + engine, "-1"),
        (["--grace"], "--grace"),
        (["--log="] + engine, "--log"),
        (["--log"], "--log"),
    ]
    for args, what in cases:
        rc, out, err = fbtest.run(fbtest.cmd(*args), stdin=b"uci\n",
                                  cwd=ctx.dir)
        eq(rc, 2, "exit status of %r" % args)
        eq(out, b"", "stdout of %r" % args)
        err = err.decode()
        check(err.startswith("fenbridge: ") and what in err,
              "message for %r names %r: %r" % (args, what, err))
        check(not os.path.exists(events), "no engine started for %r" % args)


@test()
def help_and_version(ctx):
    for opt in ("--help", "-h"):
        rc, out, err = fbtest.run(fbtest.cmd(opt))
        eq(rc, 0, "exit status of %s" % opt)
        eq(err, b"", "stderr of %s" % opt)
        check(out.startswith(b"Usage: fenbridge"), "usage text: %r" % out[:40])
        for o in (b"--engine-fen", b"--gui-fen", b"--protocol", b"--log",
                  b"--grace", b"--help", b"--version"):
            check(o in out, "%s documents %s" % (opt, o.decode()))
    for opt in ("--version", "-V"):
        rc, out, err = fbtest.run(fbtest.cmd(opt))
        eq(rc, 0, "exit status of %s" % opt)
        check(out.startswith(b"fenbridge ") and out.endswith(b"\n") and
              out.count(b"\n") == 1, "version line: %r" % out)
    # Options after -- belong to the engine.
    # (The fake engine rejects --help with its usage and status 99.)
    rc, out, err = fbtest.run(fbtest.cmd("--", fbtest.FAKE, "--help"),
                              cwd=ctx.dir)
    eq((rc, out), (99, b""), "status and stdout of the engine's --help")
    check(err.startswith(b"usage: fake_engine"), "the engine's usage: %r" % err)


if __name__ == "__main__":
    fbtest.main()
