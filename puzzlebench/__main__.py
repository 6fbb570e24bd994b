"""``python -m puzzlebench``: the ``puzzlebench`` command (as ``python -m puzzlebench.cli``)."""

import sys

from .cli import main

sys.exit(main())
