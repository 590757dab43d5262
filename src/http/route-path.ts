// Route templates as the public documents write them (`/reviews/{id}`), in Fastify's syntax (`/reviews/:id`).
export const fastifyPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');
