/* Draw the dashboard's Plotly figures (loading plotly.js on first need) and follow a running recomputation. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("stats-charts").textContent);
  var plotlyUrl = document.currentScript && document.currentScript.dataset.plotly;
  var waiting = [];
  function withPlotly(fn) {
    if (window.Plotly) { fn(); return; }
    waiting.push(fn);
    if (waiting.length > 1 || !plotlyUrl) { return; }
    var script = document.createElement("script");
    script.src = plotlyUrl;
    script.onload = function () {
      waiting.splice(0).forEach(function (f) { window.setTimeout(f, 0); });
    };
    document.head.appendChild(script);
  }
  function draw(chart) {
    var el = document.getElementById(chart.id);
    if (el) {
      withPlotly(function () { window.Plotly.newPlot(el, chart.figure.data, chart.figure.layout, data.config); });
    }
  }
  // Draw a figure when it comes near the screen, each in its own task: a phone does not block on a dozen
  // figures it has not scrolled to yet.
  if ("IntersectionObserver" in window) {
    var byId = {};
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) { return; }
        seen.unobserve(entry.target);
        window.setTimeout(function () { draw(byId[entry.target.id]); }, 0);
      });
    }, { rootMargin: "300px 0px" });
    data.charts.forEach(function (chart) {
      var el = document.getElementById(chart.id);
      if (el) { byId[chart.id] = chart; seen.observe(el); }
    });
  } else {
    data.charts.forEach(draw);
  }
  var status = document.getElementById("stats-status");
  if (!status || !status.dataset.pending) { return; }
  var bar = document.getElementById("stats-progress");
  function poll() {
    fetch(status.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) { return; }
        if (bar) { bar.value = s.progress; }
        if (!s.stale && !s.computing) { window.location.reload(); return; }
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 1500);
})();
