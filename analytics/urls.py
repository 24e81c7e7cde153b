"""Dashboards (mounted at /stats/) and the statistics API (mounted at /api/v1/)."""

from django.urls import path, re_path

from analytics import apis, views
from analytics.nights import api as nightapis
from analytics.nights import views as nightviews
from analytics.ratings import api as trust_api
from analytics.records import views as records_views

app_name = "analytics"

urlpatterns = [
    path("groups/<int:group_id>/", views.group_dashboard, name="group"),
    path("groups/<int:group_id>/games/<slug:ruleset>/", views.game_dashboard, name="game"),
    path("players/<int:player_id>/", views.player_dashboard, name="player"),
    path("groups/<int:group_id>/nights/", nightviews.night_index, name="nights"),
    path("groups/<int:group_id>/records/", records_views.records_page, name="records"),
    path("nights/<int:match_id>/", nightviews.night_page, name="night"),
    path("nights/<int:match_id>/night.png", nightviews.night_image, name="night-image"),
    path("nights/<int:match_id>/<slug:action>/", nightviews.night_correct, name="night-correct"),
    path("snapshots/<int:snapshot_id>/status/", views.snapshot_status, name="status"),
]

api_urlpatterns = [
    re_path(r"^groups/(?P<group_id>\d+)/stats/?$", apis.GroupStatsApi.as_view(), name="group-stats"),
    re_path(r"^players/(?P<player_id>\d+)/stats/?$", apis.PlayerStatsApi.as_view(), name="player-stats"),
    re_path(r"^groups/(?P<group_id>\d+)/records/?$", records_views.GroupRecordsApi.as_view(), name="group-records"),
    re_path(r"^groups/(?P<group_id>\d+)/ratings/?$", trust_api.GroupRatingsApi.as_view(), name="group-ratings"),
    re_path(r"^groups/(?P<group_id>\d+)/nights/?$", nightapis.NightListApi.as_view(), name="group-nights"),
    re_path(r"^nights/(?P<night_id>\d+)/?$", nightapis.NightDetailApi.as_view(), name="night"),
]
