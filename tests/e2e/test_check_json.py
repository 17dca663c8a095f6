#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`fenbridge check --format=json`: one JSON document that validates against
doc/check.schema.json and says what the text report says (the same steps
with their verdicts and answers, the same findings, the same INI lines, the
same exit status), for the fake engine (every search silent, 24 restarts:
findings; it gives the same verdicts run after run, so its text and JSON
runs can be compared step by step); and, where installed, a document that
validates for Stockfish (UCI, no finding) and Fairy-Max (XBoard without
setboard), whose verdicts are checked in tests/engines/check_engines.py.

The validator below knows the part of JSON Schema the schema file uses
(type, const, enum, required, properties, additionalProperties, items,
minimum) and fails on any other keyword, so the schema cannot say more
than is checked.
"""
import json
import os
import re

import fbtest
from fbtest import check, eq, test

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "doc", "check.schema.json")
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
         "null": type(None), "integer": int}
KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum",
         "required", "properties", "additionalProperties", "items", "minimum"}


def is_type(v, name):
    if name == "integer" and isinstance(v, bool):
        return False
    return isinstance(v, TYPES[name])


def validate(v, s, where="$"):
    """The errors of v against schema s, as a list of strings."""
    unknown = set(s) - KNOWN
    if unknown:
        return ["%s: schema keyword(s) %s not understood" % (where, unknown)]
    errs = []
    if "type" in s:
        names = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, n) for n in names):
            return ["%s: %r is not %s" % (where, v, names)]
    if "const" in s and v != s["const"]:
        errs.append("%s: %r is not %r" % (where, v, s["const"]))
    if "enum" in s and not any(v == e and type(v) is type(e)
                               for e in s["enum"]):
        errs.append("%s: %r not in %r" % (where, v, s["enum"]))
    if "minimum" in s and isinstance(v, int) and v < s["minimum"]:
        errs.append("%s: %r below %r" % (where, v, s["minimum"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: %s missing" % (where, k))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], where + "." + k)
            elif s.get("additionalProperties", True) is False:
                errs.append("%s: %s not in the schema" % (where, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            errs += validate(x, s["items"], "%s[%d]" % (where, i))
    return errs


def text_parts(out):
    """(steps, findings, ini) of a text report: steps as (verdict, rest)."""
    head, _, rest = out.partition("\n\n")
    steps = [tuple(re.match(r"^(\S+) +(.*)$", l).groups())
             for l in rest.split("\n")
             if re.match(r"^(ok|wrong|ILLEGAL|SILENT|DIED|-) +", l)]
    body = out.split("\nfindings: ", 1)[1]
    findings = [l[4:] for l in body.split("\nINI lines to use:\n")[0]
                .split("\n") if l.startswith("  - ")]
    ini = [l for l in body.split("\nINI lines to use:\n", 1)[1].split("\n")
           if l]
    return steps, findings, ini


def document(args, timeout):
    """Runs check --format=json with args: (status, the document), which
    validates against the schema."""
    rc_j, out_j, err = fbtest.run(fbtest.cmd("check", "--format=json", *args),
                                  timeout=timeout)
    try:
        doc = json.loads(out_j.decode())
    except ValueError as e:
        check(False, "not JSON (%s): %r" % (e, out_j[:300]))
    with open(SCHEMA) as f:
        errs = validate(doc, json.load(f))
    check(not errs, "schema: %s" % errs[:5])
    eq(doc["exit"], rc_j, "the document's exit against the status")
    check(all(s["ms"] is not None for s in doc["steps"]
              if s["verdict"] != "-"), "every step run has its time")
    return rc_j, doc


def same_report(args, timeout):
    """Runs check twice (text, JSON) with args; returns the document."""
    rc_t, out_t, err = fbtest.run(fbtest.cmd("check", *args), timeout=timeout)
    rc_j, doc = document(args, timeout)
    eq(rc_j, rc_t, "exit status, json against text")
    steps, findings, ini = text_parts(out_t.decode())
    eq([(s["verdict"], s["what"] + (": " + s["answer"] if s["answer"]
                                    else "")) for s in doc["steps"]],
       steps, "steps, json against text")
    eq(doc["findings"], findings, "findings")
    eq(doc["ini"], ini, "INI lines")
    return doc


@test(timeout=180)
def fake_engine_findings(ctx):
    doc = same_report(["--timeout=2", "--search-timeout=0.3", "--",
                       fbtest.FAKE, ctx.path("rec")], 90)
    eq((doc["engine"], doc["protocol"], doc["restarts"],
        doc["restarts_exhausted"], doc["exit"]),
       ("fake", "uci", 24, True, 1), "the fake engine's run")
    check(doc["findings"] and doc["features"] is None and
          doc["options"] is not None, "findings, options: %r" % doc)


@test(timeout=120)
def no_engine_is_no_document(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("check", "--format=json", "--",
                                         "/nonexistent/x"))
    eq((rc, out), (2, b""), "an engine that cannot start: status 2, no JSON")
    rc, out, err = fbtest.run(fbtest.cmd("check", "--format=yaml", "--", "x"))
    eq((rc, out), (2, b""), "an unknown format")
    check(b"'yaml'" in err, "its message: %r" % err)


@test(timeout=300)
def stockfish(ctx):
    exe = "/usr/games/stockfish"
    if not os.path.exists(exe):
        return
    rc, doc = document(["--", exe], 150)
    eq((doc["protocol"], doc["engine"].split()[0]), ("uci", "Stockfish"),
       "Stockfish's protocol and name")
    check(doc["options"]["UCI_Chess960"] and
          {"mode": "Chess960", "form": "king takes rook", "move": "e1h1"}
          in doc["emits"], "its options and castles: %r" % doc["emits"])


@test(timeout=300)
def fairymax(ctx):
    exe = "/usr/games/fairymax"
    if not os.path.exists(exe):
        return
    rc, doc = document(["--", exe], 150)
    eq((doc["protocol"], doc["options"], doc["features"]["setboard"]),
       ("xboard", None, False), "Fairy-Max: XBoard without setboard")


fbtest.main()
