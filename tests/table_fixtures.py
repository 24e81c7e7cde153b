"""Fixtures shared by the page tests and the browser tests: a user in a group of six players, and matches
made through the services (registered for every test by ``tests/conftest.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import Group, Match, Player

NAMES = ("Anna", "Bence", "Cili", "Dani", "Emil", "Flóra")
PASSWORD = "correct-horse-42"


@pytest.fixture
def user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("anna", email="anna@example.com", password=PASSWORD)


@pytest.fixture
def group(user: Any) -> Group:
    group = services.group_create(name="Friday table", user=user, player_name=NAMES[0])
    for name in NAMES[1:]:
        services.player_create(group=group, name=name, user=user)
    return group


@pytest.fixture
def players(group: Group) -> list[Player]:
    by_name = {p.name: p for p in Player.objects.filter(group=group)}
    return [by_name[name] for name in NAMES]


@pytest.fixture
def make_match(group: Group, players: list[Player], user: Any) -> Any:
    def make(ruleset: str, count: int = 4, options: dict[str, Any] | None = None) -> Match:
        return services.match_create(
            group=group, ruleset=ruleset, options=options or {}, player_ids=[p.pk for p in players[:count]], user=user
        )

    return make
