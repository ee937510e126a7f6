/**
 * PHP's `empty()` of a decoded request value: absent, `null`, `false`, `0`, `""`, `"0"`, or an
 * empty array, which a JSON `[]` and `{}` both become in PHP.
 */
export function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}

/** What {@link dropEmpty} leaves of an object: any key may be gone, and none holds `false` or `null`. */
export type NonEmptyValues<T> = { [K in keyof T]?: Exclude<T[K], false | null | undefined> };

/** Removes the keys whose value PHP calls empty, as `array_filter` without a callback. */
export function dropEmpty<T extends object>(obj: T): NonEmptyValues<T> {
  // The entries kept are the object's own, minus every `false`, `null` and `undefined` value.
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => !phpEmpty(v))) as NonEmptyValues<T>;
}

/** WordPress' truthy words (`tribe_is_truthy`): `1`, `true`, `yes`, `on`, `y`, `enable(d)`. */
export function isTruthy(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['1', 'true', 'yes', 'on', 'y', 'enable', 'enabled'].includes(value.trim().toLowerCase());
}
