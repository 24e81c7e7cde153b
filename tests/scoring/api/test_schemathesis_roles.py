"""Security issue 32, row "API errors" (and the schemathesis run of the issue's Tests section): schemathesis over
EVERY operation of the served OpenAPI document, with positive and negative data, as the group's owner, a member,
an outsider (a member of another group only) and an anonymous client.

Every answer must be no 5xx, JSON of the documented status and shape (response schema and content type
conformance), schema-valid requests must not be refused as malformed (400/422: "version" documented optional but
required, say) and schema-invalid ones must not be accepted (``offset=null`` answered 200). The number of
requests sent is printed at the end. Bounded: a few generated requests per operation and role.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from scoring import services
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION_AND_ROLE = 5
ROLES = ("owner", "member", "outsider", "anonymous")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

# Refusals of schema-valid requests that no OpenAPI schema can express: they depend on the database or on the
# rules of a game, and the answer names the field (a 400 whose every error key starts with one of these). Any
# other 400 or 422 for a schema-valid request fails the test (positive_data_acceptance).
SEMANTIC: dict[str, tuple[str, ...]] = {
    # names are cleaned (NFKC; invisible, text-direction, private-use and unassigned characters refused:
    # scoring.text.names.name_clean), which a string schema cannot say
    "POST /api/v1/groups": ("name", "player_name"),
    "PATCH /api/v1/groups/{group_id}": ("name",),
    # Django's password validators (too short, too common, entirely numeric, too like the username)
    "POST /api/v1/auth/signup": ("password", "username"),
    # a wrong username or password
    "POST /api/v1/auth/token": ("non_field_errors",),
    # a username that is taken or unknown; a user who is not a member of the group
    "POST /api/v1/groups/{group_id}/members": ("username",),
    "POST /api/v1/groups/{group_id}/players": ("user", "name"),
    "PATCH /api/v1/groups/{group_id}/players/{player_id}": ("user", "name"),
    # ids of players of another group (or of none)
    "POST /api/v1/groups/{group_id}/players/{player_id}/merge": ("into",),
    "POST /api/v1/groups/{group_id}/invites": ("player",),
    "POST /api/v1/groups/{group_id}/matches": ("players", "options", "ruleset", "preset"),
    # a totals-only match: the same, and a final score per player (partners' equal), a date not in the future
    "POST /api/v1/groups/{group_id}/matches/totals": ("players", "options", "ruleset", "points", "played_at"),
    # house rules: a cleaned name unique per game, the game's own options (a preset id of the group: above)
    "POST /api/v1/groups/{group_id}/presets": ("name", "options", "ruleset"),
    # a dispute's note is cleaned as names are (invisible and text-direction characters refused)
    "POST /api/v1/matches/{match_id}/rounds/{number}/dispute": ("note",),
    "PATCH /api/v1/groups/{group_id}/presets/{preset_id}": ("name", "options"),
    # a game's own rules: the facts of a round, its options, the cards of a trick
    "POST /api/v1/matches/{match_id}/rounds": ("facts", "number"),
    "PATCH /api/v1/matches/{match_id}/rounds/{number}": ("facts",),
    "PATCH /api/v1/matches/{match_id}": ("options",),
    "POST /api/v1/matches/{match_id}/options/preview": ("options",),
    "POST /api/v1/rulesets/{key}/score": ("facts", "before", "options", "players"),
    "POST /api/v1/rulesets/{key}/trick": ("plays", "setup", "options"),
    # an export document is checked whole by the importer, which names every field it refuses
    "POST /api/v1/groups/import": ("format", "group", "players", "matches", "non_field_errors"),
    # a BG Stats backup: its shape is checked by the importer, the mapping names players of the group
    "POST /api/v1/groups/{group_id}/import/bgstats": ("document", "players"),
    "POST /api/v1/groups/{group_id}/import": ("format", "group", "players", "matches", "non_field_errors"),
}

# requests sent, by role and by status class: printed by the last test of this module
SENT: Counter[tuple[str, str]] = Counter()


def _openapi_document() -> dict[str, Any]:
    generator = SchemaGenerator()
    return json.loads(OpenApiJsonRenderer().render(generator.get_schema(request=None, public=True)))


def _schema(*, coverage: bool) -> Any:
    loaded = schemathesis.openapi.from_dict(_openapi_document())
    loaded.app = get_wsgi_application()
    # Text with NUL characters is refused everywhere (PostgreSQL cannot store them: ApiView.payload), which the
    # schema's string types cannot say; those requests are the negative tests in test_malformed_input.py.
    loaded.config.generation.allow_x00 = False
    # Methods a path does not have are Django's routing (one JSON 405 for any role): not asked per role here.
    loaded.config.phases.coverage.unexpected_methods = set()
    # The coverage phase (every boundary and every negation of every parameter, hundreds of requests per
    # operation) runs for the owner, who reaches every service; the other roles get the generated examples
    # (positive and negative) only, to keep the run within the suite's time budget.
    loaded.config.phases.coverage.enabled = coverage
    return loaded


deep = _schema(coverage=True)
light = _schema(coverage=False)


def _semantic_refusal(case: Any, response: Any) -> bool:
    """A 400 for a schema-valid request that names only fields whose validity the schema cannot express."""
    allowed = SEMANTIC.get(case.operation.label, ())
    if response.status_code != 400 or not allowed:
        return False
    errors = response.json().get("errors") or {}
    return bool(errors) and all(key.split(".")[0] in allowed for key in errors)


@pytest.fixture
def world(table: Any) -> dict[str, Any]:
    """The table's real objects for path parameters, and a token per role (the outsider owns another group)."""
    match = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.owner
    )
    services.round_record(match=match, facts=njet_facts(), user=table.owner)
    # a finished match: a game night for the nights API to answer with its figures
    played = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.owner
    )
    services.round_record(match=played, facts=njet_facts(), user=table.owner)
    played.refresh_from_db()
    services.match_finish(match=played, expected_version=played.version, user=table.owner)
    invite = services.invite_create(group=table.group, user=table.owner)
    services.group_create(name="Other table", user=table.outsider, player_name="Xavi")
    users = {"owner": table.owner, "member": table.member, "outsider": table.outsider}
    headers = {"anonymous": {"Accept-Encoding": "identity"}}
    for role, user in users.items():
        token, _ = Token.objects.get_or_create(user=user)
        headers[role] = {"Authorization": f"Token {token.key}", "Accept-Encoding": "identity"}
    return {
        "headers": headers,
        "path": {
            "group_id": table.group.pk,
            "match_id": match.pk,
            "number": 1,
            "player_id": table.players[1].pk,
            "membership_id": table.group.memberships.get(user=table.member).pk,
            "invite_id": invite.pk,
            "token": invite.token,
            "key": "njet",
            "night_id": played.pk,
        },
    }


