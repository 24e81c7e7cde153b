"""The pages: Django templates with htmx and a little JavaScript for phones at the table (``views/`` one module
per area, ``entry/`` the round-entry forms, ``templates/``, ``static/``). Holds no rules: every write goes through
``scoring.services`` and every read through ``scoring.selectors``.
"""
