// "Notify this device" on the settings page (notify.push): registers the service worker
// (/sw.js, scope /), subscribes with the site's VAPID key and posts the subscription.
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var button = box.querySelector("[data-push-subscribe]");
  var status = box.querySelector("[data-push-status]");
  function say(text) {
    status.textContent = text;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupported);
    button.disabled = true;
    return;
  }
  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function subscription(registration) {
    return registration.pushManager.getSubscription().then(function (found) {
      return (
        found ||
        registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        })
      );
    });
  }
  button.addEventListener("click", function () {
    button.disabled = true;
    say(box.dataset.working);
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error(box.dataset.denied);
        return navigator.serviceWorker.register(box.dataset.worker, { scope: "/" });
      })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(subscription)
      .then(function (found) {
        var body = found.toJSON();
        body.name = box.querySelector("[data-push-name]").value;
        return fetch(box.dataset.url, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
          body: JSON.stringify(body),
        });
      })
      .then(function (response) {
        if (response.ok) {
          window.location.reload();
          return;
        }
        return response.json().then(function (data) {
          throw new Error(data.error || box.dataset.failed);
        });
      })
      .catch(function (error) {
        say((error && error.message) || box.dataset.failed);
        button.disabled = false;
      });
  });
})();
