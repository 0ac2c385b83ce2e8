import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { requireTenantName } from "@loupe/archive-store/content";
import { AppError } from "@loupe/errors";
import { stateKey, type StateStore } from "@loupe/state-store";

/** A token as stored: never the token itself, only its hash. */
export interface TokenRecord {
  id: string;
  tenant: string;
  /** Admin of its tenant: rules, and deleting the whole tenant. */
  admin: boolean;
  /** The apps (sources) it may act for; empty = any. */
  sources: string[];
  createdMs: number;
  /** 0 = never. */
  expiresMs: number;
  /** sha256 of the whole token, base64url. */
  hash: string;
}

/** What creating a token asks for. */
export interface NewToken {
  tenant: string;
  admin: boolean;
  sources: readonly string[];
  /** 0 = never expires. */
  expiresInDays: number;
}

// Tokens live beside every tenant's data, under a tenant name no caller can have.
const STORE_TENANT = "_loupe";
const ID_CHARS = 12;
const TOKEN_PATTERN = /^lp_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{43})$/;
const MAX_ATTEMPTS = 16;
const DAY_MS = 24 * 60 * 60 * 1000;

const hashOf = (token: string): string => createHash("sha256").update(token, "utf8").digest("base64url");

/** The tokens of a Loupe deployment, in its state store (Redis, or the embedded store). */
export interface TokenStore {
  /** Creates a token; returns it (shown once, never stored) and its record. */
  create(request: NewToken): Promise<{ token: string; record: TokenRecord }>;
  /** The record of a valid token (known, not expired, not revoked), else undefined. */
  verify(token: string): Promise<TokenRecord | undefined>;
  /** Every token's record, or a tenant's. */
  list(tenant?: string): Promise<TokenRecord[]>;
  /** Revokes a token by id; false when there was none. */
  revoke(id: string): Promise<boolean>;
}

/** A {@link TokenStore} over `state`; `nowMs` is the clock. */
export function createTokenStore(state: StateStore, nowMs: () => number): TokenStore {
  const recordKey = (id: string): string => stateKey(STORE_TENANT, "token", id);
  const indexKey = stateKey(STORE_TENANT, "token-index");
  const readIndex = async (): Promise<{ raw: string | undefined; ids: string[] }> => {
    const raw = await state.get(indexKey);
    return { raw, ids: raw === undefined ? [] : (JSON.parse(raw) as string[]) };
  };
  const updateIndex = async (change: (ids: string[]) => string[]): Promise<void> => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { raw, ids } = await readIndex();
      if (await state.compareAndSet(indexKey, raw, JSON.stringify(change(ids)))) return;
    }
    throw new AppError("aborted", "token index changed concurrently too often; retry");
  };
  const load = async (id: string): Promise<TokenRecord | undefined> => {
    const raw = await state.get(recordKey(id));
    return raw === undefined ? undefined : (JSON.parse(raw) as TokenRecord);
  };
  return {
    async create(request) {
      const tenant = requireTenantName(request.tenant);
      if (!Number.isInteger(request.expiresInDays) || request.expiresInDays < 0 || request.expiresInDays > 3650) {
        throw new AppError("invalid_argument", `expires_in_days must be 0 (never) to 3,650 [expires_in_days=${String(request.expiresInDays)}]`);
      }
      const id = randomBytes(9).toString("base64url").slice(0, ID_CHARS);
      const token = `lp_${id}_${randomBytes(32).toString("base64url")}`;
      const now = nowMs();
      const record: TokenRecord = {
        id,
        tenant,
        admin: request.admin,
        sources: [...new Set(request.sources.map((source) => source.trim()).filter((source) => source !== ""))],
        createdMs: now,
        expiresMs: request.expiresInDays === 0 ? 0 : now + request.expiresInDays * DAY_MS,
        hash: hashOf(token),
      };
      await state.set(recordKey(id), JSON.stringify(record));
      await updateIndex((ids) => [...ids, id]);
      return { token, record };
    },
    async verify(token) {
      const match = TOKEN_PATTERN.exec(token);
      if (!match?.[1]) return undefined;
      const record = await load(match[1]);
      if (record === undefined) return undefined;
      const expected = Buffer.from(record.hash, "base64url");
      const actual = Buffer.from(hashOf(token), "base64url");
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
      if (record.expiresMs !== 0 && record.expiresMs <= nowMs()) return undefined;
      return record;
    },
    async list(tenant) {
      const { ids } = await readIndex();
      const records = await Promise.all(ids.map(load));
      return records.filter((record): record is TokenRecord => record !== undefined && (tenant === undefined || record.tenant === tenant));
    },
    async revoke(id) {
      const existed = (await load(id)) !== undefined;
      await state.delete(recordKey(id));
      await updateIndex((ids) => ids.filter((known) => known !== id));
      return existed;
    },
  };
}
