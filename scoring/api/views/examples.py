"""OpenAPI examples: one worked example per ruleset, from each game module's ``EXAMPLE``.

Built when the schema is generated (not at import), so a game module is only
loaded when someone asks for the documentation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample

from scoring import selectors

NAMES = ("Anna", "Bence", "Csilla", "Dani", "Eszter", "Feri", "Gabi", "Hanna", "Ildi", "Jani", "Kati", "Laci")


class LazyExamples(list):  # type: ignore[type-arg]
    """A list of examples filled on first use (drf-spectacular checks ``len()`` before reading it)."""

    def __init__(self, build: Callable[[], list[OpenApiExample]]) -> None:
        super().__init__()
        self._build: Callable[[], list[OpenApiExample]] | None = build

    def _fill(self) -> None:
        if self._build is not None:
            build, self._build = self._build, None
            self.extend(build())

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def __iter__(self) -> Any:
        self._fill()
        return super().__iter__()


def _each(value: Callable[[Any, dict[str, Any]], dict[str, Any]], **flags: Any) -> LazyExamples:
    def build() -> list[OpenApiExample]:
        examples = []
        for ruleset in selectors.ruleset_list():
            example = ruleset.example
            examples.append(
                OpenApiExample(
                    ruleset.key, value=value(ruleset, example), summary=f"{ruleset.name} ({ruleset.key})", **flags
                )
            )
        return examples

    return LazyExamples(build)


def _calculator_response(ruleset: Any, example: dict[str, Any]) -> dict[str, Any]:
    from scoring.services.calculator import ruleset_score

    return ruleset_score(
        ruleset=ruleset,
        players=list(NAMES[: example["players"]]),
        options=example.get("options") or {},
        facts=example["facts"],
    )


CALCULATOR_REQUEST = _each(
    lambda r, e: {"players": list(NAMES[: e["players"]]), "options": e.get("options") or {}, "facts": e["facts"]},
    request_only=True,
)
CALCULATOR_RESPONSE = _each(_calculator_response, response_only=True)
CALCULATOR = LazyExamples(lambda: [*CALCULATOR_REQUEST, *CALCULATOR_RESPONSE])
ROUND_REQUEST = _each(lambda r, e: {"facts": e["facts"]}, request_only=True)
ROUND_EDIT_REQUEST = _each(lambda r, e: {"facts": e["facts"]}, request_only=True)
MATCH_REQUEST = _each(
    lambda r, e: {"ruleset": r.key, "options": e.get("options") or {}, "players": list(range(1, e["players"] + 1))},
    request_only=True,
)
MATCH_OPTIONS_REQUEST = _each(lambda r, e: {"options": e.get("options") or {}}, request_only=True)


def _card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


# One trick per trick-taking game (the referee has no EXAMPLE of its own; tests check each one).
TRICKS: dict[str, dict[str, Any]] = {
    "njet": {
        "setup": {"trump": "red", "super_trump": None},
        "options": {"players": 3},
        "plays": [
            {"seat": 0, "card": _card("blue", 5)},
            {"seat": 1, "card": _card("red", 1), "hand": [_card("red", 1), _card("blue", 2)]},
            {"seat": 2, "card": _card("blue", 9)},
        ],
    },
    "mue": {
        "setup": {"chief_trump": {"kind": "colour", "value": "green"}, "vice_trump": {"kind": "number", "value": 7}},
        "options": {"players": 4},
        "plays": [
            {"seat": 0, "card": _card("red", 5)},
            {"seat": 1, "card": _card("green", 2)},
            {"seat": 2, "card": _card("blue", 7)},
            {"seat": 3, "card": _card("red", 9)},
        ],
    },
    "meinz": {
        "setup": {},
        "options": {"players": 4},
        "plays": [
            {"seat": 0, "card": _card("red", 5)},
            {"seat": 1, "card": _card("blue", 3)},
            {"seat": 2, "card": _card("red", 8)},
            {"seat": 3, "card": _card("green", 6)},
        ],
    },
    "was-sticht": {
        "setup": {"trump_colour": "red", "trump_number": 2},
        "options": {"players": 4},
        "plays": [
            {"seat": 0, "card": _card("blue", 5)},
            {"seat": 1, "card": _card("red", 1)},
            {"seat": 2, "card": _card("green", 2)},
            {"seat": 3, "card": _card("blue", 8)},
        ],
    },
    "sticheln": {
        "setup": {"variant": "classic"},
        "options": {"players": 4},
        "plays": [
            {"seat": 0, "card": _card("red", 5)},
            {"seat": 1, "card": _card("yellow", 3)},
            {"seat": 2, "card": _card("red", 8)},
            {"seat": 3, "card": _card("green", 0)},
        ],
    },
}
TRICK_REQUEST = [
    OpenApiExample(key, value=value, summary=f"a trick of {key}", request_only=True) for key, value in TRICKS.items()
]
