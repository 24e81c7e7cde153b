"""Security issue 32, rows "version parameter" and "API errors": malformed input under /api/ is a 4xx JSON
answer naming what is wrong — non-ASCII digits in a version, a bad page offset, a JSON value of the wrong type,
an unknown path, a body over the size limit — and never a 500, an HTML page or a digit read as another."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Group, Round
from scoring.text.numbers import parse_whole
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("7", 7),
        (" 12 ", 12),
        ("007", 7),
        ("²", None),
        ("١", None),
        ("1_0", None),
        ("", None),
        ("-3", None),
        ("+3", None),
        ("3.0", None),
        ("٣", None),
        ("１", None),
        ("1\n", 1),
        ("9" * 19, None),
        (True, None),
        (5, 5),
    ],
)
def test_parse_whole_takes_ascii_digits_only(raw: Any, expected: int | None) -> None:
    """Row "version parameter": ``isdigit()`` and ``int()`` take any Unicode digit; the shared parser does not."""
    assert parse_whole(raw) == expected


def test_parse_whole_signed() -> None:
    assert [parse_whole(t, signed=True) for t in ("-3", "+3", "−3", "- 3", "--3")] == [-3, 3, -3, None, None]


@pytest.fixture
def api(table: Any, client_for: Any) -> Any:
    return client_for(table.owner)


@pytest.fixture
def rounds_url(njet_match: Any, api: Any) -> str:
    url = f"/api/v1/matches/{njet_match.pk}/rounds"
    assert api.post(url, {"facts": njet_facts()}, format="json").status_code == 201
    return url


def _is_version_400(response: Any) -> bool:
    return (
        response.status_code == 400
        and response["Content-Type"] == "application/json"
        and response.json()["errors"] == {"version": ["A version is a whole number."]}
    )


@pytest.mark.parametrize("bad", ["²", "١", '"²"', 'W/"١"', "1_0", "³"])
def test_a_version_that_is_not_ascii_digits_is_a_400(api: Any, rounds_url: str, bad: str) -> None:
    """Row "version parameter": ``?version=²`` and ``If-Match: ²`` were 500s and ``١`` was read as version 1."""
    assert _is_version_400(api.delete(f"{rounds_url}/1?version={bad}"))
    assert _is_version_400(api.delete(f"{rounds_url}/1", HTTP_IF_MATCH=bad))
    in_body = api.patch(f"{rounds_url}/1", {"facts": njet_facts(), "version": bad}, format="json")
    assert in_body.status_code == 400
    assert list(in_body.json()["errors"]) == ["version"]
    assert _is_version_400(api.post(f"{rounds_url}/1/undo", HTTP_IF_MATCH=bad))
    # nothing was changed: round 1 is still there at version 1
    assert Round.objects.get(number=1).version == 1
    assert Round.objects.get(number=1).deleted_at is None


@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_if_match_is_refused_not_taken_for_no_header(api: Any, rounds_url: str, empty: str) -> None:
    """Issue 43 §3 (it reverses the earlier "an empty If-Match is no header"): a header that is there but empty is
    a 400 naming ``version``, even with ``?version=`` beside it, and nothing changes."""
    response = api.delete(f"{rounds_url}/1?version=1", HTTP_IF_MATCH=empty)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]
    assert Round.objects.get(number=1).deleted_at is None


@pytest.mark.parametrize("query", ["offset=null", "offset=-1", "offset=²", "limit=0", "limit=abc", "limit=١"])
def test_a_malformed_page_is_a_400(api: Any, rounds_url: str, query: str) -> None:
    """Row "API errors": ``offset=null`` was read as 0 (an invalid request accepted)."""
    response = api.get(f"{rounds_url}?{query}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [query.split("=")[0]]


def test_a_good_page_still_works(api: Any, rounds_url: str) -> None:
    assert api.get(f"{rounds_url}?offset=0&limit=1000").json()["count"] == 1


@pytest.mark.parametrize(
    ("body", "field"), [({"name": 0}, "name"), ({"name": ["x"]}, "name"), ({"name": True}, "name")]
)
def test_a_json_value_of_the_wrong_type_is_refused(api: Any, body: dict[str, Any], field: str) -> None:
    """Row "API errors": ``{"name": 0}`` created a group called "0" (an invalid request accepted)."""
    before = Group.objects.count()
    response = api.post("/api/v1/groups", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert Group.objects.count() == before


def test_an_integer_sent_as_text_is_refused(api: Any, njet_match: Any, table: Any) -> None:
    ids = [str(p.pk) for p in table.players[:3]]
    response = api.post(f"/api/v1/groups/{table.group.pk}/matches", {"ruleset": "njet", "players": ids}, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"players.0", "players.1", "players.2"}


@pytest.mark.parametrize("path", ["/api/v1/nope", "/api/nothing", "/api/v1/groups/x", "/api/v1/matches/1/rounds/a"])
def test_an_unknown_api_path_is_a_json_404(api: Any, path: str) -> None:
    """Row "API errors": Django's HTML 404 page answered unknown /api/ paths."""
    response = api.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_a_page_404_stays_html(client: Any) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_body_over_the_limit_is_a_json_413(api: Any, njet_match: Any, settings: Any) -> None:
    """Row "API errors": a body over DATA_UPLOAD_MAX_MEMORY_SIZE got Django's HTML 400 page."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"facts": {"x": "' + "a" * 2000 + '"}}'
    response = api.post(f"/api/v1/matches/{njet_match.pk}/rounds", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "The request is too large."}
    assert not Round.objects.exists()


def test_a_form_over_the_limit_is_a_413_page(client: Any, table: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client.force_login(table.owner)
    response = client.post(f"/groups/{table.group.pk}/players", {"name": "x" * 2000})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")


def test_a_bad_field_is_named_in_the_language_of_each_request(table, client_for, njet_match):
    """Input serializers are built once per class (``payload``): their messages still follow each request's
    language, and one request's errors never reach the next."""
    api = client_for(table.member)
    url = f"/api/v1/matches/{njet_match.pk}/rounds"

    def errors(number: int, language: str) -> dict[str, Any]:
        answer = api.post(url, {"facts": njet_facts(), "number": number}, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 400, answer.content
        return answer.json()["errors"]

    english = errors(0, "en")
    hungarian = errors(0, "hu")
    assert set(english) == set(hungarian) == {"number"}
    assert "greater than or equal to 1" in english["number"][0]
    assert hungarian["number"] != english["number"] and "1" in hungarian["number"][0]
    assert errors(0, "en") == english
    assert api.post(url, {"facts": njet_facts(), "number": 1}, format="json").status_code == 201
    assert Round.objects.filter(match=njet_match).count() == 1
