import { toJsonString } from "@bufbuild/protobuf";
import { channelCredentials, loupeClientOptionsFromEnv } from "@loupe/client";
import { AppError } from "@loupe/errors";
import { createGrpcClient, DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc";
import { ListTokensResponseSchema, TokensService, type TokenInfo } from "@loupe/proto";
import { loupeAddress } from "./loupe-connection.js";
import { parseFlags } from "./parse-flags.js";

const USAGE =
  "usage: loupe token create --tenant NAME [--admin] [--source S]… [--expires-in DAYS] | loupe token list [--tenant NAME] [--json] | loupe token revoke ID";

const date = (ms: bigint): string => (ms === 0n ? "never" : new Date(Number(ms)).toISOString());

function line(info: TokenInfo): string {
  const scopes = [info.admin ? "admin" : "member", ...(info.sources.length === 0 ? [] : [`sources=${info.sources.join(",")}`])].join(" ");
  return `${info.id}  tenant=${info.tenant}  ${scopes}  created=${date(info.createdAtMs)}  expires=${date(info.expiresAtMs)}`;
}

/**
 * `loupe token create|list|revoke`: manages the tokens of a running Loupe with authentication on
 * (LOUPE_AUTH=tokens), at --addr or LOUPE_ADDR, with the operator's token in LOUPE_TOKEN. `create`
 * prints the new token once, as the last line of its output; `list` never prints tokens.
 */
export async function tokenCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  const flags = parseFlags(rest, ["tenant", "source", "expires-in", "addr"], ["admin", "json"]);
  const { token, tls } = loupeClientOptionsFromEnv(env);
  if (token === undefined) throw new AppError("unauthenticated", "LOUPE_TOKEN must hold the operator's token (LOUPE_ADMIN_TOKEN of the running Loupe)");
  const client = createGrpcClient(TokensService, loupeAddress(env, flags.values.addr), {
    maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
    credentials: channelCredentials(tls),
    metadata: { authorization: `Bearer ${token}` },
  });
  try {
    switch (action) {
      case "create": {
        const tenant = flags.values.tenant;
        if (tenant === undefined) throw new AppError("invalid_argument", USAGE);
        const days = flags.values["expires-in"] === undefined ? 0 : Number(flags.values["expires-in"]);
        if (!Number.isInteger(days) || days < 0)
          throw new AppError("invalid_argument", `--expires-in must be a whole number of days [expires-in=${String(flags.values["expires-in"])}]`);
        const sources = flags.values.source === undefined ? [] : flags.values.source.split(",");
        const created = await client.createToken({ tenant, admin: flags.switches.has("admin"), sources, expiresInDays: days });
        if (created.info) process.stdout.write(`created ${line(created.info)}\n`);
        process.stdout.write(`${created.token}\n`);
        return 0;
      }
      case "list": {
        const listed = await client.listTokens({ tenant: flags.values.tenant ?? "" });
        if (flags.switches.has("json")) process.stdout.write(toJsonString(ListTokensResponseSchema, listed, { prettySpaces: 2 }) + "\n");
        else for (const info of listed.tokens) process.stdout.write(line(info) + "\n");
        return 0;
      }
      case "revoke": {
        const [id] = flags.positionals;
        if (id === undefined) throw new AppError("invalid_argument", USAGE);
        const answer = await client.revokeToken({ id });
        process.stdout.write(answer.revoked ? `revoked ${id}\n` : `no token ${id}\n`);
        return answer.revoked ? 0 : 1;
      }
      default:
        throw new AppError("invalid_argument", USAGE);
    }
  } finally {
    client.close();
  }
}
