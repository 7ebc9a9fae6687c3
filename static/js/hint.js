// "Suggest a move" in a practice game: ask the server for the move (the hard computer
// player's choice, or a first game's lesson) and its reason, say both, and mark the
// board's control for it (the control carries the action in data-act).
(function () {
  "use strict";
  if (window.pbwHint) return; // the board area is swapped in again after every move
  window.pbwHint = true;

  function mark(form, data) {
    var output = form.querySelector(".hint-text");
    document.querySelectorAll(".hinted").forEach(function (el) { el.classList.remove("hinted"); });
    if (!data.ok) {
      output.textContent = data.error || "";
      return;
    }
    var target = null;
    document.querySelectorAll("#board-area [data-act]").forEach(function (el) {
      if (!target && el.getAttribute("data-act") === data.act) target = el;
    });
    output.textContent = "";
    if (data.label) {
      var label = document.createElement("strong");
      label.textContent = data.label;
      output.appendChild(label);
    }
    if (data.reason) {
      var reason = document.createElement("span");
      reason.className = "hint-reason";
      reason.textContent = data.reason;
      if (data.label) output.appendChild(document.createTextNode(" \u2013 "));
      output.appendChild(reason);
    }
    if (target) {
      target.classList.add("hinted");
      target.scrollIntoView({ block: "nearest", inline: "nearest" });
      if (typeof target.focus === "function") target.focus({ preventScroll: true });
    } else if (!data.label) {
      output.textContent = form.getAttribute("data-none");
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest ? event.target.closest("form[data-hint]") : null;
    if (!form) return;
    event.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) { return response.json(); })
      .then(function (data) { mark(form, data); })
      .catch(function () { mark(form, { ok: false, error: "" }); })
      .finally(function () { button.disabled = false; });
  });
})();
