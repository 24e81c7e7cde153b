from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from analytics.urls import api_urlpatterns as analytics_api
from config import views
from frontend.views.accounts import admin_login

urlpatterns = [
    # Django tries these in order: the API first (a round entered from a phone is the most frequent request)
    path("api/v1/", include("scoring.api.urls")),
    # before the admin's own: its log-in page counts failures like the app's (scoring.signin.limits)
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("ping", views.ping, name="ping"),
    path("api/v1/", include((analytics_api, "analytics-api"))),
    path("stats/", include("analytics.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("", include("frontend.urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
