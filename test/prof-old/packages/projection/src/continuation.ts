/** The fields of a Recover request that a continuation may carry (snake_case, as in the proto). */
export interface Continuation {
  result_id: string;
  start_line?: number;
  end_line?: number;
  start_byte?: number;
  end_byte?: number;
}

/**
 * Serializes a continuation as the JSON object sent as it is to Recover:
 * fields in a fixed order, numbers as JSON numbers, absent fields left out.
 */
export function continuationJson(continuation: Continuation): string {
  const ordered: Record<string, string | number> = { result_id: continuation.result_id };
  for (const key of ["start_line", "end_line", "start_byte", "end_byte"] as const) {
    const value = continuation[key];
    if (value !== undefined) ordered[key] = value;
  }
  return JSON.stringify(ordered);
}
