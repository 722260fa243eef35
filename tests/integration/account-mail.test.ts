import { afterEach, describe, expect, it, vi } from "vitest";
import { action as loginAction } from "~/routes/auth/login";
import { action as resetAction } from "~/routes/auth/reset-password";
import { action as signupAction } from "~/routes/auth/signup";
import { accountMailSent } from "~/server/auth/better-auth.server";
import type { Mail } from "~/server/mail/mail.server";
import { formRequest, routeArgs, unwrap } from "../helpers/route";
import { signupFields } from "../helpers/signup";
import { signedInClient } from "./helpers";

// The outgoing mail is held here: each message waits until the test lets it go (or fails it),
// so a test can see whether an answer waited for its e-mail.
const held = vi.hoisted(() => ({
  /** Between tests every message goes at once. */
  flowing: false,
  sent: [] as Mail[],
  waiting: [] as Array<{ mail: Mail; release: () => void; fail: (error: Error) => void }>,
}));
vi.mock("~/server/mail/mail.server", () => ({
  sendMail: (mail: Mail) =>
    new Promise<void>((resolve, reject) => {
      if (held.flowing) {
        held.sent.push(mail);
        return resolve();
      }
      held.waiting.push({
        mail,
        release: () => {
          held.sent.push(mail);
          resolve();
        },
        fail: reject,
      });
    }),
}));

function releaseAll() {
  for (const w of held.waiting.splice(0)) w.release();
}

afterEach(async () => {
  held.flowing = true;
  releaseAll();
  await accountMailSent();
  held.flowing = false;
  held.sent.length = 0;
  vi.restoreAllMocks();
});

const forgot = async (email: string, ip: string) =>
  unwrap(
    await loginAction(
      routeArgs(formRequest("/login", { intent: "forgot", email }), { clientIp: ip }) as never,
    ),
  );
const requestAgain = async (email: string, ip: string) =>
  unwrap(
    await resetAction(
      routeArgs(formRequest("/reset-password", { intent: "request", email }), { clientIp: ip }) as never,
    ),
  );

describe("account e-mails do not tell who has an account", () => {
  it("a reset request answers the same for a known and an unknown address, without waiting for the e-mail", async () => {
    await signedInClient("known@example.com");
    for (const ask of [forgot, requestAgain]) {
      const known = await ask("known@example.com", "192.0.2.11");
      // The answer came back before the e-mail went (the reset is made after the answer).
      expect(held.sent).toEqual([]);
      await vi.waitFor(() => expect(held.waiting.map((w) => w.mail.to)).toEqual(["known@example.com"]));
      const unknown = await ask("nobody@example.com", "192.0.2.12");
      expect(unknown.status).toBe(known.status);
      // The sign-in page gives back the address typed, to fill its field again; the rest is the same.
      expect({ ...(unknown.body as object), email: "(typed)" }).toEqual({
        ...(known.body as object),
        email: "(typed)",
      });
      expect(known.status).toBe(200);
      releaseAll();
      await accountMailSent();
      expect(held.sent.map((m) => [m.to, m.subject])).toEqual([
        ["known@example.com", "Reset your TaxBridge password"],
      ]);
      held.sent.length = 0;
    }
  });

  it("sign-up and the verification resend answer without waiting for their e-mails", async () => {
    const fields = signupFields("held@example.com", "held pass 12", "Held Mail");
    const signup = async () => unwrap(await signupAction(routeArgs(formRequest("/signup", fields)) as never));
    expect(await signup()).toMatchObject({ status: 200, body: { ok: true } });
    expect(await signup()).toMatchObject({ status: 200, body: { ok: true } });
    const resend = unwrap(
      await loginAction(
        routeArgs(formRequest("/login", { intent: "resend", email: "held@example.com" })) as never,
      ),
    );
    expect(resend.status).toBe(200);
    expect(held.sent).toEqual([]);
    await vi.waitFor(() =>
      expect(held.waiting.map((w) => w.mail.subject)).toEqual([
        "Verify your e-mail for TaxBridge",
        "Verify your e-mail for TaxBridge",
        "Verify your e-mail for TaxBridge",
      ]),
    );
  });

  it("a failed send is logged by its kind only: no address, no link", async () => {
    await signedInClient("known@example.com");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await forgot("known@example.com", "192.0.2.13");
    expect(answer.status).toBe(200);
    await vi.waitFor(() => expect(held.waiting).toHaveLength(1));
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:587 known@example.com"), {
      code: "ECONNREFUSED",
    });
    held.waiting.splice(0).forEach((w) => w.fail(refused));
    await accountMailSent();
    expect(logged).toHaveBeenCalledTimes(1);
    const line = String(logged.mock.calls[0]![0]);
    expect(line).toBe("[mail] a password-reset e-mail was not sent (ECONNREFUSED), try 1: tried again in 1 min");
    expect(line).not.toContain("known@example.com");
    expect(line).not.toContain("127.0.0.1");
  });
});
