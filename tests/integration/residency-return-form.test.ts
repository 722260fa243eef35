import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RESIDENCY_RETURN_TEXTS } from "~/domain/residency/return-form";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, returnVersions } from "~/server/db/schema";
import { saveHistory } from "~/server/residency/history.server";
import { confirmResidency } from "~/server/residency/outcome.server";
import { returnSection } from "~/server/returns/return-section.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import { IP, pdf, received } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { studentInput } from "../helpers/residency";

// The draft's form follows the case's residency (docs/product/residency.md#the-returns-form): the
// upload's default, and a draft of the other kind only when staff say they mean it.

const Y = currentFilingYear();
let admin: Account;
let preparer: Account;
let a: Account;

beforeEach(async () => {
  ({ admin, preparer, a } = await feeCast());
  for (const who of [a]) await letterAccepted(admin, who, Y);
});

/** An F-1 student in their 2nd year: a nonresident, Form 1040-NR. */
const student = { people: [studentInput(Y - 1)] };

const ref = () => ({ clientId: a.id, taxYear: Y });
const upload = async (form: string, formDiffers?: boolean) =>
  uploadReturnVersion(preparer.actor, ref(), { form, note: "", file: await received("draft.pdf", pdf(form)), formDiffers }, IP);
const versions = () =>
  getDb()
    .select({ form: returnVersions.form })
    .from(returnVersions)
    .where(and(eq(returnVersions.clientId, a.id), eq(returnVersions.taxYear, Y)))
    .orderBy(asc(returnVersions.number));

describe("the draft's form and the case's residency", () => {
  it("takes any form before the residency is known", async () => {
    expect((await returnSection(preparer.actor, ref())).residencyForm).toBeNull();
    expect(await upload("1040")).toMatchObject({ ok: true });
  });

  it("defaults to the residency's form, refuses the other kind unless staff say they mean it, and audits that they did", async () => {
    expect(await saveHistory(a.actor, a.id, student, IP)).toEqual({ ok: true });
    expect((await returnSection(preparer.actor, ref())).residencyForm).toBe("1040-NR");

    expect(await upload("1040")).toEqual({ ok: false, error: RESIDENCY_RETURN_TEXTS.differs("1040-NR", "1040") });
    expect(await upload("1040-SR")).toEqual({ ok: false, error: RESIDENCY_RETURN_TEXTS.differs("1040-NR", "1040-SR") });
    expect(await versions()).toEqual([]);

    expect(await upload("1040-NR")).toMatchObject({ ok: true });
    expect(await upload("1040-X")).toMatchObject({ ok: true });
    expect(await upload("1040", true)).toMatchObject({ ok: true });
    expect(await versions()).toEqual([{ form: "1040-NR" }, { form: "1040-X" }, { form: "1040" }]);
    const [last] = await getDb()
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(eq(auditLog.action, "return-version-uploaded"))
      .orderBy(asc(auditLog.id))
      .then((rows) => rows.slice(-1));
    expect(last?.detail).toMatch(/^Form 1040, version 3 \(SHA-256 [0-9a-f]{12}…\); the case's residency calls for Form 1040-NR$/);
  });

  it("follows the status staff confirmed over the computed one", async () => {
    expect(await saveHistory(a.actor, a.id, student, IP)).toEqual({ ok: true });
    expect(await confirmResidency(admin.actor, a.id, Y, "resident", "Chose to be treated as a resident with her spouse (6013(g)).", IP)).toEqual({ ok: true });
    expect((await returnSection(preparer.actor, ref())).residencyForm).toBe("1040");
    expect(await upload("1040")).toMatchObject({ ok: true });
    expect(await upload("1040-NR")).toEqual({ ok: false, error: RESIDENCY_RETURN_TEXTS.differs("1040", "1040-NR") });
  });
});
