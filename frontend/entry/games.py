"""Round-entry adapters, one per game (see :mod:`frontend.entry.forms`); the counting games (Sticheln, Abluxxen,
Coloretto), whose forms have a quick and a full entry, are in :mod:`frontend.entry.counting`. Was sticht? has the
two entries too: the quick one ticks the task cards returned (the table judged its tasks), the full one asks the
tasks revealed and the tricks so that the rules judge them.

Totals that let the form fill in "the last player's tricks" come from the game modules' own tables and
functions (``njet.tricks_in_round``, ``mue_tables.DECK_TRIANGLES``, …); the forms only subtract.
"""

from __future__ import annotations

from typing import Any

from frontend.entry import labels
from frontend.entry.base import EntryContext, GameEntry, per_seat, register, seat_values, seats_checked, to_int
from frontend.entry.counting import made_by


def _put(facts: dict[str, Any], name: str, value: Any) -> None:
    """Set a fact unless the form left it blank (so the rules engine says "This is required")."""
    if value is not None and value != "":
        facts[name] = value


def _blank_none(raw: Any) -> Any:
    return None if raw is None or str(raw).strip() == "" else to_int(raw)


@register
class Njet(GameEntry):
    key = "njet"

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        return {**seat_values("tricks", [0] * c.n), **seat_values("booty", [0] * c.n)}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        start = to_int(post.get("start_player"))
        partners = set(seats_checked(post, "partner"))
        facts: dict[str, Any] = {}
        _put(facts, "start_player", start)
        facts["teams"] = [0 if seat == start or seat in partners else 1 for seat in range(c.n)]
        facts["monster"] = _blank_none(post.get("monster")) if c.n in c.module.MONSTER_PLAYERS else None
        _put(facts, "discard", post.get("discard"))
        _put(facts, "points_per_trick", to_int(post.get("points_per_trick")))
        facts["tricks"] = per_seat(post, "tricks", c.n)
        facts["booty"] = per_seat(post, "booty", c.n)
        return facts

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out = super().from_facts(facts, c)
        start, teams = facts.get("start_player"), facts.get("teams") or []
        out["partner"] = [s for s, t in enumerate(teams) if start is not None and t == teams[start] and s != start]
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        njet = c.module
        return {
            "dealer": c.ref("next_dealer"),
            "max_tricks": njet.CARDS_PER_PLAYER[c.n],
            "tricks_totals": {d: njet.tricks_in_round(c.n, d) for d in njet.DISCARDS},
            "discards": [(d, labels.NJET_DISCARDS.get(d, d)) for d in njet.DISCARDS],
            "points": njet.POINTS_PER_TRICK,
            "has_teams": c.n > 2,
            "has_monster": c.n in njet.MONSTER_PLAYERS,
        }


def _trump_value(raw: Any) -> dict[str, Any] | None:
    text = str(raw or "")
    if text == "none":
        return {"kind": "none"}
    kind, _, value = text.partition(":")
    if kind == "colour":
        return {"kind": "colour", "value": value}
    if kind == "number":
        return {"kind": "number", "value": to_int(value)}
    return None


def _trump_text(trump: Any) -> str | None:
    if not isinstance(trump, dict):
        return None
    if trump.get("kind") == "none":
        return "none"
    return f"{trump.get('kind')}:{trump.get('value')}"


