"""The README's pictures: the app at 360 px on a phone, light and dark side by side (``make screenshots``).

    .venv/bin/python docs/screenshots.py

Starts a development server on a scratch SQLite database with the demo group (``manage.py load_demo``) and an
open NJET match of two rounds, then drives Debian's Chromium through Playwright as a player would: a round being
entered (its points previewed), the board with the last round's explanation, and the group's dashboard. Each picture
is the phone's screen in the light and the dark scheme, side by side, written to ``docs/img/``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
PY = str(ROOT / ".venv" / "bin" / "python")
SIZE = {"width": 360, "height": 740}
SETUP = """
import django, os
django.setup()
from django.contrib.auth import get_user_model
from scoring import rules, services
from scoring.models import Group
user = get_user_model().objects.get(username="demo")
group = Group.objects.get(name="Demo table")
players = list(group.players.order_by("id"))[:4]
match = services.match_create(group=group, ruleset="njet", options={}, player_ids=[p.pk for p in players], user=user)
facts = {"start_player": 0, "teams": [0, 1, 0, 1], "discard": "none", "points_per_trick": 2,
         "tricks": [4, 3, 4, 4], "booty": [1, 0, 2, 0]}
services.round_record(match=match, facts=facts, user=user)
services.round_record(match=match, facts={**facts, "start_player": 1, "teams": [1, 0, 1, 0]}, user=user)
print(match.pk, group.pk)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str, int, int]:
    subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PY, "manage.py", "load_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    out = subprocess.run([PY, "-c", SETUP], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"screenshots: setting up the match failed:\n{out.stderr}")
    match_id, group_id = (int(v) for v in out.stdout.split())
    port = _free_port()
    server = subprocess.Popen(
        [PY, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, base, match_id, group_id


def _shoot(base: str, match_id: int, group_id: int) -> dict[str, dict[str, bytes]]:
    from playwright.sync_api import sync_playwright

    shots: dict[str, dict[str, bytes]] = {"entry": {}, "board": {}, "dashboard": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=SIZE, color_scheme=scheme, locale="en-GB")
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.get_by_label("Username").fill("demo")
            page.get_by_label("Password").fill("demo-password-123")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_load_state("networkidle")

            page.goto(f"{base}/matches/{match_id}/")
            page.wait_for_load_state("networkidle")
            # the board's rounds: the table of points and totals, and the last round's reasons opened below it
            last = page.locator("#r2")
            last.get_by_text("Points and why").click()
            page.get_by_role("heading", name="Rounds").evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            shots["board"][scheme] = page.screenshot()
            page.goto(f"{base}/matches/{match_id}/")
            page.wait_for_load_state("networkidle")

            # a round being entered: the start player, a partner, the tricks; the preview shows the points
            form = page.locator("#entry-form")
            form.scroll_into_view_if_needed()
            chips = [("start_player", 2), ("discard", "none"), ("points_per_trick", 3), ("partner", 0)]
            chips += [(f"tricks.{seat}", tricks) for seat, tricks in enumerate((5, 3, 4))]
            for name, value in chips:  # each chip as a thumb taps it
                form.locator(f'label:has(input[name="{name}"][value="{value}"])').click()
                page.wait_for_timeout(60)
            page.get_by_text("Points if saved like this").wait_for(timeout=10_000)
            page.locator("#preview").evaluate("e => e.scrollIntoView({block: 'end'})")
            page.mouse.wheel(0, 90)
            page.wait_for_timeout(300)
            shots["entry"][scheme] = page.screenshot()

            page.goto(f"{base}/stats/groups/{group_id}/")
            page.wait_for_load_state("networkidle")
            shots["dashboard"][scheme] = page.screenshot()
            context.close()
        browser.close()
    return shots


def _side_by_side(light: bytes, dark: bytes, path: Path) -> None:
    import io

    from PIL import Image

    a, b = Image.open(io.BytesIO(light)).convert("RGB"), Image.open(io.BytesIO(dark)).convert("RGB")
    gap = 16
    both = Image.new("RGB", (a.width + gap + b.width, max(a.height, b.height)), (128, 128, 128))
    both.paste(a, (0, 0))
    both.paste(b, (a.width + gap, 0))
    both.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(DATABASE_URL=f"sqlite:///{scratch}/shots.sqlite3", DJANGO_SETTINGS_MODULE="config.settings")
        server, base, match_id, group_id = _serve(env)
        try:
            shots = _shoot(base, match_id, group_id)
        finally:
            server.terminate()
            server.wait(timeout=10)
    for name, pair in shots.items():
        _side_by_side(pair["light"], pair["dark"], OUT / f"{name}.png")
        print(f"docs/img/{name}.png", file=sys.stderr)


if __name__ == "__main__":
    main()
