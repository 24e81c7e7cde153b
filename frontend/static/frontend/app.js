/* Scorekeeper: steppers, values that follow from others, the offline round queue, live updates.
   No rules here: the server validates and scores; this file only adds, subtracts and sends. */
(function () {
  "use strict";
  var d = document, Q = "sk-queue", busy = false, timer = null;

  function $(s, r) { return (r || d).querySelector(s); }
  function $$(s, r) { return Array.prototype.slice.call((r || d).querySelectorAll(s)); }

  /* --- form helpers ------------------------------------------------------------------------- */
  /* number fields are text fields that may hold a sum ("3+6+2"): pad.js reads them (skNum) */
  function number(text) { var n = window.skNum ? window.skNum(text) : parseInt(text, 10); return n === null || isNaN(n) ? 0 : n; }
  function memberValue(m) {
    var i = $("input:checked", m) || $("input[data-num]", m);
    return i && i.value !== "" ? number(i.value) : 0;
  }
  function memberSet(m, v) {
    var n = $("input[data-num]", m);
    if (n) { n.value = v; return true; }
    var r = $('input[value="' + v + '"]', m);
    if (r) { r.checked = true; return true; }
    return false;
  }
  function checkedValue(form, name) {
    var i = form.querySelector('input[name="' + name + '"]:checked');
    return i ? i.value : null;
  }
  /* a radio group filled in from the others: checked and shown dashed (with its note), unless someone tapped it */
  function deriveChoice(fs, value) {
    var note = $("[data-autonote]", fs), was = $("input:checked", fs);
    fs.classList.remove("auto");
    if (note) note.hidden = true;
    if (fs.dataset.t) return;
    if (value === null) { if (was && fs.dataset.auto) was.checked = false; delete fs.dataset.auto; return; }
    var r = $('input[value="' + value + '"]', fs);
    if (!r) return;
    r.checked = true;
    fs.dataset.auto = "1";
    fs.classList.add("auto");
    if (note) note.hidden = false;
  }
  function numbersOf(form, prefix) {
    return $$('input[data-num][name^="' + prefix + '."]', form).map(function (i) { return number(i.value); });
  }
  function derive(form) {
    $$("[data-sum]", form).forEach(function (fs) {
      var total = fs.dataset.total ? parseInt(fs.dataset.total, 10) : null;
      if (fs.dataset.totalBy) {
        var t = JSON.parse(fs.dataset.totals || "{}"), k = checkedValue(form, fs.dataset.totalBy);
        total = k !== null && k in t ? t[k] : null;
      }
      /* data-sum="quick": only the members of that entry (data-of="quick"); data-keep members add up but are
         never the one filled in */
      var of = fs.dataset.sum || "";
      var ms = $$("[data-m]", fs).filter(function (m) { return !of || m.dataset.of === of; });
      var open = ms.filter(function (m) { return !m.dataset.t && !("keep" in m.dataset); });
      ms.forEach(function (m) { m.classList.remove("auto"); });
      var note = $$("[data-autonote]", fs).filter(function (n) { return (n.dataset.autonote || "") === of; })[0];
      if (note) note.hidden = true;
      if (total === null || open.length === 0 || !ms.some(function (m) { return m.dataset.t; })) return;
      var last = open[open.length - 1], rest = 0;
      ms.forEach(function (m) { if (m !== last) rest += memberValue(m); });
      if (total - rest >= 0 && memberSet(last, total - rest)) {
        last.classList.add("auto");
        if (note) note.hidden = false;
      }
    });
    /* Abluxxen: one empty hand, that player went out; none, the draw pile ran out */
    $$("[data-end-from]", form).forEach(function (fs) {
      var hands = numbersOf(form, fs.dataset.endFrom), empty = hands.filter(function (h) { return h === 0; }).length;
      deriveChoice(fs, empty === 1 ? "out" : empty === 0 && hands.length ? "exhausted" : null);
    });
    /* Coloretto with 3 players: the removed colour is the one colour nobody holds */
    $$("[data-absent]", form).forEach(function (fs) {
      var none = fs.dataset.absent.split(" ").filter(function (c) {
        return numbersOf(form, c).every(function (n) { return n === 0; });
      });
      deriveChoice(fs, none.length === 1 ? none[0] : null);
    });
    /* NJET with 3 players: the player left out of the start player's team holds the monster card */
    $$("[data-alone]", form).forEach(function (fs) {
      var inTeam = [checkedValue(form, "start_player")].concat($$('input[name="partner"]:checked', form).map(function (i) { return i.value; }));
      var out = $$("input", fs).map(function (i) { return i.value; }).filter(function (v) { return inTeam.indexOf(v) < 0; });
      deriveChoice(fs, inTeam[0] !== null && inTeam.length === 2 && out.length === 1 ? out[0] : null);
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
      /* a place filled in before (not tapped) is free again: the last place follows the others */
      var rows = $$("[data-m]", fs), used = rows.map(function (r) { var c = $("input:checked", r); return c && (r.dataset.t || !r.classList.contains("auto")) ? c.value : null; });
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
    var g = e.isTrusted && e.target.closest("[data-end-from],[data-absent],[data-alone]");
    if (g) g.dataset.t = "1";
    /* Coloretto's quick entry: a colour no longer ticked holds no cards */
    if (e.target.name && e.target.name.indexOf("held.") === 0 && !e.target.checked) {
      var cnt = form.querySelector('input[name="' + e.target.value + "." + e.target.name.slice(5) + '"]');
      if (cnt) cnt.value = "";
    }
    derive(form);
  }
  d.addEventListener("change", touched);
  d.addEventListener("input", touched);
  d.addEventListener("click", function (e) {
    var b = e.target.closest("[data-step]");
    if (b) {
      var i = $("input", b.parentNode), v = number(i.value) + parseInt(b.dataset.step, 10);
      if (i.dataset.min !== undefined && v < +i.dataset.min) v = +i.dataset.min;
      if (i.dataset.max !== undefined && v > +i.dataset.max) v = +i.dataset.max;
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
    var box = t.content.querySelector(".conflict-msg strong, .errbox li, .errbox, .msg");
    return (box ? box.textContent : t.content.textContent).replace(/\s+/g, " ").trim().slice(0, 300);
  }
  function entry() { return $("#entry-form"); }
  function swapEntry(html) {
    var box = $("#entry");
    if (!box) return;
    box.innerHTML = html;
    if (window.htmx) htmx.process(box);
    var f = entry();
    if (f) { derive(f); returnChoice(f, null); }
    var conflict = $("#conflict");  // where the Save button was, in view: who saved this round, and the choices
    if (conflict) {
      if (window.SKConflict) SKConflict.settle(conflict);
      conflict.scrollIntoView({ block: "nearest" });
      return conflict.focus({ preventScroll: true });
    }
    var err = $("#entry-errors");
    var bad = err && f && f.querySelector('[aria-invalid="true"]');
    if (bad || err) (bad || err).focus();
  }
  function reloadEntry() {
    var f = entry();
    if (!f || !window.htmx) return;
    htmx.ajax("GET", f.dataset.src, { target: "#entry", swap: "innerHTML" }).then(function () {
      var g = entry();
      if (g) { derive(g); afterQueued(g); returnChoice(g, null); }
    }).catch(function () {});  // no answer (offline): the board's next refresh finds the form behind and asks again
  }
  function refreshBoard() {
    var b = $("#board");
    if (b && window.htmx) {  // a failed refresh is retried by the next poll
      return htmx.ajax("GET", b.dataset.src, { target: "#board", swap: "innerHTML" }).catch(function () {});
    }
    return Promise.resolve();
  }
  /* after this phone's round was saved: its totals and "points and why" come into view (the form follows) */
  function reveal() {
    var b = $("#board"), t = $("#totals"), last = $("#last-round");
    if (!b) return;
    if (last) last.open = true;
    b.scrollIntoView({ block: "start" });
    if (t) t.focus({ preventScroll: true });
  }
  /* the round number the entry form is for: its hidden field, heading and Save button */
  function label(el, n) { if (el && el.dataset.label) el.textContent = el.dataset.label.replace("{n}", n); }
  function setNumber(f, n) {
    var i = f.querySelector('input[name="number"]');
    if (!i) return;
    i.value = n;
    label($("#entry-heading"), n);
    label(f.querySelector("button[type=submit][data-label]"), n);
  }
  function advance(f) {  // an entry was queued without an answer: the next one is for the next round
    var i = f.querySelector('input[name="number"]');
    if (i) setNumber(f, (parseInt(i.value, 10) || 0) + 1);
  }
  function queued(match) {
    return load().some(function (i) { return i.state === "pending" && i.match === match; });
  }
  function afterQueued(f) {  // a fresh form while entries still wait to be sent: it is for the round after them
    var i = f && f.querySelector('input[name="number"]');
    if (!i) return;
    var top = 0;
    load().forEach(function (q) {
      if (q.state === "pending" && q.match === f.dataset.match) top = Math.max(top, parseInt(new URLSearchParams(q.body).get("number"), 10) || 0);
    });
    if (top >= (parseInt(i.value, 10) || 0)) setNumber(f, top + 1);
  }
  function resetForm(f) {
    f.reset();
    delete f.dataset.dirty;
    $$("[data-m],[data-end-from],[data-absent],[data-alone]", f).forEach(function (m) { delete m.dataset.t; delete m.dataset.auto; });
    derive(f);
  }
  function submit(e) {
    var f = e.target;
    if (f.id !== "entry-form" || !f.dataset.queue) return;
    e.preventDefault();
    var as = e.submitter && e.submitter.name === "as_number" ? e.submitter.value : "";
    if (as) {  // chosen on the conflict panel: this form's round was saved elsewhere, it becomes the next one
      setNumber(f, as);
      var panel = $("#conflict", f);
      if (panel) panel.remove();
      $$(".save > button[type=submit]", f).forEach(function (b) { b.hidden = false; });
    }
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
      advance(f);
    }
    render();
    flush();
  }
  d.addEventListener("submit", submit);
  /* a confirmed action (rematch, finish, abandon) is sent once however often it is tapped */
  d.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f.hasAttribute || !f.hasAttribute("data-once") || e.defaultPrevented) return;
    setTimeout(function () { $$("button[type=submit]", f).forEach(function (b) { b.disabled = true; }); });
  });

  function send(item) {
    return fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key, "X-Requested-With": "fetch" }
    });
  }
  function flush() {
    if (busy) return;
    busy = true;
    var saved = 0, shown = false, todo = load().filter(function (i) { return i.state === "pending"; });
    function done() {
      busy = false;
      var f = entry();
      if (f && f.dataset.sending) {  // the request that was meant to show its answer never got one
        delete f.dataset.sending;
        $$("button[type=submit]", f).forEach(function (b) { b.disabled = false; });
        resetForm(f);
        advance(f);
      }
      render();
      if (saved) {
        refreshBoard().then(function () { if (shown) reveal(); });
        if (f && !f.dataset.dirty) reloadEntry();
      }
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
            if (mine) { delete f.dataset.sending; delete f.dataset.dirty; shown = true; }
          } else if (mine) {
            drop(item.key);
            swapEntry(html);
            if (r.status === 409) refreshBoard();  // e.g. the round was saved by another phone: show it
          } else if (r.status === 409 && f && !f.dataset.dirty && !$("#conflict")) {
            drop(item.key);  // sent after a reconnect, its round was saved elsewhere: the choice goes to the form
            swapEntry(html);
          } else {
            patch(item.key, { state: "refused", msg: textOf(html), html: html, number: new URLSearchParams(item.body).get("number") });
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
    var f = entry(), sending = f && f.dataset.sending;
    /* an entry on its way with a connection is not "not sent": it shows here only once it has no answer */
    var mine = load().filter(function (i) { return i.match === box.dataset.match && i.key !== sending; });
    box.hidden = mine.length === 0;
    var ul = $("ul", box);
    ul.textContent = "";
    mine.forEach(function (i) {
      var li = d.createElement("li"), s = d.createElement("span");
      var time = new Date(i.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var round = i.number || new URLSearchParams(i.body).get("number") || "";
      s.textContent = time + " · " + (round ? box.dataset.round.replace("{n}", round) + " · " : "") +
        (i.state === "pending" ? box.dataset.pending : box.dataset.refused);
      li.appendChild(s);
      if (i.state !== "pending") {
        li.className = "refused";
        var why = d.createElement("p"), acts = d.createElement("div");
        why.textContent = i.msg;
        acts.className = "actions";
        [["show", box.dataset.show], ["drop", box.dataset.drop]].forEach(function (a) {
          var b = d.createElement("button");
          b.type = "button"; b.dataset.q = a[0]; b.dataset.key = i.key; b.textContent = a[1];
          acts.appendChild(b);
        });
        li.appendChild(why);
        li.appendChild(acts);
      }
      ul.appendChild(li);
    });
  }

  /* a fresh form fetched while this one holds what was typed (a reload already on its way when typing began, or
     when the conflict panel came in) does not replace it */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var f = entry(), how = e.detail.requestConfig;
    if (e.detail.target.id === "entry" && f && f.dataset.dirty && how && how.verb === "get") e.detail.shouldSwap = false;
  });
  /* --- live updates: the board polls (htmx, ETag/304); skip identical answers ---------------- */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var t = e.detail.target;
    if (t.id !== "board") return;
    if (e.detail.xhr.status === 304 || e.detail.serverResponse === t.dataset.last) e.detail.shouldSwap = false;
    else t.dataset.last = e.detail.serverResponse;
  });
  /* Was sticht?: the start player's return choice is shown only when the preview says he earned a return
     (hidden, its chips are not sent); without scripts it stays in view with its explanation */
  function returnChoice(f, earned) {
    $$("[data-return-group]", f).forEach(function (fs) {
      /* before the first preview: kept in view when editing a round or when the choice was refused */
      var show = earned === null ? !!(f.querySelector('input[name="version"]') || $('[aria-invalid="true"]', fs)) : earned;
      var was = fs.hidden;
      fs.hidden = !show;
      $$("input", fs).forEach(function (i) { i.disabled = !show; });
      var on = $("input:checked", fs);  // now sent: the preview is asked again, with the choice
      if (was && show && earned !== null && on) on.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
  d.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id === "entry" && entry()) returnChoice(entry(), null);  // a fresh form fetched
    if (e.detail.target.id !== "preview") return;
    var f = entry(), m = $("[data-return-earned]", e.detail.target);
    if (f) returnChoice(f, m ? m.dataset.returnEarned === "1" : false);
  });
  d.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id !== "board") return;
    var v = $("#board [data-version]"), f = entry();
    if (!v || !f || f.dataset.sending) return;
    /* an untouched form follows the board; a half-filled one stays for its round (conflict.js) */
    if (f.dataset.version !== v.dataset.version && !f.dataset.dirty) reloadEntry();
  });

  /* --- adding a player (htmx swaps the list): the name field keeps the focus, cleared once added ---- */
  d.addEventListener("htmx:beforeRequest", function (e) {
    var f = e.detail.elt;
    if (!f || f.id !== "player-add") return;
    var sel = $("#inv-player");
    f.dataset.sent = $("#p-name", f).value;
    if (sel) f.dataset.invitee = sel.value;
  });
  d.addEventListener("htmx:afterRequest", function (e) {
    var f = e.detail.elt;
    if (!f || f.id !== "player-add") return;
    var i = $("#p-name", f), err = $("#p-name-err");
    if (!e.detail.successful) { i.focus(); return; }  // no answer (offline): the name stays to be sent again
    if (err && err.textContent.trim()) i.setAttribute("aria-invalid", "true");
    else {
      i.removeAttribute("aria-invalid");
      if (i.value === f.dataset.sent) i.value = "";  // keep whatever was typed while the request was on its way
    }
    var sel = $("#inv-player");  // its options were swapped in too: keep the guest chosen before
    if (sel) sel.value = f.dataset.invitee || "";
    i.focus();
  });

  function net() {
    var n = $("#net");
    if (n) n.hidden = navigator.onLine;
    if (navigator.onLine) flush();
  }
  window.addEventListener("online", net);
  window.addEventListener("offline", net);
  window.SK = { reloadEntry: reloadEntry, queued: queued };  // for conflict.js
  d.addEventListener("DOMContentLoaded", function () {
    var f = entry();
    if (f) { derive(f); afterQueued(f); returnChoice(f, null); }
    render();
    net();
    registerWorker();
  });
  // The offline worker is fetched once the page is up. A phone that loses its connection first cannot fetch it:
  // that is no error for the player (the page works, only the offline copy is missing), so it is tried again when
  // the connection returns.
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !d.body.dataset.sw) return;
    navigator.serviceWorker.register(d.body.dataset.sw, { scope: "/" }).catch(function () {
      window.addEventListener("online", registerWorker, { once: true });
    });
  }
})();
