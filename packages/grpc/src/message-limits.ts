/** Default largest tool result accepted: 64 MiB (LOUPE_MAX_RESULT_BYTES). */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;

/**
 * Room for the envelope around a result (ids, args, metadata): a message may be
 * this much larger than the largest result, so the handler, not the transport,
 * decides and can name the limit.
 */
export const ENVELOPE_ALLOWANCE_BYTES = 1024 * 1024;

/**
 * grpc-js channel options that raise both message limits (4 MiB by default on
 * both sides) to `maxResultBytes` plus the envelope allowance.
 */
export function messageLimitOptions(maxResultBytes: number): Record<string, number> {
  const limit = maxResultBytes + ENVELOPE_ALLOWANCE_BYTES;
  return {
    "grpc.max_receive_message_length": limit,
    "grpc.max_send_message_length": limit,
  };
}
