// A thread for module-worker.test.ts: says where it resolves a workspace package, and with which flags it runs.
import { parentPort } from "node:worker_threads";

parentPort?.postMessage({ resolved: import.meta.resolve("@loupe/errors"), execArgv: process.execArgv });
