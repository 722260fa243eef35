import type { RouteConfigEntry } from "@react-router/dev/routes";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import routeConfig from "~/routes";
import { CASE_MESSAGES } from "~/domain/case-forms";
import type { CaseActionResult } from "~/domain/case-forms";
import type { ActivityEntry, CaseNote, MaskedTaxpayer } from "~/domain/cases";
import type { StaffDocumentView } from "~/domain/documents";
import { MAX_NOTE_LENGTH } from "~/domain/cases";
import { formatKb } from "~/domain/documents";
import { currentFilingYear, openableYears } from "~/domain/tax-year";
import { getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { openCase, setStageNotices } from "~/server/cases/cases.server";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseNotes, caseViews, clientCases, user } from "~/server/db/schema";
import { listOwnDocuments } from "~/server/documents/listing.server";
import * as mail from "~/server/mail/mail.server";
import { saveUploads } from "~/server/documents/upload.server";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { outboxSettled } from "~/server/mail/outbox.server";
import { pageView, routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// The staff's case page, /admin/clients/:clientId/:year and its sections, run as the server runs
// them: behind the middleware of the root, /admin and the admin panel's layout. Two clients with
// two tax years each, two staff members.

const caseRoute = routeModule("routes/admin/case.tsx");
/** The sections whose data the tests read, each loading only its own (the overview is tested on its own). */
const SECTION_FILES = {
  taxpayer: "routes/admin/case/taxpayer.tsx",
  documents: "routes/admin/case/documents.tsx",
  workflow: "routes/admin/case/workflow.tsx",
  notes: "routes/admin/case/notes.tsx",
  overview: "routes/admin/case/overview.tsx",
} as const;
const sectionRoutes = Object.fromEntries(
  Object.entries(SECTION_FILES).map(([key, file]) => [key, routeModule(file)]),
) as Record<keyof typeof SECTION_FILES, ReturnType<typeof routeModule>>;

type Account = { id: string; cookie: string; actor: SessionUser };
type CaseData = {
  client: { id: string; code: string; name: string; email: string };
  taxYear: number;
  back: string;
  years: number[];
  openable: number[];
  workflow: { stage: string; flags: Record<string, boolean>; assignee: { id: string; name: string } | null };
  staff: Array<{ id: string; name: string }>;
  taxpayer: MaskedTaxpayer | null;
  documents: StaffDocumentView[];
  notes: CaseNote[];
  activity: ActivityEntry[];
};

const X = currentFilingYear();
const Y = X - 1;
const SSN_A_X = "123-45-6789";
const SSN_A_Y = "111-22-3333";
const SSN_B_X = "987-65-4321";

const ascii = (s: string) => new TextEncoder().encode(s);
const pdf = (text: string) =>
  ascii(`%PDF-1.4\n% ${text}\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);

let staff: Account;
let preparer: Account;
let clientA: Account;
let clientB: Account;

async function account(email: string, name: string, isStaff = false): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (isStaff) await makeStaff(signedIn);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor };
}

beforeEach(async () => {
  staff = await account("sam.staff@example.com", "Sam Staff", true);
  preparer = await account("pat.preparer@example.com", "Pat Preparer", true);
  clientA = await account("alice@example.com", "Alice Aardvark");
  clientB = await account("bob@example.com", "Bob Bobolink");
  // Each client has the season's case (made with the account) and the year before it.
  for (const c of [clientA, clientB])
    expect(await openCase(staff.actor, c.id, Y, "203.0.113.1")).toBe("opened");
  expect(await saveTaxpayerRecord(clientA.id, sampleTaxpayer, X)).toBe("created");
  expect(
    await saveTaxpayerRecord(clientA.id, { ...sampleTaxpayer, ssn_tin: SSN_A_Y, occupation: "Student" }, Y),
  ).toBe("created");
  expect(
    await saveTaxpayerRecord(
      clientB.id,
      { ...sampleTaxpayer, ssn_tin: SSN_B_X, name_as_per_ssn: "Bobby", city: "Hoboken" },
      X,
    ),
  ).toBe("created");
});

// ---------------------------------------------------------------------------------------------

function url(clientId: string, year: number | string, search = ""): string {
  return `/admin/clients/${clientId}/${year}${search}`;
}

function args(request: Request, clientId: string, year: number | string) {
  return { ...routeArgs(request), params: { clientId, year: String(year) } };
}

/** What a route gave back, returned or thrown: a redirect's target, or the status and data. */
async function outcome<T>(
  call: () => Promise<unknown>,
): Promise<{ status: number; location: string | null; body: T | null; headers: Headers }> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("location"),
      body: null,
      headers: result.headers,
    };
  }
  if (result instanceof Error) throw result;
  const { status, body, headers } = unwrap<T>(result);
  return { status, location: null, body, headers };
}

/**
 * The case across its sections: the sections' data (as a preparer reads them one after the other,
 * the case's frame last, as the old single page read its parts before recording the view), merged.
 */
async function load(cookie: string, clientId: string, year: number | string, search = "") {
  const sections: Array<Record<string, unknown>> = [];
  for (const key of ["taxpayer", "documents", "workflow", "notes"] as const) {
    const { loader } = await sectionRoutes[key];
    const got = await outcome<Record<string, unknown>>(() =>
      loader(args(withCookie(url(clientId, year, `/${key}${search}`), cookie), clientId, year)),
    );
    // Refused: the case's own address answers the same (a redirect names the address asked for).
    if (got.status !== 200) break;
    sections.push(got.body!);
  }
  const { loader } = await caseRoute;
  const frame = await outcome<CaseData>(() =>
    loader(args(withCookie(url(clientId, year, search), cookie), clientId, year)),
  );
  if (sections.length < 4) {
    expect(frame.status).not.toBe(200);
    return frame;
  }
  return { ...frame, body: frame.body && ({ ...Object.assign({}, ...sections), ...frame.body } as CaseData) };
}

/** The page's data for staff (fails the test unless the page answered). */
async function page(clientId: string, year: number, search = "", who: Account = staff): Promise<CaseData> {
  const got = await load(who.cookie, clientId, year, search);
  expect(got.status).toBe(200);
  return got.body!;
}

async function post(
  cookie: string,
  clientId: string,
  year: number | string,
  fields: Record<string, string | string[]>,
  search = "",
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  const request = withCookie(url(clientId, year, search), cookie, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  const { action } = await caseRoute;
  return outcome<CaseActionResult>(() => action(args(request, clientId, year)));
}

async function upload(
  actor: SessionUser,
  clientId: string,
  year: number,
  name: string,
  category: "other-documents" | "w-2" = "other-documents",
) {
  const result = await saveUploads(
    actor,
    { clientId, taxYear: year, category, files: [{ name, bytes: pdf(name) }] },
    "203.0.113.1",
  );
  if (result === "no-such-case" || result.uploaded.length !== 1)
    throw new Error(`upload of ${name} failed`);
  return result.uploaded[0]!.id;
}

async function auditOf(action: (typeof auditLog.$inferSelect)["action"]) {
  return getDb().select().from(auditLog).where(eq(auditLog.action, action));
}

/** A new session of a staff member that has not given its code yet. */
async function sessionWithoutCode(email: string): Promise<string> {
  const { headers } = await getAuth().api.signInEmail({
    body: { email, password: "a good password 1" },
    returnHeaders: true,
  });
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

// ---------------------------------------------------------------------------------------------

describe("who reaches the case page", () => {
  it("sends visitors to sign in, clients to their own home, and staff without their code to give it; nothing changes", async () => {
    const waiting = await sessionWithoutCode("sam.staff@example.com");
    const target = url(clientA.id, X);
    const expected = [
      { cookie: "", location: `/login?redirectTo=${encodeURIComponent(target)}` },
      { cookie: clientA.cookie, location: "/dashboard" },
      { cookie: clientB.cookie, location: "/dashboard" },
      { cookie: waiting, location: `/admin/security/verify?redirectTo=${encodeURIComponent(target)}` },
    ];
    for (const { cookie, location } of expected) {
      const got = await load(cookie, clientA.id, X);
      expect(got.status).toBe(302);
      expect(got.location).toBe(location);
      expect(got.body).toBeNull();
    }

    const attempts: Array<Record<string, string | string[]>> = [
      { intent: "reveal-ssn" },
      { intent: "add-note", body: "written by someone who may not" },
      {
        intent: "save-workflow",
        clientId: clientA.id,
        taxYear: String(X),
        assigneeId: "",
        completed: ["home", "taxinfo", "documents"],
      },
      { intent: "open-year", taxYear: String(X - 2) },
    ];
    const before = (await getDb().select().from(auditLog)).length;
    for (const fields of attempts) {
      for (const cookie of ["", clientA.cookie, clientB.cookie, waiting]) {
        const got = await post(cookie, clientA.id, X, fields);
        expect(got.status).toBe(302);
        expect(got.location).toMatch(
          cookie === ""
            ? /^\/login\?redirectTo=/
            : cookie === waiting
              ? /^\/admin\/security\/verify\?redirectTo=%2Fadmin%2Fdashboard$/
              : /^\/dashboard$/,
        );
        expect(got.body).toBeNull();
      }
    }
    expect(await getDb().select().from(caseNotes)).toHaveLength(0);
    expect(await getDb().select().from(caseViews)).toHaveLength(0);
    expect((await getDb().select().from(auditLog)).length).toBe(before);
    const [aCase] = await getDb()
      .select()
      .from(clientCases)
      .where(and(eq(clientCases.userId, clientA.id), eq(clientCases.taxYear, X)));
    expect(aCase).toMatchObject({ currentStage: "home", documents: false });
    expect(await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id))).toHaveLength(
      2,
    );
  });

  it("answers 404 for an unknown client, a staff member, a year with no case and a year that is not one", async () => {
    for (const [clientId, year] of [
      ["no-such-client", X],
      ["\u0000", X],
      [preparer.id, X],
      [clientA.id, X - 2],
      [clientA.id, "20x5"],
      [clientA.id, "1999"],
      [clientA.id, String(X + 5)],
      [clientA.id, "02025"],
    ] as const) {
      const { loader } = await caseRoute;
      let thrown: unknown;
      try {
        await loader(args(withCookie(url(clientId, year), staff.cookie), clientId, year));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${clientId}/${year}`).toMatchObject({ init: { status: 404 } });
      for (const [key, route] of Object.entries(sectionRoutes)) {
        const section = await outcome(async () =>
          (await route).loader(args(withCookie(url(clientId, year, `/${key}`), staff.cookie), clientId, year)),
        );
        expect(section.status, `${key} of ${clientId}/${year}`).toBe(404);
      }
      const posted = await post(staff.cookie, clientId, year, { intent: "reveal-ssn" });
      expect(posted.status).toBe(404);
    }
    expect(await auditOf("ssn-revealed")).toHaveLength(0);
    expect(await auditOf("case-viewed")).toHaveLength(0);
  });
});

