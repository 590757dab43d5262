// Starts Swagger UI on /docs over this service's OpenAPI description (no validator, nothing from another origin).
'use strict';

window.addEventListener('load', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/.well-known/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
