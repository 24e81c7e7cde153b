"""Server-rendered pages. No rules here: views call services, selectors and the rules registry."""
