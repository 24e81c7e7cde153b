"""The round write's fixed reads (issue 48) hand over what the ORM would: the token with its user, the locked
match and the match's standings, field by field, and the token authentication answers as DRF's does."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import translation
from rest_framework import authentication as drf_authentication
from rest_framework import exceptions
from rest_framework.authtoken.models import Token

from analytics.models import MatchStanding
from analytics.services import marking
from scoring import services
from scoring.api.authentication import TokenAuthentication, token_with_user
from scoring.models import Match
from scoring.selectors import rows
from scoring.services.locking import match_lock_member, match_lock_table

pytestmark = pytest.mark.django_db


def _same_fields(made: Any, read: Any) -> None:
    assert type(made) is type(read)
    for field in type(read)._meta.concrete_fields:
        assert getattr(made, field.attname) == getattr(read, field.attname), field.attname
    assert made._state.adding is False
    assert made._state.db == read._state.db


def test_the_token_and_its_user_are_read_as_the_orm_reads_them(table: Any) -> None:
    table.owner.last_login = datetime(2026, 11, 28, 21, 5, 7, 123456, tzinfo=UTC)
    table.owner.save()
    token = Token.objects.create(user=table.owner)

    found = token_with_user(token.key)

    orm = Token.objects.select_related("user").get(key=token.key)
    _same_fields(found, orm)
    _same_fields(found.user, orm.user)
    assert token_with_user("no such token") is None


def test_the_locked_match_is_read_as_the_orm_reads_it(table: Any) -> None:
    match = services.match_create(
        group=table.group,
        ruleset="sticheln",
        options={"variant": "classic"},
        player_ids=[p.pk for p in table.players[:4]],
        user=table.owner,
    )
    with transaction.atomic():
        plain = match_lock_member(match_id=match.pk, user=table.member)
        locked, seats, names, played = match_lock_table(match_id=match.pk, user=table.member)

    orm = Match.objects.get(pk=match.pk)
    _same_fields(plain, orm)
    _same_fields(locked, orm)
    assert plain.options == {"variant": "classic"} == locked.options
    assert seats == [p.pk for p in table.players[:4]]
    assert names == [p.name for p in table.players[:4]]
    assert played == []


def test_the_standings_are_read_as_values_gives_them(table: Any) -> None:
    match = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players[:3]], user=table.owner
    )
    finished = datetime(2026, 11, 28, 22, 0, 1, 500, tzinfo=UTC)
    for seat, player in enumerate(table.players[:3]):
        MatchStanding.objects.create(
            match_id=match.pk,
            group_id=table.group.pk,
            player_id=player.pk,
            ruleset="njet",
            seat=seat,
            players=3,
            finished_at=finished,
            rounds=9,
            total=10 * seat,
            rank=3 - seat,
            won=seat == 2,
        )

    read = marking._standings(match.pk)

    expected = list(MatchStanding.objects.filter(match_id=match.pk).values("player_id", "finished_at"))
    key = lambda row: row["player_id"]  # noqa: E731
    assert sorted(read, key=key) == sorted(expected, key=key)
    assert all(row["finished_at"] == finished for row in read)
    assert marking._standings(match.pk + 1000) == []


def test_rows_name_columns_in_the_order_they_are_read() -> None:
    quote = connection.ops.quote_name
    assert rows.columns(MatchStanding, "s", ["player_id", "finished_at"]) == (
        f"s.{quote('player_id')}, s.{quote('finished_at')}"
    )
    assert rows.width(Match) == len(Match._meta.concrete_fields)


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("case", ["valid", "unknown", "inactive"])
def test_token_authentication_answers_as_drfs(table: Any, case: str, language: str) -> None:
    token = Token.objects.create(user=table.member)
    key = "0" * 40 if case == "unknown" else token.key
    if case == "inactive":
        table.member.is_active = False
        table.member.save()

    def outcome(auth: Any) -> Any:
        with translation.override(language):
            try:
                user, got = auth.authenticate_credentials(key)
            except exceptions.AuthenticationFailed as failed:
                return ("refused", str(failed.detail))
            return ("accepted", user.pk, got.key, user.is_active)

    ours, drfs = outcome(TokenAuthentication()), outcome(drf_authentication.TokenAuthentication())
    assert ours == drfs
    assert ours[0] == ("accepted" if case == "valid" else "refused")


def test_an_unknown_token_is_refused_by_the_api_with_a_token_challenge(table: Any, client_for: Any) -> None:
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Token " + "f" * 40)
    response = client.get("/api/v1/groups", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."
    assert response["WWW-Authenticate"] == "Token"

    member = client_for(table.member)
    assert member.get("/api/v1/groups").status_code == 200
