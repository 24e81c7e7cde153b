"""Ratings that show their doubt (issue 47 part 4): how sure each rating is, in words, and how well the ratings
have predicted this group's own results so far.

- A rating is *provisional* until its player has ``PROVISIONAL_BELOW`` rated matches of the game.
- Its uncertainty is OpenSkill's σ: the skill is likely (about 95 %) within μ ± 2σ, and σ in words says how much
  the ratings know yet (σ starts at 25/3 ≈ 8.3 and shrinks slowly with every match; see ``CERTAINTY``).
- The backtest replays the group's history of a game: before each rated match it predicts, for every two sides
  with different results, the chance that the first finishes ahead (OpenSkill's ``predict_win`` from the ratings
  just before the match), then scores the prediction against what happened: the share of pairs put in the right
  order (a 50:50 call counts half) and the Brier score (mean squared error of the chances; lower is better). A
  coin flip gets 50 % and 0.25.

The worker keeps each game's figures in ``RatingTrust`` beside the ratings it replays, so pages and the API read
one row per game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from analytics.models import MatchStanding, RatingHistory, RatingTrust
from analytics.ratings.replay import MODEL, sides_of

RH = RatingHistory._meta.db_table
ST = MatchStanding._meta.db_table

PROVISIONAL_BELOW = 5  # rated matches
COIN_FLIP = {"correct_share": 0.5, "brier": 0.25}

# σ at or above the bound -> the words (the first bound that fits)
CERTAINTY: tuple[tuple[float, str, Any], ...] = (
    (7.5, "guess", _("a first guess")),
    (6.0, "rough", _("rough")),
    (4.5, "fair", _("fairly sure")),
    (0.0, "settled", _("well established")),
)


def certainty(sigma: float) -> tuple[str, Any]:
    """How sure a rating with uncertainty ``sigma`` is: a key and its words."""
    for bound, key, words in CERTAINTY:
        if sigma >= bound:
            return key, words
    return CERTAINTY[-1][1], CERTAINTY[-1][2]


def likely_range(mu: float, sigma: float) -> tuple[float, float]:
    """Where the skill likely (about 95 %) lies: μ ± 2σ."""
    return round(mu - 2 * sigma, 1), round(mu + 2 * sigma, 1)


def doubt_of(*, mu: float, sigma: float, rated: int) -> dict[str, Any]:
    key, words = certainty(sigma)
    low, high = likely_range(mu, sigma)
    return {"provisional": rated < PROVISIONAL_BELOW, "certainty": key, "words": words, "low": low, "high": high}


# --- the backtest (pure) -----------------------------------------------------------------------------------------


@dataclass
class Tally:
    matches: int = 0  # matches with at least one pair predicted
    pairs: int = 0
    correct: float = 0.0  # right order: 1, a 50:50 call: 0.5
    brier: float = 0.0  # summed squared errors

    def add_match(self, chances: Sequence[tuple[float, int]]) -> None:
        """One match's predictions: ``(chance that the first side finishes ahead, 1 if it did else 0)``."""
        if not chances:
            return
        self.matches += 1
        for chance, outcome in chances:
            self.pairs += 1
            self.correct += 0.5 if chance == 0.5 else float((chance > 0.5) == (outcome == 1))
            self.brier += (chance - outcome) ** 2

    def summary(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "pairs": self.pairs,
            "correct_share": round(self.correct / self.pairs, 4) if self.pairs else None,
            "brier": round(self.brier / self.pairs, 4) if self.pairs else None,
            "coin_flip": dict(COIN_FLIP),
        }


def pair_chances(
    teams: Sequence[Sequence[Any]], ranks: Sequence[float], predict: Callable[[list[list[Any]]], list[float]]
) -> list[tuple[float, int]]:
    """For every two sides with different ranks (1 = best): the predicted chance that the first is ahead, and
    whether it was."""
    out = []
    for i in range(len(teams)):
        for j in range(i + 1, len(teams)):
            if ranks[i] == ranks[j]:
                continue  # a shared place: nobody is ahead, nothing to predict
            chance = float(predict([list(teams[i]), list(teams[j])])[0])
            out.append((chance, 1 if ranks[i] < ranks[j] else 0))
    return out


# one rated match: the sides (player ids), each side's rank, and every player's rating after it as (μ, σ)
Played = tuple[list[list[int]], list[float], dict[int, tuple[float, float]]]


