// A large document upload sent with node:http as a streamed multipart body: the bytes are made
// as they are sent, so the sender holds no copy of the file.
import http from "node:http";

export type UploadAnswer = { status: number; body: string };

/**
 * Uploads one PDF of `bytes` bytes under `category` to the staff upload address `url`,
 * as a browser's form would (multipart/form-data, its length declared).
 */
export function bigUpload(url: string, cookie: string, category: string, bytes: number): Promise<UploadAnswer> {
  const target = new URL(url);
  const boundary = `----taxbridge-bench-${Date.now().toString(36)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\n${category}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench-upload.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pdfStart = Buffer.from("%PDF-1.4\n% bench\n");
  const pdfEnd = Buffer.from("\n%%EOF\n");
  const filler = bytes - pdfStart.length - pdfEnd.length;
  return new Promise<UploadAnswer>((resolve, reject) => {
    const request = http.request(target, {
      method: "POST",
      headers: {
        origin: target.origin,
        cookie,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + bytes + tail.length),
      },
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.write(head);
    request.write(pdfStart);
    const chunk = Buffer.alloc(64 * 1024, "0");
    let left = filler;
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!request.write(piece)) return void request.once("drain", pump);
      }
      request.write(pdfEnd);
      request.end(tail);
    };
    pump();
  });
}
