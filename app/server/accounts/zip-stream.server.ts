import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/**
 * A ZIP written as it is read: entries go in one at a time, each from its own stream, and the archive's
 * bytes come out as an async iterable pulled by whoever stores them. Nothing is held whole: at most one
 * input chunk (64 KB from a file stream; text is cut to TEXT_CHUNK) and what fflate made of it wait
 * here, and the next chunk is read only once the consumer asked for more (backpressure).
 *
 * The server's one thread also runs the embedded database (PGlite) and every other request, so the
 * work is cut small: each chunk is a few milliseconds at most (a CRC, or DEFLATE of TEXT_CHUNK bytes),
 * after every YIELD_EVERY_BYTES the build gives the event loop a turn even when the disk never made it
 * wait, and it never runs faster than MAX_BYTES_PER_SECOND.
 *
 * fflate writes no ZIP64 records, so an archive must stay under 4 GB: the per-person storage cap
 * (PERSON_STORAGE_CAP_MB) keeps Download My Data far below that.
 */

/** `level: 0` stores the bytes as they are (PDFs and images are compressed already); 6 deflates text. */
export type ZipEntry = { name: string; level: 0 | 6; data: AsyncIterable<Uint8Array> | Iterable<Uint8Array> };

export const TEXT_CHUNK = 64 * 1024;
const YIELD_EVERY_BYTES = 64 * 1024;
/**
 * The build's pace at most: a page request awaits the database several times, and the build may run a
 * chunk between any two of them, so a build going flat out on the shared thread stretches every
 * request. At 12 MB/s a 250 MB file takes about 21 seconds (the e-mail says when it is ready) and the
 * pages' p99 stays where it is without an export (npm run bench data-export).
 */
const MAX_BYTES_PER_SECOND = 12 * 1024 * 1024;

/** Text as chunks of at most TEXT_CHUNK bytes (so no single DEFLATE call runs long). */
export function* textChunks(parts: Iterable<string>): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  let pending = "";
  for (const part of parts) {
    pending += part;
    while (pending.length >= TEXT_CHUNK) {
      yield encoder.encode(pending.slice(0, TEXT_CHUNK));
      pending = pending.slice(TEXT_CHUNK);
    }
  }
  if (pending) yield encoder.encode(pending);
}

/** A JSON array written an item at a time (pretty-printed like JSON.stringify(value, null, 2)). */
export function* jsonArrayText<T>(items: Iterable<T>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? "[\n" : ",\n"}  ${JSON.stringify(item, null, 2).replace(/\n/g, "\n  ")}`;
    first = false;
  }
  yield first ? "[]\n" : "\n]\n";
}

/** The archive's bytes, entry after entry; an entry whose stream throws ends the archive with that error. */
export async function* zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>, mtime: Date): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  let sinceTurn = 0;
  let written = 0;
  const started = performance.now();
  const drain = function* () {
    if (failure) throw failure;
    while (out.length) yield out.shift()!;
  };
  for await (const entry of entries) {
    const file = entry.level === 0 ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level: entry.level });
    file.mtime = mtime;
    zip.add(file);
    for await (const chunk of entry.data) {
      file.push(chunk);
      yield* drain();
      sinceTurn += chunk.byteLength;
      written += chunk.byteLength;
      if (sinceTurn >= YIELD_EVERY_BYTES) {
        sinceTurn = 0;
        const ahead = (written / MAX_BYTES_PER_SECOND) * 1000 - (performance.now() - started);
        if (ahead > 1) await sleep(ahead);
        else await nextTurn();
      }
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
