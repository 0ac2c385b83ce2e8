import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { amzDateOf, createSigner, encodeS3Path, payloadHashOf } from "./s3-sigv4.js";

// The "GET Object" example of AWS's Signature Version 4 documentation for S3 (Authorization header form).
const EXAMPLE_CREDENTIALS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const EXAMPLE_NOW_MS = Date.UTC(2013, 4, 24, 0, 0, 0);

describe("createSigner()", () => {
  it("signs AWS's documented GET Object example to its published signature", () => {
    const headers: Record<string, string> = { host: "examplebucket.s3.amazonaws.com", range: "bytes=0-9" };
    createSigner("us-east-1")(
      { method: "GET", path: "/test.txt", query: "", headers, payloadHash: payloadHashOf(undefined) },
      EXAMPLE_CREDENTIALS,
      EXAMPLE_NOW_MS,
    );
    assert.equal(headers["x-amz-date"], "20130524T000000Z");
    assert.equal(headers["x-amz-content-sha256"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(
      headers["authorization"],
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("signs a session token when the credentials carry one, and the signature changes with it", () => {
    const sign = createSigner("us-east-1");
    const plain: Record<string, string> = { host: "h" };
    const withToken: Record<string, string> = { host: "h" };
    sign({ method: "PUT", path: "/k", query: "", headers: plain, payloadHash: payloadHashOf(new Uint8Array([1])) }, EXAMPLE_CREDENTIALS, EXAMPLE_NOW_MS);
    sign(
      { method: "PUT", path: "/k", query: "", headers: withToken, payloadHash: payloadHashOf(new Uint8Array([1])) },
      { ...EXAMPLE_CREDENTIALS, sessionToken: "tok" },
      EXAMPLE_NOW_MS,
    );
    assert.equal(withToken["x-amz-security-token"], "tok");
    assert.match(withToken["authorization"] ?? "", /SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/);
    assert.notEqual(plain["authorization"], withToken["authorization"]);
  });
});

describe("encodeS3Path()", () => {
  it("keeps unreserved characters and slashes, and percent-encodes every other byte once", () => {
    assert.equal(encodeS3Path("t/local/blobs/ab-c_d.e~f"), "t/local/blobs/ab-c_d.e~f");
    assert.equal(encodeS3Path("test$file.text"), "test%24file.text");
    assert.equal(encodeS3Path("a b/(x)!*'"), "a%20b/%28x%29%21%2A%27");
    assert.equal(encodeS3Path("é%"), "%C3%A9%25");
  });
});

describe("amzDateOf()", () => {
  it("writes the basic ISO 8601 form SigV4 signs", () => {
    assert.equal(amzDateOf(Date.UTC(2026, 11, 2, 15, 4, 5, 678)), "20261202T150405Z");
  });
});
