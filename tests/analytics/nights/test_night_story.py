"""The night tells the evening (issue 47 §2): a few sentences chosen from the night's figures, in English and
Hungarian, the same on the page and on the shared image.

The pure tests hand-build a night's figures whose story is worked out here by hand; the played night goes through
the services (rounds recorded, statistics rebuilt) and is read back from the page, the image and the stored figures.
"""

from __future__ import annotations

import datetime as dt
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
from analytics.models import NightFigures
from analytics.nights.grouping import night_of_match
from analytics.nights.image import night_blocks, night_png
from analytics.nights.report import night_report, story_text
from analytics.nights.story import RecordEvent, night_story
from scoring import rules, services
from scoring.models import Match, Round
from tests.analytics.helpers import Table
from tests.analytics.nights.night_seed import seed_evening

ABLUXXEN = "Húzz egyet! / Abluxxen"


def _match(
    match_id: int,
    ruleset: str,
    players: list[str],
    running: list[list[int]],
    won: list[bool],
    sides: list[list[int]] | None = None,
) -> dict[str, Any]:
    """One match of hand-built figures: the running totals after each round, the last of them final."""
    return {
        "id": match_id,
        "ruleset": ruleset,
        "players": players,
        "winners": [name for name, w in zip(players, won, strict=True) if w],
        "totals": running[-1],
        "won": won,
        "sides": sides or [],
        "running": [{"number": i + 1, "totals": totals} for i, totals in enumerate(running)],
    }


def _figures(*matches: dict[str, Any], upset: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"matches": list(matches), "upset": upset}


def _texts(figures: dict[str, Any], language: str, records: list[RecordEvent] | None = None) -> list[str]:
    with translation.override(language):
        return [story_text(event) for event in night_story(figures, records=records)]


# NJET, four players. After round 1 Anna leads (10); round 2 Bence takes the lead (16 to Anna's 14); round 3 Csilla
# scores 22 while Bence scores 2 and leads 30 to 18 (from 8 behind to 12 ahead: the biggest gain on a leader,
# 20); round 4 Bence gains 8 on her but she wins 34 to 30 (a margin of 12 % of her total: not close).
NJET_NIGHT = _match(
    1,
    "njet",
    ["Anna", "Bence", "Csilla", "Dani"],
    [[10, 4, 6, 0], [14, 16, 8, 2], [20, 18, 30, 4], [22, 30, 34, 10]],
    [False, False, True, False],
)
# Coloretto in one scoring: Anna and Csilla share the win on 31, Dani 20.
COLORETTO_TIE = _match(2, "coloretto", ["Anna", "Csilla", "Dani"], [[31, 31, 20]], [True, True, False])


def test_a_lead_change_a_swing_and_a_shared_win_in_english_and_hungarian() -> None:
    figures = _figures(NJET_NIGHT, COLORETTO_TIE)
    events = night_story(figures)
    assert [e["kind"] for e in events] == ["summary", "lead", "swing", "close"]
    assert events[1]["changes"] == 2 and events[1]["held"] == 2 and events[1]["names"] == ["Csilla"]
    assert (events[2]["gain"], events[2]["before"], events[2]["after"], events[2]["number"]) == (20, 8, -12, 3)

    assert _texts(figures, "en") == [
        "Csilla won 2 of the night's 2 matches.",
        "NJET: the lead changed hands 2 times; Csilla led the last 2 rounds.",
        "The biggest swing: in round 3 of NJET, Csilla gained 20 points on Bence and went from 8 behind to 12 ahead.",
        "The closest finish: Anna and Csilla shared the win in Coloretto with 31 points each.",
    ]
    assert _texts(figures, "hu") == [
        "Csilla 2 mérkőzést nyert meg az este 2 mérkőzéséből.",
        "NJET: a vezetés 2 alkalommal cserélt gazdát; az utolsó 2 körben Csilla vezetett.",
        "A legnagyobb fordulat (NJET, 3. kör): Csilla 20 ponttal többet szerzett, mint Bence, és 8 pont hátrányból "
        "12 pont előnybe került.",
        "A legszorosabb végeredmény (Coloretto): Anna és Csilla holtversenyben nyert, fejenként 31 ponttal.",
    ]


