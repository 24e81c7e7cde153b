"""Groups, players, matches, rounds and their append-only history.

Models hold data only; rules live in ``scoring.rules`` and workflows in
``scoring.services``.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def _token() -> str:
    return secrets.token_urlsafe(24)


class Group(models.Model):
    """The people who play together."""

    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="play_groups")
    # Rounds the other side confirms (issue 47): on since this moment, None while off (the default). A round saved
    # since then waits for a player of another side to confirm or dispute it (``RoundCheck``); older ones do not.
    confirm_rounds_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="membership_unique")]
        ordering = ["group_id", "id"]

    def __str__(self) -> str:
        return f"{self.user} in {self.group} ({self.role})"


class Invite(models.Model):
    """A link that lets someone join a group; it expires and can be revoked.

    An invite may name a guest player: whoever accepts it is linked to that player.  Each person uses a link once
    (``InviteUse``).  An invitation by username (``invitee_name`` set) is personal: only that account sees it and
    can accept or decline it; ``invitee`` is empty when no account had that name, which the owner never learns.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=_token)
    player = models.ForeignKey("Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="invites")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    accepted_count = models.PositiveIntegerField(default=0)
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    invitee_name = models.CharField(max_length=150, blank=True, default="")
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invite to {self.group}"

    @property
    def is_personal(self) -> bool:
        return bool(self.invitee_name)


class InviteUse(models.Model):
    """Who joined through which invite: a link lets each person in once."""

    invite = models.ForeignKey(Invite, on_delete=models.CASCADE, related_name="uses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    used_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["invite", "user"], name="invite_use_unique")]

    def __str__(self) -> str:
        return f"{self.user} joined via invite {self.invite_id}"


class Removal(models.Model):
    """An owner removed this account from the group: invites made before then no longer let it back in."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    removed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="removal_unique")]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.group}"


class Player(models.Model):
    """Someone at the table: a guest, or linked to a user account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Removed from the group after playing: hidden from the players list and from new matches, while the matches
    # they sat in keep their name and points (and the statistics keep counting them).  None: an active player.
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "name"], condition=Q(merged_into__isnull=True), name="player_name_unique_in_group"
            ),
            models.UniqueConstraint(
                fields=["group", "user"],
                condition=Q(user__isnull=False, merged_into__isnull=True),
                name="player_user_unique_in_group",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class Match(models.Model):
    class State(models.TextChoices):
        OPEN = "open", _("open")
        FINISHED = "finished", _("finished")
        # an empty match given up (no round was ever kept): it stays in the history and counts in no statistics
        ABANDONED = "abandoned", _("abandoned")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="matches")
    ruleset = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)

    class FinishReason(models.TextChoices):
        NONE = "", _("not finished")
        RULES = "rules", _("end condition reached")
        MANUAL = "manual", _("finished by hand")

    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    finish_reason = models.CharField(max_length=10, choices=FinishReason.choices, default="", blank=True)
    version = models.PositiveIntegerField(default=1)  # bumped on every change to the match or its rounds
    # the number the next round gets: the highest live round number + 1, kept up to date under the match's row lock
    next_number = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The seats the rules engine named winners the last time it scored the rounds: empty while its end condition
    # is not met (an open match, or one finished by hand before it), where the best totals win.  Written with
    # every change to the rounds, so that the statistics rank a match without replaying it; None only for a match
    # created before the field and not scored since (the statistics then replay it).
    winners = models.JSONField(null=True, blank=True, default=None)
    players = models.ManyToManyField(Player, through="Seat", related_name="matches")
    # The house rules the match was started from (its options then equalled that version's); None: none, or
    # options changed from them.  Only a record: the match reads its own ``options``, never the preset's.
    # RESTRICT: a preset version is never deleted on its own (presets are archived), only with the whole group.
    preset_version = models.ForeignKey(
        "PresetVersion", null=True, blank=True, on_delete=models.RESTRICT, related_name="matches"
    )
    # Recorded from its final scores alone (a paper pad, an evening nobody entered rounds): it has no rounds,
    # ``totals`` holds the final points per seat, and it is finished from its creation (``created_at`` and
    # ``finished_at`` are when it was played).  Standings and ratings count it; per-round statistics cannot.
    totals_only = models.BooleanField(default=False)
    totals = models.JSONField(null=True, blank=True, default=None)
    # The match's identity in exports (``scoring.transfer.exporting``): kept by an import, so that a document imported
    # again, or into a group that holds its copy, is recognised match by match and adds nothing.  Unique in a
    # group only: the same export imported into two groups gives both the same identifiers.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["group", "ruleset", "state"])]
        constraints = [models.UniqueConstraint(fields=["group", "uid"], name="match_uid_unique_in_group")]

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.pk}"