describe("the page for staff", () => {
  it("shows the client, the year's taxpayer information with the SSN masked, and records the view", async () => {
    const got = await load(staff.cookie, clientA.id, X);
    expect(got.status).toBe(200);
    expect(got.headers.get("cache-control")).toBe("no-store");
    const d = got.body!;
    expect(d.client).toMatchObject({ id: clientA.id, name: "Alice Aardvark", email: "alice@example.com" });
    expect(d.client.code).toMatch(/^TB-\d{5}$/);
    expect(d.taxYear).toBe(X);
    expect(d.years).toEqual([X, Y]);
    expect(d.openable).toEqual(openableYears().filter((y) => y !== X && y !== Y));
    expect(d.taxpayer).toMatchObject({
      ssn_tin: "***-**-6789",
      name_as_per_ssn: "Ravi",
      occupation: "Software Engineer",
    });
    expect(d.taxpayer!.submittedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const text = JSON.stringify(d);
    expect(text).not.toContain(SSN_A_X);
    expect(text).not.toContain("123456789");
    expect(text).not.toContain(SSN_A_Y);
    expect(d.staff.map((s) => s.name).sort()).toEqual(["Pat Preparer", "Sam Staff"]);

    const views = await auditOf("case-viewed");
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({
      actorId: staff.id,
      clientId: clientA.id,
      taxYear: X,
      ipAddress: "203.0.113.10",
    });
    expect(await getDb().select().from(caseViews)).toMatchObject([
      { staffId: staff.id, clientId: clientA.id, taxYear: X },
    ]);

    // The other year shows that year's information.
    const other = await page(clientA.id, Y);
    expect(other.taxpayer).toMatchObject({ ssn_tin: "***-**-3333", occupation: "Student" });
    // A year whose information was not sent yet.
    expect((await page(clientB.id, Y)).taxpayer).toBeNull();
  });

  it("marks the client's uploads new until this staff member has opened the case, then no longer", async () => {
    await page(clientA.id, X);
    const fresh = await upload(clientA.actor, clientA.id, X, "passport-scan.pdf");
    const staffDoc = await upload(staff.actor, clientA.id, X, "draft-return.pdf");
    const first = await page(clientA.id, X);
    expect(first.documents.find((doc) => doc.id === fresh)).toMatchObject({
      isNew: true,
      uploadedBy: { name: "Alice Aardvark", client: true },
      sharedAt: null,
    });
    expect(first.documents.find((doc) => doc.id === staffDoc)).toMatchObject({
      isNew: false,
      uploadedBy: { name: "Sam Staff", client: false },
    });
    // Read before this visit was recorded; the next load no longer calls it new.
    expect((await page(clientA.id, X)).documents.find((doc) => doc.id === fresh)?.isNew).toBe(false);
    // Still new for the other staff member, who has not opened the case.
    expect((await page(clientA.id, X, "", preparer)).documents.find((doc) => doc.id === fresh)?.isNew).toBe(
      true,
    );
  });

  it("returns to the list it came from, and only to the list", async () => {
    const list = "/admin/dashboard?q=alice&stage=documents&page=2&year=" + Y;
    expect((await page(clientA.id, X, `?back=${encodeURIComponent(list)}`)).back).toBe(list);
    for (const bad of [
      "https://evil.example/admin/dashboard",
      "//evil.example/admin/dashboard",
      "/admin/dashboardx",
      "/admin/audit",
      "/dashboard",
      "javascript:alert(1)",
      "/admin/dashboard?q=a\\b",
      "/admin/dashboard?q=\n",
    ])
      expect((await page(clientA.id, X, `?back=${encodeURIComponent(bad)}`)).back, bad).toBe(
        "/admin/dashboard",
      );
    expect((await page(clientA.id, X)).back).toBe("/admin/dashboard");
  });
});

describe("Reveal SSN/ITIN", () => {
  it("answers the full number of that year, writes one audit entry with the year, and never puts it in the page data", async () => {
    const revealed = await post(staff.cookie, clientA.id, X, { intent: "reveal-ssn" });
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get("cache-control")).toBe("no-store");
    expect(revealed.body).toEqual({ intent: "reveal-ssn", ok: true, ssn: SSN_A_X });
    const entries = await auditOf("ssn-revealed");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: staff.id, clientId: clientA.id, taxYear: X });
    expect(entries[0]!.detail).not.toContain(SSN_A_X);

    expect((await post(staff.cookie, clientA.id, Y, { intent: "reveal-ssn" })).body).toEqual({
      intent: "reveal-ssn",
      ok: true,
      ssn: SSN_A_Y,
    });
    const d = await page(clientA.id, X);
    expect(JSON.stringify(d)).not.toContain(SSN_A_X);
    const reveal = d.activity.find((e) => e.text === "Revealed the SSN/ITIN");
    expect(reveal).toMatchObject({ actor: "Sam Staff" });

    const none = await post(staff.cookie, clientB.id, Y, { intent: "reveal-ssn" });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ intent: "reveal-ssn", ok: false, message: CASE_MESSAGES.nothingToReveal });
    expect(await auditOf("ssn-revealed")).toHaveLength(2);
  });
});

