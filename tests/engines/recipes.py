# SPDX-License-Identifier: MIT
"""The tested recipes of doc/gui-recipes.md, read from the document itself
so that what users copy is what the tests run: each is the fenced block
after a `<!-- recipe: NAME -->` line."""

import os
import re
import shlex

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "doc", "gui-recipes.md")
FENBRIDGE = "/usr/games/fenbridge"      # the documented path of fenbridge


def block(name, doc=DOC):
    """The text of the fenced block marked `<!-- recipe: name -->`."""
    with open(doc) as f:
        text = f.read()
    m = re.search(r"^<!-- recipe: %s -->\n```[a-z]*\n(.*?)^```$"
                  % re.escape(name), text, re.M | re.S)
    if m is None:
        raise ValueError("%s: no recipe block %r" % (doc, name))
    return m.group(1)


def words(name, doc=DOC):
    """A shell command block split into words as a shell would (line
    continuations joined)."""
    return shlex.split(block(name, doc).replace("\\\n", " "))


def engines(argv):
    """The `-engine` groups of a cutechess-cli or fastchess command line:
    a list of [(key, value), ...] in order."""
    out = []
    for w in argv:
        if w == "-engine":
            out.append([])
        elif w.startswith("-"):
            if out and out[-1] is not None:
                out.append(None)            # a non-engine option ends it
        elif out and out[-1] is not None and "=" in w:
            k, _, v = w.partition("=")
            out[-1].append((k, v))
    return [e for e in out if e is not None]


def fenbridge_argv(cmd, args, fenbridge):
    """The documented fenbridge command (cmd, args) with the path of the
    fenbridge under test in place of the documented one."""
    if cmd != FENBRIDGE:
        raise ValueError("the recipe starts %r, not %s" % (cmd, FENBRIDGE))
    return [fenbridge] + list(args)
