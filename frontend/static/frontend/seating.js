/* New-match page: the order players are tapped is their seat order.
   Keeps the hidden "order" field (player ids, comma-separated) and the seat numbers on the chips, and asks
   the server for the seating summary (who deals and starts first comes from the game's rules there).
   Without this script the form still works: ticked players sit in list order and the move buttons submit. */
(function () {
  "use strict";
  var form = document.getElementById("new-match");
  if (!form) return;
  var field = form.querySelector("[data-order]");
  var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name="players"]'));
  var order = [];

  function ticked(id) {
    return boxes.some(function (b) { return b.value === id && b.checked; });
  }

  // start from what the page says (after a submit with errors the server echoes the order)
  (field.value || "").split(",").forEach(function (id) {
    if (id && ticked(id) && order.indexOf(id) < 0) order.push(id);
  });
  boxes.forEach(function (b) {
    if (b.checked && order.indexOf(b.value) < 0) order.push(b.value);
  });

  var pending = null;
  function refresh() {
    field.value = order.join(",");
    boxes.forEach(function (b) {
      var badge = b.parentNode.querySelector("[data-seatno]");
      var at = order.indexOf(b.value);
      if (badge) badge.textContent = at < 0 ? "" : String(at + 1);
    });
    if (pending) pending.abort();
    pending = new AbortController();
    var data = new FormData(form);
    data.delete("move");
    fetch(form.getAttribute("data-seating"), {
      method: "POST", body: data, credentials: "same-origin", signal: pending.signal,
      headers: {"X-Requested-With": "fetch"}
    }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (html === null) return;
      var old = document.getElementById("seating");
      var box = document.createElement("div");
      box.innerHTML = html;
      var fresh = box.querySelector("#seating");
      if (old && fresh) {
        var focused = document.activeElement && old.contains(document.activeElement) ?
          document.activeElement.getAttribute("value") : null;
        old.replaceWith(fresh);
        if (focused) {  // keep the keyboard on the button that was pressed (or its neighbour)
          var again = fresh.querySelector('button[value="' + focused + '"]:not([disabled])') ||
            fresh.querySelector('button[data-player="' + focused.split(":")[1] + '"]:not([disabled])');
          if (again) again.focus();
        }
      }
    }).catch(function () { /* offline or superseded: the chips and the order field are still right */ });
  }

  boxes.forEach(function (b) {
    b.addEventListener("change", function () {
      var at = order.indexOf(b.value);
      if (b.checked && at < 0) order.push(b.value);
      if (!b.checked && at >= 0) order.splice(at, 1);  // the seats after it close the gap
      refresh();
    });
  });

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-move]");
    if (!button || !form.contains(button)) return;
    event.preventDefault();
    var id = button.getAttribute("data-player");
    var at = order.indexOf(id);
    var to = button.getAttribute("data-move") === "up" ? at - 1 : at + 1;
    if (at < 0 || to < 0 || to >= order.length) return;
    order[at] = order[to];
    order[to] = id;
    refresh();
  });

  // options and task cards can change who deals or starts (e.g. a mode's player count): redraw the summary
  form.addEventListener("change", function (event) {
    if (event.target.name !== "players") refresh();
  });

  refresh();
})();
