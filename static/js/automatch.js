// Automatch (automatch/): a page that shows the player's open tickets asks where they
// stand every few seconds (#automatch-watch, an htmx poll that the server answers with
// HX-Redirect to the new game once one is matched). When the page has a live stream
// (live/), a "badge" event, sent to each player of a game that starts, asks at once.
(function () {
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && !source.pbwAutomatch) {
      source.pbwAutomatch = true;
      source.addEventListener("badge", function () {
        if (window.htmx) htmx.trigger(document.body, "automatch-news");
      });
    }
  });
})();
