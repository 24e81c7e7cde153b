"""Security issue 32, rows "members" and "invites", at 360 px: an owner adds a member by username and gets the
same answer for a name nobody has; the invited person joins from their home page; a removed member's old link
opens a page that says why it no longer lets them in."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Group, Membership
from tests.browser.conftest import _session_cookie
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _context_of(new_context: Any, live_server: Any, person: Any, locale: str = "en-GB") -> Any:
    context = new_context(locale=locale, logged_in=False)
    context.add_cookies([_session_cookie(person, live_server.url)])
    return context


def test_an_owner_invites_by_username_and_the_person_joins_from_their_home_page(
    page: Any, new_context: Any, live_server: Any, group: Group, django_user_model: Any
) -> None:
    """Row "members": adding a username becomes an invitation the user accepts; no username-existence leak."""
    bea = django_user_model.objects.create_user("bea", password="x-secret-12")
    page.goto(f"/groups/{group.pk}/")
    answers = []
    for name in ("bea", "nobody-42"):
        page.get_by_label("Add a member by username").fill(name)
        page.get_by_role("button", name="Invite", exact=True).click()
        answers.append(page.locator(".msgs").inner_text())
    assert answers == ["If that user exists, they will see your invitation."] * 2
    waiting = page.locator("#invitations + ul")
    expect(waiting).to_contain_text("bea")
    expect(waiting).to_contain_text("nobody-42")
    assert not Membership.objects.filter(group=group, user=bea).exists()
    shot(page, "members-invited")

    bea_page = _context_of(new_context, live_server, bea).new_page()
    bea_page.goto("/")
    expect(bea_page.get_by_text("anna invites you to Friday table.")).to_be_visible()
    shot(bea_page, "members-invitation-home")
    bea_page.get_by_role("button", name="Join Friday table").click()
    expect(bea_page.locator("h1")).to_contain_text("Friday table")
    expect(bea_page.locator(".msgs")).to_have_text("Welcome to Friday table.")
    assert Membership.objects.get(group=group, user=bea).role == Membership.Role.MEMBER

    page.reload()
    expect(page.locator("#members + ul")).to_contain_text("bea")
    expect(page.locator("#invitations + ul")).not_to_contain_text("bea")


def test_a_removed_member_opening_the_old_link_reads_why_in_hungarian(
    new_context: Any, live_server: Any, group: Group, user: Any, django_user_model: Any
) -> None:
    """Row "invites": a removed member on the old link is refused with a clear page."""
    bea = django_user_model.objects.create_user("bea", password="x-secret-12")
    invite = services.invite_create(group=group, user=user)
    services.invite_accept(invite=invite, user=bea)
    services.membership_remove(membership=Membership.objects.get(group=group, user=bea), by=user)

    bea_page = _context_of(new_context, live_server, bea, "hu-HU").new_page()
    bea_page.goto(f"/join/{invite.token}/")
    expect(bea_page.get_by_role("alert")).to_have_text(
        "Egy tulajdonos eltávolított ebből a csoportból, ezért ez a meghívó már nem enged be."
        " Kérd meg a csoport egy tulajdonosát, hogy hívjon meg újra."
    )
    expect(bea_page.get_by_role("button", name="Csatlakozom")).to_have_count(0)
    shot(bea_page, "members-removed-old-link-hu")
    assert not Membership.objects.filter(group=group, user=bea).exists()
