import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/protocols";
import { SignatureV4 } from "@smithy/signature-v4";
import { encodeS3Path, s3Signer } from "./s3-signed-request.js";

// The "GET Object" example of AWS's Signature Version 4 documentation for S3 (Authorization header form).
const EXAMPLE_CREDENTIALS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const EXAMPLE_DATE = new Date(Date.UTC(2013, 4, 24, 0, 0, 0));

const requestOf = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array) =>
  new HttpRequest({ protocol: "https:", hostname: headers["host"] ?? "h", method, path, headers, ...(body ? { body } : {}) });

describe("s3Signer()", () => {
  it("signs AWS's documented GET Object example to its published signature", async () => {
    const signed = await s3Signer("us-east-1", () => Promise.resolve(EXAMPLE_CREDENTIALS)).sign(
      requestOf("GET", "/test.txt", { host: "examplebucket.s3.amazonaws.com", range: "bytes=0-9" }),
      { signingDate: EXAMPLE_DATE },
    );
    assert.equal(signed.headers["x-amz-date"], "20130524T000000Z");
    assert.equal(signed.headers["x-amz-content-sha256"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(
      signed.headers["authorization"],
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("signs a session token when the credentials carry one, and the signature changes with it", async () => {
    const sign = (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) =>
      s3Signer("us-east-1", () => Promise.resolve(credentials)).sign(requestOf("PUT", "/k", { host: "h" }, new Uint8Array([1])), { signingDate: EXAMPLE_DATE });
    const plain = await sign(EXAMPLE_CREDENTIALS);
    const withToken = await sign({ ...EXAMPLE_CREDENTIALS, sessionToken: "tok" });
    assert.equal(withToken.headers["x-amz-security-token"], "tok");
    assert.match(withToken.headers["authorization"] ?? "", /SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/);
    assert.notEqual(plain.headers["authorization"], withToken.headers["authorization"]);
  });

  it("signs the path as given, not encoded again: as a signer that encodes once signs the raw key", async () => {
    const credentials = () => Promise.resolve(EXAMPLE_CREDENTIALS);
    const signed = await s3Signer("us-east-1", credentials).sign(requestOf("GET", `/b/${encodeS3Path("a b(1)")}`, { host: "h" }), {
      signingDate: EXAMPLE_DATE,
    });
    const encodingOnce = new SignatureV4({ credentials, region: "us-east-1", service: "s3", sha256: Sha256, uriEscapePath: true });
    const reference = await encodingOnce.sign(requestOf("GET", "/b/a b(1)", { host: "h" }), { signingDate: EXAMPLE_DATE });
    assert.equal(signed.headers["authorization"], reference.headers["authorization"]);
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
