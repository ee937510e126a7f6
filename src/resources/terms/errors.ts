/** The errors term routes and rules answer with: each code and message written once, as WordPress words them. */
import { ApiError, apiError } from '../../http/errors.js';

/** 404 `rest_term_invalid`: no term of the taxonomy has this id. */
export const termNotFound = (): ApiError => apiError('rest_term_invalid', 'Term does not exist.', 404);

/** 400 `term_exists`: a term of this name exists (with this parent, for categories); its id in `data` and `additional_data`. */
export function termExists(hierarchical: boolean, id: number): ApiError {
  const message = hierarchical
    ? 'A term with the name provided already exists with this parent.'
    : 'A term with the name provided already exists in this taxonomy.';
  return new ApiError('term_exists', message, { status: 400, term_id: id }, { additional_data: [id, id] });
}

/** 400 `duplicate_term_slug`: another term has the slug. */
export const duplicateTermSlug = (slug: string): ApiError =>
  apiError('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400);

/** 400 `empty_term_name`: a name that sanitises to nothing. */
export const emptyTermName = (): ApiError => apiError('empty_term_name', 'A name is required for this term.', 400);

/** 400 `db_insert_error`: a create with values wider than the columns (WordPress' database layer refuses them). */
export const termNotInserted = (): ApiError => apiError('db_insert_error', 'Could not insert term into the database.', 400);

/** 400 `db_update_error`: an update with values wider than the columns. */
export const termNotUpdated = (): ApiError => apiError('db_update_error', 'Could not update term in the database.', 400);

/** 400 `rest_taxonomy_not_hierarchical`: a `parent` sent for tags. */
export const notHierarchical = (): ApiError => apiError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400);
