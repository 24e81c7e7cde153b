"""The statistics' SQL: the aggregate queries over the scoring tables (``queries``, ``game_queries``), the
rows a group's dashboards are drawn from and their cache (``grouprows``), a small query builder (``builder``) and
bulk writes of derived rows (``bulk``).

May import ``scoring.models`` and ``analytics.models``; no pages, no drawing.
"""
