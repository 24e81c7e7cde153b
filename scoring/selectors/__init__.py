"""Read-side queries: every read that more than one caller needs, one function per question, named
``<entity>_<question>``. Visibility lives here: an outsider asking for a group's data gets ``Http404`` (never 403),
so nobody can learn that a group exists. Every list selector uses a fixed number of queries however many rows it
returns.

May import ``scoring.rules``, ``scoring.models`` and ``scoring.text``; never the services, the API, the transfers,
the pages or the statistics (``tests/config/test_layers.py``).

- ``common``: the rulesets and an explanation line in the reader's language;
- ``groups``: groups, members, invitations, players;
- ``matches``: matches, rounds, who saved them, the scoreboard;
- ``outlook``: what each player needs to catch up, and the stakes before play;
- ``confirming``: where each round stands when the other side confirms rounds.
"""

from __future__ import annotations

from scoring.selectors.common import (
    line_render,
    ruleset_get,
    ruleset_list,
)
from scoring.selectors.groups import (
    group_get,
    group_list,
    group_list_sorted,
    invitation_get,
    invitation_list_for,
    invite_by_token,
    invite_get,
    invite_list,
    membership_get,
    membership_list,
    player_get,
    player_list,
    player_list_sorted,
)
from scoring.selectors.matches import (
    entered_by_names,
    event_list,
    match_get,
    match_list,
    match_scoreboard,
    round_changed_by,
    round_gaps,
    round_get,
    round_list,
    round_next_number,
    round_savers,
)

__all__ = [
    "entered_by_names",
    "event_list",
    "group_get",
    "group_list",
    "group_list_sorted",
    "invitation_get",
    "invitation_list_for",
    "invite_by_token",
    "invite_get",
    "invite_list",
    "line_render",
    "match_get",
    "match_list",
    "match_scoreboard",
    "membership_get",
    "membership_list",
    "player_get",
    "player_list",
    "player_list_sorted",
    "round_changed_by",
    "round_gaps",
    "round_get",
    "round_list",
    "round_next_number",
    "round_savers",
    "ruleset_get",
    "ruleset_list",
]
