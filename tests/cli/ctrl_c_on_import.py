"""A command module whose import is cut short by a Ctrl-C (test_interrupt.py)."""

raise KeyboardInterrupt
