"""The REST API (``/api/v1/``): thin views over the services and selectors."""