describe("sharing documents", () => {
  it("shares a staff document with the client (who is e-mailed a link, no document name) and takes it back", async () => {
    const finalCopy = await upload(staff.actor, clientA.id, X, "final-return-2025.pdf");
    const own = await upload(clientA.actor, clientA.id, X, "my-w2.pdf", "w-2");
    const othersDoc = await upload(staff.actor, clientB.id, X, "bobs-draft.pdf");
    expect((await listOwnDocuments(clientA.id, X)).map((doc) => doc.id)).toEqual([own]);

    const shared = await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: finalCopy });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ intent: "share", ok: true, message: CASE_MESSAGES.shared(1) });
    expect((await listOwnDocuments(clientA.id, X)).map((doc) => doc.id).sort()).toEqual(
      [finalCopy, own].sort(),
    );
    const mails = (await sentMail()).filter((m) => m.to.includes("alice@example.com"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`http://localhost:3000/my-tax-filing/${X}`);
    expect(mails[0]!.raw).not.toContain("final-return-2025");
    expect((await page(clientA.id, X)).documents.find((doc) => doc.id === finalCopy)?.sharedAt).toMatch(
      /^\d{4}-/,
    );

    // Sharing again changes nothing and sends nothing; the client's own upload has no share state.
    expect(
      (await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: finalCopy })).body,
    ).toMatchObject({ ok: false, message: CASE_MESSAGES.shareUnchanged });
    expect((await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: own })).status).toBe(400);
    expect((await post(staff.cookie, clientA.id, X, { intent: "share" })).body).toMatchObject({
      ok: false,
      message: CASE_MESSAGES.chooseDocument,
    });
    // Another client's document named on this client's page is not touched.
    expect(
      (await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: othersDoc })).status,
    ).toBe(400);
    expect(
      (await post(staff.cookie, clientA.id, Y, { intent: "share", documentIds: finalCopy })).status,
    ).toBe(400);
    expect(await listOwnDocuments(clientB.id, X)).toEqual([]);
    expect((await sentMail())).toHaveLength(1);

    const unshared = await post(staff.cookie, clientA.id, X, { intent: "unshare", documentIds: [finalCopy] });
    expect(unshared.body).toEqual({ intent: "unshare", ok: true, message: CASE_MESSAGES.unshared(1) });
    expect((await listOwnDocuments(clientA.id, X)).map((doc) => doc.id)).toEqual([own]);
    expect((await sentMail())).toHaveLength(1);
    expect((await auditOf("document-shared")).map((a) => a.detail)).toEqual([
      "Other Documents: final-return-2025.pdf",
    ]);
    expect(await auditOf("document-unshared")).toHaveLength(1);
  });
});

