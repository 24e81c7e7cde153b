from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the import job's task, which scoring.transfer.importing queues by name (it must not import the tasks module)
        from scoring import tasks  # noqa: F401
