"""The round-entry forms: one adapter per game turning a form into the rules engine's facts and back
(``base``, ``games``, ``counting`` for the counting games' quick and full entries), the form's context
(``forms``), its number fields (``fields``), what is still required (``required``), error marks (``marks``), the
seating and turns shown beside it (``seating``, ``turns``), option labels in words (``labels``) and the conflict
panel of a form whose round was saved elsewhere (``conflict``).

Holds no rules: the engine validates and scores. May import ``scoring.rules``, ``scoring.selectors``,
``scoring.services`` and ``scoring.text``; imported by ``frontend.views``.
"""
