import { readFile } from "node:fs/promises";
import { AppError, isAppError } from "@loupe/errors";
import { parseViewSpecs, type ViewSpec } from "@loupe/projection";

/**
 * Reads the field-view specs file (LOUPE_VIEW_SPECS_FILE), or none.
 * @throws AppError `invalid_argument` naming the file and every problem in it
 */
export async function loadViewSpecs(path: string | undefined): Promise<ViewSpec[]> {
  if (path === undefined) return [];
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new AppError("invalid_argument", `cannot read LOUPE_VIEW_SPECS_FILE [path=${path}]`, { cause: error });
  }
  try {
    return parseViewSpecs(text);
  } catch (error) {
    if (isAppError(error)) throw new AppError("invalid_argument", `LOUPE_VIEW_SPECS_FILE is invalid [path=${path}]: ${error.message}`, { cause: error });
    throw error;
  }
}
