import assert from "node:assert/strict";
import { createServer, type AddressInfo, type Server } from "node:net";
import { after, before, describe, it } from "node:test";
import { loupeListening } from "./loupe-listening.js";

describe("loupeListening()", () => {
  let server: Server;
  let port: number;
  let closed: number;

  before(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    // A port that was open a moment ago and is closed now: nothing listens there.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    closed = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers whether something listens where the hooks would call Loupe: LOUPE_HTTP_URL, else LOUPE_ADDR", async () => {
    assert.equal(await loupeListening({ LOUPE_HTTP_URL: `http://127.0.0.1:${String(port)}/` }), true);
    assert.equal(await loupeListening({ LOUPE_ADDR: `127.0.0.1:${String(port)}` }), true);
    assert.equal(await loupeListening({ LOUPE_ADDR: `127.0.0.1:${String(closed)}` }), false);
    assert.equal(
      await loupeListening({ LOUPE_HTTP_URL: `http://127.0.0.1:${String(closed)}`, LOUPE_ADDR: `127.0.0.1:${String(port)}` }),
      false,
      "the HTTP URL is the way",
    );
    assert.equal(await loupeListening({ LOUPE_ADDR: "not an address" }), false);
  });
});
