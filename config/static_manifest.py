"""With DEBUG=0 every page names its static files through the manifest ``collectstatic`` writes
(``STATIC_ROOT/staticfiles.json``): without it each ``{% static %}`` raises and every page answers 500.

The WSGI and ASGI entry points refuse to start without it (one ``config error:`` line, exit status 2, like the
settings' own checks; management commands such as ``collectstatic`` itself still run), and ``/healthz`` reports
it, for a process whose manifest went missing or that was started in some other way.

An out-of-date manifest does the same to the pages that name a file it lacks (an upgrade that added a static file
and skipped ``collectstatic``): every file the static finders know must be in it (a few hundred names, a few
milliseconds).
"""

from __future__ import annotations

import os
import posixpath
import sys
from typing import Any


def problem() -> str | None:
    """What is wrong with the static manifest this process serves from, or None (fine, or not needed). Names
    no path: /healthz shows it to anybody."""
    from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage

    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None  # DEBUG on: files are served by their own names
    if not staticfiles_storage.hashed_files:
        return "static manifest missing or empty: run `python manage.py collectstatic --noinput`"
    missing = _uncollected_once(staticfiles_storage.hashed_files)
    if missing:
        return (
            f"static manifest out of date ({len(missing)} static files not collected): "
            "run `python manage.py collectstatic --noinput`"
        )
    return None


_checked: list[tuple[Any, list[str]]] = []  # (the manifest walked, what it lacked); the reference keeps it alive


def _uncollected_once(manifest: Any) -> list[str]:
    """``uncollected`` for this process's manifest, walked once: the storage reads its manifest when it starts, so
    the answer cannot change while the process runs, and /healthz need not list every static file each time."""
    if not _checked or _checked[0][0] is not manifest:
        _checked[:] = [(manifest, uncollected(manifest))]
    return _checked[0][1]


def uncollected(manifest: Any) -> list[str]:
    """The names of the static files the finders know (what ``collectstatic`` would copy, with its default
    ignore patterns) that ``manifest`` (name -> hashed name) lacks."""
    from django.contrib.staticfiles import finders

    missing: set[str] = set()
    for finder in finders.get_finders():
        for path, source in finder.list(["CVS", ".*", "*~"]):
            prefix = getattr(source, "prefix", None)
            name = posixpath.join(prefix, path) if prefix else path
            name = name.replace(os.sep, "/")
            if name not in manifest:
                missing.add(name)
    return sorted(missing)


def refuse_to_start() -> None:
    """Stop a production server that would answer every page with 500."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    if problem():
        where = staticfiles_storage.manifest_storage.path(staticfiles_storage.manifest_name)
        sys.stderr.write(
            f"config error: STATIC_ROOT: production mode (DEBUG=0) needs the static manifest {where}, which is "
            f"{'missing or empty' if not staticfiles_storage.hashed_files else 'out of date'}; "
            "run `python manage.py collectstatic --noinput` first\n"
        )
        sys.stderr.flush()
        raise SystemExit(2)
