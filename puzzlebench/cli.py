"""The ``puzzlebench`` command.

Sub-commands live beside what they drive: this file holds the puzzle commands (``solve``,
``count``, ``check``, ``show``, ``solvers``); every module named in :data:`COMMAND_MODULES`
adds its own with ``register(subparsers)``, each sub-parser setting ``func`` to a function
``(args) -> exit code``.

Exit codes: 0 every puzzle processed; 1 some puzzles had errors (the rest were processed);
2 usage error or nothing usable.  A user's mistake is a message, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import PuzzlebenchError

COMMAND_MODULES: list[str] = [
    "puzzlebench.commands",
    "puzzlebench.harness.commands",
    "puzzlebench.encoders.commands",
    "puzzlebench.encoders.cnf_commands",
    "puzzlebench.encoders.smt_commands",
    "puzzlebench.rating.commands",
]

EXIT_OK, EXIT_SOME_ERRORS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors: exit 2, as ours
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"puzzlebench: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzlebench", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
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


if __name__ == "__main__":
    sys.exit(main())
