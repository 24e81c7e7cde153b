from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # registers the tasks the services queue (services.registry); the worker also finds them by autodiscovery
        from . import tasks  # noqa: F401
