// The push service worker (notify.push): shows what the site pushed and opens the game
// when the notification is clicked. Served from /sw.js, so its scope is the whole site.
self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: event.data.text() };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Play by Web", {
      body: data.body || "",
      tag: data.tag || undefined,
      icon: "/static/favicon.svg",
      data: { url: data.url || "/" },
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  // Only pages of this site: a push never sends the player elsewhere.
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(self.clients.openWindow(url.href));
});