def test_the_other_ways_a_match_ends_and_turns() -> None:
    # Sticheln, three players, led by Anna after every one of three rounds: a match led from first to last.  Its
    # gains on the leader: round 2, Bence +6 on Anna's +4 (from 4 behind to 2 behind); round 3, Csilla +7 on
    # Anna's +7 (none).  Anna wins 16 to Csilla's 10, a margin of 6/16 = 37.5 %: a runaway win
    wire = _match(3, "sticheln", ["Anna", "Bence", "Csilla"], [[5, 1, 0], [9, 7, 3], [16, 8, 10]], [True, False, False])
    events = night_story(_figures(wire))
    assert [e["kind"] for e in events] == ["summary", "wire", "swing", "runaway"]
    assert _texts(_figures(wire), "en") == [
        "Anna won the night's only match, Sticheln.",
        "Anna led Sticheln from the first round to the last (3 rounds).",
        "The biggest swing: in round 2 of Sticheln, Bence gained 2 points on Anna and cut the gap from 4 to 2.",
        "The biggest win: Anna won Sticheln by 6 points over Csilla (16 to 10).",
    ]
    assert _texts(_figures(wire), "hu") == [
        "Az este egyetlen mérkőzését (Sticheln) Anna nyerte.",
        "Sticheln: Anna az első körtől az utolsóig vezetett (3 kör).",
        "A legnagyobb fordulat (Sticheln, 2. kör): Bence 2 ponttal többet szerzett, mint Anna, és a hátrányt "
        "4 pontról 2 pontra csökkentette.",
        "A legnagyobb fölény (Sticheln): Anna 6 ponttal nyert Csilla előtt (16–10).",
    ]
    # a win by 2 of 12 (17 %) is neither close nor a runaway: the story says nothing of the finish
    narrow = _match(
        3, "sticheln", ["Anna", "Bence", "Csilla"], [[5, 1, 0], [9, 7, 3], [12, 8, 10]], [True, False, False]
    )
    assert [e["kind"] for e in night_story(_figures(narrow))] == ["summary", "wire", "swing"]

    # Abluxxen, three games: Bence draws level with Anna in game 2, and they end level on 8; Anna wins on the
    # tiebreak (fewer cards left in hand)
    level = _match(4, "abluxxen", ["Anna", "Bence", "Csilla"], [[6, 2, 1], [6, 6, 2], [8, 8, 3]], [True, False, False])
    assert _texts(_figures(level), "en") == [
        "Anna won the night's only match, Húzz egyet! / Abluxxen.",
        "The biggest swing: in round 2 of Húzz egyet! / Abluxxen, Bence gained 4 points on Anna and drew level "
        "from 4 behind.",
        "The closest finish: Anna won Húzz egyet! / Abluxxen on the tiebreak, level with Bence on 8 points.",
    ]
    assert _texts(_figures(level), "hu")[1:] == [
        "A legnagyobb fordulat (Húzz egyet! / Abluxxen, 2. kör): Bence 4 ponttal többet szerzett, mint Anna, és "
        "4 pont hátrányból egyenlített.",
        "A legszorosabb végeredmény (Húzz egyet! / Abluxxen): Anna és Bence egyaránt 8 pontot szerzett, a "
        "holtversenyből Anna került ki győztesen.",
    ]


def test_a_lead_that_ends_shared_and_teams_told_as_one_side() -> None:
    # Muzicando's team game: Anna+Csilla (seats 0 and 2) against Bence+Dani; the teams lead in turn and end level
    teams = _match(
        5,
        "muzicando",
        ["Anna", "Bence", "Csilla", "Dani"],
        [[10, 4, 10, 4], [12, 16, 12, 16], [20, 20, 20, 20]],
        [True, True, True, True],
        sides=[[0, 2], [1, 3]],
    )
    events = night_story(_figures(teams))
    lead = next(e for e in events if e["kind"] == "lead")
    assert (lead["changes"], lead["names"]) == (1, [])
    swing = next(e for e in events if e["kind"] == "swing")
    assert swing["names"] == ["Bence", "Dani"] and swing["leader"] == ["Anna", "Csilla"]
    assert (swing["gain"], swing["before"], swing["after"]) == (10, 6, -4)
    assert not [e for e in events if e["kind"] in ("close", "runaway")]  # everyone won: no margin to speak of
    assert _texts(_figures(teams), "en")[0] == "Anna, Bence, Csilla and Dani won the night's only match, Muzicando."
    assert _texts(_figures(teams), "hu")[1] == (
        "Muzicando: a vezetés egyszer cserélt gazdát, a mérkőzés végén holtverseny volt az élen."
    )
    assert _texts(_figures(teams), "en")[2] == (
        "The biggest swing: in round 2 of Muzicando, Bence and Dani gained 10 points on Anna and Csilla and went "
        "from 6 behind to 4 ahead."
    )


