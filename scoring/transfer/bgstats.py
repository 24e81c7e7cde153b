"""The BG Stats backup format (its JSON "export data" file), as far as our games need it: which of its games
are ours, and its plays read into plain records.  No database here: the import service
(``scoring.transfer.bgstats_import``) decides what to write, ``scoring.transfer.bgstats_export`` writes the format back.

The parts we read: ``players`` (``id``, ``uuid``, ``name``), ``games`` (``id``, ``name``, ``bggId``,
``bggName``) and ``plays`` (``uuid``, ``gameRefId``, ``playDate`` "YYYY-MM-DD HH:MM:SS", ``ignored``, and
``playerScores`` with ``playerRefId``, ``score`` as text, ``winner`` and ``seatOrder``).  Everything else
(locations, expansions, ratings…) is left alone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import unicodedata
import uuid as uuidlib
from typing import Any

from django.utils.translation import gettext

# A fixed namespace: the uuids we derive for our games, players and matches are the same in every export.
NAMESPACE = uuidlib.UUID("6f1c2a4e-3b7d-5e89-9a0b-5c4d3e2f1a60")
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"

# ruleset key -> (BoardGameGeek id where we are sure of it, else None; the names it goes by in BG Stats)
GAMES: dict[str, tuple[int | None, tuple[str, ...]]] = {
    "njet": (None, ("NJET", "Njet!", "Njet")),
    "mue": (None, ("MÜ", "Mü", "Mu", "Mue", "Mü & More", "Mü and More", "Mü & mehr")),
    "meinz": (None, ("Meinz",)),
    "was-sticht": (None, ("Was sticht?", "Was sticht")),
    "sticheln": (None, ("Sticheln",)),
    "abluxxen": (None, ("Abluxxen", "Húzz egyet!", "Húzz egyet! / Abluxxen", "Abluxxen / Húzz egyet!")),
    "muzicando": (None, ("Muzicando",)),
    "coloretto": (5782, ("Coloretto",)),
}


def name_key(value: Any) -> str:
    """A name compared without case, Unicode form, punctuation or repeated spaces."""
    text = unicodedata.normalize("NFKC", str(value)).casefold()
    text = re.sub(r"[!?.,:;'\"()\-–/&]+", " ", text)
    return " ".join(text.split())


def person_key(value: Any) -> str:
    """A person's name compared without case and Unicode form (NFKC), spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", str(value)).casefold().split())


def bare_key(value: Any) -> str:
    """A person's name without its accents too (a second guess, when no name is equal)."""
    decomposed = unicodedata.normalize("NFKD", person_key(value))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_BY_NAME = {name_key(alias): key for key, (_bgg, aliases) in GAMES.items() for alias in aliases}
_BY_BGG = {bgg: key for key, (bgg, _aliases) in GAMES.items() if bgg}


def game_key(game: dict[str, Any]) -> str | None:
    """Our ruleset key for a BG Stats game, by its BGG id where we know it, else by its names."""
    bgg = game.get("bggId")
    if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg in _BY_BGG:
        return _BY_BGG[bgg]
    for field in ("name", "bggName"):
        key = _BY_NAME.get(name_key(game.get(field) or ""))
        if key:
            return key
    return None


@dataclasses.dataclass(frozen=True)
class Score:
    player: int  # the BG Stats player id
    score: Any  # an int, or the text as found (refused by the service, naming the player)
    seat: int | None
    winner: bool = False  # BG Stats' own winner flag


@dataclasses.dataclass(frozen=True)
class Play:
    uuid: str
    game: dict[str, Any]  # the BG Stats game (name, bggId…)
    played_at: dt.datetime | None
    ignored: bool
    scores: tuple[Score, ...]


@dataclasses.dataclass(frozen=True)
class Backup:
    players: dict[int, str]  # BG Stats player id -> name
    plays: tuple[Play, ...]


class NotABackup(ValueError):
    """The document is not a BG Stats backup at all (the message says why)."""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _score(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value if value is not None else "").strip()
    if re.fullmatch(r"[+-]?\d{1,9}", text):
        return int(text)
    if re.fullmatch(r"[+-]?\d{1,9}\.0*", text):  # "41.0" is a whole number written as a decimal
        return int(float(text))
    return text


def _date(value: Any) -> dt.datetime | None:
    for form in (DATE_FORMAT, "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(str(value), form)
        except ValueError:
            continue
    return None


def _list(data: dict[str, Any], key: str, *, required: bool = True) -> list[dict[str, Any]]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise NotABackup(gettext("A BG Stats backup has a list of %(part)s.") % {"part": key})
    return value


def backup_read(data: Any) -> Backup:
    """The players and plays of a BG Stats backup (``NotABackup`` when its shape is not one)."""
    if not isinstance(data, dict):
        raise NotABackup(gettext("This file is not a BG Stats backup."))
    players = {}
    for p in _list(data, "players"):
        pid = _int(p.get("id"))
        if pid is not None:
            players[pid] = str(p.get("name") or "").strip()
    games = {g_id: g for g in _list(data, "games") if (g_id := _int(g.get("id"))) is not None}
    plays = []
    for p in _list(data, "plays"):
        raw_scores = p.get("playerScores")
        scores = tuple(
            Score(
                player=_int(s.get("playerRefId")) or 0,
                score=_score(s.get("score")),
                seat=_int(s.get("seatOrder")),
                winner=s.get("winner") is True,
            )
            for s in (raw_scores if isinstance(raw_scores, list) else [])
            if isinstance(s, dict)
        )
        game_ref = _int(p.get("gameRefId"))
        plays.append(
            Play(
                uuid=str(p.get("uuid") or "")[:64],
                game=games.get(game_ref, {}) if game_ref is not None else {},
                played_at=_date(p.get("playDate")),
                ignored=p.get("ignored") is True,
                scores=scores,
            )
        )
    return Backup(players=players, plays=tuple(plays))


def seat_order(play: Play) -> list[Score]:
    """The scores in seat order: by ``seatOrder`` when every player has one, else as listed."""
    if play.scores and all(s.seat is not None for s in play.scores):
        return sorted(play.scores, key=lambda s: s.seat or 0)
    return list(play.scores)


def derived_uuid(kind: str, *parts: Any) -> str:
    return str(uuidlib.uuid5(NAMESPACE, ":".join([kind, *map(str, parts)])))
