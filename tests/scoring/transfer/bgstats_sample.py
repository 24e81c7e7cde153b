"""A realistic BG Stats backup for the import tests (written by the tests, dates some weeks ago): two of our
games (Meinz by name, Coloretto by its BGG id), one other game, four players ("bence" and "FLORA" differ from
the group's Bence and Flóra in case and accents), an ignored play, a blank score, a decimal score and a Meinz
play with too few players."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

DAY = timezone.localdate() - dt.timedelta(days=40)


def when(days: int, clock: str) -> str:
    return f"{(DAY + dt.timedelta(days=days)).isoformat()} {clock}"


def sample_backup() -> dict[str, Any]:
    """What BG Stats writes (the parts we read, and some we do not)."""

    def score(ref: int, value: str, winner: bool = False, seat: int | None = None) -> dict[str, Any]:
        row: dict[str, Any] = {"playerRefId": ref, "score": value, "winner": winner, "newPlayer": False, "rank": 0}
        if seat is not None:
            row["seatOrder"] = seat
        return row

    return {
        "userInfo": {"meRefId": 1},
        "players": [
            {"id": 1, "uuid": "p-anna", "name": "Anna", "isAnonymous": False},
            {"id": 2, "uuid": "p-bence", "name": "bence", "isAnonymous": False},
            {"id": 3, "uuid": "p-flora", "name": "FLORA", "isAnonymous": False},
            {"id": 4, "uuid": "p-zsofi", "name": "Zsófi", "isAnonymous": False},
        ],
        "games": [
            {"id": 10, "uuid": "g-meinz", "name": "Meinz", "bggId": 0, "cooperative": False, "highestWins": True},
            {"id": 11, "uuid": "g-col", "name": "Coloretto", "bggName": "Coloretto", "bggId": 5782},
            {"id": 12, "uuid": "g-carc", "name": "Carcassonne", "bggId": 822},
        ],
        "locations": [{"id": 1, "uuid": "l-1", "name": "Anna's kitchen"}],
        "plays": [
            {  # seats by seatOrder: Bence, Anna, Flóra
                "uuid": "play-meinz-1",
                "gameRefId": 10,
                "playDate": when(0, "20:15:00"),
                "locationRefId": 1,
                "playerScores": [score(1, "41", True, 2), score(2, "28", False, 1), score(3, "35", False, 3)],
            },
            {  # no seatOrder: the list's order
                "uuid": "play-col-1",
                "gameRefId": 11,
                "playDate": when(7, "21:00:00"),
                "playerScores": [score(1, "31"), score(4, "35", True), score(2, "20")],
            },
            {
                "uuid": "play-carc-1",
                "gameRefId": 12,
                "playDate": when(8, "19:00:00"),
                "playerScores": [score(1, "80", True), score(2, "70")],
            },
            {
                "uuid": "play-meinz-ignored",
                "gameRefId": 10,
                "ignored": True,
                "playDate": when(9, "19:00:00"),
                "playerScores": [score(1, "10", True), score(2, "5"), score(3, "1")],
            },
            {
                "uuid": "play-col-blank",
                "gameRefId": 11,
                "playDate": when(10, "19:30:00"),
                "playerScores": [score(1, ""), score(2, "12", True), score(3, "9")],
            },
            {
                "uuid": "play-col-decimal",
                "gameRefId": 11,
                "playDate": when(11, "19:30:00"),
                "playerScores": [score(1, "12.5", True), score(2, "12"), score(3, "9")],
            },
            {
                "uuid": "play-meinz-two",
                "gameRefId": 10,
                "playDate": when(12, "19:30:00"),
                "playerScores": [score(1, "12", True), score(2, "9")],
            },
        ],
    }
