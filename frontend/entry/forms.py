"""Round entry: turning the tap-friendly forms into the rulesets' facts and back.

Each game has a template ``frontend/entry/<key>.html`` and an adapter here (``entry_games``) with three
jobs: the form's starting values for a new round (the dealer or start player preselected), the facts a
submitted form means (``to_facts``), and the form values for an existing round (``from_facts``, for
editing). No rules live here: every check and every point comes from the ruleset through the services.
Field names are dotted paths ("tricks.2") so that the rules engine's complaints ("facts.tricks.2") land
next to the control they are about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext

from frontend.entry import counting, games  # noqa: F401 - registers the adapters
from frontend.entry.base import (  # noqa: F401 - re-exported: the views and the game adapters read them here
    ADAPTERS,
    EntryContext,
    GameEntry,
    looks_numeric,
    per_seat,
    register,
    seat_values,
    seats_checked,
    to_int,
)
from frontend.entry.fields import field_phrase
from frontend.entry.marks import candidates
from scoring import rules


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


def adapter(key: str) -> GameEntry:
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
    errors = errors or []
    return {
        "c": c,
        "seats": c.seats,
        "v": form_values,
        "errors": errors,
        # field name -> id of its first message: the inputs carry aria-invalid and aria-describedby
        "invalid": {e["field"]: e["anchor"] for e in errors if e.get("anchor")},
        # without scripts the page itself puts the cursor in the first invalid input
        "first_invalid": next((e["field"] for e in errors if e.get("anchor")), None),
        "entry_template": f"frontend/entry/{c.key}.html",
        **game.context(c),
        **game.values_context(c, form_values),
    }


def problems_for_form(
    details: list[dict[str, Any]], problems: dict[str, list[str]], names: Sequence[str] = (), post: Any = None
) -> list[dict[str, Any]]:
    """The service's complaints with the "facts." prefix taken off (fields are the form's names).

    Each names whose input it is about: ``where`` ("Anna, green"), ``full`` (that and the message), ``anchor``
    (the id of the first message about a field, for the input's aria-describedby) and ``msg`` (the rules
    engine's message id, when there is one). With the submitted ``post``, a complaint about a number field
    that holds text which is no number ("3+x", "4a1") says so in the form's own words (every game alike).
    """
    out: list[dict[str, Any]] = []
    seen = set()
    for detail in details:
        name = detail.get("field", "")
        name = (
            name[len("facts.") :]
            if name.startswith("facts.")
            else ("" if name in ("facts", "non_field_errors") else name)
        )
        out.append(
            {
                "field": name,
                "text": detail.get("text", ""),
                "rule": detail.get("rule", ""),
                "msg": detail.get("msg"),
                "params": detail.get("params") or {},
            }
        )
        seen.add(detail.get("text", ""))
    for name, messages in problems.items():
        for text in messages:
            if text not in seen:
                short = name[len("facts.") :] if name.startswith("facts.") else ""
                out.append({"field": short, "text": text, "rule": "", "msg": None})
    for problem in out:
        raw = _typed(post, problem["field"]) if post is not None and problem["field"] else None
        if raw is not None:
            problem["text"] = gettext("“%(typed)s” is not a number: type digits, or a sum such as 3+6+2.") % {
                "typed": raw.strip()
            }
            problem["msg"] = "form.not_a_number"
    anchored = set()
    for problem in out:
        where = field_phrase(problem["field"], names) if problem["field"] else ""
        problem["where"] = where
        problem["full"] = (
            gettext("%(where)s: %(text)s") % {"where": where, "text": problem["text"]} if where else problem["text"]
        )
        if problem["field"] and problem["field"] not in anchored:
            anchored.add(problem["field"])
            problem["anchor"] = f"err-{problem['field']}"
    return out


def _typed(post: Any, field: str) -> str | None:
    """The text typed into the number field a complaint is about, when it cannot be read as a number."""
    for name in candidates(field):
        raw = post.get(name)
        if looks_numeric(raw):
            return str(raw)
    return None
