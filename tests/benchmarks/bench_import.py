"""How long a large group import takes (not a timed test): builds an export document of about ``--mb``
megabytes from matches played through the rules engine (``analytics.synthetic``), then imports it as a new group
the way the Celery job does (check the whole document, re-score every round, write in one transaction), and
prints the figures.  It runs against ``DATABASE_URL`` (migrated) and deletes what it created.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sk_importer \\
        .venv/bin/python tests/benchmarks/bench_import.py --mb 10
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _iso(minute: int) -> str:
    month, day, hour = 1 + minute // 40000 % 12, 1 + minute // 1440 % 28, minute // 60 % 24
    return f"2025-{month:02d}-{day:02d}T{hour:02d}:{minute % 60:02d}:00+01:00"


def document(megabytes: float, seed: int = 32) -> dict[str, Any]:
    """An export document of about ``megabytes`` MB (compact JSON), every round as the rules score it."""
    from analytics import synthetic
    from scoring import rules
    from scoring.services.common import explanation_store

    rng = Random(seed)
    names = [f"Player {i:02d}" for i in range(30)]
    doc: dict[str, Any] = {
        "format": "scorekeeper-group",
        "version": 1,
        "group": {"name": "Benchmark import"},
        "players": [{"name": n, "user": None, "created_at": _iso(0)} for n in names],
        "matches": [],
    }
    size, target, minute = 0, int(megabytes * 1024 * 1024), 0
    while size < target:
        key = rng.choice(list(synthetic.GAMES))
        game = synthetic.GAMES[key]
        n = rng.choice(game.players)
        seated = rng.sample(names, n)
        played = synthetic.play_match(rng, key, synthetic.player_skills(rng, n))
        ruleset = rules.get(key)
        minute += 180
        match = {
            "ruleset": key,
            "options": played.options,
            "state": "finished",
            "finish_reason": "rules" if played.finished_by_rules else "manual",
            "created_at": _iso(minute),
            "finished_at": _iso(minute + 120),
            "players": seated,
            "rounds": [
                {
                    "number": k + 1,
                    "facts": facts,
                    "ruleset_version": ruleset.version,
                    "points": list(result.scores),
                    "explanation": explanation_store(ruleset, result, names=seated),
                    "entered_by": None,
                    "created_at": _iso(minute + k),
                    "deleted_at": None,
                }
                for k, (facts, result) in enumerate(played.rounds)
            ],
        }
        doc["matches"].append(match)
        size += len(json.dumps(match)) + 1
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0, help="document size in MB (default 10)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from scoring.models import Group
    from scoring.transfer import importing
    from scoring.transfer.import_check import document_check

    started = time.perf_counter()
    doc = document(args.mb)
    raw = json.dumps(doc).encode()
    rounds = sum(len(m["rounds"]) for m in doc["matches"])
    print(
        f"document: {len(raw) / 1024 / 1024:.1f} MB, {len(doc['matches'])} matches, {rounds} rounds "
        f"(built in {time.perf_counter() - started:.1f} s)"
    )

    user, _ = get_user_model().objects.get_or_create(username="bench-import")
    try:
        t0 = time.perf_counter()
        data = json.loads(raw)
        t1 = time.perf_counter()
        document_check(data)
        t2 = time.perf_counter()
        group = importing.group_import_new(data=data, user=user)
        t3 = time.perf_counter()
        print(f"parse JSON: {t1 - t0:.1f} s; check and re-score alone: {t2 - t1:.1f} s")
        print(f"import (check, re-score, write in one transaction): {t3 - t1:.1f} s")
        print(f"total from the raw bytes: {t3 - t0:.1f} s")
        Group.objects.filter(pk=group.pk).delete()
    finally:
        user.delete()


if __name__ == "__main__":
    main()
