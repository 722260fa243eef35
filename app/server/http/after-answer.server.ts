import { AsyncLocalStorage } from "node:async_hooks";
import type { EventEmitter } from "node:events";

// Work a request causes but must not wait for (its e-mails: app/server/mail/outbox.server.ts):
// started once the request's answer has been sent, so a slow or silent server behind that work
// never holds the answer up. The Express server opens a scope per request (server/app.ts);
// outside one (the scheduled jobs, scripts, tests calling the server's functions) the work
// starts at the next turn of the event loop.

type Scope = { answered: boolean; tasks: Array<() => void> };

const scopes = new AsyncLocalStorage<Scope>();

/**
 * Runs `next` (the rest of the request's handling) in a scope whose afterAnswer tasks start when
 * `res` closes: its answer sent in full, or the connection gone.
 */
export function answerFirst(res: EventEmitter, next: () => void): void {
  const scope: Scope = { answered: false, tasks: [] };
  res.once("close", () => {
    scope.answered = true;
    for (const task of scope.tasks.splice(0)) setImmediate(task);
  });
  scopes.run(scope, next);
}

/**
 * Starts `task` once the current request has been answered; at once (at the next turn) when
 * there is no request, or when its answer is already sent.
 */
export function afterAnswer(task: () => void): void {
  const scope = scopes.getStore();
  if (scope && !scope.answered) scope.tasks.push(task);
  else setImmediate(task);
}
