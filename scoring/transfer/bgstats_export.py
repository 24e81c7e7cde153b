"""A group's finished matches as a BG Stats backup (``scoring.transfer.bgstats`` describes the format): one play per
finished match, totals-only or not, with each player's final score, the winners and the seat order.

Every uuid is stable: a play imported from BG Stats keeps its own; any other match gets one derived from the
group and the match, which the importer recognises (``bgstats_known_uuids``), so the file imported back into
the same group adds nothing, and into another group gives the same matches.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils import timezone

from scoring import rules
from scoring.models import BgStatsPlay, Group, Match, Score, Seat
from scoring.rules.types import best_seats
from scoring.transfer import bgstats


def _totals(matches: list[Match]) -> dict[int, dict[int, int]]:
    """match id -> seat -> final points (the stored totals of a totals-only match, else its live rounds')."""
    out: dict[int, dict[int, int]] = {m.pk: dict(enumerate(m.totals or [])) for m in matches if m.totals_only}
    rows = (
        Score.objects.filter(match__in=[m.pk for m in matches if not m.totals_only], round__deleted_at__isnull=True)
        .values("match_id", "seat")
        .annotate(points=Sum("points"))
    )
    for row in rows:
        out.setdefault(row["match_id"], {})[row["seat"]] = row["points"] or 0
    return out


def bgstats_export(*, group: Group) -> dict[str, Any]:
    """The BG Stats backup of ``group``'s finished matches of our games."""
    matches = list(
        Match.objects.filter(group=group, state=Match.State.FINISHED, ruleset__in=rules.KEYS).order_by(
            "created_at", "pk"
        )
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match__in=matches).select_related("player").order_by("number"):
        seats.setdefault(seat.match_id, []).append(seat)
    imported = dict(BgStatsPlay.objects.filter(match__in=matches).values_list("match_id", "uuid"))
    totals = _totals(matches)
    game_ids = {key: n for n, key in enumerate(rules.KEYS, start=1)}
    player_ids: dict[int, int] = {}
    players: list[dict[str, Any]] = []
    plays = []
    for match in matches:
        scores = []
        points = totals.get(match.pk, {})
        # no winners named by the rules (a match finished by hand): the best totals win
        winners = match.winners or best_seats([points.get(n, 0) for n in range(len(seats.get(match.pk, [])))])
        for seat in seats.get(match.pk, []):
            if seat.player_id not in player_ids:
                player_ids[seat.player_id] = len(player_ids) + 1
                players.append(
                    {
                        "id": player_ids[seat.player_id],
                        "uuid": bgstats.derived_uuid("player", group.pk, seat.player_id),
                        "name": seat.player.name,
                        "isAnonymous": False,
                    }
                )
            scores.append(
                {
                    "playerRefId": player_ids[seat.player_id],
                    "score": str(points.get(seat.number, 0)),
                    "winner": seat.number in winners,
                    "seatOrder": seat.number + 1,
                    "startPlayer": seat.number == 0,
                    "newPlayer": False,
                    "rank": 0,
                }
            )
        played = match.created_at if match.totals_only else (match.finished_at or match.created_at)
        plays.append(
            {
                "uuid": imported.get(match.pk) or bgstats.derived_uuid("match", group.pk, match.pk),
                "gameRefId": game_ids[match.ruleset],
                "playDate": timezone.localtime(played).strftime(bgstats.DATE_FORMAT),
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "playerScores": scores,
            }
        )
    used = {m.ruleset for m in matches}
    games = [
        {
            "id": game_ids[key],
            "uuid": bgstats.derived_uuid("game", key),
            "name": rules.get(key).name,
            "bggName": bgstats.GAMES[key][1][0],
            "bggId": bgstats.GAMES[key][0] or 0,
            "cooperative": False,
            "highestWins": True,
            "noPoints": False,
        }
        for key in rules.KEYS
        if key in used
    ]
    return {"players": players, "games": games, "plays": plays, "locations": []}
