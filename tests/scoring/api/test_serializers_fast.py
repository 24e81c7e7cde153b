"""The round-write answer is rendered without building the serializer's fields: it must stay the same dict."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from scoring import rules, services
from scoring.api.serializers import RoundWriteResultSerializer
from scoring.models import Round
from tests.scoring.helpers import njet_facts, played_match

pytestmark = pytest.mark.django_db


def _both(rnd: Round, names: list[str] | None, ruleset: Any) -> tuple[Any, Any]:
    rnd.match_state = {"id": rnd.match_id, "version": 7, "state": "open"}  # type: ignore[attr-defined]
    serializer = RoundWriteResultSerializer(rnd, context={"request": None, "ruleset": ruleset, "names": names})
    return dict(serializer.data), dict(serializer.to_representation_by_fields(rnd))


def test_the_fast_answer_is_the_answer_of_the_declared_fields(table, njet_match):
    names = [p.name for p in table.players]
    njet = rules.get("njet")
    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
    fast, slow = _both(rnd, names, njet)
    assert fast == slow
    assert list(fast) == list(slow)  # same keys in the same order
    assert fast["entered_by"] == table.member.username and fast["explanation"]

    edited = services.round_edit(round=rnd, facts=njet_facts(start_player=1), expected_version=1, user=table.member)
    assert _both(edited, names, njet)[0] == _both(edited, names, njet)[1]
    assert _both(edited, None, None)[0] == _both(edited, None, None)[1]  # no ruleset: the stored lines

    stored = Round.objects.get(pk=rnd.pk)
    stored.deleted_at = timezone.now()
    stored.entered_by = None
    fast, slow = _both(stored, names, njet)
    assert fast == slow
    assert fast["deleted"] is True and fast["deleted_at"] is not None and fast["entered_by"] is None


@pytest.mark.parametrize("key", rules.KEYS)
def test_a_new_rounds_english_answer_is_its_stored_text_as_rendering_would_word_it(table, key):
    """The answer to a new round in English takes each line's stored text (worded with the same names) instead
    of wording it again: over whole matches of every game, the text is what rendering gives."""
    from django.utils import translation

    played, match = played_match(table, key, f"text-{key}", rounds=12)
    ruleset, lines = rules.get(key), 0
    with translation.override("en"):
        for facts, _result in played.rounds:
            rnd = services.round_record(match=match, facts=facts, user=table.member)
            rnd.match_state = {"id": match.pk, "version": 1, "state": "open"}  # type: ignore[attr-defined]
            context = {"request": None, "ruleset": ruleset, "names": rnd.seat_names}  # type: ignore[attr-defined]
            stored = RoundWriteResultSerializer(rnd, context={**context, "stored_text": True}).data
            worded = RoundWriteResultSerializer(rnd, context=context).data
            assert stored["explanation"] == worded["explanation"]
            lines += len(stored["explanation"])
    assert lines >= len(played.rounds)
    with translation.override("hu"):  # another language is worded anew
        hungarian = RoundWriteResultSerializer(rnd, context={**context, "stored_text": True}).data
        assert hungarian["explanation"] == RoundWriteResultSerializer(rnd, context=context).data["explanation"]
        assert hungarian["explanation"] != stored["explanation"]
