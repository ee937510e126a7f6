/**
 * The layers of the code, bottom to top (docs: README "Architecture"). A module may import
 * from its own layer and the layers below it, never from one above, not even a type; and no
 * module may import itself back through others (no cycles). `npm run lint` runs this check.
 */
const LAYERS = [
  // 0. Foundations: PHP semantics, dates, text, translations, caches, scheduling, JSON types, geometry.
  ['^src/(php|dates|text|i18n|cache|scheduling|schemas|geo)/', '^src/(ids|kinds|merged|option-error|options-shape)\\.ts$'],
  // 1. The store: database types, dialects, migrations, versions.
  ['^src/store/'],
  // 2. The HTTP core: requests, responses, routes, the request context, declared arguments, users.
  ['^src/(http|args|auth)/'],
  // 3. Rules shared by resources: the post lifecycle, archives, images, recurrence, the change log, iCalendar, hooks, the host's fields and kinds.
  ['^src/(posts|archive|images|recurrence|changes|ical|hooks|fields|host-kinds)/'],
  // 4. The resources: one folder per kind, the registry and the composition of their services.
  ['^src/resources/'],
  // 5. The calendar: options, composition, replicas, webhooks, the demo calendar, feeds it subscribes to.
  ['^src/(calendar|options|options-mount)\\.ts$', '^src/(replication|webhooks|seed|feeds|subscriptions)/'],
  // 6. What runs the calendar, and the public surface that exports it all: tRPC, the command line, the importer.
  ['^src/(trpc|cli|import)/', '^src/index\\.ts$'],
  // 7. Framework glue and the examples built on it.
  ['^adapters/', '^examples/'],
];

const upward = LAYERS.flatMap((layer, i) =>
  LAYERS.slice(i + 1).length
    ? [
        {
          name: `layer-${i}-imports-above`,
          comment: `layer ${i} (${layer.join(' ')}) may not import from a layer above it`,
          severity: 'error',
          from: { path: layer },
          to: { path: LAYERS.slice(i + 1).flat(), dependencyTypesNot: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'core'] },
        },
      ]
    : [],
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-cycles',
      comment: 'no module may reach itself through its imports (type-only imports included)',
      severity: 'error',
      from: { path: '^(src|adapters|examples)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|adapters|examples)/',
    // Type-only imports and `import('…')` types count: a lower layer may not even name a higher one's types.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
  },
};
