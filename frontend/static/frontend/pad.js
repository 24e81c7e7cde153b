/* Scorekeeper: number fields of the round-entry forms, kept as quick as a paper pad.
   - a field may hold a sum, as on a score sheet: "3+6+2" is read as 11 (the server reads it the same way and
     refuses "3+x" naming the field); what the sum comes to is shown under the field while it is typed;
   - the keyboard's Enter/Next key moves to the next number field still to fill (the last one to Save), and a
     field that takes one digit only (0–9) moves on by itself;
   - a chip that opens a count (a Sticheln colour, a Coloretto colour held) puts the cursor in that count;
   - a form fetched to replace an untouched one never lands on numbers typed meanwhile.
   No rules here: app.js's derive() fills the values that follow from others, the server validates and scores. */
(function () {
  "use strict";
  var d = document, SUM = /^\s*[+\-\u2212]?\s*\d+(\s*\+\s*\d+)*\s*$/;

  /* the number a field holds: digits, or a sum of them; null for blank or anything else */
  function num(text) {
    if (text === null || text === undefined || !SUM.test(String(text))) return null;
    var t = String(text).replace(/\s/g, "").replace("\u2212", "-"), neg = t.charAt(0) === "-";
    var parts = t.replace(/^[+\-]/, "").split("+").map(function (p) { return parseInt(p, 10); });
    return (neg ? -parts[0] : parts[0]) + parts.slice(1).reduce(function (a, b) { return a + b; }, 0);
  }
  window.skNum = num;

  function form(el) { return el && el.form && el.form.id === "entry-form" ? el.form : null; }
  function shown(el) { return !el.disabled && el.offsetParent !== null && el.getClientRects().length > 0; }
  /* number fields to fill, in page order: not hidden, not filled in from the others (shown dashed), not one
     that is rarely anything but its default (data-skip: Hattrick's face-down cards) */
  function fields(f) {
    return Array.prototype.filter.call(f.querySelectorAll("input[data-num]"), function (i) {
      return shown(i) && !i.closest(".auto") && !i.hasAttribute("data-skip");
    });
  }
  window.skFields = fields;  // the tap bench (tests/benchmarks/bench_taps.py) counts Next presses with it
  function next(el) {
    var f = form(el);
    if (!f) return;
    var to = fields(f).filter(function (i) { return el.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_FOLLOWING; })[0];
    if (to) { to.focus(); to.select(); return; }
    var save = f.querySelector("button[type=submit]");
    if (save) save.focus();
  }

  function hint(i) {
    var box = i.parentNode, out = box.querySelector("output[data-sum-of]");
    var v = i.value.indexOf("+") > 0 ? num(i.value) : null;
    if (!out && v === null) return;
    if (!out) {
      out = d.createElement("output");
      out.setAttribute("data-sum-of", i.name);
      out.className = "sumhint";
      box.appendChild(out);
    }
    out.textContent = v === null ? "" : "= " + v;
  }

  d.addEventListener("keydown", function (e) {
    var i = e.target;
    if (e.key !== "Enter" || !i.matches || !i.matches("input[data-num]") || !form(i)) return;
    e.preventDefault();  // Enter in a number field goes on to the next one; Save is pressed on purpose
    next(i);
  });
  d.addEventListener("input", function (e) {
    var i = e.target;
    if (!i.matches || !i.matches("input[data-num]") || !form(i)) return;
    hint(i);
    var max = i.dataset.max;
    if (e.inputType === "insertText" && max !== undefined && +max <= 9 && /^\d$/.test(i.value)) next(i);
  });
  /* a fresh form fetched to replace an untouched one (after a save sent from the queue, a round saved on another
     phone) must not land on numbers typed while it was on its way: once the player has typed, the form stays, and
     the board's next poll is drawn again so that app.js (conflict.js) offers the choice for its round */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var t = e.detail.target, f = d.getElementById("entry-form"), cfg = e.detail.requestConfig, b;
    if (!t || t.id !== "entry" || !f || !f.dataset.dirty || !cfg || cfg.verb !== "get") return;
    e.detail.shouldSwap = false;
    b = d.getElementById("board");
    if (b) delete b.dataset.last;
  });
  /* a chip that opens a count (data-opens="<field name>") puts the cursor in that count */
  d.addEventListener("change", function (e) {
    var c = e.target, f = form(c);
    if (!f || !c.dataset || !c.dataset.opens || !c.checked) return;
    var to = f.querySelector('input[name="' + c.dataset.opens + '"]');
    if (to) setTimeout(function () { to.focus(); to.select(); }, 0);
  });
})();
