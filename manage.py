#!/usr/bin/env python
"""Django's command-line utility for Scorekeeper."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as exc:
        # One clear line instead of a traceback: the usual cause is a wrong DATABASE_URL.
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        sys.stderr.write(f"config error: DATABASE_URL: cannot use the database ({first})\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
