#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The command line: usage errors exit 2 with a message and start nothing;
--help and --version exit 0; `fenbridge convert`'s and `fenbridge
check`'s options; and the README's option tables and the man page list
what --help lists."""

import os
import re
import shlex

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
        (["--prot=uci"] + engine, "--prot"),       # no abbreviations
        (["--help=yes"] + engine, "--help"),
        (["--name=x"] + engine, "--name"),         # an INI key only
        (["--config"], "--config"),
    ]
    for args, what in cases:
        rc, out, err = fbtest.run(fbtest.cmd(*args), stdin=b"uci\n",
                                  cwd=ctx.dir)
        eq(rc, 2, "exit status of %r" % args)
        eq(out, b"", "stdout of %r" % args)
        err = err.decode()
        check(err.startswith("fenbridge: ") and what in err,
              "message for %r names %r: %r" % (args, what, err))
        check(err.endswith("\nTry 'fenbridge --help'.\n"),
              "hint for %r: %r" % (args, err))
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
        # the version line, then what the CPU has (test_cpu checks it)
        check(out.startswith(b"fenbridge ") and out.endswith(b"\n") and
              out.count(b"\n") == 2 and b"\nCPU: " in out,
              "version lines: %r" % out)
    # Options after -- belong to the engine.
    # (The fake engine rejects --help with its usage and status 99.)
    rc, out, err = fbtest.run(fbtest.cmd("--", fbtest.FAKE, "--help"),
                              cwd=ctx.dir)
    eq((rc, out), (99, b""), "status and stdout of the engine's --help")
    check(err.startswith(b"usage: fake_engine"), "the engine's usage: %r" % err)


@test()
def engine_fen_values(ctx):
    """Each value of --engine-fen, both spellings, reaches the engine."""
    start = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    for i, (args, want) in enumerate((
                       (["--engine-fen=shredder"], b"HAha"),
                       (["--engine-fen", "shredder"], b"HAha"),
                       (["--engine-fen=auto"], b"KQkq"),
                       (["--engine-fen=xfen"], b"KQkq"),
                       ([], b"KQkq"))):
        b = ctx.bridge(opts=args, name="engine%d" % i)
        b.send(b"uci\nposition fen " + start + b" w HAha - 0 1\nisready\n")
        b.expect(b"readyok\n")
        b.send(b"quit\n")
        eq(b.wait()[0], 0, "exit status with %r" % args)
        check(b"position fen " + start + b" w " + want + b" - 0 1\n"
              in b.recorded(), "%r: %r" % (args, b.recorded()))


@test()
def convert_command_line(ctx):
    fen = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w %s - 4 11"
    for args in (["--to=shredder"], ["--to", "shredder"],
                 ["--keep-ep", "--to=Shredder-FEN"],
                 ["--to=shredder", "--"]):
        rc, out, err = fbtest.run(fbtest.cmd("convert", *args,
                                             fen % "Gkq"))
        eq((rc, out, err), (0, (fen % "Gga").encode() + b"\n", b""),
           "convert %r" % args)
    for opt in ("--help", "-h"):
        rc, out, err = fbtest.run(fbtest.cmd("convert", opt, "--bogus"))
        eq((rc, err), (0, b""), "convert %s" % opt)
        check(out.startswith(b"Usage: fenbridge convert") and
              b"--keep-ep" in out and b"Exit status: 0" in out,
              "convert usage: %r" % out[:80])
    for args, what in ((["x"], "--to=xfen or --to=shredder is required"),
                       (["--to=lan"], "'lan' (xfen or shredder)"),
                       (["--to"], "--to needs a value"),
                       (["--to=xfen", "--variant=atomic"], "'atomic'"),
                       (["--to=xfen", "--bogus"], "'--bogus'"),
                       (["--to=xfen", "--engine-fen=xfen"], "--engine-fen")):
        rc, out, err = fbtest.run(fbtest.cmd("convert", *args))
        eq((rc, out), (2, b""), "status and stdout of convert %r" % args)
        err = err.decode()
        check(err.startswith("fenbridge convert: ") and what in err and
              err.endswith("\nTry 'fenbridge convert --help'.\n"),
              "message for convert %r: %r" % (args, err))


@test()
def check_command_line(ctx):
    for opt in ("--help", "-h"):
        rc, out, err = fbtest.run(fbtest.cmd("check", opt, "--bogus"))
        eq((rc, err), (0, b""), "check %s" % opt)
        check(out.startswith(b"Usage: fenbridge check") and
              b"--search-timeout" in out and b"Exit status: 0" in out,
              "check usage: %r" % out[:80])
    for args, what in (([], "no engine given"), (["--"], "no engine given"),
                       (["--protocol=cecp", "--", "x"], "'cecp'"),
                       (["--timeout=0", "--", "x"], "a timeout of 0"),
                       (["--timeout=soon", "--", "x"], "soon"),
                       (["--bogus", "--", "x"], "'--bogus'")):
        rc, out, err = fbtest.run(fbtest.cmd("check", *args))
        eq((rc, out), (2, b""), "status and stdout of check %r" % args)
        err = err.decode()
        check(err.startswith("fenbridge check: ") and what in err and
              err.endswith("\nTry 'fenbridge check --help'.\n"),
              "message for check %r: %r" % (args, err))
    rc, out, err = fbtest.run(fbtest.cmd("check", "--", "/nonexistent/x"))
    eq(rc, 2, "check of an engine that is not there")
    check(b"cannot start '/nonexistent/x'" in err, "its message: %r" % err)
    # The fake engine handshakes but never moves: every search is silent,
    # and each silence restarts it, up to the most restarts; its name is
    # its own.
    rc, out, err = fbtest.run(fbtest.cmd(
        "check", "--timeout=2", "--search-timeout=0.3", "--",
        fbtest.FAKE, ctx.path("rec")), timeout=60)
    out = out.decode()
    eq(rc, 1, "check of the fake engine")
    check("engine: fake\nprotocol: UCI\n" in out and
          re.search(r"^SILENT +standard mode, X-FEN", out, re.M) and
          re.search(r"^ok +isready answered", out, re.M) and
          "restarts: 24 (the most" in out and
          "engine-protocol = uci\n" in out, "its report: %s" % out)


# ---- --help, the README's option table and the man page agree ----

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DEFAULT = re.compile(r"\(default:? ([^)]*)\)")


def squash(text):
    return " ".join(text.split())


def default_of(text):
    m = DEFAULT.search(squash(text))
    return m.group(1) if m else None


def help_options(text):
    """{spec: text} of the Options section of --help, spec as written
    there: '--engine-fen=auto|xfen|shredder', '-h, --help'."""
    section = text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    opts, spec = {}, None
    for line in section.split("\n"):
        m = re.match(r"^  (-[^\s,]*(?:, -\S+)?)(?:\s+(.*))?$", line)
        if m:
            spec = m.group(1)
            opts[spec] = m.group(2) or ""
        else:
            check(spec is not None and line.startswith(" " * 20),
                  "--help line outside an option: %r" % line)
            opts[spec] += " " + line.strip()
    return opts


def readme_options(text):
    """{spec: text} of the README's option table under '## Usage'."""
    section = text.split("\n## Usage\n", 1)[1].split("\n## ", 1)[0]
    opts = {}
    for line in section.split("\n"):
        cells = re.split(r"(?<!\\)\|", line)
        if len(cells) == 4 and cells[1].strip().startswith("`-"):
            spec = cells[1].strip().replace("`", "").replace("\\|", "|")
            opts[spec] = cells[2].replace("`", "").replace("\\|", "|")
    return opts


