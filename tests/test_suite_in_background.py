"""The suite started as a background job: a script's ``nohup python -m pytest -q -n 2 &`` runs it
with SIGINT ignored (a shell without job control leaves it so for its background jobs), and
every command the tests start inherits that.  A test that sends a Ctrl-C to itself or to its
command sets the disposition first (the ``sigint_handled`` fixture); one that did not counted
an empty grid for good, its signal ignored, and the suite never finished.
"""

import os
import subprocess
import sys

import pytest

from conftest import REPO

SENDERS = [
    "tests/engines/test_columns.py::test_a_ctrl_c_keeps_the_columns_answered_before_it",
    "tests/cli/test_interrupt.py::test_a_native_batch_stopped_by_ctrl_c_keeps_the_puzzles_answered_before",
]
HANG_GUARD = 240   # seconds: the two take a few; without their Ctrl-C they never end

# SIGINT ignored, then pytest in its place: what a background job of a script starts with
IGNORING = ("import os, signal, sys\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "os.execv(sys.executable, [sys.executable, '-m', 'pytest', *sys.argv[1:]])\n")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "execv"), reason="starts pytest in place of a process")
def test_the_tests_that_send_a_ctrl_c_pass_in_a_suite_that_ignores_sigint():
    try:
        done = subprocess.run([sys.executable, "-c", IGNORING, "-q", "-p", "no:cacheprovider", *SENDERS],
                              cwd=REPO, capture_output=True, text=True, timeout=HANG_GUARD,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    except subprocess.TimeoutExpired:
        pytest.fail(f"the tests that send a Ctrl-C ran for {HANG_GUARD} s with SIGINT ignored")
    assert done.returncode == 0 and "4 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
