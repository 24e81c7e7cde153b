"""Template helpers: links to the rules reference, form values, labels for rules-engine ids."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from frontend.entry import labels
from frontend.rulebook import anchor_game, anchor_title
from scoring.rules.wording import with_article
from scoring.text.numbers import decimal_mark, decimal_text

register = template.Library()


@register.simple_tag
def rule_url(anchor: str) -> str:
    """The rules-reference page and anchor for a rule id such as "njet-scoring"."""
    key = anchor_game(anchor or "")
    if key is None:
        return reverse("rules") + (f"#{anchor}" if anchor else "")
    return f"{reverse('rules_game', args=[key])}#{anchor}"


@register.filter
def rule_title(anchor: str) -> str:
    return anchor_title(anchor or "")


@register.simple_tag
def fname(name: str, seat: Any = None) -> str:
    """A per-seat field name: ``tricks`` and seat 2 give ``tricks.2``."""
    return name if seat is None or seat == "" else f"{name}.{seat}"


@register.simple_tag
def chk(values: Any, name: str, value: Any, seat: Any = None) -> str:
    """ " checked" when ``value`` is among the form values of ``name`` (of ``seat``'s field, if given)."""
    if values is None:
        return ""
    return " checked" if str(value) in values.getlist(fname(name, seat)) else ""


@register.simple_tag
def sel(values: Any, name: str, value: Any, seat: Any = None) -> str:
    if values is None:
        return ""
    return " selected" if str(value) in values.getlist(fname(name, seat)) else ""


@register.simple_tag
def val(values: Any, name: str, default: Any = "", seat: Any = None) -> Any:
    if values is None:
        return default
    got = values.get(fname(name, seat))
    return default if got is None else got


@register.filter
def tojson(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@register.simple_tag
def errs(errors: Any, *prefixes: str) -> list[dict[str, Any]]:
    """The problems whose field is one of ``prefixes`` or lies under one of them."""
    out = []
    for problem in errors or ():
        field = problem.get("field", "")
        if any(field == p or field.startswith(p + ".") for p in prefixes):
            out.append(problem)
    return out


@register.simple_tag
def seat_errs(errors: Any, seat: Any, *names: str) -> list[dict[str, Any]]:
    """The problems about one seat's inputs: fields "<name>.<seat>" (and below) for one of ``names``."""
    out = []
    for problem in errors or ():
        parts = str(problem.get("field", "")).split(".")
        if len(parts) >= 2 and parts[0] in names and parts[1] == str(seat):
            out.append(problem)
    return out


@register.simple_tag
def field_errs(errors: Any, *names: str) -> list[dict[str, Any]]:
    """The problems about exactly these fields (not the per-seat fields below them)."""
    return [problem for problem in errors or () if problem.get("field", "") in names]


@register.filter
def colour(value: Any) -> Any:
    return labels.colour(value)


@register.filter
def swatch(value: Any) -> str:
    return labels.SWATCHES.get(str(value), "#777")


@register.simple_tag
def choice(option: str, value: Any) -> Any:
    return labels.choice(option, value)


@register.filter
def tr(text: Any) -> str:
    """Translate a string that came from the rules engine (marked there with ``N_``)."""
    return gettext(str(text)) if text else ""


@register.filter
def get(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def signed(value: Any) -> str:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"+{number}" if number > 0 else ("−" + str(-number) if number < 0 else "0")


@register.filter
def num(value: Any, places: Any = None) -> str:
    """A number as the score columns print it: one minus sign (U+2212), no plus; "–" for nothing. A decimal is
    rounded once (``scoring.text.numbers.decimal_text``) to ``places`` decimals, or to at most two without trailing
    zeros, and written with the reader's decimal mark ("50,17" in Hungarian)."""
    if value is None or value == "":
        return "–"
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        mark = decimal_mark(get_language())
        if isinstance(value, int):
            return decimal_text(value, 0)
        if places is None or places == "":
            return decimal_text(value, 2, mark=mark, trim=True)
        return decimal_text(value, int(places), mark=mark)
    text = str(value)
    return "−" + text[1:] if re.fullmatch(r"-\d[\d.,]*", text) else text


@register.filter
def az(value: Any, capital: bool = False) -> str:
    """The value with its Hungarian article in front: ``{{ 1|az }}`` → "az 1", ``{{ "Bence"|az:True }}`` → "A Bence"."""
    return with_article(value, capital=bool(capital))


@register.simple_tag
def seq(low: Any, high: Any) -> range:
    return range(int(low), int(high) + 1)


@register.filter
def who(name: Any) -> SafeString:
    """A player's name in a sentence that app.js may update (the form's "Dealer: …" line follows the board)."""
    return format_html("<span data-who>{}</span>", name)
