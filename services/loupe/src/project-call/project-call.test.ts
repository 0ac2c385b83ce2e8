import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_HTTP_URL, routeOf } from "./project-call.js";

describe("routeOf()", () => {
  it("takes --addr, then LOUPE_HTTP_URL, then LOUPE_ADDR; with none, HTTP on the local default with gRPC behind it", () => {
    assert.deepEqual(routeOf({ LOUPE_HTTP_URL: "http://h:8080/", LOUPE_ADDR: "g:50051" }, "f:1"), { grpc: "f:1" });
    assert.deepEqual(routeOf({ LOUPE_HTTP_URL: "http://h:8080/", LOUPE_ADDR: "g:50051" }), { http: "http://h:8080" });
    assert.deepEqual(routeOf({ LOUPE_ADDR: "g:50051" }), { grpc: "g:50051" });
    assert.deepEqual(routeOf({}), { http: DEFAULT_HTTP_URL, fallbackGrpc: "127.0.0.1:50051" });
    assert.deepEqual(routeOf({ LOUPE_HTTP_URL: "  ", LOUPE_ADDR: " " }), { http: DEFAULT_HTTP_URL, fallbackGrpc: "127.0.0.1:50051" });
  });

  it("stays with gRPC when TLS is asked for without an HTTP URL (the TLS settings are the gRPC port's)", () => {
    assert.deepEqual(routeOf({ LOUPE_TLS: "1" }), { grpc: "127.0.0.1:50051" });
    assert.deepEqual(routeOf({ LOUPE_TLS: "1", LOUPE_HTTP_URL: "https://loupe.example:8443" }), { http: "https://loupe.example:8443" });
  });
});
