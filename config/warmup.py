"""Loading, at start-up, what Django otherwise loads on a process's first request.

Django imports the URLconf (and with it every view, serializer, DRF and the schema generator) and the language
catalogs lazily, on the first request a process serves: about 300 ms of CPU.  gunicorn forks its workers from a
master that imported the app, but the workers then each paid it again on their first request.  Under a rising load
the idle workers got their first requests together, and the round writes of the whole stack stalled for up to 2 s
while six workers imported (measured on ``make prod-up`` at 50 rounds/s; ``tests/benchmarks/RESULTS.md``).  Done
once in the master, the workers inherit it copy-on-write.

Opens no connection (to the database, Redis or the broker): a socket opened in the master would be shared by every
forked worker.
"""

from __future__ import annotations


def warm_up() -> None:
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils.translation import trans_real

    get_resolver().url_patterns  # noqa: B018 (the property imports the URLconf and every module it names)
    for code, _name in settings.LANGUAGES:
        trans_real.translation(code)  # the language's catalogs, merged from every app
