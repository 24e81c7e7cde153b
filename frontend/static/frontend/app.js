/* Scorekeeper: steppers, values that follow from others, the offline round queue, live updates.
   No rules here: the server validates and scores; this file only adds, subtracts and sends. */
(function () {
  "use strict";
  var d = document, Q = "sk-queue", busy = false, timer = null;

  function $(s, r) { return (r || d).querySelector(s); }
  function $$(s, r) { return Array.prototype.slice.call((r || d).querySelectorAll(s)); }

  /* --- form helpers ------------------------------------------------------------------------- */
  function memberValue(m) {
    var i = $("input:checked", m) || $("input[type=number]", m);
    return i && i.value !== "" ? parseInt(i.value, 10) || 0 : 0;
  }
  function memberSet(m, v) {
    var n = $("input[type=number]", m);
    if (n) { n.value = v; return true; }
    var r = $('input[value="' + v + '"]', m);
    if (r) { r.checked = true; return true; }
    return false;
  }
  function checkedValue(form, name) {
    var i = form.querySelector('input[name="' + name + '"]:checked');
    return i ? i.value : null;
  }
  function derive(form) {
    $$("[data-sum]", form).forEach(function (fs) {
      var total = fs.dataset.total ? parseInt(fs.dataset.total, 10) : null;
      if (fs.dataset.totalBy) {
        var t = JSON.parse(fs.dataset.totals || "{}"), k = checkedValue(form, fs.dataset.totalBy);
        total = k !== null && k in t ? t[k] : null;
      }
      var ms = $$("[data-m]", fs), open = ms.filter(function (m) { return !m.dataset.t; });
      ms.forEach(function (m) { m.classList.remove("auto"); });
      var note = $("[data-autonote]", fs);
      if (note) note.hidden = true;
      if (total === null || open.length === 0 || open.length === ms.length) return;
      var last = open[open.length - 1], rest = 0;
      ms.forEach(function (m) { if (m !== last) rest += memberValue(m); });
      if (total - rest >= 0 && memberSet(last, total - rest)) {
        last.classList.add("auto");
        if (note) note.hidden = false;
      }
    });
    $$("[data-excl]", form).forEach(function (fs) {
      var taken = fs.dataset.excl.split(" ").map(function (n) { return checkedValue(form, n); });
      $$("input", fs).forEach(function (i) {
        var off = taken.indexOf(i.value) >= 0;
        if (off) i.checked = false;
        i.disabled = off;
      });
    });
    $$("[data-perm]", form).forEach(function (fs) {
      var rows = $$("[data-m]", fs), used = rows.map(function (r) { var c = $("input:checked", r); return c ? c.value : null; });
      var free = $$("input", rows[0]).map(function (i) { return i.value; }).filter(function (v) { return used.indexOf(v) < 0; });
      var empty = rows.filter(function (r, k) { return used[k] === null; });
      rows.forEach(function (r) { r.classList.remove("auto"); });
      if (empty.length === 1 && free.length === 1 && memberSet(empty[0], free[0])) empty[0].classList.add("auto");
    });
  }
  function touched(e) {
    var form = e.target.form;
    if (!form || form.id !== "entry-form") return;
    form.dataset.dirty = "1";
    var m = e.target.closest("[data-m]");
    if (m) m.dataset.t = "1";
    derive(form);
  }
  d.addEventListener("change", touched);
  d.addEventListener("input", touched);
  d.addEventListener("click", function (e) {
    var b = e.target.closest("[data-step]");
    if (b) {
      var i = $("input", b.parentNode), v = (parseInt(i.value, 10) || 0) + parseInt(b.dataset.step, 10);
      if (i.min !== "" && v < +i.min) v = +i.min;
      if (i.max !== "" && v > +i.max) v = +i.max;
      i.value = v;
      i.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    var c = e.target.closest("[data-clear]");
    if (c) {
      $$("input", c.closest("fieldset")).forEach(function (i) { i.checked = false; });
      var m = c.closest("fieldset").querySelectorAll("[data-m]");
      Array.prototype.forEach.call(m, function (x) { delete x.dataset.t; });
      derive(c.form);
      return;
    }
    var cp = e.target.closest("[data-copy]");
    if (cp) {
      var src = $(cp.dataset.copy);
      src.select();
      if (navigator.clipboard) navigator.clipboard.writeText(src.value);
      cp.textContent = cp.dataset.done;
      return;
    }
    var act = e.target.closest("[data-q]");
    if (act) queueAction(act.dataset.q, act.dataset.key);
  });

  /* --- the round queue: every round entry is queued with its own Idempotency-Key ------------- */
  function load() { try { return JSON.parse(localStorage.getItem(Q)) || []; } catch (x) { return []; } }
  function store(q) { localStorage.setItem(Q, JSON.stringify(q)); }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }
  function drop(key) { store(load().filter(function (i) { return i.key !== key; })); }
  function patch(key, ch) { store(load().map(function (i) { return i.key === key ? Object.assign(i, ch) : i; })); }
  function textOf(html) {
    var t = d.createElement("template");
    t.innerHTML = html;
    var box = t.content.querySelector(".errbox li, .errbox, .msg");
    return (box ? box.textContent : t.content.textContent).replace(/\s+/g, " ").trim().slice(0, 300);
  }
  function entry() { return $("#entry-form"); }
  function swapEntry(html) {
    var box = $("#entry");
    if (!box) return;
    box.innerHTML = html;
    if (window.htmx) htmx.process(box);
    var f = entry();
    if (f) derive(f);
    var err = $("#entry-errors");
    if (err) err.focus();
  }
  function reloadEntry() {
    var f = entry();
    if (!f || !window.htmx) return;
    htmx.ajax("GET", f.dataset.src, { target: "#entry", swap: "innerHTML" }).then(function () {
      var g = entry();
      if (g) derive(g);
    });
  }
  function refreshBoard() {
    var b = $("#board");
    if (b && window.htmx) htmx.ajax("GET", b.dataset.src, { target: "#board", swap: "innerHTML" });
  }
  function resetForm(f) {
    f.reset();
    delete f.dataset.dirty;
    $$("[data-m]", f).forEach(function (m) { delete m.dataset.t; });
    derive(f);
  }
  function submit(e) {
    var f = e.target;
    if (f.id !== "entry-form" || !f.dataset.queue) return;
    e.preventDefault();
    var item = { key: uuid(), url: f.action, match: f.dataset.match, body: new URLSearchParams(new FormData(f)).toString(),
      at: Date.now(), state: "pending" };
    var q = load();
    q.push(item);
    store(q);
    if (navigator.onLine) {
      f.dataset.sending = item.key;
      $$("button[type=submit]", f).forEach(function (b) { b.disabled = true; });
    } else {
      resetForm(f);
    }
    render();
    flush();
  }
  d.addEventListener("submit", submit);

  function send(item) {
    return fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key, "X-Requested-With": "fetch" }
    });
  }
  function flush() {
    if (busy) return;
    busy = true;
    var saved = 0, todo = load().filter(function (i) { return i.state === "pending"; });
    function done() {
      busy = false;
      var f = entry();
      if (f && f.dataset.sending) {  // the request that was meant to show its answer never got one
        delete f.dataset.sending;
        $$("button[type=submit]", f).forEach(function (b) { b.disabled = false; });
        resetForm(f);
      }
      render();
      if (saved) { refreshBoard(); if (f && !f.dataset.dirty) reloadEntry(); }
      clearTimeout(timer);
      if (load().some(function (i) { return i.state === "pending"; })) timer = setTimeout(flush, 5000);
    }
    function next() {
      var item = todo.shift();
      if (!item) return done();
      send(item).then(function (r) {
        if (r.status >= 500) throw new Error("server");
        return r.text().then(function (html) {
          var f = entry(), mine = f && f.dataset.sending === item.key;
          if (r.headers.get("X-Round")) {
            drop(item.key);
            saved++;
            if (mine) { delete f.dataset.sending; delete f.dataset.dirty; }
          } else if (mine) {
            drop(item.key);
            swapEntry(html);
          } else {
            patch(item.key, { state: "refused", msg: textOf(html), html: html });
          }
          next();
        });
      }).catch(done);
    }
    next();
  }
  function queueAction(what, key) {
    var item = load().filter(function (i) { return i.key === key; })[0];
    if (!item) return;
    if (what === "show") swapEntry(item.html);
    drop(key);
    render();
  }
  function render() {
    var box = $("#pending");
    if (!box) return;
    var mine = load().filter(function (i) { return i.match === box.dataset.match; });
    box.hidden = mine.length === 0;
    var ul = $("ul", box);
    ul.textContent = "";
    mine.forEach(function (i) {
      var li = d.createElement("li"), s = d.createElement("span");
      var time = new Date(i.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      s.textContent = time + " · " + (i.state === "pending" ? box.dataset.pending : box.dataset.refused + " " + i.msg);
      li.appendChild(s);
      if (i.state !== "pending") {
        [["show", box.dataset.show], ["drop", box.dataset.drop]].forEach(function (a) {
          var b = d.createElement("button");
          b.type = "button"; b.dataset.q = a[0]; b.dataset.key = i.key; b.textContent = a[1];
          li.appendChild(b);
        });
      }
      ul.appendChild(li);
    });
  }

  /* --- live updates: the board polls (htmx, ETag/304); skip identical answers ---------------- */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var t = e.detail.target;
    if (t.id !== "board") return;
    if (e.detail.xhr.status === 304 || e.detail.serverResponse === t.dataset.last) e.detail.shouldSwap = false;
    else t.dataset.last = e.detail.serverResponse;
  });
  d.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id !== "board") return;
    var v = $("#board [data-version]"), f = entry();
    if (v && f && f.dataset.version !== v.dataset.version && !f.dataset.dirty && !f.dataset.sending) reloadEntry();
  });

  function net() {
    var n = $("#net");
    if (n) n.hidden = navigator.onLine;
    if (navigator.onLine) flush();
  }
  window.addEventListener("online", net);
  window.addEventListener("offline", net);
  d.addEventListener("DOMContentLoaded", function () {
    var f = entry();
    if (f) derive(f);
    render();
    net();
    if ("serviceWorker" in navigator && d.body.dataset.sw) navigator.serviceWorker.register(d.body.dataset.sw, { scope: "/" });
  });
})();
