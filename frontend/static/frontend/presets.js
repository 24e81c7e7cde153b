/* New-match page: choosing house rules fills the option controls with their options; changing an option
   afterwards says that the match will be recorded without house rules (the server decides the same way:
   it records the house rules only when the options are exactly theirs).
   Without this script the "Use these house rules" button redraws the page with the chosen options. */
(function () {
  "use strict";
  var form = document.getElementById("new-match");
  if (!form) return;
  var radios = Array.prototype.slice.call(form.querySelectorAll('input[name="preset"]'));
  var note = document.getElementById("preset-changed");
  if (!radios.length) return;

  function chosen() {
    return radios.filter(function (r) { return r.checked; })[0] || null;
  }

  function controls(key) {
    return Array.prototype.slice.call(form.querySelectorAll('[name="opt_' + key + '"]'));
  }

  function differs(options) {
    return Object.keys(options).some(function (key) {
      var value = options[key];
      return controls(key).some(function (c) {
        if (c.type === "radio") return c.checked !== (c.value === String(value));
        if (c.type === "checkbox") return c.checked !== Boolean(value);
        return c.value !== String(value);
      });
    });
  }

  function fill(options) {
    Object.keys(options).forEach(function (key) {
      var value = options[key];
      controls(key).forEach(function (c) {
        if (c.type === "radio") c.checked = c.value === String(value);
        else if (c.type === "checkbox") c.checked = Boolean(value);
        else c.value = String(value);
      });
    });
    form.dispatchEvent(new Event("change", {bubbles: true}));
  }

  function check() {
    var r = chosen();
    if (!note) return;
    note.hidden = !(r && r.value && differs(JSON.parse(r.getAttribute("data-options"))));
  }

  radios.forEach(function (r) {
    r.addEventListener("change", function () {
      fill(JSON.parse(r.getAttribute("data-options")));
      check();
    });
  });
  form.addEventListener("input", function (e) {
    if (e.target && e.target.name && e.target.name.indexOf("opt_") === 0) check();
  });
  form.addEventListener("change", function (e) {
    if (e.target && e.target.name && e.target.name.indexOf("opt_") === 0) check();
  });
  var apply = form.querySelector('[name="preset_apply"]');
  if (apply) apply.parentNode.hidden = true;  // the script fills the options itself
})();
