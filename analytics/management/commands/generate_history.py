"""generate_history --rounds N: a realistic synthetic history of any size, for benchmarks and demos.

Groups of players with hidden skills and favourite games play all eight games over the last few years;
every round is generated from the game's real deck, validated and scored by the rules engine
(``analytics.synthetic``), and written in bulk (COPY on PostgreSQL) one transaction per chunk, so memory
stays bounded whatever N is.  A progress bar goes to stderr.

    python manage.py generate_history --rounds 1000000 --players 2000 --groups 100 --rebuild
"""

from __future__ import annotations

import datetime as dt
import math
import time
from dataclasses import dataclass, field
from random import Random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from analytics import services, synthetic
from analytics.sql.bulk import BulkWriter
from config.celery import app as celery_app
from scoring import rules
from scoring.models import Group, Match, Membership, Player, Round, Score, Seat
from scoring.services.common import explanation_store


@dataclass
class SynthGroup:
    group_id: int
    players: list[int]
    skills: dict[int, float]
    activity: list[float]
    games: list[float]  # weight per ruleset key in synthetic.GAMES order
    weight: float = 1.0
    sizes: dict[str, list[int]] = field(default_factory=dict)


class Progress:
    """A one-line progress bar on stderr (redrawn at most five times a second)."""

    def __init__(self, total: int, label: str, stream: Any) -> None:
        self.total, self.label = max(total, 1), label
        self.stream = stream  # a management command's OutputWrapper
        self.start = self.last = time.monotonic()

    def update(self, done: int, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        part = min(done / self.total, 1.0)
        rate = done / max(now - self.start, 1e-9)
        eta = (self.total - done) / rate if rate > 0 else 0
        bar = "#" * int(part * 30)
        self.stream.write(
            f"\r{self.label} [{bar:<30}] {part:6.1%} {done:,}/{self.total:,} {rate:,.0f}/s ETA {eta:,.0f}s ",
            ending="",
        )
        self.stream.flush()

    def close(self, done: int) -> None:
        self.update(done, force=True)
        self.stream.write("")


class Command(BaseCommand):
    help = "Generate a realistic synthetic history (all eight games, every round valid) for benchmarks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, required=True, help="how many rounds to generate")
        parser.add_argument("--players", type=int, default=2000, help="players in all (default 2000)")
        parser.add_argument("--groups", type=int, default=100, help="groups (default 100)")
        parser.add_argument("--years", type=float, default=3.0, help="the history spans this many years up to now")
        parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same history)")
        parser.add_argument("--open", type=float, default=0.01, help="share of matches left unfinished")
        parser.add_argument("--chunk", type=int, default=20000, help="rounds per transaction")
        parser.add_argument("--member", help="username to add as a member of every generated group")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="rebuild all statistics now (default: mark them out of date for the workers' catch-up; "
            "with Celery eager, as in `make run`, they are always rebuilt now)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        rounds, players, groups = opts["rounds"], opts["players"], opts["groups"]
        if rounds < 1 or groups < 1 or players < 2 * groups:
            raise CommandError("need --rounds ≥ 1, --groups ≥ 1 and at least two players per group")
        rng = Random(opts["seed"])
        member = None
        if opts["member"]:
            member = get_user_model().objects.filter(username=opts["member"]).first()
            if member is None:
                raise CommandError(f"no user called {opts['member']!r}")
        synth_groups = self._groups(rng, groups, players, member)
        made = self._history(rng, synth_groups, rounds, opts)
        self._vacuum_analyze()
        self.stdout.write(
            f"generated {made['rounds']:,} rounds in {made['matches']:,} matches "
            f"({made['open']:,} open) for {players:,} players in {groups:,} groups"
        )
        if opts["rebuild"] or celery_app.conf.task_always_eager:
            progress = Progress(groups, "stats rebuild", self.stderr)
            started = time.monotonic()
            services.stats_rebuild_all(progress=lambda done, total: progress.update(done))
            progress.close(groups)
            self.stdout.write(f"statistics rebuilt in {time.monotonic() - started:.1f} s")
        else:  # the rows went in under the services' feet: nothing marked them, so mark them here
            for group in synth_groups:
                services.stats_mark_group_stale(group_id=group.group_id)
            self.stdout.write(
                "statistics marked out of date; the workers' catch-up (every minute) recomputes them "
                "(or run again with --rebuild)"
            )

    def _vacuum_analyze(self) -> None:
        """Bring the bulk-loaded tables to the state autovacuum keeps a live database in: vacuumed (the
        visibility map set) and analysed.

        Without statistics the planner picks nested loops over whole tables for the statistics queries.  Without
        the visibility map, the index-only scans behind the dashboards' live figures read the table for every
        row: on a 1 000 000-round history, the live figures of 100 groups took 8.1 s unvacuumed and 3.0 s
        vacuumed.  In production, autovacuum (PostgreSQL's default) does both as inserts accumulate; a freshly
        generated history, or one on a cluster with autovacuum off, has neither.  Inside a transaction (the
        tests) VACUUM cannot run, so only ANALYZE does.
        """
        from django.db import connection

        from analytics.sql.builder import vacuum_analyze

        tables = [model._meta.db_table for model in (Group, Player, Membership, Match, Seat, Round, Score)]
        if not vacuum_analyze(tables) and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    # --- setup ----------------------------------------------------------------------------------------------

    def _groups(self, rng: Random, groups: int, players: int, member: Any) -> list[SynthGroup]:
        sizes = [2] * groups
        for index in rng.choices(
            range(groups), weights=[rng.uniform(0.5, 2.0) for _ in range(groups)], k=players - 2 * groups
        ):
            sizes[index] += 1
        keys = list(synthetic.GAMES)
        out: list[SynthGroup] = []
        with transaction.atomic():
            stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
            for g, size in enumerate(sizes):
                group = Group.objects.create(name=f"Synthetic {stamp} #{g + 1}")
                if member is not None:
                    Membership.objects.create(group=group, user=member, role=Membership.Role.OWNER)
                created = Player.objects.bulk_create(Player(group=group, name=f"Player {i + 1}") for i in range(size))
                ids = [p.pk for p in created] or list(
                    Player.objects.filter(group=group).order_by("id").values_list("id", flat=True)
                )
                out.append(
                    SynthGroup(
                        group_id=group.pk,
                        players=ids,
                        skills=dict(zip(ids, synthetic.player_skills(rng, len(ids)), strict=True)),
                        activity=[math.exp(rng.gauss(0, 0.8)) for _ in ids],
                        games=[rng.choice((0.3, 1.0, 1.0, 3.0)) for _ in keys],
                        weight=math.exp(rng.gauss(0, 0.6)),
                    )
                )
        return out

    # --- the history ----------------------------------------------------------------------------------------

    def _history(self, rng: Random, groups: list[SynthGroup], total: int, opts: dict[str, Any]) -> dict[str, int]:
        keys = list(synthetic.GAMES)
        writer = BulkWriter()
        span = dt.timedelta(days=365 * opts["years"])
        end = timezone.now() - dt.timedelta(hours=1)
        start = end - span
        made = {"rounds": 0, "matches": 0, "open": 0}
        progress = Progress(total, "rounds", self.stderr)
        match_ids: list[int] = []
        round_ids: list[int] = []
        while made["rounds"] < total:
            group = rng.choices(groups, weights=[g.weight for g in groups])[0]
            key = rng.choices(keys, weights=group.games)[0]
            counts = [n for n in synthetic.GAMES[key].players if n <= len(group.players)]
            if not counts:
                continue
            n = rng.choice(counts)
            seated = _weighted_sample(rng, group.players, group.activity, n)
            left_open = rng.random() < opts["open"]
            played = synthetic.play_match(
                rng,
                key,
                [group.skills[p] for p in seated],
                rounds=rng.randint(1, 3) if left_open else None,
            )
            if len(played.rounds) > total - made["rounds"]:  # the last match stops where N is reached
                played.rounds = played.rounds[: total - made["rounds"]]
                left_open = True
            if not match_ids:
                match_ids = writer.reserve(Match, 1000)
            if len(round_ids) < len(played.rounds):
                round_ids += writer.reserve(Round, max(5000, len(played.rounds)))
            at = start + span * (made["rounds"] / total) + dt.timedelta(minutes=rng.uniform(0, 60))
            self._write(writer, group, played, seated, match_ids.pop(0), round_ids, at, finished=not left_open)
            made["rounds"] += len(played.rounds)
            made["matches"] += 1
            made["open"] += int(left_open)
            if writer.pending >= opts["chunk"] * 6:
                with transaction.atomic():
                    writer.flush(Match, Seat, Round, Score)
            progress.update(made["rounds"])
        with transaction.atomic():
            writer.flush(Match, Seat, Round, Score)
        progress.close(made["rounds"])
        return made

    def _write(
        self,
        writer: BulkWriter,
        group: SynthGroup,
        played: synthetic.PlayedMatch,
        seated: list[int],
        match_id: int,
        round_ids: list[int],
        at: dt.datetime,
        *,
        finished: bool,
    ) -> None:
        ruleset = rules.get(played.ruleset)
        by_rules = finished and played.finished_by_rules
        when = at
        for number, (facts, result) in enumerate(played.rounds, start=1):
            when = at + dt.timedelta(minutes=6 * number)
            round_id = round_ids.pop(0)
            writer.add(
                Round,
                {
                    "id": round_id,
                    "match_id": match_id,
                    "number": number,
                    "facts": facts,
                    "ruleset_version": ruleset.version,
                    "points": list(result.scores),
                    "explanation": explanation_store(ruleset, result),
                    "version": 1,
                    "created_at": when,
                    "updated_at": when,
                    "deleted_at": None,
                },
            )
            for seat, (player_id, points) in enumerate(zip(seated, result.scores, strict=True)):
                writer.add(
                    Score,
                    {
                        "round_id": round_id,
                        "match_id": match_id,
                        "player_id": player_id,
                        "seat": seat,
                        "points": points,
                    },
                )
        done_at = when + dt.timedelta(minutes=1)
        writer.add(
            Match,
            {
                "id": match_id,
                "group_id": group.group_id,
                "ruleset": played.ruleset,
                "options": played.options,
                "state": Match.State.FINISHED if finished else Match.State.OPEN,
                "finish_reason": (Match.FinishReason.RULES if by_rules else Match.FinishReason.MANUAL)
                if finished
                else Match.FinishReason.NONE,
                "version": len(played.rounds) + 1,
                "next_number": len(played.rounds) + 1,
                "created_at": at,
                "finished_at": done_at if finished else None,
                "updated_at": done_at,
                "winners": played.winners,
            },
        )
        for number, player_id in enumerate(seated):
            writer.add(Seat, {"match_id": match_id, "player_id": player_id, "number": number})


def _weighted_sample(rng: Random, items: list[int], weights: list[float], k: int) -> list[int]:
    pool = list(zip(items, weights, strict=True))
    out = []
    for _ in range(k):
        index = rng.choices(range(len(pool)), weights=[w for _, w in pool])[0]
        out.append(pool.pop(index)[0])
    return out
