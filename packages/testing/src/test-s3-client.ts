import { S3Client } from "@aws-sdk/client-s3";
import type { S3TestEnv } from "./s3-test-env.js";

/**
 * A plain S3 client of the test server (for fixtures and clean-up, not for
 * code under test). Checksums only when required: Ceph RGW 16 refuses the
 * SDK's default streaming checksums.
 */
export function createTestS3Client(s3: S3TestEnv): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
