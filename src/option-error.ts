/** The error of an option a host set wrong: which one, what it was, and what it takes. */
export function invalidOption(name: string, value: unknown, takes: string): TypeError {
  return new TypeError(`calendar-events-rest: option \`${name}\` is ${shown(value)}; it takes ${takes}.`);
}

/** A value as a message shows it: JSON where it has one, with any URL password hidden. */
function shown(value: unknown): string {
  const text = typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
  return text.replace(/(\/\/[^/:@\s]*:)[^/@\s]*@/, '$1***@');
}
