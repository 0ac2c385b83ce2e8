/** The `model` setting of a core or Loupe policy that takes each call's recorded model, as a hook that reads it sends it. */
export const RECORDED_MODEL = "recorded";

/** The model a call's request names under a policy's `model` setting: `recorded` takes the row's, any other is the name. */
export function requestModel(setting: string, row: { model: string }): string {
  return setting === RECORDED_MODEL ? row.model : setting;
}
