// The game page's banks count down in the browser, once a second, from the time left
// the server gave and the moment it gave it (data-bank-at): no request. A bank stops at
// data-bank-until (a weekend begins, or it runs out). Boards swapped in by htmx are
// found by the next tick.
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // The same text as games_tags.countdown: "1 d 03:12:45".
  function countdown(seconds, dayUnit) {
    seconds = Math.max(0, Math.floor(seconds));
    var days = Math.floor(seconds / 86400);
    var rest = seconds % 86400;
    var text = pad(Math.floor(rest / 3600)) + ":" + pad(Math.floor((rest % 3600) / 60)) + ":" + pad(rest % 60);
    return days ? days + " " + dayUnit + " " + text : text;
  }

  function tick() {
    var now = Date.now() / 1000;
    document.querySelectorAll("[data-bank-left]").forEach(function (bank) {
      var left = Number(bank.dataset.bankLeft);
      if (bank.dataset.bankRunning === "1") {
        var at = Number(bank.dataset.bankAt);
        var until = bank.dataset.bankUntil ? Number(bank.dataset.bankUntil) : now;
        left -= Math.max(0, Math.min(now, until) - at);
      }
      var out = bank.querySelector(".bank-left");
      var text = countdown(left, bank.dataset.dayUnit || "d");
      if (out && out.textContent !== text) {
        out.textContent = text;
      }
    });
  }

  tick();
  setInterval(tick, 1000);
})();
