/* Live match board: an EventSource on the match's events stream refreshes #board as soon as another phone
   saves (the server pushes the match's new version). While the stream is open the 3-second poll is thinned
   to one every 30 s (a safety net for anything the push does not carry); when the stream drops or the
   server answers 204 (no Redis, make run), the poll runs every 3 s again, untouched. */
(function () {
  "use strict";
  var d = document, root = d.documentElement;
  function start() {
    var board = d.getElementById("board");
    if (!board || !board.dataset.events || !window.EventSource || !window.htmx) return;
    var slow = window.SK_LIVE_POLL_MS || 30000, last = Date.now(), es;
    root.dataset.liveEvents = "0";
    root.dataset.live = "connecting";
    function refresh() { last = Date.now(); htmx.trigger(board, "sk:live"); }
    /* the poll ("every 3s") is skipped while the stream is open and the board is fresh */
    d.addEventListener("htmx:beforeRequest", function (e) {
      if (e.detail.elt !== board || root.dataset.live !== "open") return;
      var why = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
      if (why && why.type === "sk:live") return;
      if (Date.now() - last < slow) e.preventDefault();
      else last = Date.now();
    });
    function connect() {
      es = new EventSource(board.dataset.events);
      es.addEventListener("open", function () { root.dataset.live = "open"; });
      es.addEventListener("version", function (e) {
        root.dataset.liveEvents = String(+root.dataset.liveEvents + 1);
        var shown = board.querySelector("[data-version]");  // the first event is the version when connected
        if (!shown || shown.dataset.version !== e.data) refresh();
      });
      es.addEventListener("error", function () {
        /* the browser reconnects by itself unless the stream was refused (204, an error status) */
        root.dataset.live = es.readyState === EventSource.CLOSED ? "off" : "connecting";
      });
    }
    connect();
    /* a connection that went away takes the stream with it, often without a word until the heartbeat fails:
       while offline the poll is not thinned, and once back a new stream is opened and the board fetched at once */
    window.addEventListener("offline", function () { es.close(); root.dataset.live = "off"; });
    window.addEventListener("online", function () {
      es.close();
      connect();
      refresh();
    });
    /* a phone put away closes its stream; the poll (and a new stream) resume when it is shown again */
    d.addEventListener("visibilitychange", function () {
      if (d.hidden) { es.close(); root.dataset.live = "off"; }
      else if (root.dataset.live === "off") { connect(); }
    });
  }
  if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", start);
  else start();
})();
