/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_MAX_SIDE = 160;

/** A thumbnail of an image and both sizes. */
export interface Thumbnail {
  mediaType: string;
  /** base64 */
  data: string;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
}

/**
 * A small thumbnail of an image (longest side at most 160 px; PNG stays PNG, anything else becomes
 * JPEG), made with sharp (libvips); undefined when the bytes are not an image it can read. The
 * same bytes give the same thumbnail.
 */
export async function makeThumbnail(bytes: Uint8Array): Promise<Thumbnail | undefined> {
  try {
    // sharp (libvips) loads with the first image to thumbnail (the module loader keeps it): most gateways
    // never see one, and it costs a process about 10 MB resident and a tenth of a second to load.
    const { default: sharp } = await import("sharp");
    const image = sharp(bytes, { limitInputPixels: 100_000_000, failOn: "error" });
    const meta = await image.metadata();
    if (meta.width === undefined || meta.height === undefined) return undefined;
    const resized = image.resize({ width: THUMBNAIL_MAX_SIDE, height: THUMBNAIL_MAX_SIDE, fit: "inside", withoutEnlargement: true });
    const png = meta.format === "png";
    const { data, info } = await (png ? resized.png({ compressionLevel: 9 }) : resized.jpeg({ quality: 70 })).toBuffer({ resolveWithObject: true });
    return {
      mediaType: png ? "image/png" : "image/jpeg",
      data: data.toString("base64"),
      width: info.width,
      height: info.height,
      originalWidth: meta.width,
      originalHeight: meta.height,
    };
  } catch {
    // Not an image sharp can read (or a corrupt one): the caller says so in a notice instead.
    return undefined;
  }
}
