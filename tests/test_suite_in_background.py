"""The suite started as a background job: a script's ``nohup python -m pytest -q -n 2 &`` runs it
with SIGINT ignored (a shell without job control leaves it so for its background jobs), and
every command the tests start inherits that.  Every test sets the disposition first (the
``sigint_handled`` fixture, for every test); a test that sends a Ctrl-C without it waits on its
command, the signal ignored, until its guard gives up: a count of an empty grid never ends.
"""

import os
import subprocess
import sys

import pytest

from conftest import REPO

SENDERS = [
    "tests/engines/test_columns.py::test_a_ctrl_c_keeps_the_columns_answered_before_it",
    "tests/cli/test_interrupt.py::test_a_native_batch_stopped_by_ctrl_c_keeps_the_puzzles_answered_before",
    "tests/cli/test_outputs.py::test_ctrl_c_keeps_the_puzzles_generate_finished",
    "tests/cli/test_cli_input.py::test_ctrl_c_ends_a_command_waiting_on_standard_input",
]
HANG_GUARD = 240   # seconds: they take a few; without their Ctrl-C some never end

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
    assert done.returncode == 0 and "9 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
