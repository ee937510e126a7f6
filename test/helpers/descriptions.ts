/** The JSON with every string `description` replaced by `D`: what must not change with the locale. */
export function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'description' && typeof v === 'string' ? 'D' : skeleton(v)]));
  }
  return value;
}

/** Every string `description` of a JSON value, in document order. */
export function descriptions(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => descriptions(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'description' && typeof v === 'string') out.push(v);
      else descriptions(v, out);
    }
  }
  return out;
}
