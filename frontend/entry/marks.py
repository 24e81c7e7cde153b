"""Marking a refused entry form: every input a refusal is about carries aria-invalid, and every link of the
error box leads to one of them.

The rules engine names fields by the facts' paths ("tricks.2", "seats.1.chooser", "contract.level"), while the
forms draw them with their own controls (radio chips, steppers, selects, names such as "chooser.1" or
"contract_type"). Rather than teach every game template every path, the rendered form is read back: for each
field the error box links to, the controls drawing it are found by name, marked (aria-invalid, aria-describedby
pointing at the message beside them), and the link is pointed at the first of them; the first refused control
takes the cursor when the page loads without scripts. In a form with a quick and a full entry only the inputs of
the entry in use are marked.
"""

from __future__ import annotations

import html
import re

_FORM = re.compile(r'<form id="entry-form".*?</form>', re.S)
_LINK = re.compile(r'<a href="#f-([^"]+)">')
_CONTROL = re.compile(r"<(?:input|select|textarea)\b[^>]*>")
_ATTR = re.compile(r'\s([a-zA-Z-]+)(?:="([^"]*)")?')


def _attrs(tag: str) -> dict[str, str]:
    return {m.group(1): html.unescape(m.group(2) or "") for m in _ATTR.finditer(tag)}


def candidates(field: str) -> list[str]:
    """Form names that may draw a field the rules engine names ``field``, most likely first."""
    parts = field.split(".")
    out = [field, "_".join(parts)]
    if len(parts) >= 3 and parts[0] == "seats" and parts[1].isdigit():
        out += [f"{parts[2]}.{parts[1]}", parts[2]]
    for cut in range(len(parts) - 1, 0, -1):  # "holding.0" -> "holding", "seats.0.chooser.value" -> "seats.0.chooser"
        out.append(".".join(parts[:cut]))
    for cut in range(1, len(parts)):  # "contract.level" -> "level"
        out.append(".".join(parts[cut:]))
    return list(dict.fromkeys(out))


def _controls(form: str) -> list[tuple[int, int, dict[str, str]]]:
    """The form's controls, without those of the entry not in use: a form with a quick and a full entry marks its
    inputs data-part="quick"/"full" (both entries may draw the same fact under different names)."""
    found = []
    for m in _CONTROL.finditer(form):
        a = _attrs(m.group(0))
        if a.get("name") and a.get("type") != "hidden" and a["name"] != "csrfmiddlewaretoken":
            found.append((m.start(), m.end(), a))
    active = next((a.get("value") for _, _, a in found if a["name"] == "entry" and "checked" in a), "full")
    return [item for item in found if item[2].get("data-part", active) == active]


def _drawing(field: str, form: str, controls: list[tuple[int, int, dict[str, str]]]) -> list[int]:
    """Indexes of the controls that draw ``field``: those named after it or, failing that, those of the
    fieldset that shows its message (NJET's "teams" are drawn as "partner" chips)."""
    for name in candidates(field):
        hits = [i for i, (_, _, a) in enumerate(controls) if a["name"] == name or a["name"].startswith(name + ".")]
        if hits:
            return hits
    message = form.find(f'id="{html.escape("err-" + field)}"')
    start = form.rfind("<fieldset", 0, message) if message >= 0 else -1
    if start < 0:
        return []
    return [i for i, (at, _, _) in enumerate(controls) if start < at < message]


def mark_form(page: str) -> str:
    """``page`` with its refused entry form's inputs marked and its error-box links leading to them."""
    found = _FORM.search(page)
    if not found:
        return page
    form = found.group(0)
    fields = list(dict.fromkeys(_LINK.findall(form)))
    if not fields:
        return page
    controls = _controls(form)
    extra: dict[int, dict[str, str]] = {}  # control index -> attributes to add
    target: dict[str, str] = {}  # field -> id its link leads to
    first = None
    for field in fields:
        hits = _drawing(html.unescape(field), form, controls)
        if not hits:
            continue
        message = f"err-{html.unescape(field)}"
        has_message = f'id="{html.escape(message)}"' in form
        for i in hits:
            a = {**controls[i][2], **extra.get(i, {})}
            add = extra.setdefault(i, {})
            if a.get("aria-invalid") != "true":
                add["aria-invalid"] = "true"
                if has_message and "aria-describedby" not in a:
                    add["aria-describedby"] = message
        lead = hits[0]
        a = {**controls[lead][2], **extra.get(lead, {})}
        if not a.get("id"):
            ident = f"f-{html.unescape(field)}"
            if f'id="{html.escape(ident)}"' in form:
                ident = f"{ident}-{lead}"
            extra[lead]["id"] = ident
            a["id"] = ident
        target[field] = a["id"]
        if first is None:
            first = lead
    if first is not None and " autofocus" not in form:
        extra.setdefault(first, {})["autofocus"] = ""
    pieces = []
    at = 0
    for i, (start, end, _) in enumerate(controls):
        if not extra.get(i):
            continue
        tag = form[start:end]
        closing = "/>" if tag.endswith("/>") else ">"
        added = "".join(f' {k}="{html.escape(v)}"' if v else f" {k}" for k, v in extra[i].items())
        pieces += [form[at:start], tag[: -len(closing)], added, closing]
        at = end
    pieces.append(form[at:])
    form = "".join(pieces)

    def link(m: re.Match[str]) -> str:
        return f'<a href="#{html.escape(target.get(m.group(1), "f-" + html.unescape(m.group(1))))}">'

    form = _LINK.sub(link, form)
    return page[: found.start()] + form + page[found.end() :]
