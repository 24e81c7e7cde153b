"""Game nights (issue 34 §1): a seeded evening's page and image, nights split by the gap and by members, access.

Every expected figure is worked out here from the seeded facts (``night_seed``) and openskill itself, not read
from the code under test.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any
from unittest.mock import patch

import pytest
from django.test import Client
from django.urls import reverse
from openskill.models import PlackettLuce
from PIL import Image

from analytics.models import NightBreak
from analytics.nights import grouping as nights_module
from analytics.nights.grouping import NightMatch, nights_group
from scoring import rules
from scoring.models import Match
from tests.analytics.helpers import Table
from tests.analytics.nights.night_seed import Evening, abluxxen_ratings_after, seed_evening

T0 = dt.datetime(2026, 1, 1, 18, 0, tzinfo=dt.UTC)
ABLUXXEN, NJET, MUE = (rules.get(key).name for key in ("abluxxen", "njet", "mue"))


@pytest.fixture
def evening(table: Table) -> Evening:
    return seed_evening(table.group, table.players, table.owner)


def _client(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _night_url(match: Match) -> str:
    return reverse("analytics:night", args=[match.pk])


def _text(response: Any) -> str:
    return response.content.decode()


def test_the_night_page_shows_winners_biggest_round_upset_partners_and_ratings(table: Table, evening: Evening) -> None:
    response = _client(table.member).get(_night_url(evening.night[0]))
    assert response.status_code == 200
    page = _text(response)
    report = response.context["report"]

    # winners: Abluxxen 10−0 / 6−1 / 2−1 → Anna; 2−1 / 6−1 / 12−0 → Csilla; NJET totals 76 / 78 / 88 / 66 → Csilla;
    # MÜ's example round: Dani 60 (20 triangles + the bonus), Anna 55
    assert [(m["game"], m["winners"]) for m in report.matches] == [
        (ABLUXXEN, ["Anna"]),
        (ABLUXXEN, ["Csilla"]),
        (NJET, ["Csilla"]),
        (MUE, ["Dani"]),
    ]
    assert "Winner: Csilla" in page

    # the biggest round: Dani's 60 in MÜ's only round, explained line by line in the players' names
    assert report.biggest["player"] == "Dani" and report.biggest["points"] == 60
    assert f"Dani scored 60 in round 1 of {MUE}." in page
    assert len(report.biggest["lines"]) > 3
    assert report.biggest["lines"][1]["label"].startswith("Dani: ")  # after the target line, Dani's own first

    # the upset: Csilla had come last in all five Abluxxen matches before her win
    before = abluxxen_ratings_after(5)
    chance = PlackettLuce().predict_win([[r] for r in before])[2]
    assert chance < 0.20  # below every other winner's chance tonight (MÜ's five newcomers: 20 % each)
    expected = f"Csilla won {ABLUXXEN} with a {round(chance * 100)} % chance by the ratings before the match."
    assert expected in page
    assert report.upset["chance"] == pytest.approx(chance)

    # partners: Anna+Csilla won rounds 1 and 3, lost 4 (2 of 3); Bence+Csilla won 2 and 5 (2 of 2); Bence+Dani
    # 1 of 3; Anna+Dani lost NJET rounds 2 and 5, made MÜ's target as partner and chief (1 of 3)
    assert "Bence and Csilla won 2 of their 2 rounds together (100 %)." in page

    # rating change: Csilla's Abluxxen rating (μ − 3σ) from after the four matches of the evening before to after
    # her win
    model = PlackettLuce()
    start = abluxxen_ratings_after(4)
    night_first = [t[0] for t in model.rate([[r] for r in start], ranks=[1.0, 2.0, 3.0])]
    night_second = [t[0] for t in model.rate([[r] for r in night_first], ranks=[3.0, 2.0, 1.0])]
    row = next(r for r in report.ratings if r["player"] == "Csilla" and r["game"] == ABLUXXEN)
    assert row["before"] == pytest.approx(start[2].ordinal())
    assert row["change"] == pytest.approx(night_second[2].ordinal() - start[2].ordinal())
    assert f"+{row['change']:.1f}" in page


def test_the_night_page_in_hungarian(table: Table, evening: Evening) -> None:
    page = _text(_client(table.member, "hu").get(_night_url(evening.night[0])))
    assert "Játékest" in page
    assert "a mérkőzés előtti értékszámok szerint" in page
    assert "Bence és Csilla" in page


def test_the_night_image_is_a_png_of_a_phone_friendly_size(table: Table, evening: Evening) -> None:
    response = _client(table.member, "hu").get(reverse("analytics:night-image", args=[evening.night[0].pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    assert image.format == "PNG"
    assert image.width == 1080
    assert 600 <= image.height <= 4000
    # not a blank canvas: text was drawn on it
    assert len(image.convert("L").getcolors() or []) > 10


def test_matches_begin_a_new_night_after_the_gap_setting(table: Table, evening: Evening, settings: Any) -> None:
    client = _client(table.member)
    night = client.get(_night_url(evening.night[0])).context["night"]
    assert [m.id for m in night.matches] == [m.pk for m in evening.night]
    nights = client.get(reverse("analytics:nights", args=[table.group.pk])).context["nights"]
    assert [len(n.matches) for n in nights] == [1, 4, 4]  # newest first

    settings.NIGHT_GAP_HOURS = 30  # day 1 ends 20:50, day 2 starts 19:00; day 2 ends 22:30, day 3 starts 19:00
    with patch.object(nights_module, "MAX_SPAN", dt.timedelta(days=3)):  # the gap alone decides here
        nights = client.get(reverse("analytics:nights", args=[table.group.pk])).context["nights"]
    assert [len(n.matches) for n in nights] == [9]
    # a night spans at most a day from its first match's start: day 2's 19:00 match is 24 h after day 1's first,
    # the 19:45 one more than that
    nights = client.get(reverse("analytics:nights", args=[table.group.pk])).context["nights"]
    assert [len(n.matches) for n in nights] == [4, 5]


def test_the_gap_is_measured_from_the_latest_start_or_finish_of_the_night() -> None:
    def m(i: int, start: int, end: int | None) -> NightMatch:
        return NightMatch(
            id=i,
            ruleset="njet",
            started_at=T0 + dt.timedelta(minutes=start),
            finished_at=None if end is None else T0 + dt.timedelta(minutes=end),
        )

    gap = dt.timedelta(hours=4)
    # a long match (0–300) keeps the night going: the next one starts 4 h after it ended, not after it started
    matches = [m(1, 0, 300), m(2, 540, 560), m(3, 801, 810)]
    assert [[x.id for x in n] for n in nights_group(matches, gap=gap)] == [[1, 2], [3]]
    assert [[x.id for x in n] for n in nights_group(matches, gap=gap, splits={2})] == [[1], [2], [3]]
    assert [[x.id for x in n] for n in nights_group(matches, gap=gap, merges={3})] == [[1, 2, 3]]
    assert [[x.id for x in n] for n in nights_group(matches[::-1], gap=gap, merges={1})] == [[1, 2], [3]]


def test_a_member_splits_a_night_and_merges_it_back(table: Table, evening: Evening) -> None:
    client = _client(table.member)
    first, upset = evening.night[0], evening.night[1]
    split = client.post(reverse("analytics:night-correct", args=[upset.pk, "split"]))
    assert split.status_code == 302 and split["Location"] == _night_url(upset)
    assert [m.id for m in client.get(_night_url(first)).context["night"].matches] == [first.pk]
    later = client.get(_night_url(upset)).context
    assert [m.id for m in later["night"].matches] == [m.pk for m in evening.night[1:]]
    # the split night has its own upset: Abluxxen's at the start of it
    assert later["report"].upset["winners"] == ["Csilla"]
    assert NightBreak.objects.get(match_id=upset.pk).kind == "split"

    client.post(reverse("analytics:night-correct", args=[upset.pk, "merge"]))
    assert not NightBreak.objects.filter(match_id=upset.pk).exists()  # back to what the gap says: no override
    assert [m.id for m in client.get(_night_url(first)).context["night"].matches] == [m.pk for m in evening.night]

    # the next day's match, merged into the night before it across a 20.5 h gap
    client.post(reverse("analytics:night-correct", args=[evening.after.pk, "merge"]))
    night = client.get(_night_url(first)).context["night"]
    assert [m.id for m in night.matches] == [*(m.pk for m in evening.night), evening.after.pk]
    assert NightBreak.objects.get(match_id=evening.after.pk).kind == "merge"
    # any of the night's matches leads to the night's one address
    assert client.get(_night_url(evening.after))["Location"] == _night_url(first)


def test_the_group_and_match_pages_link_to_the_nights(table: Table, evening: Evening) -> None:
    client = _client(table.member)
    group_page = _text(client.get(reverse("group", args=[table.group.pk])))
    assert reverse("analytics:nights", args=[table.group.pk]) in group_page
    nights = _text(client.get(reverse("analytics:nights", args=[table.group.pk])))
    assert _night_url(evening.night[0]) in nights
    match_page = _text(client.get(reverse("match", args=[evening.night[2].pk])))
    assert "This match&#x27;s night" in match_page or "This match's night" in match_page
    assert _night_url(evening.night[2]) in match_page


def test_outsiders_get_404_everywhere(table: Table, evening: Evening) -> None:
    match = evening.night[0]
    client = _client(table.outsider)
    for url in (
        reverse("analytics:nights", args=[table.group.pk]),
        _night_url(match),
        reverse("analytics:night-image", args=[match.pk]),
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("analytics:night-correct", args=[evening.night[1].pk, "split"])).status_code == 404
    assert not NightBreak.objects.exists()
    anonymous = Client().get(_night_url(match))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


def test_a_totals_only_match_joins_the_night_it_was_played_on(table: Table, evening: Evening) -> None:
    """A paper pad typed in days later belongs to the evening it was played: the night of its date, with its
    winner, and no round of it can be the night's biggest (it has none)."""
    from analytics import services as analytics_services
    from scoring import services

    played = evening.night[-1].finished_at + dt.timedelta(minutes=30)
    paper = services.match_record_totals(
        group=table.group,
        ruleset="abluxxen",
        options={},
        player_ids=[p.pk for p in table.players[:3]],
        points=[3, 9, 5],
        played_at=played,
        user=table.owner,
    )
    analytics_services.stats_rebuild_group(group_id=table.group.pk)

    response = _client(table.member).get(_night_url(evening.night[0]))
    assert response.status_code == 200
    report = response.context["report"]
    assert report.matches[-1]["id"] == paper.pk
    assert report.matches[-1]["winners"] == [table.players[1].name]
    assert report.biggest["player"] == "Dani" and report.biggest["points"] == 60  # still MÜ's round
    image = _client(table.member).get(reverse("analytics:night-image", args=[evening.night[0].pk]))
    assert image.status_code == 200 and image["Content-Type"] == "image/png"


def test_rating_changes_print_one_minus_sign(table: Table, evening: Evening) -> None:
    """A fall in rating prints U+2212, as every score column does, never a hyphen."""
    import re

    response = _client(table.member).get(_night_url(evening.night[0]))
    report = response.context["report"]
    assert any(r["change"] < 0 for r in report.ratings)  # somebody lost ground that night
    table_html = _text(response).split('id="n-ratings"', 1)[1].split("</table>", 1)[0]
    assert "−" in table_html
    assert not re.search(r"(?<![\w-])-\d", table_html)
