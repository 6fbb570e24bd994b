"""The ``puzzlebench`` command.

Every module named in :data:`COMMAND_MODULES` adds its sub-commands with
``register(subparsers)``, each sub-parser setting ``func`` to a function ``(args) -> exit
code``; :mod:`.common` holds what they share (the exit codes, the input records, the error
lines).  A command line loads its command's module only (``puzzlebench solve`` starts in
half the time); ``--help``, or a name no module claims, loads them all.  A user's mistake is
a message, never a traceback; so is a write the system refuses (a full disk:
``puzzlebench: cannot write WHERE: reason``, exit 1).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys

from ..runtime.interrupts import ctrl_c_ends_the_command, ctrl_c_kept, is_interrupt

COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "puzzlebench.cli.puzzles": ("solve", "count", "check", "show", "solvers"),
    "puzzlebench.cli.bench": ("bench",),
    "puzzlebench.cli.report": ("report",),
    "puzzlebench.cli.generate": ("generate",),
    "puzzlebench.cli.export": ("export", "solve-xc"),
    "puzzlebench.cli.cnf": ("solve-cnf",),
    "puzzlebench.cli.check_proof": ("check-proof",),
    "puzzlebench.cli.decode": ("decode",),
    "puzzlebench.cli.smt": ("solve-smt2",),
    "puzzlebench.cli.rate": ("rate",),
    "puzzlebench.cli.db": ("db",),
}
"""Each command module and the sub-commands it registers, in the order of ``--help``."""


class _Formatter(argparse.HelpFormatter):
    def _get_help_string(self, action):   # a checked number's bounds, in its help
        from ..options import Checked
        text = action.help or ""
        if isinstance(action.type, Checked) and action.type.bounds:
            text += f" [{action.type.bounds}]"
        return text


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):  # argparse's own usage errors: one line and exit 2, as ours
        from .common import EXIT_USAGE
        self.exit(EXIT_USAGE, f"puzzlebench: error: {message} (see {self.prog} --help)\n")

    def _get_value(self, action, arg_string):
        """A checked number read with its option's name: its mistake is one UsageError line
        (``--limit 10**23: not a whole number``), raised out of ``parse_args``."""
        from ..options import Checked
        if isinstance(action.type, Checked):
            return action.type.read(arg_string, action.option_strings[-1] if action.option_strings
                                    else action.metavar or action.dest)
        return super()._get_value(action, arg_string)


def _modules_for(argv: list[str] | None) -> list[str]:
    """The command modules a command line needs: the one that registers its first word, or all
    of them (``--help``, ``--version``, a mistyped name: argparse then lists every choice)."""
    words = sys.argv[1:] if argv is None else argv
    if words and not words[0].startswith("-"):
        for name, commands in COMMAND_MODULES.items():
            if words[0] in commands:
                return [name]
    return list(COMMAND_MODULES)


def build_parser(modules: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the commands of ``modules`` (every command module when None)."""
    parser = _Parser(prog="puzzlebench", description="One puzzle model, every solver paradigm, side by side: "
                     "solve, count, check, export, benchmark and rate puzzles.")
    import puzzlebench   # the package, the API's layer (its __version__)
    parser.add_argument("--version", action="version", version=f"puzzlebench {puzzlebench.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES if modules is None else modules:
        importlib.import_module(name).register(sub)
    for action in sub._choices_actions:   # a command's --help opens with its one-line help
        command = sub.choices[action.dest]
        command.description = command.description or action.help[0].upper() + action.help[1:] + "."
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command: its exit code; a user's mistake one line and 2, a Ctrl-C at any moment
    one line and 130.  Nothing heavy is imported before the Ctrl-C is held: the commands load
    under :func:`~puzzlebench.runtime.interrupts.ctrl_c_kept`, which raises after the imports
    what came during them."""
    try:
        with ctrl_c_kept():
            parser = build_parser(_modules_for(argv))
        with ctrl_c_ends_the_command():
            return _run(parser, argv)
    except KeyboardInterrupt:
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if not is_interrupt(exc):   # PySAT's own error for a Ctrl-C inside a solve
            raise
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130


def _run(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    from ..errors import PuzzlebenchError
    from ..outputs import WriteFailed, guarded_stdout
    from .common import EXIT_CLOSED_PIPE, EXIT_SOME_ERRORS, EXIT_USAGE
    try:
        args = parser.parse_args(argv)
    except PuzzlebenchError as exc:   # a checked number (puzzlebench.options)
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        with guarded_stdout():
            return args.func(args)
    except PuzzlebenchError as exc:
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except WriteFailed as exc:
        if exc.errno == errno.EPIPE:   # the reader stopped reading (`| head -1`): said by its exit code alone
            return EXIT_CLOSED_PIPE
        print(f"puzzlebench: {exc}", file=sys.stderr)
        return EXIT_SOME_ERRORS


if __name__ == "__main__":
    sys.exit(main())
