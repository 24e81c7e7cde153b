"""``manage.py load_demo``: a demo account with a group, five players and finished matches of every game.

Runs only on an empty database (so ``make run`` can call it every time); everything goes through the
services, exactly as if the rounds had been entered at the table.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import rules, services
from scoring.models import Group, Match

USERNAME = "demo"
PASSWORD = "demo-password-123"
GROUP_NAME = "Demo table"  # the home page of a development server shows the login while this group exists
PLAYERS = ("Demo", "Bori", "Csaba", "Dóra", "Ervin")
MAX_ROUNDS = 30


class Command(BaseCommand):
    help = "Create the demo user, group, players and a few finished matches (only on an empty database)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        credentials = f"log in as '{USERNAME}' with password '{PASSWORD}'"
        if User.objects.filter(username=USERNAME).exists():
            self.stdout.write(f"Demo data is already there: {credentials}")
            return
        if User.objects.exists() or Group.objects.exists():
            self.stdout.write("The database is not empty: no demo data loaded.")
            return
        with transaction.atomic():
            user = User.objects.create_user(username=USERNAME, password=PASSWORD)
            group = services.group_create(name=GROUP_NAME, user=user, player_name=PLAYERS[0])
            players = [group.players.get()]
            players += [services.player_create(group=group, name=name, user=user) for name in PLAYERS[1:]]
            played = [
                self._play(group=group, user=user, players=players, key=key, shift=i)
                for i, key in enumerate(rules.KEYS)
            ]
        self.stdout.write(self.style.SUCCESS(f"Demo data loaded ({sum(played)} finished matches): {credentials}"))

    def _play(self, *, group: Group, user: Any, players: list[Any], key: str, shift: int) -> int:
        """One match of ``key`` from the game's worked example, played until the rules (or the evening) end it."""
        example = rules.get(key).example
        n = example["players"]
        seated = [players[(shift + i) % len(players)] for i in range(n)]
        match = services.match_create(
            group=group, ruleset=key, options=example.get("options"), player_ids=[p.pk for p in seated], user=user
        )
        for _ in range(MAX_ROUNDS):
            try:
                services.round_record(match=match, facts=example["facts"], user=user)
            except services.ValidationFailed:
                break  # the example cannot simply be repeated in this game (its rounds depend on each other)
            match.refresh_from_db()
            if match.state == Match.State.FINISHED:
                return 1
        match.refresh_from_db()
        if match.state == Match.State.OPEN:
            if not match.rounds.exists():
                services.match_delete(match=match, expected_version=match.version, user=user)
                return 0
            services.match_finish(match=match, expected_version=match.version, user=user)
        return 1
