"""Drawing the dashboards: Plotly figure specs (``charts``), the static SVG the server draws from them
(``svg``) and the payloads the pages and the API read (``payloads``). Pure over the computed rows: no queries.
"""
