"""What issue 47 derives beside the standings and ratings, kept up to date in the same step of the worker: the
group's records per game (``analytics.records.book``) and how far each game's ratings can be trusted
(``analytics.ratings.doubt``). Both are recomputed for exactly the games whose standings or ratings were rewritten."""

from __future__ import annotations

from collections.abc import Iterable

from analytics.ratings.doubt import Backtests, trust_refresh
from analytics.records.book import records_refresh


def stats_extras_refresh(
    *, group_id: int, rulesets: Iterable[str] | None = None, backtests: Backtests | None = None
) -> None:
    """Recompute the records and the rating trust of these games of the group (None: of all its games);
    ``backtests``: what the ratings' replay from scratch predicted on the way (the rebuild), not replayed again."""
    games = None if rulesets is None else sorted(set(rulesets))
    records_refresh(group_id=group_id, rulesets=games)
    trust_refresh(group_id=group_id, rulesets=games, tallies=backtests.tallies if backtests else None)
