"""Fixtures for the scoring services and API: a group with an owner, a member, an outsider and five players."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Group, Match, Membership, Player
from tests.factories import GroupFactory, MembershipFactory, PlayerFactory, UserFactory

NAMES = ("Anna", "Bence", "Csilla", "Dani", "Eszter")


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Throttle counters live in the cache: start every test with none."""
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """A fast password hasher (the real one takes a noticeable part of a second per user)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Table:
    group: Group
    owner: Any
    member: Any
    outsider: Any
    players: list[Player]


@pytest.fixture
def table(db: None) -> Table:
    owner, member, outsider = UserFactory(username="olga"), UserFactory(username="mate"), UserFactory(username="xavi")
    group = GroupFactory(name="Thursday table")
    MembershipFactory(group=group, user=owner, role=Membership.Role.OWNER)
    MembershipFactory(group=group, user=member, role=Membership.Role.MEMBER)
    players = [PlayerFactory(group=group, name=name) for name in NAMES]
    players[0].user = owner
    players[0].save()
    return Table(group=group, owner=owner, member=member, outsider=outsider, players=players)


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """An API client authenticated with the user's token (``None``: anonymous)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def njet_match(table: Table) -> Match:
    """A fresh 5-player NJET match, seats in the order of ``table.players``."""
    return services.match_create(
        group=table.group,
        ruleset="njet",
        options={},
        player_ids=[p.pk for p in table.players],
        user=table.owner,
    )


@pytest.fixture
def wsgi_calls(db: None, settings: Any) -> Iterator[None]:
    """Requests straight into the WSGI app (schemathesis), inside the test's transaction, without throttling."""
    from django.core import signals
    from django.db import close_old_connections

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}),
            "calculator": "100000/min",
            "writes": "100000/min",
            "auth": "100000/min",
            "heavy": "100000/min",
        },
    }
    # Like Django's test client: keep the test's database connection (and its transaction) open across requests.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
