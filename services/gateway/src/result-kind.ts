import type { ResultKind } from "@loupe/projection";
import { ToolKind } from "@loupe/proto";

const KIND_BY_TOOL_KIND: Record<ToolKind, ResultKind | undefined> = {
  [ToolKind.UNSPECIFIED]: undefined,
  [ToolKind.FILE_READ]: "file_read",
  [ToolKind.DIRECTORY_LIST]: "directory_list",
  [ToolKind.COMMAND]: "command",
  [ToolKind.SEARCH]: "search",
  [ToolKind.CONVERSATION]: "conversation",
  [ToolKind.MCP]: "mcp",
  [ToolKind.EDIT]: "edit",
  [ToolKind.STRUCTURED]: "structured",
};

const TOOL_KIND_BY_KIND: Record<ResultKind, ToolKind> = {
  file_read: ToolKind.FILE_READ,
  directory_list: ToolKind.DIRECTORY_LIST,
  command: ToolKind.COMMAND,
  search: ToolKind.SEARCH,
  conversation: ToolKind.CONVERSATION,
  mcp: ToolKind.MCP,
  edit: ToolKind.EDIT,
  structured: ToolKind.STRUCTURED,
  generic: ToolKind.UNSPECIFIED,
};

/** The projection core's kind for a wire ToolKind (undefined = infer). */
export function resultKindFromToolKind(kind: ToolKind): ResultKind | undefined {
  return KIND_BY_TOOL_KIND[kind];
}

/** The wire ToolKind of a core kind (generic text has none: UNSPECIFIED). */
export function toolKindFromResultKind(kind: ResultKind): ToolKind {
  return TOOL_KIND_BY_KIND[kind];
}