describe("the workflow", () => {
  const save = (completed: string[], assigneeId = "", clientId = clientA.id, taxYear = String(X)) =>
    post(staff.cookie, clientA.id, X, { intent: "save-workflow", clientId, taxYear, assigneeId, completed });

  it("saves the stages and assignee, and e-mails the client when the stage moves unless they turned it off", async () => {
    const moved = await save(["home", "taxinfo"], preparer.id);
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      intent: "save-workflow",
      ok: true,
      message: CASE_MESSAGES.stageMoved("documents", true),
    });
    let d = await page(clientA.id, X);
    expect(d.workflow).toMatchObject({
      stage: "documents",
      flags: { home: true, taxinfo: true, documents: false },
      assignee: { id: preparer.id, name: "Pat Preparer" },
    });
    let mails = (await sentMail());
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "alice@example.com", subject: `An update on your ${X} tax filing` });
    expect(mails[0]!.text).toContain(`/my-tax-filing/${X}`);
    // The other year's case did not move.
    expect((await page(clientA.id, Y)).workflow.stage).toBe("home");

    // The same stage: saved, no e-mail.
    expect((await save(["home", "taxinfo"], "")).body).toEqual({
      intent: "save-workflow",
      ok: true,
      message: CASE_MESSAGES.workflowSaved,
    });
    expect((await sentMail())).toHaveLength(1);

    await setStageNotices(clientA.actor, false, "203.0.113.1");
    const quiet = await save(["home", "taxinfo", "documents"]);
    expect(quiet.body).toEqual({
      intent: "save-workflow",
      ok: true,
      message: CASE_MESSAGES.stageMoved("preparation", false),
    });
    mails = (await sentMail());
    expect(mails).toHaveLength(1);
    d = await page(clientA.id, X);
    expect(d.workflow.stage).toBe("preparation");
  });

  it("says whether the client was e-mailed by the preference that decided it, read once", async () => {
    // The client turns stage e-mails off just as the e-mail about the move goes: the answer
    // tells what happened to this move (e-mailed), not the preference read again after it.
    const sendMail = mail.sendMail;
    const sent = vi.spyOn(mail, "sendMail").mockImplementationOnce(async (message) => {
      await setStageNotices(clientA.actor, false, "203.0.113.1");
      return sendMail(message);
    });
    const moved = await save(["home", "taxinfo"]);
    await outboxSettled();
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
    expect(moved.body).toEqual({ intent: "save-workflow", ok: true, message: CASE_MESSAGES.stageMoved("documents", true) });
    expect((await sentMail()).map((m) => m.subject)).toEqual([`An update on your ${X} tax filing`]);

    // The next move finds them off: no e-mail, and the answer says so.
    const quiet = await save(["home", "taxinfo", "documents"]);
    expect(quiet.body).toEqual({ intent: "save-workflow", ok: true, message: CASE_MESSAGES.stageMoved("preparation", false) });
    expect((await sentMail())).toHaveLength(1);
  });

  it("refuses a form for another case and an assignee who is not staff, changing nothing", async () => {
    expect((await save(["home"], "", clientB.id)).body).toEqual({
      intent: "save-workflow",
      ok: false,
      message: CASE_MESSAGES.otherCase,
    });
    expect((await save(["home"], "", clientA.id, String(Y))).status).toBe(400);
    expect((await save(["home"], clientB.id)).body).toEqual({
      intent: "save-workflow",
      ok: false,
      message: CASE_MESSAGES.noSuchStaff,
    });
    for (const [clientId, year] of [
      [clientA.id, X],
      [clientA.id, Y],
      [clientB.id, X],
    ] as const) {
      const [row] = await getDb()
        .select()
        .from(clientCases)
        .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, year)));
      expect(row).toMatchObject({ currentStage: "home", home: false, assigneeId: null });
    }
    expect((await sentMail())).toHaveLength(0);
    expect(await auditOf("workflow-saved")).toHaveLength(0);
  });
});

