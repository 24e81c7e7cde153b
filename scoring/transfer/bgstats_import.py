"""Importing a BG Stats backup: the plays of our eight games become totals-only matches.

``bgstats_plan`` reads the file and proposes, for every BG Stats player of the plays to import, a group player
of the same name (or a new player); nothing is written.  ``bgstats_import`` writes the plays in one transaction
with the players as mapped (a group player, ``"new"`` or ``"skip"``).  Each imported play's uuid is kept
(``BgStatsPlay``), and so is every uuid our own BG Stats export gives a match: importing the same file again,
or our export back into its group, adds nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring import rules
from scoring.models import BgStatsPlay, Group, Match, Player
from scoring.services.access import owner_require
from scoring.services.errors import ServiceError, ValidationFailed
from scoring.services.players import player_create
from scoring.services.totals import POINTS_LIMIT, match_record_totals, played_at_check
from scoring.transfer import bgstats

NEW = "new"
SKIP = "skip"


@dataclasses.dataclass
class PlanPlayer:
    id: int  # the BG Stats player id
    name: str
    proposed: Player | None  # the group player of the same name, or None: a new player
    plays: int = 0


@dataclasses.dataclass
class PlanPlay:
    uuid: str
    ruleset: str
    label: str
    played_at: dt.datetime
    seats: list[tuple[int, int]]  # (BG Stats player id, final score) in seat order
    winners: list[int] = dataclasses.field(default_factory=list)  # the seats BG Stats marks as winners


@dataclasses.dataclass
class Plan:
    ours: int = 0  # plays of our games in the file
    other_games: int = 0
    already: int = 0
    players: list[PlanPlayer] = dataclasses.field(default_factory=list)
    plays: list[PlanPlay] = dataclasses.field(default_factory=list)
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (play, reason)


def bgstats_known_uuids(*, group: Group) -> set[str]:
    """The uuids of plays already in ``group``: those imported, and those our export gives its matches."""
    known = set(BgStatsPlay.objects.filter(group=group).values_list("uuid", flat=True))
    known.update(
        bgstats.derived_uuid("match", group.pk, pk)
        for pk in Match.objects.filter(group=group).values_list("pk", flat=True)
    )
    return known


def _label(ruleset: rules.Ruleset, play: bgstats.Play) -> str:
    when = play.played_at.strftime("%Y-%m-%d %H:%M") if play.played_at else "?"
    return f"{ruleset.name}, {when}"


def _problem(play: bgstats.Play, ruleset: rules.Ruleset, names: dict[int, str]) -> str | None:
    """Why this play of one of our games cannot become a match, or None."""
    if play.ignored:
        return gettext("marked as ignored in BG Stats")
    if play.played_at is None:
        return gettext("its date cannot be read")
    if not play.uuid:
        return gettext("it has no uuid")
    seen = set()
    for s in play.scores:
        if s.player not in names:
            return gettext("a player who is not among the file's players")
        if s.player in seen:
            return gettext("%(name)s is listed twice") % {"name": names[s.player]}
        seen.add(s.player)
        if s.score == "":
            return gettext("%(name)s has no score") % {"name": names[s.player]}
        if not isinstance(s.score, int):
            return gettext("%(name)s's score is not a whole number: %(score)s") % {
                "name": names[s.player],
                "score": s.score,
            }
    for s in play.scores:
        if not -POINTS_LIMIT <= s.score <= POINTS_LIMIT:
            return gettext("%(name)s's score is beyond %(limit)s points") % {
                "name": names[s.player],
                "limit": POINTS_LIMIT,
            }
    try:
        played_at_check(play.played_at)
    except ValidationFailed as exc:
        return " ".join(text for texts in exc.problems.values() for text in texts)
    count = len(play.scores)
    if not ruleset.min_players <= count <= ruleset.max_players:
        return gettext("%(game)s is played by %(low)d to %(high)d players, not %(n)d") % {
            "game": ruleset.name,
            "low": ruleset.min_players,
            "high": ruleset.max_players,
            "n": count,
        }
    return None


def _proposals(group: Group, names: dict[int, str], ids: list[int]) -> list[PlanPlayer]:
    active = list(Player.objects.filter(group=group, merged_into__isnull=True, archived_at__isnull=True))
    exact = {bgstats.person_key(p.name): p for p in active}
    bare: dict[str, list[Player]] = {}
    for p in active:
        bare.setdefault(bgstats.bare_key(p.name), []).append(p)
    out = []
    for pid in ids:
        found = exact.get(bgstats.person_key(names[pid]))
        if found is None and len(bare.get(bgstats.bare_key(names[pid]), [])) == 1:
            found = bare[bgstats.bare_key(names[pid])][0]
        out.append(PlanPlayer(id=pid, name=names[pid], proposed=found))
    return out


def bgstats_plan(*, group: Group, data: Any, user: Any) -> Plan:
    """What importing ``data`` would do (nothing written); ``ValidationFailed`` under ``document`` when it is
    not a BG Stats backup."""
    owner_require(group=group, user=user)
    try:
        backup = bgstats.backup_read(data)
    except bgstats.NotABackup as exc:
        raise ValidationFailed.single("document", str(exc)) from None
    known = bgstats_known_uuids(group=group)
    plan = Plan()
    counts: dict[int, int] = {}
    for play in backup.plays:
        key = bgstats.game_key(play.game)
        if key is None:
            plan.other_games += 1
            continue
        plan.ours += 1
        if play.uuid and play.uuid in known:
            plan.already += 1
            continue
        ruleset = rules.get(key)
        problem = _problem(play, ruleset, backup.players)
        if problem:
            plan.skipped.append((_label(ruleset, play), problem))
            continue
        assert play.played_at is not None
        ordered = bgstats.seat_order(play)
        seats = [(s.player, int(s.score)) for s in ordered]
        winners = [n for n, s in enumerate(ordered) if s.winner]
        known.add(play.uuid)  # a uuid twice in one file is one play
        plan.plays.append(PlanPlay(play.uuid, key, _label(ruleset, play), play.played_at, seats, winners))
        for pid, _score in seats:
            counts[pid] = counts.get(pid, 0) + 1
    plan.players = _proposals(
        group, backup.players, sorted(counts, key=lambda i: (bgstats.person_key(backup.players[i]), i))
    )
    for p in plan.players:
        p.plays = counts[p.id]
    return plan


def _mapping(group: Group, plan: Plan, given: dict[int, Any] | None, user: Any) -> dict[int, Player | str]:
    """BG Stats player id -> the group player, ``"new"`` or ``"skip"`` (the proposal where none is given)."""
    active = {p.pk: p for p in Player.objects.filter(group=group, merged_into__isnull=True, archived_at__isnull=True)}
    out: dict[int, Player | str] = {}
    for p in plan.players:
        choice = (given or {}).get(p.id, p.proposed or NEW)
        if isinstance(choice, Player):
            choice = choice.pk
        if choice in (NEW, SKIP):
            out[p.id] = choice
        elif isinstance(choice, int) and not isinstance(choice, bool) and choice in active:
            out[p.id] = active[choice]
        else:
            raise ValidationFailed.single(
                f"players.{p.id}",
                gettext("%(name)s: choose a player of the group, a new player or skipping their plays.")
                % {"name": p.name},
            )
    return out


class _NameRefused(Exception):
    """A BG Stats player's name that the group cannot take: the whole import is refused, naming them."""

    def __init__(self, error: ValidationFailed) -> None:
        super().__init__()
        self.error = error


