"""The parts of an import document besides players, matches and rounds (``import_check`` reads those): the
stable identifiers, the house rules with their versions, a match's history and the other side's confirmations
and disputes of its rounds.  Each check adds its problems under a field path and returns what the writer needs,
or None when something is wrong.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext

from scoring import rules
from scoring.models import RoundCheck, RoundEvent
from scoring.services.errors import ValidationFailed
from scoring.transfer.import_fields import INT32, Problems
from scoring.transfer.import_plan import CheckPlan, EventPlan, PresetPlan, VersionPlan

MAX_PRESETS = 1000
MAX_VERSIONS = 1000  # per preset
MAX_EVENTS = 20_000  # per match: a thousand rounds, each edited, deleted and restored a few times
MAX_CHECKS = 1000  # per match: one per round
_SAYS = {RoundEvent.Action.CONFIRM: RoundCheck.State.CONFIRMED, RoundEvent.Action.DISPUTE: RoundCheck.State.DISPUTED}


def uid(c: Problems, value: Any, path: str) -> str | None:
    """A stable identifier (a UUID) in its canonical text, None when the document has none (older files)."""
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) > 45:
            raise ValueError
        return str(uuid.UUID(value))
    except ValueError:
        c.add(path, gettext("Expected an identifier such as 0f8fad5b-d9cb-469f-a165-70867728950e."))
        return None


# --- house rules ------------------------------------------------------------------------------------------------


def _version(c: Problems, raw: Any, path: str, ruleset: rules.Ruleset) -> VersionPlan | None:
    from scoring.services.presets import NAME_MAX, preset_options_parse

    v = c.obj(raw, path)
    if v is None:
        return None
    number = c.whole(v.get("number"), f"{path}.number", low=1, high=INT32)
    name = c.name(v.get("name"), f"{path}.name")
    if name is not None and len(name) > NAME_MAX:
        c.add(f"{path}.name", gettext("Expected a text of 1 to %(n)d characters.") % {"n": NAME_MAX})
        name = None
    created = c.when(v.get("created_at"), f"{path}.created_at")
    try:
        options = preset_options_parse(ruleset, v.get("options"))
    except ValidationFailed as exc:
        for key, texts in exc.problems.items():
            for text in texts:
                c.add(f"{path}.{key}", text)
        return None
    if None in (number, name, created):
        return None
    return VersionPlan(number, name, options, created)  # type: ignore[arg-type]  # checked above


def presets(c: Problems, value: Any) -> list[PresetPlan]:
    """The document's house rules (``presets``; an older file has none)."""
    out: list[PresetPlan] = []
    seen: set[str] = set()
    for i, raw in enumerate(c.items(value if value is not None else [], "presets", limit=MAX_PRESETS)):
        path = f"presets[{i}]"
        p = c.obj(raw, path)
        if p is None:
            continue
        key = uid(c, p.get("uid"), f"{path}.uid")
        if p.get("uid") is None:
            c.add(f"{path}.uid", gettext("House rules need their identifier."))
        elif key in seen:
            c.add(f"{path}.uid", gettext("Two house rules have the same identifier."))
        name = c.name(p.get("name"), f"{path}.name")
        default = p.get("is_default", False)
        if not isinstance(default, bool):
            c.add(f"{path}.is_default", gettext("Expected true or false."))
        created = c.when(p.get("created_at"), f"{path}.created_at")
        archived = c.when(p.get("archived_at"), f"{path}.archived_at", null=True)
        ruleset_key = c.text(p.get("ruleset"), f"{path}.ruleset", max_length=20)
        raw_versions = c.items(p.get("versions"), f"{path}.versions", limit=MAX_VERSIONS, least=1)
        try:
            ruleset = rules.get(ruleset_key or "")
        except (KeyError, ModuleNotFoundError):
            if ruleset_key is not None:
                c.add(f"{path}.ruleset", gettext("There is no ruleset called '%(key)s'.") % {"key": ruleset_key})
            continue
        versions = [_version(c, v, f"{path}.versions[{k}]", ruleset) for k, v in enumerate(raw_versions)]
        numbers = [v.number for v in versions if v is not None]
        if len(set(numbers)) != len(numbers):
            c.add(f"{path}.versions", gettext("Two versions have the same number."))
            continue
        if key is None or key in seen or name is None or created is None or None in versions or not versions:
            continue
        seen.add(key)
        plan = PresetPlan(key, ruleset.key, name, default is True, created, archived)
        plan.versions = sorted((v for v in versions if v is not None), key=lambda v: v.number)
        out.append(plan)
    return out


# --- a match's history ------------------------------------------------------------------------------------------


def _snapshot(c: Problems, value: Any, path: str) -> tuple[bool, dict[str, Any] | None]:
    if value is None:
        return True, None
    if not isinstance(value, dict):
        c.add(path, gettext("Expected a JSON object or null."))
        return False, None
    return True, value


