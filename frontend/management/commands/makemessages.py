"""``makemessages`` that also collects the rules engine's message templates.

The pure rules package cannot import Django, so it marks its English templates with ``N_(...)``
(``scoring.rules.types.N_``); this adds ``N_`` to xgettext's keywords. Usage::

    python manage.py makemessages -l hu --ignore=.venv --ignore=staticfiles --ignore=tests
"""

from django.core.management.commands.makemessages import Command as MakeMessagesCommand


class Command(MakeMessagesCommand):
    xgettext_options = [*MakeMessagesCommand.xgettext_options, "--keyword=N_"]