class Seat(models.Model):
    """A player's place at the table; seat 0 deals the first round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    # RESTRICT (not PROTECT): a player cannot be deleted while seated, but deleting the whole group is fine
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.number}"


class Round(models.Model):
    """One round as entered: the raw facts and what the rules made of them.

    ``facts`` are stored normalised by the ruleset; ``points`` (one per seat) and
    ``explanation`` (structured lines plus their English text) are what the
    ruleset ``ruleset_version`` computed.  A deleted round keeps its data
    (``deleted_at`` set) so that it can be restored; its ``Score`` rows are
    removed so that SQL aggregation only ever sees live rounds.  Its number is
    free again: a new round takes the highest live number + 1, so a number is
    unique among a match's live rounds only (a deleted round 5 and the round 5
    entered after it may both exist; only one of them can be live).
    """

    # no index of its own: round_match_number_idx (match, number) serves lookups by match, and
    # round_live_number_unique, the same columns over the live rounds only, the live rounds
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds", db_index=False)
    number = models.PositiveIntegerField()
    facts = models.JSONField()
    ruleset_version = models.CharField(max_length=20)
    points = models.JSONField(default=list)
    explanation = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    # The round's identity in exports, kept by an import (the history names rounds by it).  No index: nothing
    # looks a round up by it; a match is recognised by its own ``uid``.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["match_id", "number"]
        # One live round per number.  The partial index also serves a match's live rounds without reading the
        # wide rows: counted from the index alone (the dashboards' live figures), and the aggregates' join of a
        # match's live rounds reads no deleted row (it replaces the former round_live_idx on (match)).
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], condition=Q(deleted_at__isnull=True), name="round_live_number_unique"
            )
        ]
        indexes = [models.Index(fields=["match", "number"], name="round_match_number_idx")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.match}"


class Score(models.Model):
    """One player's points in one live round (denormalised for SQL aggregation)."""

    # The foreign keys have no single-column indexes: score_seat_unique (round, seat) serves lookups by round,
    # (player, match) those by player and score_match_idx (match, player, points) those by match, from which the
    # live totals are summed without reading the table (keys, not INCLUDE: SQLite has no covering columns).
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scores", db_index=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="scores", db_index=False)
    seat = models.PositiveSmallIntegerField()
    points = models.IntegerField()

    class Meta:
        ordering = ["round_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["round", "seat"], name="score_seat_unique")]
        indexes = [
            models.Index(fields=["player", "match"]),
            models.Index(fields=["match", "player", "points"], name="score_match_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"


class RoundEvent(models.Model):
    """Append-only history of every change to a match and its rounds.

    ``before``/``after`` are snapshots of the round (or of the match for the
    match-level actions); an undo event names the event it reverts in
    ``after["undoes"]``.
    """

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        EDIT = "edit", _("edited")
        DELETE = "delete", _("deleted")
        UNDO = "undo", _("restored")
        RESCORE = "rescore", _("re-scored")
        OPTIONS = "options", _("options changed")
        FINISH = "finish", _("finished")
        REOPEN = "reopen", _("reopened")
        MERGE = "merge", _("players merged")
        ABANDON = "abandon", _("abandoned")
        CONFIRM = "confirm", _("confirmed")
        DISPUTE = "dispute", _("disputed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    round = models.ForeignKey(Round, null=True, on_delete=models.SET_NULL, related_name="events")
    round_number = models.PositiveIntegerField(null=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)

    class Meta:
        ordering = ["match_id", "id"]

    def __str__(self) -> str:
        return f"{self.action} round {self.round_number}"


class IdempotencyKey(models.Model):
    """The stored answer to a write that carried an Idempotency-Key header."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    scope = models.CharField(max_length=100)
    request_hash = models.CharField(max_length=64, default="")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.PositiveSmallIntegerField()
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique")]

    def __str__(self) -> str:
        return self.key


class Preset(models.Model):
    """A group's house rules for one game: named options, one of them the group's default for new matches.

    What the options are lives in its immutable ``PresetVersion`` rows (editing adds one); a removed preset
    is archived, not deleted, so that the matches started from it still name it.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="presets")
    ruleset = models.CharField(max_length=20)
    name = models.CharField(_("name"), max_length=60)
    is_default = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    # Its identity in exports (the matches started from it name it), kept by an import: importing the same
    # house rules again reuses them.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["ruleset", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"], name="preset_uid_unique_in_group"),
            models.UniqueConstraint(
                fields=["group", "ruleset", "name"],
                condition=Q(archived_at__isnull=True),
                name="preset_name_unique",
            ),
            models.UniqueConstraint(
                fields=["group", "ruleset"], condition=Q(is_default=True), name="preset_one_default"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset})"


class PresetVersion(models.Model):
    """One state of a preset, never changed: its name and options (parsed by the ruleset) at that time."""

    preset = models.ForeignKey(Preset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=60)
    options = models.JSONField(default=dict)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["preset_id", "number"]
        constraints = [models.UniqueConstraint(fields=["preset", "number"], name="preset_version_unique")]

    def __str__(self) -> str:
        return f"{self.name} v{self.number}"


class BgStatsPlay(models.Model):
    """A BG Stats play imported into a group (by its uuid): importing the same backup again adds nothing.
    Deleting the match forgets it, so the play could be imported again."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    uuid = models.CharField(max_length=64)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "uuid"], name="bgstats_play_unique")]

    def __str__(self) -> str:
        return self.uuid


class RoundCheck(models.Model):
    """The other side's word on one version of a round, in a group where the other side confirms rounds.

    One row per round: the latest confirmation or dispute (every one is also a RoundEvent in the match's
    history). It speaks for the round ``version`` it was given for: an edit makes a new version, which waits for
    a confirmation again.
    """

    class State(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, primary_key=True, related_name="confirmation")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices)
    version = models.PositiveIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # the player the account sat at the table as (names in the history stay right after the account changes)
    player = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=280, blank=True, default="")
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"round {self.round_id} {self.state} (v{self.version})"
