/* Turn the dashboard's static figures (SVG drawn by the server) into interactive Plotly figures when the reader
   asks for one (loading plotly.js then, once), and follow a running recomputation. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("stats-charts").textContent);
  var plotlyUrl = document.currentScript && document.currentScript.dataset.plotly;
  var waiting = [];  // [drawn, failed] callbacks until plotly.js has loaded (or failed to: offline, say)
  function withPlotly(fn, failed) {
    if (window.Plotly) { fn(); return; }
    waiting.push([fn, failed]);
    if (waiting.length > 1 || !plotlyUrl) { return; }
    var script = document.createElement("script");
    script.src = plotlyUrl;
    script.onload = function () {
      waiting.splice(0).forEach(function (w) { window.setTimeout(w[0], 0); });
    };
    script.onerror = function () {
      script.remove();
      waiting.splice(0).forEach(function (w) { w[1](); });
    };
    document.head.appendChild(script);
  }
  var byId = {};
  data.charts.forEach(function (chart) { byId[chart.id] = chart; });
  function button(id) { return document.querySelector('.stats-explore[data-chart="' + id + '"]'); }
  function draw(id) {
    var chart = byId[id], el = document.getElementById(id), b = button(id);
    if (!chart || !el || chart.drawn) { return; }
    chart.drawn = true;
    if (b) { b.disabled = true; b.setAttribute("aria-busy", "true"); }
    withPlotly(function () {
      el.textContent = "";
      window.Plotly.newPlot(el, chart.figure.data, chart.figure.layout, data.config);
      if (b) { b.hidden = true; }
    }, function () {  // the static figure stays; the button can be tried again
      chart.drawn = false;
      if (b) { b.disabled = false; b.removeAttribute("aria-busy"); }
    });
  }
  // Once the reader has asked for one interactive figure, plotly.js is here: the others follow as they come
  // near the screen, each in its own task.
  var seen = null;
  function upgradeTheRest() {
    if (seen || !("IntersectionObserver" in window)) { return; }
    seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) { return; }
        seen.unobserve(entry.target);
        window.setTimeout(function () { draw(entry.target.id); }, 0);
      });
    }, { rootMargin: "300px 0px" });
    Object.keys(byId).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { seen.observe(el); }
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll(".stats-explore"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { draw(b.dataset.chart); upgradeTheRest(); });
  });
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
