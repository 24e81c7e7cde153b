"""Game nights: the evenings a group played (``grouping``: matches close together, at most a day's, split and
merged by hand), each night's figures computed once per version of the night and stored (``figures``,
``service``), told in a few sentences (``story``), worded for the page and its shareable PNG (``report``,
``image``), and served as pages (``views``), through the API (``api``) and in the group export (``transfer``).

May import the scoring app's lower layers, ``analytics.models``, ``analytics.ratings`` and ``analytics.records``.
"""
