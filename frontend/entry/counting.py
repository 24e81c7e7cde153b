"""Round-entry adapters of the counting games: Sticheln (every variant, Hattrick too), Abluxxen and Coloretto.

Sticheln and Coloretto have two entries, one tap apart (the ``entry`` chips at the top of the form):

- the quick entry asks what a player counts at the table with the paper pad — Sticheln: the colour(s) chosen,
  the other cards and the pain points (gentle: the pain cards), the chooser counted in; Hattrick: the cards of
  the colour held most, the other two colours together and the face-down cards; Coloretto: only the colours a
  player holds (a chip, then its count), jokers and "+2" cards;
- the full entry asks every count (Sticheln: the chooser card(s), the pain cards taken and their values, the
  other cards; Hattrick: each colour; Coloretto: every colour of every player).

Both are sent with the ``entry`` fact, so the rules engine reads the quick entry's facts as such, checks what
they allow and opens the explanation with the entry used. A stored round without that fact (the API, older
rounds) is shown in the full entry and saved again without it. No rules here: the totals the forms fill in come
from the game modules' tables (``sticheln_deck.deck_for``), every check and point from the rules engine.
"""

from __future__ import annotations

from typing import Any

from frontend.entry import labels
from frontend.entry.base import EntryContext, GameEntry, per_seat, register, seat_values, to_int

ENTRIES = ("quick", "full")


def made_by(post: Any) -> str | None:
    """The entry a submitted form was filled in with ("quick", "full"), None when the form did not say."""
    made = post.get("entry")
    return made if made in ENTRIES else None


def _blank(raw: Any) -> bool:
    return raw is None or str(raw).strip() == ""


@register
class Abluxxen(GameEntry):
    """Two counts per player, as on the paper pad; how the game ended follows from the hands left (the form
    fills it in: one empty hand, someone went out; none, the pile ran out)."""

    key = "abluxxen"

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        return {**seat_values("front", [0] * c.n), **seat_values("hand", [0] * c.n)}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        facts: dict[str, Any] = {"front": per_seat(post, "front", c.n), "hand": per_seat(post, "hand", c.n)}
        end = post.get("end")
        if end:
            facts["end"] = end
        return facts

    def context(self, c: EntryContext) -> dict[str, Any]:
        return {"ends": list(labels.ABLUXXEN_ENDS.items())}


@register
class Coloretto(GameEntry):
    key = "coloretto"
    EXTRA = ("jokers", "plus_twos")

    def _colours(self, c: EntryContext) -> tuple[str, ...]:
        return tuple(c.module.COLOURS)

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        # the colour counts start blank (read as 0 in the full entry, asked for once ticked in the quick one)
        return {"entry": "quick", **seat_values("jokers", [0] * c.n), **seat_values("plus_twos", [0] * c.n)}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        removed = post.get("removed_colour") or None
        made = made_by(post)
        facts: dict[str, Any] = {}
        held = [set(post.getlist(f"held.{seat}")) for seat in range(c.n)]
        for colour in self._colours(c):
            if colour == removed:
                continue
            if made == "quick":  # only the ticked colours count; a ticked colour's count is needed
                facts[colour] = [
                    to_int(post.get(f"{colour}.{seat}")) if colour in held[seat] else 0 for seat in range(c.n)
                ]
            else:
                facts[colour] = per_seat(post, colour, c.n)
        for name in self.EXTRA:
            facts[name] = per_seat(post, name, c.n)
        facts["removed_colour"] = removed
        if made:
            facts["entry"] = made
        return facts

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out = super().from_facts(facts, c)
        for seat in range(c.n):
            out[f"held.{seat}"] = [col for col in self._colours(c) if ((facts.get(col) or [0] * c.n)[seat] or 0) > 0]
        if facts.get("entry"):
            out["entry"] = facts["entry"]
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        return {"colours": self._colours(c), "three": c.n == 3}


