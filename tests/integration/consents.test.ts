import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { business } from "~/content/business";
import {
  CONSENT_MESSAGES,
  CONSENT_TEXT_VERSION,
  consentInForce,
  consentText,
  inForceThrough,
  MANDATORY,
} from "~/domain/consents";
import type { ConsentRecord } from "~/domain/consents";
import { answerConsent, consentPage, hasConsentInForce, mayMailOffers, ownConsents, withdrawConsent } from "~/server/consents/consents.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, consentWithdrawals, consents, user } from "~/server/db/schema";
import { account } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { setWorksOutsideUs } from "~/server/consents/outside-us.server";

// The consents under section 7216 (docs/product/engagement.md#consents-under-section-7216): the
// texts and their mandatory statements, the records of each answer and withdrawal (append-only,
// kept), which consent is in force, and the client's pages as every kind of visitor.

const IP = "203.0.113.9";
const UA = "Mozilla/5.0 (consents test)";

const list = await routeModule("routes/portal/my-consents.tsx");
const page = await routeModule("routes/portal/my-consent.tsx");

let admin: Account;
let preparer: Account;
let offshore: Account;
let alice: Account;
let bob: Account;

beforeEach(async () => {
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  offshore = await account("omar.offshore@example.com", "Omar Offshore", "preparer");
  expect((await setWorksOutsideUs(admin.actor, offshore.id, true, IP)).outcome).toBe("done");
  alice = await account("alice@example.com", "Alice Aardvark");
  bob = await account("bob@example.com", "Bob Bobolink");
});

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The client's answer as their page sends it, with the SHA-256 of the text it shows now. */
async function answer(who: Account, kind: "use" | "disclose", decision: "given" | "refused", extra: { typedName?: string; months?: number | null; now?: Date } = {}) {
  const shown = await consentPage(who.actor, kind);
  return answerConsent(
    who.actor,
    { kind, decision, typedName: extra.typedName ?? (decision === "given" ? "Alice Aardvark" : ""), months: extra.months === undefined ? 12 : extra.months, shownSha256: shown!.sha256 },
    IP,
    UA,
    extra.now,
  );
}

const rowsOf = async (clientId: string) => getDb().select().from(consents).where(eq(consents.clientId, clientId));
const everything = async () =>
  JSON.stringify([await getDb().select().from(consents), await getDb().select().from(consentWithdrawals), (await getDb().select().from(auditLog)).length]);

describe("the texts", () => {
  const context = { firmName: business.name, firmAddress: business.address.lines.join(", "), clientName: "Alice Aardvark" };

  it("each carries the mandatory statements of its kind word for word, and names the firm, the client, the purpose, the information, to whom and how long", () => {
    const use = consentText(CONSENT_TEXT_VERSION, "use", context);
    const disclose = consentText(CONSENT_TEXT_VERSION, "disclose", context);
    expect(use).toContain(
      "Federal law requires this consent form be provided to you. Unless authorized by law, we cannot use your tax return information for purposes other than the preparation and filing of your tax return without your consent.",
    );
    expect(use).toContain(
      "You are not required to complete this form to engage our tax return preparation services. If we obtain your signature on this form by conditioning our tax return preparation services on your consent, your consent will not be valid. Your consent is valid for the amount of time that you specify. If you do not specify the duration of your consent, your consent is valid for one year from the date of signature.",
    );
    expect(disclose).toContain(
      "Federal law requires this consent form be provided to you. Unless authorized by law, we cannot disclose your tax return information to third parties for purposes other than the preparation and filing of your tax return without your consent. If you consent to the disclosure of your tax return information, Federal law may not protect your tax return information from further use or distribution.",
    );
    expect(disclose).toContain(
      "You are not required to complete this form to engage our tax return preparation services. If we obtain your signature on this form by conditioning our tax return preparation services on your consent, your consent will not be valid. If you agree to the disclosure of your tax return information, your consent is valid for the amount of time that you specify. If you do not specify the duration of your consent, your consent is valid for one year from the date of signature.",
    );
    expect(disclose).toContain("This consent to disclose may result in your tax return information being disclosed to a tax return preparer located outside the United States.");
    const tigta =
      "If you believe your tax return information has been disclosed or used improperly in a manner unauthorized by law or without your permission, you may contact the Treasury Inspector General for Tax Administration (TIGTA) by telephone at 1-800-366-4484, or by email at complaints@tigta.treas.gov.";
    expect(use).toContain(tigta);
    expect(disclose).toContain(tigta);
    // Each is its own document: the other kind's statements are not in it; the SSN variant is in neither.
    expect(use).not.toContain(MANDATORY.discloseIntro);
    expect(disclose).not.toContain(MANDATORY.useIntro);
    expect(disclose).not.toContain("Social Security Number (");
    for (const text of [use, disclose]) {
      expect(text).toContain(`Tax return preparer: ${business.name}, ${business.address.lines.join(", ")}.`);
      expect(text).toContain("Taxpayer: Alice Aardvark.");
      expect(text).toMatch(/\nPurpose: /);
      expect(text).toMatch(/\nInformation we would (use|disclose): /);
      expect(text).toMatch(/\n(Who would use it|To whom): /);
      expect(text).toContain("one year unless you choose another");
    }
    expect(() => consentText("no-such-version", "use", context)).toThrow(RangeError);
  });

  it("counts a consent's days from New York's day: a year from March 10 is through March 9", () => {
    expect(inForceThrough("2026-03-10", 12)).toBe("2027-03-09");
    expect(inForceThrough("2026-01-31", 3)).toBe("2026-04-29");
    expect(inForceThrough("2028-02-29", 12)).toBe("2029-02-27");
    expect(inForceThrough("2026-11-29", 36)).toBe("2029-11-28");
  });
});

