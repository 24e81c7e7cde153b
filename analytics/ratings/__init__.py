"""Ratings: OpenSkill ratings replayed over a group's finished matches (``replay``), how sure each rating is
and how well the ratings have predicted the group's own results (``doubt``), and the ratings API (``api``).

May import the scoring app's lower layers and ``analytics.models``.
"""
