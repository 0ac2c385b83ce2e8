import { createHash } from "node:crypto";
import type { HistoryFormat } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";
import { stateKey, type StateStore } from "@loupe/state-store";
import { conversationOpening, historyImages, type HistoryImage, type ImageReplacement } from "./history-images.js";
import { makeThumbnail, type Thumbnail } from "./make-thumbnail.js";
import { imageActions, planImageCuts, type ImageDecisions } from "./plan-image-cuts.js";

/** How long a conversation's image decisions and thumbnails are kept after its last request. */
const STATE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** What the image cut needs beside the state store. */
export interface ImageCutDeps {
  state: StateStore;
  /** Saves an image's bytes as a result of its own (the archive); returns its result id. */
  saveImage(image: { tenant: string; source: string; conversation: string; bytes: Uint8Array; mediaType: string }): Promise<string>;
  /**
   * Saves a tool result's whole text the first time the history cut cuts it (the archive); returns its
   * result id, which the cut's notice names so nothing the cut removes is lost. Absent: notices name none.
   */
  saveText?(result: { tenant: string; source: string; toolName: string; text: string }): Promise<string>;
  /** The clock (milliseconds since the epoch). */
  nowMs(): number;
  /**
   * Where a named session's context starts after its last Compact (its watermark); a change since the
   * previous request means the runtime swapped its context in anyway, so the images may change too.
   */
  compactionMark?(tenant: string, sessionId: string): Promise<number | undefined>;
}

/** Which conversation a history belongs to, and whose. */
export interface ImageCutScope {
  tenant: string;
  source: string;
  /** The caller's session id; "" = recognise the conversation by its opening. */
  sessionId: string;
}

interface StoredDecisions {
  lastMs: number;
  decisions: ImageDecisions;
  /** The session's compaction mark at that request (named sessions only). */
  mark?: number;
}

interface StoredThumbnail {
  resultId: string;
  thumbnail?: Thumbnail;
}

const formatBytes = (bytes: number): string => `${bytes.toLocaleString("en-US")} bytes`;

function referenceText(hash: string, image: HistoryImage, bytes: number): string {
  return `[loupe] image sha256:${hash.slice(0, 12)} (${image.mediaType}, ${formatBytes(bytes)}) appears again later in this conversation; shown there`;
}

function thumbnailText(hash: string, image: HistoryImage, bytes: number, stored: StoredThumbnail): string {
  const original = JSON.stringify({ result_id: stored.resultId });
  const thumb = stored.thumbnail;
  if (thumb === undefined)
    return `[loupe] image sha256:${hash.slice(0, 12)} (${image.mediaType}, ${formatBytes(bytes)}) left out (no thumbnail could be made); the original: ${original}`;
  return `[loupe] image sha256:${hash.slice(0, 12)} (${image.mediaType}, ${String(thumb.originalWidth)}×${String(thumb.originalHeight)}, ${formatBytes(bytes)}) shown as a ${String(thumb.width)}×${String(thumb.height)} thumbnail; the original: ${original}`;
}

/** The thumbnail of an image in a conversation: made and the original saved once, then read back (the same bytes every time). */
async function thumbnailOf(
  scope: ImageCutScope,
  conversation: string,
  hash: string,
  bytes: Uint8Array,
  mediaType: string,
  deps: ImageCutDeps,
): Promise<StoredThumbnail> {
  const key = stateKey(scope.tenant, "image-thumb", scope.source, conversation, hash);
  const cached = await deps.state.get(key);
  if (cached !== undefined) return JSON.parse(cached) as StoredThumbnail;
  const resultId = await deps.saveImage({ tenant: scope.tenant, source: scope.source, conversation, bytes, mediaType });
  const thumbnail = await makeThumbnail(bytes);
  const stored: StoredThumbnail = { resultId, ...(thumbnail === undefined ? {} : { thumbnail }) };
  await deps.state.set(key, JSON.stringify(stored), { ttlMs: STATE_TTL_MS });
  return stored;
}

/**
 * Screenshots that pile up, per the app's rule (`image_keep_last`, `image_dedupe`): an image
 * identical to a later one becomes a one-line reference; beyond the last `image_keep_last` images,
 * older ones become a thumbnail and the result id of the saved original. New decisions are taken
 * only when the vendor's prompt cache is cold anyway — the conversation's first request, none for
 * `vendor_cache_ttl_seconds`, or a Compact of the named session since the last one — and otherwise the previous request's decisions are applied, so the
 * history keeps its bytes (and its cache). Edits `body` in place; returns how many images it replaced.
 * An image whose original could not be saved is left as it is (nothing is lost).
 */
export async function cutImages(
  format: HistoryFormat,
  body: Record<string, unknown>,
  rule: SourceRule,
  scope: ImageCutScope,
  deps: ImageCutDeps,
): Promise<number> {
  if (rule.imageKeepLast === 0 && !rule.imageDedupe) return 0;
  const conversation =
    scope.sessionId !== "" ? scope.sessionId : `h_${createHash("sha256").update(conversationOpening(body)).digest("base64url").slice(0, 32)}`;
  const images = historyImages(format, body);
  const bytes = images.map((image) => Buffer.from(image.data, "base64"));
  const hashes = bytes.map((data) => createHash("sha256").update(data).digest("hex"));
  const key = stateKey(scope.tenant, "image-cuts", scope.source, conversation);
  const raw = await deps.state.get(key);
  const stored = raw === undefined ? undefined : (JSON.parse(raw) as StoredDecisions);
  const now = deps.nowMs();
  const mark = scope.sessionId === "" || deps.compactionMark === undefined ? undefined : await deps.compactionMark(scope.tenant, scope.sessionId);
  const compacted = stored !== undefined && mark !== stored.mark;
  const cold = stored === undefined || compacted || now - stored.lastMs >= rule.vendorCacheTtlSeconds * 1000;
  const decisions = cold ? planImageCuts(hashes, { keepLast: rule.imageKeepLast, dedupe: rule.imageDedupe }) : stored.decisions;
  const replacements: Array<{ image: HistoryImage; replacement: ImageReplacement }> = [];
  for (const [index, action] of imageActions(hashes, decisions).entries()) {
    const image = images[index];
    const data = bytes[index];
    const hash = hashes[index];
    if (action === "keep" || image === undefined || data === undefined || hash === undefined) continue;
    if (action === "reference") {
      replacements.push({ image, replacement: { text: referenceText(hash, image, data.byteLength) } });
      continue;
    }
    let thumb: StoredThumbnail;
    try {
      thumb = await thumbnailOf(scope, conversation, hash, data, image.mediaType, deps);
    } catch {
      // The original could not be saved: the image stays whole.
      continue;
    }
    const text = thumbnailText(hash, image, data.byteLength, thumb);
    replacements.push({
      image,
      replacement: thumb.thumbnail === undefined ? { text } : { text, thumbnail: { mediaType: thumb.thumbnail.mediaType, data: thumb.thumbnail.data } },
    });
  }
  for (const { image, replacement } of replacements) image.replace(replacement);
  await deps.state.set(key, JSON.stringify({ lastMs: now, decisions, ...(mark === undefined ? {} : { mark }) } satisfies StoredDecisions), {
    ttlMs: STATE_TTL_MS,
  });
  return replacements.length;
}