def history(c: Problems, value: Any, path: str, *, rounds: set[str]) -> list[EventPlan] | None:
    """A match's events, oldest first (``history``; None for an older file, whose history the import starts).
    Events are a record, never replayed, with one exception: undoing an edit puts back the facts it replaced
    (and the rules check them again), so an edit names them, and an undo names an earlier event."""
    if value is None:
        return None
    found = sum(map(len, c.found.values()))
    out: list[EventPlan] = []
    for k, raw in enumerate(c.items(value, f"{path}.history", limit=MAX_EVENTS)):
        epath = f"{path}.history[{k}]"
        e = c.obj(raw, epath)
        if e is None:
            continue
        action = e.get("action")
        if action not in RoundEvent.Action.values:
            known = ", ".join(RoundEvent.Action.values)
            c.add(f"{epath}.action", gettext("Expected one of: %(list)s.") % {"list": known})
        round_uid = uid(c, e.get("round"), f"{epath}.round")
        if round_uid is not None and round_uid not in rounds:
            c.add(f"{epath}.round", gettext("No round of this match has this identifier."))
        number = e.get("round_number")
        if number is not None:
            number = c.whole(number, f"{epath}.round_number", low=1, high=INT32)
        actor = c.text(e.get("actor"), f"{epath}.actor", null=True)
        at = c.when(e.get("at"), f"{epath}.at")
        ok_before, before = _snapshot(c, e.get("before"), f"{epath}.before")
        ok_after, after = _snapshot(c, e.get("after"), f"{epath}.after")
        if action == "edit" and round_uid is not None and (before is None or "facts" not in before):
            c.add(f"{epath}.before", gettext("An edit keeps the facts it replaced."))
        if after is not None and "undoes" in after:
            target = after["undoes"]
            if action != "undo" or not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < k:
                c.add(f"{epath}.after.undoes", gettext("An undo names an earlier event of the match by its place."))
        if action in _SAYS:
            _said(c, e, epath, str(_SAYS[action]), ok_after and after is not None)
        elif action == RoundEvent.Action.ABANDON and e.get("round") is not None:
            c.add(f"{epath}.round", gettext("A match is abandoned whole: the line names no round."))
        if at is not None and ok_before and ok_after:
            out.append(EventPlan(str(action), round_uid, number, actor, at, before, after))
    if sum(map(len, c.found.values())) > found:
        return None
    return out


def _said(c: Problems, e: dict[str, Any], epath: str, state: str, has_after: bool) -> None:
    """A confirmation or dispute in the history: of a round, saying what the other side said of which version."""
    from scoring.services.confirm import NOTE_MAX

    if e.get("round") is None:
        c.add(f"{epath}.round", gettext("A confirmation or dispute names its round."))
    if not has_after:
        c.add(f"{epath}.after", gettext("A confirmation or dispute keeps what was said, for which version."))
        return
    after = e["after"]
    if after.get("state") != state:
        c.add(f"{epath}.after.state", gettext("Expected '%(state)s', as the line's action says.") % {"state": state})
    c.whole(after.get("version"), f"{epath}.after.version", low=1, high=INT32)
    note = after.get("note", "")
    if not isinstance(note, str) or len(note) > NOTE_MAX:
        c.add(f"{epath}.after.note", gettext("Expected a text of at most %(n)d characters.") % {"n": NOTE_MAX})


# --- the other side's word on the rounds ------------------------------------------------------------------------


def checks(c: Problems, value: Any, path: str, *, rounds: dict[str, int], seated: list[str]) -> list[CheckPlan]:
    """The match's confirmations and disputes (``checks``; none in an older file or a match without any): each of
    a round of the match (``rounds``: uid -> the round's version), at most one per round, for a version the round
    has had, by a player seated in the match (``seated``: their keys)."""
    from scoring.services.confirm import note_clean

    if value is None:
        return []
    out: list[CheckPlan] = []
    seen: set[str] = set()
    for k, raw in enumerate(c.items(value, f"{path}.checks", limit=MAX_CHECKS)):
        cpath = f"{path}.checks[{k}]"
        found = sum(map(len, c.found.values()))
        ch = c.obj(raw, cpath)
        if ch is None:
            continue
        key = uid(c, ch.get("round"), f"{cpath}.round")
        if (key is None and ch.get("round") is None) or (key is not None and key not in rounds):
            c.add(f"{cpath}.round", gettext("No round of this match has this identifier."))
        elif key is not None and key in seen:
            c.add(f"{cpath}.round", gettext("A round has one confirmation or dispute at most."))
        state = ch.get("state")
        if state not in RoundCheck.State.values:
            c.add(f"{cpath}.state", gettext("Expected confirmed or disputed."))
        version = c.whole(ch.get("version"), f"{cpath}.version", low=1, high=rounds.get(key or "", INT32))
        by = c.text(ch.get("by"), f"{cpath}.by", null=True)
        player = c.name(ch.get("player"), f"{cpath}.player") if ch.get("player") is not None else None
        if player is not None and player.casefold() not in seated:
            c.add(f"{cpath}.player", gettext("Who confirms or disputes a round is a player of its match."))
        note = ""
        try:
            note = note_clean(ch.get("note"))
        except ValidationFailed as exc:
            for text in exc.problems.get("note", []):
                c.add(f"{cpath}.note", text)
        at = c.when(ch.get("at"), f"{cpath}.at")
        if sum(map(len, c.found.values())) == found and key is not None and version is not None and at is not None:
            seen.add(key)
            out.append(CheckPlan(key, str(state), version, by, player.casefold() if player else None, note, at))
    return out
