import os

from django.core.wsgi import get_wsgi_application

from config.static_manifest import refuse_to_start

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
refuse_to_start()  # DEBUG=0 without collectstatic's manifest: every page would be a 500