def man_text(s):
    s = re.sub(r"\\f[BIRP]", "", s)
    return s.replace("\\-", "-").replace("\\(bu", "*")


def man_options(text):
    """{spec: text} of the man page's OPTIONS: the tag after each .TP."""
    section = text.split("\n.SH OPTIONS\n", 1)[1].split("\n.SH ", 1)[0]
    opts = {}
    for entry in section.split("\n.TP\n")[1:]:
        tag, _, body = entry.partition("\n")
        words = shlex.split(tag.split(None, 1)[1])  # after .BR / .BI
        opts["".join(words)] = man_text(body)
    return opts


@test()
def help_readme_and_man_agree(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("--help"))
    eq(rc, 0, "exit status of --help")
    helped = help_options(out.decode())
    check(len(helped) >= 11, "options found in --help: %r" % list(helped))
    with open(os.path.join(SRC, "README.md")) as f:
        readme = readme_options(f.read())
    with open(os.path.join(SRC, "doc", "fenbridge.6")) as f:
        man = man_options(f.read())
    for where, opts in (("README.md", readme), ("doc/fenbridge.6", man)):
        for spec, text in sorted(helped.items()):
            check(spec in opts, "%s lacks %s (as in --help)" % (where, spec))
            if spec in opts:
                eq(default_of(opts[spec]), default_of(text),
                   "default of %s in %s" % (spec, where))
        for spec in sorted(opts):
            check(spec in helped, "%s lists %s, --help does not"
                  % (where, spec))
    # The config file's keys that are not options are documented too: in
    # the man page, and with an example where the user documentation
    # describes the config file (doc/protocols.md; the README may show one).
    keys = re.findall(r"^  ([a-z0-9.-]+) = ", out.decode(), re.M)
    check(keys, "--help names no config-file key")
    for key in keys:
        # the man page writes - as \-
        pattern = "".join(r"\\?-" if ch == "-" else re.escape(ch)
                          for ch in key)
        for where in (("doc/fenbridge.6",), ("README.md", "doc/protocols.md")):
            found = False
            for name in where:
                with open(os.path.join(SRC, name)) as f:
                    found = found or bool(re.search(
                        r"^%s = " % pattern, f.read(), re.M))
            check(found, "%s has no example of key %s"
                  % (" or ".join(where), key))


