"""The figures of one game night, for its page and its shared image (both draw from :func:`night_report`).

- each match's winners (the derived standings: the rules engine's winners);
- the biggest round: the most points one player scored in one round, with that round's explanation rendered in
  the reader's language (``scoring.selectors.line_render``, as the match board does);
- the upset: the winning side the ratings gave the smallest chance, by openskill's Plackett-Luce ``predict_win``
  on the ratings just before the match (the game's ratings in the group; sides as the ratings rate them);
- each player's rating change (μ − 3σ) per game from before the night's first match of that game to after the last;
- who partnered best: NJET teammates (a round won = the team scored more than the lowest score of the round) and
  MÜ chief + partner (won = the target made), the pair with the best share of rounds won together (more rounds
  together, then more points per round, break ties).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.utils.translation import gettext, ngettext

from scoring import rules
from scoring.models import Player, Round, Seat
from scoring.selectors import line_render

from .models import MatchStanding, RatingHistory
from .nights import Night
from .ratings import MODEL, ratings_before, sides_of


@dataclass
class Pair:
    players: tuple[int, int]
    rounds: int = 0
    won: int = 0
    points: int = 0  # both partners' points summed over the rounds together

    @property
    def share(self) -> float:
        return self.won / self.rounds if self.rounds else 0.0


@dataclass
class NightReport:
    night: Night
    names: dict[int, str]
    matches: list[dict[str, Any]] = field(default_factory=list)
    biggest: dict[str, Any] | None = None
    upset: dict[str, Any] | None = None
    ratings: list[dict[str, Any]] = field(default_factory=list)
    partners: dict[str, Any] | None = None

    @property
    def players(self) -> list[str]:
        return sorted({name for m in self.matches for name in m["players"]})


def names_join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def percent(value: float) -> int:
    return round(value * 100)


def _standings(match_ids: Sequence[int]) -> dict[int, list[MatchStanding]]:
    by_match: dict[int, list[MatchStanding]] = defaultdict(list)
    for row in MatchStanding.objects.filter(match_id__in=match_ids).order_by("match_id", "seat"):
        by_match[row.match_id].append(row)
    return by_match


def _rounds(match_ids: Sequence[int]) -> list[Round]:
    return list(
        Round.objects.filter(match_id__in=match_ids, deleted_at__isnull=True)
        .only("id", "match_id", "number", "facts", "points", "explanation")
        .order_by("match_id", "number")
    )


def night_report(*, night: Night) -> NightReport:
    """Every figure of ``night`` with its texts in the active language."""
    ids = [m.id for m in night.matches]
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in (
        Seat.objects.filter(match_id__in=ids).order_by("match_id", "number").values_list("match_id", "player_id")
    ):
        seats[match_id].append(player_id)
    names = dict(Player.objects.filter(pk__in={p for ps in seats.values() for p in ps}).values_list("id", "name"))
    standings = _standings(ids)
    rounds = _rounds(ids)
    report = NightReport(night=night, names=names)
    for match in night.matches:
        game = rules.get(match.ruleset)
        rows = standings.get(match.id, [])
        report.matches.append(
            {
                "id": match.id,
                "ruleset": match.ruleset,
                "game": game.name,
                "started_at": match.started_at,
                "players": [names[p] for p in seats[match.id]],
                "winners": [names[r.player_id] for r in rows if r.won],
                "rounds": rows[0].rounds if rows else sum(1 for r in rounds if r.match_id == match.id),
            }
        )
    report.biggest = _biggest(rounds, night, seats, names)
    report.upset = _upset(night, standings, names)
    report.ratings = _rating_changes(night, standings, names)
    report.partners = _partners(rounds, night, seats, names)
    return report


def _biggest(
    rounds: Sequence[Round], night: Night, seats: dict[int, list[int]], names: dict[int, str]
) -> dict[str, Any] | None:
    best: tuple[int, Round, int] | None = None
    for rnd in rounds:
        for seat, points in enumerate(rnd.points):
            if best is None or int(points) > best[0]:
                best = (int(points), rnd, seat)
    if best is None:
        return None
    points, rnd, seat = best
    ruleset = next(m.ruleset for m in night.matches if m.id == rnd.match_id)
    game = rules.get(ruleset)
    seat_names = [names[p] for p in seats[rnd.match_id]]
    return {
        "match": rnd.match_id,
        "game": game.name,
        "number": rnd.number,
        "player": seat_names[seat],
        "points": points,
        "text": gettext("%(player)s scored %(points)s in round %(number)s of %(game)s.")
        % {"player": seat_names[seat], "points": points, "number": rnd.number, "game": game.name},
        "lines": _lines_by_player([line_render(game, ln, seat_names) for ln in rnd.explanation], seat),
    }


def _lines_by_player(lines: list[dict[str, Any]], first: int) -> list[dict[str, Any]]:
    """The round's lines as the match board groups them: the general ones, then player by player (the round's top
    scorer first), each labelled with the player's name."""
    general = [ln for ln in lines if ln.get("player") is None]
    own = sorted((ln for ln in lines if ln.get("player") is not None), key=lambda ln: ln["player"] != first)
    return [
        *({**ln, "label": ln["text"]} for ln in general),
        *({**ln, "label": f"{ln['player_name']}: {ln['text']}"} for ln in own),
    ]


