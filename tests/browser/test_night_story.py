"""The night tells the evening (issue 47 §2) on a 360 px phone, in English and Hungarian, light and dark: the story
a member reads at the top of the night page, the same sentences the API answers, and the image it shares."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Group, Player
from tests.analytics.nights.night_seed import seed_evening, upset_percent
from tests.browser.helpers import shot
from tests.browser.test_comfort import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ABLUXXEN = "Húzz egyet! / Abluxxen"


def _story(language: str) -> list[str]:
    """The seeded evening's story, worked out from its facts (``night_seed``): Cili won both her Abluxxen match and
    the NJET; the NJET's round 2 took her from level with Anna (20 each) to 6 ahead (18 points to Anna's 12); MÜ's
    example round gives Dani 60 and Anna 55."""
    if language == "hu":
        return [
            "Cili 2 mérkőzést nyert meg az este 4 mérkőzéséből.",
            f"Cili nyert ({ABLUXXEN}): a mérkőzés előtti értékszámok szerint {upset_percent()}% esélye volt rá.",
            "A legnagyobb fordulat (NJET, 2. kör): Cili 6 ponttal többet szerzett, mint Anna, és egyenlő állásból "
            "6 pont előnybe került.",
            "A legszorosabb végeredmény (MÜ): Dani 5 ponttal nyert Anna előtt (60–55).",
        ]
    return [
        "Cili won 2 of the night's 4 matches.",
        f"Cili won {ABLUXXEN} with a {upset_percent()} % chance by the ratings before the match.",
        "The biggest swing: in round 2 of NJET, Cili gained 6 points on Anna and went from level to 6 ahead.",
        "The closest finish: Dani won MÜ by 5 points over Anna (60 to 55).",
    ]


@pytest.mark.parametrize(("locale", "language", "heading", "scheme"), [
    ("hu-HU", "hu", "Így telt az este", "dark"),
    ("en-GB", "en", "How the evening went", "light"),
])  # fmt: skip
def test_the_night_page_tells_the_evening_at_360_px(
    new_context: Any,
    group: Group,
    players: list[Player],
    user: Any,
    locale: str,
    language: str,
    heading: str,
    scheme: str,
) -> None:
    evening = seed_evening(group, players, user)
    page = new_context(locale=locale).new_page()
    page.emulate_media(color_scheme=scheme)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/stats/nights/{evening.night[0].pk}/")

    story = page.get_by_role("region", name=heading)
    expect(story).to_be_visible()
    # the story comes first, before the upset and the matches
    assert page.locator(".night h2").first.inner_text() == heading
    expect(story.locator("p")).to_have_text(" ".join(_story(language)))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    shot(page, f"{language}-night-story-{scheme}")

    # the API tells the same sentences to the same member; the image is there to share
    api = page.request.get(f"/api/v1/nights/{evening.night[1].pk}", headers={"Accept-Language": language})
    assert api.ok and [s["text"] for s in api.json()["story"]] == _story(language)
    download = page.get_by_role("link", name="A kép letöltése" if language == "hu" else "Download the image")
    image = page.request.get(download.get_attribute("href") or "")
    assert image.ok and image.headers["content-type"] == "image/png" and image.body()[:8] == b"\x89PNG\r\n\x1a\n"
    assert errors == []
