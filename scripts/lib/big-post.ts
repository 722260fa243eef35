// A large form POST sent with node:http, for the body-limit checks of the browser tests and the
// benchmark: its length declared or sent chunked, and no more sent once the server has answered.
import http from "node:http";

export type BigPostAnswer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes handed to the connection before the answer came. */
  sent: number;
};

/**
 * POSTs `bytes` of form data to `url`, declaring its length or sending it chunked, and stops
 * sending as soon as an answer arrives (the server may close the connection then). With
 * `sendAtMost`, it stops sending after that many bytes without ending the body, and waits up to
 * 10 s for an answer: one that comes shows the server answered without the rest of the body.
 */
export function bigPost(url: string, bytes: number, declareLength: boolean, sendAtMost = bytes): Promise<BigPostAnswer> {
  const target = new URL(url);
  return new Promise<BigPostAnswer>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let waiting: NodeJS.Timeout | undefined;
    const request = http.request(target, {
      method: "POST",
      headers: {
        origin: target.origin,
        "content-type": "application/x-www-form-urlencoded",
        ...(declareLength ? { "content-length": String(bytes) } : {}),
      },
    });
    request.on("response", (response) => {
      answered = true;
      clearTimeout(waiting);
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, sent }),
      );
      response.on("error", reject);
    });
    // The server reads a refused body until this client stops sending (it stops at the answer),
    // so a write fails only when the answer was lost: an error before the answer is a failure.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    chunk.write("message=");
    // One chunk per turn of the event loop, so an answer that has come is seen before the next
    // chunk goes (the server reads and throws away a refused body as fast as it comes, so waiting
    // for the connection to drain alone could send all of it before the answer is looked at).
    const pump = () => {
      if (answered || request.destroyed) return;
      if (sent >= bytes) return void request.end();
      if (sent >= sendAtMost) {
        waiting = setTimeout(() => {
          request.destroy();
          reject(new Error(`no answer within 10 s of ${sent} of ${bytes} bytes`));
        }, 10_000);
        return;
      }
      sent += chunk.byteLength;
      if (request.write(chunk)) setImmediate(pump);
      else request.once("drain", pump);
    };
    pump();
  });
}
