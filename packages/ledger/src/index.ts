export { LEDGER_KINDS, matches } from "./ledger.js";
export type { Ledger, LedgerEntry, LedgerKind, LedgerPage, LedgerQuery } from "./ledger.js";
export { createLocalLedger } from "./local-ledger.js";
export type { LocalLedgerOptions } from "./local-ledger.js";
