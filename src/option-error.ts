/**
 * The error of an option a host set wrong: which one, what it was, and what it takes; `where`
 * names the call when it is not `createCalendar` (`calendarRouter`).
 */
export function invalidOption(name: string, value: unknown, takes: string, where?: string): TypeError {
  return new TypeError(`calendar-events-rest: ${where ? `${where} ` : ''}option \`${name}\` is ${shown(value)}; it takes ${takes}.`);
}

/** Text naming a database URL with the URL's password replaced by `***`, for messages and logs. */
export function hidePassword(text: string): string {
  return text.replace(/(\/\/[^/:@\s]*:)[^/@\s]*@/g, '$1***@');
}

/**
 * A value as a message shows it: a string, number or boolean as JSON (a URL's password
 * hidden), anything else by its kind only, as an object may hold secrets or refer to itself.
 */
function shown(value: unknown): string {
  if (typeof value === 'string') return hidePassword(JSON.stringify(value));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? `an object (${name})` : 'an object';
}

/** The error of an argument a host gave an adapter wrong (`calendarRouter(calendar)`): which one, what it was, and what it takes. */
export function invalidArgument(call: string, name: string, value: unknown, takes: string): TypeError {
  return new TypeError(`calendar-events-rest: ${call}: \`${name}\` is ${shown(value)}; it takes ${takes}.`);
}
