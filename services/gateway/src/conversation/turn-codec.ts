import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Turn, TurnPart, TurnToolResult } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import type { Part, PartSchema, Turn as ProtoTurn, TurnSchema } from "@loupe/proto";

/**
 * A request's turn as Loupe's model (roles checked, media data as base64). The token count is the
 * runtime's when it sent one, else `count` of the turn's text.
 * @throws AppError `invalid_argument` naming the seq and what is wrong
 */
export function turnFromProto(turn: ProtoTurn, count: (turn: Turn) => number): Turn {
  const where = `seq=${String(turn.seq)}`;
  if (turn.role !== "user" && turn.role !== "assistant") {
    throw new AppError(
      "invalid_argument",
      `turn role must be user or assistant (tool results travel in user turns) [${where}, role=${turn.role.slice(0, 20)}]`,
    );
  }
  if (turn.role === "user" && turn.toolCalls.length > 0) throw new AppError("invalid_argument", `tool_calls belong to assistant turns [${where}]`);
  if (turn.role === "assistant" && turn.toolResults.length > 0) throw new AppError("invalid_argument", `tool_results belong to user turns [${where}]`);
  const toolCalls = turn.toolCalls.map((call) => {
    if (call.toolUseId === "" || call.name === "") throw new AppError("invalid_argument", `tool call needs tool_use_id and name [${where}]`);
    return { toolUseId: call.toolUseId, name: call.name, argsJson: call.argsJson };
  });
  const toolResults = turn.toolResults.map((result): TurnToolResult => {
    if (result.toolUseId === "") throw new AppError("invalid_argument", `tool result needs tool_use_id [${where}]`);
    return {
      toolUseId: result.toolUseId,
      toolName: result.toolName,
      parts: result.parts.map((part) => partFromProto(part, where)),
      isError: result.isError,
      ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    };
  });
  const converted: Turn = {
    seq: turn.seq,
    role: turn.role,
    parts: turn.parts.map((part) => partFromProto(part, where)),
    toolCalls,
    toolResults,
    tokenCount: 0,
  };
  if (converted.parts.length === 0 && toolCalls.length === 0 && toolResults.length === 0) throw new AppError("invalid_argument", `turn is empty [${where}]`);
  converted.tokenCount = turn.tokenCount ?? count(converted);
  return converted;
}

function partFromProto(part: Part, where: string): TurnPart {
  switch (part.content.case) {
    case "text":
      return { type: "text", text: part.content.value };
    case "json":
      return { type: "json", json: part.content.value };
    case "media": {
      const { mimeType, data, uri, name } = part.content.value;
      return {
        type: "media",
        mimeType,
        ...(data.byteLength > 0 ? { data: Buffer.from(data).toString("base64") } : {}),
        ...(uri === "" ? {} : { uri }),
        ...(name === "" ? {} : { name }),
      };
    }
    default:
      throw new AppError("invalid_argument", `part has no content [${where}]`);
  }
}

/** A logged turn in the proto shape. */
export function turnToProto(turn: Turn): MessageInitShape<typeof TurnSchema> {
  const part = (item: TurnPart): MessageInitShape<typeof PartSchema> => {
    if (item.type === "text") return { content: { case: "text", value: item.text } };
    if (item.type === "json") return { content: { case: "json", value: item.json } };
    return {
      content: {
        case: "media",
        value: {
          mimeType: item.mimeType,
          data: item.data === undefined ? new Uint8Array() : Buffer.from(item.data, "base64"),
          uri: item.uri ?? "",
          name: item.name ?? "",
        },
      },
    };
  };
  return {
    seq: turn.seq,
    role: turn.role,
    parts: turn.parts.map(part),
    toolCalls: turn.toolCalls.map((call) => ({ ...call })),
    toolResults: turn.toolResults.map((result) => ({
      toolUseId: result.toolUseId,
      toolName: result.toolName,
      parts: result.parts.map(part),
      isError: result.isError,
      ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    })),
    tokenCount: turn.tokenCount,
  };
}
