/**
 * PHP 8's `is_numeric` for strings: optional surrounding white space, sign, decimal
 * digits with at most one `.`, optional exponent. No quantifier below can give
 * characters to a neighbour that also accepts them, so matching stays linear.
 */
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP's `is_numeric()` applied to a string (`" 1"`, `"+1"`, `"1e0"`, `"1."`). */
export function isPhpNumeric(text: string): boolean {
  return PHP_NUMERIC.test(text);
}

/**
 * The integer PHP sees in a number or numeric string whose value is whole (`"1e0"`, `" 2"`,
 * `"3.0"`), as WordPress' `rest_is_integer` accepts it; `undefined` for anything else, or
 * beyond what a JavaScript number holds exactly.
 */
export function phpInteger(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && isPhpNumeric(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}
