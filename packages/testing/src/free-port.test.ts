import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { freePort } from "./free-port.js";

describe("freePort", () => {
  it("hands out distinct ports that can be listened on, below the kernel's ephemeral range", async () => {
    const ports: number[] = [];
    for (let index = 0; index < 20; index++) ports.push(await freePort());
    assert.equal(new Set(ports).size, ports.length);
    const range = (() => {
      try {
        return readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
      } catch {
        return undefined;
      }
    })();
    if (range?.[0] !== undefined && range[0] > 11_000) for (const port of ports) assert.ok(port < range[0], `${String(port)} is below ${String(range[0])}`);
    for (const port of ports) {
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
      });
    }
  });
});
