"""The board's "a record!": when the round just saved (or the match it finished) sets or nears one of the group's
records, say so at once ("Béla: 61, the group's 2nd best for most points in a round (Coloretto), top 3 %").

The comparison is with the group's record book (``analytics.records.book``: finished matches, kept by the worker) and
the other rounds of this match, so that it is right before the worker has caught up and after: the book's entries
of this very match are left out and the match's own rounds taken as the board holds them. Only the last round is
ever announced: the next round saved takes its place, so a record is told on the round that sets it and not on the
next one. Reads one row per kind of the game (and one to know whether the book holds this match yet).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from analytics.models import MatchStanding
from analytics.records.book import Kind, kinds_of, record_books, round_values
from scoring.models import Match

ANNOUNCE = 3  # the best, the 2nd and the 3rd are told
MIN_OTHERS = 10  # with fewer earlier entries everything would be "a record"
TOP_SHARE = 20  # per cent: a value equalled by more than this share of all entries is told nowhere (NJET's 0 booty)


@dataclass(frozen=True)
class News:
    kind: str
    seats: tuple[int, ...]  # who: partners who scored the same in the round share one line
    value: int
    rank: int  # 1 = the record
    tied: bool  # shares its place with an earlier entry
    percent: int  # "top p %": the share of all entries (this one included) at least as good
    old: int | None  # the record before this one (for a new record)
    text: str


def _msgs(rnd: Mapping[str, Any]) -> list[str]:
    return [line.get("msg", "") for line in rnd.get("explanation") or [] if isinstance(line, Mapping)]


def _better(kind: Kind, a: int, b: int) -> bool:
    return a < b if kind.lower else a > b


def _words(kind: Kind, game: str, names: str, value: int, rank: int, tied: bool, percent: int, old: Any) -> str:
    what = f"{kind.label} ({game})"
    params = {"name": names, "value": value, "what": what, "percent": percent, "old": old}
    if rank == 1 and tied:
        return gettext("%(name)s: %(value)s, equal to the group's record for %(what)s") % params
    if rank == 1:
        return gettext("%(name)s: %(value)s, a new group record for %(what)s; it was %(old)s") % params
    if rank == 2:
        return gettext("%(name)s: %(value)s, the group's 2nd best for %(what)s, top %(percent)s %%") % params
    return gettext("%(name)s: %(value)s, the group's 3rd best for %(what)s, top %(percent)s %%") % params


def _judge(
    kind: Kind, book: Any, match_id: int, held: bool, own: Sequence[int], found: Sequence[tuple[int, int]]
) -> list[tuple[int, int, int, bool, int, Any]]:
    """``(seat, value, rank, tied, percent, old)`` for each found value that sets or nears the record.

    The others are the book's entries of other matches and this match's ``own`` other values; ``held``: the book
    counts this match already (its entries there are this match's ``own`` and ``found``, as they stand)."""
    top = list(book.top) if book is not None else []
    counted = book.total if book is not None else 0
    others = [int(e["value"]) for e in top if e["match"] != match_id] + list(own)
    total = counted - len(found) if held else counted + len(own)
    if total < MIN_OTHERS or not others:
        return []
    # entries the book did not keep are no better than the last one it kept: a value at least as good as that is
    # ranked exactly from the kept ones, a worse one is far from the record
    floor = int(top[-1]["value"]) if top and len(top) < counted else None
    best = min(others) if kind.lower else max(others)
    out = []
    for seat, value in found:
        if floor is not None and _better(kind, floor, value):
            continue
        # the other seats of this round count too (two players above the old record are the 1st and the 2nd), but
        # partners who scored the same share the place: one team, one achievement
        rivals = others + [v for s, v in found if s != seat and v != value]
        ahead = sum(1 for v in rivals if _better(kind, v, value))
        if ahead >= ANNOUNCE:
            continue
        ties = sum(1 for v in others if v == value)
        # "top p %": the share of all entries at least this good; a value that many reached is no cheer
        percent = math.ceil(100 * (ahead + ties + 1) / (total + len(found)))
        if percent > TOP_SHARE:
            continue
        out.append((seat, value, ahead + 1, ties > 0, percent, best))
    return out


def record_news(*, match: Match, board: Mapping[str, Any]) -> list[News]:
    """What the board tells about the last round saved (and, once it finished the match, the match)."""
    rounds = board.get("rounds") or []
    if board.get("totals_only") or not rounds:
        return []
    kinds = kinds_of(match.ruleset)
    books = record_books(group_id=match.group_id, ruleset=match.ruleset).get(match.ruleset, {})
    held = match.state == Match.State.FINISHED and MatchStanding.objects.filter(match_id=match.pk).exists()
    names = [p["name"] for p in board.get("players") or []]
    game = str(board.get("ruleset_name") or match.ruleset)
    last, earlier = rounds[-1], rounds[:-1]
    news: list[News] = []
    for kind in kinds:
        if kind.scope == "round":
            found = round_values(kind, last["facts"], last["points"], _msgs(last))
            own = [v for r in earlier for _seat, v in round_values(kind, r["facts"], r["points"], _msgs(r))]
        elif kind.scope == "match" and board.get("finished") and not (kind.key == "match_total" and not earlier):
            # (a match of one round, Coloretto's one game: its round's news already told its total)
            found = _match_values(kind, board)
            own = []
        else:  # a streak is told on the records page; a match's record once the match is over
            continue
        book = books.get(kind.key)
        judged = _judge(kind, book, match.pk, held, own, found)
        for key in dict.fromkeys(
            (value, rank, tied, percent, old) for _seat, value, rank, tied, percent, old in judged
        ):
            seats = tuple(j[0] for j in judged if j[1:] == key)
            who = ", ".join(names[s] if 0 <= s < len(names) else "?" for s in seats)
            news.append(News(kind.key, seats, *key, text=_words(kind, game, who, *key)))
    return news


def _match_values(kind: Kind, board: Mapping[str, Any]) -> list[tuple[int, int]]:
    totals = list(board.get("totals") or [])
    if kind.key == "match_total":
        return [(seat, int(total)) for seat, total in enumerate(totals)]
    winners = {w["seat"] for w in board.get("winners") or []}
    return [(seat, int(board.get("rounds_played") or 0)) for seat in sorted(winners)]
