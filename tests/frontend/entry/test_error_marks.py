"""Every refusal of every game's entry form marks the inputs it is about and links to them.

For each game the form is posted many ways it is refused (nothing filled in, each field missing, each field
holding a value it cannot hold); in every answer each link of the error box must lead to an element of the page,
and that element (or the group around it) must carry aria-invalid="true"; every input whose field is named by a
refusal is marked too.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from frontend.entry.labels import game_title
from scoring import rules, services
from scoring.models import Round

pytestmark = pytest.mark.django_db

GAMES = [
    ("njet", 4, {}),
    ("njet", 5, {}),
    ("njet", 2, {}),
    ("mue", 4, {}),
    ("meinz", 4, {}),
    ("meinz", 3, {}),
    ("was-sticht", 4, None),
    ("sticheln", 4, {}),
    ("abluxxen", 4, {}),
    ("muzicando", 4, {}),
    ("coloretto", 4, {}),
]


class Page(HTMLParser):
    """The elements of a page with their attributes and ancestors, and the links inside the error box."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "base", "col", "embed", "track"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[dict[str, Any]] = []
        self.elements: list[dict[str, Any]] = []
        self.errbox_links: list[str] = []
        self.in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        element = {"tag": tag, "attrs": a, "parents": list(self.stack)}
        self.elements.append(element)
        if tag == "a" and any(p["attrs"].get("id") == "entry-errors" for p in self.stack):
            href = a.get("href", "")
            if href.startswith("#"):
                self.errbox_links.append(href[1:])
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def by_id(self, ident: str) -> dict[str, Any] | None:
        return next((e for e in self.elements if e["attrs"].get("id") == ident), None)

    def controls(self) -> list[dict[str, Any]]:
        return [e for e in self.elements if e["tag"] in ("input", "select") and e["attrs"].get("name")]


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def marked(element: dict[str, Any]) -> bool:
    return any(e["attrs"].get("aria-invalid") == "true" for e in [element, *element["parents"]])


def filled(page: Page) -> dict[str, list[str]]:
    """A form with a value in every field (the first choice of each radio group, 0 in number inputs)."""
    data: dict[str, list[str]] = {}
    for e in page.controls():
        a = e["attrs"]
        name, kind = a["name"], a.get("type", "text")
        if name == "csrfmiddlewaretoken" or kind == "checkbox":
            continue
        if kind == "hidden":
            data[name] = [a.get("value", "")]
        elif kind == "radio":
            data.setdefault(name, [a.get("value", "")])
        elif e["tag"] == "select":
            data.setdefault(name, [""])
        else:
            data[name] = ["0"]
    return data


def submissions(page: Page) -> list[dict[str, list[str]]]:
    base = filled(page)
    hidden = {k: v for k, v in base.items() if k in ("number", "version")}
    out = [hidden, base]
    names = sorted({e["attrs"]["name"] for e in page.controls()} - {"csrfmiddlewaretoken", "number", "version"})
    for name in names:
        out.append({k: v for k, v in base.items() if k != name})
        out.append({**base, name: ["x"]})
        out.append({**base, name: ["99"]})
        out.append({**base, name: ["-1"]})
    return out


def check(html: str) -> list[str]:
    """What is wrong with one refused form: links leading nowhere, targets or refused inputs left unmarked."""
    page = parse(html)
    wrong = []
    for ident in page.errbox_links:
        target = page.by_id(ident)
        if target is None:
            wrong.append(f"#{ident} leads nowhere")
        elif not marked(target):
            wrong.append(f"#{ident} is not marked aria-invalid")
    fields = {ident[2:] for ident in page.errbox_links if ident.startswith("f-")}
    for e in page.controls():
        name = e["attrs"]["name"]
        if any(name == f or name.startswith(f + ".") for f in fields) and not marked(e):
            wrong.append(f"input {name} (field refused) is not marked aria-invalid")
    return sorted(set(wrong))


@pytest.mark.parametrize(("key", "count", "options"), GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_every_refusal_links_to_a_marked_input(client_in, make_match, key, count, options):
    if options is None:
        options = {"tasks": rules.get(key).example["options"]["tasks"]}
    match = make_match(key, count, options)
    page = parse(client_in.get(f"/matches/{match.pk}/entry").content.decode())
    refused = 0
    problems: dict[str, list[str]] = {}
    links = set()
    for data in submissions(page):
        response = client_in.post(f"/matches/{match.pk}/rounds", data)
        if response.status_code == 302:
            # stored (the form's defaults make a whole round): delete it, so that every submission is for round 1
            stored = Round.objects.get(match=match, deleted_at__isnull=True)
            services.round_delete(round=stored, expected_version=stored.version, user=match.created_by)
            continue
        html = response.content.decode()
        if 'id="entry-errors"' not in html:
            continue
        refused += 1
        links.update(parse(html).errbox_links)
        for wrong in check(html):
            problems.setdefault(wrong, []).append(repr(sorted(data)))
    assert refused >= 3
    assert links, "no refusal linked to any input"
    assert not problems, "\n".join(f"{w}  (e.g. {p[0]})" for w, p in sorted(problems.items()))


def test_the_first_refused_input_takes_the_cursor_without_scripts(client_in, make_match):
    match = make_match("njet", 4)
    html = client_in.post(f"/matches/{match.pk}/rounds", {"number": 1}).content.decode()
    page = parse(html)
    focused = [e for e in page.elements if "autofocus" in e["attrs"]]
    assert len(focused) == 1
    assert focused[0]["attrs"].get("aria-invalid") == "true"
    assert focused[0]["attrs"].get("id") == page.errbox_links[0]


@pytest.mark.parametrize("where", ["history", "rounds/1/edit"])
def test_history_and_edit_pages_head_the_match_like_its_page(client_in, make_match, user, where):
    example = rules.get("sticheln").example
    match = make_match("sticheln", example["players"], example["options"])
    services.round_record(match=match, facts=example["facts"], user=user)
    html = client_in.get(f"/matches/{match.pk}/{where}").content.decode()
    head = re.search(r'<p class="muted small match-line">(.*?)</p>', html, re.S)
    assert head is not None
    text = re.sub(r"<[^>]+>", "", head.group(1))
    title = game_title(rules.get("sticheln"), match.options)
    assert title in text
    assert f'datetime="{match.created_at:%Y}' in head.group(1)
    assert "open" in text