class Backtests:
    """Backtests taken while the ratings are replayed from scratch (the rebuild): ``watch(ruleset)`` is the
    replay's ``before`` hook for one game, and ``tallies`` what each game's replay predicted."""

    def __init__(self) -> None:
        self.tallies: dict[str, Tally] = {}

    def watch(self, ruleset: str) -> Callable[[list[list[Any]], list[float]], None]:
        tally = self.tallies[ruleset] = Tally()

        def before(teams: list[list[Any]], ranks: list[float]) -> None:
            tally.add_match(pair_chances(teams, ranks, MODEL.predict_win))

        return before


def backtest(matches: Iterable[Played]) -> Tally:
    """Replay matches in rating order: ``(sides as player ids, each side's rank, every player's rating after the
    match as (μ, σ))``; each is predicted from the ratings before it (a player's first match from the default)."""
    tally = Tally()
    current: dict[int, Any] = {}
    for sides, ranks, after in matches:
        teams = [[current.get(player) or MODEL.rating() for player in side] for side in sides]
        tally.add_match(pair_chances(teams, ranks, MODEL.predict_win))
        for player, (mu, sigma) in after.items():
            current[player] = MODEL.rating(mu=mu, sigma=sigma)
    return tally


# --- the worker ----------------------------------------------------------------------------------------------------


def _history(group_id: int, ruleset: str) -> Iterable[Played]:
    """The game's rated matches in rating order, with the ratings the replay stored after each: one plain query
    over the rating history beside each player's standing (its partnership), grouped by match here (rows shaped as
    the standings rows ``sides_of`` reads, without the time it does not need)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT h.match_id, NULL, h.player_id, h.rank, s.team, h.mu, h.sigma
            FROM {RH} h JOIN {ST} s ON s.match_id = h.match_id AND s.player_id = h.player_id
            WHERE h.group_id = %s AND h.ruleset = %s
            ORDER BY h.finished_at, h.match_id, s.seat
            """,
            [group_id, ruleset],
        )
        found = cursor.fetchall()
    match: list[tuple[Any, ...]] = []
    for row in [*found, None]:
        if match and (row is None or row[0] != match[0][0]):
            sides = sides_of([r[:5] for r in match])  # every match in the history was rated: two sides or more
            players = [[r[2] for r in side] for side in sides]
            ranks = [float(min(r[3] for r in side)) for side in sides]
            yield players, ranks, {r[2]: (r[5], r[6]) for r in match}
            match = []
        if row is not None:
            match.append(row)


def trust_refresh(
    *, group_id: int, rulesets: Iterable[str] | None = None, tallies: dict[str, Tally] | None = None
) -> int:
    """Recompute the current ratings (with their match counts) and the backtest of these games (None: of every
    game the group has ratings in); ``tallies``: backtests already taken while replaying the ratings from scratch
    (not read again). Returns the rows written."""
    from analytics.sql.queries import ratings_current
    from analytics.stats import ALL

    with transaction.atomic():
        stale = RatingTrust.objects.filter(group_id=group_id)
        if rulesets is None:
            found = RatingHistory.objects.filter(group_id=group_id).order_by().values_list("ruleset", flat=True)
            games = sorted(set(found.distinct()))
        else:
            games = sorted(set(rulesets))
            stale = stale.filter(ruleset__in=games)
        stale.delete()
        rows = []
        for ruleset in games:
            current = ratings_current(group_id, ALL, ruleset=ruleset)
            if not current:
                continue
            taken = (tallies or {}).get(ruleset)
            tally = taken if taken is not None else backtest(_history(group_id, ruleset))
            players = [
                {
                    "player": r["player_id"],
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                    "ordinal": r["ordinal"],
                    "rated": r["rated"],
                }
                for r in current
            ]
            rows.append(
                RatingTrust(
                    group_id=group_id,
                    ruleset=ruleset,
                    players=players,
                    matches=tally.matches,
                    pairs=tally.pairs,
                    correct=tally.correct,
                    brier=tally.brier,
                )
            )
        RatingTrust.objects.bulk_create(rows)
    return len(rows)


def trust_summary(trust: RatingTrust) -> dict[str, Any]:
    tally = Tally(matches=trust.matches, pairs=trust.pairs, correct=trust.correct, brier=trust.brier)
    return tally.summary()
