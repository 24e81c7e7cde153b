"""House rules: a group's named option presets per game, versioned.

A preset names a set of options for one game ("our NJET: Hungarian edition, difference recording"); at most one
preset per game is the group's default for new matches.  Its name and options live in immutable versions:
editing a preset adds a version, so a match started from version 2 keeps saying "version 2" (and keeps its own
copy of the options) whatever happens to the preset later.  Removing a preset archives it: the matches started
from it still show its name.

Options are stored as the game's ruleset parses them (every default filled in), without the per-match set-ups
(``json`` options such as Was sticht?'s drafted task cards): those belong to a match, not to a house rule.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Preset, PresetVersion
from scoring.rules import InvalidRound, Ruleset
from scoring.services.access import _name_clean, member_require
from scoring.services.common import rules_failed, ruleset_get
from scoring.services.errors import Conflict, ValidationFailed

NAME_MAX = 60


def preset_option_keys(ruleset: Ruleset) -> list[str]:
    """The options a preset holds: every option of the game but the per-match set-ups."""
    return [spec.key for spec in ruleset.options if spec.kind != "json"]


def preset_options_parse(ruleset: Ruleset, options: Any, *, language: str | None = None) -> dict[str, Any]:
    """``options`` checked and completed by the ruleset, for no particular number of players.

    Some checks depend on the table (Muzicando's teams need 4 players): the options pass when they suit at
    least one player count the game allows.  Otherwise the complaints are those of the count with the fewest
    (so that "teams need at least 8 deals" is not hidden behind "teams need 4 players"), each naming its option.
    ``language`` fills the defaults that depend on it (NJET: the edition), as for a new match.
    """
    if options is not None and not isinstance(options, dict):
        raise ValidationFailed.single("options", gettext("Options must be a JSON object."))
    keys = preset_option_keys(ruleset)
    given = {**ruleset.language_defaults(language), **(options or {})}
    counts = range(ruleset.min_players, ruleset.max_players + 1)
    setups = {spec.key for spec in ruleset.options if spec.kind == "json"} - set(given)
    if setups:
        # a preset holds no per-match set-up (Was sticht?'s drafted task cards), but the parser needs one: the
        # game's worked example lends its own, at its table size, so that the rest is checked as for a match
        example = ruleset.example
        given = {**{key: example["options"][key] for key in setups}, **given}
        counts = range(example["players"], example["players"] + 1)
    best: InvalidRound | None = None
    for players in counts:
        try:
            parsed = ruleset.options_parse(given, players=players)
        except InvalidRound as exc:
            if best is None or len(exc.problems) < len(best.problems):
                best = exc
            continue
        return {key: parsed[key] for key in keys}
    assert best is not None
    raise rules_failed(ruleset, best)


def _ruleset_with_options(key: Any) -> Ruleset:
    ruleset = ruleset_get(key if isinstance(key, str) else "")
    if not preset_option_keys(ruleset):
        raise ValidationFailed.single("ruleset", gettext("This game has no options to keep as house rules."))
    return ruleset


def _version_add(*, preset: Preset, name: str, options: dict[str, Any], user: Any) -> PresetVersion:
    """The next version of ``preset`` (call with the preset's row locked)."""
    last = PresetVersion.objects.filter(preset=preset).aggregate(n=Max("number"))["n"] or 0
    return PresetVersion.objects.create(preset=preset, number=last + 1, name=name, options=options, created_by=user)


def _name_taken(*, group: Group, ruleset: str, name: str, exclude: int | None = None) -> bool:
    found = Preset.objects.filter(group=group, ruleset=ruleset, name=name, archived_at__isnull=True)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return found.exists()


def _name_refused(name: str) -> ValidationFailed:
    return ValidationFailed.single(
        "name", gettext("This group already has house rules called “%(name)s” for this game.") % {"name": name}
    )


def preset_create(
    *,
    group: Group,
    ruleset: str,
    name: Any,
    options: Any,
    user: Any,
    is_default: bool = False,
    language: str | None = None,
) -> Preset:
    """Save house rules for ``ruleset`` in ``group`` (version 1); ``is_default`` makes them the game's default."""
    member_require(group=group, user=user)
    rules = _ruleset_with_options(ruleset)
    clean = _name_clean(name, max_length=NAME_MAX)
    parsed = preset_options_parse(rules, options, language=language)
    with transaction.atomic():
        Group.objects.select_for_update().only("pk").get(pk=group.pk)  # one writer of the group's presets at a time
        if _name_taken(group=group, ruleset=rules.key, name=clean):
            raise _name_refused(clean)
        if is_default:
            Preset.objects.filter(group=group, ruleset=rules.key, is_default=True).update(is_default=False)
        preset = Preset.objects.create(
            group=group, ruleset=rules.key, name=clean, is_default=is_default, created_by=user
        )
        _version_add(preset=preset, name=clean, options=parsed, user=user)
    return preset


def _locked(preset: Preset) -> Preset:
    locked = Preset.objects.select_for_update().get(pk=preset.pk)
    if locked.archived_at is not None:
        raise Conflict(gettext("These house rules were removed."))
    return locked


def preset_update(*, preset: Preset, user: Any, name: Any = None, options: Any = None) -> PresetVersion:
    """Rename the preset and/or change its options: a new version (the matches started from an older one keep
    theirs).  Options given replace the preset's options (left-out ones take the game's defaults); ``None``
    keeps them.  Nothing changed: the current version, no new one."""
    member_require(group=preset.group, user=user)
    rules = ruleset_get(preset.ruleset)
    clean = None if name is None else _name_clean(name, max_length=NAME_MAX)
    parsed = None if options is None else preset_options_parse(rules, options)
    with transaction.atomic():
        Group.objects.select_for_update().only("pk").get(pk=preset.group_id)
        locked = _locked(preset)
        current = preset_current_version(preset=locked)
        new_name = clean if clean is not None else current.name
        new_options = parsed if parsed is not None else current.options
        if new_name == current.name and new_options == current.options:
            return current
        if new_name != locked.name:
            if _name_taken(group=locked.group, ruleset=locked.ruleset, name=new_name, exclude=locked.pk):
                raise _name_refused(new_name)
            locked.name = new_name
            locked.save(update_fields=["name"])
        version = _version_add(preset=locked, name=new_name, options=new_options, user=user)
    preset.name = locked.name
    return version


def preset_set_default(*, preset: Preset, user: Any, is_default: bool = True) -> Preset:
    """Make ``preset`` its game's default for new matches in the group (the former default stops being one);
    ``is_default=False``: the game has no default any more."""
    member_require(group=preset.group, user=user)
    try:
        with transaction.atomic():
            Group.objects.select_for_update().only("pk").get(pk=preset.group_id)
            locked = _locked(preset)
            if is_default:
                Preset.objects.filter(group_id=locked.group_id, ruleset=locked.ruleset, is_default=True).exclude(
                    pk=locked.pk
                ).update(is_default=False)
            locked.is_default = is_default
            locked.save(update_fields=["is_default"])
    except IntegrityError:  # pragma: no cover - the group's row lock orders the writers
        raise Conflict(gettext("Someone changed the house rules meanwhile; try again.")) from None
    preset.is_default = is_default
    return preset


def preset_delete(*, preset: Preset, user: Any) -> None:
    """Remove the preset from the group's list (archived: matches started from it keep showing its name)."""
    member_require(group=preset.group, user=user)
    with transaction.atomic():
        locked = Preset.objects.select_for_update().get(pk=preset.pk)
        if locked.archived_at is not None:
            return
        locked.archived_at, locked.is_default = timezone.now(), False
        locked.save(update_fields=["archived_at", "is_default"])


def preset_list(*, group: Group, user: Any, ruleset: str | None = None) -> QuerySet[Preset]:
    """The group's house rules (not the removed ones), by game then name, each with ``current`` (its newest
    version) set once evaluated through :func:`preset_versions_attach`."""
    member_require(group=group, user=user)
    presets = Preset.objects.filter(group=group, archived_at__isnull=True).select_related("group")
    if ruleset:
        presets = presets.filter(ruleset=ruleset)
    return presets.order_by("ruleset", "-is_default", "name", "id")


def preset_versions_attach(presets: list[Preset]) -> list[Preset]:
    """Set ``preset.current`` (the newest version) on every preset, in one query."""
    newest: dict[int, PresetVersion] = {}
    for version in PresetVersion.objects.filter(preset__in=presets).order_by("preset_id", "number"):
        newest[version.preset_id] = version
    for preset in presets:
        preset.current = newest.get(preset.pk)  # type: ignore[attr-defined]
    return presets


def preset_current_version(*, preset: Preset) -> PresetVersion:
    return PresetVersion.objects.filter(preset=preset).order_by("-number").first()  # type: ignore[return-value]


def preset_get(*, group: Group, preset_id: Any, include_archived: bool = False) -> Preset:
    """A preset of ``group`` (Http404 otherwise, as the selectors answer: no id outside the group is known)."""
    if isinstance(preset_id, bool) or not isinstance(preset_id, (int, str)) or not str(preset_id).isascii():
        raise Http404
    if not str(preset_id).isdigit() or not 0 < int(preset_id) < 2**63:
        raise Http404
    presets = Preset.objects.filter(group=group).select_related("group")
    if not include_archived:
        presets = presets.filter(archived_at__isnull=True)
    try:
        return presets.get(pk=int(preset_id))
    except Preset.DoesNotExist:
        raise Http404 from None


def preset_default(*, group: Group, ruleset: str) -> Preset | None:
    return Preset.objects.filter(group=group, ruleset=ruleset, is_default=True, archived_at__isnull=True).first()


def preset_version_for(*, group: Group, ruleset: Ruleset, preset_id: Any) -> PresetVersion:
    """The current version of the group's preset ``preset_id`` for starting a match of ``ruleset``, or a
    field error naming ``preset``."""
    try:
        preset = preset_get(group=group, preset_id=preset_id)
    except Http404:
        raise ValidationFailed.single("preset", gettext("This group has no such house rules.")) from None
    if preset.ruleset != ruleset.key:
        raise ValidationFailed.single("preset", gettext("These house rules are for another game."))
    return preset_current_version(preset=preset)
