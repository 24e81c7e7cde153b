"""Issue 32, row "names" (usernames): a zero-width-space name, an RTL-override name and a Cyrillic look-alike
username (``аlice``) were all accepted. Now sign-up, on the page and through the API, normalises usernames to
NFKC, refuses invisible and text-direction characters, and refuses a username confusable with an existing one
(same UTS #39 skeleton)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from scoring.signin import usernames
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-table-password-42"
LOOKALIKE_EN = "That username looks too much like an existing one. Please choose another."
LOOKALIKE_HU = "Ez a felhasználónév túlságosan hasonlít egy már létezőre. Válassz másikat."
HIDDEN_EN = "A username cannot contain invisible or text-direction characters"


def _api(client: Any, username: str, **extra: str) -> Any:
    body = {"username": username, "password": PASSWORD}
    return client.post("/api/v1/auth/signup", body, content_type="application/json", **extra)


def _page(client: Any, username: str, **extra: str) -> Any:
    body = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", body, **extra)


def _exists(username: str) -> bool:
    return get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("alice", "\u0430lice"),  # Cyrillic а
        ("alice", "\u0430\u0406ice"),  # Cyrillic а, Cyrillic capital І
        ("marta", "rnarta"),  # rn / m
        ("annal", "anna1"),  # 1 / l
    ],
)
def test_api_signup_refuses_a_username_confusable_with_an_existing_one(client, existing, lookalike):
    """Row "names": a look-alike of an existing username is refused (400, on the username field)."""
    UserFactory(username=existing)
    response = _api(client, lookalike)
    assert response.status_code == 400, response.json()
    message = response.json()["errors"]["username"][0]
    assert message == LOOKALIKE_EN
    assert not _exists(lookalike)


def test_page_signup_refuses_the_cyrillic_lookalike_in_english_and_hungarian(client):
    """Row "names": the sign-up page refuses ``аlice`` next to ``alice``, with the form kept."""
    UserFactory(username="alice")
    response = _page(client, "\u0430lice")
    assert response.status_code == 200 and LOOKALIKE_EN in response.content.decode()
    response = _page(client, "\u0430lice", HTTP_ACCEPT_LANGUAGE="hu")
    assert LOOKALIKE_HU in response.content.decode()
    assert not _exists("\u0430lice") and "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    "hidden",
    [
        "ali\u200bce",  # zero-width space
        "\u202eecila",  # right-to-left override
        "ali\u2066ce",  # left-to-right isolate
        "ali\u3164ce",  # Hangul filler: a "letter" that Django's \w lets through, and shows nothing
        "ali\u00adce",  # soft hyphen
    ],
)
def test_invisible_and_bidi_control_characters_are_refused_by_page_and_api(client, hidden):
    """Row "names": zero-width and text-direction characters in a username are refused, with no look-alike
    needed."""
    api = _api(client, hidden)
    assert api.status_code == 400
    assert api.json()["errors"]["username"][0].startswith(HIDDEN_EN)
    page = _page(client, hidden)
    assert page.status_code == 200
    assert "invisible" in page.content.decode() or "letters, numbers" in page.content.decode()
    assert get_user_model().objects.count() == 0


def test_a_visible_letter_username_gets_the_named_refusal():
    """Row "names": the refusal names the characters, so that a person can find them."""
    assert usernames.problems("ali\u3164ce") == [f"{HIDDEN_EN} (U+1160)."]  # NFKC turns U+3164 into U+1160
    assert usernames.problems("a\u200bb\u202e") == [f"{HIDDEN_EN} (U+200B, U+202E)."]


def test_usernames_are_stored_in_nfkc(client):
    """Row "names": full-width letters become plain ones (page and API) before any comparison, so ``bob``
    cannot be taken twice (the API used to compare the typed form and store ``BOB`` next to ``bob``)."""
    assert _api(client, "\uff42\uff4f\uff42").status_code == 201
    assert _exists("bob")
    taken = _api(client, "\uff22\uff2f\uff22")  # full-width BOB
    assert taken.status_code == 400 and taken.json()["errors"]["username"] == ["That username is taken."]
    assert get_user_model().objects.filter(username__iexact="bob").count() == 1
    client.post("/accounts/logout/")
    assert _page(client, "\uff56\uff45\uff52\uff41").status_code == 302
    assert _exists("vera")


def test_distinct_names_are_still_welcome(client):
    """Row "names", a guard against refusing too much (so it passed before the fix too): what looks different
    is not refused: accents, another letter, a digit that is no letter's twin."""
    for name in ("eva", "bence", "anna2"):
        UserFactory(username=name)
    for name in ("Éva", "bence_b", "anna3", "Zsófi"):
        response = _api(client, name)
        assert response.status_code == 201, (name, response.json())
    assert _exists("Éva") and _exists("Zsófi")
