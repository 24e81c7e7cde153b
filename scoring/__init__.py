"""The scoring app: groups, players, matches, rounds and their history.

Layers, lowest first (``tests/config/test_layers.py`` keeps them): ``rules`` (the pure rules engine, stdlib only),
``text`` (names and numbers as people write them), ``models``, ``selectors`` (every read), ``services`` (every
write); above them ``api`` (the REST API), ``transfer`` (group export/import, CSV, BG Stats), ``signin`` (sign-in
limits, usernames), ``admin``, ``tasks`` and the management commands.
"""
