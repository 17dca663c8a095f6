# SPDX-License-Identifier: MIT
"""What this machine's CPU has, read from /proc/cpuinfo (not from
fenbridge), and what fenbridge must therefore say and choose: for the
e2e tests (test_cpu.py) and the Wine suite (fenbridge.exe runs on the same
CPU). Standard library only."""

import os

# cpuinfo's flag -> fenbridge's name, in fenbridge's order
FEATURES = [("sse4_1", "SSE4.1"), ("popcnt", "POPCNT"), ("avx2", "AVX2"),
            ("bmi2", "BMI2"), ("avx512f", "AVX-512F"),
            ("avx512bw", "AVX-512BW"), ("avx512vl", "AVX-512VL")]
# the builds, best first, and the cpuinfo flags each needs
BUILDS = [("avx512", {"avx512f", "avx512bw", "bmi2", "avx2", "popcnt",
                      "sse4_1"}),
          ("bmi2", {"bmi2", "avx2", "popcnt", "sse4_1"}),
          ("avx2", {"avx2", "popcnt", "sse4_1"}),
          ("popcnt", {"popcnt", "sse4_1"})]


def _flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


FLAGS = _flags()
# fenbridge under valgrind (meson's setup valgrinde2e: FENBRIDGE_WRAPPER)
# runs on valgrind's CPU, whose cpuid has no AVX-512 (valgrind 3.19
# emulates up to AVX2 and BMI2).
if "valgrind" in os.environ.get("FENBRIDGE_WRAPPER", ""):
    FLAGS = {f for f in FLAGS if not f.startswith("avx512")}
HAS = [name for flag, name in FEATURES if flag in FLAGS]
RUNS = [b for b, needs in BUILDS if needs <= FLAGS] + ["x86-64"]


def words(names, last):
    """'a', 'b' and 'c' (last: " and " or " or ")."""
    q = ["'%s'" % n for n in names]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + last + q[-1]


def choice(given):
    """The build fenbridge must start when the INI gives these keys
    (names of BUILDS); "plain" for the INI's engine."""
    return next((b for b, needs in BUILDS if b in given and needs <= FLAGS),
                "plain")


def advice():
    """The start of the words after "an illegal instruction" for this
    CPU."""
    if len(HAS) == len(FEATURES):
        return (": this CPU has every feature fenbridge checks (%s), so "
                "this build may need newer ones" % " ".join(HAS))
    lacks = [b for b, needs in BUILDS if not needs <= FLAGS]
    return (": this build of the engine needs instructions this CPU lacks; "
            "use a build for an older CPU: %s, not %s (this CPU: %s"
            % (words(RUNS, " or "), words(lacks, " or "),
               " ".join(HAS) if HAS else "none of"))
