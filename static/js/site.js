// Swap 4xx answers too: the server sends the board with the error message in it.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "4..", swap: true, error: false },
    { code: "...", swap: false, error: true },
  ];
});
