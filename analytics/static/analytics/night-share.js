// A game night through the phone's share sheet: the PNG as a file where the browser can share files
// (navigator.canShare), else the link alone; the download link stays for browsers without the Web Share API.
// The image is fetched when the page loads, so that the tap itself calls navigator.share (browsers require it
// to happen in the tap's own handler).
(function () {
  "use strict";
  var button = document.getElementById("night-share");
  var status = document.getElementById("night-share-status");
  if (!button || !navigator.share) return;
  var file = null;
  fetch(button.dataset.image, { credentials: "same-origin" })
    .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.blob(); })
    .then(function (blob) {
      var candidate = new File([blob], "night.png", { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [candidate] })) file = candidate;
    })
    .catch(function () { /* the link alone */ });
  button.hidden = false;
  button.addEventListener("click", function () {
    var data = { title: button.dataset.title, url: button.dataset.url };
    if (button.dataset.text) data.text = button.dataset.text;  // the night's story, for a message without the image
    if (file) data.files = [file];
    navigator.share(data).catch(function (err) {
      if (err && err.name !== "AbortError" && status) status.textContent = String(err.message || err);
    });
  });
})();
