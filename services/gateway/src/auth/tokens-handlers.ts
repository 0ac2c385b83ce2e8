import { AppError } from "@loupe/errors";
import type { HandlerContext, ServiceHandlers } from "@loupe/grpc";
import type { TokensService } from "@loupe/proto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TokenInfoSchema } from "@loupe/proto";
import type { Authenticator } from "./authenticator.js";
import { requireTenantName } from "@loupe/archive-store/content";
import type { TokenRecord, TokenStore } from "./token-store.js";

const MAX_SOURCES = 64;

function infoOf(record: TokenRecord): MessageInitShape<typeof TokenInfoSchema> {
  return {
    id: record.id,
    tenant: record.tenant,
    admin: record.admin,
    sources: record.sources,
    createdAtMs: BigInt(record.createdMs),
    expiresAtMs: BigInt(record.expiresMs),
  };
}

/**
 * TokensService: create, list and revoke tokens. Only the operator (LOUPE_ADMIN_TOKEN) may, and only
 * with authentication on (with it off there are no tokens to manage).
 */
export function createTokensHandlers(tokens: TokenStore, auth: Authenticator): ServiceHandlers<typeof TokensService> {
  const operatorOnly = async (context: HandlerContext): Promise<void> => {
    if (auth.mode === "off") throw new AppError("failed_precondition", "authentication is off (LOUPE_AUTH=off): there are no tokens to manage");
    const principal = await auth.principal(context.metadata);
    if (!principal.operator) throw new AppError("permission_denied", "managing tokens needs the operator's token (LOUPE_ADMIN_TOKEN)");
  };
  return {
    async createToken(request, context) {
      await operatorOnly(context);
      if (request.sources.length > MAX_SOURCES) throw new AppError("invalid_argument", `at most ${String(MAX_SOURCES)} sources`);
      const { token, record } = await tokens.create({
        tenant: request.tenant,
        admin: request.admin,
        sources: request.sources,
        expiresInDays: request.expiresInDays,
      });
      return { token, info: infoOf(record) };
    },
    async listTokens(request, context) {
      await operatorOnly(context);
      const records = await tokens.list(request.tenant === "" ? undefined : requireTenantName(request.tenant));
      return { tokens: records.map(infoOf) };
    },
    async revokeToken(request, context) {
      await operatorOnly(context);
      if (!/^[A-Za-z0-9_-]{12}$/.test(request.id)) throw new AppError("invalid_argument", `malformed token id [id=${request.id.slice(0, 40)}]`);
      return { revoked: await tokens.revoke(request.id) };
    },
  };
}
