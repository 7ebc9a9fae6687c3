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

// A new board is swapped in silently: its news (what happened since the board the
// page showed, whose turn it is, or the past position shown) goes to the page's live
// region, so a screen reader says what a move or a poll brought: every step of another
// player's turn, not only its last. The same news is not repeated.
function logEntries() {
  return Array.prototype.map.call(
    document.querySelectorAll("#board-area .log-entries > li"),
    function (li) {
      var number = li.querySelector(".move-no");
      var whole = li.textContent.replace(/\s+/g, " ").trim();
      var said = number ? whole.replace(number.textContent.trim(), "").trim() : whole;
      return { key: whole, said: said };
    }
  );
}

var shownEntries = []; // the history of the board before the swap, newest first

// A past position's history is no "before": stepping back to the present is no news.
function presentEntries() {
  return document.querySelector("#board-area .board-news .news-turn") ? logEntries() : [];
}

// The entries above the newest one the page showed, oldest first (none when that one
// is gone: a take-back, or a position of the past).
function newEntries() {
  if (!shownEntries.length) return [];
  var now = logEntries();
  var keys = now.map(function (e) { return e.key; });
  var at = keys.indexOf(shownEntries[0].key);
  return at > 0 ? now.slice(0, at).reverse().map(function (e) { return e.said; }) : [];
}

function boardNews() {
  var news = document.querySelector("#board-area .board-news");
  if (!news) return "";
  var move = news.querySelector(".news-move");
  var turn = news.querySelector(".news-turn");
  if (!move && !turn) return news.textContent.trim();
  var steps = newEntries();
  var moves = steps.length ? steps.join(" ") : move ? move.textContent.trim() : "";
  return (moves + " " + (turn ? turn.textContent.trim() : "")).trim();
}
document.addEventListener("DOMContentLoaded", function () {
  var region = document.getElementById("board-news");
  if (region) region.dataset.said = boardNews();
  shownEntries = presentEntries();
});
document.addEventListener("htmx:beforeSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (target && target.id === "board-area") shownEntries = presentEntries();
});
document.addEventListener("htmx:afterSettle", function () {
  var region = document.getElementById("board-news");
  var text = boardNews();
  shownEntries = presentEntries();
  if (!region || !text || text === region.dataset.said) return;
  region.dataset.said = text;
  region.textContent = text;
});

// Clickable SVG parts of a board are <a href="#..." hx-post=...>: with HTMX the
// request replaces the board, so the fragment jump (the no-JS fallback) is skipped.
document.addEventListener("click", function (event) {
  if (!window.htmx || !(event.target instanceof Element)) return;
  var link = event.target.closest("svg a[hx-post], svg a[hx-get]");
  if (link) event.preventDefault();
});

// Every click that changes a game carries the id of the board it was made on, so
// a retry after a cut connection is recognised by the server instead of acting twice.
// The chat form lives outside the board, so its id is taken from the current board.
// It also says how many chat lines the page has (the chat's own count: a poll may
// bring new lines without a new board): the answer leaves them out if no line came
// since, and the page keeps its own (hx-preserve).
document.addEventListener("htmx:configRequest", function (event) {
  if (event.detail.verb !== "post") return;
  var area = document.getElementById("board-area");
  if (area && area.dataset.requestId) event.detail.parameters.request_id = area.dataset.requestId;
  var chat = document.getElementById("chat-lines");
  if (chat && chat.dataset.chatCount) event.detail.parameters.c = chat.dataset.chatCount;
});

// A fetch of the game's changes (the poll, or live/'s /live/changes) from a page in
// view says so: moves the player watched arrive are no news on their next look
// ("since you last looked").
document.addEventListener("htmx:configRequest", function (event) {
  var detail = event.detail;
  if (detail.verb !== "get" || !/\/(poll|live\/changes)(\?|$)/.test(detail.path || "")) return;
  if (document.visibilityState === "visible") detail.parameters.watching = "1";
});

// No inline handlers anywhere (the Content-Security-Policy forbids them).
// The chat form is emptied only when the line was taken: a refused one (too long,
// a muted player) stays in the box to be mended. Refusals are swapped in as
// answers (see responseHandling above), so "successful" alone does not tell.
document.addEventListener("htmx:afterRequest", function (event) {
  var form = event.detail.elt;
  var status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (status >= 200 && status < 300 && form.matches && form.matches("form.chat-form")) {
    form.reset();
  }
});

document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

document.addEventListener("focusin", function (event) {
  if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
});

// On a phone the boards are drawn large enough to tap, and scroll (the Tal valley,
// the King of Siam map); their button shows them whole instead. The choice is this
// browser's (localStorage) and holds for every board swapped in after. Until one is
// made, a board opens as its button asks: data-board-zoom="whole-on-phone" (the Tal
// valley, which a newcomer should first see whole) opens whole on a phone.
var BOARD_WHOLE = "board-whole";
var boardChoice = null; // "1" whole, "0" tap size; kept here where localStorage is refused
var boardZoomedHere = false; // a tap on a whole board zoomed in: for this page only

