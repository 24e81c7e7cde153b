"""Issue 43 §2: the spreadsheet download has a row for every match (a totals-only match: its final scores), the
options in words that say what they are about, the separator and decimal mark of the reader's language (a
Hungarian spreadsheet reads semicolons), UTF-8 with a byte order mark, and the page says how names that look
like formulas are kept harmless."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from frontend.entry import labels
from scoring import rules, services
from tests.scoring.helpers import njet_facts, streamed

pytestmark = pytest.mark.django_db


def _client(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _rows(response: Any, delimiter: str = ",") -> list[list[str]]:
    body = streamed(response)
    assert body.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte order mark
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))


@pytest.fixture
def evening(group, players, user, make_match):
    """A NJET match with two rounds, a Coloretto match recorded from its final scores (jokers join any colour)
    and a Sticheln paper-pad match; a player whose name looks like a formula plays in the Coloretto one."""
    njet = make_match("njet", 5)
    for _ in range(2):
        services.round_record(match=njet, facts=njet_facts(), user=user)
    sly = services.player_create(group=group, name="=HYPERLINK(1)", user=user)
    coloretto = services.match_record_totals(
        group=group,
        ruleset="coloretto",
        options={"joker_rule": "any"},
        player_ids=[players[1].pk, players[2].pk, sly.pk],
        points=[31, 18, 25],
        played_at=timezone.now() - dt.timedelta(days=2),
        user=user,
    )
    sticheln = services.match_record_totals(
        group=group,
        ruleset="sticheln",
        options={"variant": "heavy"},
        player_ids=[p.pk for p in players[:4]],
        points=[12, -4, 30, 7],
        played_at=timezone.now() - dt.timedelta(days=1),
        user=user,
    )
    return njet, coloretto, sticheln


def test_every_match_has_rows_and_a_totals_only_match_its_final_scores(user, evening):
    njet, coloretto, sticheln = evening

    rows = _rows(_client(user).get(f"/groups/{njet.group_id}/export.csv"))

    by_match: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_match.setdefault(row[0], []).append(row)
    assert set(by_match) == {str(njet.pk), str(coloretto.pk), str(sticheln.pk)}
    assert len(by_match[str(njet.pk)]) == 2 * 5
    paper = by_match[str(sticheln.pk)]
    assert [(r[4], r[5], r[6], r[7]) for r in paper] == [
        ("", "Anna", "12", "12"),
        ("", "Bence", "-4", "-4"),
        ("", "Cili", "30", "30"),
        ("", "Dani", "7", "7"),
    ]
    assert paper[0][3] == timezone.localtime(sticheln.finished_at).date().isoformat()


def test_options_are_in_words_with_what_they_are_about(user, evening):
    njet, coloretto, sticheln = evening

    rows = _rows(_client(user).get(f"/groups/{njet.group_id}/export.csv"))

    options = {row[0]: row[2] for row in rows[1:]}
    assert options[str(coloretto.pk)] == "jokers join any colour; 1 game"
    assert options[str(sticheln.pk)] == "heavy"
    assert options[str(njet.pk)] == "full totals recorded; English tie rule"


def test_a_formula_like_name_is_kept_as_text_and_the_page_says_how(user, group, evening):
    rows = _rows(_client(user).get(f"/groups/{group.pk}/export.csv"))

    assert "'=HYPERLINK(1)" in [row[5] for row in rows[1:]]
    assert "=HYPERLINK(1)" not in [row[5] for row in rows[1:]]
    page = _client(user).get(f"/groups/{group.pk}/").content.decode()
    assert "gets an apostrophe in front, so that it stays text" in page


def test_a_hungarian_spreadsheet_is_separated_by_semicolons(user, group, evening):
    njet, coloretto, _sticheln = evening

    rows = _rows(_client(user, "hu").get(f"/groups/{group.pk}/export.csv"), delimiter=";")

    assert rows[0] == ["Mérkőzés", "Játék", "Beállítások", "Dátum", "Kör", "Játékos", "Pontok", "Összesen"]
    assert all(len(row) == 8 for row in rows)
    with translation.override("hu"):
        words = str(labels.OPTION_WORDS["joker_rule"]["any"])
        game = str(rules.get("coloretto").name)
    row = next(r for r in rows if r[0] == str(coloretto.pk))
    assert row[2].startswith(words)
    assert row[1] == game
    # an option's words hold commas in Hungarian too: the semicolon keeps them in one cell
    assert sum(1 for r in rows if r[0] == str(njet.pk)) == 10


def test_the_english_spreadsheet_keeps_commas(user, group, evening):
    rows = _rows(_client(user).get(f"/groups/{group.pk}/export.csv"))
    assert rows[0] == ["Match", "Game", "Options", "Date", "Round", "Player", "Points", "Total"]
    assert all(len(row) == 8 for row in rows)


def test_a_number_with_decimals_takes_the_languages_decimal_mark():
    from scoring.transfer.spreadsheet import _number, csv_dialect

    with translation.override("hu"):
        assert csv_dialect() == (";", ",")
        assert _number(6.25, csv_dialect()[1]) == "6,25"
    with translation.override("en"):
        assert csv_dialect() == (",", ".")
        assert _number(6.25, csv_dialect()[1]) == "6.25"
    assert _number(7, ",") == 7
