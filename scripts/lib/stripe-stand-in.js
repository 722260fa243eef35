// A local stand-in for the part of Stripe's API that TaxBridge uses, for tests without the
// internet (stripe-mock is a Go binary, not on npm; docs/decisions/0030-stripe-checkout-and-webhook.md).
// Plain JavaScript so that scripts/e2e-server.js can start it beside the browser tests' server;
// tests/helpers/stripe-server.ts gives it types for the integration tests.
//
// It answers what Stripe's Node library sends (form-encoded bodies, Idempotency-Key):
//   POST /v1/checkout/sessions (with expires_at, 30 minutes to 24 hours ahead),
//   GET /v1/checkout/sessions/:id, POST /v1/checkout/sessions/:id/expire (an open session only),
//   POST /v1/refunds, GET /v1/refunds/:id, GET /v1/refunds?payment_intent=...
// and serves a tiny hosted payment page, GET /checkout/:id, whose "Pay" and "Pay by bank account"
// buttons complete the session the way Stripe does: the signed checkout.session.completed event
// is posted to the app's webhook, then the browser is sent to the session's success_url; an
// expired session can no longer be paid. Tests send the later events (a bank payment clearing
// or failing, a refund's outcome, a refund made in Stripe's Dashboard) with the methods below,
// or over HTTP (POST /_stand-in/...) from another process. Like Stripe, it can do what it was
// asked and then not answer in time (timeOut) or drop the connection (hangUp): the caller
// cannot know whether it was done.
import { randomBytes } from "node:crypto";
import http from "node:http";
import Stripe from "stripe";

/**
 * @typedef {{ method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | null }} RecordedRequest
 * @typedef {{ status: number; body: string }} Delivery
 * @typedef {(payload: string, signature: string) => Promise<Delivery>} Deliver
 * @typedef {{ type: string; eventId: string; status: number }} DeliveryRecord
 * @typedef {Record<string, any>} StripeObject
 * @typedef {{ event: StripeObject; payload: string; signature: string }} SignedEvent
 * @typedef {{
 *   webhookSecret: string;
 *   webhookUrl?: string;
 *   deliver?: Deliver;
 *   port?: number;
 *   host?: string;
 * }} StandInOptions
 */

/** An id in Stripe's shape: `cs_test_...`, `evt_...`. */
function newId(prefix) {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

const now = () => Math.floor(Date.now() / 1000);

/**
 * A form body as Stripe's library sends it (`line_items[0][price_data][unit_amount]=29900`) as
 * nested objects and arrays; every value stays a string, as Stripe receives it.
 * @param {string} text
 * @returns {Record<string, unknown>}
 */
export function parseStripeForm(text) {
  /** @type {Record<string, any>} */
  const root = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split("[").map((part, i) => (i === 0 ? part : part.replace(/\]$/, "")));
    /** @type {any} */
    let node = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1] ?? "");
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

/** @param {string} type @param {string} message */
function stripeError(type, message) {
  return { error: { type, message } };
}

