export { repoRoot } from "./repo-root.js";
export { freePort } from "./free-port.js";
export { s3TestEnv, s3ProcessEnv } from "./s3-test-env.js";
export { startLoupeProcess } from "./loupe-process.js";
export { rgwInstance } from "./rgw.js";
export { removeBucket } from "./remove-bucket.js";
export type { S3TestEnv } from "./s3-test-env.js";
export type { LoupeProcess } from "./loupe-process.js";
export type { RgwInstance } from "./rgw.js";
