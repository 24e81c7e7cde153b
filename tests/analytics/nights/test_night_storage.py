"""A night's figures and image are computed once per version of the night and served from storage (issue 44 §1);
the image words the same stored figures as the page (issue 43 §4); an upset needs ratings from before the night."""

from __future__ import annotations

import io
import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from PIL import Image

from analytics import services as analytics_services
from analytics.models import NightFigures, NightImage
from analytics.nights.grouping import night_of_match
from analytics.nights.image import TOP, font_path, night_blocks, night_png
from analytics.nights.report import night_report
from scoring import services
from scoring.models import Match, Round
from tests.analytics.helpers import Table
from tests.analytics.nights.night_seed import NJET_ROUNDS, Evening, seed_evening

ROUND_TABLE = Round._meta.db_table


@pytest.fixture
def evening(table: Table) -> Evening:
    return seed_evening(table.group, table.players, table.owner)


def _client(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _page(match: Match) -> str:
    return reverse("analytics:night", args=[match.pk])


def _image(match: Match) -> str:
    return reverse("analytics:night-image", args=[match.pk])


def _reads_rounds(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries if ROUND_TABLE in q["sql"]]


def test_an_unchanged_night_is_not_computed_again(table: Table, evening: Evening) -> None:
    client = _client(table.member)
    first = evening.night[0]
    with CaptureQueriesContext(connection) as cold:
        assert client.get(_page(first)).status_code == 200
    assert _reads_rounds(cold.captured_queries)  # the first view computes: it reads the night's rounds
    cold_count = len(cold.captured_queries)  # (each request clears the connection's query log)
    stored = NightFigures.objects.get(key=first.pk)

    with CaptureQueriesContext(connection) as warm:
        again = client.get(_page(first))
    assert again.status_code == 200
    assert _reads_rounds(warm.captured_queries) == []
    assert not [q for q in warm.captured_queries if "ROW_NUMBER" in q["sql"]]  # no ratings replayed either
    warm_count = len(warm.captured_queries)
    assert warm_count < cold_count
    assert NightFigures.objects.get(key=first.pk).computed_at == stored.computed_at
    assert again.context["report"].matches[-1]["winners"] == ["Dani"]

    png = client.get(_image(first)).content
    drawn = NightImage.objects.get(night__key=first.pk, language="en")
    with CaptureQueriesContext(connection) as image_again:
        assert client.get(_image(first)).content == png
    assert _reads_rounds(image_again.captured_queries) == []
    assert NightImage.objects.get(pk=drawn.pk).drawn_at == drawn.drawn_at
    assert len(image_again.captured_queries) == warm_count  # the stored image instead of the group's name

    # a change to another night's match of the same game, later, changes nothing here; nor does the nightly rebuild
    later = Round.objects.get(match=evening.after, number=1)
    services.round_edit(round=later, facts={"front": [2, 6, 12], "hand": [1, 1, 0], "end": "out"},
                        expected_version=later.version, user=table.owner)  # fmt: skip
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    with CaptureQueriesContext(connection) as after_rebuild:
        client.get(_page(first))
    assert _reads_rounds(after_rebuild.captured_queries) == []
    assert NightFigures.objects.get(key=first.pk).computed_at == stored.computed_at


def test_a_change_to_one_of_its_matches_refreshes_figures_and_image(table: Table, evening: Evening) -> None:
    client = _client(table.member)
    first, njet = evening.night[0], evening.night[2]
    before = client.get(_page(first)).context["report"]
    assert before.partners["text"] == "Bence and Csilla won 2 of their 2 rounds together (100 %)."
    png = client.get(_image(first)).content
    version = NightFigures.objects.get(key=first.pk).version

    # NJET's fifth round re-entered: Bence and Csilla lose it (the other team takes the tricks)
    services.match_reopen(match=njet, expected_version=njet.version, user=table.owner)
    fifth = Round.objects.get(match=njet, number=5)
    facts = {**NJET_ROUNDS[4], "tricks": [5, 3, 3, 4]}
    services.round_edit(round=fifth, facts=facts, expected_version=fifth.version, user=table.owner)
    njet.refresh_from_db()
    services.match_finish(match=njet, expected_version=njet.version, user=table.owner)
    Match.objects.filter(pk=njet.pk).update(created_at=evening.night[2].created_at)  # played when it was
    analytics_services.stats_rebuild_group(group_id=table.group.pk)

    after = client.get(_page(first)).context["report"]
    assert NightFigures.objects.get(key=first.pk).version != version
    assert after.partners["text"] != before.partners["text"]
    assert "Bence and Csilla" not in after.partners["text"]
    assert client.get(_image(first)).content != png
    assert NightImage.objects.get(night__key=first.pk, language="en").version != version

    # a renamed player: the page and the image say the new name
    services.player_rename(player=table.players[3], name="Dániel", user=table.owner)
    renamed = client.get(_page(first)).context["report"]
    assert renamed.biggest["player"] == "Dániel"
    blocks = night_blocks(night_report(night=renamed.night, figures=NightFigures.objects.get(key=first.pk).figures))
    assert any("Dániel" in text for _style, text in blocks)


def test_a_change_before_the_night_that_moves_its_ratings_refreshes_them(table: Table, evening: Evening) -> None:
    client = _client(table.member)
    first = evening.night[0]
    before = {(r["player"], r["ruleset"]): r["before"] for r in client.get(_page(first)).context["report"].ratings}
    # the evening before: its last match now won by the third player, so everyone starts the night elsewhere
    last = evening.before[-1]
    rnd = Round.objects.get(match=last, number=1)
    services.round_edit(round=rnd, facts={"front": [2, 6, 12], "hand": [1, 1, 0], "end": "out"},
                        expected_version=rnd.version, user=table.owner)  # fmt: skip
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    after = {(r["player"], r["ruleset"]): r["before"] for r in client.get(_page(first)).context["report"].ratings}
    moved = [key for key in before if before[key] != pytest.approx(after[key])]
    assert sorted(moved) == [("Anna", "abluxxen"), ("Bence", "abluxxen"), ("Csilla", "abluxxen")]


def _page_rows(html: str) -> list[tuple[str, str, str]]:
    table_html = html.split('id="n-ratings"', 1)[1].split("</table>", 1)[0]
    rows = []
    for row in re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?) <span", table_html, flags=re.S):
        rows.append(tuple(unescape(cell).strip() for cell in row))
    return rows


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_image_shows_the_pages_figures(table: Table, evening: Evening, language: str) -> None:
    client = _client(table.member, language)
    first = evening.night[0]
    html = client.get(_page(first)).content.decode()
    png = client.get(_image(first)).content
    night = night_of_match(group=table.group, match_id=first.pk)
    assert night is not None
    with translation.override(language):
        report = night_report(night=night, figures=NightFigures.objects.get(key=first.pk).figures)
        blocks = night_blocks(report)
        assert night_png(report) == png  # these blocks are what the served image was drawn from

    page_rows = _page_rows(html)
    assert len(page_rows) == 12  # Abluxxen ×3, NJET ×4, MÜ ×5: everyone on the page
    drawn = [text for style, text in blocks if style == "row" and re.search(r"\): [+−]?\d", text)]
    assert drawn == [f"{player} ({game}): {change}" for player, game, change in page_rows[: TOP["ratings"]]]
    mark = "," if language == "hu" else "."
    assert all(re.search(rf"\d\{mark}\d$", text) for text in drawn)
    more = [text for style, text in blocks if style == "muted" and "4" in text]
    assert more and ("4 more" in more[-1] or "még 4" in more[-1])  # the image says how many rows it left out

    # the other figures: word for word as on the page
    for key in ("upset", "biggest", "partners"):
        text = getattr(report, key)["text"]
        assert unescape(text) in unescape(html) or text in unescape(html)
        assert ("text", text) in blocks
    page_lines = [unescape(x) for x in re.findall(r'<ul class="night-lines small">(.*?)</ul>', html, re.S)[0]
                  .replace("</li>", "").split("<li>")[1:]]  # fmt: skip
    drawn_lines = [text for style, text in blocks if style == "line"]
    assert drawn_lines == page_lines[: TOP["lines"]]
    if len(page_lines) > TOP["lines"]:
        assert blocks[blocks.index(("line", drawn_lines[-1])) + 1][0] == "muted"

    image = Image.open(io.BytesIO(png))
    assert image.width == 1080 and image.height < 4000


