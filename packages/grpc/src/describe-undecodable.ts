import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const MAX_DEPTH = 32;

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of the first string field (in nested messages too) whose bytes are not UTF-8, e.g.
 * `result.parts.text`; undefined when none is (or the bytes are not protobuf at all). For saying
 * which field a request that failed to decode got wrong.
 */
export function invalidUtf8Field(schema: DescMessage, bytes: Uint8Array, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  try {
    const reader = new BinaryReader(bytes);
    while (reader.pos < reader.len) {
      const [number, wireType] = reader.tag();
      const field = schema.fields.find((candidate) => candidate.number === number);
      if (field === undefined || wireType !== WireType.LengthDelimited) {
        reader.skip(wireType, number);
        continue;
      }
      const value = reader.bytes();
      if (field.fieldKind === "scalar" && field.scalar === ScalarType.STRING && !isUtf8(value)) return field.name;
      if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === ScalarType.STRING && !isUtf8(value)) return field.name;
      const message = field.fieldKind === "message" ? field.message : field.fieldKind === "list" && field.listKind === "message" ? field.message : undefined;
      if (message !== undefined) {
        const inner = invalidUtf8Field(message, value, depth + 1);
        if (inner !== undefined) return `${field.name}.${inner}`;
      }
    }
  } catch {
    // Not protobuf: no field to name.
  }
  return undefined;
}
