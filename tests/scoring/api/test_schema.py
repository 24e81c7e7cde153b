"""The OpenAPI schema: valid, documented with an example per ruleset, and fuzzed by schemathesis with zero
server errors (every operation, a bounded number of generated requests, against the WSGI app on PostgreSQL)."""

from __future__ import annotations

import json
import os
import zlib
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from scoring import rules, services
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 12


def _openapi_document() -> dict[str, Any]:
    """The schema drf-spectacular serves at /api/schema/."""
    generator = SchemaGenerator()
    return json.loads(OpenApiJsonRenderer().render(generator.get_schema(request=None, public=True)))


schema = schemathesis.openapi.from_dict(_openapi_document())
schema.app = get_wsgi_application()


@pytest.fixture
def fuzz_world(table: Any) -> dict[str, Any]:
    """Real objects for the path parameters, so generated bodies reach the services and the rules engine."""
    match = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.owner
    )
    services.round_record(match=match, facts=njet_facts(), user=table.owner)
    invite = services.invite_create(group=table.group, user=table.owner)
    token, _ = Token.objects.get_or_create(user=table.owner)
    return {
        "headers": {"Authorization": f"Token {token.key}", "Accept-Encoding": "identity"},
        "path": {
            "group_id": table.group.pk,
            "match_id": match.pk,
            "number": 1,
            "player_id": table.players[1].pk,
            "membership_id": table.group.memberships.get(user=table.member).pk,
            "invite_id": invite.pk,
            "token": invite.token,
            "key": "njet",
        },
    }


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_makes_the_server_fail(case: Any, wsgi_calls: None, fuzz_world: dict[str, Any]) -> None:
    # three cases in four address the real objects; the rest keep their generated (mostly unknown) ids
    if case.path_parameters and zlib.crc32(repr((case.body, case.query)).encode()) % 4:
        for name in case.path_parameters:
            if name in fuzz_world["path"]:
                case.path_parameters[name] = fuzz_world["path"][name]
    response = case.call(headers=fuzz_world["headers"])
    if os.environ.get("FUZZ_STATS"):
        with open(os.environ["FUZZ_STATS"], "a") as out:
            out.write(f"{case.method} {case.path} {response.status_code}\n")
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, response_schema_conformance])


def test_the_schema_documents_an_example_per_ruleset(client) -> None:
    document = client.get("/api/schema/?format=json").json()
    keys = set(rules.KEYS)

    def examples(path: str, part: str = "requestBody") -> set[str]:
        operation = document["paths"][path]["post"]
        content = operation[part]["content"] if part == "requestBody" else operation["responses"]["200"]["content"]
        return {name.lower() for name in content["application/json"]["examples"]}

    assert examples("/api/v1/rulesets/{key}/score") == keys
    assert examples("/api/v1/rulesets/{key}/score", "responses") == keys
    assert examples("/api/v1/matches/{match_id}/rounds") == keys
    assert examples("/api/v1/groups/{group_id}/matches") == keys
    assert client.get("/api/docs/").status_code == 200


def test_config_urls_mount_the_api() -> None:
    from django.urls import resolve

    assert resolve("/api/v1/rulesets").url_name == "rulesets"
    assert resolve("/api/schema/").url_name == "schema"
    assert resolve("/api/docs/").url_name == "swagger-ui"
