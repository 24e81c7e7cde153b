"""Records worth a cheer: each group's record book per game (``book``, kept by the worker), what the board
says when a round sets or nears a record (``news``), and the records page and API (``views``).

May import the scoring app's lower layers and ``analytics.models``.
"""
