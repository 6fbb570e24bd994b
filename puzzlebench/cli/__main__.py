"""``python -m puzzlebench.cli``: the ``puzzlebench`` command."""

import sys

from . import main

sys.exit(main())
