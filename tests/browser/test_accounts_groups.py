"""The account and group pages (issue 2): sign up, log in and out, password reset by e-mail, groups,
invites by link and QR code; and the Hungarian UI."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import expect

from scoring.models import Group, Membership, Player
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_up(page: Any, username: str, password: str, email: str = "") -> None:
    page.fill("#id_username", username)
    if email:
        page.fill("#id_email", email)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.locator("main button[type=submit]").click()


def test_sign_up_group_invite_and_join(new_context: Any) -> None:
    owner = new_context(logged_in=False).new_page()
    owner.goto("/")
    owner.get_by_role("link", name="Sign up").first.click()
    sign_up(owner, "zoli", "table-games-2024", "zoli@example.com")
    expect(owner.locator("h1")).to_have_text("Your groups")
    owner.fill("#g-name", "Tuesday club")
    owner.fill("#g-player", "Zoli")
    owner.get_by_role("button", name="Create group").click()
    expect(owner.locator("h1")).to_have_text("Tuesday club")
    owner.fill("#p-name", "Vera")
    owner.get_by_role("button", name="Add player").click()
    expect(owner.locator("#players + ul")).to_contain_text("Vera")
    shot(owner, "group-home")
    owner.select_option("#inv-player", label="Vera")
    owner.get_by_role("button", name="Create invite link").click()
    expect(owner.locator(".qr svg")).to_be_visible()
    link = owner.locator("#inv-link").input_value()
    assert re.search(r"/join/[\w-]+/$", link)
    shot(owner, "invite-qr")

    # Vera opens the link on her own phone, signs up and joins as the guest player "Vera".
    vera = new_context(logged_in=False).new_page()
    vera.goto(link)
    expect(vera.locator("h1")).to_have_text("Join Tuesday club")
    vera.locator("main").get_by_role("link", name="Sign up").click()
    sign_up(vera, "vera", "another-secret-77")
    expect(vera.locator("main")).to_contain_text("You will play as Vera")
    vera.get_by_role("button", name="Join the group").click()
    expect(vera.locator("h1")).to_have_text("Tuesday club")
    group = Group.objects.get(name="Tuesday club")
    assert Membership.objects.filter(group=group, user__username="vera").exists()
    assert Player.objects.get(group=group, name="Vera").user.username == "vera"

    # The owner revokes the link: it stops working.
    owner.goto(f"/groups/{group.pk}/")
    owner.get_by_role("button", name="Revoke").click()
    vera.goto(link)
    expect(vera.locator("main")).to_contain_text("This invite link no longer works")


def test_log_out_reset_the_password_and_log_in(new_context: Any, user: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.get_by_role("button", name="Log out").click()
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.fill("#id_email", "anna@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.locator("h1")).to_have_text("Check your e-mail")
    assert len(mail.outbox) == 1
    reset = re.search(r"https?://\S+/accounts/reset/\S+/", mail.outbox[0].body)
    assert reset, mail.outbox[0].body
    page.goto(reset.group(0))
    page.fill("#id_new_password1", "a-brand-new-pass-9")
    page.fill("#id_new_password2", "a-brand-new-pass-9")
    page.get_by_role("button", name="Save the new password").click()
    expect(page.locator("h1")).to_have_text("Password changed")
    page.get_by_role("link", name="Log in").first.click()
    page.fill("#id_username", "anna")
    page.fill("#id_password", "a-brand-new-pass-9")
    page.locator("main button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Your groups")


def test_hungarian_ui(new_context: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    page = new_context(locale="hu-HU").new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator("h1")).to_have_text("A csoportjaid")
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_contain_text("Kezdőjátékos")
    expect(page.locator("#board .status")).to_contain_text("Következő osztó: Anna")
    for name, value in (("start_player", 0), ("discard", "none"), ("points_per_trick", 2), ("partner", 2)):
        tap(page, name, value)
    for seat, tricks in enumerate((4, 3, 5)):
        tap(page, f"tricks.{seat}", tricks)
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("1 kör után")
    expect(page.locator("#last-round")).to_contain_text("4 ütés + 0 zsákmány = 4")
    expect(page.locator("#last-round")).to_contain_text("Csapat: 9 ütés és zsákmány × 2 pont = 18")
    shot(page, "hu-match")
    page.goto("/rules/mue/")
    expect(page.locator("#mue-eklat h2")).to_have_text("Egyenlőség: holtverseny a legtöbb lapért")
    shot(page, "hu-rules-mue")
    page.get_by_role("button", name="English").click()
    expect(page.locator("#mue-eklat h2")).to_have_text("Eklat: a tie for the most cards")
