// The layers of src/, checked by `npm run lint` (docs/architecture.md explains them). From the top:
//   main.ts, app.ts, cli/            wire everything together
//   openapi/                         the description of every transport
//   api/ mcp/ websub/ site/ operations/   one transport each, a Fastify plugin
//   http/                            plumbing every transport may use
//   import/ insights/ demo/          the domain's work: imports and matching, analysis, the demo business
//   publishing/                      versions and their representations
//   store/                           the source of truth
//   reviews/                         the model: schemas, snapshot, search, renderers (no I/O)
// plus the leaf modules config.ts, compress.ts, fingerprint.ts, poll.ts.
const TRANSPORTS = '^src/(api|mcp|websub|site|operations)/';
const ENTRY = '^src/(main|app)\\.ts$|^src/cli/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports: one of its modules should not know the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'transport-only-from-entry',
      severity: 'error',
      comment: 'Only app.ts (and the CLI that serves, and openapi/ which describes them) import a transport.',
      from: { pathNot: [ENTRY, '^src/openapi/', TRANSPORTS] },
      to: { path: TRANSPORTS },
    },
    {
      name: 'transport-not-another',
      severity: 'error',
      comment: 'A transport does not import another: what two share belongs in http/ or below.',
      from: { path: '^src/(api|mcp|websub|site|operations)/' },
      to: { path: TRANSPORTS, pathNot: '^src/$1/' },
    },
    {
      name: 'openapi-only-from-entry',
      severity: 'error',
      comment: 'The description sits above the transports: only app.ts hands it to the API that serves it.',
      from: { pathNot: [ENTRY, '^src/openapi/'] },
      to: { path: '^src/openapi/' },
    },
    {
      name: 'http-below-transports',
      severity: 'error',
      comment: 'http/ is plumbing every transport uses: it knows none of them.',
      from: { path: '^src/http/' },
      to: { path: [TRANSPORTS, '^src/openapi/', ENTRY] },
    },
    {
      name: 'domain-knows-no-http',
      severity: 'error',
      comment: 'The domain, publishing and the store know nothing of HTTP or of what wires them.',
      from: { path: '^src/(reviews|insights|import|demo|publishing|store)/' },
      to: { path: ['^src/http/', '^src/openapi/', ENTRY] },
    },
    {
      name: 'publishing-below-domain',
      severity: 'error',
      comment: 'Publishing serves what the domain makes; it asks for insights through its own InsightsBuilds port.',
      from: { path: '^src/publishing/' },
      to: { path: '^src/(insights|import|demo)/' },
    },
    {
      name: 'store-below-publishing',
      severity: 'error',
      comment: 'The store keeps data; it knows nothing of what is made from it.',
      from: { path: '^src/store/' },
      to: { path: '^src/(publishing|insights|import|demo)/' },
    },
    {
      name: 'model-is-pure',
      severity: 'error',
      comment: 'reviews/ is the model everyone uses: it imports only itself and the leaf modules.',
      from: { path: '^src/reviews/' },
      to: { path: '^src/', pathNot: ['^src/reviews/', '^src/(fingerprint|compress)\\.ts$'] },
    },
    {
      name: 'leaves-are-leaves',
      severity: 'error',
      comment: 'config.ts, compress.ts, fingerprint.ts and poll.ts are used everywhere and use nothing of src.',
      from: { path: '^src/(compress|fingerprint|poll)\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'service-is-not-offline-work',
      severity: 'error',
      comment: 'Nothing that ships imports the training, the bench or the tests.',
      from: { path: '^src/' },
      to: { path: '^(training|bench|test)/' },
    },
    {
      name: 'demo-only-from-cli',
      severity: 'error',
      comment: 'The demo generator runs for the CLI (`demo`, `serve --demo`); a server never generates the demo.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/demo/'] },
      to: { path: '^src/demo/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
