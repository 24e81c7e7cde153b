import os

from django.core.wsgi import get_wsgi_application

from config.static_manifest import refuse_to_start
from config.warmup import warm_up

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
refuse_to_start()  # DEBUG=0 without collectstatic's manifest: every page would be a 500
warm_up()  # the URLconf and catalogs now, not on each worker's first request
