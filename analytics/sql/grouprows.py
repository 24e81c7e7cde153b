"""The SQL half of a group's snapshots: every aggregate of one group and filter, cached between refreshes.

A refresh needs the rows of ``group_rows``: about thirty aggregate queries, ~1 s for a group with 30 000 rounds.
Most of them read finished-match standings and ratings only, and those change only when the worker rewrites
them (``analytics.services.refresh._process_dirty``), which renews the group's tokens in ``StandingsVersion``.  So
the rows are cached (Django's cache: Redis in production) with the tokens they were computed under:

* same group token: only the two live queries (rounds of open matches) run again;
* another group token: the group-wide queries run again, and of the per-game queries (game-specific figures,
  synergy, ratings) only those of the games whose token changed — a finished NJET match reruns NJET's.

An unreachable cache costs a full run, never a failed refresh.
"""

from __future__ import annotations

import dataclasses
import logging
import pickle
import queue
import uuid
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction

from analytics.drawing import payloads
from analytics.models import RatingHistory, StandingsVersion
from analytics.ratings.replay import ratings_of_filter
from analytics.sql import game_queries, queries
from analytics.stats import StatsFilter
from scoring.models import Match
from scoring.services.outages import Outage

logger = logging.getLogger(__name__)
CACHE_OUTAGE = Outage("stats: rows cache")

CACHE_SECONDS = 6 * 3600


@dataclasses.dataclass
class GameRows:
    """The per-game part of a group's rows (one ruleset)."""

    specific: dict[str, Any] | None
    synergy: list[dict[str, Any]]
    ratings_current: list[dict[str, Any]]
    ratings_history: list[dict[str, Any]]


# --- tokens (renewed by the worker under the group's lock) ----------------------------------------------------


def _new() -> str:
    return uuid.uuid4().hex


def standings_version_bump(group_id: int, rulesets: Iterable[str] | None = None) -> None:
    """The standings or ratings of ``rulesets`` (None: of the whole group) are about to change."""
    if rulesets is None:
        StandingsVersion.objects.update_or_create(
            group_id=group_id, defaults={"token": _new(), "epoch": _new(), "games": {}}
        )
        return
    version = _version(group_id)
    version.token = _new()
    version.games = {**version.games, **{r: _new() for r in rulesets}}
    version.save(update_fields=["token", "games"])


def _version(group_id: int) -> StandingsVersion:
    version, _ = StandingsVersion.objects.get_or_create(
        group_id=group_id, defaults={"token": _new(), "epoch": _new(), "games": {}}
    )
    return version


# --- the queries ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Common:
    games: list[dict[str, Any]]
    player_games: list[dict[str, Any]]
    streaks_game: list[dict[str, Any]]
    streaks_all: list[dict[str, Any]]
    h2h: list[dict[str, Any]]
    monthly: list[dict[str, Any]]
    activity: list[dict[str, Any]]
    filters: list[dict[str, Any]]


@dataclasses.dataclass
class Cached:
    """What the cache holds for one group and filter (the live rows are always queried afresh)."""

    token: str
    game_tokens: dict[str, str]
    common: _Common
    games: dict[str, GameRows]


def _common(group_id: int, flt: StatsFilter) -> _Common:
    return _Common(
        games=queries.games(group_id, flt),
        player_games=queries.player_games(group_id, flt),
        streaks_game=queries.streaks(group_id, flt, by_game=True),
        streaks_all=queries.streaks(group_id, flt, by_game=False),
        h2h=queries.head_to_head(group_id, flt),
        monthly=queries.monthly(group_id, flt),
        activity=queries.activity(group_id, flt),
        filters=queries.filter_options(group_id),
    )


def _game(group_id: int, flt: StatsFilter, ruleset: str, *, played: bool) -> GameRows:
    if flt.players is None:
        current = queries.ratings_current(group_id, flt, ruleset=ruleset)
        history = queries.ratings_history(group_id, flt, ruleset=ruleset)
    else:  # ratings earned at that table size only, so that no figure on the page comes from other tables
        current, history = ratings_of_filter(
            group_id=group_id, ruleset=ruleset, flt=flt, points_max=queries.RATING_POINTS_MAX
        )
    return GameRows(
        specific=game_queries.specific(group_id, flt, [ruleset]).get(ruleset) if played else None,
        synergy=game_queries.synergy(group_id, flt, [ruleset]) if played else [],
        ratings_current=current,
        ratings_history=history,
    )