def test_a_record_and_the_upset_come_first_and_the_story_keeps_four_sentences() -> None:
    upset = {"match": 2, "ruleset": "coloretto", "chance": 0.12, "winners": ["Anna", "Csilla"]}
    record: RecordEvent = {
        "kind": "round_points",
        "label": "most points in a round",
        "ruleset": "njet",
        "match": 1,
        "round": 3,
        "names": ["Csilla"],
        "value": 22,
        "previous": 20,
    }
    first: RecordEvent = {**record, "kind": "match_total", "label": "most points in a match", "previous": None}
    figures = _figures(NJET_NIGHT, COLORETTO_TIE, upset=upset)
    events = night_story(figures, records=[record, first])
    assert [e["kind"] for e in events] == ["summary", "record", "upset", "lead"]  # the swing and finish give way
    texts = _texts(figures, "en", records=[record, first])
    assert texts[1] == (
        "A group record: Csilla, 22 for most points in a round (NJET), beating 20. One more record fell tonight."
    )
    assert texts[2] == "Anna and Csilla won Coloretto with a 12 % chance by the ratings before the match."
    assert (
        _texts(figures, "en", records=[first])[1]
        == "A first group record: Csilla, 22 for most points in a match (NJET)."
    )
    hungarian = _texts(figures, "hu", records=[record, first])
    assert hungarian[1].startswith("Csoportrekord – ") and hungarian[1].endswith(
        "(NJET): Csilla, 22; az eddigi rekord 20 volt. Ezen az estén még egy rekord megdőlt."
    )
    assert hungarian[2] == (
        "Anna és Csilla nyertek (Coloretto): a mérkőzés előtti értékszámok szerint 12% esélyük volt rá."
    )
    # without records the story is the one the night had
    assert night_story(figures, records=[]) == night_story(figures)


def test_a_negative_score_is_written_with_the_pages_minus_sign() -> None:
    # Abluxxen: cards left in hand count −1 each; Anna wins −1 to Bence's −6 (a margin of 5, 500 % of |−1|)
    cold = _match(8, "abluxxen", ["Anna", "Bence", "Csilla"], [[-1, -6, -9]], [True, False, False])
    assert _texts(_figures(cold), "en")[-1] == (
        "The biggest win: Anna won Húzz egyet! / Abluxxen by 5 points over Bence (\u22121 to \u22126)."
    )
    assert _texts(_figures(cold), "hu")[-1] == (
        "A legnagyobb fölény (Húzz egyet! / Abluxxen): Anna 5 ponttal nyert Bence előtt (\u22121–\u22126)."
    )


def test_a_night_without_results_has_no_story_and_two_top_winners_share_the_summary() -> None:
    assert night_story({"matches": [], "upset": None}) == []
    unfinished = {**NJET_NIGHT, "winners": [], "won": [], "totals": []}
    assert [e["kind"] for e in night_story(_figures(unfinished))] == ["lead", "swing"]
    anna = _match(6, "sticheln", ["Anna", "Bence"], [[3, 1]], [True, False])
    bence = _match(7, "sticheln", ["Anna", "Bence"], [[1, 3]], [False, True])
    assert _texts(_figures(anna, bence, COLORETTO_TIE), "en")[0] == "Anna won 2 of the night's 3 matches."
    assert _texts(_figures(anna, bence), "en")[0] == "Anna and Bence won 1 each of the night's 2 matches."
    assert _texts(_figures(anna, bence), "hu")[0] == (
        "Anna és Bence fejenként 1 mérkőzést nyert meg az este 2 mérkőzéséből."
    )


# --- a played night -------------------------------------------------------------------------------------------------

T0 = dt.datetime(2026, 4, 2, 18, 30, tzinfo=dt.UTC)


def _abluxxen(table: Table, games: int, rounds: list[tuple[list[int], list[int], str]], start: dt.datetime) -> Match:
    match = services.match_create(
        group=table.group,
        ruleset="abluxxen",
        options={"games": games},
        player_ids=[p.pk for p in table.players[:3]],
        user=table.owner,
    )
    for front, hand, end in rounds:
        services.round_record(match=match, facts={"front": front, "hand": hand, "end": end}, user=table.owner)
    Match.objects.filter(pk=match.pk).update(created_at=start, finished_at=start + dt.timedelta(minutes=30))
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED
    return match


