import type { Resource } from '../resource.js';
import { resourceDoc } from '../doc/resources.js';
import { CATEGORIES, TAGS } from './args.js';
import { termRoutes } from './routes.js';

/** Event categories: `/categories` (hierarchical). */
export const categories: Resource = {
  collection: 'categories',
  routes: termRoutes(CATEGORIES),
  doc: resourceDoc('categories', {
    schema: 'Term',
    body: 'read+create',
    readForbidden: false,
    updateResponse: true,
    noun: 'Category',
    trash: false,
    writeNotFound: false,
  }),
};

/** Tags: `/tags`. */
export const tags: Resource = {
  collection: 'tags',
  routes: termRoutes(TAGS),
  doc: resourceDoc('tags', { schema: 'Term', body: 'create', readForbidden: false, updateResponse: true, noun: 'Tag', trash: false, writeNotFound: false }),
};
