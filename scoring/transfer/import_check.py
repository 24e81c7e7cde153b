"""Reading an import document: the whole file is checked before anything is written, and nothing is trusted.

``document_check`` walks the document once, collecting every problem under a field path
(``matches[3].rounds[2].facts.tricks``), and returns a :class:`Plan` only when there is none.  Shapes, text
lengths and whole numbers are range-checked (32-bit where the database column is), dates are parsed strictly
(a real calendar date, an offset within ±14:00), names are cleaned (:func:`scoring.text.names.name_clean`), and every
round is scored again by the rules engine: the stored facts, points, explanation and ruleset version are what
the rules give now, never what the file says.  A match's state must agree with the rules: ``finish_reason:
"rules"`` only when the rules end the match, and an ``open`` match the rules have ended is refused (not
silently finished), so that the importer sees the contradiction in their file.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext

from scoring import rules
from scoring.models import Match
from scoring.rules import InvalidRound, Ruleset
from scoring.services.common import explanation_store, rules_failed
from scoring.transfer.import_fields import INT32, Problems, unstorable
from scoring.transfer.import_parts import checks, history, presets, uid
from scoring.transfer.import_plan import MatchPlan, Plan, PlayerPlan, RoundPlan
from scoring.transfer.sections import SECTIONS

FORMAT = "scorekeeper-group"
FORMAT_VERSION = 1
MAX_PLAYERS = 5000
MAX_MATCHES = 100_000
MAX_ROUNDS = 1000  # per match
_SEATS = 12
_BROKEN = (TypeError, KeyError, IndexError, AttributeError, ValueError, OverflowError, RecursionError)
Progress = Callable[[int, int], None]


def _prefixed(problems: dict[str, list[str]], prefix: str, strip: str = "") -> dict[str, list[str]]:
    """Engine field names (``facts.tricks``, ``options.x``) under a document path."""
    out: dict[str, list[str]] = {}
    for key, messages in problems.items():
        tail = key if key != "non_field_errors" else strip
        out[f"{prefix}.{tail}" if tail else prefix] = messages
    return out


def _players(c: Problems, doc: dict[str, Any]) -> dict[str, PlayerPlan]:
    players: dict[str, PlayerPlan] = {}
    for i, raw in enumerate(c.items(doc.get("players"), "players", limit=MAX_PLAYERS)):
        path = f"players[{i}]"
        p = c.obj(raw, path)
        if p is None:
            continue
        name = c.name(p.get("name"), f"{path}.name")
        user = c.text(p.get("user"), f"{path}.user", null=True)
        created = c.when(p.get("created_at"), f"{path}.created_at")
        archived = c.when(p.get("archived_at"), f"{path}.archived_at", null=True)
        if name is None:
            continue
        if name.casefold() in players:
            c.add(f"{path}.name", gettext("Two players have the same name."))
            continue
        # (a bad date is already a problem: the plan is then never used, but the seats still find the name)
        players[name.casefold()] = PlayerPlan(name, user, created or datetime.now(UTC), archived)
    return players


def _round_head(c: Problems, raw: Any, rpath: str, *, seats: int, count: int) -> dict[str, Any] | None:
    """The shape of one round (everything but its facts, which the rules read)."""
    r = c.obj(raw, rpath)
    if r is None:
        return None
    head = {
        "number": c.whole(r.get("number"), f"{rpath}.number", low=1, high=max(count, 1)),
        "entered_by": c.text(r.get("entered_by"), f"{rpath}.entered_by", null=True),
        "created_at": c.when(r.get("created_at"), f"{rpath}.created_at"),
        "deleted_at": c.when(r.get("deleted_at"), f"{rpath}.deleted_at", null=True),
        "facts": r.get("facts"),
        "uid": uid(c, r.get("uid"), f"{rpath}.uid"),
        # (an older file has neither: a first version, saved when it was created or deleted)
        "version": c.whole(r.get("version", 1), f"{rpath}.version", low=1, high=INT32),
        "updated_at": c.when(r.get("updated_at"), f"{rpath}.updated_at", null=True),
    }
    # What the file says was scored is not used (the rules score again), but it must still be well formed.
    points = r.get("points", [])
    if not isinstance(points, list) or (points and len(points) != seats):
        c.add(f"{rpath}.points", gettext("Expected one whole number per seat."))
    else:
        for k, value in enumerate(points):
            c.whole(value, f"{rpath}.points[{k}]", low=-INT32 - 1, high=INT32)
    if "ruleset_version" in r:
        c.text(r.get("ruleset_version"), f"{rpath}.ruleset_version", max_length=20)
    if "explanation" in r and not isinstance(r.get("explanation"), list):
        c.add(f"{rpath}.explanation", gettext("Expected a list."))
    if None in (head["number"], head["created_at"], head["version"]) or any(
        r.get(key) is not None and head[key] is None for key in ("deleted_at", "updated_at")
    ):
        return None
    return head


def _score(
    c: Problems, ruleset: Ruleset, head: dict[str, Any], rpath: str, *, done: list[Any], opts: dict[str, Any], n: int
) -> tuple[Any, rules.RoundResult] | None:
    """Parse, check and score one round after the rounds ``done``; None (and a problem) when the rules refuse."""
    module = ruleset.module
    try:
        facts = ruleset.facts_parse(head["facts"], players=n, options=opts)
        state = module.match_state(done, players=n, options=opts, deal=head["number"] - 1)
        module.validate(facts, players=n, options=opts, state=state)
        result: rules.RoundResult = module.score_round(facts, players=n, options=opts, state=state)
    except InvalidRound as exc:
        c.merge(_prefixed(rules_failed(ruleset, exc, prefix="facts").problems, rpath, strip="facts"))
        return None
    except _BROKEN:
        c.add(f"{rpath}.facts", gettext("These round facts cannot be read."))
        return None
    if any(not -INT32 - 1 <= points <= INT32 for points in result.scores):
        c.add(f"{rpath}.facts", gettext("These round facts give more points than can be stored."))
        return None
    return facts, result


def _match(c: Problems, raw: Any, path: str, players: dict[str, PlayerPlan]) -> MatchPlan | None:
    m = c.obj(raw, path)
    if m is None:
        return None
    key = c.text(m.get("ruleset"), f"{path}.ruleset", max_length=20)
    state, reason = m.get("state"), m.get("finish_reason", "")
    if state not in Match.State.values:
        c.add(f"{path}.state", gettext("Expected open or finished."))
    if reason not in Match.FinishReason.values:
        c.add(f"{path}.finish_reason", gettext("Expected '', rules or manual."))
    created = c.when(m.get("created_at"), f"{path}.created_at")
    finished = c.when(m.get("finished_at"), f"{path}.finished_at", null=True)
    seated: list[str] = []
    seat_values = c.items(m.get("players"), f"{path}.players", limit=_SEATS, least=1)
    for k, value in enumerate(seat_values):
        name = c.name(value, f"{path}.players[{k}]")
        if name is None:
            continue
        if name.casefold() not in players:
            c.add(f"{path}.players[{k}]", gettext("No player of this name in the file."))
        elif name.casefold() in seated:
            c.add(f"{path}.players[{k}]", gettext("A player can take only one seat."))
        else:
            seated.append(name.casefold())
    raw_rounds = c.items(m.get("rounds"), f"{path}.rounds", limit=MAX_ROUNDS)
    heads = [
        _round_head(c, r, f"{path}.rounds[{k}]", seats=len(seat_values), count=len(raw_rounds))
        for k, r in enumerate(raw_rounds)
    ]
    if key is None:
        return None
    try:
        ruleset = rules.get(key)
    except (KeyError, ModuleNotFoundError):
        c.add(f"{path}.ruleset", gettext("There is no ruleset called '%(key)s'.") % {"key": key})
        return None
    if not seat_values or len(seated) != len(seat_values):
        return None
    options = m.get("options")
    if options is not None and not isinstance(options, dict):
        c.add(f"{path}.options", gettext("Options must be a JSON object."))
        return None
    try:
        opts = ruleset.options_parse(options, players=len(seated))
    except InvalidRound as exc:
        c.merge(_prefixed(rules_failed(ruleset, exc).problems, path))
        return None
    if any(h is None for h in heads) or None in (created, state):
        return None
    if m.get("totals_only", False) is not False:
        return _totals_plan(c, m, path, key=ruleset.key, opts=opts, seated=seated, heads=heads, state=state,
                            reason=reason, created=created, finished=finished)  # fmt: skip

    numbered = [(h, f"{path}.rounds[{k}]") for k, h in enumerate(heads) if h is not None]
    live = sorted((x for x in numbered if x[0]["deleted_at"] is None), key=lambda x: x[0]["number"])
    for (h, rpath), (before, _p) in zip(live[1:], live, strict=False):
        if h["number"] == before["number"]:
            c.add(f"{rpath}.number", gettext("Two rounds have the same number."))
            return None
    names = [players[s].name for s in seated]
    done: list[Any] = []
    scored: dict[int, tuple[Any, rules.RoundResult]] = {}
    for h, rpath in live:
        outcome = _score(c, ruleset, h, rpath, done=done, opts=opts, n=len(seated))
        if outcome is None:
            return None  # the rounds after it are judged against a history that is not there
        done.append(outcome)
        scored[id(h)] = outcome
    for h, rpath in numbered:
        if h["deleted_at"] is not None:  # scored where it stood: after the live rounds numbered before it
            before = sum(1 for x, _p in live if x["number"] < h["number"])
            outcome = _score(c, ruleset, h, rpath, done=done[:before], opts=opts, n=len(seated))
            if outcome is None:
                return None
            scored[id(h)] = outcome
    end = ruleset.module.match_state(done, players=len(seated), options=opts)
    if not _state_agrees(c, path, state=state, reason=reason, finished=finished, over=end.finished):
        return None
    plan = MatchPlan(
        ruleset=ruleset.key,
        options=opts,
        state=state,
        finish_reason=reason,
        created_at=created,  # type: ignore[arg-type]  # checked above
        finished_at=finished,
        players=seated,
        winners=end.final_winners(),
        next_number=max((h["number"] for h, _p in live), default=0) + 1,  # a deleted last round frees its number
    )
    for h, _rpath in sorted(numbered, key=lambda x: (x[0]["number"], x[0]["deleted_at"] is None)):
        facts, result = scored[id(h)]
        plan.rounds.append(
            RoundPlan(
                number=h["number"],
                facts=rules.to_jsonable(facts),
                points=list(result.scores),
                explanation=explanation_store(ruleset, result, names=names),
                ruleset_version=ruleset.version,
                entered_by=h["entered_by"],
                created_at=h["created_at"],
                deleted_at=h["deleted_at"],
                uid=h["uid"],
                version=h["version"],
                updated_at=h["updated_at"] or max(h["created_at"], h["deleted_at"] or h["created_at"]),
            )
        )
    return plan


def _totals_plan(
    c: Problems,
    m: dict[str, Any],
    path: str,
    *,
    key: str,
    opts: dict[str, Any],
    seated: list[str],
    heads: list[Any],
    state: str,
    reason: str,
    created: Any,
    finished: datetime | None,
) -> MatchPlan | None:
    """A totals-only match: ``totals_only: true``, a final score per seat, no rounds, finished by hand."""
    from scoring.rules.types import best_seats
    from scoring.services.totals import POINTS_LIMIT

    before = sum(map(len, c.found.values()))
    if m.get("totals_only") is not True:
        c.add(f"{path}.totals_only", gettext("Expected true or false."))
    if heads:
        c.add(f"{path}.rounds", gettext("A match recorded from its final scores has no rounds."))
    if state != Match.State.FINISHED or reason != Match.FinishReason.MANUAL or finished is None:
        c.add(f"{path}.state", gettext("A match recorded from its final scores is finished by hand, with its time."))
    totals = c.items(m.get("totals"), f"{path}.totals", limit=_SEATS, least=1)
    if len(totals) != len(seated):
        c.add(f"{path}.totals", gettext("Give one final score for each player of the match."))
    for k, value in enumerate(totals):
        if not isinstance(value, int) or isinstance(value, bool) or not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            c.add(f"{path}.totals[{k}]", gettext("Expected a whole number between %(low)s and %(high)s.")
                  % {"low": -POINTS_LIMIT, "high": POINTS_LIMIT})  # fmt: skip
    if sum(map(len, c.found.values())) > before:
        return None
    return MatchPlan(
        ruleset=key,
        options=opts,
        state=state,
        finish_reason=reason,
        created_at=created,
        finished_at=finished,
        players=seated,
        winners=list(best_seats(totals)),
        next_number=1,
        totals_only=True,
        totals=[int(v) for v in totals],
    )


def _state_agrees(c: Problems, path: str, *, state: str, reason: str, finished: datetime | None, over: bool) -> bool:
    """An open match has no finish reason or time and is not over by the rules; an abandoned one has no reason but
    the time it was abandoned; a finished one says why and when, and "rules" only when the rules end it (a match
    finished by hand may also be over by the rules)."""
    before = len(c.found)
    if state == Match.State.OPEN:
        if reason:
            c.add(f"{path}.finish_reason", gettext("An open match has no finish reason."))
        if finished is not None:
            c.add(f"{path}.finished_at", gettext("An open match has no finishing time."))
        if over:
            c.add(f"{path}.state", gettext("The rules say this match is over after its rounds, so it cannot be open."))
    elif state == Match.State.ABANDONED:  # given up before its first round: no reason, the time it was given up
        if reason:
            c.add(f"{path}.finish_reason", gettext("An abandoned match has no finish reason."))
        if finished is None:
            c.add(f"{path}.finished_at", gettext("An abandoned match needs the time it was abandoned."))
        if over:
            c.add(f"{path}.state", gettext("The rules say this match is over after its rounds, so it cannot be open."))
    else:
        if not reason:
            c.add(f"{path}.finish_reason", gettext("A finished match needs a finish reason: rules or manual."))
        elif reason == Match.FinishReason.RULES and not over:
            c.add(f"{path}.finish_reason", gettext("The rules do not end this match after its rounds."))
        if finished is None:
            c.add(f"{path}.finished_at", gettext("A finished match needs its finishing time."))
    return len(c.found) == before


def _match_extras(
    c: Problems, m: dict[str, Any], path: str, plan: MatchPlan, versions: dict[tuple[str, int], str]
) -> bool:
    """The match's identifier, creator, house rules, BG Stats link, recorded winners (totals-only), history and
    the other side's word on its rounds onto ``plan``; False (and problems) when any is wrong."""
    before = sum(map(len, c.found.values()))
    plan.uid = uid(c, m.get("uid"), f"{path}.uid")
    if m.get("bgstats_uuid") is not None:
        plan.bgstats_uuid = c.text(m.get("bgstats_uuid"), f"{path}.bgstats_uuid", max_length=64)
    ref = m.get("house_rules")
    if ref is not None:
        r = c.obj(ref, f"{path}.house_rules") or {}
        preset = uid(c, r.get("preset"), f"{path}.house_rules.preset")
        number = r.get("version")
        if preset is None or (preset, number) not in versions or isinstance(number, bool):
            c.add(f"{path}.house_rules", gettext("No house rules of the file have this identifier and version."))
        elif versions[(preset, number)] != plan.ruleset:
            c.add(f"{path}.house_rules", gettext("These house rules are for another game."))
        else:
            plan.house_rules = (preset, number)
    if plan.totals_only and m.get("winners") is not None:
        winners = c.items(m.get("winners"), f"{path}.winners", limit=_SEATS)
        seats = len(plan.players)
        if any(not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < seats for w in winners) or len(
            set(winners)
        ) != len(winners):
            c.add(f"{path}.winners", gettext("A winner must be one of the players at the table."))
        elif winners:
            plan.winners = sorted(winners)
    round_uids = [r.uid for r in plan.rounds if r.uid is not None]
    if len(set(round_uids)) != len(round_uids):
        c.add(f"{path}.rounds", gettext("Two rounds have the same identifier."))
    plan.history = history(c, m.get("history"), path, rounds=set(round_uids))
    versions_of = {r.uid: r.version for r in plan.rounds if r.uid is not None}
    plan.checks = checks(c, m.get("checks"), path, rounds=versions_of, seated=plan.players)
    return sum(map(len, c.found.values())) == before


