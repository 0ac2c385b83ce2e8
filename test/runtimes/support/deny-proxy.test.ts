import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { startDenyProxy } from "./deny-proxy.js";

describe("startDenyProxy()", () => {
  it("refuses a CONNECT and survives the client resetting the socket on the refusal", async () => {
    const proxy = await startDenyProxy();
    const uncaught: unknown[] = [];
    const record = (error: unknown): void => void uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      const port = Number(new URL(proxy.url).port);
      for (let round = 0; round < 20; round++) {
        const socket = connect(port, "127.0.0.1");
        socket.write("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n");
        const [chunk] = (await once(socket, "data")) as [Buffer];
        assert.match(chunk.toString(), /^HTTP\/1\.1 403 /);
        // What a runtime that gives up on the refusal does: an RST, which the proxy's side reads as ECONNRESET.
        socket.resetAndDestroy();
        await once(socket, "close");
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(uncaught, []);
      assert.equal(proxy.attempts.length, 20);
      assert.ok(proxy.attempts.every((attempt) => attempt === "CONNECT example.com:443"));
    } finally {
      process.off("uncaughtException", record);
      await proxy.close();
    }
  });
});
