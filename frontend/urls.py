from django.contrib.auth import views as auth_views
from django.urls import include, path

from frontend.views import (
    accounts,
    bgstats,
    checks,
    group_life,
    groups,
    live,
    matches,
    outlook,
    pages,
    presets,
    referee,
    rounds,
    rules,
    totals,
    whatif,
)

_auth = "frontend/auth/"

urlpatterns = [
    path("", pages.home, name="home"),
    # accounts (our own templates: the admin app ships registration/ templates of its own)
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(
            template_name=_auth + "password_reset_form.html",
            email_template_name=_auth + "password_reset_email.txt",
            subject_template_name=_auth + "password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name=_auth + "password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(template_name=_auth + "password_reset_confirm.html"),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name=_auth + "password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(template_name=_auth + "password_change_form.html"),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name=_auth + "password_change_done.html"),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", pages.healthz, name="healthz"),
    # groups and invites
    path("groups/new", groups.group_new, name="group_new"),
    path("groups/<int:group_id>/", groups.group_home, name="group"),
    path("groups/<int:group_id>/players", groups.player_add, name="player_add"),
    path("groups/<int:group_id>/invites", groups.invite_new, name="invite_new"),
    path("groups/<int:group_id>/invites/<int:invite_id>/", groups.invite_show, name="invite"),
    path("groups/<int:group_id>/invites/<int:invite_id>/revoke", groups.invite_revoke, name="invite_revoke"),
    path("join/<str:token>/", groups.invite_accept, name="invite_accept"),
    path("groups/<int:group_id>/members/invite", groups.member_invite, name="member_invite"),
    path(
        "invitations/<int:invite_id>/accept", groups.invitation_answer, {"answer": "accept"}, name="invitation_accept"
    ),
    path(
        "invitations/<int:invite_id>/decline",
        groups.invitation_answer,
        {"answer": "decline"},
        name="invitation_decline",
    ),
    # group life: players, settings, leaving, export and import
    path("groups/<int:group_id>/players/<int:player_id>/", group_life.player_edit, name="player_edit"),
    path("groups/<int:group_id>/players/<int:player_id>/remove", group_life.player_remove, name="player_remove"),
    path("groups/<int:group_id>/players/<int:player_id>/restore", group_life.player_restore, name="player_restore"),
    path("groups/<int:group_id>/rename", group_life.group_rename, name="group_rename"),
    path("groups/<int:group_id>/members/<int:membership_id>/owner", group_life.member_promote, name="member_promote"),
    path("groups/<int:group_id>/leave", group_life.group_leave, name="group_leave"),
    path("groups/<int:group_id>/export.csv", group_life.group_export_csv, name="group_export_csv"),
    path("groups/<int:group_id>/export.json", group_life.group_export_json, name="group_export_json"),
    path("groups/<int:group_id>/import", group_life.group_import, name="group_import"),
    path("groups/<int:group_id>/export-bgstats.json", bgstats.group_export_bgstats, name="group_export_bgstats"),
    path("groups/<int:group_id>/import/bgstats", bgstats.group_import_bgstats, name="group_import_bgstats"),
    path(
        "groups/<int:group_id>/import/bgstats/<str:token>",
        bgstats.group_import_bgstats_review,
        name="group_import_bgstats_review",
    ),
    path("groups/<int:group_id>/import/<str:job_id>", group_life.group_import_job, name="group_import_job"),
    # house rules (option presets per game)
    path("groups/<int:group_id>/house-rules/new", presets.preset_new, name="preset_new"),
    path("groups/<int:group_id>/house-rules/<int:preset_id>/", presets.preset_edit, name="preset_edit"),
    path("groups/<int:group_id>/house-rules/<int:preset_id>/default", presets.preset_default, name="preset_default"),
    path("groups/<int:group_id>/house-rules/<int:preset_id>/remove", presets.preset_remove, name="preset_remove"),
    # matches and rounds
    path("groups/<int:group_id>/matches/new", matches.match_new, name="match_new"),
    path("groups/<int:group_id>/matches/seating", matches.match_seating, name="match_seating"),
    path("groups/<int:group_id>/matches/totals", totals.match_totals_new, name="match_totals_new"),
    path("matches/<int:match_id>/rematch", matches.match_rematch, name="match_rematch"),
    path("matches/<int:match_id>/", matches.match_page, name="match"),
    path("matches/<int:match_id>/board", matches.board, name="match_board"),
    path("matches/<int:match_id>/events", live.match_events, name="match_events"),
    path("matches/<int:match_id>/history", matches.match_history, name="match_history"),
    path("matches/<int:match_id>/undo", matches.match_undo, name="match_undo"),
    path("matches/<int:match_id>/finish", matches.match_finish, name="match_finish"),
    path("matches/<int:match_id>/reopen", matches.match_reopen, name="match_reopen"),
    path("matches/<int:match_id>/abandon", matches.match_abandon, name="match_abandon"),
    path("matches/<int:match_id>/options", whatif.match_options, name="match_options"),
    path("matches/<int:match_id>/rescore", whatif.match_rescore, name="match_rescore"),
    path("matches/<int:match_id>/entry", rounds.entry_form, name="entry_form"),
    path("matches/<int:match_id>/rounds", rounds.round_new, name="round_new"),
    path("matches/<int:match_id>/rounds/conflict", rounds.round_conflict, name="round_conflict"),
    path("matches/<int:match_id>/preview", rounds.preview, name="round_preview"),
    path("matches/<int:match_id>/stakes", outlook.round_stakes, name="round_stakes"),
    path("matches/<int:match_id>/rounds/<int:number>/edit", rounds.round_edit, name="round_edit"),
    path("matches/<int:match_id>/rounds/<int:number>/delete", rounds.round_delete, name="round_delete"),
    path("matches/<int:match_id>/rounds/<int:number>/undo", rounds.round_undo, name="round_undo"),
    # rounds the other side confirms (issue 47)
    path("matches/<int:match_id>/rounds/<int:number>/confirm", checks.round_confirm, name="round_confirm"),
    path("matches/<int:match_id>/rounds/<int:number>/dispute", checks.round_dispute, name="round_dispute"),
    path("groups/<int:group_id>/confirm-rounds", checks.group_confirm_rounds, name="group_confirm_rounds"),
    # rules reference and trick referee
    path("rules/", rules.rules_index, name="rules"),
    path("rules/<slug:key>/", rules.rules_page, name="rules_game"),
    path("referee/", referee.referee_index, name="referee"),
    path("referee/<slug:key>/", referee.referee_page, name="referee_game"),
    # PWA
    path("offline/", pages.offline, name="offline"),
    path("manifest.webmanifest", pages.manifest, name="manifest"),
    path("sw.js", pages.service_worker, name="sw"),
]
