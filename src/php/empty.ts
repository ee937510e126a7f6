/**
 * PHP's `empty()` of a decoded request value: absent, `null`, `false`, `0`, `""`, `"0"`, or an
 * empty array, which a JSON `[]` and `{}` both become in PHP.
 */
export function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}

/** Removes the keys whose value PHP calls empty, as `array_filter` without a callback. */
export function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!phpEmpty(v)) out[k] = v;
  return out;
}

/** WordPress' truthy words (`tribe_is_truthy`): `1`, `true`, `yes`, `on`, `y`, `enable(d)`. */
export function isTruthy(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['1', 'true', 'yes', 'on', 'y', 'enable', 'enabled'].includes(value.trim().toLowerCase());
}