/** Every route under the portal layout with the client's cookie: the data each page view would send them. */
async function everythingTheClientIsSent(client: Account, documentId: string): Promise<string> {
  const portal = routeConfig.find((e) => e.file === "routes/portal/layout.tsx");
  const routes = (portal?.children ?? []).filter(
    (e): e is RouteConfigEntry & { path: string } => typeof e.path === "string",
  );
  expect(routes.length).toBeGreaterThan(2);
  const texts: string[] = [];
  for (const route of routes) {
    for (const year of [X, Y]) {
      const path = `/${route.path.replace(":year", String(year)).replace(":documentId", documentId)}`;
      for (const search of ["", `?year=${year}`]) {
        let results: unknown[];
        try {
          results = await pageView(route.file, {
            ...routeArgs(withCookie(`${path}${search}`, client.cookie)),
            params: { year: String(year), documentId },
          });
        } catch (thrown) {
          results = [thrown];
        }
        for (const r of results) {
          if (r instanceof Response) texts.push(await r.clone().text());
          else if (r !== undefined) texts.push(JSON.stringify(unwrap(r).body ?? r));
        }
      }
    }
  }
  return texts.join("\n");
}

describe("internal notes", () => {
  const NOTE = "Called Alice: the W-2 from <b>Acme</b> is missing.\nSecond line & more.";

  it("are added by staff, kept with their line breaks, refused when empty or too long, and shown only on their case", async () => {
    const added = await post(staff.cookie, clientA.id, X, { intent: "add-note", body: `  ${NOTE}  ` });
    expect(added.body).toEqual({ intent: "add-note", ok: true, message: CASE_MESSAGES.noteAdded });
    const d = await page(clientA.id, X);
    expect(d.notes).toEqual([
      {
        id: expect.any(String) as string,
        body: NOTE,
        author: "Sam Staff",
        createdAt: expect.any(String) as string,
      },
    ]);
    expect(d.activity.find((e) => e.text === "Added an internal note")).toMatchObject({ actor: "Sam Staff" });

    const empty = await post(staff.cookie, clientA.id, X, { intent: "add-note", body: "   \n  " });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      intent: "add-note",
      ok: false,
      message: CASE_MESSAGES.noteEmpty,
      body: "   \n  ",
    });
    const long = "x".repeat(MAX_NOTE_LENGTH + 1);
    expect((await post(staff.cookie, clientA.id, X, { intent: "add-note", body: long })).body).toEqual({
      intent: "add-note",
      ok: false,
      message: CASE_MESSAGES.noteTooLong,
      body: long,
    });
    expect(
      (await post(staff.cookie, clientA.id, X, { intent: "add-note", body: "x".repeat(MAX_NOTE_LENGTH) }))
        .body,
    ).toMatchObject({ ok: true });
    expect((await post(staff.cookie, clientA.id, X, { intent: "add-note", body: "bell\u0007" })).status).toBe(
      400,
    );
    expect(await getDb().select().from(caseNotes)).toHaveLength(2);

    expect((await page(clientA.id, Y)).notes).toEqual([]);
    expect((await page(clientB.id, X)).notes).toEqual([]);
  });

  it("never reach the client: no page of the portal sends their text, for any year", async () => {
    await post(staff.cookie, clientA.id, X, { intent: "add-note", body: NOTE });
    await post(staff.cookie, clientA.id, Y, { intent: "add-note", body: "Second-year secret note" });
    const finalCopy = await upload(staff.actor, clientA.id, X, "final.pdf");
    await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: finalCopy });

    const sentToA = await everythingTheClientIsSent(clientA, finalCopy);
    expect(sentToA).toContain("alice@example.com");
    for (const secret of ["W-2 from", "Acme", "Second-year secret note"])
      expect(sentToA).not.toContain(secret);
    const sentToB = await everythingTheClientIsSent(clientB, finalCopy);
    for (const secret of ["W-2 from", "Second-year secret note", "Alice", "final.pdf"])
      expect(sentToB).not.toContain(secret);
  });
});