@register
class Sticheln(GameEntry):
    """Sticheln: the quick entry (the tally) or the full entry (chooser cards, pain cards taken and their sum,
    other cards; Hattrick: the cards by colour and those face down)."""

    key = "sticheln"
    HATTRICK = ("red", "blue", "green")
    FULL = ("others", "pain_count", "pain_sum")
    TALLY = ("others", "pain_points", "pain_cards")
    HATTRICK_TALLY = ("most", "rest", "face_down")

    def _variant(self, c: EntryContext) -> str:
        return str(c.options.get("variant", "classic"))

    def _deck(self, c: EntryContext) -> Any:
        from scoring.rules import sticheln_deck

        return sticheln_deck.deck_for(c.n, self._variant(c))

    def _chooser_count(self, c: EntryContext) -> int:
        deck = self._deck(c)
        return deck.chooser_cards if deck else 0

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {"entry": "quick"}
        if self._variant(c) == "hattrick":
            for name in (*self.HATTRICK, "face_down"):
                out.update(seat_values(name, [0] * c.n))
            out.update({f"seats.{seat}.face_down": 0 for seat in range(c.n)})
            return out
        for name in self.FULL:
            out.update(seat_values(name, [0] * c.n))
        deck = self._deck(c)
        low = deck.low if deck else 0  # a chooser card is most often a low card of its colour
        for seat in range(c.n):
            if self._variant(c) == "heavy":
                out.update({f"chooser.{seat}.{i}": low for i in range(self._chooser_count(c))})
            elif self._chooser_count(c):
                out[f"chooser.{seat}"] = low
        return out

    # --- the quick entry ----------------------------------------------------------------------------------

    def _tally(self, post: Any, seat: int, c: EntryContext) -> dict[str, Any]:
        variant = self._variant(c)
        at = f"seats.{seat}"
        if variant == "hattrick":
            return {
                "most": to_int(post.get(f"{at}.most")),
                "rest": to_int(post.get(f"{at}.rest")),
                "face_down": to_int(post.get(f"{at}.face_down"), 0),
            }
        if variant == "heavy":
            pain: Any = [v for v in post.getlist(f"{at}.pain") if v]
        else:
            chosen = [v for v in post.getlist(f"pain.{seat}") if v]
            pain = chosen[0] if chosen else None
        # delayed: "no trick — no colour" means nothing was taken
        empty = variant == "delayed" and pain == "none"
        key = "pain_cards" if variant == "gentle" else "pain_points"
        return {
            "pain": None if empty else pain,
            "others": to_int(post.get(f"{at}.others"), 0 if empty else None),
            key: to_int(post.get(f"{at}.{key}"), 0 if empty else None),
        }

    # --- the full entry -------------------------------------------------------------------------------------

    def _full(self, post: Any, seat: int, c: EntryContext) -> dict[str, Any]:
        variant = self._variant(c)
        if variant == "hattrick":
            entry: dict[str, Any] = {colour: to_int(post.get(f"{colour}.{seat}"), 0) for colour in self.HATTRICK}
            entry["face_down"] = to_int(post.get(f"face_down.{seat}"), 0)
            return entry
        chosen = [v for v in post.getlist(f"pain.{seat}") if v]
        entry = {name: to_int(post.get(f"{name}.{seat}"), 0) for name in self.FULL}
        if variant == "heavy":
            # each chooser card with the colour entered for it: the two pain colours in the cards' order
            cards = []
            for i in range(self._chooser_count(c)):
                colour = post.get(f"chooser_colour.{seat}.{i}") or None
                value = to_int(post.get(f"chooser.{seat}.{i}"))
                if colour is not None or value is not None:
                    cards.append({"colour": colour, "value": value})
            entry["pain"] = [card["colour"] for card in cards if card["colour"]]
            entry["chooser"] = cards
        elif variant == "delayed":
            # "none": the player took no trick and so has no colour to pick (scores 0)
            entry["pain"] = chosen[0] if chosen and chosen[0] != "none" else None
        else:
            entry["pain"] = chosen[0] if chosen else None
            value = to_int(post.get(f"chooser.{seat}"))
            entry["chooser"] = (
                {"colour": entry["pain"], "value": value} if entry["pain"] and value is not None else None
            )
        return entry

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        made = made_by(post)
        read = self._tally if made == "quick" else self._full
        facts: dict[str, Any] = {"seats": [read(post, seat, c) for seat in range(c.n)]}
        if made:
            facts["entry"] = made
        return facts

    # --- a stored round back into the form ---------------------------------------------------------------------

    @staticmethod
    def _is_tally(entry: dict[str, Any]) -> bool:
        return any(entry.get(name) is not None for name in ("pain_points", "pain_cards", "most", "rest"))

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seats = facts.get("seats") or []
        if facts.get("entry"):
            out["entry"] = facts["entry"]
        elif seats and all(self._is_tally(entry) for entry in seats):  # tallies sent without saying so (API)
            out["entry"] = "quick"
        for seat, entry in enumerate(seats):
            if self._is_tally(entry):
                out.update(self._tally_values(seat, entry, c))
            else:
                out.update(self._full_values(seat, entry, c))
        return out

    def _tally_values(self, seat: int, entry: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out = {
            f"seats.{seat}.{name}": entry[name]
            for name in (*self.TALLY, *self.HATTRICK_TALLY)
            if entry.get(name) is not None
        }
        pain = entry.get("pain")
        pains = pain if isinstance(pain, list) else ([pain] if pain else [])
        if self._variant(c) == "heavy":
            out[f"seats.{seat}.pain"] = pains
        else:
            out[f"pain.{seat}"] = pains
            if self._variant(c) == "delayed" and not pains:
                out[f"pain.{seat}"] = ["none"]
        return out

    def _full_values(self, seat: int, entry: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in (*self.HATTRICK, "face_down", *self.FULL):
            if entry.get(name) is not None:
                out[f"{name}.{seat}"] = entry[name]
        pain = entry.get("pain")
        pains = pain if isinstance(pain, list) else ([pain] if pain else [])
        out[f"pain.{seat}"] = pains
        if self._variant(c) == "delayed" and not pains and self._took_nothing(entry):
            out[f"pain.{seat}"] = ["none"]
        if entry.get("pain_values") is not None:
            out[f"pain_count.{seat}"] = len(entry["pain_values"])
            out[f"pain_sum.{seat}"] = sum(entry["pain_values"])
        if entry.get("taken") is not None:  # entered card by card (API): show the counts
            taken = entry["taken"]
            mine = [card["value"] for card in taken if card.get("colour") in pains]
            out[f"pain_count.{seat}"], out[f"pain_sum.{seat}"] = len(mine), sum(mine)
            out[f"others.{seat}"] = len(taken) - len(mine)
        chooser = entry.get("chooser")
        if isinstance(chooser, list) and len(chooser) == 1 and self._variant(c) != "heavy":
            chooser = chooser[0]
        if isinstance(chooser, dict):
            out[f"chooser.{seat}"] = chooser.get("value")
        elif isinstance(chooser, list):
            for i, card in enumerate(chooser):
                out[f"chooser.{seat}.{i}"] = card.get("value")
                colour = card.get("colour") or (pains[i] if i < len(pains) else None)
                if colour:
                    out[f"chooser_colour.{seat}.{i}"] = colour
        return out

    @staticmethod
    def _took_nothing(entry: dict[str, Any]) -> bool:
        if entry.get("taken") is not None:
            return not entry["taken"]
        counted = (entry.get("others") or 0) + (entry.get("pain_count") or 0) + len(entry.get("pain_values") or ())
        return counted == 0

    def context(self, c: EntryContext) -> dict[str, Any]:
        deck = self._deck(c)
        variant = self._variant(c)
        n = c.n
        return {
            "dealer": c.ref("next_dealer"),
            "variant": variant,
            "deck_colours": deck.colours if deck else (),
            "low": deck.low if deck else 0,
            "high": deck.high if deck else 20,
            "chooser_slots": range(deck.chooser_cards) if deck else range(0),
            "hattrick": self.HATTRICK,
            "lucky": variant == "reverse",
            "gentle": variant == "gentle",
            # what the table's counts add up to, for the value the form fills in from the others
            "taken_total": deck.tricks * n if deck else None,  # full entry: the cards in all tricks
            "dealt_total": deck.dealt if deck else None,  # gentle tally: the pain cards hold the choosers
            "played_total": deck.size - n if deck else None,  # Hattrick: all cards but each last one
        }