def _player_new(group: Group, p: PlanPlayer, user: Any) -> Player:
    try:
        return player_create(group=group, name=p.name, user=user)
    except ValidationFailed as exc:
        texts = [t for ts in exc.problems.values() for t in ts]
        refused = ValidationFailed.single(f"players.{p.id}", f"{p.name or '?'}: {' '.join(texts)}")
        raise _NameRefused(refused) from None


@transaction.atomic
def bgstats_import(*, group: Group, data: Any, user: Any, players: dict[int, Any] | None = None) -> dict[str, Any]:
    """Import the plays of our games in a BG Stats backup as totals-only matches, in one transaction.

    ``players`` maps a BG Stats player id to a group player (or its id), ``"new"`` or ``"skip"``; a player not
    in it is matched by name (``bgstats_plan``).  Returns the summary: plays of our games in the file, matches
    imported, plays already imported, plays of other games, new players' names and the plays skipped, each
    with its reason."""
    plan = bgstats_plan(group=group, data=data, user=user)
    mapping = _mapping(group, plan, players, user)
    names = {p.id: p.name for p in plan.players}
    skipped = list(plan.skipped)
    wanted = []
    for play in plan.plays:
        dropped = [names[pid] for pid, _ in play.seats if mapping[pid] == SKIP]
        if dropped:
            skipped.append((play.label, gettext("%(name)s's plays are skipped") % {"name": dropped[0]}))
        else:
            wanted.append(play)
    created: list[str] = []
    imported = 0
    by_id = {p.id: p for p in plan.players}
    for play in wanted:
        # One savepoint per play: a play refused here leaves nothing behind, not even the players it would
        # have added (they are created with the first play of theirs that is imported).
        fresh: dict[int, Player] = {}
        try:
            with transaction.atomic():
                for pid, _score in play.seats:
                    if mapping[pid] == NEW and pid not in fresh:
                        fresh[pid] = _player_new(group, by_id[pid], user)
                seated = [fresh.get(pid) or mapping[pid] for pid, _ in play.seats]
                match = match_record_totals(
                    group=group,
                    ruleset=play.ruleset,
                    options={},
                    player_ids=[p.pk for p in seated if isinstance(p, Player)],
                    points=[score for _, score in play.seats],
                    played_at=play.played_at,
                    user=user,
                    winners=play.winners or None,  # as BG Stats recorded them; none marked: the best totals
                )
                BgStatsPlay.objects.create(group=group, uuid=play.uuid, match=match)
        except _NameRefused as refused:
            raise refused.error from None  # (the outer transaction rolls back the plays imported before it)
        except ServiceError as exc:
            problems = getattr(exc, "problems", None) or {"": [str(exc)]}
            skipped.append((play.label, " ".join(t for ts in problems.values() for t in ts)))
            continue
        for pid, player in fresh.items():
            mapping[pid] = player
            created.append(player.name)
        imported += 1
    return {
        "plays": plan.ours,
        "imported": imported,
        "already_imported": plan.already,
        "other_games": plan.other_games,
        "new_players": created,
        "skipped": [{"play": label, "reason": reason} for label, reason in skipped],
    }
