import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ProjectCallAnswer, ProjectCallRequest } from "./project-call.js";

/** How to reach the HTTP port: the token to send, and a certificate authority to trust for https. */
export interface HttpAccess {
  token: string | undefined;
  ca: Buffer | undefined;
}

interface JsonPart {
  text?: string;
  json?: string;
}

interface JsonAnswer {
  parts?: JsonPart[];
  resultId?: string;
  omissions?: { startLine?: number; endLine?: number }[];
  code?: string;
  message?: string;
}

/** The request in the proto JSON mapping `POST /v1/project` takes. */
function jsonBody(request: ProjectCallRequest): string {
  const { result } = request;
  return JSON.stringify({
    sessionId: request.sessionId,
    source: request.source,
    ...(request.intent ? { intent: request.intent } : {}),
    ...(request.model ? { model: request.model } : {}),
    result: {
      ...(result.toolUseId ? { toolUseId: result.toolUseId } : {}),
      toolName: result.toolName,
      argsJson: result.argsJson,
      isError: result.isError,
      ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
      ...(result.durationMs === undefined ? {} : { durationMs: result.durationMs }),
      parts: result.parts.map((part) => ({ [part.kind]: part.value })),
    },
  });
}

/**
 * Project over Loupe's HTTP/JSON API (`POST <url>/v1/project`), with node's own HTTP client. Rejects
 * with the connection's error (its `code`, e.g. ECONNREFUSED), a timeout after `timeoutMs`, Loupe's
 * answer to a refused call (`<code>: <message>`, HTTP status), or — code NOT_LOUPE — an answer no Loupe
 * gives (not JSON, 404 or 405: another server on the port).
 */
export function projectOverHttp(url: string, access: HttpAccess, call: ProjectCallRequest, timeoutMs: number): Promise<ProjectCallAnswer> {
  const body = Buffer.from(jsonBody(call));
  const target = new URL(`${url}/v1/project`);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(body.byteLength),
          ...(access.token === undefined ? {} : { authorization: `Bearer ${access.token}` }),
        },
        ...(access.ca === undefined ? {} : { ca: access.ca }),
      },
      (incoming) => void readAnswer(incoming).then(resolve, reject),
    );
    const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${String(timeoutMs)} ms`)), timeoutMs);
    outgoing.on("close", () => clearTimeout(timer));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** An answer that is not Loupe's (another server on the port): its error's `code` is NOT_LOUPE. */
export const NOT_LOUPE = "ENOTLOUPE";

function notLoupe(message: string): Error {
  return Object.assign(new Error(`${message} (not Loupe's answer)`), { code: NOT_LOUPE });
}

async function readAnswer(incoming: IncomingMessage): Promise<ProjectCallAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const status = incoming.statusCode ?? 0;
  let answer: JsonAnswer;
  try {
    answer = JSON.parse(text) as JsonAnswer;
  } catch {
    throw notLoupe(`HTTP ${String(status)}: not JSON: ${text.slice(0, 200)}`);
  }
  // Loupe serves this route: a 404 or 405 there is another server on the port.
  if (status === 404 || status === 405) throw notLoupe(`HTTP ${String(status)}: ${answer.message ?? text.slice(0, 200)}`);
  if (status < 200 || status >= 300) throw new Error(`HTTP ${String(status)}: ${answer.code ?? "error"}: ${answer.message ?? text.slice(0, 200)}`);
  return {
    parts: (answer.parts ?? []).flatMap((part): ProjectCallAnswer["parts"] =>
      typeof part.text === "string" ? [{ kind: "text", value: part.text }] : typeof part.json === "string" ? [{ kind: "json", value: part.json }] : [],
    ),
    resultId: answer.resultId ?? "",
    omissions: (answer.omissions ?? []).map((omission) => ({ startLine: omission.startLine, endLine: omission.endLine })),
  };
}
