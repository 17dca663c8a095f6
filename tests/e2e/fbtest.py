# SPDX-License-Identifier: MIT
"""A small harness for fenbridge's end-to-end tests (standard library only).

Each test file registers functions with @test(timeout=...) and ends with
fbtest.main(), which takes the paths of the built binaries from argv:

    test_X.py FENBRIDGE FAKE_ENGINE [TEST_NAME...]

Every test gets its own temporary directory (a Ctx), a hard timeout
(SIGALRM), and a cleanup that kills whatever it started and is still running:
fenbridge, and the fake engine behind it (its pid comes from its events
file). The directory is kept, and its path printed, when a test fails. The
last line printed is the summary "N passed, M failed".

Tests wait for answers, not for clocks: expect(), rest(), wait(),
wait_for() and run() return as soon as what they wait for is there; their
timeout is only how long to wait before calling it a failure, and it is
multiplied by WAIT. A test asserts no upper bound on how long something
took (a loaded machine is slow, not wrong); a lower bound (a deadline that
must not fire early) is fine.

Environment (meson's test setup valgrinde2e sets the first two):
  FENBRIDGE_WRAPPER  a command put before fenbridge (valgrind ...); every
                     timeout is then 10 times longer and RSS is not checked
  FB_TEST_SCALE      a factor for the big counts (floods, bursts); default 1
  FB_TEST_WAIT       a factor for every deadline (and each test's hard
                     timeout); default 3, for a loaded machine; raise it on
                     a slower one
"""

import os
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

FENBRIDGE = None
FAKE = None
WRAPPER = shlex.split(os.environ.get("FENBRIDGE_WRAPPER", ""))
SCALE = float(os.environ.get("FB_TEST_SCALE", "1"))
SLOW = 10 if WRAPPER else 1  # fenbridge runs this much slower
# The factor for every deadline: how long to wait for an answer before the
# test fails (answers that come are taken at once).
WAIT = SLOW * float(os.environ.get("FB_TEST_WAIT", "3"))
_tests = []


def scale(n):
    """n scaled by FB_TEST_SCALE (at least 1)."""
    return max(1, int(n * SCALE))


def cmd(*args):
    """The command line that runs fenbridge with args."""
    return WRAPPER + [FENBRIDGE] + list(args)


class TestTimeout(Exception):
    pass


def test(timeout=10):
    """Registers the decorated function fn(ctx) as a test."""
    def register(fn):
        _tests.append((fn, timeout))
        return fn
    return register


