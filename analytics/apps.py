from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # registers the tasks the services queue (services.registry); the worker also finds them by autodiscovery
        from analytics import tasks  # noqa: F401
        from analytics.nights.transfer import SECTION
        from scoring.transfer.sections import section_register

        # the night corrections travel in group exports (scoring cannot import this app: it calls what registers)
        section_register(SECTION)
