// Project over gRPC, for the commands that call it once per tool call: imported only when gRPC is the way
// (see project-call.ts), so the HTTP way never loads gRPC's client or protobuf's descriptors.
import { loupeAddress, projectionClient } from "../loupe-connection.js";
import type { ProjectCallAnswer, ProjectCallRequest } from "./project-call.js";

/** One Project call over gRPC to `address` (LOUPE_TOKEN and TLS from `env`), its answer as the commands read it. */
export async function projectOverGrpc(
  env: NodeJS.ProcessEnv,
  address: string,
  maxResultBytes: number,
  call: ProjectCallRequest,
  timeoutMs: number,
): Promise<ProjectCallAnswer> {
  const client = projectionClient(env, loupeAddress(env, address), maxResultBytes);
  try {
    const { result } = call;
    const response = await client.project(
      {
        sessionId: call.sessionId,
        source: call.source,
        intent: call.intent ?? "",
        model: call.model ?? "",
        result: {
          toolUseId: result.toolUseId ?? "",
          toolName: result.toolName,
          argsJson: result.argsJson,
          isError: result.isError,
          ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
          ...(result.durationMs === undefined ? {} : { durationMs: result.durationMs }),
          parts: result.parts.map((part) => ({ content: { case: part.kind, value: part.value } })),
        },
      },
      { timeoutMs },
    );
    return {
      parts: response.parts.flatMap((part): ProjectCallAnswer["parts"] =>
        part.content.case === "text" || part.content.case === "json" ? [{ kind: part.content.case, value: part.content.value }] : [],
      ),
      resultId: response.resultId,
      omissions: response.omissions.map((omission) => ({ startLine: omission.startLine, endLine: omission.endLine })),
    };
  } finally {
    client.close();
  }
}
