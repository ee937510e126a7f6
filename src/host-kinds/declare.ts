/**
 * Kinds of items a host adds beside events, venues and organizers (README "Extending: kinds"):
 * each declared once with `kind()`, under the collection that names its routes. Its items are
 * posts with a name, a description, an excerpt, a slug, an image and a status, written and read
 * on the rules venues and organizers follow; its own values are the fields the host declares
 * for its collection (`fields`). Routes, arguments, JSON, the index, `/doc`, tRPC, the change
 * feed and webhooks all take it from the declaration (`host-kinds/registry.ts`).
 */

/** One kind, as a host declares it. */
export interface KindDeclaration {
  /**
   * The singular noun of its items (`sponsor`): the key of an item's name in its JSON and in
   * writes, the change feed's and webhooks' `kind`, error codes (`sponsor-is-in-trash`) and the
   * permalink base. Lower-case letters, digits and `_`, at most 16 (it is stored with each item).
   */
  readonly noun: string;
}

/** Declares a kind: `kinds: { sponsors: kind({ noun: 'sponsor' }) }`. */
export function kind<const D extends KindDeclaration>(declaration: D): D {
  return declaration;
}

/** The host's kinds, by collection (the path segment: `/sponsors`). */
export type KindsOption = Readonly<Record<string, KindDeclaration>>;
