"""Django forms for the account pages (the game forms are built from the rulesets, see ``entry``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.signin import usernames


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Optional; needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str | None:
        """Django's checks (NFKC, allowed characters, taken in any case), then no invisible or text-direction
        characters and no look-alike of an existing username (``scoring.signin.usernames``)."""
        username = super().clean_username()
        if username:
            problems = usernames.problems(username)
            if problems:
                raise ValidationError(problems)
        return username