@pytest.fixture
def played(table: Table) -> list[Match]:
    """Two Abluxxen matches of Anna, Bence and Csilla (a card in front +1, in hand −1).

    Three games: 10/5/1 (Anna leads), 1/12/5 (Bence leads 17 to 11: 11 gained on Anna, from 5 behind to 6 ahead),
    12/1/5 (Anna leads 23 to 18 again: also 11 gained, later); Anna wins.  Then one game, the draw pile exhausted:
    Anna and Bence 8 each with a card left in hand each, a shared win."""
    matches = [
        _abluxxen(
            table,
            3,
            [([10, 6, 2], [0, 1, 1], "out"), ([2, 12, 6], [1, 0, 1], "out"), ([12, 2, 6], [0, 1, 1], "out")],
            T0,
        ),
        _abluxxen(table, 1, [([9, 9, 3], [1, 1, 2], "exhausted")], T0 + dt.timedelta(minutes=45)),
    ]
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    return matches


PLAYED_STORY = {
    "en": [
        "Anna won 2 of the night's 2 matches.",
        f"{ABLUXXEN}: the lead changed hands 2 times; Anna led after the last round.",
        f"The biggest swing: in round 2 of {ABLUXXEN}, Bence gained 11 points on Anna and went from 5 behind to 6 "
        "ahead.",
        f"The closest finish: Anna and Bence shared the win in {ABLUXXEN} with 8 points each.",
    ],
    "hu": [
        "Anna 2 mérkőzést nyert meg az este 2 mérkőzéséből.",
        f"{ABLUXXEN}: a vezetés 2 alkalommal cserélt gazdát; az utolsó kör után Anna vezetett.",
        f"A legnagyobb fordulat ({ABLUXXEN}, 2. kör): Bence 11 ponttal többet szerzett, mint Anna, és 5 pont "
        "hátrányból 6 pont előnybe került.",
        f"A legszorosabb végeredmény ({ABLUXXEN}): Anna és Bence holtversenyben nyert, fejenként 8 ponttal.",
    ],
}


