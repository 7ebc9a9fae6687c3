// Live updates (live/). The page's stream ([data-live], opened by htmx's SSE extension)
// tells of each change the moment it is committed: "game" events carry the game's
// version and chat count, "badge" events say that the menu's badge may have changed.
// The page then fetches the change as its poll would have, through the poll's own view
// at /live/changes (the same gate and render cache): nothing secret is on the stream.
// While the stream is open the page does not poll; while it is not (Redis down, a
// server restarting, too many tabs), the poll runs as before and catches up.
(function () {
  var wanted = null; // the newest {v, c} a game event announced

  function liveElement() {
    return document.querySelector("[data-live]");
  }

  function isOpen() {
    var live = liveElement();
    return !!live && live.dataset.liveState === "open";
  }

  function setState(event, state) {
    var live = event.target;
    if (live instanceof Element && live.matches("[data-live]")) live.dataset.liveState = state;
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && !source.pbwListening) {
      source.pbwListening = true;
      source.addEventListener("game", onGame);
      source.addEventListener("badge", onBadge);
    }
    setState(event, "open");
  });
  document.addEventListener("htmx:sseError", function (event) {
    setState(event, "closed");
  });
  document.addEventListener("htmx:sseClose", function (event) {
    setState(event, "closed");
  });

  // The poll stands still while the stream is open (the stream's own fetches go to
  // /live/changes and pass).
  document.addEventListener("htmx:confirm", function (event) {
    var detail = event.detail;
    if (isOpen() && detail && /\/poll(\?|$)/.test(detail.path || "")) event.preventDefault();
  });

  function onGame(event) {
    var parts = String(event.data || "").split(" ");
    if (parts.length !== 2) return;
    wanted = { v: Number(parts[0]), c: Number(parts[1]) };
    catchUp();
  }

  // Fetch what the page lacks, unless a request of the page is under way (a move's own
  // answer may bring it): then once that has settled.
  function catchUp() {
    var live = liveElement();
    var poll = document.getElementById("game-poll");
    if (!wanted || !live || !poll || !live.dataset.changes || !window.htmx) return;
    var url = new URL(poll.getAttribute("hx-get"), window.location.href);
    var have = { v: Number(url.searchParams.get("v")), c: Number(url.searchParams.get("c")) };
    if (have.v >= wanted.v && have.c >= wanted.c) {
      wanted = null; // the page shows it already (its own move, or an earlier fetch)
      return;
    }
    if (document.querySelector(".htmx-request")) return;
    htmx.ajax("GET", live.dataset.changes + url.search, {
      source: poll,
      target: poll.getAttribute("hx-target") || poll,
      swap: poll.getAttribute("hx-swap") || "innerHTML",
    });
  }

  document.addEventListener("htmx:afterSettle", catchUp);
  // Also after a request that swapped nothing (a refusal, a cut connection): a moment
  // later, so that a swap still settling is not fetched twice.
  document.addEventListener("htmx:afterRequest", function (event) {
    window.setTimeout(catchUp, event.detail && event.detail.successful ? 500 : 3000);
  });

  // One badge fetch at a time, and one more after it if news came meanwhile (the first
  // may have counted before the second change). Not htmx's own queue: that is kept on
  // the badge element, which the first fetch replaces, and would be lost with it.
  var badgeFetching = false;
  var badgeAgain = false;

  function onBadge() {
    if (badgeFetching) {
      badgeAgain = true;
      return;
    }
    var live = liveElement();
    var badge = document.getElementById("turn-badge");
    if (!live || !badge || !live.dataset.badge || !window.htmx) return;
    badgeFetching = true;
    var settled = function () {
      badgeFetching = false;
      if (badgeAgain) {
        badgeAgain = false;
        onBadge();
      }
    };
    var request = htmx.ajax("GET", live.dataset.badge, {
      source: badge,
      target: badge,
      swap: "outerHTML",
    });
    Promise.resolve(request).then(settled, settled);
  }
})();
