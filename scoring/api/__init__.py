"""The REST API under ``/api/v1/`` (Django REST framework, documented by drf-spectacular at ``/api/schema/``).

Owns the HTTP side only: ``views/`` (one module per resource), ``serializers*`` (request and response shapes),
``throttles`` (rates, the heavy scope), ``permissions`` and ``urls``. Every write goes through
``scoring.services``, every read through ``scoring.selectors``; no rules here.

May import ``scoring.rules``, ``scoring.models``, ``scoring.text``, ``scoring.selectors``, ``scoring.services``,
``scoring.signin`` and ``scoring.transfer``; imported by ``config.urls`` (and the analytics API for the throttles).
"""
