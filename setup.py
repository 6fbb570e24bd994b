"""Build of the compiled extension ``puzzlebench._native`` (everything else is in pyproject.toml).

Every ``puzzlebench/native/*.c`` file is compiled into the one extension; ``module.c`` asks each
engine's file to register its functions.  Portable optimisation by default (any x86-64); the 9x9
kernel is compiled besides for x86-64-v2 and for x86-64-v2 with BMI2 (``sudoku9_v2.c`` and
``sudoku9_v2_bmi2.c`` include ``sudoku9.c`` under a target pragma) and ``sudoku9_isa.c`` picks the
copy the processor runs at load time, so the portable build uses those instructions where they
are.  Set ``PUZZLEBENCH_NATIVE_ARCH=native`` to add ``-march=native`` for a machine-specific
build.
"""

import glob
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NATIVE = "puzzlebench/native"


def compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    # -falign-functions=64: each function starts on a cache line, so the alignment of its hot
    # loops is its own and not where the linker happens to put it after unrelated edits (the
    # any-shape Sudoku search ran 13% slower, instruction for instruction the same code, after
    # a change in another file; 16x16 Vu puzzles, 400 against 461 puzzles/s)
    args = ["-O3", "-std=c11", "-fno-strict-aliasing", "-Wall", "-Wno-unused-function",
            "-falign-functions=64"]
    arch = os.environ.get("PUZZLEBENCH_NATIVE_ARCH", "")
    if arch:
        args.append(f"-march={arch}")
    if os.environ.get("PUZZLEBENCH_SANITIZE"):
        args += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-O1", "-g"]
    return args


def link_args() -> list[str]:
    if os.environ.get("PUZZLEBENCH_SANITIZE"):
        return ["-fsanitize=address,undefined"]
    return []


class BuildNative(build_ext):
    """Say clearly what is missing when there is no C compiler, instead of a bare traceback;
    compile the sources side by side, one a core (setuptools compiles one extension's sources
    one after another: 15 s for this one, where two cores take 8)."""

    def build_extension(self, ext):
        compile_one = self.compiler.compile

        def compile_all(sources, *args, **kwargs):
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                compiled = pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                return [obj for objects in compiled for obj in objects]
        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one

    def run(self):
        try:
            super().run()
        except Exception as exc:  # setuptools raises several kinds for a missing compiler
            raise SystemExit(
                "puzzlebench: building the compiled extension puzzlebench._native failed.\n"
                "It needs a C compiler (gcc or clang) and the Python headers (python3-dev):\n"
                "  Debian/Ubuntu: apt-get install gcc python3-dev\n"
                f"The error was: {exc}") from exc


setup(
    ext_modules=[Extension(
        "puzzlebench._native",
        sources=sorted(glob.glob(f"{NATIVE}/*.c")),
        depends=sorted(glob.glob(f"{NATIVE}/*.h")),  # a changed header rebuilds every file
        include_dirs=[NATIVE],
        extra_compile_args=compile_args(),
        extra_link_args=link_args(),
    )],
    cmdclass={"build_ext": BuildNative},
)
