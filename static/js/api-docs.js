// The API's docs page: Swagger UI on the schema named by the page (no inline script: CSP).
(function () {
  var root = document.getElementById("swagger-ui");
  if (!root || !window.SwaggerUIBundle) return;
  window.SwaggerUIBundle({
    url: root.dataset.schema,
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: false,
  });
})();