describe("the records", () => {
  it("records a consent given: the exact text shown, its SHA-256 and version, the typed name, the period, time, IP and browser, audited", async () => {
    const shown = await consentPage(alice.actor, "disclose");
    const got = await answer(alice, "disclose", "given", { typedName: "  alice   AARDVARK ", months: 24, now: new Date("2026-03-10T15:00:00Z") });
    expect(got).toEqual({ ok: true, message: CONSENT_MESSAGES.given("Consent to disclose your tax return information", "2028-03-09") });
    const [row] = await rowsOf(alice.id);
    expect(row).toMatchObject({
      kind: "disclose",
      decision: "given",
      text: shown!.text,
      textSha256: sha(shown!.text),
      textVersion: CONSENT_TEXT_VERSION,
      typedName: "alice AARDVARK",
      months: 24,
      inForceThrough: "2028-03-09",
      ipAddress: IP,
      userAgent: UA,
    });
    expect(row!.recipient).toContain(business.name);
    expect(row!.retainUntil.getTime()).toBeGreaterThan(new Date("2031-03-09T00:00:00Z").getTime());
    const audit = await getDb().select().from(auditLog).where(eq(auditLog.action, "consent-given"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).not.toContain("Aardvark");
  });

  it("records a refusal without a name, and a withdrawal that ends the consent at once", async () => {
    expect((await answer(alice, "use", "given")).ok).toBe(true);
    expect(await mayMailOffers(alice.id)).toBe(true);
    expect(await withdrawConsent(alice.actor, "use", IP, UA)).toEqual({ ok: true, message: CONSENT_MESSAGES.withdrawn("Consent to use your tax return information") });
    expect(await mayMailOffers(alice.id)).toBe(false);
    const [w] = await getDb().select().from(consentWithdrawals);
    expect(w).toMatchObject({ clientId: alice.id, ipAddress: IP, userAgent: UA });
    // Nothing left to withdraw.
    expect(await withdrawConsent(alice.actor, "use", IP, UA)).toMatchObject({ ok: false, message: CONSENT_MESSAGES.nothingToWithdraw });
    expect(await answer(alice, "use", "refused", { typedName: "" })).toEqual({ ok: true, message: CONSENT_MESSAGES.refused("Consent to use your tax return information") });
    const refusal = (await rowsOf(alice.id)).find((r) => r.decision === "refused")!;
    expect(refusal).toMatchObject({ typedName: null, months: null, inForceThrough: null });
    expect((await getDb().select().from(auditLog).where(eq(auditLog.action, "consent-withdrawn"))).length).toBe(1);
  });

  it("refuses a missing name, another name, no period and a text that changed, recording nothing", async () => {
    const before = await everything();
    expect(await answer(alice, "use", "given", { typedName: " " })).toMatchObject({ ok: false, field: "typedName", message: CONSENT_MESSAGES.nameRequired });
    expect(await answer(alice, "use", "given", { typedName: "Bob Bobolink" })).toMatchObject({ ok: false, field: "typedName", message: CONSENT_MESSAGES.nameMismatch });
    expect(await answer(alice, "use", "given", { months: null })).toMatchObject({ ok: false, field: "months", message: CONSENT_MESSAGES.chooseMonths });
    expect(await answer(alice, "use", "given", { months: 7 })).toMatchObject({ ok: false, field: "months" });
    const stale = await answerConsent(alice.actor, { kind: "use", decision: "given", typedName: "Alice Aardvark", months: 12, shownSha256: "0".repeat(64) }, IP, UA);
    expect(stale).toMatchObject({ ok: false, message: CONSENT_MESSAGES.textChanged, status: 409 });
    expect(await everything()).toBe(before);
  });

  it("are append-only: an UPDATE is refused, and a DELETE or TRUNCATE while they are kept", async () => {
    expect((await answer(alice, "disclose", "given")).ok).toBe(true);
    expect((await withdrawConsent(alice.actor, "disclose", IP, UA)).ok).toBe(true);
    const failure = async (statement: Promise<unknown>) => {
      try {
        await statement;
        return "done";
      } catch (error) {
        const e = error as { cause?: { message?: string }; message: string };
        return e.cause?.message ?? e.message;
      }
    };
    expect(await failure(getDb().execute(sql`update consents set in_force_through = '2099-01-01'`))).toBe("consents is append-only: UPDATE refused");
    expect(await failure(getDb().execute(sql`update consent_withdrawals set withdrawn_at = now()`))).toBe("consent_withdrawals is append-only: UPDATE refused");
    expect(await failure(getDb().execute(sql`delete from consent_withdrawals`))).toMatch(/^consent_withdrawals rows are kept until .+: DELETE refused$/);
    expect(await failure(getDb().execute(sql`delete from consents`))).toMatch(/^consents rows are kept until .+: DELETE refused$/);
    expect(await failure(getDb().execute(sql`truncate consents cascade`))).toMatch(/rows are kept: TRUNCATE refused$/);
    expect(await failure(getDb().execute(sql`delete from "user" where id = ${alice.id}`))).not.toBe("done");
    expect(await rowsOf(alice.id)).toHaveLength(1);
    expect(await getDb().select().from(consentWithdrawals)).toHaveLength(1);
  });
});

describe("the consent in force", () => {
  const record = (over: Partial<ConsentRecord>): ConsentRecord => ({
    id: "a",
    kind: "disclose",
    decision: "given",
    decidedAt: new Date("2026-03-10T15:00:00Z"),
    inForceThrough: "2027-03-09",
    withdrawnAt: null,
    ...over,
  });

  it("is the latest answer of its kind when it gave consent, not withdrawn and not past its last day", () => {
    const given = record({});
    expect(consentInForce([given], "disclose", "2027-03-09")).toBe(given);
    expect(consentInForce([given], "disclose", "2027-03-10")).toBeNull();
    expect(consentInForce([given], "use", "2026-04-01")).toBeNull();
    expect(consentInForce([record({ withdrawnAt: new Date("2026-04-01T00:00:00Z") })], "disclose", "2026-05-01")).toBeNull();
    // A later refusal ends it; a later consent after a refusal is in force.
    const refused = record({ id: "b", decision: "refused", decidedAt: new Date("2026-04-01T00:00:00Z"), inForceThrough: null });
    expect(consentInForce([given, refused], "disclose", "2026-05-01")).toBeNull();
    const again = record({ id: "c", decidedAt: new Date("2026-05-01T00:00:00Z"), inForceThrough: "2027-04-30" });
    expect(consentInForce([refused, given, again], "disclose", "2026-06-01")).toBe(again);
  });

  it("ends at New York's midnight after its last day, and the database agrees with the rule", async () => {
    // 04:59 UTC on January 15 is 23:59 on January 14 in New York: the consent is of January 14.
    expect((await answer(alice, "disclose", "given", { months: 12, now: new Date("2026-01-15T04:59:00Z") })).ok).toBe(true);
    const [row] = await rowsOf(alice.id);
    expect(row!.inForceThrough).toBe("2027-01-13");
    expect(await hasConsentInForce(alice.id, "disclose", new Date("2027-01-14T04:59:59Z"))).toBe(true);
    expect(await hasConsentInForce(alice.id, "disclose", new Date("2027-01-14T05:00:00Z"))).toBe(false);
    const { consentInForceSql } = await import("~/server/consents/consents.server");
    const inForceOn = async (today: string) =>
      ((await getDb().execute(sql`select ${consentInForceSql(alice.id, "disclose", today)} as ok`)) as unknown as { rows: Array<{ ok: boolean }> }).rows[0]!.ok;
    expect(await inForceOn("2027-01-13")).toBe(true);
    expect(await inForceOn("2027-01-14")).toBe(false);
    // A later refusal ends it in the database too.
    expect((await answer(alice, "disclose", "refused", { now: new Date("2026-02-01T12:00:00Z") })).ok).toBe(true);
    expect(await inForceOn("2026-06-01")).toBe(false);
    expect(await hasConsentInForce(alice.id, "disclose", new Date("2026-06-01T12:00:00Z"))).toBe(false);
  });

  it("is the client's own: one client's answers never count for another", async () => {
    expect((await answer(alice, "use", "given")).ok).toBe(true);
    expect(await hasConsentInForce(bob.id, "use")).toBe(false);
    expect((await ownConsents(bob.actor)).every((c) => !c.inForce)).toBe(true);
    expect((await ownConsents(alice.actor)).find((c) => c.kind === "use")!.inForce).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The pages, as a visitor, a client, another client, a preparer, a preparer outside the US, an admin

type Who = Account | null;
const req = (url: string, who: Who, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(who ? { cookie: who.cookie } : {}), "user-agent": UA } });
const get = (route: typeof list, url: string, who: Who, params: Record<string, string> = {}) =>
  routeOutcome(() => route.loader({ ...routeArgs(req(url, who)), params } as never));
const post = (route: typeof list, url: string, who: Who, fields: Record<string, string>, params: Record<string, string> = {}) =>
  routeOutcome(() => route.action({ ...routeArgs(req(url, who, { method: "POST", body: new URLSearchParams(fields) }), { clientIp: IP }), params } as never));

describe("/my-consents and each consent's page", () => {
  it("answer a visitor with the sign-in page, staff of any kind with a 404, and a client with their own consents", async () => {
    for (const [url, route, params] of [
      ["/my-consents", list, {}],
      ["/my-consents/use", page, { kind: "use" }],
      ["/my-consents/disclose", page, { kind: "disclose" }],
    ] as const) {
      const visitor = await get(route, url, null, params);
      expect([url, visitor.status, visitor.location]).toEqual([url, 302, `/login?redirectTo=${encodeURIComponent(url)}`]);
      for (const staff of [preparer, offshore, admin]) expect([url, staff.email, (await get(route, url, staff, params)).status]).toEqual([url, staff.email, 404]);
      const own = await get(route, url, alice, params);
      expect(own.status).toBe(200);
      expect(own.headers.get("cache-control")).toBe("no-store");
    }
    expect((await get(page, "/my-consents/other", alice, { kind: "other" })).status).toBe(404);
    const text = (await get(page, "/my-consents/disclose", alice, { kind: "disclose" })).body as { text: string; sha256: string };
    expect(text.text).toContain("Taxpayer: Alice Aardvark.");
    expect(text.sha256).toBe(sha(text.text));
  });

  it("record the signed-in client's answer from their page and send them to the list, and refuse bad input with a clear message", async () => {
    const shown = (await get(page, "/my-consents/disclose", alice, { kind: "disclose" })).body as { sha256: string };
    const before = await everything();
    const bad = [
      [{ decision: "given", typedName: "", months: "12", sha256: shown.sha256 }, 400, CONSENT_MESSAGES.nameRequired],
      [{ decision: "given", typedName: "Bob Bobolink", months: "12", sha256: shown.sha256 }, 400, CONSENT_MESSAGES.nameMismatch],
      [{ decision: "maybe", typedName: "Alice Aardvark", months: "12", sha256: shown.sha256 }, 400, CONSENT_MESSAGES.unknownAnswer],
      [{ decision: "given", typedName: "Alice Aardvark", months: "12", sha256: "x" }, 409, CONSENT_MESSAGES.textChanged],
    ] as const;
    for (const [fields, status, message] of bad) {
      const got = await post(page, "/my-consents/disclose", alice, fields, { kind: "disclose" });
      expect([got.status, (got.body as { message: string }).message]).toEqual([status, message]);
    }
    expect((await post(page, "/my-consents/nope", alice, { decision: "given" }, { kind: "nope" })).status).toBe(404);
    // Staff and visitors cannot answer for anyone.
    for (const who of [preparer, offshore, admin]) expect((await post(page, "/my-consents/disclose", who, { decision: "given", typedName: "Alice Aardvark", months: "12", sha256: shown.sha256 }, { kind: "disclose" })).status).toBe(404);
    expect((await post(page, "/my-consents/disclose", null, { decision: "given" }, { kind: "disclose" })).status).toBe(302);
    expect(await everything()).toBe(before);

    const given = await post(page, "/my-consents/disclose", alice, { decision: "given", typedName: "Alice Aardvark", months: "12", sha256: shown.sha256 }, { kind: "disclose" });
    expect([given.status, given.location]).toEqual([302, "/my-consents?answered=disclose-given"]);
    const [row] = await rowsOf(alice.id);
    expect(row).toMatchObject({ kind: "disclose", decision: "given", ipAddress: IP, userAgent: UA });
    // Bob's page shows Bob's text; his answer is his own.
    const bobs = (await get(page, "/my-consents/use", bob, { kind: "use" })).body as { text: string; sha256: string };
    expect(bobs.text).toContain("Taxpayer: Bob Bobolink.");
    const refused = await post(page, "/my-consents/use", bob, { decision: "refused", typedName: "", months: "12", sha256: bobs.sha256 }, { kind: "use" });
    expect(refused.location).toBe("/my-consents?answered=use-refused");
    expect(await rowsOf(bob.id)).toHaveLength(1);
    expect(await rowsOf(alice.id)).toHaveLength(1);
  });

  it("withdraw only the signed-in client's own consent in force, recorded and effective at once", async () => {
    expect((await answer(alice, "disclose", "given")).ok).toBe(true);
    const listed = (await get(list, "/my-consents", alice)).body as { consents: Array<{ kind: string; inForce: boolean; note: string }> };
    expect(listed.consents.find((c) => c.kind === "disclose")).toMatchObject({ inForce: true });
    // Bob's Withdraw touches only Bob's (none in force).
    const bobs = await post(list, "/my-consents", bob, { intent: "withdraw", kind: "disclose" });
    expect([bobs.status, (bobs.body as { message: string }).message]).toEqual([409, CONSENT_MESSAGES.nothingToWithdraw]);
    expect(await hasConsentInForce(alice.id, "disclose")).toBe(true);
    for (const who of [preparer, offshore, admin]) expect((await post(list, "/my-consents", who, { intent: "withdraw", kind: "disclose" })).status).toBe(404);
    expect((await post(list, "/my-consents", null, { intent: "withdraw", kind: "disclose" })).status).toBe(302);
    const unknown = await post(list, "/my-consents", alice, { intent: "withdraw", kind: "everything" });
    expect([unknown.status, (unknown.body as { message: string }).message]).toEqual([400, CONSENT_MESSAGES.unknownKind]);
    expect(await hasConsentInForce(alice.id, "disclose")).toBe(true);

    const done = await post(list, "/my-consents", alice, { intent: "withdraw", kind: "disclose" });
    expect([done.status, (done.body as { message: string }).message]).toEqual([200, CONSENT_MESSAGES.withdrawn("Consent to disclose your tax return information")]);
    expect(await hasConsentInForce(alice.id, "disclose")).toBe(false);
    const [w] = await getDb().select().from(consentWithdrawals);
    expect(w).toMatchObject({ clientId: alice.id, ipAddress: IP, userAgent: UA });
    const after = (await get(list, "/my-consents", alice)).body as { consents: Array<{ kind: string; inForce: boolean; note: string }> };
    expect(after.consents.find((c) => c.kind === "disclose")!.inForce).toBe(false);
  });

  it("keep nothing of a client's account name between requests: a changed name changes the text", async () => {
    const first = (await get(page, "/my-consents/use", alice, { kind: "use" })).body as { sha256: string };
    await getDb().update(user).set({ name: "Alice Aardvark-Smith" }).where(eq(user.id, alice.id));
    const second = (await get(page, "/my-consents/use", alice, { kind: "use" })).body as { text: string; sha256: string };
    expect(second.sha256).not.toBe(first.sha256);
    expect(second.text).toContain("Taxpayer: Alice Aardvark-Smith.");
  });
});
