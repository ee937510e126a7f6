/** Removes the keys whose value PHP calls empty (`""`, `"0"`, `0`, `false`, `null`, `[]`), as `array_filter`. */
export function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === '' || v === '0' || v === 0 || v === false || v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** WordPress' truthy words (`tribe_is_truthy`): `1`, `true`, `yes`, `on`, `y`, `enable(d)`. */
export function isTruthy(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['1', 'true', 'yes', 'on', 'y', 'enable', 'enabled'].includes(value.trim().toLowerCase());
}
