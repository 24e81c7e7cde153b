"""GET /rulesets, the stateless calculator, the trick referee, tokens, sign-up and throttling."""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.api.views.examples import NAMES, TRICKS
from scoring.rules import tricks
from tests.factories import PASSWORD, UserFactory
from tests.scoring.helpers import WS_ROUND_1, WS_ROUND_2, example, njet_facts

pytestmark = pytest.mark.django_db


def test_rulesets_lists_every_game_with_players_options_schema_and_example(client):
    response = client.get("/api/v1/rulesets")
    assert response.status_code == 200
    listed = response.json()
    assert [r["key"] for r in listed] == list(rules.KEYS)
    njet = listed[0]
    assert (njet["name"], njet["min_players"], njet["max_players"]) == ("NJET", 2, 5)
    assert [o["key"] for o in njet["options"]] == ["recording", "tie_rule"]
    assert njet["options"][0]["schema"]["enum"] == ["full", "difference"]
    assert njet["facts_schema"]["type"] == "object"
    assert njet["example"] == rules.get("njet").example
    assert client.get("/api/v1/rulesets/mue").json()["key"] == "mue"
    assert client.get("/api/v1/rulesets/poker").status_code == 404


@pytest.mark.parametrize("key", rules.KEYS)
def test_the_calculator_scores_every_rulesets_worked_example(client, key):
    ex = example(key)
    names = list(NAMES[: ex["players"]])
    response = client.post(
        f"/api/v1/rulesets/{key}/score",
        {"players": names, "options": ex.get("options") or {}, "facts": ex["facts"]},
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    result = rules.get(key).score(ex["facts"], players=ex["players"], options=ex.get("options"))
    body = response.json()
    assert body["scores"] == list(result.scores)
    assert [line["msg"] for line in body["explanation"]] == [line.msg for line in result.lines]
    assert all(line["text"] for line in body["explanation"])
    assert body["players"] == names


def test_the_calculator_validates_like_saving_a_round(client):
    response = client.post(
        "/api/v1/rulesets/njet/score",
        {"players": list("ABCDE"), "facts": njet_facts(tricks=[0, 0, 0, 0, 0])},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert any(field.startswith("facts.tricks") for field in response.json()["errors"])

    too_many = client.post(
        "/api/v1/rulesets/njet/score",
        {"players": list("ABCDEF"), "facts": njet_facts()},
        content_type="application/json",
    )
    assert too_many.status_code == 400 and "players" in too_many.json()["errors"]


def test_the_calculator_takes_earlier_rounds_for_games_that_depend_on_them(client):
    ex = example("was-sticht")
    payload = {"players": list("ABCD"), "options": ex["options"], "facts": WS_ROUND_2}
    alone = client.post("/api/v1/rulesets/was-sticht/score", payload, content_type="application/json")
    assert alone.status_code == 400  # round 2's start player is wrong for a first round
    after = client.post(
        "/api/v1/rulesets/was-sticht/score", {**payload, "before": [WS_ROUND_1]}, content_type="application/json"
    )
    assert after.status_code == 200, after.json()
    assert after.json()["state"]["rounds_played"] == 2


def test_the_calculator_answers_in_hungarian_when_asked(client):
    response = client.post(
        "/api/v1/rulesets/njet/score",
        {"players": list("ABCDE"), "facts": njet_facts()},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="hu",
    )
    assert response.status_code == 200
    assert response["Content-Language"] == "hu"
    assert all(line["text"] for line in response.json()["explanation"])


@pytest.mark.parametrize("key", tricks.KEYS)
def test_the_referee_decides_every_documented_trick(client, key):
    example_trick = TRICKS[key]
    response = client.post(f"/api/v1/rulesets/{key}/trick", example_trick, content_type="application/json")
    assert response.status_code == 200, response.json()
    expected = tricks.referee(key, example_trick["setup"], example_trick["plays"], options=example_trick["options"])
    body = response.json()
    assert (body["winner"], body["reason"], body["text"]) == (expected.winner, expected.reason, expected.text)


def test_the_referee_judges_legality_when_a_hand_is_given(client):
    body = client.post("/api/v1/rulesets/njet/trick", TRICKS["njet"], content_type="application/json").json()
    assert [n["index"] for n in body["illegal"]] == [1]
    assert "does not follow the led colour" in body["illegal"][0]["text"]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"setup": [], "plays": []},
        {"setup": {}, "plays": [{"card": "red 5"}]},
        {"setup": {"trump": "pink"}, "plays": []},
    ],
)
def test_the_referee_answers_bad_input_with_400(client, payload):
    response = client.post("/api/v1/rulesets/njet/trick", payload, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]


