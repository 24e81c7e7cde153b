"""Moving a group's history in and out: the group export (JSON, streamed) and import (checked whole before
anything is written, never doubling what a group holds), the CSV and spreadsheet exports, and BG Stats backups in
and out.

- export: ``exporting`` (the document), ``export_common``, ``export_tables`` (CSV), ``spreadsheet``;
- import: ``importing`` (entry point), ``import_check`` and ``import_fields`` (checks), ``import_plan`` and
  ``import_parts`` (what to write), ``import_write``;
- BG Stats: ``bgstats`` (its format), ``bgstats_import``, ``bgstats_export``;
- ``sections``: parts of the document other apps own (the analytics' night corrections register there).

May import ``scoring.rules``, ``scoring.models``, ``scoring.text``, ``scoring.selectors`` and
``scoring.services``; imported by the API, the pages and ``scoring.tasks`` (large imports run as a job).
"""
