"""Filling message templates: players by name, ids as labels, plurals, and the Hungarian article.

Pure Python (no Django). The Django layer passes its ``gettext``/``ngettext`` and the players' names; without
them a template is filled in English, a seat reads "player 1" (1-based: nobody at a table counts from 0).

Which params are what is declared per message in a game module's ``PARAMS`` (see ``types.py``): the kind
``"player"`` marks a seat number; any other kind is a message-id prefix, and the value ``v`` is shown as the
message ``"<kind>.<v>"`` (a translated label such as "Exactly 2 tricks") whenever the module has one.

Every value is wrapped in :class:`Word`, so a translated template may write ``{place:a}`` for the value with
its Hungarian article ("a 3", "az 1", "az Éva"); ``{place:A}`` capitalises the article at a sentence start;
``{value:aq}`` quotes the value after its article (az „Éva”).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from string import Formatter
from typing import Any

from .types import N_, PLAYER, Plural

PLAYER_FALLBACK = N_("player {number}")

Translate = Callable[[str], str]
NTranslate = Callable[[str, str, int], str]

_VOWELS = frozenset("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")


def article(word: Any) -> str:
    """The Hungarian definite article before ``word``: "az" before a vowel sound, else "a".

    Numbers count as they are read out: 1 (egy), 5 (öt), 50 (ötven), 500, 1000 (ezer), 1 000 000 (egymillió)
    take "az"; 2, 10 (tíz), 100 (száz), 10 000 (tízezer) take "a". Ordinals ("1.") read the same; a leading
    sign, quote or bracket is skipped ("−5" reads "mínusz öt": "a").
    """
    text = str(word).strip()
    if text[:1] in ("-", "−"):
        return "a"
    text = text.lstrip("\"'„“”«»([")
    if not text:
        return "a"
    if text[0].isdigit():
        digits = ""
        for ch in text:
            if ch.isdigit():
                digits += ch
            elif ch not in " \u00a0\u202f":  # thousands may be grouped with (narrow) spaces
                break
        digits = digits.lstrip("0") or "0"
        first = digits[0]
        if first == "5":
            return "az"
        # a leading 1 is "egy" (1), "ezer" (1 000) or "egymillió" (1 000 000): every third place from the units
        return "az" if first == "1" and len(digits) % 3 == 1 else "a"
    return "az" if text[0] in _VOWELS else "a"


def with_article(word: Any, *, capital: bool = False) -> str:
    """``word`` with its article in front: "az 1.", "a 2.", "az Éva"."""
    art = article(word)
    return f"{art.capitalize() if capital else art} {word}"


class Word:
    """A template value that also knows its article: ``{x:a}`` → "az 1", ``{x:A}`` → "Az 1"."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        if spec in ("a", "A"):
            return with_article(self, capital=spec == "A")
        if spec in ("aq", "Aq"):  # quoted: az „Éva”
            return f"{article(self.value).capitalize() if spec == 'Aq' else article(self.value)} „{self}”"
        value = self.value
        if spec == "" and isinstance(value, int) and not isinstance(value, bool) and value < 0:
            return f"−{-value}"  # one minus sign everywhere (U+2212), as the score columns print it
        return format(value, spec)

    def __str__(self) -> str:
        return format(self, "")


def seat_name(seat: Any, names: Any = None, translate: Translate | None = None) -> str:
    """The player in ``seat``: the name when known, else "player 1" for seat 0 (in the active language)."""
    if names is not None and isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return str(names[seat])
    template = translate(PLAYER_FALLBACK) if translate is not None else PLAYER_FALLBACK
    number = seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat
    return template.format(number=number)


_ID = re.compile(r"[A-Za-z][\w-]*")


def _labelled(kind: str, value: Any, labels: Mapping[str, str], translate: Translate | None) -> Any:
    """An id as its label; ids inside a value ("betli, most", "red 2 + red 5") label by label. Words that are
    no id of this kind stay as they are."""
    if isinstance(value, bool) or not isinstance(value, str):
        return value

    def label(match: re.Match[str]) -> str:
        found = labels.get(f"{kind}.{match.group(0)}")
        if found is None:
            return match.group(0)
        return translate(found) if translate is not None else found

    return _ID.sub(label, value)


def fill(
    template: str,
    params: Mapping[str, Any],
    *,
    kinds: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
    names: Any = None,
    translate: Translate | None = None,
    ntranslate: NTranslate | None = None,
) -> str:
    """``template`` (an English message template) translated and filled with ``params``.

    ``kinds``: this message's param kinds; ``labels``: the module's messages, where label ids are looked up;
    ``names``: the players' names in seat order.
    """
    kinds = kinds or {}
    if isinstance(template, Plural):
        count = params.get(template.count_param)
        number = count if isinstance(count, int) else 2
        if ntranslate is not None:
            text = ntranslate(str(template), template.plural, number)
        else:
            text = str(template) if number == 1 else template.plural
            text = translate(text) if translate is not None else text
    else:
        text = translate(template) if translate is not None else template
    plain = _plain_fields(text)
    values: dict[str, Any] = {}
    for key, value in params.items():
        kind = kinds.get(key)
        shown: Any = value
        if kind == PLAYER:
            shown = seat_name(value, names, translate)
        elif kind is not None and labels is not None:
            shown = _labelled(kind, value, labels, translate)
        if not plain:
            shown = Word(shown)
        elif isinstance(shown, int) and not isinstance(shown, bool) and shown < 0:
            shown = f"−{-shown}"  # what Word writes for a negative number without a spec
        values[key] = shown
    return text.format_map(values)


@lru_cache(maxsize=4096)
def _plain_fields(text: str) -> bool:
    """Whether every field of ``text`` is a bare ``{name}`` (no article, no spec, no conversion): then the values
    are filled as :class:`Word` would write them without a spec, with no Word made."""
    try:
        fields = [
            (name, spec, conversion) for _lit, name, spec, conversion in Formatter().parse(text) if name is not None
        ]
    except ValueError:  # a broken template: filled the long way, which raises as before
        return False
    return all(name.isidentifier() and not spec and conversion is None for name, spec, conversion in fields)
