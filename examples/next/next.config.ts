import type { NextConfig } from 'next';

const config: NextConfig = {
  // `/wp-json/…/events/` must reach the API like `/wp-json/…/events` (WordPress ignores the slash).
  skipTrailingSlashRedirect: true,
  // The repository's own `tsc` checks these files (and the library) with its settings.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // The library's sources import each other as `./x.js` (TypeScript's ESM convention), which
    // webpack resolves with this alias (hence `next build --webpack`); an installed package needs neither.
    extensionAlias: { '.js': ['.ts', '.js'] },
    // Smaller, faster builds of a server-only app.
    serverMinification: false,
  },
};

export default config;
