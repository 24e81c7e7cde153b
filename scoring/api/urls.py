"""The versioned REST API, mounted at ``/api/v1/``."""

from __future__ import annotations

from django.urls import path

from scoring.api.views import (
    accounts,
    bgstats,
    checks,
    exports,
    groups,
    matches,
    players,
    presets,
    rounds,
    rulesets,
    stakes,
    totals,
    whatif,
)

app_name = "api"

urlpatterns = [
    # Django tries these in order: the match endpoints first, the round writes and the scoreboard (what every
    # phone at a table sends after each round) before them; no two patterns here match the same path.
    path("matches/<int:match_id>/scoreboard", matches.ScoreboardView.as_view(), name="scoreboard"),
    path("matches/<int:match_id>/rounds", rounds.RoundListView.as_view(), name="rounds"),
    path("matches/<int:match_id>", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/finish", matches.MatchFinishView.as_view(), name="match-finish"),
    path("matches/<int:match_id>/reopen", matches.MatchReopenView.as_view(), name="match-reopen"),
    path("matches/<int:match_id>/rescore", matches.MatchRescoreView.as_view(), name="match-rescore"),
    path(
        "matches/<int:match_id>/rescore/preview", whatif.MatchRescorePreviewView.as_view(), name="match-rescore-preview"
    ),
    path(
        "matches/<int:match_id>/options/preview", whatif.MatchOptionsPreviewView.as_view(), name="match-options-preview"
    ),
    path("matches/<int:match_id>/undo", matches.MatchUndoView.as_view(), name="match-undo"),
    path("matches/<int:match_id>/stakes", stakes.MatchStakesView.as_view(), name="match-stakes"),
    path("matches/<int:match_id>/rematch", matches.MatchRematchView.as_view(), name="match-rematch"),
    path("matches/<int:match_id>/events", matches.EventListView.as_view(), name="events"),
    path("matches/<int:match_id>/rounds/<int:number>", rounds.RoundDetailView.as_view(), name="round"),
    path("matches/<int:match_id>/rounds/<int:number>/undo", rounds.RoundUndoView.as_view(), name="round-undo"),
    # rounds the other side confirms (issue 47)
    path("matches/<int:match_id>/checks", checks.MatchChecksView.as_view(), name="match-checks"),
    path("matches/<int:match_id>/rounds/<int:number>/confirm", checks.RoundConfirmView.as_view(), name="round-confirm"),
    path("matches/<int:match_id>/rounds/<int:number>/dispute", checks.RoundDisputeView.as_view(), name="round-dispute"),
    path("groups/<int:group_id>/settings", checks.GroupSettingsView.as_view(), name="group-settings"),
    path("auth/token", accounts.TokenView.as_view(), name="token"),
    path("auth/signup", accounts.SignupView.as_view(), name="signup"),
    path("me", accounts.MeView.as_view(), name="me"),
    path("rulesets", rulesets.RulesetListView.as_view(), name="rulesets"),
    path("rulesets/<str:key>", rulesets.RulesetDetailView.as_view(), name="ruleset"),
    path("rulesets/<str:key>/score", rulesets.RulesetScoreView.as_view(), name="ruleset-score"),
    path("rulesets/<str:key>/trick", rulesets.RulesetTrickView.as_view(), name="ruleset-trick"),
    path("groups", groups.GroupListView.as_view(), name="groups"),
    path("groups/import", exports.GroupImportNewView.as_view(), name="group-import-new"),
    path("imports/<str:job_id>", exports.ImportJobView.as_view(), name="import-job"),
    path("groups/<int:group_id>", groups.GroupDetailView.as_view(), name="group"),
    path("groups/<int:group_id>/members", groups.MembershipListView.as_view(), name="members"),
    path("groups/<int:group_id>/members/<int:membership_id>", groups.MembershipDetailView.as_view(), name="member"),
    path("groups/<int:group_id>/invites", groups.InviteListView.as_view(), name="invites"),
    path("groups/<int:group_id>/invites/<int:invite_id>", groups.InviteDetailView.as_view(), name="invite"),
    path("invitations", groups.InvitationListView.as_view(), name="invitations"),
    path("invitations/<int:invite_id>/accept", groups.InvitationAcceptView.as_view(), name="invitation-accept"),
    path("invitations/<int:invite_id>/decline", groups.InvitationDeclineView.as_view(), name="invitation-decline"),
    path("invites/<slug:token>", groups.InviteByTokenView.as_view(), name="invite-token"),
    path("invites/<slug:token>/accept", groups.InviteAcceptView.as_view(), name="invite-accept"),
    path("groups/<int:group_id>/players", players.PlayerListView.as_view(), name="players"),
    path("groups/<int:group_id>/players/<int:player_id>", players.PlayerDetailView.as_view(), name="player"),
    path("groups/<int:group_id>/players/<int:player_id>/merge", players.PlayerMergeView.as_view(), name="player-merge"),
    path("groups/<int:group_id>/matches", matches.MatchListView.as_view(), name="matches"),
    path("groups/<int:group_id>/matches/totals", totals.TotalsMatchCreateView.as_view(), name="matches-totals"),
    path("groups/<int:group_id>/presets", presets.PresetListView.as_view(), name="presets"),
    path("groups/<int:group_id>/presets/<int:preset_id>", presets.PresetDetailView.as_view(), name="preset"),
    path("groups/<int:group_id>/export", exports.GroupExportView.as_view(), name="group-export"),
    path("groups/<int:group_id>/export/bgstats", bgstats.BgStatsExportView.as_view(), name="group-export-bgstats"),
    path("groups/<int:group_id>/import/bgstats", bgstats.BgStatsImportView.as_view(), name="group-import-bgstats"),
    path("groups/<int:group_id>/export/<str:table>.csv", exports.GroupExportCsvView.as_view(), name="group-export-csv"),
    path("groups/<int:group_id>/import", exports.GroupImportView.as_view(), name="group-import"),
]
