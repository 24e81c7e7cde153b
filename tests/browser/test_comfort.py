"""Comfort and access (issue 30, item 10): dark mode following the phone, readable contrast in both schemes (axe-core),
44 × 44 px tap targets at 360 px, and the demo login on a development server's home page.

axe-core is pinned in the Makefile (``make axe``, part of ``make test``) and installed into tests/browser/.npm.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring import rules, services
from scoring.management.commands import load_demo
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / ".npm" / "node_modules" / "axe-core" / "axe.min.js"
DARK_BG = "rgb(18, 20, 23)"  # --bg of the dark scheme in app.css
LIGHT_BG = "rgb(255, 255, 255)"

# Every control a thumb may need in the main content, the header and the footer: links, buttons, form fields,
# summaries; a radio or checkbox is measured by its label (the chip the thumb actually taps).  Exempt (WCAG 2.5.8
# "inline" exception): a link that is display:inline inside a paragraph whose other text has words — a link in a
# running sentence ("Read the rules" between "·" separators is a list of links, not a sentence: it must be 44 px).
TAP_TARGETS_JS = """
() => {
  const out = [];
  const seen = new Set();
  const controls = document.querySelectorAll(
    'main a[href], main button, main select, main textarea, main summary, main input:not([type=hidden]), '
    + 'header a[href], footer a[href], footer button');
  for (const el of controls) {
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      target = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
    }
    if (seen.has(target)) continue;
    seen.add(target);
    const style = getComputedStyle(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (el.closest('details:not([open])') && !el.matches('summary')) continue;
    const para = el.closest('p');
    let prose = '';
    if (para) {
      const copy = para.cloneNode(true);
      copy.querySelectorAll('a').forEach(a => a.remove());
      prose = copy.textContent;
    }
    const inline = el.tagName === 'A' && style.display === 'inline' && /\\p{L}/u.test(prose);
    if (inline) continue;
    if (box.width < 43.5 || box.height < 43.5) {
      out.push(`${target.tagName.toLowerCase()} "${(target.innerText || target.value || '').trim().slice(0, 40)}" `
        + `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}
"""


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations that make a page unreadable or unusable: any colour-contrast problem and every
    serious or critical rule."""
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `make axe` (make test does it)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map(v => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
        }"""
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}"
        for v in found
        if v["id"] == "color-contrast" or v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def played_match(make_match: Any, user: Any) -> Any:
    """A MÜ match with two played rounds, so the page shows totals, explanations with § rule links and rounds."""
    match = make_match("mue", 5)
    example = rules.get("mue").example
    for _ in range(2):
        services.round_record(match=match, facts=example["facts"], user=user)
    return match


def pages_to_check(group: Any, match: Any) -> list[tuple[str, str]]:
    return [
        ("home", "/"),
        ("group", f"/groups/{group.pk}/"),
        ("pick-game", f"/groups/{group.pk}/matches/new"),
        ("new-match", f"/groups/{group.pk}/matches/new?game=njet"),
        ("match", f"/matches/{match.pk}/"),
        ("rules", "/rules/"),
        ("rules-mue", "/rules/mue/"),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_have_readable_contrast_in_both_schemes(page: Any, group: Any, played_match: Any, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    problems = {}
    for name, url in pages_to_check(group, played_match):
        page.goto(url)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == (DARK_BG if scheme == "dark" else LIGHT_BG), (name, background)
        found = axe_violations(page)
        if found:
            problems[name] = found
        shot(page, f"comfort-{name}-{scheme}")
    assert problems == {}
    assert page.js_errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hungarian_match_page_and_logged_out_home_in_both_schemes(
    new_context: Any, played_match: Any, scheme: str
) -> None:
    hu = new_context(locale="hu-HU").new_page()
    hu.emulate_media(color_scheme=scheme)
    hu.goto(f"/matches/{played_match.pk}/")
    expect(hu.locator("html")).to_have_attribute("lang", "hu")
    assert axe_violations(hu) == []
    shot(hu, f"comfort-match-hu-{scheme}")
    guest = new_context(logged_in=False).new_page()
    guest.emulate_media(color_scheme=scheme)
    for url in ("/", "/accounts/login/", "/offline/"):
        guest.goto(url)
        assert axe_violations(guest) == [], url


def test_statistics_in_dark_mode_keep_their_figures_readable(page: Any, group: Any, players: Any, user: Any) -> None:
    for fronts, hands in (((9, 5, 3), (0, 2, 4)), ((4, 8, 6), (3, 0, 1))):
        match = services.match_create(
            group=group, ruleset="abluxxen", options={}, player_ids=[p.pk for p in players[:3]], user=user
        )
        services.round_record(match=match, facts={"front": list(fronts), "hand": list(hands), "end": "out"}, user=user)
    page.emulate_media(color_scheme="dark")
    page.goto(f"/stats/groups/{group.pk}/")
    figure = page.locator(".stats-figure").first
    expect(figure.locator("svg.stats-svg")).to_be_visible()
    # the static SVG figures are drawn in dark ink: in dark mode they sit on a white card
    assert figure.evaluate("el => getComputedStyle(el).backgroundColor") == LIGHT_BG
    assert axe_violations(page) == []
    shot(page, "comfort-stats-dark")


def test_every_tap_target_is_at_least_44_px(
    page: Any, new_context: Any, group: Any, played_match: Any, make_match: Any
) -> None:
    was_sticht = make_match("was-sticht", 4, options={"tasks": rules.get("was-sticht").example["options"]["tasks"]})
    urls = [url for _, url in pages_to_check(group, played_match)]
    urls += [f"/matches/{was_sticht.pk}/", "/referee/", f"/matches/{played_match.pk}/rounds/1/edit"]
    small = {}
    for url in urls:
        page.goto(url)
        found = page.evaluate(TAP_TARGETS_JS)
        if found:
            small[url] = found
    guest = new_context(logged_in=False).new_page()
    for url in ("/", "/offline/", "/accounts/login/", "/referee/mue/"):
        guest.goto(url)
        found = guest.evaluate(TAP_TARGETS_JS)
        if found:
            small[f"{url} (logged out)"] = found
    assert small == {}, "\n".join(f"{url}: {found}" for url, found in small.items())
    # the § rule links of the explanations in particular (they were 7 × 16 px)
    page.goto(f"/matches/{played_match.pk}/")
    links = page.locator("#last-round").get_by_role("link", name="Rule:")
    assert links.count() >= 3
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44


def _demo_group() -> None:
    from django.contrib.auth import get_user_model

    demo = get_user_model().objects.create_user(username=load_demo.USERNAME, password=load_demo.PASSWORD)
    services.group_create(name=load_demo.GROUP_NAME, user=demo, player_name="Demo")


def test_demo_login_on_the_home_page_of_a_development_server(new_context: Any, settings: Any) -> None:
    settings.DEBUG = True
    guest = new_context(logged_in=False).new_page()
    guest.goto("/")
    expect(guest.get_by_role("heading", name="Demo login")).to_have_count(0)  # no demo group yet
    _demo_group()
    guest.goto("/")
    demo = guest.get_by_role("region", name="Demo login")
    expect(demo).to_contain_text(f"log in as {load_demo.USERNAME} with the password {load_demo.PASSWORD}")
    shot(guest, "comfort-demo-login")
    # and it works: the shown login opens the demo group
    guest.get_by_role("link", name="Log in").first.click()
    guest.get_by_label("Username").fill(load_demo.USERNAME)
    guest.get_by_label("Password").fill(load_demo.PASSWORD)
    guest.locator("main").get_by_role("button", name="Log in").click()
    expect(guest.locator("main")).to_contain_text(load_demo.GROUP_NAME)


def test_no_demo_login_in_production_or_for_members(user: Any, settings: Any) -> None:
    _demo_group()
    settings.DEBUG = False
    assert load_demo.PASSWORD not in Client().get("/").content.decode()
    settings.DEBUG = True
    assert load_demo.PASSWORD in Client().get("/").content.decode()
    member = Client()
    member.force_login(user)
    assert load_demo.PASSWORD not in member.get("/").content.decode()


def test_theme_colour_and_manifest_for_both_schemes(client: Any) -> None:
    html = client.get("/").content.decode()
    assert '<meta name="color-scheme" content="light dark">' in html
    assert 'content="#121417" media="(prefers-color-scheme: dark)"' in html
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["color_scheme_dark"] == {"background_color": "#121417", "theme_color": "#121417"}