describe("activity", () => {
  it("reads as words with labels and names: no stage keys, no ids", async () => {
    await post(staff.cookie, clientA.id, X, {
      intent: "save-workflow",
      clientId: clientA.id,
      taxYear: String(X),
      assigneeId: preparer.id,
      completed: ["home", "taxinfo"],
    });
    await post(staff.cookie, clientA.id, X, {
      intent: "save-workflow",
      clientId: clientA.id,
      taxYear: String(X),
      assigneeId: "",
      completed: [
        "home",
        "taxinfo",
        "documents",
        "preparation",
        "draft",
        "payment",
        "efiling",
        "finalcopies",
      ],
    });
    await post(staff.cookie, clientA.id, X, { intent: "reveal-ssn" });
    const w2 = await upload(staff.actor, clientA.id, X, "w2.pdf", "w-2");
    await post(staff.cookie, clientA.id, X, { intent: "share", documentIds: w2 });
    await upload(clientA.actor, clientA.id, X, "passport.pdf");
    await recordAudit({
      actor: null,
      action: "client-created",
      clientId: clientA.id,
      detail: "account for alice@example.com",
    });

    const x = await page(clientA.id, X);
    const texts = x.activity.map((e) => `${e.actor}: ${e.text}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Sam Staff: Workflow saved: stage DOCUMENTS; completed HOME, TAX INFO; assigned to Pat Preparer",
        "Sam Staff: Workflow saved: stage FINAL COPIES; completed HOME, TAX INFO, DOCUMENTS, PREPARATION, DRAFT, PAYMENT, E-FILING, FINAL COPIES; not assigned",
        "Sam Staff: Revealed the SSN/ITIN",
        `Sam Staff: Uploaded a document: W-2: w2.pdf (${formatKb(pdf("w2.pdf").length)})`,
        "Sam Staff: Shared a document: W-2: w2.pdf",
        `Client: Uploaded a document: Other Documents: passport.pdf (${formatKb(pdf("passport.pdf").length)})`,
        "System: Created the client's account",
      ]),
    );
    // Newest first.
    expect(texts[0]).toBe("System: Created the client's account");
    const text = JSON.stringify(x.activity.map(({ actor, text: t }) => [actor, t]));
    for (const key of ["taxinfo", "finalcopies", "efiling", "stage documents", "assignee:"])
      expect(text).not.toContain(key);
    expect(text).not.toMatch(UUID);
    for (const id of [staff.id, preparer.id, clientA.id]) expect(text).not.toContain(id);
    expect(x.activity.every((e) => !Number.isNaN(Date.parse(e.at)) && e.at.endsWith("Z"))).toBe(true);

    // The year's own activity: the other year shows its opening, not this year's work.
    const y = await page(clientA.id, Y);
    const yTexts = y.activity.map((e) => `${e.actor}: ${e.text}`);
    expect(yTexts).toContain(`Sam Staff: Opened tax year ${Y}`);
    expect(yTexts.some((t) => t.includes("Revealed") || t.includes("w2.pdf"))).toBe(false);
  });

  it("shows one person's views of the case one after another as one entry", async () => {
    for (let i = 0; i < 3; i++) await page(clientA.id, X);
    await page(clientA.id, X, "", preparer);
    const d = await page(clientA.id, X);
    expect(d.activity.slice(0, 2).map((e) => `${e.actor}: ${e.text}`)).toEqual([
      "Pat Preparer: Opened the case",
      "Sam Staff: Opened the case (3 times)",
    ]);
  });
});

describe("opening another tax year", () => {
  it("opens the case with the client's number and goes to its page, keeping the list to return to", async () => {
    const back = "/admin/dashboard?q=alice";
    const earlier = X - 2;
    const opened = await post(
      staff.cookie,
      clientA.id,
      X,
      { intent: "open-year", taxYear: String(earlier) },
      `?back=${encodeURIComponent(back)}`,
    );
    expect(opened.status).toBe(302);
    expect(opened.location).toBe(`/admin/clients/${clientA.id}/${earlier}?back=${encodeURIComponent(back)}`);
    const rows = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id));
    expect(rows.map((r) => r.taxYear).sort()).toEqual([earlier, Y, X]);
    expect(new Set(rows.map((r) => r.number)).size).toBe(1);
    const d = await page(clientA.id, earlier);
    expect(d.years).toEqual([X, Y, earlier]);
    expect(d.taxpayer).toBeNull();
    expect(d.activity[0]).toMatchObject({ actor: "Sam Staff", text: `Opened tax year ${earlier}` });
    // Opened from the list with no list to return to: the plain page.
    const plain = await post(staff.cookie, clientB.id, X, { intent: "open-year", taxYear: String(earlier) });
    expect(plain.location).toBe(`/admin/clients/${clientB.id}/${earlier}`);
  });

  it("refuses a year already open and a year that cannot be opened", async () => {
    expect(
      (await post(staff.cookie, clientA.id, X, { intent: "open-year", taxYear: String(Y) })).body,
    ).toEqual({
      intent: "open-year",
      ok: false,
      message: CASE_MESSAGES.yearExists(Y),
    });
    for (const year of [String(X + 1), "2019", String(Math.min(...openableYears()) - 1), "next year", ""]) {
      const got = await post(staff.cookie, clientA.id, X, { intent: "open-year", taxYear: year });
      expect(got.status, year).toBe(400);
      expect(got.body, year).toEqual({ intent: "open-year", ok: false, message: CASE_MESSAGES.chooseYear });
    }
    expect(await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id))).toHaveLength(
      2,
    );
    expect(await auditOf("case-opened")).toHaveLength(2);
  });

  it("answers an unknown request in words", async () => {
    const got = await post(staff.cookie, clientA.id, X, { intent: "delete-everything" });
    expect(got.status).toBe(400);
    expect(got.body).toEqual({ intent: "unknown", ok: false, message: CASE_MESSAGES.unknown });
  });
});

describe("two clients, two years", () => {
  it("a case page shows only its own client's and year's data", async () => {
    const names = {
      ax: await upload(staff.actor, clientA.id, X, "alice-x-draft.pdf"),
      ay: await upload(staff.actor, clientA.id, Y, "alice-y-draft.pdf"),
      bx: await upload(clientB.actor, clientB.id, X, "bob-x-upload.pdf"),
      by: await upload(staff.actor, clientB.id, Y, "bob-y-final.pdf"),
    };
    await post(staff.cookie, clientA.id, X, { intent: "add-note", body: "note about alice x" });
    await post(staff.cookie, clientA.id, Y, { intent: "add-note", body: "note about alice y" });
    await post(staff.cookie, clientB.id, X, { intent: "add-note", body: "note about bob x" });
    await post(staff.cookie, clientB.id, Y, { intent: "add-note", body: "note about bob y" });

    const cases = [
      { client: clientA, year: X, own: "alice-x-draft.pdf", note: "note about alice x", id: names.ax },
      { client: clientA, year: Y, own: "alice-y-draft.pdf", note: "note about alice y", id: names.ay },
      { client: clientB, year: X, own: "bob-x-upload.pdf", note: "note about bob x", id: names.bx },
      { client: clientB, year: Y, own: "bob-y-final.pdf", note: "note about bob y", id: names.by },
    ];
    for (const c of cases) {
      const d = await page(c.client.id, c.year);
      expect(d.documents.map((doc) => doc.id)).toEqual([c.id]);
      expect(d.notes.map((n) => n.body)).toEqual([c.note]);
      const text = JSON.stringify(d);
      for (const other of cases.filter((o) => o !== c)) {
        expect(text).not.toContain(other.own);
        expect(text).not.toContain(other.note);
      }
      const otherClient = c.client === clientA ? clientB : clientA;
      for (const secret of [
        otherClient.id,
        otherClient.actor.email,
        otherClient.actor.name,
        SSN_A_X,
        SSN_A_Y,
        SSN_B_X,
      ])
        expect(text).not.toContain(secret);
    }
  });
});

describe("the case's sections", () => {
  async function sectionPost(section: keyof typeof SECTION_FILES, fields: Record<string, string>) {
    const request = withCookie(url(clientA.id, X, `/${section}`), staff.cookie, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const { action } = await sectionRoutes[section];
    return outcome<CaseActionResult>(() => action(args(request, clientA.id, X)));
  }

  it("each section takes only its own forms' changes, and changes nothing on another", async () => {
    expect((await sectionPost("notes", { intent: "add-note", body: "From the notes section" })).body).toEqual({
      intent: "add-note",
      ok: true,
      message: CASE_MESSAGES.noteAdded,
    });
    expect((await sectionPost("taxpayer", { intent: "reveal-ssn" })).body).toEqual({
      intent: "reveal-ssn",
      ok: true,
      ssn: SSN_A_X,
    });
    // Another section's change sent to a section: refused, nothing stored.
    for (const [section, fields] of [
      ["taxpayer", { intent: "add-note", body: "Not here" }],
      ["workflow", { intent: "reveal-ssn" }],
      ["notes", { intent: "open-year", taxYear: String(X - 2) }],
      ["documents", { intent: "add-note", body: "Not here either" }],
    ] as const) {
      const got = await sectionPost(section, fields);
      expect([section, got.status, got.body]).toEqual([
        section,
        400,
        { intent: "unknown", ok: false, message: CASE_MESSAGES.unknown },
      ]);
    }
    expect((await getDb().select().from(caseNotes)).map((n) => n.body)).toEqual(["From the notes section"]);
    expect(await auditOf("ssn-revealed")).toHaveLength(1);
    expect(await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id))).toHaveLength(2);
  });

  it("the overview: the next step, the key facts, the latest activity; the client's uploads stay new until Documents is opened", async () => {
    await upload(clientA.actor, clientA.id, X, "passport-scan.pdf");
    const { loader } = await sectionRoutes.overview;
    const read = async () => {
      const got = await outcome<{ overview: Record<string, unknown> & { latest: ActivityEntry[] } }>(() =>
        loader(args(withCookie(url(clientA.id, X), staff.cookie), clientA.id, X)),
      );
      expect(got.status).toBe(200);
      return got.body!.overview;
    };
    const first = await read();
    expect(first).toMatchObject({
      stage: "home",
      assignee: null,
      next: { section: "documents", text: "Look at the document the client uploaded." },
      documents: { total: 1, fresh: 1, shared: 0 },
      requestsSummary: "Nothing requested yet.",
      notes: 0,
    });
    expect(first.latest.length).toBeLessThanOrEqual(5);
    expect(JSON.stringify(first)).not.toContain(SSN_A_X);
    // Reading the overview marks nothing seen; opening Documents does.
    expect((await read()).documents).toEqual({ total: 1, fresh: 1, shared: 0 });
    await page(clientA.id, X);
    expect(await read()).toMatchObject({
      documents: { total: 1, fresh: 0, shared: 0 },
      next: { section: "workflow", text: "Work on HOME, then mark it completed in the workflow." },
    });
  });
});
