"""With DEBUG=0 every page names its static files through the manifest ``collectstatic`` writes
(``STATIC_ROOT/staticfiles.json``): without it each ``{% static %}`` raises and every page answers 500.

The WSGI and ASGI entry points refuse to start without it (one ``config error:`` line, exit status 2, like the
settings' own checks; management commands such as ``collectstatic`` itself still run), and ``/healthz`` reports
it, for a process whose manifest went missing or that was started in some other way.
"""

from __future__ import annotations

import sys


def problem() -> str | None:
    """What is wrong with the static manifest this process serves from, or None (fine, or not needed). Names
    no path: /healthz shows it to anybody."""
    from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage

    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None  # DEBUG on: files are served by their own names
    if staticfiles_storage.hashed_files:
        return None
    return "static manifest missing or empty: run `python manage.py collectstatic --noinput`"


def refuse_to_start() -> None:
    """Stop a production server that would answer every page with 500."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    if problem():
        where = staticfiles_storage.manifest_storage.path(staticfiles_storage.manifest_name)
        sys.stderr.write(
            f"config error: STATIC_ROOT: production mode (DEBUG=0) needs the static manifest {where}, which is "
            "missing or empty; run `python manage.py collectstatic --noinput` first\n"
        )
        sys.stderr.flush()
        raise SystemExit(2)
