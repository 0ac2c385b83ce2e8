import * as z from "zod";

const UINT32_MAX = 4_294_967_295;

/** An optional whole number that fits a proto uint32, described for the model. */
export function optionalCount(description: string, min = 0): z.ZodOptional<z.ZodNumber> {
  return z.number().int().min(min).max(UINT32_MAX).describe(description).optional();
}

/** The budget_tokens argument shared by the reading tools. */
export const budgetTokensField = optionalCount("Most tokens the answer may hold; leave out for Loupe's default (about 2,000). A larger range comes in pages.");
