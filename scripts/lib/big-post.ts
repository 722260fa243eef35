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
 * sending as soon as an answer arrives (the server may close the connection then).
 */
export function bigPost(url: string, bytes: number, declareLength: boolean): Promise<BigPostAnswer> {
  const target = new URL(url);
  return new Promise<BigPostAnswer>((resolve, reject) => {
    let sent = 0;
    let answered = false;
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
    const pump = () => {
      while (sent < bytes && !answered && !request.destroyed) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (sent >= bytes && !request.destroyed) request.end();
    };
    pump();
  });
}