@register
class Mue(GameEntry):
    key = "mue"

    TYPICAL_BID = 4  # before the match has a bid of its own: a common chief's bid at every table size

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        """A played round with the bid this match's chiefs bid most often (the latest of equals), else a typical
        one: the bid is then one tap only when it differs (the preview shows it, dashed input or not)."""
        from scoring.rules import mue_tables

        bids = [r["facts"].get("bid") for r in c.board.get("rounds") or () if isinstance(r.get("facts"), dict)]
        bids = [b for b in bids if isinstance(b, int)]
        bid = max(reversed(bids), key=bids.count) if bids else self.TYPICAL_BID
        return {"outcome": "played", "bid": min(bid, mue_tables.HAND_SIZE.get(c.n, 15))}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        facts: dict[str, Any] = {"outcome": post.get("outcome") or "played"}
        if facts["outcome"] == "eklat":
            facts["tied"] = seats_checked(post, "tied")
            facts["last_tied"] = _blank_none(post.get("last_tied"))
            facts["cards"] = to_int(post.get("cards"), 0)
            return facts
        _put(facts, "chief", to_int(post.get("chief")))
        _put(facts, "bid", to_int(post.get("bid")))
        vice = _blank_none(post.get("vice"))
        facts["vice"] = vice
        facts["vice_trump"] = _trump_value(post.get("vice_trump")) if vice is not None else None
        _put(facts, "chief_trump", _trump_value(post.get("chief_trump")))
        _put(facts, "partner", to_int(post.get("partner")))
        facts["triangles"] = per_seat(post, "triangles", c.n)
        return facts

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out = super().from_facts(facts, c)
        out["vice_trump"] = _trump_text(facts.get("vice_trump"))
        out["chief_trump"] = _trump_text(facts.get("chief_trump"))
        out["tied"] = facts.get("tied") or []
        if facts.get("outcome") == "played" and facts.get("vice") is None:
            out["vice"] = ""
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        from scoring.rules import mue_tables

        return {
            "dealer": c.ref("next_dealer"),
            "colours": mue_tables.COLOURS,
            "numbers": [str(n) for n in mue_tables.NUMBERS],
            "max_bid": mue_tables.HAND_SIZE.get(c.n, 15),
            "triangles_total": mue_tables.DECK_TRIANGLES,
        }


@register
class Meinz(GameEntry):
    key = "meinz"

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        facts: dict[str, Any] = {"sums": per_seat(post, "sums", c.n, default=None)}
        if c.n == 3 and c.options.get("monster") != "fixed":
            facts["monster_sum"] = _blank_none(post.get("monster_sum"))
        return facts

    def context(self, c: EntryContext) -> dict[str, Any]:
        return {"dealer": c.ref("next_dealer"), "monster_sum": c.n == 3 and c.options.get("monster") != "fixed"}


