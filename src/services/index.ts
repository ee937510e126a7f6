import type { Store } from '../store/index.js';
import type { PostStore } from '../store/posts.js';
import { TermService } from './terms.js';

/** The business rules of the calendar, by resource. */
export interface Services {
  terms: TermService;
  posts: PostStore;
}

/** Builds the services over a store. */
export function createServices(store: Store): Services {
  return { terms: new TermService(store), posts: store.posts };
}