function chosenBoardZoom() {
  try {
    return localStorage.getItem(BOARD_WHOLE);
  } catch (error) {
    return boardChoice;
  }
}

function boardWhole(button) {
  if (boardZoomedHere) return false;
  var chosen = chosenBoardZoom();
  if (chosen === "1" || chosen === "0") return chosen === "1";
  return button.dataset.boardZoom === "whole-on-phone" &&
    window.matchMedia("(max-width: 760px)").matches;
}

function applyBoardZoom() {
  document.querySelectorAll("[data-board-zoom]").forEach(function (button) {
    var whole = boardWhole(button);
    button.parentElement.classList.toggle("whole", whole);
    button.setAttribute("aria-pressed", whole ? "true" : "false");
  });
}

document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-board-zoom]");
  if (!button) return;
  boardChoice = boardWhole(button) ? "0" : "1";
  boardZoomedHere = false;
  try {
    localStorage.setItem(BOARD_WHOLE, boardChoice);
  } catch (error) {
    // kept in boardChoice
  }
  centreBoards();
});

// A tap on a board shown whole (on a phone, where its targets are too small to aim
// at) zooms in where it fell instead of acting; the targets are then tap-sized. A key
// pressed on a focused target (a click with no pointer: detail 0) acts as ever.
document.addEventListener("click", function (event) {
  if (!event.detail || !event.target.closest) return;
  var box = event.target.closest(".whole > .board-scroll");
  var button = box && box.parentElement.querySelector("[data-board-zoom]");
  if (!button || !button.offsetParent) return; // whole anyway: a wide screen
  event.preventDefault();
  event.stopPropagation();
  var drawing = box.firstElementChild;
  var before = drawing.getBoundingClientRect();
  var x = (event.clientX - before.left) / before.width;
  var y = (event.clientY - before.top) / before.height;
  boardZoomedHere = true;
  applyBoardZoom();
  var after = drawing.getBoundingClientRect();
  box.scrollLeft = x * after.width - box.clientWidth / 2;
  box.scrollTop = y * after.height - box.clientHeight / 2;
}, true);
document.addEventListener("DOMContentLoaded", applyBoardZoom);

// A board wider than the screen (the Tal valley, the Siam map on a phone) scrolls;
// centre what matters: the chosen figure, else the first thing to click, else what the
// board marks as its focus (the province fought over), else its middle.
function centreBoards() {
  applyBoardZoom();
  document.querySelectorAll(".board-scroll").forEach(function (box) {
    if (box.scrollWidth <= box.clientWidth) return;
    var mark = box.querySelector(".tok.chosen, .pickslot.chosen, a.act") ||
      box.querySelector(".board-focus");
    if (mark) {
      var a = box.getBoundingClientRect();
      var b = mark.getBoundingClientRect();
      box.scrollLeft += b.left - a.left + b.width / 2 - box.clientWidth / 2;
      box.scrollTop += b.top - a.top + b.height / 2 - box.clientHeight / 2;
    } else {
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
      box.scrollTop = (box.scrollHeight - box.clientHeight) / 3;
    }
  });
}
window.addEventListener("load", centreBoards);
document.addEventListener("htmx:afterSettle", centreBoards);

// "Your turn" while the tab is open: the poll swaps in a board whose data-my-turn
// turned to 1. A sound and/or a browser notification, each off until the player
// ticks it on the game page (kept in localStorage: a setting of this browser).
// The notification permission is asked on that tick, never on load.
var NOTICE_KEY = "pbw-turn-notices";

function noticeSettings() {
  try {
    return JSON.parse(localStorage.getItem(NOTICE_KEY)) || {};
  } catch (e) {
    return {};
  }
}

function initNoticeToggles() {
  var settings = noticeSettings();
  document.querySelectorAll("[data-tab-notices] input[data-notice]").forEach(function (box) {
    box.checked = !!settings[box.dataset.notice];
  });
}

document.addEventListener("change", function (event) {
  var box = event.target;
  if (!box.matches || !box.matches("[data-tab-notices] input[data-notice]")) return;
  var settings = noticeSettings();
  settings[box.dataset.notice] = box.checked;
  localStorage.setItem(NOTICE_KEY, JSON.stringify(settings));
  if (box.dataset.notice === "notify" && box.checked && "Notification" in window &&
      Notification.permission === "default") {
    Notification.requestPermission();
  }
});

var wasMyTurn = null;

