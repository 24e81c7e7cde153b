"""Text that people type or read: names (``names``: cleaned, no invisible or direction-changing characters),
numbers as people write them in each language (``numbers``) and names sorted in each language's alphabet
(``collation``).

The lowest layer beside the rules engine: imports nothing of the project but ``scoring.rules``; every other layer
may import it.
"""
