/* Was sticht?: the form asks for the colours in a player's tricks only where they decide a revealed "no colour"
   task (its owner and the start player). The preview names those seats (the rules decide); their rows come into
   view and the others are hidden, their chips not sent. Without scripts the page shows the rows the server chose. */
(function () {
  "use strict";
  var d = document;
  d.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id !== "preview") return;
    var said = e.detail.target.querySelector("[data-colour-seats]"), f = d.getElementById("entry-form");
    var group = f && f.querySelector("[data-colour-group]");
    if (!said || !group) return;
    var seats = said.dataset.colourSeats.split(" ").filter(Boolean);
    group.hidden = seats.length === 0;
    Array.prototype.forEach.call(group.querySelectorAll("[data-colour-seat]"), function (row) {
      var asked = seats.indexOf(row.dataset.colourSeat) >= 0;
      row.hidden = !asked;
      Array.prototype.forEach.call(row.querySelectorAll("input"), function (i) { i.disabled = !asked; });
    });
  });
})();
