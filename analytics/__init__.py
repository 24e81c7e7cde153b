"""The statistics app: standings, ratings and records kept by Celery jobs from the scoring tables, the dashboards
and game nights drawn from them.

``services`` (refresh, rebuild, scheduling: what the worker runs) over ``sql`` (aggregation) and ``models``;
``ratings``, ``records`` and ``nights`` each own a concern end to end; ``drawing`` turns rows into figures;
``views``, ``apis`` and ``urls`` serve them. Imports the scoring app's lower layers (models, selectors, services,
text, rules) and never the pages (``frontend``).
"""
