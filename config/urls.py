from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from analytics.urls import api_urlpatterns as analytics_api

from . import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("ping", views.ping, name="ping"),
    path("api/v1/", include("scoring.urls")),
    path("api/v1/", include((analytics_api, "analytics-api"))),
    path("stats/", include("analytics.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("", include("frontend.urls")),
]

handler500 = "config.views.server_error"
