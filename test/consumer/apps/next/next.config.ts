import type { NextConfig } from 'next';

const config: NextConfig = {
  // `/wp-json/…/events/` reaches the API like `/wp-json/…/events` (README "Next.js").
  skipTrailingSlashRedirect: true,
};

export default config;
