import { defineConfig } from 'vitepress';

/** The documentation site: `npm run docs:build` (output in docs/.vitepress/dist, not committed). */
export default defineConfig({
  title: 'calendar-events-rest',
  description: 'An events-calendar REST API for any Node server, compatible with The Events Calendar REST API v1.',
  // A link to a page that does not exist fails the build (VitePress' default, kept on purpose).
  ignoreDeadLinks: false,
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Options', link: '/reference/options' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'API reference', link: '/api-reference' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/getting-started' },
          { text: 'Installation and Node versions', link: '/guide/installation' },
          { text: 'The calendar web page', link: '/guide/calendar-page' },
          { text: 'Importing iCalendar and CSV, subscriptions', link: '/guide/subscriptions' },
        ],
      },
      {
        text: 'Hosts',
        items: [
          { text: 'Hosts and examples', link: '/hosts/' },
          { text: 'Express', link: '/hosts/express' },
          { text: 'Fastify', link: '/hosts/fastify' },
          { text: 'Next.js', link: '/hosts/next' },
          { text: 'Fetch runtimes and Hono', link: '/hosts/fetch' },
          { text: 'Plain Node, Koa, Connect', link: '/hosts/node' },
          { text: 'tRPC', link: '/hosts/trpc' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'The API and the original', link: '/concepts/api' },
          { text: 'Users and roles', link: '/concepts/users-and-roles' },
          { text: 'Cookie sessions and CSRF', link: '/concepts/sessions-and-csrf' },
          { text: 'Caching and ETags', link: '/concepts/caching' },
          { text: 'Change feed and webhooks', link: '/concepts/changes' },
          { text: 'Calendar feeds (iCalendar)', link: '/concepts/feeds' },
          { text: 'Recurring events', link: '/concepts/recurring-events' },
          { text: 'Search', link: '/concepts/search' },
          { text: 'Venue coordinates and distance', link: '/concepts/geo' },
          { text: 'Read replicas', link: '/concepts/replicas' },
          { text: 'Extending: fields, routes, hooks', link: '/concepts/extending' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Options', link: '/reference/options' },
          { text: 'Command line', link: '/reference/cli' },
          { text: 'HTTP API (OpenAPI)', link: '/api-reference' },
        ],
      },
      {
        text: 'Recipes',
        items: [
          { text: 'Behind a reverse proxy', link: '/recipes/reverse-proxy' },
          { text: 'Several instances on PostgreSQL', link: '/recipes/postgres-instances' },
          { text: 'Migrating a WordPress site', link: '/recipes/wordpress' },
          { text: 'Subscribing from calendar apps', link: '/recipes/calendar-apps' },
        ],
      },
      { text: 'Security and limits', link: '/security' },
      {
        text: 'Internals',
        items: [
          { text: 'Architecture', link: '/internals/architecture' },
          { text: 'Tests', link: '/internals/tests' },
          { text: 'Benchmarks', link: '/internals/benchmarks' },
          { text: 'Decisions', link: '/internals/decisions' },
        ],
      },
    ],
  },
});
