/* The trick referee: every tap counts, and the verdict judges exactly the cards shown.
   The trick lives in the page. A value tapped after a colour becomes a card at once (a hidden "play" field and a
   line of the trick), with no request in between, so no tap waits for the network and none is lost. The form is
   then posted, one request at a time; an answer is taken only when it was made for exactly what the form holds
   now (else the form is posted again), and until then no verdict is shown. A change of the player count or of
   what is judged (Was sticht?'s draft row) changes the hands: the card chips are blocked, visibly, until the
   server's panel for it arrives. Without scripts the form posts as it is. No rules here. */
(function () {
  "use strict";
  var d = document, busy = false, again = false, whole = false;
  var STRUCTURE = { players: 1, row: 1 };  // what changes the hands themselves

  function form() { return d.getElementById("ref-form"); }
  function $(s, r) { return (r || d).querySelector(s); }
  function $$(s, r) { return Array.prototype.slice.call((r || d).querySelectorAll(s)); }
  function plays(f) { return $$('input[name="play"]', f); }
  function size(f) { return parseInt(f.dataset.size, 10) || 0; }
  /* what an answer must have been made for: the whole form for a new panel; for a verdict, all but the colour
     chip picked for the next card (it changes nothing judged) */
  function said(f, full) {
    var data = new URLSearchParams(new FormData(f));
    if (!full) data.delete("pick_colour");
    return data.toString();
  }

  /* the hands in the order they play this trick: from the leader round the table, the table hand last */
  function order(f) {
    var hands = JSON.parse(f.dataset.hands || "[]"), lead = $('input[name="leader"]:checked', f);
    var k = lead ? parseInt(lead.value, 10) || 0 : 0, out = hands.slice(k).concat(hands.slice(0, k));
    if (f.dataset.table) out.push(f.dataset.table);
    return out;
  }

  /* the trick as the form holds it: its lines, the count, whose card is next, the chips while it is open */
  function draw(f) {
    var ol = $("#ref-trick", f), names = order(f), cards = plays(f), n = cards.length;
    ol.textContent = "";
    cards.forEach(function (input, i) {
      var bits = input.value.split(":"), chip = $('input[name="pick_colour"][value="' + bits[0] + '"] + span', f);
      var li = d.createElement("li"), sw = chip && $(".sw", chip);
      li.className = "card-face";
      li.appendChild(d.createTextNode((names[i] || "") + ": "));
      if (sw) li.appendChild(sw.cloneNode(true));
      li.appendChild(d.createTextNode((chip ? chip.textContent.trim() : bits[0]) + " " + bits[1]));
      ol.appendChild(li);
    });
    if (!n) {
      var hint = d.createElement("li");
      hint.className = "muted";
      hint.textContent = ol.dataset.empty;
      ol.appendChild(hint);
    }
    $("#ref-legend", f).textContent = f.dataset.legend.replace("{n}", n).replace("{size}", size(f));
    var pick = $("#ref-pick", f), next = $("#next-card strong", f);
    pick.hidden = n >= size(f);
    if (next) next.textContent = n < names.length ? f.dataset.nextLabel.replace("{name}", names[n]) : "";
    $$('button[name="action"]', f).forEach(function (b) { b.disabled = !n; });
  }

  /* the verdict shown is for the trick as it was: it goes at once, and comes back once the answer is in */
  function stale(f) {
    var box = $("#ref-verdict", f);
    box.textContent = "";
    if (plays(f).length >= size(f)) {
      var wait = d.createElement("p");
      wait.className = "muted";
      wait.setAttribute("role", "status");
      wait.textContent = f.dataset.judging;
      box.appendChild(wait);
    }
  }

  function block(f, on) {
    $$('#ref-pick input, button[name="action"]', f).forEach(function (i) { i.disabled = on; });
    f.setAttribute("aria-busy", on ? "true" : "false");
    if (!on) draw(f);
  }

  function ask(full) {
    var f = form();
    if (!f) return;
    whole = whole || full;
    if (busy) { again = true; return; }
    busy = true;
    f.dataset.busy = "1";
    var wanted = whole, body = new URLSearchParams(new FormData(f)).toString(), made = said(f, wanted);
    whole = false;
    fetch(f.getAttribute("action"), {  // not f.action: the buttons named "action" shadow it
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" }
    }).then(function (r) {
      return r.ok ? r.text() : Promise.reject(new Error(String(r.status)));
    }).then(function (html) {
      var g = form();
      if (!g || said(g, wanted) !== made) { again = true; whole = whole || wanted; return; }  // tapped meanwhile
      var t = d.createElement("template");
      t.innerHTML = html.trim();
      if (wanted) {  // new hands: the whole panel, made for exactly this form
        d.getElementById("ref").replaceChildren(t.content);
      } else {
        var fresh = t.content.querySelector("#ref-verdict");
        if (fresh) $("#ref-verdict", g).replaceWith(fresh);
      }
    }).catch(function () {
      again = false;  // no answer (offline): the cards stay; the next tap asks again
    }).then(function () {
      busy = false;
      var g = form();
      if (again) { again = false; return ask(false); }
      if (g) { delete g.dataset.busy; if (g.getAttribute("aria-busy") === "true") block(g, false); }
    });
  }

  d.addEventListener("change", function (e) {
    var f = form(), i = e.target;
    if (!f || i.form !== f) return;
    if (STRUCTURE[i.name]) {
      block(f, true);
      stale(f);
      return ask(true);
    }
    if (i.name === "pick_colour") return;  // half a card: nothing to judge yet
    if (i.name === "pick_value") {
      var colour = $('input[name="pick_colour"]:checked', f);
      i.checked = false;
      if (!colour || plays(f).length >= size(f)) return;
      var card = d.createElement("input"), last = plays(f).pop();
      card.type = "hidden";
      card.name = "play";
      card.value = colour.value + ":" + i.value;
      if (last) last.after(card);
      else f.insertBefore(card, f.firstChild);
    }
    draw(f);
    stale(f);
    ask(false);
  });

  d.addEventListener("click", function (e) {
    var b = e.target.closest('#ref-form button[name="action"]'), f = form();
    if (!b || !f) return;
    e.preventDefault();
    var cards = plays(f);
    if (b.value === "undo" && cards.length) cards[cards.length - 1].remove();
    if (b.value === "clear") cards.forEach(function (c) { c.remove(); });
    draw(f);
    stale(f);
    ask(false);
  });
})();
