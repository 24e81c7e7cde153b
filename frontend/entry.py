"""Round entry: turning the tap-friendly forms into the rulesets' facts and back.

Each game has a template ``frontend/entry/<key>.html`` and an adapter here (``entry_games``) with three
jobs: the form's starting values for a new round (the dealer or start player preselected), the facts a
submitted form means (``to_facts``), and the form values for an existing round (``from_facts``, for
editing). No rules live here: every check and every point comes from the ruleset through the services.
Field names are dotted paths ("tricks.2") so that the rules engine's complaints ("facts.tricks.2") land
next to the control they are about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.datastructures import MultiValueDict

from scoring import rules
from scoring.rules import Ruleset


@dataclass
class EntryContext:
    """What a round-entry form needs to know about its match."""

    ruleset: Ruleset
    names: list[str]
    options: dict[str, Any]
    board: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.ruleset.key

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": s, "name": name} for s, name in enumerate(self.names)]

    def ref(self, name: str) -> int | None:
        """Seat of the board's next dealer / next starter, if the rules fix it."""
        ref = self.board.get(name)
        return ref["seat"] if isinstance(ref, dict) else None

    @property
    def module(self) -> Any:
        return self.ruleset.module


def values(data: dict[str, Any]) -> MultiValueDict:
    """Form values as the templates read them: every value a list of strings."""
    out: MultiValueDict = MultiValueDict()
    for name, value in data.items():
        if value is None:
            continue
        items = value if isinstance(value, (list, tuple, set)) else [value]
        out.setlist(name, [_text(item) for item in items if item is not None])
    return out


def _text(value: Any) -> str:
    if value is True:
        return "on"
    return str(value)


def to_int(raw: Any, default: Any = None) -> Any:
    """A whole number from a form field; blank gives ``default``; anything else is passed on unchanged so
    that the rules engine names the problem ("Must be a whole number")."""
    if raw is None:
        return default
    text = str(raw).strip().replace("−", "-")
    if text == "":
        return default
    try:
        return int(text)
    except ValueError:
        return text


def per_seat(post: Any, name: str, n: int, default: Any = 0) -> list[Any]:
    return [to_int(post.get(f"{name}.{seat}"), default) for seat in range(n)]


def seats_checked(post: Any, name: str) -> list[Any]:
    return sorted({to_int(v) for v in post.getlist(name) if str(v).strip() != ""}, key=str)


def seat_values(name: str, items: Any) -> dict[str, Any]:
    return {f"{name}.{seat}": value for seat, value in enumerate(items or ())}


class GameEntry:
    """Default adapter: the facts' fields are the form's field names (flat values and per-seat lists)."""

    key = ""

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        return {}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        raise NotImplementedError

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in facts.items():
            if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
                out.update(seat_values(name, value))
            elif not isinstance(value, (list, dict)):
                out[name] = value
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        return {}


ADAPTERS: dict[str, GameEntry] = {}


def register(cls: type[GameEntry]) -> type[GameEntry]:
    ADAPTERS[cls.key] = cls()
    return cls


def adapter(key: str) -> GameEntry:
    from frontend import entry_games  # noqa: F401 - registers the adapters

    return ADAPTERS[key]


def context_for(match: Any, board: dict[str, Any]) -> EntryContext:
    ruleset = rules.get(match.ruleset)
    names = [p["name"] for p in board["players"]]
    return EntryContext(ruleset=ruleset, names=names, options=dict(match.options), board=board)


def form_context(
    c: EntryContext,
    *,
    post: Any = None,
    facts: dict[str, Any] | None = None,
    errors: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Template context for the entry form: values from a submission, a stored round, or the defaults."""
    game = adapter(c.key)
    if post is not None:
        form_values = post
    elif facts is not None:
        form_values = values(game.from_facts(facts, c))
    else:
        form_values = values(game.defaults(c))
    return {
        "c": c,
        "seats": c.seats,
        "v": form_values,
        "errors": errors or [],
        "entry_template": f"frontend/entry/{c.key}.html",
        **game.context(c),
    }


def problems_for_form(details: list[dict[str, Any]], problems: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The service's complaints with the "facts." prefix taken off (fields are the form's names)."""
    out = []
    seen = set()
    for detail in details:
        name = detail.get("field", "")
        name = (
            name[len("facts.") :]
            if name.startswith("facts.")
            else ("" if name in ("facts", "non_field_errors") else name)
        )
        out.append({"field": name, "text": detail.get("text", ""), "rule": detail.get("rule", "")})
        seen.add(detail.get("text", ""))
    for name, messages in problems.items():
        for text in messages:
            if text not in seen:
                short = name[len("facts.") :] if name.startswith("facts.") else ""
                out.append({"field": short, "text": text, "rule": ""})
    return out
