"""Scorekeeper workflows: every write to groups, players, matches and rounds goes through here.

Functions are named ``<entity>_<action>`` and take keyword arguments only. They
raise the errors in :mod:`scoring.services.errors`; the API maps each to one
HTTP status (ValidationFailed 400, NotAllowed 403, Conflict/StaleVersion 409,
IdempotencyMismatch 422).
"""

from __future__ import annotations

from .errors import Conflict, IdempotencyMismatch, NotAllowed, ServiceError, StaleVersion, ValidationFailed
from .groups import (
    group_create,
    group_delete,
    group_rename,
    invite_accept,
    invite_create,
    invite_is_valid,
    invite_revoke,
    member_require,
    membership_add,
    membership_of,
    membership_remove,
    membership_role,
    owner_require,
)
from .matches import match_create, match_delete, match_finish, match_options_change, match_reopen
from .players import player_create, player_delete, player_link, player_merge, player_rename
from .rounds import (
    match_rescore,
    match_undo_last,
    round_delete,
    round_edit,
    round_record,
    round_undo,
)

__all__ = [
    "Conflict",
    "IdempotencyMismatch",
    "NotAllowed",
    "ServiceError",
    "StaleVersion",
    "ValidationFailed",
    "group_create",
    "group_delete",
    "group_rename",
    "invite_accept",
    "invite_create",
    "invite_is_valid",
    "invite_revoke",
    "match_create",
    "match_delete",
    "match_finish",
    "match_options_change",
    "match_reopen",
    "match_rescore",
    "match_undo_last",
    "member_require",
    "membership_add",
    "membership_of",
    "membership_remove",
    "membership_role",
    "owner_require",
    "player_create",
    "player_delete",
    "player_link",
    "player_merge",
    "player_rename",
    "round_delete",
    "round_edit",
    "round_record",
    "round_undo",
]
