"""The floor of a round write, for ``bench_floor.py`` (a URLconf of its own: never part of the app's URLs).

``FloorRoundView`` does what any implementation of "record the next round" must do on this stack, and nothing
else: the same authentication, permission and throttle classes as the API (it is an ``ApiView``), the JSON body
parsed, then in one transaction the match locked by the path's own SELECT that is also the access check (the
user's membership; ``match_lock_member``), the Round inserted with facts, points and explanation computed
beforehand (``FLOOR`` below), its Score rows, the "create" RoundEvent, the match's next number and version
updated (those columns only), the statistics and the phones showing the match told (``stats_match_changed``:
the dirty record in the transaction, the stale flags and the live push after the commit, exactly as the real
path does; the push is work issue 33 §3 added to every round) and the IdempotencyKey with its answer; the
answer is a body of the same shape and size as the real one.  No rules engine, no replay of earlier rounds, no
serializer.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import include, path
from django.utils import timezone
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.views.base import ApiView
from scoring.models import IdempotencyKey, Round, RoundEvent, Score
from scoring.services.common import stats_match_changed
from scoring.services.locking import match_lock_member

# Filled in by bench_floor.py from a round the real path stored: facts, points, explanation, ruleset_version,
# the seated player ids in seat order and the real answer (a template for the floor's answer).
FLOOR: dict[str, Any] = {}


class FloorRoundView(ApiView):
    def post(self, request: Request, match_id: int) -> Response:
        data = request.data
        if not isinstance(data, dict) or "facts" not in data:
            return Response({"detail": "facts"}, status=status.HTTP_400_BAD_REQUEST)
        key = request.headers.get("Idempotency-Key") or None
        user = request.user
        seats: list[int] = FLOOR["seats"]
        with transaction.atomic():
            # the path's own locking SELECT (fixed SQL, the access check in the same statement)
            match = match_lock_member(match_id=match_id, user=user, hidden=True)
            number = match.next_number
            rnd = Round.objects.create(
                match=match,
                number=number,
                facts=FLOOR["facts"],
                points=FLOOR["points"],
                explanation=FLOOR["explanation"],
                ruleset_version=FLOOR["ruleset_version"],
                entered_by=user,
            )
            Score.objects.bulk_create(
                Score(round=rnd, match_id=match.pk, player_id=player_id, seat=seat, points=points)
                for seat, (player_id, points) in enumerate(zip(seats, rnd.points, strict=True))
            )
            RoundEvent.objects.create(
                match=match,
                round=rnd,
                round_number=number,
                action=RoundEvent.Action.CREATE,
                actor=user,
                before=None,
                after={
                    "number": number,
                    "facts": rnd.facts,
                    "points": list(rnd.points),
                    "ruleset_version": rnd.ruleset_version,
                    "version": 1,
                    "deleted": False,
                },
            )
            match.next_number = number + 1
            match.version += 1
            match.updated_at = timezone.now()
            match.save(update_fields=["next_number", "version", "updated_at"])
            stats_match_changed(match=match, players=seats)  # the statistics, and the live push to the phones
            body = {
                **FLOOR["answer"],
                "id": rnd.pk,
                "match": match.pk,
                "number": number,
                "created_at": rnd.created_at.isoformat().replace("+00:00", "Z"),
                "updated_at": rnd.updated_at.isoformat().replace("+00:00", "Z"),
                "match_state": {"id": match.pk, "version": match.version, "state": match.state},
            }
            if key:
                IdempotencyKey.objects.create(
                    user=user,
                    key=key,
                    scope=f"round_record:{match.pk}",
                    request_hash="0" * 64,
                    round=rnd,
                    status=201,
                    response=body,
                )
        return Response(body, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("bench/floor/matches/<int:match_id>/rounds", FloorRoundView.as_view()),
    path("", include("config.urls")),
]
