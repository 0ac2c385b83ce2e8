/** Where the test S3 server (Ceph RGW) is, from LOUPE_TEST_S3_* or the defaults scripts/servers uses. */
export interface S3TestEnv {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Reads the test S3 server's address and credentials. */
export function s3TestEnv(env: NodeJS.ProcessEnv = process.env): S3TestEnv {
  return {
    endpoint: env["LOUPE_TEST_S3_ENDPOINT"] ?? "http://127.0.0.1:7480",
    region: env["LOUPE_TEST_S3_REGION"] ?? "us-east-1",
    accessKeyId: env["LOUPE_TEST_S3_ACCESS_KEY"] ?? "loupe-test-access",
    secretAccessKey: env["LOUPE_TEST_S3_SECRET_KEY"] ?? "loupe-test-secret",
  };
}

/** Environment variables that point a child archive process at the test S3 server. */
export function s3ProcessEnv(s3: S3TestEnv, bucket: string): Record<string, string> {
  return {
    LOUPE_ARCHIVE_BACKEND: "s3",
    LOUPE_S3_ENDPOINT: s3.endpoint,
    LOUPE_S3_REGION: s3.region,
    LOUPE_S3_BUCKET: bucket,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: s3.region,
  };
}