def document_check(data: Any, *, progress: Progress | None = None) -> Plan:
    """The import plan for ``data``, or ``ValidationFailed`` listing every problem found (at most
    ``MAX_PROBLEMS`` paths).  ``progress(done, total)`` is told how many matches have been checked."""
    from scoring.services.errors import ValidationFailed

    c = Problems()
    doc = c.obj(data, "non_field_errors")
    if doc is None:
        raise ValidationFailed(c.listed())
    if unstorable(doc):
        raise ValidationFailed.single(
            "non_field_errors", gettext("Text cannot contain NUL characters or unpaired surrogates.")
        )
    if doc.get("format") != FORMAT or doc.get("version") != FORMAT_VERSION:
        c.add("format", gettext("This is not a Scorekeeper group export (format version 1)."))
        raise ValidationFailed(c.listed())
    group = c.obj(doc.get("group"), "group") or {}
    group_name = group.get("name") if isinstance(group.get("name"), str) else None
    since = c.when(group.get("confirm_rounds_since"), "group.confirm_rounds_since", null=True)
    players = _players(c, doc)
    house_rules = presets(c, doc.get("presets"))
    versions = {(p.uid, v.number): p.ruleset for p in house_rules for v in p.versions}
    raw_matches = c.items(doc.get("matches"), "matches", limit=MAX_MATCHES)
    matches = []
    seen: dict[str, set[str]] = {"uid": set(), "bgstats_uuid": set()}
    for i, raw in enumerate(raw_matches):
        plan = _match(c, raw, f"matches[{i}]", players)
        if plan is not None and _match_extras(c, raw, f"matches[{i}]", plan, versions):
            for key, value in (("uid", plan.uid), ("bgstats_uuid", plan.bgstats_uuid)):
                if value is not None and value in seen[key]:
                    c.add(f"matches[{i}].{key}", gettext("Two matches have the same identifier."))
                elif value is not None:
                    seen[key].add(value)
            matches.append(plan)
        if progress is not None:
            progress(i + 1, len(raw_matches))
    sections = {}
    for key, section in SECTIONS.items():
        if doc.get(key) is not None:
            sections[key] = section.check(doc[key], seen["uid"], c)
    if c.found:
        raise ValidationFailed(c.listed())
    return Plan(group_name=group_name, players=players, matches=matches, presets=house_rules, sections=sections,
                confirm_rounds_since=since)  # fmt: skip
