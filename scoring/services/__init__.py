"""Scorekeeper workflows: every write to groups, players, matches and rounds goes through here.

Functions are named ``<entity>_<action>`` and take keyword arguments only. They
raise the errors in :mod:`scoring.services.errors`; the API maps each to one
HTTP status (ValidationFailed 400, NotAllowed 403, Conflict/StaleVersion 409,
IdempotencyMismatch 422).
"""

from __future__ import annotations

from scoring.services.access import member_require, membership_of, owner_require
from scoring.services.confirm import group_confirm_rounds, round_confirm, round_dispute
from scoring.services.errors import (
    Conflict,
    IdempotencyMismatch,
    NotAllowed,
    ServiceError,
    StaleVersion,
    ValidationFailed,
)
from scoring.services.groups import (
    group_create,
    group_delete,
    group_leave,
    group_rename,
    invitation_decline,
    invitation_sent_text,
    invite_accept,
    invite_create,
    invite_is_valid,
    invite_refusal,
    invite_revoke,
    member_invite,
    membership_add,
    membership_remove,
    membership_role,
)
from scoring.services.matches import (
    match_abandon,
    match_create,
    match_delete,
    match_finish,
    match_options_change,
    match_rematch,
    match_reopen,
)
from scoring.services.players import (
    UNSET,
    player_create,
    player_delete,
    player_link,
    player_merge,
    player_remove,
    player_rename,
    player_restore,
    player_update,
)
from scoring.services.presets import (
    preset_create,
    preset_current_version,
    preset_default,
    preset_delete,
    preset_get,
    preset_list,
    preset_set_default,
    preset_update,
    preset_versions_attach,
)
from scoring.services.round_changes import match_rescore, match_undo_last, round_delete, round_edit, round_undo
from scoring.services.rounds import round_record
from scoring.services.totals import match_record_totals
from scoring.services.whatif import Preview, RoundChange, match_options_preview, match_rescore_preview

__all__ = [
    "UNSET",
    "Conflict",
    "IdempotencyMismatch",
    "NotAllowed",
    "Preview",
    "RoundChange",
    "ServiceError",
    "StaleVersion",
    "ValidationFailed",
    "group_confirm_rounds",
    "group_create",
    "group_delete",
    "group_leave",
    "group_rename",
    "invitation_decline",
    "invitation_sent_text",
    "invite_accept",
    "invite_create",
    "invite_is_valid",
    "invite_refusal",
    "invite_revoke",
    "match_abandon",
    "match_create",
    "match_delete",
    "match_finish",
    "match_options_change",
    "match_options_preview",
    "match_record_totals",
    "match_rematch",
    "match_reopen",
    "match_rescore",
    "match_rescore_preview",
    "match_undo_last",
    "member_invite",
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
    "player_remove",
    "player_rename",
    "player_restore",
    "player_update",
    "preset_create",
    "preset_current_version",
    "preset_default",
    "preset_delete",
    "preset_get",
    "preset_list",
    "preset_set_default",
    "preset_update",
    "preset_versions_attach",
    "round_confirm",
    "round_delete",
    "round_dispute",
    "round_edit",
    "round_record",
    "round_undo",
]
