"""Log-in and password reset with the sign-in throttles (``scoring.signin.limits``): over a limit the page answers
429 with the form kept and "Too many attempts. Try again in N minutes." above it, and nothing is checked."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth import views as auth_views
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from scoring.signin import limits as auth_limits

TOO_MANY_REQUESTS = 429


def refuse(form: forms.BaseForm, seconds: int) -> forms.BaseForm:
    """``form`` (bound, as typed) refused without validating it: validating would check the password."""
    form.cleaned_data = {}
    form._errors = ErrorDict()
    form.add_error(None, auth_limits.message(seconds))
    return form


class LoginView(auth_views.LoginView):
    """Failed log-ins count per account and per client address; a successful one clears the account's count."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # counted as a failure before the password is checked (parallel guesses cannot all pass), given back below
        wait = auth_limits.login_attempt(request, request.POST.get("username", ""))
        if wait:
            form = refuse(self.get_form(), wait)
            return self.render_to_response(self.get_context_data(form=form), status=TOO_MANY_REQUESTS)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        auth_limits.login_succeeded(self.request, self.request.POST.get("username", ""))
        return super().form_valid(form)


@never_cache
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin site's log-in page (staff passwords are worth guessing too) with the same counters as the app's:
    what ``AdminSite.login`` does, through the throttled ``LoginView``."""
    from django.contrib import admin
    from django.contrib.admin.forms import AdminAuthenticationForm

    site = admin.site
    if request.method == "GET" and site.has_permission(request):
        return HttpResponseRedirect(reverse("admin:index", current_app=site.name))
    context: dict[str, Any] = {
        **site.each_context(request),
        "title": gettext("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=site.name)
    request.current_app = site.name
    view = LoginView.as_view(
        extra_context=context,
        authentication_form=site.login_form or AdminAuthenticationForm,
        template_name=site.login_template or "admin/login.html",
    )
    return view(request)


class PasswordResetView(auth_views.PasswordResetView):
    """Reset e-mails are limited per client address and per e-mail address."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = auth_limits.reset_attempt(request, request.POST.get("email", ""))
        if wait:
            form = refuse(self.get_form(), wait)
            return self.render_to_response(self.get_context_data(form=form), status=TOO_MANY_REQUESTS)
        return super().post(request, *args, **kwargs)
