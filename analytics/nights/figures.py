"""The figures of one game night, computed once per version of the night and stored (``services.nights``).

:func:`night_figures_compute` reads the night's matches, rounds, standings and ratings and answers a JSON document
in no language: names, numbers, rule ids, the biggest round's stored explanation.  The page and the shared image
both draw from it, through ``analytics.nights.report``, which words it in the reader's language; so the two can never
disagree.  What it holds:

- each match's winners (the derived standings: the rules engine's winners);
- the biggest round: the most points one player scored in one round, with that round's stored explanation;
- the upset: the winning side the ratings gave the smallest chance, by openskill's Plackett-Luce ``predict_win``
  on the ratings just before the match (the game's ratings in the group; sides as the ratings rate them).  Only a
  match whose every player was rated in that game before the night counts (a chance worked out from newcomers'
  default ratings says nothing), and only an underdog's win: a chance below an even share (1 in the number of
  sides);
- each player's rating change (μ − 3σ) per game from before the night's first match of that game to after the last;
- who partnered best: NJET teammates (a round won = the team scored more than the lowest score of the round) and
  MÜ chief + partner (won = the target made), the pair with the best share of rounds won together (more rounds
  together, then more points per round, break ties);
- per match, what the night's story (``nightstory``) is told from: each seat's final total and win (the
  standings), the fixed partnerships, and the running totals after each round (the sums of the rounds' stored
  points, as the match board adds them up);
- the story itself: ``nightstory.night_story`` over the figures above, stored with them so that a request only
  words it.

Its work is bounded by the night (at most ``nights.MAX_MATCHES`` matches): rounds, standings and ratings of the
night's matches, and per game one query for the ratings before the night.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db.models import Q
from django.utils import translation

from analytics.models import MatchStanding, RatingHistory, RecordBook
from analytics.nights.grouping import Night
from analytics.nights.story import RecordEvent, night_story
from analytics.ratings.replay import MODEL, ratings_before, sides_of
from analytics.records import book as records
from analytics.stats import iso
from scoring.models import Match, Player, Round, Seat

# Raise when the stored document changes shape: every night is then computed again on its next view.
FORMAT = 4  # 4: the story tells the group records broken tonight


@dataclass
class Pair:
    players: tuple[int, int]
    rounds: int = 0
    won: int = 0
    points: int = 0  # both partners' points summed over the rounds together

    @property
    def share(self) -> float:
        return self.won / self.rounds if self.rounds else 0.0


# --- the version: what the figures are computed from --------------------------------------------------------------


def night_version(*, night: Night) -> str:
    """A digest of everything the night's figures read, in four small queries bounded by the night.

    The matches (ids, times, each match's ``version``, which every change to it or its rounds bumps), who sat where
    under which name, and the night's standings and ratings as the worker last wrote them.  A game's ratings are
    replayed from the earliest changed match on, so a change before the night that moves the ratings the night
    starts from moves the ratings after the night's matches too.  A change anywhere else (a later match, another
    game) leaves the digest, and the stored figures, as they are; so does the nightly rebuild, which writes the
    same values again.
    """
    ids = [m.id for m in night.matches]
    parts: list[Any] = [FORMAT, [(m.id, m.ruleset, m.started_at, m.finished_at) for m in night.matches]]
    parts.append(sorted(Match.objects.filter(pk__in=ids).values_list("id", "version")))
    parts.append(
        sorted(Seat.objects.filter(match_id__in=ids).values_list("match_id", "number", "player_id", "player__name"))
    )
    parts.append(
        sorted(
            MatchStanding.objects.filter(match_id__in=ids).values_list(
                "match_id", "player_id", "seat", "team", "finished_at", "rounds", "total", "rank", "won"
            )
        )
    )
    parts.append(
        sorted(RatingHistory.objects.filter(match_id__in=ids).values_list("match_id", "player_id", "mu", "sigma"))
    )
    # the record books' entries that the story's records read: the night's own and those made before it began
    parts.append(_record_entries(night))
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


# --- the figures ----------------------------------------------------------------------------------------------------


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


def night_figures_compute(*, night: Night) -> dict[str, Any]:
    """Every figure of ``night`` as a JSON document in no language (see the module's docstring)."""
    ids = [m.id for m in night.matches]
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in (
        Seat.objects.filter(match_id__in=ids).order_by("match_id", "number").values_list("match_id", "player_id")
    ):
        seats[match_id].append(player_id)
    names = dict(Player.objects.filter(pk__in={p for ps in seats.values() for p in ps}).values_list("id", "name"))
    standings = _standings(ids)
    rounds = _rounds(ids)
    running = _running(rounds, seats)
    matches = []
    for match in night.matches:
        rows = standings.get(match.id, [])
        matches.append(
            {
                "id": match.id,
                "ruleset": match.ruleset,
                "started_at": match.started_at.isoformat(),
                "players": [names[p] for p in seats[match.id]],
                "winners": [names[r.player_id] for r in rows if r.won],
                "computed": bool(rows),
                "rounds": rows[0].rounds if rows else len(running.get(match.id, [])),
                **_finish(rows),
                "running": running.get(match.id, []),
            }
        )
    ratings = _NightRatings(night, standings)
    figures: dict[str, Any] = {
        "format": FORMAT,
        "matches": matches,
        "biggest": _biggest(rounds, night, seats, names),
        "upset": ratings.upset(names),
        "ratings": ratings.changes(names),
        "partners": _partners(rounds, night, seats, names),
    }
    figures["story"] = night_story(figures, records=records_broken(night=night, names=names))
    return figures


# A record is worth telling once its kind has this many entries from before the night (among the book's kept
# ones): a group's first evenings set every record there is, and "a record!" after every match would say nothing.
RECORD_AFTER = 10


def _record_entries(night: Night) -> list[tuple[str, str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """For each record book of the night's games (one query): its ruleset, kind, the entries the night's matches
    set and those made before it began, best first (what :func:`records_broken` reads; a later match changes
    neither, so it leaves the night's digest alone; winning streaks are left out)."""
    ids = {m.id for m in night.matches}
    began = iso(night.started_at)  # the book's times are written the same way (``stats.iso``)
    games = {m.ruleset for m in night.matches}
    order = [k.key for k in records.KINDS]
    books = sorted(
        RecordBook.objects.filter(group_id=night.group_id, ruleset__in=games),
        key=lambda b: (b.ruleset, order.index(b.kind) if b.kind in order else len(order)),
    )
    # a winning streak is not set at one moment: a later win extends it (and moves its entry), so it is not told
    told = [book for book in books if book.kind in records.BY_KEY and records.BY_KEY[book.kind].scope != "streak"]
    return [
        (
            book.ruleset,
            book.kind,
            [e for e in book.top if e.get("match") in ids],
            [e for e in book.top if e.get("match") not in ids and e.get("at", "") < began],
        )
        for book in told
    ]


def records_broken(*, night: Night, names: dict[int, str]) -> list[RecordEvent]:
    """The group records that the night's matches set (``analytics.records.book``'s book): for each game and kind, the
    night's best entry when it beats the best one made before the night began, in the book's order of kinds.
    Teammates who set it together are one record.  Nothing is told before the kind has ``RECORD_AFTER`` entries
    from before the night among the book's kept ones (a group's first evenings set every record there is), and a
    record pushed out of the kept entries since is not told."""
    found: list[RecordEvent] = []
    for ruleset, key, tonight, before in _record_entries(night):
        kind = records.BY_KEY.get(key)
        if kind is None or not tonight or len(before) < RECORD_AFTER:
            continue
        best, previous = tonight[0], before[0]  # the book keeps its entries best first
        beaten = best["value"] < previous["value"] if kind.lower else best["value"] > previous["value"]
        if not beaten:
            continue
        same = [
            e
            for e in tonight
            if (e["match"], e.get("round"), e["value"]) == (best["match"], best.get("round"), best["value"])
        ]
        with translation.override(None):
            label = str(kind.label)
        found.append(
            RecordEvent(
                kind=kind.key,
                label=label,
                ruleset=ruleset,
                match=best["match"],
                round=best.get("round"),
                names=[names.get(e["player"], "?") for e in same],
                value=int(best["value"]),
                previous=int(previous["value"]),
            )
        )
    return found


def _finish(rows: Sequence[MatchStanding]) -> dict[str, Any]:
    """A finished match's final totals and wins per seat, and its fixed partnerships (seat lists), from its
    standings; nothing while they are not computed yet."""
    if not rows:
        return {"totals": [], "won": [], "sides": []}
    teams: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        if row.team is not None:
            teams[row.team].append(row.seat)
    sides = [teams[team] for team in sorted(teams)]
    if sides:  # a seat outside every partnership is a side of its own
        sides += [[row.seat] for row in rows if row.team is None]
    return {"totals": [row.total for row in rows], "won": [row.won for row in rows], "sides": sides}


def _running(rounds: Sequence[Round], seats: dict[int, list[int]]) -> dict[int, list[dict[str, Any]]]:
    """Per match, each seat's total after each live round (its number and the totals): the rounds' stored points
    added up, as the match board does."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for rnd in rounds:  # in match and round order
        steps = out[rnd.match_id]
        before = steps[-1]["totals"] if steps else [0] * len(seats[rnd.match_id])
        totals = [total + int(points) for total, points in zip(before, rnd.points, strict=False)]
        steps.append({"number": rnd.number, "totals": totals})
    return out


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
    seat_names = [names[p] for p in seats[rnd.match_id]]
    return {
        "match": rnd.match_id,
        "ruleset": next(m.ruleset for m in night.matches if m.id == rnd.match_id),
        "number": rnd.number,
        "seat": seat,
        "player": seat_names[seat],
        "points": points,
        "names": seat_names,
        "explanation": list(rnd.explanation or []),
    }


class _NightRatings:
    """The ratings of the night's games: before the night, just before each of its matches, and after it.

    Per game, the ratings before the night's first match of the game (one query), then the game's rating rows from
    that match to the night's last (one query, bounded by the night's time): replaying them gives the ratings just
    before each match, matches of other nights that finished in between included, exactly as they were rated.
    """

    def __init__(self, night: Night, standings: dict[int, list[MatchStanding]]) -> None:
        self.night = night
        self.standings = standings
        self.keys = {m.id: (rows[0].finished_at, m.id) for m in night.matches if (rows := standings.get(m.id))}
        first: dict[str, tuple[Any, int]] = {}
        last: dict[str, tuple[Any, int]] = {}
        for match in night.matches:
            key = self.keys.get(match.id)
            if key is None:
                continue
            first[match.ruleset] = min(first.get(match.ruleset, key), key)
            last[match.ruleset] = max(last.get(match.ruleset, key), key)
        self.start = {
            ruleset: ratings_before(group_id=night.group_id, ruleset=ruleset, key=key) for ruleset, key in first.items()
        }
        self.before: dict[int, dict[int, Any]] = {}  # match id -> player id -> rating just before it
        self.after: dict[tuple[int, str], float] = {}  # (player, game) -> ordinal after the night's last match
        night_ids = {m.id for m in night.matches}
        for ruleset, (f0, m0) in first.items():
            f1, m1 = last[ruleset]
            found = (
                RatingHistory.objects.filter(group_id=night.group_id, ruleset=ruleset)
                .filter(Q(finished_at__gt=f0) | Q(finished_at=f0, match_id__gte=m0))
                .filter(Q(finished_at__lt=f1) | Q(finished_at=f1, match_id__lte=m1))
                .order_by("finished_at", "match_id")
                .values_list("match_id", "player_id", "mu", "sigma", "ordinal")
            )
            current = dict(self.start[ruleset])
            for match_id, player_id, mu, sigma, ordinal in found:
                if match_id not in self.before:
                    self.before[match_id] = dict(current)
                current[player_id] = MODEL.rating(mu=mu, sigma=sigma)
                if match_id in night_ids:
                    self.after[(player_id, ruleset)] = ordinal

    def upset(self, names: dict[int, str]) -> dict[str, Any] | None:
        found: dict[str, Any] | None = None
        for match in self.night.matches:
            rows = self.standings.get(match.id, [])
            before = self.before.get(match.id)
            known = self.start.get(match.ruleset, {})
            if len(rows) < 2 or before is None or any(r.player_id not in known for r in rows):
                continue  # unrated yet, or somebody new to the game tonight: no chance to speak of
            sides = sides_of([(r.match_id, r.finished_at, r.player_id, r.rank, r.team) for r in rows])
            if len(sides) < 2:
                continue
            chances = MODEL.predict_win([[before[row[2]] for row in side] for side in sides])
            won = {r.player_id for r in rows if r.won}
            for side, chance in zip(sides, chances, strict=True):
                if not any(row[2] in won for row in side) or chance >= 1 / len(sides):
                    continue
                if found is None or chance < found["chance"]:
                    found = {
                        "match": match.id,
                        "ruleset": match.ruleset,
                        "chance": chance,
                        "winners": [names[row[2]] for row in side],
                    }
        return found

    def changes(self, names: dict[int, str]) -> list[dict[str, Any]]:
        """Per player and game: the rating (μ − 3σ) before the night's first match of the game and after its last;
        the biggest gain first."""
        out = []
        for (player_id, ruleset), ordinal in self.after.items():
            known = self.start.get(ruleset, {})
            was = (known[player_id] if player_id in known else MODEL.rating()).ordinal()
            out.append(
                {
                    "player": names.get(player_id, f"#{player_id}"),
                    "ruleset": ruleset,
                    "new": player_id not in known,
                    "before": was,
                    "after": ordinal,
                    "change": ordinal - was,
                }
            )
        return sorted(out, key=lambda r: (-r["change"], r["player"], r["ruleset"]))


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
    return {"names": [names[best.players[0]], names[best.players[1]]], "rounds": best.rounds, "won": best.won}
