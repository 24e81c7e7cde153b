"""The trick referee's English message templates (marked for translation) and its rule anchors."""

from __future__ import annotations

from .types import N_, NP_

SECTIONS: dict[str, str] = {
    "njet-tricks": N_("NJET: playing a trick"),
    "njet-trick-winner": N_("NJET: who wins a trick (and equal cards)"),
    "mue-tricks": N_("MÜ: playing a trick"),
    "mue-trumps": N_("MÜ: chief trump, vice trump and double trump"),
    "meinz-tricks": N_("Meinz: two tricks each"),
    "meinz-play": N_("Meinz: following and the lowest card"),
    "meinz-claims": N_("Meinz: claiming a trick"),
    "meinz-monster": N_("Meinz: three players and the monster"),
    "was-sticht-tricks": N_("Was sticht?: playing a trick"),
    "was-sticht-trumps": N_("Was sticht?: trump colour, trump number and super trump"),
    "sticheln-tricks": N_("Sticheln: who takes a trick"),
    "sticheln-reverse": N_("Sticheln: the reverse variant"),
    "sticheln-hattrick": N_("Sticheln: the Hattrick variant"),
    "tricks-input": N_("Describing a trick"),
}

MESSAGES: dict[str, str] = {
    # --- why the winner won --------------------------------------------------------------------------
    "tricks.super_trump": N_(
        "{colour} {value} is a super trump: a super trump beats every trump and every other card."
    ),
    "tricks.trump": N_("{colour} {value} is the highest trump: a trump beats every card that is not a trump."),
    "tricks.led_colour": N_("No trump in the trick: {colour} {value} is the highest card of the led colour, {led}."),
    "tricks.equal_earlier": N_(
        "{count} cards of equal rank could take the trick; {colour} {value} was played first of them, and of equal "
        "cards the earlier played wins."
    ),
    "tricks.equal_last": N_(
        "{count} equal cards could take the trick; {colour} {value} was played last of them, and of equal cards the "
        "last played wins (English edition)."
    ),
    "tricks.njet_edition_english": N_(
        "Decided by the English edition's rules: of equal cards the last played wins, and a player only has to "
        "follow the printed colour of the led card."
    ),
    "tricks.njet_edition_hungarian": N_(
        "Decided by the Hungarian edition's rules: of equal cards the earlier played wins, and a led trump or super "
        "trump must be answered with a trump or a super trump."
    ),
    "tricks.mue_double_trump": N_(
        "{colour} {value} is a double trump (one trump gives its colour, the other its number): it beats every "
        "other trump."
    ),
    "tricks.mue_chief_trump": N_(
        "{colour} {value} is the highest chief trump: the chief's trump beats the vice's trump and every other card."
    ),
    "tricks.mue_vice_trump": N_("{colour} {value} is the highest vice trump, and no chief trump was played."),
    "tricks.ws_super_trump": N_(
        "{colour} {value} is the super trump (the trump number in the trump colour): it beats every other trump."
    ),
    "tricks.ws_trump_number": N_(
        "{colour} {value} carries the trump number, and a trump number beats every card of the trump colour."
    ),
    "tricks.ws_trump_colour": N_(
        "{colour} {value} is the highest card of the trump colour, and no trump number was played."
    ),
    "tricks.meinz_lowest": N_(
        "{colour} {value} is the lowest value in the trick: in Meinz the lowest card wins, whatever its colour."
    ),
    "tricks.meinz_claim": NP_(
        "Claimed by Meinz: the player of {colour} {value} claimed the trick when {after} card lay on the table, "
        "and a claimed trick goes to the claimer whatever is played.",
        "Claimed by Meinz: the player of {colour} {value} claimed the trick when {after} cards lay on the table, "
        "and a claimed trick goes to the claimer whatever is played.",
        "after",
    ),
    "tricks.meinz_capped": NP_(
        "{colour} {value} is the lowest card of a player with fewer than two tricks: {skipped} card that would "
        "beat it belongs to a player who already has two tricks and can take no more.",
        "{colour} {value} is the lowest card of a player with fewer than two tricks: {skipped} cards that would "
        "beat it belong to players who already have two tricks and can take no more.",
        "skipped",
    ),
    "tricks.sticheln_trump_high": N_(
        "{colour} {value} is the highest trump: every non-zero card of a colour other than the led {led} is a trump."
    ),
    "tricks.sticheln_trump_low": N_(
        "Reverse Sticheln: {colour} {value} is the lowest trump (every non-zero card of a colour other than the led "
        "{led} is a trump; 0s never win)."
    ),
    "tricks.sticheln_all_zero": N_("Every card in the trick is a 0: an all-zero trick goes to the leader."),
    # --- the part each card plays --------------------------------------------------------------------
    "tricks.role_super_trump": N_("{colour} {value}: super trump."),
    "tricks.role_trump": N_("{colour} {value}: trump."),
    "tricks.role_led": N_("{colour} {value}: a card of the led colour."),
    "tricks.role_off": N_("{colour} {value}: neither the led colour nor a trump, so it cannot win."),
    "tricks.role_double_trump": N_("{colour} {value}: double trump."),
    "tricks.role_chief_trump": N_("{colour} {value}: chief trump."),
    "tricks.role_vice_trump": N_("{colour} {value}: vice trump."),
    "tricks.role_trump_number": N_("{colour} {value}: trump number (a trump, not a {colour} card)."),
    "tricks.role_trump_colour": N_("{colour} {value}: trump colour."),
    "tricks.role_value": N_("{colour} {value}: counts by its value alone."),
    "tricks.role_capped": N_("{colour} {value}: this player already has two tricks and cannot take another."),
    "tricks.role_monster": N_("{colour} {value}: the monster's card, played blind from the top of its pile."),
    "tricks.role_zero": N_("{colour} 0: a 0 of another colour than the led one never wins."),
    # --- whether a card could be played --------------------------------------------------------------
    "tricks.legal_lead": N_("{colour} {value} leads the trick: any card may be led."),
    "tricks.legal_follow_colour": N_("{colour} {value} follows the led colour, {led}."),
    "tricks.legal_follow_trump": N_("{colour} {value} answers the led trump with a trump."),
    "tricks.legal_void_colour": N_("The hand holds no card of the led colour ({led}), so any card may be played."),
    "tricks.legal_void_trump": N_("The hand holds no trump to answer the led trump, so any card may be played."),
    "tricks.legal_value": N_("{colour} {value} has the led card's value, and the led value may always be played."),
    "tricks.legal_free": N_("Sticheln has no obligation to follow: any card may be played."),
    "tricks.legal_monster": N_("The monster plays the top card of its pile and obeys no rule."),
    "tricks.illegal_colour": NP_(
        "{colour} {value} does not follow the led colour, {led}, but the hand holds {held} card of it.",
        "{colour} {value} does not follow the led colour, {led}, but the hand holds {held} cards of it.",
        "held",
    ),
    "tricks.illegal_trump": NP_(
        "{colour} {value} is not a trump, but a trump was led and the hand holds {held} trump.",
        "{colour} {value} is not a trump, but a trump was led and the hand holds {held} trumps.",
        "held",
    ),
    "tricks.illegal_meinz": NP_(
        "{colour} {value} has neither the led colour ({led}) nor the led value ({led_value}), but the hand holds "
        "{held} card of the led colour.",
        "{colour} {value} has neither the led colour ({led}) nor the led value ({led_value}), but the hand holds "
        "{held} cards of the led colour.",
        "held",
    ),
    # --- input that cannot describe a real trick -----------------------------------------------------
    "tricks.unknown_game": N_("There is no trick referee for '{key}'; the trick games are {keys}."),
    "tricks.setup_object": N_("The trump set-up must be a JSON object."),
    "tricks.options_object": N_("The options must be a JSON object."),
    "tricks.plays_list": N_("The plays must be a list of the cards in the order they were played."),
    "tricks.play_object": N_("A play must be a JSON object with at least a card."),
    "tricks.card_object": N_("A card must be a JSON object with a colour and a value."),
    "tricks.hand_list": N_("A hand must be a list of cards."),
    "tricks.unknown_field": N_("'{name}' is not known here; expected one of: {allowed}."),
    "tricks.colour": N_("'{colour}' is not a colour of the {game} deck ({colours})."),
    "tricks.value": N_("A {game} card has a value from {low} to {high}."),
    "tricks.players": N_("{game} is played by {low} to {high} players, not {players}."),
    "tricks.card_count": N_("A {game} trick has {expected} cards, not {count}."),
    "tricks.card_count_either": N_("A {game} trick has {low} or {high} cards, not {count}."),
    "tricks.card_count_range": N_("A {game} trick has {low} to {high} cards, not {count}."),
    "tricks.hand_size": N_("A {game} hand holds at most {high} cards."),
    "tricks.duplicate": N_("The {game} deck has only {copies} × {colour} {value}, but the trick shows more."),
    "tricks.hand_duplicate": N_(
        "The {game} deck has only {copies} × {colour} {value}, but this hand and the other cards of the trick show "
        "{count}."
    ),
    "tricks.not_in_hand": N_("{colour} {value} is not in the hand given for this player."),
    "tricks.seat": N_("A seat is a whole number from 0 to {high}."),
    "tricks.seat_twice": N_("Seat {seat} plays more than one card in this trick."),
    "tricks.flag_bool": N_("'{name}' must be true or false."),
    "tricks.flag_int": N_("'{name}' must be a whole number."),
    "tricks.choice": N_("'{value}' is not one of the choices for {name}: {choices}."),
    "tricks.trump_number": N_("The trump number is a whole number from {low} to {high}, or null for none."),
    "tricks.mue_trump": N_(
        "A MÜ trump is null, or an object with a kind (colour, number or none) and, for a colour or a number, its "
        "value."
    ),
    "tricks.claim_fourth": N_("The fourth player may never claim a trick."),
    "tricks.claim_when": N_(
        "The player of card {position} may claim only when {position} to 3 cards lie on the table, not {after}."
    ),
    "tricks.claim_after_alone": N_("'claim_after' says when a claim was made, so it needs \"claim\": true."),
    "tricks.claim_twice": N_("Only one player can claim a trick: once claimed, it is decided."),
    "tricks.claim_capped": N_("A player who already has two tricks can neither win nor claim a trick."),
    "tricks.claim_monster": N_("The monster plays blind and never claims a trick."),
    "tricks.tricks_taken": N_("Tricks already taken is 0, 1 or 2: nobody takes more than two tricks."),
    "tricks.tricks_total": N_(
        "Only 8 tricks are played in a round, so at most 7 can be taken before this one, not {total}."
    ),
    "tricks.monster_count": N_(
        "A Meinz trick holds one monster card with three players and none with four; this one has {count}."
    ),
    "tricks.hattrick": N_(
        "Hattrick is played with double tricks of up to two colours; the referee judges ordinary Sticheln tricks."
    ),
    # --- the colours' names, for the params of kind "tricks.colour" (the same words as the rest of the UI) ----
    "tricks.colour.red": N_("red"),
    "tricks.colour.black": N_("black"),
    "tricks.colour.blue": N_("blue"),
    "tricks.colour.yellow": N_("yellow"),
    "tricks.colour.green": N_("green"),
    "tricks.colour.brown": N_("brown"),
    "tricks.colour.purple": N_("purple"),
}

# Params shown as a colour's name (any message): the card's colour and the led colour.  "colours" (the list of
# valid ids in an input error) stays as ids, which is what an API client must send.
KINDS: dict[str, str] = {"colour": "tricks.colour", "led": "tricks.colour"}