def show(data, limit=200):
    """A short printable form of bytes for failure messages."""
    if len(data) > limit:
        return repr(data[:limit // 2]) + " ... " + repr(data[-limit // 2:]) + \
            " (%d bytes)" % len(data)
    return repr(data)


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def eq(got, want, what):
    """Asserts got == want; for bytes, names the first differing offset."""
    if got == want:
        return
    if isinstance(got, (bytes, bytearray)) and isinstance(want, (bytes, bytearray)):
        i = 0
        n = min(len(got), len(want))
        while i < n and got[i] == want[i]:
            i += 1
        lo = max(0, i - 40)
        raise AssertionError(
            "%s: differs at byte %d of %d (want %d)\n  got:  %s\n  want: %s"
            % (what, i, len(got), len(want), show(bytes(got[lo:i + 60])),
               show(bytes(want[lo:i + 60]))))
    raise AssertionError("%s:\n  got:  %r\n  want: %r" % (what, got, want))


def wait_for(pred, timeout, what):
    """Polls pred() until it is true; fails after timeout seconds."""
    end = time.monotonic() + timeout * WAIT
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError("timed out after %.1f s waiting for %s"
                                 % (timeout * WAIT, what))
        time.sleep(0.01)


def pid_alive(pid):
    """True if pid runs and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2:][:1] not in (b"Z", b"X")


def proc_status(pid):
    """The fields of /proc/PID/status as a dict of strings."""
    with open("/proc/%d/status" % pid) as f:
        return dict(line.split(":", 1) for line in f if ":" in line)


class Ctx:
    """One test's temporary directory and the processes it started."""

    def __init__(self, name):
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="fb-e2e-%s-" % name)
        self.bridges = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def bridge(self, opts=(), engine_opts=(), engine=None, name="engine",
               argv=None, cwd=None, record=None, events=None):
        """fenbridge OPTS -- fake engine; or, with argv, that command line
        (a config file names the engine), reading the fake engine's record
        and events from the given paths."""
        b = Bridge(self, opts, engine_opts, engine, name, argv, cwd, record,
                   events)
        self.bridges.append(b)
        return b

    def cleanup(self, keep):
        for b in self.bridges:
            b.kill()
        if keep:
            print("    (kept %s)" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


class Bridge:
    """fenbridge with the fake engine behind it, on pipes. stdout is read on
    demand (a test may stop reading it); stderr is drained by a thread so
    fenbridge never blocks on it."""

    def __init__(self, ctx, opts, engine_opts, engine, name, argv=None,
                 cwd=None, record=None, events=None):
        self.record = record or ctx.path(name + ".rec")
        self.events_path = events or ctx.path(name + ".events")
        if engine is None:
            engine = [FAKE, "--events=" + self.events_path] + \
                list(engine_opts) + [self.record]
        self.argv = WRAPPER + argv if argv else cmd(*opts, "--", *engine)
        # A flight record (written when the engine dies) goes to the
        # temporary folder when there is no log or config file: the test's.
        self.p = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, bufsize=0,
                                  cwd=cwd or ctx.dir,
                                  env=dict(os.environ, TMPDIR=ctx.dir))
        self.out = bytearray()
        self.pos = 0  # what expect() has handed out
        self.eof = False
        self._err = bytearray()
        self._err_thread = threading.Thread(target=self._drain_err,
                                            daemon=True)
        self._err_thread.start()

    def _drain_err(self):
        while True:
            data = os.read(self.p.stderr.fileno(), 65536)
            if not data:
                return
            self._err += data

    @property
    def pid(self):
        return self.p.pid

    def send(self, data):
        view = memoryview(data)
        while view:
            view = view[os.write(self.p.stdin.fileno(), view):]

    def send_in_thread(self, data):
        """Sends data from a thread, for when the test must read meanwhile
        (the pipes hold only so much); returns the thread."""
        t = threading.Thread(target=self.send, args=(data,), daemon=True)
        t.start()
        return t

    def close_stdin(self):
        if not self.p.stdin.closed:
            self.p.stdin.close()

    def _read(self, deadline):
        """Reads what stdout has, waiting until deadline. False at EOF."""
        if self.eof:
            return False
        fd = self.p.stdout.fileno()
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("timed out reading fenbridge's stdout; "
                                 "got so far: " + show(bytes(self.out[self.pos:])))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            data = os.read(fd, 1 << 20)
            if not data:
                self.eof = True
                return False
            self.out += data
        return True

    def expect(self, needle, timeout=5):
        """Returns the unread output up to and including needle."""
        deadline = time.monotonic() + timeout * WAIT
        start = self.pos
        while True:
            i = self.out.find(needle, start)
            if i >= 0:
                chunk = bytes(self.out[self.pos:i + len(needle)])
                self.pos = i + len(needle)
                return chunk
            start = max(self.pos, len(self.out) - len(needle) + 1)
            if not self._read(deadline):
                raise AssertionError("EOF before %r; got: %s" % (
                    needle, show(bytes(self.out[self.pos:]))))

    def rest(self, timeout=5):
        """Reads stdout to EOF; returns the unread output."""
        deadline = time.monotonic() + timeout * WAIT
        while self._read(deadline):
            pass
        chunk = bytes(self.out[self.pos:])
        self.pos = len(self.out)
        return chunk

    def wait(self, timeout=5):
        """Reads stdout to EOF, waits for exit; returns (status, rest)."""
        rest = self.rest(timeout)
        timeout *= WAIT
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("fenbridge did not exit within %.1f s"
                                 % timeout)
        self._err_thread.join(timeout)
        return rc, rest

    def stderr(self):
        return bytes(self._err)

    def recorded(self):
        """The bytes the fake engine received so far."""
        try:
            with open(self.record, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""

    def events(self):
        try:
            with open(self.events_path) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def engine_pid(self):
        for e in self.events():
            if e.startswith("pid "):
                return int(e[4:])
        return None

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        # Every start of the engine (fenbridge may start it again).
        for e in self.events():
            pid = int(e[4:]) if e.startswith("pid ") else None
            if pid is None or not pid_alive(pid):
                continue
            try:
                with open("/proc/%d/cmdline" % pid, "rb") as f:
                    if b"fake_engine" in f.read():
                        os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for f in (self.p.stdin, self.p.stdout):
            try:
                f.close()
            except OSError:
                pass


def run(argv, stdin=b"", timeout=5, cwd=None):
    """Runs argv to completion; returns (status, stdout, stderr)."""
    p = subprocess.run(argv, input=stdin, capture_output=True,
                       timeout=timeout * WAIT, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def _on_alarm(signum, frame):
    raise TestTimeout("hard timeout")


def main():
    global FENBRIDGE, FAKE
    if len(sys.argv) < 3:
        sys.exit("usage: %s FENBRIDGE FAKE_ENGINE [TEST...]" % sys.argv[0])
    FENBRIDGE = os.path.abspath(sys.argv[1])
    FAKE = os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    signal.signal(signal.SIGALRM, _on_alarm)
    passed = failed = 0
    for fn, timeout in _tests:
        if only and fn.__name__ not in only:
            continue
        ctx = Ctx(fn.__name__)
        t0 = time.monotonic()
        ok = False
        signal.setitimer(signal.ITIMER_REAL, timeout * WAIT)
        try:
            fn(ctx)
            ok = True
        except TestTimeout:
            print("FAIL %s: hard timeout of %g s"
                  % (fn.__name__, timeout * WAIT))
        except Exception:
            print("FAIL %s:" % fn.__name__)
            traceback.print_exc(file=sys.stdout)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if not ok:
            for b in ctx.bridges:
                err = b.stderr()
                if err:
                    print("    fenbridge's stderr: " + show(err, 2000))
        ctx.cleanup(keep=not ok)
        if ok:
            passed += 1
            print("ok   %s (%.2f s)" % (fn.__name__, time.monotonic() - t0))
        else:
            failed += 1
        sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or passed == 0 else 0)
