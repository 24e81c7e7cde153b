"""Match lists and the match page header: the game with its variant and options in words, the date in the
reader's language, the players in seat order and the state (winners once finished); open matches first.
And the rematch: same game, players, seats and options."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scoring import selectors, services
from scoring.models import Match, Seat

pytestmark = pytest.mark.django_db

WHEN = dt.datetime(2026, 3, 14, 19, 30, tzinfo=dt.UTC)


def _at(match: Match, days: int, **fields: Any) -> Match:
    Match.objects.filter(pk=match.pk).update(created_at=WHEN + dt.timedelta(days=days), **fields)
    match.refresh_from_db()
    return match


def _items(html: str) -> list[str]:
    """The text of each match item in page order (tags dropped, whitespace squeezed)."""
    import re

    found = re.findall(r'<li class="match-item">(.*?)</li>', html, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in found]


def test_the_group_page_names_variant_options_date_players_and_state(client_in, group, make_match):
    heavy = _at(make_match("sticheln", 4, {"variant": "heavy"}), 0)
    classic = _at(make_match("sticheln", 4), 1)
    njet = _at(make_match("njet", 3, {"recording": "difference"}), -5, state="finished", winners=[1])
    muz = _at(make_match("muzicando", 5, {"mode": "individual"}), 2, state="finished", winners=[])
    items = _items(client_in.get(f"/groups/{group.pk}/").content.decode())
    # open first (newest first), then finished (newest first)
    assert [i.split(" Anna")[0] for i in items] == [
        "Sticheln — classic",
        "Sticheln — heavy",
        "Muzicando — individual",
        "NJET — difference recording",
    ]
    assert "Anna, Bence, Cili, Dani" in items[1]
    assert "March 14, 2026" in items[1]
    assert "open" in items[1]
    assert "finished Winner: Bence" in items[3]
    assert "Anna, Bence, Cili" in items[3]
    assert "Winner" not in items[2]  # finished by hand early: no rules' winner to name
    assert heavy.pk != classic.pk and njet.pk != muz.pk


def test_the_group_page_in_hungarian(client_in, group, make_match):
    _at(make_match("sticheln", 4, {"variant": "heavy"}), 0)
    _at(make_match("njet", 3, {"recording": "difference"}), -5, state="finished", winners=[0, 2])
    html = client_in.get(f"/groups/{group.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    items = _items(html)
    assert items[0].startswith("Sticheln — heves")
    assert "2026. március 14." in items[0]
    assert "nyitott" in items[0]
    assert items[1].startswith("NJET — csak a különbség felírva")
    assert "Győztesek: Anna, Cili" in items[1]


def test_match_list_puts_open_matches_first(group, make_match):
    old_open = _at(make_match("njet", 3), -10)
    new_done = _at(make_match("njet", 3), 5, state="finished")
    newest_open = _at(make_match("mue", 4), 3)
    assert list(selectors.match_list(group=group)) == [newest_open, old_open, new_done]


def test_the_match_header(client_in, make_match):
    match = _at(make_match("muzicando", 4, {"mode": "individual", "individual_contract": "winner"}), 0)
    html = client_in.get(f"/matches/{match.pk}/").content.decode()
    assert '<h1 class="grow">Muzicando — individual · whoever goes out first scores</h1>' in html
    assert "March 14, 2026" in html
    assert "1. Anna</span>, <span>2. Bence</span>, <span>3. Cili</span>, <span>4. Dani" in html
    hu = client_in.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "2026. március 14." in hu
    assert "Visszavágó" in hu


def test_rematch_service_keeps_players_seats_and_options(group, players, user, django_user_model):
    cili, anna, dani = players[2], players[0], players[3]
    match = services.match_create(
        group=group, ruleset="sticheln", options={"variant": "heavy"}, player_ids=[cili.pk, anna.pk, dani.pk], user=user
    )
    services.match_finish(match=match, expected_version=match.version, user=user)
    again = services.match_rematch(match=match, user=user)
    assert again.pk != match.pk
    assert (again.ruleset, again.options, again.state) == ("sticheln", match.options, Match.State.OPEN)
    seats = list(Seat.objects.filter(match=again).order_by("number").values_list("player_id", flat=True))
    assert seats == [cili.pk, anna.pk, dani.pk]
    stranger = django_user_model.objects.create_user("zoe", password="x-pass-123456")
    with pytest.raises(services.NotAllowed):
        services.match_rematch(match=match, user=stranger)


def test_rematch_from_the_match_page(client_in, make_match, user):
    match = make_match("njet", 4, {"recording": "difference", "tie_rule": "hungarian"})
    response = client_in.post(f"/matches/{match.pk}/rematch", follow=True)
    again = Match.objects.exclude(pk=match.pk).get()
    assert response.redirect_chain[-1][0] == f"/matches/{again.pk}/"
    assert again.options == match.options
    assert "A rematch has started: same players, seats and options." in response.content.decode()
    assert "NJET — difference recording · Hungarian tie rule" in response.content.decode()
    assert client_in.get(f"/matches/{match.pk}/rematch").status_code == 405
