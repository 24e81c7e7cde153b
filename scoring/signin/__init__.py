"""Protection of signing in: failed log-ins, sign-ups and password resets counted per account and per client
address (``limits``), and usernames that cannot pass for another (``usernames``).

May import ``scoring.models`` and ``scoring.text``; imported by the API, the pages and the throttles.
"""
