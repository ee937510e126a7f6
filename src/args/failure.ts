/** One failing parameter: its message and, when it carried its own error, the detail. */
export interface ParamFailure {
  message: string;
  detail?: { code: string; message: string; data: Record<string, unknown> };
}

/** The message WordPress gives a plain validator failure. */
export const INVALID_PARAMETER = 'Invalid parameter.';
