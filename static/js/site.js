// Swap 4xx answers too: the server sends the board with the error message in it.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "40[039]", swap: true, error: false },
    { code: "...", swap: false, error: true },
  ];
});

// The tab title follows the board ("Your turn · ..."), also after HTMX swaps.
document.addEventListener("htmx:afterSettle", function () {
  var area = document.getElementById("board-area");
  if (area && area.dataset.title) document.title = area.dataset.title;
});

// Clickable SVG parts of a board are <a href="#..." hx-post=...>: with HTMX the
// request replaces the board, so the fragment jump (the no-JS fallback) is skipped.
document.addEventListener("click", function (event) {
  if (!window.htmx || !(event.target instanceof Element)) return;
  var link = event.target.closest("svg a[hx-post]");
  if (link) event.preventDefault();
});
