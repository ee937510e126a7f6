/**
 * Objects merged as a spread merges them (`{ ...a, ...b }`: the own enumerable properties of
 * each in turn, a later one winning), written for the paths every request takes.
 *
 * Node 20's V8 builds an object literal that begins with a spread and goes on with more
 * properties (or another spread) on its slow path: 0.4–1.0 million a second where
 * `Object.assign` makes 5–6 million, each such object with a hidden class of its own, and
 * enough of them reach the old generation to set off full collections under load
 * (docs/internals/benchmarks.md, "Spreads on Node 20"). Node 22 and later build the spread
 * faster than `Object.assign` (22–27 against 5–7 million a second): about 0.15 µs a call, where
 * a request costs tens. Unlike a spread, `Object.assign` would take a `__proto__` key as the
 * prototype: the parts merged here are the library's own objects, which have none.
 */
export function merged<A extends object, B extends object>(a: A, b: B): A & B;
export function merged<A extends object, B extends object, C extends object>(a: A, b: B, c: C): A & B & C;
export function merged<A extends object, B extends object, C extends object, D extends object>(a: A, b: B, c: C, d: D): A & B & C & D;
export function merged(...parts: object[]): object {
  return Object.assign({}, ...parts);
}