def _upset(night: Night, standings: dict[int, list[MatchStanding]], names: dict[int, str]) -> dict[str, Any] | None:
    found: dict[str, Any] | None = None
    for match in night.matches:
        rows = standings.get(match.id, [])
        if len(rows) < 2:
            continue
        key = (rows[0].finished_at, match.id)
        before = ratings_before(group_id=night.group_id, ruleset=match.ruleset, key=key)
        sides = sides_of([(r.match_id, r.finished_at, r.player_id, r.rank, r.team) for r in rows])
        if len(sides) < 2:
            continue
        teams = [[before[row[2]] if row[2] in before else MODEL.rating() for row in side] for side in sides]
        chances = MODEL.predict_win(teams)
        won = {r.player_id for r in rows if r.won}
        for side, chance in zip(sides, chances, strict=True):
            if not any(row[2] in won for row in side):
                continue
            if found is None or chance < found["chance"]:
                winners = [names[row[2]] for row in side]
                found = {"match": match.id, "game": rules.get(match.ruleset).name, "chance": chance, "winners": winners}
    if found is None:
        return None
    found["percent"] = percent(found["chance"])
    found["text"] = ngettext(
        "%(names)s won %(game)s with a %(percent)s %% chance by the ratings before the match.",
        "%(names)s won %(game)s with a %(percent)s %% chance by the ratings before the match.",
        len(found["winners"]),
    ) % {"names": names_join(found["winners"]), "game": found["game"], "percent": found["percent"]}
    return found


def _rating_changes(
    night: Night, standings: dict[int, list[MatchStanding]], names: dict[int, str]
) -> list[dict[str, Any]]:
    """Per player and game: the rating (μ − 3σ) before the night's first match of the game and after its last."""
    first: dict[str, tuple[Any, int]] = {}
    for match in night.matches:
        rows = standings.get(match.id)
        if rows and match.ruleset not in first:
            first[match.ruleset] = (rows[0].finished_at, match.id)
    start = {
        ruleset: ratings_before(group_id=night.group_id, ruleset=ruleset, key=key) for ruleset, key in first.items()
    }
    after: dict[tuple[int, str], float] = {}
    for row in RatingHistory.objects.filter(match_id__in=[m.id for m in night.matches]).order_by(
        "finished_at", "match_id"
    ):
        after[(row.player_id, row.ruleset)] = row.ordinal
    out = []
    for (player_id, ruleset), ordinal in after.items():
        known = start.get(ruleset, {})
        rating = known[player_id] if player_id in known else MODEL.rating()
        was = rating.ordinal()
        out.append(
            {
                "player": names.get(player_id, f"#{player_id}"),
                "game": rules.get(ruleset).name,
                "before": was,
                "after": ordinal,
                "change": ordinal - was,
            }
        )
    return sorted(out, key=lambda r: (r["player"], -r["change"], r["game"]))


def _pairs_of_round(ruleset: str, rnd: Round) -> list[tuple[tuple[int, ...], bool]]:
    """The partnerships of one round (seats) and whether they won it."""
    facts, points = rnd.facts or {}, list(rnd.points)
    if ruleset == "njet":
        teams = facts.get("teams") or []
        low = min(points) if points else 0
        found = []
        for team in set(teams):
            members = [s for s, t in enumerate(teams) if t == team]
            for pair in combinations(members, 2):
                found.append((pair, int(points[pair[0]]) > low))
        return found
    if ruleset == "mue" and facts.get("outcome") == "played":
        made = any(line.get("msg") == "mue.made" for line in rnd.explanation or [])
        return [((int(facts["chief"]), int(facts["partner"])), made)]
    return []


def _partners(
    rounds: Sequence[Round], night: Night, seats: dict[int, list[int]], names: dict[int, str]
) -> dict[str, Any] | None:
    rulesets = {m.id: m.ruleset for m in night.matches}
    pairs: dict[tuple[int, int], Pair] = {}
    for rnd in rounds:
        for pair_seats, won in _pairs_of_round(rulesets[rnd.match_id], rnd):
            players = seats[rnd.match_id]
            a, b = sorted((players[pair_seats[0]], players[pair_seats[1]]))
            pair = pairs.setdefault((a, b), Pair(players=(a, b)))
            pair.rounds += 1
            pair.won += int(won)
            pair.points += int(rnd.points[pair_seats[0]]) + int(rnd.points[pair_seats[1]])
    if not pairs:
        return None
    best = max(
        pairs.values(),
        key=lambda p: (p.share, p.rounds, p.points / p.rounds, [-x for x in p.players]),
    )
    who = names_join([names[best.players[0]], names[best.players[1]]])
    return {
        "names": who,
        "rounds": best.rounds,
        "won": best.won,
        "percent": percent(best.share),
        "text": ngettext(
            "%(names)s won %(won)s of their %(rounds)s round together (%(percent)s %%).",
            "%(names)s won %(won)s of their %(rounds)s rounds together (%(percent)s %%).",
            best.rounds,
        )
        % {"names": who, "won": best.won, "rounds": best.rounds, "percent": percent(best.share)},
    }
