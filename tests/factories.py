"""Dull factories for the scoring models. Matches and rounds are made through the services."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.models import Group, Invite, Membership, Player

PASSWORD = "correct-horse-battery-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(self, create, extracted, **kwargs):  # type: ignore[no-untyped-def]
        if create:
            self.save()


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Group

    name = factory.Sequence(lambda n: f"Table {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    group = factory.SubFactory(GroupFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.MEMBER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    group = factory.SubFactory(GroupFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class InviteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invite

    group = factory.SubFactory(GroupFactory)
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))
