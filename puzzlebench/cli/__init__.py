"""The ``puzzlebench`` command.

Every module named in :data:`COMMAND_MODULES` adds its sub-commands with
``register(subparsers)``, each sub-parser setting ``func`` to a function ``(args) -> exit
code``; :mod:`.common` holds what they share (the exit codes, the input records, the error
lines).  A user's mistake is a message, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import PuzzlebenchError
from .common import EXIT_OK, EXIT_USAGE

COMMAND_MODULES: list[str] = [
    "puzzlebench.cli.puzzles",
    "puzzlebench.cli.bench",
    "puzzlebench.cli.export",
    "puzzlebench.cli.cnf",
    "puzzlebench.cli.smt",
    "puzzlebench.cli.rate",
    "puzzlebench.cli.db",
]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors: exit 2, as ours
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"puzzlebench: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzlebench", description="One puzzle model, every solver paradigm, side by side: "
                     "solve, count, check, export, benchmark and rate puzzles.")
    import puzzlebench   # the package, the API's layer (its __version__)
    parser.add_argument("--version", action="version", version=f"puzzlebench {puzzlebench.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for action in sub._choices_actions:   # a command's --help opens with its one-line help
        command = sub.choices[action.dest]
        command.description = command.description or action.help[0].upper() + action.help[1:] + "."
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except PuzzlebenchError as exc:
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        from ..solvers.sat import is_pysat_interrupt
        if not is_pysat_interrupt(exc):
            raise
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