@register
class WasSticht(GameEntry):
    key = "was-sticht"

    def _held(self, c: EntryContext) -> list[list[str]]:
        return (c.board.get("extra") or {}).get("held") or c.options.get("tasks") or [[] for _ in range(c.n)]

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        start = c.ref("next_starter")
        held = self._held(c)
        proposed = c.module.start_return_proposed(held[start]) if start is not None and start < len(held) else None
        out = {"entry": "quick", "start_player": start, "start_return": proposed, **seat_values("tricks", [0] * c.n)}
        # the quick entry first, nobody's card ticked yet ("no card" chosen for every player)
        return out | seat_values("returned", [""] * c.n)

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        start = to_int(post.get("start_player"))
        made = made_by(post)
        facts: dict[str, Any] = {"entry": made} if made else {}
        _put(facts, "start_player", start)
        if made == "quick":  # the task card each player returned, as the table judged the tasks
            facts["returned"] = [post.get(f"returned.{seat}") or None for seat in range(c.n)]
            return facts
        facts["trump_colour"] = post.get("trump_colour") or None
        facts["trump_number"] = _blank_none(post.get("trump_number"))
        facts["chosen"] = [None if seat == start else (post.get(f"chosen.{seat}") or None) for seat in range(c.n)]
        facts["tricks"] = per_seat(post, "tricks", c.n)
        _put(facts, "last_trick", to_int(post.get("last_trick")))
        # a seat with nothing ticked was not entered (it holds at least one colour when it took a trick): None, so
        # that the rules ask only for the colours that decide a revealed task, as the preview does
        colours = [post.getlist(f"colours.{seat}") or None for seat in range(c.n)]
        if any(colours):
            facts["colours"] = colours
        choice = post.get("start_return") or None
        if choice is not None and self._return_earned(facts, c):
            facts["start_return"] = choice
        return facts

    @staticmethod
    def _return_earned(facts: dict[str, Any], c: EntryContext) -> bool:
        """The form always offers the choice; it is sent only when the rules say he earned a return this round."""
        from scoring.rules import InvalidRound

        try:
            parsed = c.module.facts_parse(facts, players=c.n, options=c.options)
            return bool(c.module.start_return_earned(parsed))
        except (InvalidRound, LookupError):  # an incomplete round: the rules engine names what is missing
            return False

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out = super().from_facts(facts, c)
        out["trump_colour"] = facts.get("trump_colour") or ""
        out["trump_number"] = "" if facts.get("trump_number") is None else facts["trump_number"]
        if facts.get("entry") == "quick":
            out.update(seat_values("returned", [task or "" for task in facts.get("returned") or ()]))
        for seat, colours in enumerate(facts.get("colours") or []):
            out[f"colours.{seat}"] = colours or []
        return out

    def values_context(self, c: EntryContext, values: Any) -> dict[str, Any]:
        """The seats whose colours the form asks for: those that decide a revealed "no colour" task (the rules
        say which; the preview says so again as the form changes, see ``colour_seats_of``)."""
        start = to_int(values.get("start_player"))
        chosen = [None if seat == start else (values.get(f"chosen.{seat}") or None) for seat in range(c.n)]
        return {"colour_seats": self.colour_seats_of(c, chosen, start)}

    @staticmethod
    def colour_seats_of(c: EntryContext, chosen: list[Any], start: Any) -> list[int]:
        return list(c.module.colour_seats(chosen, start if isinstance(start, int) else None))

    def context(self, c: EntryContext) -> dict[str, Any]:
        from scoring.rules import tricks

        held = self._held(c)
        return {
            "held": [[(t, labels.WAS_STICHT_TASKS.get(t, t)) for t in tasks] for tasks in held],
            "held_by_seat": {
                str(seat): [(t, labels.WAS_STICHT_TASKS.get(t, t)) for t in tasks] for seat, tasks in enumerate(held)
            },
            "held_ids": [list(tasks) for tasks in held],
            "held_ids_by_seat": {str(seat): list(tasks) for seat, tasks in enumerate(held)},
            "name_by_seat": {str(seat): name for seat, name in enumerate(c.names)},
            "task_labels": labels.WAS_STICHT_TASKS,
            "colours": tricks.WAS_STICHT_COLOURS,
            "numbers": range(1, 10),
            "tricks_total": 9,
        }


@register
class Muzicando(GameEntry):
    key = "muzicando"

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        team = c.options.get("mode", "team") == "team"
        return {"breach": ""} if team else {"breach": "", "declarer": c.ref("next_starter")}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        order = [to_int(post.get(f"order.{place}")) for place in range(c.n)]
        facts: dict[str, Any] = {"order": [seat for seat in order if seat is not None]}
        facts["holding"] = seats_checked(post, "holding")
        kind = post.get("contract_type")
        if kind == "":
            facts["contract"] = None
        elif kind:
            contract: dict[str, Any] = {"type": kind}
            for name in ("declarer", "level"):
                value = _blank_none(post.get(name))
                if value is not None:
                    contract[name] = value
            facts["contract"] = contract
        facts["breach"] = _blank_none(post.get("breach"))
        return facts

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = seat_values("order", facts.get("order") or [])
        out["holding"] = facts.get("holding") or []
        contract = facts.get("contract")
        out["contract_type"] = contract["type"] if contract else ""
        if contract:
            out["declarer"] = contract.get("declarer")
            out["level"] = contract.get("level")
        out["breach"] = "" if facts.get("breach") is None else facts["breach"]
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        team = c.options.get("mode", "team") == "team"
        return {
            "dealer": c.ref("next_dealer"),
            "team": team,
            "levels": team or bool(c.options.get("bidding")),
            "types": list(labels.MUZICANDO_TYPES.items()),
            "places": range(c.n),
        }