/** @param {http.IncomingMessage} req @returns {Promise<string>} */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "$1,234.50" from cents. @param {number} cents */
function dollars(cents) {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * Starts the stand-in on `host` (127.0.0.1) at `port` (0: any free one).
 * @param {StandInOptions} options
 */
export async function startStripeStandIn(options) {
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {DeliveryRecord[]} */
  const deliveries = [];
  /** @type {Map<string, StripeObject>} */
  const sessions = new Map();
  /** @type {Map<string, StripeObject>} */
  const refunds = new Map();
  /** @type {Map<string, { body: string; status: number; answer: unknown }>} */
  const idempotent = new Map();
  /** @type {Map<string, { id: string; amount: number }>} the charge of each PaymentIntent */
  const charges = new Map();
  /** @type {((request: RecordedRequest) => boolean) | null} */
  let refusing = null;
  /** @type {{ status: number; type: string; message: string }} what a refused request is answered */
  let refusal = { status: 500, type: "api_error", message: "The stand-in was told to fail this request." };
  /** @type {{ matches: (request: RecordedRequest) => boolean; ms: number | null } | null} */
  let stalling = null;
  let deliver = options.deliver ?? postTo(options.webhookUrl);

  /** @param {string | undefined} url @returns {Deliver} */
  function postTo(url) {
    return async (payload, signature) => {
      if (!url) throw new Error("The Stripe stand-in has no webhook address to send events to.");
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        body: payload,
      });
      return { status: response.status, body: await response.text() };
    };
  }

  /**
   * An event about `object`, signed as Stripe signs it (`timestamp` in seconds, by default now;
   * `secret`, by default the endpoint's).
   * @param {string} type @param {StripeObject} object
   * @param {{ id?: string; timestamp?: number; secret?: string }} [opts]
   * @returns {SignedEvent}
   */
  function signedEvent(type, object, opts = {}) {
    const event = {
      id: opts.id ?? newId("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: opts.timestamp ?? now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? options.webhookSecret, timestamp: opts.timestamp });
    return { event, payload, signature };
  }

  /**
   * Sends a signed event to the app's webhook; what the app answered.
   * @param {string} type @param {StripeObject} object
   * @param {{ id?: string; timestamp?: number; secret?: string }} [opts]
   */
  async function sendEvent(type, object, opts = {}) {
    const signed = signedEvent(type, object, opts);
    const answer = await deliver(signed.payload, signed.signature);
    deliveries.push({ type, eventId: signed.event.id, status: answer.status });
    return { ...answer, event: signed.event };
  }

  /** @param {string} id */
  function sessionOf(id) {
    const session = sessions.get(id);
    if (!session) throw new Error(`The Stripe stand-in has no Checkout Session ${id}.`);
    return session;
  }

  /**
   * Completes Checkout Session `id` as Stripe does when the customer pays: by card (paid at once)
   * or by US bank account (unpaid until the debit clears), and sends checkout.session.completed.
   * @param {string} id @param {"card" | "bank"} method
   */
  async function completeSession(id, method) {
    const session = sessionOf(id);
    if (session.status !== "open") throw new Error(`Checkout Session ${id} is ${session.status}.`);
    const paymentIntent = newId("pi");
    charges.set(paymentIntent, { id: newId("ch"), amount: session.amount_total });
    Object.assign(session, {
      status: "complete",
      payment_status: method === "card" ? "paid" : "unpaid",
      payment_intent: paymentIntent,
      customer_details: { email: session.customer_email, name: null },
    });
    return sendEvent("checkout.session.completed", { ...session });
  }

  /**
   * A bank payment's outcome days later: checkout.session.async_payment_succeeded or _failed.
   * @param {string} id @param {"succeeded" | "failed"} outcome
   */
  async function asyncPayment(id, outcome) {
    const session = sessionOf(id);
    if (outcome === "succeeded") session.payment_status = "paid";
    return sendEvent(`checkout.session.async_payment_${outcome}`, { ...session });
  }

  /**
   * A refund's outcome: its status becomes `status` and refund.updated is sent.
   * @param {string} id @param {"succeeded" | "failed" | "canceled" | "pending"} status
   */
  async function refundUpdate(id, status) {
    const refund = refunds.get(id);
    if (!refund) throw new Error(`The Stripe stand-in has no refund ${id}.`);
    refund.status = status;
    return sendEvent("refund.updated", { ...refund });
  }

  /**
   * A refund made in Stripe's Dashboard of PaymentIntent `paymentIntent` (no metadata of the
   * app's): refund.created, then charge.refunded (whose charge, as in current API versions, does
   * not list its refunds) are sent. What the app answered to each.
   * @param {string} paymentIntent @param {number} amount
   * @param {{ status?: "succeeded" | "pending" }} [opts]
   */
  async function dashboardRefund(paymentIntent, amount, opts = {}) {
    const [status, refund] = createRefund({ payment_intent: paymentIntent, amount: String(amount) });
    if (status !== 200) throw new Error(`The Stripe stand-in refused the refund: ${JSON.stringify(refund)}`);
    const made = /** @type {StripeObject} */ (refund);
    made.status = opts.status ?? "succeeded";
    const created = await sendEvent("refund.created", { ...made });
    const refunded = await sendEvent("charge.refunded", chargeOf(paymentIntent));
    return { refund: made, created, refunded };
  }

  /** The charge of a PaymentIntent as charge.refunded carries it (no refunds list). @param {string} paymentIntent */
  function chargeOf(paymentIntent) {
    const charge = charges.get(paymentIntent);
    if (!charge) throw new Error(`The Stripe stand-in has no charge of ${paymentIntent}.`);
    const refunded = [...refunds.values()].filter((r) => r.payment_intent === paymentIntent && r.status !== "failed" && r.status !== "canceled").reduce((sum, r) => sum + r.amount, 0);
    return { id: charge.id, object: "charge", amount: charge.amount, amount_captured: charge.amount, amount_refunded: refunded, currency: "usd", payment_intent: paymentIntent, refunded: refunded >= charge.amount, status: "succeeded" };
  }

  /** @param {Record<string, any>} body @returns {[number, unknown]} */
  function createSession(body) {
    const items = Array.isArray(body.line_items) ? body.line_items : [];
    const amounts = items.map((item) => Number(item?.price_data?.unit_amount) * Number(item?.quantity ?? 1));
    const currency = items[0]?.price_data?.currency;
    if (body.mode !== "payment" || items.length === 0 || amounts.some((a) => !Number.isSafeInteger(a) || a < 0) || !currency || !body.success_url) {
      return [400, stripeError("invalid_request_error", "mode=payment, line_items with price_data and success_url are required.")];
    }
    let expiresAt = now() + 24 * 60 * 60;
    if (body.expires_at !== undefined) {
      expiresAt = Number(body.expires_at);
      if (!Number.isSafeInteger(expiresAt) || expiresAt < now() + 30 * 60 || expiresAt > now() + 24 * 60 * 60)
        return [400, stripeError("invalid_request_error", "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.")];
    }
    const id = newId("cs_test");
    const methods = body.allowed_payment_method_types ?? body.payment_method_types ?? ["card"];
    const amount = amounts.reduce((sum, a) => sum + a, 0);
    const session = {
      id,
      object: "checkout.session",
      allowed_payment_method_types: methods,
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: body.cancel_url ?? null,
      client_reference_id: body.client_reference_id ?? null,
      created: now(),
      currency,
      customer: null,
      customer_details: null,
      customer_email: body.customer_email ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata: body.metadata ?? {},
      mode: "payment",
      payment_intent: null,
      payment_method_types: methods,
      payment_status: "unpaid",
      status: "open",
      success_url: body.success_url,
      url: `${base}/checkout/${id}`,
    };
    sessions.set(id, session);
    return [200, session];
  }

  /** @param {Record<string, any>} body @returns {[number, unknown]} */
  function createRefund(body) {
    if (!body.payment_intent && !body.charge) return [400, stripeError("invalid_request_error", "payment_intent or charge is required.")];
    const charge = body.payment_intent ? charges.get(body.payment_intent) : undefined;
    const left = charge ? charge.amount - chargeOf(body.payment_intent).amount_refunded : Number.POSITIVE_INFINITY;
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left)
      return [400, stripeError("invalid_request_error", `Refund amount is greater than what is left of the charge.`)];
    const refund = {
      id: newId("re"),
      object: "refund",
      amount,
      charge: body.charge ?? charge?.id ?? newId("ch"),
      created: now(),
      currency: "usd",
      metadata: body.metadata ?? {},
      payment_intent: body.payment_intent ?? null,
      reason: body.reason ?? null,
      status: "pending",
    };
    refunds.set(refund.id, refund);
    return [200, refund];
  }

  /** The hosted payment page. @param {StripeObject} session */
  function paymentPage(session) {
    const name = session.metadata?.number ? `Invoice ${session.metadata.number}` : "Payment";
    const form = (method, label) =>
      `<form method="post" action="/checkout/${session.id}"><input type="hidden" name="method" value="${method}"><button type="submit">${label}</button></form>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe stand-in: ${escapeHtml(name)}</title></head><body>
<h1>${escapeHtml(name)}</h1>
<p id="amount">${dollars(session.amount_total)}</p>
<p>A test stand-in for Stripe Checkout${session.customer_email ? `: ${escapeHtml(String(session.customer_email))}` : ""}.</p>
${session.status === "open" ? `${form("card", "Pay")}\n${form("bank", "Pay by bank account")}` : session.status === "expired" ? "<p>This session has expired: it can no longer be paid.</p>" : "<p>This session is complete.</p>"}
<p><a href="${escapeHtml(String(session.cancel_url ?? "/"))}">Cancel</a></p>
</body></html>`;
  }

  /**
   * @param {http.ServerResponse} res @param {number} status @param {unknown} body
   * @param {Record<string, string>} [headers]
   */
  function sendJson(res, status, body, headers = {}) {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": newId("req"), ...headers });
    res.end(JSON.stringify(body));
  }

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function handle(req, res) {
    const url = new URL(req.url ?? "/", base);
    const method = req.method ?? "GET";
    const text = await readBody(req);

    // The hosted page, and its buttons.
    const page = /^\/checkout\/(cs_test_[0-9a-f]+)$/.exec(url.pathname);
    if (page) {
      const session = sessions.get(page[1] ?? "");
      if (!session) return void res.writeHead(404, { "Content-Type": "text/plain" }).end("No such session.");
      if (method === "POST" && session.status === "open") {
        const payWith = new URLSearchParams(text).get("method") === "bank" ? "bank" : "card";
        await completeSession(session.id, payWith);
      }
      if (session.status === "expired") return void res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(paymentPage(session));
      if (method === "POST" || session.status !== "open") {
        const target = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id);
        return void res.writeHead(303, { Location: target }).end();
      }
      return void res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(paymentPage(session));
    }

    // Control from a test in another process.
    const control = /^\/_stand-in\/(sessions|refunds)\/([A-Za-z0-9_]+)\/(async-payment|status)$/.exec(url.pathname);
    if (method === "POST" && control) {
      const form = new URLSearchParams(text);
      const [, kind, id = "", what] = control;
      const sent =
        kind === "sessions" && what === "async-payment"
          ? await asyncPayment(id, form.get("outcome") === "failed" ? "failed" : "succeeded")
          : kind === "refunds" && what === "status"
            ? await refundUpdate(id, /** @type {"succeeded" | "failed" | "canceled"} */ (form.get("status") ?? "succeeded"))
            : null;
      return sent ? sendJson(res, 200, { status: sent.status, eventId: sent.event.id }) : sendJson(res, 404, {});
    }
    if (method === "GET" && url.pathname === "/_stand-in/requests") return sendJson(res, 200, requests);

    // The API.
    if (!url.pathname.startsWith("/v1/")) return sendJson(res, 404, stripeError("invalid_request_error", "Unrecognized request URL."));
    const body = method === "POST" ? parseStripeForm(text) : Object.fromEntries(url.searchParams);
    const idempotencyKey = req.headers["idempotency-key"] ? String(req.headers["idempotency-key"]) : null;
    /** @type {RecordedRequest} */
    const recorded = { method, path: url.pathname, body, idempotencyKey };
    requests.push(recorded);
    // A test-mode secret key, as the library sends it (Bearer) or curl does (Basic, the key as user name).
    const authorization = String(req.headers.authorization ?? "");
    const basicUser = authorization.startsWith("Basic ") ? Buffer.from(authorization.slice(6), "base64").toString("utf8").split(":")[0] : "";
    if (!authorization.startsWith("Bearer sk_test_") && !basicUser?.startsWith("sk_test_")) {
      return sendJson(res, 401, stripeError("invalid_request_error", "Invalid API Key provided."));
    }
    if (refusing?.(recorded)) {
      return sendJson(res, refusal.status, stripeError(refusal.type, refusal.message), { "Stripe-Should-Retry": "false" });
    }
    if (method === "POST" && idempotencyKey) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.body !== text) {
        return sendJson(res, 400, stripeError("idempotency_error", "Keys for idempotent requests can only be used with the same parameters they were first used with."));
      }
      if (earlier) {
        const stall = stalling?.matches(recorded) ? stalling : null;
        if (stall && stall.ms === null) return void req.socket.destroy();
        if (stall?.ms) await new Promise((resolve) => setTimeout(resolve, stall.ms ?? 0));
        if (!res.destroyed) sendJson(res, earlier.status, earlier.answer, { "Idempotent-Replayed": "true" });
        return;
      }
    }
    /** @type {[number, unknown]} */
    let result;
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    const expirePath = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
    const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
    if (method === "POST" && url.pathname === "/v1/checkout/sessions") result = createSession(body);
    else if (method === "GET" && sessionPath) {
      const session = sessions.get(decodeURIComponent(sessionPath[1] ?? ""));
      result = session ? [200, session] : [404, stripeError("invalid_request_error", "No such checkout.session.")];
    } else if (method === "POST" && expirePath) {
      const session = sessions.get(decodeURIComponent(expirePath[1] ?? ""));
      if (!session) result = [404, stripeError("invalid_request_error", "No such checkout.session.")];
      else if (session.status !== "open") result = [400, stripeError("invalid_request_error", `Only Checkout Sessions with a status in ["open"] can be expired. This session is ${session.status}.`)];
      else {
        session.status = "expired";
        result = [200, session];
      }
    } else if (method === "GET" && url.pathname === "/v1/refunds") {
      const of = url.searchParams.get("payment_intent");
      const data = [...refunds.values()].filter((r) => !of || r.payment_intent === of).reverse();
      result = [200, { object: "list", data, has_more: false, url: "/v1/refunds" }];
    } else if (method === "POST" && url.pathname === "/v1/refunds") result = createRefund(body);
    else if (method === "GET" && refundPath) {
      const refund = refunds.get(decodeURIComponent(refundPath[1] ?? ""));
      result = refund ? [200, refund] : [404, stripeError("invalid_request_error", "No such refund.")];
    } else result = [404, stripeError("invalid_request_error", "Unrecognized request URL.")];
    if (method === "POST" && idempotencyKey) idempotent.set(idempotencyKey, { body: text, status: result[0], answer: result[1] });
    await answerOrNot(req, res, recorded, result);
  }

  /**
   * Sends the answer, unless the request is one `stalling` picks: then the work is done (and
   * kept under its idempotency key) but the answer comes only after `ms`, when the caller has
   * stopped waiting, or never (the connection is dropped).
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {RecordedRequest} recorded @param {[number, unknown]} result
   */
  async function answerOrNot(req, res, recorded, result) {
    const stall = stalling?.matches(recorded) ? stalling : null;
    if (stall && stall.ms === null) return void req.socket.destroy();
    if (stall?.ms) await new Promise((resolve) => setTimeout(resolve, stall.ms ?? 0));
    if (!res.destroyed) sendJson(res, result[0], result[1]);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, stripeError("api_error", error instanceof Error ? error.message : "stand-in failure"));
      else res.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const base = `http://${host}:${port}`;

  return {
    /** The stand-in's address: STRIPE_API_URL. */
    url: base,
    port,
    /** Every API request received (method, path, parsed body, Idempotency-Key), oldest first. */
    requests,
    /** Every event sent to the webhook and what the app answered. */
    deliveries,
    sessions,
    refunds,
    signedEvent,
    sendEvent,
    completeSession,
    asyncPayment,
    refundUpdate,
    dashboardRefund,
    chargeOf,
    /** Where events go from now on (an integration test calls the route itself). @param {Deliver} next */
    setDeliver(next) {
      deliver = next;
    },
    /**
     * Answers the API requests `matches` picks with an error until cleared (null), without doing
     * them: Stripe's 500 api_error unless `answer` says another (a 400 invalid_request_error or
     * 402 card_error: Stripe's definite "no"; a 409: the same key still being worked on).
     * @param {((request: RecordedRequest) => boolean) | null} matches
     * @param {{ status: number; type: string; message?: string }} [answer]
     */
    refuse(matches, answer) {
      refusing = matches;
      refusal = { status: answer?.status ?? 500, type: answer?.type ?? "api_error", message: answer?.message ?? "The stand-in was told to fail this request." };
    },
    /**
     * Does the API requests `matches` picks (until cleared: null) and then answers only after
     * `ms` milliseconds, when the caller has given up: Stripe timing out after it refunded.
     * @param {((request: RecordedRequest) => boolean) | null} matches @param {number} ms
     */
    timeOut(matches, ms) {
      stalling = matches ? { matches, ms } : null;
    },
    /** Does the requests `matches` picks and drops the connection instead of answering. @param {((request: RecordedRequest) => boolean) | null} matches */
    hangUp(matches) {
      stalling = matches ? { matches, ms: null } : null;
    },
    /** @returns {Promise<void>} */
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
