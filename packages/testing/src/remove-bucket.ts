import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import type { S3TestEnv } from "./s3-test-env.js";
import { createTestS3Client } from "./test-s3-client.js";

/** Deletes every object of `bucket` on the test S3 server, then the bucket (missing is fine). */
export async function removeBucket(s3: S3TestEnv, bucket: string): Promise<void> {
  const client = createTestS3Client(s3);
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [{ Key: object.Key }]));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if ((error as { name?: string }).name !== "NoSuchBucket") throw error;
  } finally {
    client.destroy();
  }
}
