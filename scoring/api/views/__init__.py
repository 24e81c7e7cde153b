"""The API's views, one module per resource (groups, players, matches, rounds, …); ``base`` holds what they
share (errors as JSON, ETags, If-Match). See ``scoring.api`` for what they may import."""
