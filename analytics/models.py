"""Statistics snapshots, derived match standings, rating history and worker bookkeeping.

Everything here except ``WorkerPing`` is derived from the scoring tables and can be rebuilt from them at
any time (``analytics.services.stats_rebuild_all``).  The derived tables reference matches and players
without database constraints on purpose: when a match is deleted its standings and rating rows are still
there to tell the next recomputation which group, game and players were affected.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerPing(models.Model):
    """A row written by a Celery worker: proof that the broker and worker are alive."""

    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    worker = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return self.token


class Snapshot(models.Model):
    """A computed statistics payload for one scope and one filter; dashboards and the API read only these.

    ``key`` is ``"<scope>:<ids>|<filter>"`` (see ``analytics.stats.snapshot_key``).  ``stale`` is set
    synchronously whenever the underlying history changes and cleared by the worker once the payload is
    recomputed; ``stale_seq`` counts the changes so that a recomputation that raced a newer change leaves
    the snapshot stale.
    """

    class Scope(models.TextChoices):
        GROUP = "group", _("group")
        PLAYER = "player", _("player")
        GAME = "game", _("game")

    key = models.CharField(max_length=120, unique=True)
    scope = models.CharField(max_length=10, choices=Scope.choices)
    group = models.ForeignKey("scoring.Group", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("scoring.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=20, blank=True)
    filter_key = models.CharField(max_length=60, default="all")
    payload = models.JSONField(default=dict)
    updated_at = models.DateTimeField(null=True, blank=True)  # when the payload was last computed
    stale = models.BooleanField(default=True)
    stale_seq = models.PositiveIntegerField(default=0)
    computing = models.BooleanField(default=False)
    progress = models.FloatField(default=0.0)  # 0..1 of the group's recomputation while computing
    computing_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["group", "stale"]),
            models.Index(fields=["stale"], name="snapshot_stale", condition=models.Q(stale=True)),
        ]

    def __str__(self) -> str:
        return self.key


class StatsDirty(models.Model):
    """A match (or, with ``match_id`` 0, a whole group) whose standings and ratings must be recomputed.

    Written synchronously when rounds change, deleted by the worker once it has caught up; this is what
    lets the periodic catch-up redo the work when the broker was down.
    """

    WHOLE_GROUP = 0

    group_id = models.BigIntegerField()
    match_id = models.BigIntegerField()
    seq = models.PositiveIntegerField(default=1)
    marked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group_id", "match_id"], name="stats_dirty_unique")]

    def __str__(self) -> str:
        return f"dirty {self.group_id}/{self.match_id}"


def _derived_key(to: str) -> models.ForeignKey:
    """A key of a derived table (standings, ratings): no database constraint, since a rebuild rewrites the rows
    wholesale, and no single-column index, since each key leads one of the table's composite indexes (match: its
    unique one), which serves the same lookups; every extra index costs the rebuild's 800 000 inserts."""
    return models.ForeignKey(to, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+")


class MatchStanding(models.Model):
    """One player's final result in one finished match: total, rank (1 = best, ties share) and win.

    Computed from the live rounds with the rules engine (which knows each game's winners) by
    ``analytics.standings``; every statistic about matches aggregates these rows in SQL.
    """

    match = _derived_key("scoring.Match")
    group = _derived_key("scoring.Group")
    player = _derived_key("scoring.Player")
    ruleset = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)  # fixed partnership for the whole match
    players = models.PositiveSmallIntegerField()  # player count of the match
    finished_at = models.DateTimeField()
    rounds = models.PositiveIntegerField()
    total = models.IntegerField()
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="standing_unique")]
        indexes = [
            models.Index(fields=["group", "ruleset", "finished_at", "match"], name="standing_group_order"),
            models.Index(fields=["player", "finished_at", "match"], name="standing_player_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.match_id}: {self.total} (rank {self.rank})"


class RatingHistory(models.Model):
    """A player's OpenSkill (Plackett-Luce) rating for one game in one group after one finished match.

    Matches are processed in (finished_at, match id) order; ``ordinal`` is the conservative value μ − 3σ.
    """

    group = _derived_key("scoring.Group")
    ruleset = models.CharField(max_length=20)
    player = _derived_key("scoring.Player")
    match = _derived_key("scoring.Match")
    finished_at = models.DateTimeField()
    rank = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="rating_unique")]
        indexes = [
            models.Index(fields=["group", "ruleset", "finished_at", "match"], name="rating_group_order"),
            models.Index(fields=["player", "ruleset", "finished_at", "match"], name="rating_player_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.ruleset}: {self.ordinal:.2f}"


class StandingsVersion(models.Model):
    """Random tokens that change with every change to a group's standings and ratings.

    Standings and ratings are everything a snapshot reads except the live rounds of open matches.  The worker
    gives the group a new ``token`` whenever it rewrites a finished match's standings or replays ratings, and
    a new per-game token (``games``) for the games concerned; a rebuild of the whole group renews ``epoch``,
    the token of every game without one of its own.  The group's aggregated rows are cached with the tokens
    they were computed under, so a round entered into an open match reruns only the live queries, and a
    finished match reruns the group-wide queries and its own game's, reusing the other games' figures.
    Random tokens rather than counters, so that rows cached for another database can never match.
    """

    group = models.OneToOneField(
        "scoring.Group", on_delete=models.CASCADE, primary_key=True, db_constraint=False, related_name="+"
    )
    token = models.CharField(max_length=32)
    epoch = models.CharField(max_length=32)
    games = models.JSONField(default=dict)  # ruleset -> token

    def __str__(self) -> str:
        return f"standings {self.group_id} {self.token}"

    def game_token(self, ruleset: str) -> str:
        return str(self.games.get(ruleset, self.epoch))


class StatsRebuild(models.Model):
    """One full statistics rebuild: the groups still to do, so that the rebuild can be spread over the workers.

    The nightly task records the run and queues one task per group; each group's task removes its group from
    ``pending`` once the group is rebuilt, and the task that empties the list vacuums the derived tables and
    sets ``finished_at``. A redelivered task (a worker killed mid-group) finds its group still pending and
    rebuilds it again; one whose group is already done only finishes the run if nobody has. ``key`` is the
    nightly task's id: a redelivered nightly task (its worker killed while it queued the parts) carries on with
    its own run instead of starting a second one.
    """

    key = models.CharField(max_length=64, unique=True, null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    groups = models.PositiveIntegerField(default=0)
    pending = models.JSONField(default=list)  # group ids, largest group first

    def __str__(self) -> str:
        return f"rebuild {self.pk} ({self.groups - len(self.pending)}/{self.groups})"

    @property
    def progress(self) -> float:
        return 1.0 if not self.groups else (self.groups - len(self.pending)) / self.groups


class NightBreak(models.Model):
    """A member's correction of where a group's game nights begin (``analytics.nights.grouping``).

    ``split``: the match begins a night although it followed the previous one closely; ``merge``: the match
    belongs to the previous match's night although a long gap came before it.  At most one per match; a match
    whose override agrees with the gap rule has none.
    """

    class Kind(models.TextChoices):
        SPLIT = "split", _("new night from this match")
        MERGE = "merge", _("same night as the previous match")

    group = models.ForeignKey("scoring.Group", on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField("scoring.Match", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} at {self.match_id}"


class NightFigures(models.Model):
    """A game night's figures as computed for one version of the night (``analytics.nights.figures``).

    ``key`` is the night's id in links (its first match); ``version`` digests everything the figures were computed
    from (``nightfigures.night_version``).  A view whose night has the same digest serves these figures as they
    are; another digest (a change to one of its matches, a split or a merge) computes them again, once.
    """

    key = models.BigIntegerField(unique=True)
    group = models.ForeignKey("scoring.Group", on_delete=models.CASCADE, related_name="+")
    version = models.CharField(max_length=64)
    figures = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"night {self.key} ({self.version[:8]})"


class NightImage(models.Model):
    """A game night's shared PNG in one language, drawn from its figures of the same ``version``."""

    night = models.ForeignKey(NightFigures, on_delete=models.CASCADE, related_name="images")
    language = models.CharField(max_length=10)
    version = models.CharField(max_length=64)
    png = models.BinaryField()
    drawn_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["night", "language"], name="night_image_unique")]

    def __str__(self) -> str:
        return f"night {self.night_id} image {self.language}"


class RecordBook(models.Model):
    """One kind of record of one game in one group (``analytics.records.book``): its best entries and how many there
    are, so that the records page and the board's "a new record" read a row instead of the group's history.

    Derived from the finished matches' standings and live rounds by the worker whenever the game's standings
    change; ``top`` holds the best ``records.KEPT`` entries, best first (the earlier of equal values first):
    ``{"value", "player", "match", "round" (number, or null for a match's record), "at"}``; ``total`` counts every
    entry of the kind (round scores, match totals, winning runs …), for "top 3 %".
    """

    group = _derived_key("scoring.Group")
    ruleset = models.CharField(max_length=20)
    kind = models.CharField(max_length=30)
    total = models.PositiveIntegerField(default=0)
    top = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "ruleset", "kind"], name="record_book_unique")]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.kind} in {self.group_id}"


class RatingTrust(models.Model):
    """How far one game's ratings in one group can be trusted (``ratings.doubt``), kept by the worker beside the
    ratings it replays: every rated player's current rating with its match count, and the backtest of the
    ratings against the group's own results (each finished match predicted from the ratings just before it)."""

    group = _derived_key("scoring.Group")
    ruleset = models.CharField(max_length=20)
    players = models.JSONField(default=list)  # [{"player", "mu", "sigma", "ordinal", "rated"}], best first
    matches = models.PositiveIntegerField(default=0)  # rated matches with at least one pair predicted
    pairs = models.PositiveIntegerField(default=0)  # pairs of sides with different results
    correct = models.FloatField(default=0.0)  # pairs predicted in the right order (a 50:50 call counts half)
    brier = models.FloatField(default=0.0)  # sum of squared errors of the predicted chances

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "ruleset"], name="rating_trust_unique")]

    def __str__(self) -> str:
        return f"{self.ruleset} ratings of {self.group_id}"
