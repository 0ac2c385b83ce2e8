import { list, record, str } from "./conversation.js";

/**
 * The smallest value that follows a JSON schema (OpenAPI-style `type` names in either case, as
 * Gemini's `responseSchema` writes them): the first `enum` value, every declared property of an
 * object, `[]`, `""`-free strings (`"ok"`), `0` and `false`. Runtimes' JSON side requests (Gemini
 * CLI's next-speaker check, its model router) parse the answer against the schema they sent, and
 * the first enum value is the conservative choice there (`next_speaker: "user"` ends the turn).
 */
export function sampleOfSchema(schema: unknown): unknown {
  const fields = record(schema);
  const values = list(fields["enum"]);
  if (values.length > 0) return values[0];
  const types = Array.isArray(fields["type"]) ? list(fields["type"]).map(str) : [str(fields["type"])];
  const type = (types.find((name) => name.toLowerCase() !== "null") ?? "").toLowerCase();
  const properties = record(fields["properties"]);
  if (type === "object" || Object.keys(properties).length > 0) {
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sampleOfSchema(property)]));
  }
  if (type === "array") return [];
  if (type === "number" || type === "integer") return 0;
  if (type === "boolean") return false;
  return "ok";
}