def subcommand_docs_agree(cmd, doc, section):
    """cmd --help, the options table under doc's '## Usage' and the man
    page's section list the same options, with the same defaults."""
    rc, out, err = fbtest.run(fbtest.cmd(cmd, "--help"))
    eq(rc, 0, "%s --help" % cmd)
    helped = help_options(out.decode())
    with open(os.path.join(SRC, "doc", doc)) as f:
        text = f.read()
    readme = readme_options("\n## Usage\n" + text.split("\n## Usage\n")[-1])
    with open(os.path.join(SRC, "doc", "fenbridge.6")) as f:
        text = f.read().split("\n.SH %s\n" % section, 1)[1]
    man = man_options("\n.SH OPTIONS\n" + text.split("\n.SH ", 1)[0])
    man["-h,--help"] = helped.get("-h, --help", "")  # under OPTIONS
    for where, opts in (("doc/" + doc, readme), ("doc/fenbridge.6", man)):
        opts = {k.replace(",", ", ").replace(",  ", ", "): v
                for k, v in opts.items()}
        for spec, text in sorted(helped.items()):
            check(spec in opts, "%s lacks %s's %s" % (where, cmd, spec))
            if spec in opts:
                eq(default_of(opts[spec]), default_of(text),
                   "default of %s's %s in %s" % (cmd, spec, where))
        for spec in sorted(opts):
            check(spec in helped, "%s lists %s's %s, --help does not"
                  % (where, cmd, spec))


@test()
def check_help_readme_and_man_agree(ctx):
    subcommand_docs_agree("check", "check.md", "CHECKING AN ENGINE")


@test()
def replay_help_doc_and_man_agree(ctx):
    subcommand_docs_agree("replay", "replay.md", "REPLAYING A RECORD")

if __name__ == "__main__":
    fbtest.main()
