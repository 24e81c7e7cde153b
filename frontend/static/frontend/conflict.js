/* A form is for its round. When the live board shows that the round a half-filled form was opened for was saved
   on another phone (or the rounds changed there), the form keeps its round number and what was typed; its Save
   button, where the thumb is, turns into the conflict panel at once: nothing can be saved for that round by
   accident. The panel is then filled in by the server (who saved it, that round's points beside this phone's)
   and offers two choices: discard mine, or enter mine as the next round (a submit button, see app.js).
   A save that races the board is refused by the server with the same panel (409). No rules here. */
(function () {
  "use strict";
  var d = document, SETTLE_MS = 700;

  function form() { return d.getElementById("entry-form"); }
  function panel() { return d.getElementById("conflict"); }
  function saveButton(f) { return f.querySelector(".save > button[type=submit][data-label]"); }
  function numberOf(f) {
    var i = f.querySelector('input[name="number"]');
    return i ? i.value : "";
  }
  /* a thumb already on its way to Save must not land on a choice: the choices wait a moment, visibly */
  function settle(p) {
    var buttons = Array.prototype.slice.call(p.querySelectorAll("button"));
    p.classList.add("settling");
    buttons.forEach(function (b) { b.disabled = true; });
    setTimeout(function () {
      p.classList.remove("settling");
      buttons.forEach(function (b) { b.disabled = false; });
    }, SETTLE_MS);
  }
  window.SKConflict = { settle: settle };
  function reveal(p) {
    p.scrollIntoView({ block: "nearest" });
    p.focus({ preventScroll: true });
  }

  /* the choice, at once and without the network: the Save button is hidden and cannot submit */
  function show(f, n, next) {
    var now = panel(), quick = d.getElementById("conflict-quick"), save = f.querySelector(".save");
    if (now && now.dataset.conflict === n && now.dataset.next === next) return;
    if (!quick || !save) return;
    var p = quick.content.firstElementChild.cloneNode(true), msg = p.querySelector(".conflict-msg strong");
    var add = p.querySelector('button[name="as_number"]');
    p.dataset.conflict = n;
    p.dataset.next = next;
    msg.textContent = (+next > +n ? msg.dataset.saved : msg.dataset.changed).replace("{n}", n).replace("{next}", next);
    add.value = next;
    add.textContent = add.dataset.label.replace("{n}", next);
    var button = saveButton(f);
    if (button) { button.hidden = true; button.disabled = true; }
    if (now) now.replaceWith(p);
    else save.appendChild(p);
    settle(p);
    reveal(p);
    details(f, n, next);
  }

  /* the server's panel: who saved it and the points side by side (204: the round is free again) */
  function details(f, n, next) {
    var body = new URLSearchParams(new FormData(f));
    fetch(f.dataset.conflictSrc, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Requested-With": "fetch" }
    }).then(function (r) {
      if (form() !== f || numberOf(f) !== n) return null;
      if (r.status === 204) return hide(f);
      return r.ok ? r.text() : null;
    }).then(function (html) {
      var now = panel();
      if (!html || !now || now.dataset.next !== next || form() !== f) return;
      var t = d.createElement("template");
      t.innerHTML = html.trim();
      var fresh = t.content.querySelector("#conflict");
      if (!fresh) return;
      var focused = now.contains(d.activeElement);
      if (now.classList.contains("settling")) settle(fresh);
      now.replaceWith(fresh);
      if (focused) fresh.focus({ preventScroll: true });
    }).catch(function () {});  // offline: the quick panel's two choices still work
  }

  function hide(f) {
    var now = panel();
    if (now) now.remove();
    var button = saveButton(f);
    if (button) { button.hidden = false; button.disabled = false; }
  }

  d.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id !== "board") return;
    var v = d.querySelector("#board [data-version]"), f = form();
    if (!v || !f || !f.dataset.queue || f.dataset.sending) return;
    var n = numberOf(f), next = v.dataset.next;
    if (!n || !next) return;
    if (!f.dataset.dirty && !panel()) return;  // nothing typed: app.js fetches the form for the next round
    if (window.SK && SK.queued(f.dataset.match)) return;  // the form is numbered after entries still queued
    if (n === next) hide(f);  // the round is free again (the other phone's save was undone)
    else show(f, n, next);
  });

  /* what this phone typed changes: its column of points is asked again (once the taps pause) */
  var again = null;
  d.addEventListener("change", function (e) {
    var f = form(), now = panel();
    if (!f || !now || e.target.form !== f || !now.dataset.next) return;
    clearTimeout(again);
    again = setTimeout(function () { if (panel() === now) details(f, numberOf(f), now.dataset.next); }, 400);
  });

  d.addEventListener("click", function (e) {
    var discard = e.target.closest("[data-conflict-discard]"), f = form();
    if (!discard || !f || !window.SK) return;
    e.preventDefault();
    delete f.dataset.dirty;
    SK.reloadEntry();
  });
})();