def test_no_referee_for_a_game_without_tricks(client):
    response = client.post(
        "/api/v1/rulesets/coloretto/trick", {"setup": {}, "plays": []}, content_type="application/json"
    )
    assert response.status_code == 400


def test_token_for_username_and_password(client):
    user = UserFactory(username="tokenist")
    refused = client.post(
        "/api/v1/auth/token", {"username": "tokenist", "password": "nope"}, content_type="application/json"
    )
    assert refused.status_code == 400
    issued = client.post(
        "/api/v1/auth/token", {"username": "tokenist", "password": PASSWORD}, content_type="application/json"
    )
    assert issued.status_code == 200
    token = issued.json()["token"]
    me = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.json() == {"id": user.pk, "username": "tokenist"}
    assert client.delete("/api/v1/auth/token", HTTP_AUTHORIZATION=f"Token {token}").status_code == 204
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401


def test_sign_up_returns_a_token_and_checks_the_password(client):
    weak = client.post(
        "/api/v1/auth/signup", {"username": "newbie", "password": "123"}, content_type="application/json"
    )
    assert weak.status_code == 400 and "password" in weak.json()["errors"]
    made = client.post(
        "/api/v1/auth/signup",
        {"username": "newbie", "password": "a-long-good-passphrase"},
        content_type="application/json",
    )
    assert made.status_code == 201
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {made.json()['token']}").json()["username"] == "newbie"
    again = client.post(
        "/api/v1/auth/signup",
        {"username": "NEWBIE", "password": "a-long-good-passphrase"},
        content_type="application/json",
    )
    assert again.status_code == 400 and "username" in again.json()["errors"]


def test_the_session_works_for_the_web(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get("/api/v1/me").json()["username"] == user.username


def test_log_in_attempts_are_throttled(client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "calculator": "2/min", "writes": "2/min"},
    }
    codes = [
        client.post(
            "/api/v1/auth/token", {"username": "x", "password": "y"}, content_type="application/json"
        ).status_code
        for _ in range(4)
    ]
    assert codes == [400, 400, 400, 429]


def test_the_calculator_is_throttled(client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "calculator": "2/min", "writes": "2/min"},
    }
    payload = {"players": list("ABCDE"), "facts": njet_facts()}
    codes = [
        client.post("/api/v1/rulesets/njet/score", payload, content_type="application/json").status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]
    trick = client.post("/api/v1/rulesets/njet/trick", TRICKS["njet"], content_type="application/json")
    assert trick.status_code == 429


def test_writes_are_throttled_per_user_but_reads_are_not(table, client_for, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "calculator": "2/min", "writes": "2/min"},
    }
    api = client_for(table.member)
    url = f"/api/v1/groups/{table.group.pk}/players"
    codes = [api.post(url, {"name": f"P{i}"}, format="json").status_code for i in range(3)]
    assert codes == [201, 201, 429]
    assert api.get(url).status_code == 200
    assert client_for(table.owner).post(url, {"name": "Q"}, format="json").status_code == 201


def test_the_throttles_let_requests_through_when_the_cache_is_unreachable(table, client_for, settings):
    """Redis (the cache holding the throttle counters) down must not stop rounds being saved."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "calculator": "2/min", "writes": "2/min"},
    }
    payload = {"players": list("ABCDE"), "facts": njet_facts()}
    codes = [
        client_for(None).post("/api/v1/rulesets/njet/score", payload, content_type="application/json").status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 200]  # not throttled (no counter to read) and no server error
    match = client_for(table.member).post(
        f"/api/v1/groups/{table.group.pk}/matches",
        {"ruleset": "njet", "players": [p.pk for p in table.players]},
        content_type="application/json",
    )
    assert match.status_code == 201, match.json()


def test_the_api_reads_json_only(table, client_for):
    response = client_for(table.member).post(
        f"/api/v1/groups/{table.group.pk}/matches",
        data="--x\r\nnot really multipart",
        content_type="multipart/form-data; boundary=x",
    )
    assert response.status_code == 415
    assert "multipart/form-data" in response.json()["detail"]