def test_the_image_font_comes_from_the_pinned_package() -> None:
    for bold in (False, True):
        path = font_path(bold=bold)
        assert path.is_file()
        assert "site-packages" in str(path) and "font_source_sans_pro" in str(path)
        assert not str(path).startswith("/usr/share/fonts")


def test_no_upset_from_no_prior_ratings(table: Table, evening: Evening) -> None:
    """The NJET and MÜ matches split off into a night of their own: nobody had NJET or MÜ ratings before it, so the
    ratings give no chance to speak of (MÜ's five newcomers had 20 % each)."""
    client = _client(table.member)
    njet = evening.night[2]
    client.post(reverse("analytics:night-correct", args=[njet.pk, "split"]))
    response = client.get(_page(njet))
    assert [m["id"] for m in response.context["report"].matches] == [njet.pk, evening.night[3].pk]
    assert response.context["report"].upset is None
    assert "No upset tonight" in response.content.decode()
    # whereas the Abluxxen night keeps Csilla's upset, rated before the night
    assert client.get(_page(evening.night[0])).context["report"].upset["winners"] == ["Csilla"]


@pytest.mark.django_db(transaction=True)
def test_eight_first_views_at_once_compute_the_night_once() -> None:
    """Eight members open a night nobody has opened yet, at the same moment: one computes, seven wait and read."""
    import threading

    from analytics.nights.service import night_figures_get
    from tests.analytics.helpers import make_table

    table = make_table()
    evening = seed_evening(table.group, table.players, table.owner)
    night = night_of_match(group=table.group, match_id=evening.night[0].pk)
    assert night is not None
    start = threading.Barrier(8)
    results: list[tuple[bool, Any]] = []
    errors: list[BaseException] = []

    def view() -> None:
        try:
            start.wait(timeout=30)
            with CaptureQueriesContext(connection) as seen:
                figures = night_figures_get(night=night)
            results.append((bool(_reads_rounds(seen.captured_queries)), figures))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=view) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert len(results) == 8
    assert sum(computed for computed, _ in results) == 1
    assert all(figures == results[0][1] for _, figures in results)
    assert NightFigures.objects.filter(key=night.key).count() == 1
