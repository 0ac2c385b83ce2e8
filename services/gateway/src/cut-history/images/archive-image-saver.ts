import type { ArchiveClient } from "@loupe/archive-client";
import { revisionOf } from "@loupe/archive-store/content";
import { ToolKind } from "@loupe/proto";
import type { SessionStore } from "@loupe/session-store";
import type { StateStore } from "@loupe/state-store";
import { resultIdFor } from "../../result-id.js";
import type { ImageCutDeps } from "./cut-images.js";

/** What the history cut's images need from the gateway: the archive (originals), state, the id secret. */
export interface ArchiveImageSaverOptions {
  archive: ArchiveClient;
  state: StateStore;
  resultIdSecret: string;
  archiveTimeoutMs: number;
  /** Conversation sessions: a Compact of a named session lets its images change. */
  sessions?: SessionStore;
}

/**
 * The history cut's savers over the archive: an image is saved as a result of its own (its media
 * type kept; Recover with its id answers it whole), in the conversation's session
 * `history:<conversation>`, under an id derived from its bytes and type; a tool result's text the
 * cut shortens is saved in the session `history:<source>` under an id derived from its bytes.
 */
export function archiveImageCutDeps(options: ArchiveImageSaverOptions): ImageCutDeps {
  const { sessions } = options;
  return {
    state: options.state,
    nowMs: () => Date.now(),
    ...(sessions === undefined ? {} : { compactionMark: async (tenant: string, sessionId: string) => (await sessions.getBase(tenant, sessionId))?.seq }),
    async saveImage({ tenant, source, conversation, bytes, mediaType }) {
      const sessionId = `history:${conversation}`;
      const revision = revisionOf(bytes);
      const resultId = resultIdFor(options.resultIdSecret, tenant, sessionId, `${revision}\u0000${mediaType}`);
      const header = {
        resultId,
        revision,
        sessionId,
        source,
        toolName: "",
        kind: ToolKind.UNSPECIFIED,
        path: "",
        mimeType: mediaType || "application/octet-stream",
        sizeBytes: BigInt(bytes.byteLength),
      };
      await options.archive.put(tenant, header, bytes, { timeoutMs: options.archiveTimeoutMs });
      return resultId;
    },
    async saveText({ tenant, source, toolName, text }) {
      // One session per app for the originals its cuts name: the same output anywhere is one saved result.
      const sessionId = `history:${source}`;
      const bytes = new TextEncoder().encode(text);
      const revision = revisionOf(bytes);
      const resultId = resultIdFor(options.resultIdSecret, tenant, sessionId, revision);
      const header = { resultId, revision, sessionId, source, toolName, kind: ToolKind.COMMAND, path: "", sizeBytes: BigInt(bytes.byteLength) };
      await options.archive.put(tenant, header, bytes, { timeoutMs: options.archiveTimeoutMs });
      return resultId;
    },
  };
}