def match_rulesets(group_id: int) -> set[str]:
    """Every game the group has matches in."""
    # order_by(): a model's default ordering joins DISTINCT's columns (Match's created_at and id made this one
    # row per match, 7 700 rows and 71 ms for the largest benchmark group, instead of 8 rows and 3 ms)
    return set(Match.objects.filter(group_id=group_id).order_by().values_list("ruleset", flat=True).distinct())


def rulesets_of(group_id: int) -> list[str]:
    """Every game the group has matches or ratings in (a superset of the games played in any filter)."""
    found = match_rulesets(group_id)
    found |= set(RatingHistory.objects.filter(group_id=group_id).values_list("ruleset", flat=True).distinct())
    return sorted(found)


def _live(group_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return queries.live(group_id), queries.live_players(group_id)


def _assemble(flt: StatsFilter, common: _Common, games: dict[str, GameRows], live: Any) -> payloads.GroupRows:
    """The rows in the order one query per section would give (game-ordered sections in ruleset order)."""
    order = sorted(games)
    return payloads.GroupRows(
        filter_key=flt.key,
        player_games=common.player_games,
        streaks_game=common.streaks_game,
        streaks_all=common.streaks_all,
        h2h=common.h2h,
        monthly=common.monthly,
        games=common.games,
        activity=common.activity,
        filters=common.filters,
        live=live[0],
        live_players=live[1],
        ratings_current=[row for r in order for row in games[r].ratings_current],
        ratings_history=[row for r in order for row in games[r].ratings_history],
        synergy=[row for r in game_queries.SYNERGY_GAMES if r in games for row in games[r].synergy],
        specific={r: games[r].specific for r in order if games[r].specific is not None},
    )


def _jit_off() -> None:
    if connection.vendor == "postgresql":
        # ~30 small aggregates: PostgreSQL's JIT compiler, triggered by cost estimates inflated by JSON
        # expansion, spent longer compiling than running them (1.19 s → 1.05 s for a 33 000-round group)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")


def _run_jobs(jobs: dict[str, Callable[[], Any]], threads: int) -> dict[str, Any]:
    """Run independent read-only jobs: here, or spread over this connection and ``threads - 1`` more.

    Every thread starts with a job of its own, handed out before any starts, then takes jobs from the shared
    queue until it is empty.  Each extra thread opens its own connection (its own transaction, JIT off, closed
    at the end), so it sees committed data only: inside a transaction, call with one thread.  An error in any
    job reaches the caller.
    """
    extra = min(threads, len(jobs)) - 1
    if extra <= 0:
        return {name: job() for name, job in jobs.items()}
    pending: queue.SimpleQueue[tuple[str, Callable[[], Any]]] = queue.SimpleQueue()
    for item in jobs.items():
        pending.put(item)
    firsts = [pending.get_nowait() for _ in range(extra + 1)]
    done: dict[str, Any] = {}

    def drain(item: tuple[str, Callable[[], Any]] | None) -> None:
        while item is not None:
            done[item[0]] = item[1]()
            try:
                item = pending.get_nowait()
            except queue.Empty:
                item = None

    def helper(first: tuple[str, Callable[[], Any]]) -> None:
        try:
            with transaction.atomic():
                _jit_off()
                drain(first)
        finally:
            connection.close()  # this thread's own connection; nothing else would close it

    with ThreadPoolExecutor(extra, thread_name_prefix="stats-rows") as pool:
        futures = [pool.submit(helper, first) for first in firsts[1:]]
        drain(firsts[0])
        for future in futures:
            future.result()
    return done


@transaction.atomic
def _compute(
    group_id: int, flt: StatsFilter, reuse: dict[str, GameRows], *, threads: int = 1
) -> tuple[_Common, dict[str, GameRows]]:
    """The group-wide rows and every game's not in ``reuse``; the group-wide queries and each game's are
    independent jobs, run side by side on ``threads`` connections."""
    _jit_off()
    rulesets = rulesets_of(group_id)
    todo = [r for r in rulesets if r not in reuse]
    played = queries.played_rulesets(group_id, flt) if todo else set()
    # the group-wide queries first, the largest job (~0.35 s for a 33 000-round group; one game's 0.05-0.2 s)
    jobs: dict[str, Callable[[], Any]] = {"": partial(_common, group_id, flt)}  # no ruleset is named ""
    jobs.update((r, partial(_game, group_id, flt, r, played=r in played)) for r in todo)
    done = _run_jobs(jobs, threads)
    return done[""], {r: reuse[r] if r in reuse else done[r] for r in rulesets}


def group_rows(group_id: int, flt: StatsFilter, *, threads: int = 1) -> payloads.GroupRows:
    """Run every aggregate query of one group and filter (no cache), on ``threads`` connections."""
    return _assemble(flt, *_compute(group_id, flt, {}, threads=threads), _live(group_id))


# --- the cache -----------------------------------------------------------------------------------------------


# Raise when ``Cached`` or the row dataclasses change shape: entries written by the previous version (until they
# expire, by web processes and workers not yet restarted) are then never read.
CACHE_FORMAT = 3  # 3: filtered snapshots' ratings from their filter's matches only


def _cache_key(group_id: int, flt: StatsFilter) -> str:
    # one entry per group and filter, overwritten: the tokens are stored with the rows, not in the key, so
    # that superseded rows do not pile up in Redis until they expire
    return f"stats:rows:v{CACHE_FORMAT}:{group_id}:{flt.key}"


def _cache_get(key: str) -> Cached | None:
    try:
        packed = cache.get(key)
    except Exception as exc:  # a cache outage costs a full recomputation, never a failed refresh
        if CACHE_OUTAGE.failed():
            logger.warning(
                "stats: the rows cache is unreachable (%r); recomputing everything until it answers again "
                "(not logged again meanwhile)",
                exc,
            )
        return None
    CACHE_OUTAGE.ok()
    if not isinstance(packed, bytes):
        return None
    try:
        found = pickle.loads(zlib.decompress(packed))
    except Exception as exc:  # written by another version of this module: recompute
        logger.info("stats: unreadable rows in the cache (%r); recomputing", exc)
        return None
    if not isinstance(found, Cached) or any(not hasattr(found, f.name) for f in dataclasses.fields(Cached)):
        return None  # another shape of entry (CACHE_FORMAT not raised): recompute
    return found


def _cache_set(key: str, value: Cached) -> None:
    # compressed: the largest benchmark group's rows are 3.0 MB pickled, 0.8 MB at zlib level 1 (20 ms)
    packed = zlib.compress(pickle.dumps(value, pickle.HIGHEST_PROTOCOL), 1)
    try:
        cache.set(key, packed, CACHE_SECONDS)
    except Exception as exc:
        if CACHE_OUTAGE.failed():
            logger.warning("stats: cannot store rows in the cache (%r); not logged again until it answers", exc)


def group_rows_cached(group_id: int, flt: StatsFilter, *, threads: int = 1) -> payloads.GroupRows:
    """``group_rows``, rerunning only what the changes since the cached rows can have moved (see above)."""
    key, version = _cache_key(group_id, flt), _version(group_id)
    cached = _cache_get(key)
    if cached is not None and cached.token == version.token:
        return _assemble(flt, cached.common, cached.games, _live(group_id))
    reuse = {}
    if cached is not None:
        reuse = {r: rows for r, rows in cached.games.items() if cached.game_tokens.get(r) == version.game_token(r)}
    common, games = _compute(group_id, flt, reuse, threads=threads)
    tokens = {r: version.game_token(r) for r in games}
    _cache_set(key, Cached(token=version.token, game_tokens=tokens, common=common, games=games))
    return _assemble(flt, common, games, _live(group_id))
