// The S3 archive store alone (`@loupe/archive-store/s3`): the AWS SDK loads only in an archive that
// stores on S3, not in an embedded Loupe on LMDB or files.
export { createS3ArchiveStore } from "./s3-archive-store.js";
export type { S3ArchiveStore, S3ArchiveStoreOptions } from "./s3-archive-store.js";
