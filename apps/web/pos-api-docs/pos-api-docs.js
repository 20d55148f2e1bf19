// Swagger UI for the console's POS API screen (framed there, or opened in its own tab): the POS
// endpoints first, then the admin API in the document's order. A file, not inline: the CSP forbids inline.
(() => {
  const first = ['POS API'];
  const rank = (tag) => {
    const i = first.indexOf(tag);
    return i === -1 ? first.length : i;
  };
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    tryItOutEnabled: true,
    // Array.prototype.sort is stable: tags of equal rank keep the document's order.
    tagsSorter: (a, b) => rank(a) - rank(b),
  });
})();
