import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import busboy from "busboy";
import { handOver, isWholeBuffer, releaseHandedOver } from "~/server/storage/storage.server";

/** One file of a multipart form, as its bytes arrive. */
export type MultipartFile = {
  /** The form field it was sent under. */
  field: string;
  /** The name the sender gave it ("" when none); never a path to use. */
  name: string;
  /**
   * The file's bytes in the order they arrive; ends early when the file passes its cap. When the
   * request's body is a byte stream (`requestBodyStream`), each chunk's memory is handed over to
   * storage (`handOver`): a chunk passed to `put` is freed once written, and is not read again.
   */
  chunks: AsyncIterable<Uint8Array>;
};

export type MultipartLimits = {
  /** The whole body: past this the reading stops and the form is refused as too large. */
  maxRequestBytes: number;
  /** One file: its bytes stop after this many and one more, so the receiver sees it is over. */
  maxFileBytes: number;
  /** One text field's value: a longer one is cut to this length. */
  maxFieldBytes: number;
};

export type MultipartOutcome =
  { ok: true; fields: Map<string, string[]> } | { ok: false; problem: "too-large" | "unreadable" };

/**
 * A name as the sender's browser meant it: browsers write a quote and line breaks in a file
 * name as %22, %0D and %0A (HTML's multipart/form-data encoding), and the name is read back the
 * same way.
 */
function sentName(name: string): string {
  return name.replace(/%(22|0d|0a)/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}

/**
 * A request's body (a Node stream) as the Fetch API's body: a byte stream, read from the socket
 * no faster than it is read (back-pressure), each chunk of which is its reader's alone. Node's
 * HTTP parser gives every chunk an ArrayBuffer of its own, and a byte stream takes each chunk's
 * memory over as it is queued (the Streams standard transfers it), so `readMultipart` may hand a
 * file's chunks over to storage, which frees each as soon as it is written. A chunk that shares
 * its memory with others is queued as a copy: transferring it would take theirs too.
 */
export function requestBodyStream(source: Readable): ReadableStream<Uint8Array> {
  let controller: ReadableByteStreamController | null = null;
  const settle = (how: (c: ReadableByteStreamController) => void) => {
    source.off("data", onData);
    const c = controller;
    controller = null;
    if (c) how(c);
  };
  function onData(chunk: Buffer | string): void {
    if (!controller || chunk.length === 0) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    try {
      controller.enqueue(isWholeBuffer(bytes) ? bytes : new Uint8Array(bytes));
    } catch (error) {
      settle((c) => c.error(error));
      source.destroy();
      return;
    }
    if ((controller.desiredSize ?? 0) <= 0) source.pause();
  }
  return new ReadableStream(
    {
      type: "bytes",
      start(c) {
        controller = c;
        source.on("data", onData);
        source.once("error", (error) => settle((c) => c.error(error)));
        // As @react-router/node's stream does: a source closed without an error ends the body.
        source.once("end", () => settle((c) => c.close()));
        source.once("close", () => settle((c) => c.close()));
      },
      pull() {
        source.resume();
      },
      cancel(reason) {
        settle(() => undefined);
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: source.readableHighWaterMark },
  );
}

/**
 * Whether the chunks of `body` are its reader's alone: those of a byte stream are (each is
 * transferred as it is queued), those of another stream may be held by whoever queued them.
 */
function chunksAreOwned(body: ReadableStream<Uint8Array>): boolean {
  try {
    body.getReader({ mode: "byob" }).releaseLock();
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a multipart/form-data body as a stream: text fields are collected, and each file is
 * handed to `onFile` as it begins, with its bytes arriving as they are received; nothing holds
 * a whole file. Files are handed over one at a time, in the order sent; whatever `onFile` leaves
 * unread is thrown away. Resolves once the body has been read and every `onFile` has finished.
 */
export async function readMultipart(
  request: Request,
  limits: MultipartLimits,
  onFile: (file: MultipartFile) => Promise<void>,
): Promise<MultipartOutcome> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxRequestBytes)
    return { ok: false, problem: "too-large" };

  const headers = Object.fromEntries(request.headers);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers,
      // The file's name as the sender gave it: the rules for names (last segment, cleaning)
      // apply to it afterwards, the same as for any name.
      preservePath: true,
      defParamCharset: "utf8",
      limits: { fileSize: limits.maxFileBytes + 1, fieldSize: limits.maxFieldBytes },
    });
  } catch {
    return { ok: false, problem: "unreadable" };
  }

  const fields = new Map<string, string[]>();
  const handlers: Array<Promise<void>> = [];
  // One file after the other: the next is handed over once the previous one has been received.
  let previous: Promise<void> = Promise.resolve();

  parser.on("field", (name, value) => {
    const values = fields.get(name) ?? [];
    values.push(value);
    fields.set(name, values);
  });
  parser.on("file", (field, stream, info) => {
    const chunks = stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
    const handled = previous.then(async () => {
      try {
        await onFile({ field, name: sentName(info.filename ?? ""), chunks });
      } finally {
        // Whatever was not read is received and dropped (its memory freed at once when it was
        // handed over), so the form's next part can come.
        stream.on("data", releaseHandedOver);
        stream.resume();
        if (!stream.readableEnded && !stream.destroyed)
          await new Promise<void>((resolve) => {
            stream.once("end", resolve);
            stream.once("close", resolve);
          });
      }
    });
    previous = handled.catch(() => undefined);
    handlers.push(handled);
  });

  let problem: "too-large" | "unreadable" | null = null;
  let parserError: Error | null = null;
  parser.on("error", (error: Error) => (parserError ??= error));
  // Fed one chunk at a time, each once the previous one has been taken in: the body is counted
  // as it arrives and never read ahead of the files being written.
  const owned = request.body ? chunksAreOwned(request.body) : false;
  const reader = request.body?.getReader();
  let total = 0;
  try {
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limits.maxRequestBytes) {
        problem = "too-large";
        break;
      }
      // The parser passes a file's bytes on as views of this chunk; one that is all of it is
      // freed by storage once written instead of waiting for the garbage collector.
      if (owned) handOver(next.value);
      await new Promise<void>((resolve, reject) =>
        parser.write(next.value, (error) => (error ? reject(error) : resolve())),
      );
    }
    if (!problem) {
      parser.end();
      await finished(parser);
    }
  } catch {
    problem = "unreadable";
  }
  if (problem || parserError) {
    problem ??= "unreadable";
    await reader?.cancel().catch(() => undefined);
    parser.destroy(new Error("The form was not read to its end."));
  }
  const results = await Promise.allSettled(handlers);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (problem) return { ok: false, problem };
  if (failed) throw failed.reason;
  return { ok: true, fields };
}
