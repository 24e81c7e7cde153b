"""Django forms for the account pages (the game forms are built from the rulesets, see ``entry``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Optional; needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
