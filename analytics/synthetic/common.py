"""What every game's generator shares: players' skills, who performs best this round, dealing items to slots."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

Skills = Sequence[float]


def skill_order(rng: Random, skills: Skills) -> list[int]:
    """Seats from best to worst performance this round: Plackett-Luce sampling by skill."""
    left = list(range(len(skills)))
    order = []
    while left:
        seat = rng.choices(left, weights=[skills[s] for s in left])[0]
        order.append(seat)
        left.remove(seat)
    return order


def split(rng: Random, total: int, weights: Sequence[float]) -> list[int]:
    """``total`` items dealt one by one to slots with probability ∝ weight."""
    counts = [0] * len(weights)
    for slot in rng.choices(range(len(weights)), weights=weights, k=total):
        counts[slot] += 1
    return counts
