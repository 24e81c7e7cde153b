from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"
    verbose_name = "Frontend"
    default_auto_field = "django.db.models.BigAutoField"