HYPOTHESIS = settings(
    max_examples=EXAMPLES_PER_OPERATION_AND_ROLE,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def _exercise(case: Any, role: str, world: dict[str, Any]) -> None:
    # Valid requests mostly address the table's real objects (so they reach the services and the rules engine);
    # one in four keeps its generated, mostly unknown ids. Negative cases keep what was generated: replacing a
    # deliberately invalid id would make them valid.
    positive = case.meta is None or case.meta.generation.mode.is_positive
    if positive and case.path_parameters and zlib.crc32(repr((role, case.body, case.query)).encode()) % 4:
        for name in case.path_parameters:
            if name in world["path"]:
                case.path_parameters[name] = world["path"][name]
    response = case.call(headers=world["headers"][role])
    SENT[(role, f"{response.status_code // 100}xx")] += 1
    case.validate_response(response, checks=CHECKS)
    if not _semantic_refusal(case, response):
        case.validate_response(response, checks=[positive_data_acceptance])


@deep.parametrize()
@HYPOTHESIS
def test_every_operation_as_the_owner(case: Any, wsgi_calls: None, world: dict[str, Any]) -> None:
    """Row "API errors": 0 5xx and 0 schema violations as the group's owner (with the coverage phase)."""
    _exercise(case, "owner", world)


@pytest.mark.parametrize("role", ROLES[1:])
@light.parametrize()
@HYPOTHESIS
def test_every_operation_as_another_role(case: Any, role: str, wsgi_calls: None, world: dict[str, Any]) -> None:
    """Row "API errors": 0 5xx and 0 schema violations as a member, an outsider and an anonymous client."""
    _exercise(case, role, world)


def test_print_the_request_count(capsys: Any) -> None:
    """The request count of the run above (this module's tests run in file order)."""
    total = sum(SENT.values())
    with capsys.disabled():
        by_role = ", ".join(f"{role} {sum(n for (r, _), n in SENT.items() if r == role)}" for role in ROLES)
        classes: Counter[str] = Counter()
        for (_, status_class), n in SENT.items():
            classes[status_class] += n
        print(f"\nschemathesis (roles): {total} requests ({by_role}; {dict(sorted(classes.items()))})")
    if SENT:  # run alone (-k), this test has nothing to count
        assert classes["5xx"] == 0