function turnNotice() {
  var area = document.getElementById("board-area");
  if (!area || !area.dataset.myTurn) return;
  var mine = area.dataset.myTurn === "1";
  var became = wasMyTurn === false && mine;
  wasMyTurn = mine;
  if (!became) return;
  var settings = noticeSettings();
  var done = [];
  if (settings.sound) {
    var box = document.querySelector("[data-tab-notices][data-sound]");
    if (box) {
      var sound = new Audio(box.dataset.sound);
      var playing = sound.play();
      if (playing && playing.catch) playing.catch(function () {});
      done.push("sound");
    }
  }
  if (settings.notify && "Notification" in window && Notification.permission === "granted") {
    new Notification(area.dataset.title || document.title);
    done.push("notify");
  }
  // Read by the browser test: which notices the last turn change gave.
  document.documentElement.dataset.turnNotice = done.join(" ") || "none";
}

window.addEventListener("load", function () {
  initNoticeToggles();
  turnNotice();
});
document.addEventListener("htmx:afterSettle", turnNotice);

// A button with data-copy="#id" copies that field's text (the invite link).
document.addEventListener("click", function (event) {
  if (!(event.target instanceof Element)) return;
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var field = document.querySelector(button.dataset.copy);
  if (!field) return;
  var done = function () {
    button.textContent = button.dataset.copied || button.textContent;
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, function () {
      field.select();
    });
  } else {
    field.select();
    if (document.execCommand("copy")) done();
  }
});

// The time-zone field starts with the browser's own zone while it still holds the default.
document.addEventListener("DOMContentLoaded", function () {
  var field = document.querySelector("select[data-browser-time-zone]");
  if (!field || field.value !== field.dataset.browserTimeZone) return;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (zone && field.querySelector('option[value="' + zone.replace(/"/g, "") + '"]')) field.value = zone;
});

// Settings: a browser in another time zone than the saved one is pointed out, never
// applied unasked (UTC, the default, may be a choice). The button puts it in the field.
document.addEventListener("DOMContentLoaded", function () {
  var hint = document.querySelector("[data-zone-hint]");
  var field = document.querySelector("select[name=time_zone]");
  if (!hint || !field) return;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone || zone === field.value) return;
  if (!field.querySelector('option[value="' + zone.replace(/"/g, "") + '"]')) return;
  hint.querySelector("[data-zone-name]").textContent = zone;
  hint.hidden = false;
  hint.querySelector("[data-use-zone]").addEventListener("click", function () {
    field.value = zone;
    hint.hidden = true;
    field.focus();
  });
});

// The history steps with the arrow keys (Back and Forward), unless the key is meant for
// something else: typing, a scrolled board, a pressed modifier.
document.addEventListener("keydown", function (event) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var target = event.target;
  if (target.closest && target.closest("input, textarea, select, [contenteditable], .board-scroll")) return;
  var link = document.querySelector('.history-nav a[rel="' + (event.key === "ArrowLeft" ? "prev" : "next") + '"]');
  if (!link) return;
  event.preventDefault();
  link.click();
});

// The board is drawn anew after every move and refresh: a keyboard player's focus
// would fall back to the page, and the next Tab start from the top. It goes back
// to the same control when the new board has it, else to the board's prompt.
var boardFocus = null;

document.addEventListener("htmx:beforeSwap", function () {
  var board = document.getElementById("part-board"); // the drawn board (games.fragments)
  var active = document.activeElement;
  boardFocus = null;
  if (!board || !active || !board.contains(active)) return;
  boardFocus = { act: active.getAttribute("data-act"), id: active.id };
});

document.addEventListener("htmx:afterSettle", function () {
  var area = document.getElementById("board-area");
  if (!boardFocus || !area) return;
  var wanted = boardFocus;
  boardFocus = null;
  if (area.contains(document.activeElement) && document.activeElement !== area) return;
  var same = null;
  if (wanted.id) same = document.getElementById(wanted.id);
  if (!same && wanted.act) {
    area.querySelectorAll("[data-act]").forEach(function (el) {
      if (!same && el.getAttribute("data-act") === wanted.act && el.getAttribute("tabindex") !== "-1") same = el;
    });
  }
  var target = same || area.querySelector(".board-status, .prompt") || area;
  if (!same && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: !!same });
});

// "Since your last turn" (games/_catchup.html): "Play all" follows the next step every
// 1.5 seconds until the present, or until it is pressed again. The button is hidden
// without script: the steps are links.
var catchupPlaying = false;
var catchupTimer = null;
function catchupTick() {
  clearTimeout(catchupTimer);
  var bar = document.querySelector("[data-catchup]");
  var button = bar && bar.querySelector("[data-catchup-play]");
  var next = bar && bar.querySelector('a[rel="next"]');
  if (!next) catchupPlaying = false;
  if (button) {
    button.hidden = false;
    button.textContent = catchupPlaying ? button.dataset.pause : button.dataset.play;
    button.setAttribute("aria-pressed", catchupPlaying ? "true" : "false");
  }
  if (catchupPlaying && next) catchupTimer = setTimeout(function () { next.click(); }, 1500);
}
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-catchup-play]");
  if (!button) return;
  catchupPlaying = !catchupPlaying;
  catchupTick();
});
document.addEventListener("DOMContentLoaded", catchupTick);
document.addEventListener("htmx:afterSettle", catchupTick);
