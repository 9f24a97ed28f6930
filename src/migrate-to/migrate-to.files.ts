import type { BlobStore, S3FilesConfig } from "../lib/blob-store";

/** Every area of the files Desk keeps beside its database (docs/DEVELOPING.md "Files (BlobStore)"). */
const FILE_AREAS = ["attachments/", "images/", "mail/", "outbox/", "imports/"] as const;

/** DESK_FILES_URL and its companions, read as loadConfig reads them (without loading the rest). */
export function s3FilesOf(env: Record<string, string | undefined>): S3FilesConfig | null {
  if (!env.DESK_FILES_URL) return null;
  return {
    url: env.DESK_FILES_URL,
    endpoint: env.DESK_S3_ENDPOINT ?? null,
    region: env.DESK_S3_REGION ?? null,
    accessKeyId: env.AWS_ACCESS_KEY_ID ?? null,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? null,
  };
}

/**
 * Copies every file of `from` into `to` (the data dir into the bucket of DESK_FILES_URL, or back),
 * key for key, and checks each copy's size. A file already there with the same size is left as it
 * is, so a copy cut short is finished by running it again. Answers how many files and bytes.
 */
export async function copyFiles(
  from: BlobStore,
  to: BlobStore,
  log: (line: string) => void = () => {},
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const area of FILE_AREAS) {
    let inArea = 0;
    for await (const key of from.list(area)) {
      const blob = await from.get(key);
      if (!blob) continue;
      const there = await to.get(key);
      if (!there || there.size !== blob.size) {
        await to.put(key, blob, { contentType: blob.type || undefined });
        const copied = await to.get(key);
        if (!copied || copied.size !== blob.size)
          throw new Error(
            `copying ${from.describe(key)} to ${to.describe(key)} stored ${copied?.size ?? 0} of ${blob.size} bytes`,
          );
      }
      files++;
      inArea++;
      bytes += blob.size;
    }
    if (inArea > 0) log(`files ${area}: ${inArea}`);
  }
  return { files, bytes };
}