def _client(user: Any, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _page_story(html: str) -> str:
    found = re.search(r'<p id="night-story">(.*?)</p>', html, re.S)
    assert found is not None
    return unescape(found.group(1))


@pytest.mark.parametrize("language", ["en", "hu"])
def test_a_played_night_tells_its_story_on_the_page_and_the_image(
    table: Table, played: list[Match], language: str
) -> None:
    client = _client(table.member, language)
    response = client.get(reverse("analytics:night", args=[played[0].pk]))
    assert response.status_code == 200
    assert _page_story(response.content.decode()) == " ".join(PLAYED_STORY[language])

    png = client.get(reverse("analytics:night-image", args=[played[0].pk])).content
    night = night_of_match(group=table.group, match_id=played[0].pk)
    assert night is not None
    with translation.override(language):
        report = night_report(night=night, figures=NightFigures.objects.get(key=night.key).figures)
        blocks = night_blocks(report)
        assert night_png(report) == png  # the served image is drawn from these blocks
    assert [text for style, text in blocks if style == "story"] == PLAYED_STORY[language]
    image = Image.open(io.BytesIO(png))
    assert image.width == 1080 and image.height < 4000


def test_the_story_is_stored_with_the_figures_and_only_worded_per_request(table: Table, played: list[Match]) -> None:
    client = _client(table.member, "en")
    url = reverse("analytics:night", args=[played[0].pk])
    client.get(url)
    stored = NightFigures.objects.get(key=played[0].pk)
    assert [e["kind"] for e in stored.figures["story"]] == ["summary", "lead", "swing", "close"]
    with CaptureQueriesContext(connection) as again:
        assert _page_story(client.get(url).content.decode()) == " ".join(PLAYED_STORY["en"])
    assert not [q for q in again.captured_queries if Round._meta.db_table in q["sql"]]
    night = night_of_match(group=table.group, match_id=played[0].pk)
    with CaptureQueriesContext(connection) as wording, translation.override("hu"):
        texts = [e["text"] for e in night_report(night=night, figures=stored.figures).story]  # type: ignore[arg-type]
    assert texts == PLAYED_STORY["hu"] and wording.captured_queries == []

    # the third game re-entered so that Bence wins it: the lead changed hands once, and the story says so
    match = played[0]
    third = Round.objects.get(match=match, number=3)
    services.round_edit(round=third, facts={"front": [2, 12, 6], "hand": [1, 0, 1], "end": "out"},
                        expected_version=third.version, user=table.owner)  # fmt: skip
    assert Match.objects.get(pk=match.pk).state == Match.State.FINISHED  # still three games of three
    Match.objects.filter(pk=match.pk).update(created_at=T0, finished_at=T0 + dt.timedelta(minutes=30))
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    story = _page_story(client.get(url).content.decode())
    assert f"{ABLUXXEN}: the lead changed hands once; Bence led the last 2 rounds." in story
    assert "Bence won 2 of the night's 2 matches." in story


def test_the_upset_in_the_story_is_the_pages_upset(table: Table) -> None:
    evening = seed_evening(table.group, table.players, table.owner)
    response = _client(table.member, "hu").get(reverse("analytics:night", args=[evening.night[0].pk]))
    report = response.context["report"]
    upset = [e["text"] for e in report.story if e["kind"] == "upset"]
    assert upset == [report.upset["text"]]
    assert unescape(report.upset["text"]) in _page_story(response.content.decode())


def test_a_team_game_is_told_team_by_team(table: Table) -> None:
    """Muzicando's team game (north–south against east–west all match): the stored figures name the partnerships
    from the standings, and the story speaks of both partners at once."""
    example = rules.get("muzicando").example
    match = services.match_create(
        group=table.group,
        ruleset="muzicando",
        options=example["options"],
        player_ids=[p.pk for p in table.players[:4]],
        user=table.owner,
    )
    for _ in range(2):
        services.round_record(match=match, facts=example["facts"], user=table.owner)
    match.refresh_from_db()
    if match.state != Match.State.FINISHED:
        services.match_finish(match=match, expected_version=match.version, user=table.owner)
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    client = _client(table.member, "en")
    report = client.get(reverse("analytics:night", args=[match.pk])).context["report"]
    figures = NightFigures.objects.get(key=match.pk).figures
    stored = figures["matches"][0]
    assert stored["sides"] == [[0, 2], [1, 3]]
    totals = stored["totals"]
    assert totals[0] == totals[2] and totals[1] == totals[3] and totals[0] != totals[1]
    # the example round twice: the same team scores the same each time, so nobody gains on the leaders
    assert stored["winners"] == ["Anna", "Csilla"] and totals[0] > totals[1]
    assert [e["kind"] for e in report.story] == ["summary", "runaway"]
    assert [e["text"] for e in report.story] == [
        "Anna and Csilla won the night's only match, Muzicando.",
        f"The biggest win: Anna and Csilla won Muzicando by {totals[0] - totals[1]} points over Bence and Dani "
        f"({totals[0]} to {totals[1]}).",
    ]


def test_a_group_record_set_tonight_is_told_from_the_groups_record_book(table: Table) -> None:
    """Four evenings before, four one-game Abluxxen matches (12 round scores, the best Anna's 19); tonight Anna
    scores 30 in one game: the story says the group record fell, beating 19, in both languages."""
    earlier = T0 - dt.timedelta(days=5)
    played = [
        _abluxxen(table, 1, [(front, [1, 1, 1], "exhausted")], earlier + dt.timedelta(days=n))
        for n, front in enumerate(([10, 6, 3], [12, 4, 2], [20, 5, 1], [8, 7, 1]))
    ]
    tonight = _abluxxen(table, 1, [([30, 2, 1], [0, 1, 1], "out")], T0)
    for match in [*played, tonight]:  # the rounds were played when their matches were
        Round.objects.filter(match=match).update(created_at=match.created_at + dt.timedelta(minutes=20))
    analytics_services.stats_rebuild_group(group_id=table.group.pk)  # the worker keeps the record book

    english = _page_story(
        _client(table.member, "en").get(reverse("analytics:night", args=[tonight.pk])).content.decode()
    )
    assert f"A group record: Anna, 30 for most points in a round ({ABLUXXEN}), beating 19." in english
    hungarian = _page_story(
        _client(table.member, "hu").get(reverse("analytics:night", args=[tonight.pk])).content.decode()
    )
    assert "Csoportrekord" in hungarian and "Anna, 30" in hungarian and "19" in hungarian
    # an earlier evening's story tells no record of tonight
    first = Match.objects.filter(group=table.group).order_by("created_at").first()
    assert first is not None
    old = _page_story(_client(table.member, "en").get(reverse("analytics:night", args=[first.pk])).content.decode())
    assert "record" not in old
