import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_UPLOAD_REQUEST_BYTES, REFUSED_HEIC } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import type {
  DashboardData,
  FilingPageData,
  FilingPageResult,
  MyFilingsData,
  StartYearResult,
} from "~/domain/portal";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import { currentFilingYear, openableYears } from "~/domain/tax-year";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { bodyLimitFor, FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, documents, profiles, staffNotices, taxpayerRecords } from "~/server/db/schema";
import { saveUploads } from "~/server/documents/upload.server";
import { setDocumentsShared } from "~/server/documents/changes.server";
import { NOTICE_QUIET_MS, sendGatheredStaffNotices } from "~/server/notices/notices.server";
import { setStorage } from "~/server/storage/storage.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// The client's side of tax-year cases: My Tax Filings, the taxpayer form per year, one year's
// filing page, and the client's own uploads. Every route runs behind the root's and the portal
// layout's middleware, as the server runs it. Two clients, each with two tax years.

const listRoute = await routeModule("routes/portal/my-tax-filing.tsx");
const dashboardRoute = await routeModule("routes/portal/taxpayer-information.tsx");
const filingRoute = await routeModule("routes/portal/filing.tsx");
const uploadRoute = await routeModule("routes/portal/filing-documents.ts");
const downloadRoute = await routeModule("routes/portal/document-download.ts");

const SEASON = currentFilingYear();
const EARLIER = SEASON - 1;
/** A year the product knows that no one can start (older than the three years open). */
const TOO_OLD = SEASON - 4;

type Account = { id: string; cookie: string };
type Outcome<T> = { status: number; body: T; location: string | null };
type UploadBody = {
  uploaded: Array<{ id: string; name: string }>;
  refused: Array<{ name: string; reason: string }>;
  error?: string;
};

const ascii = (s: string) => new TextEncoder().encode(s);
const PDF = ascii("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
/** What an iPhone sends by default: an ISO-BMFF "ftypheic" box. */
const HEIC = Uint8Array.from([
  0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 0, 0x6d, 0x69, 0x66, 0x31,
]);

const dataDir = () => process.env.DATA_DIR!;
const uploadsDir = () => path.join(dataDir(), "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : []);
const mails = async () => (await sentMail(dataDir()));

/** What a route answered: a returned or thrown redirect, a JSON or text Response, or data(). */
async function outcome<T = unknown>(call: () => Promise<unknown>): Promise<Outcome<T>> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const type = result.headers.get("content-type") ?? "";
    const body = (type.includes("json") ? await result.json() : await result.text()) as T;
    return { status: result.status, body, location: result.headers.get("location") };
  }
  const { status, body } = unwrap<T>(result);
  return { status, body, location: null };
}

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ ...routeArgs(request), params }) as never;

// --- the routes, as a cookie would call them ------------------------------------------------

const myFilings = (cookie: string) =>
  outcome<MyFilingsData>(() => listRoute.loader(args(withCookie("/my-tax-filing", cookie))));

function startYear(cookie: string, taxYear: string | number) {
  const body = new URLSearchParams({ intent: "start-year", taxYear: String(taxYear) });
  return outcome<StartYearResult>(() =>
    listRoute.action(args(withCookie("/my-tax-filing", cookie, { method: "POST", body }))),
  );
}

const dashboardUrl = (year?: number | string) =>
  year === undefined ? "/dashboard" : `/dashboard?year=${year}`;

const loadForm = (cookie: string, year?: number | string) =>
  outcome<DashboardData>(() => dashboardRoute.loader(args(withCookie(dashboardUrl(year), cookie))));

function saveForm(
  cookie: string,
  year: number | string | undefined,
  fields: Record<string, string> = sampleTaxpayer,
) {
  const request = withCookie(dashboardUrl(year), cookie, {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return outcome<{ ok: boolean; formError?: string }>(() => dashboardRoute.action(args(request)));
}

const loadFiling = (cookie: string, year: number | string) =>
  outcome<FilingPageData>(() =>
    filingRoute.loader(args(withCookie(`/my-tax-filing/${year}`, cookie), { year: String(year) })),
  );

function postFiling(cookie: string, year: number | string, fields: Array<[string, string]>) {
  const request = withCookie(`/my-tax-filing/${year}`, cookie, {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return outcome<FilingPageResult>(() => filingRoute.action(args(request, { year: String(year) })));
}

const removeDocs = (cookie: string, year: number, ids: string[]) =>
  postFiling(cookie, year, [["intent", "remove"], ...ids.map((id): [string, string] => ["documentIds", id])]);

/**
 * A multipart upload as a browser sends it, streamed to the route in small chunks (as a slow
 * connection delivers it) rather than handed over whole.
 */
async function uploadRequest(
  cookie: string,
  year: number | string,
  category: string,
  files: Array<{ name: string; bytes: Uint8Array }>,
) {
  const form = new FormData();
  form.append("category", category);
  for (const f of files) form.append("files", new Blob([f.bytes.slice()]), f.name);
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + 16));
      at += 16;
    },
  });
  return new Request(`http://localhost:3000/my-tax-filing/${year}/documents`, {
    method: "POST",
    body,
    duplex: "half",
    headers: { cookie, "content-type": encoded.headers.get("content-type")! },
  } as RequestInit);
}

async function upload(
  cookie: string,
  year: number | string,
  category: string,
  files: Array<{ name: string; bytes: Uint8Array }>,
) {
  const request = await uploadRequest(cookie, year, category, files);
  return outcome<UploadBody>(() => uploadRoute.action(args(request, { year: String(year) })));
}

const download = (cookie: string, documentId: string) =>
  outcome<string>(() =>
    downloadRoute.loader(args(withCookie(`/documents/${documentId}`, cookie), { documentId })),
  );

// --- the people ------------------------------------------------------------------------------

let a: Account;
let b: Account;
let staff: Account;
let staffUser: SessionUser;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  a = await signedInClient("a@example.com");
  b = await signedInClient("b@example.com");
  staff = await signedInClient("staff@example.com");
  await makeStaff(staff);
  staffUser = {
    id: staff.id,
    email: "staff@example.com",
    name: "staff",
    role: "admin",
    emailVerified: true,
    sessionId: "",
  };
  // Each client's second tax year, started from the portal.
  expect((await startYear(a.cookie, EARLIER)).location).toBe(`/dashboard?year=${EARLIER}`);
  expect((await startYear(b.cookie, EARLIER)).location).toBe(`/dashboard?year=${EARLIER}`);
});

afterEach(() => setStorage(undefined));

/** Staff upload a document to a client's case (not shared with the client until they say so). */
async function staffDocument(
  clientId: string,
  taxYear: number,
  name = "draft-return.pdf",
  category: DocumentCategoryKey = "other-documents",
) {
  const saved = await saveUploads(
    staffUser,
    { clientId, taxYear, category, files: [{ name, bytes: PDF }] },
    "203.0.113.1",
  );
  if (saved === "no-such-case" || saved.uploaded.length !== 1) throw new Error("the staff upload failed");
  return saved.uploaded[0]!.id;
}

async function completeDocuments(clientId: string, taxYear: number) {
  await getDb()
    .update(clientCases)
    .set({ home: true, taxinfo: true, documents: true, currentStage: "preparation" })
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
}

// ---------------------------------------------------------------------------------------------

describe("My Tax Filings", () => {
  it("lists each client's own years, newest first, sent or waiting, and only the years left to start", async () => {
    const listA = await myFilings(a.cookie);
    expect(listA.status).toBe(200);
    expect(listA.body.filings).toEqual([]);
    expect(listA.body.awaitingInfo).toEqual([
      { taxYear: SEASON, stage: "home" },
      { taxYear: EARLIER, stage: "home" },
    ]);
    expect(listA.body.startYears).toEqual(openableYears().filter((y) => y !== SEASON && y !== EARLIER));

    await saveForm(a.cookie, EARLIER);
    await saveForm(b.cookie, SEASON, { ...sampleTaxpayer, name_as_per_ssn: "Bea", ssn_tin: "555-44-3333" });
    await getDb()
      .update(clientCases)
      .set({ taxinfo: true, home: true, currentStage: "documents" })
      .where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, EARLIER)));

    const after = (await myFilings(a.cookie)).body;
    expect(after.filings).toHaveLength(1);
    expect(after.filings[0]).toMatchObject({
      taxYear: EARLIER,
      stage: "documents",
      fullName: "Ravi Kumar",
      maskedSsn: "***-**-6789",
      status: "Submitted",
    });
    expect(after.awaitingInfo).toEqual([{ taxYear: SEASON, stage: "home" }]);
    expect(JSON.stringify(after)).not.toContain("123-45-6789");
    // Nothing of B's in A's list, and the other way round.
    expect(JSON.stringify(after)).not.toContain("Bea");
    const listB = (await myFilings(b.cookie)).body;
    expect(listB.filings.map((f) => [f.taxYear, f.fullName])).toEqual([[SEASON, "Bea Kumar"]]);
    expect(listB.awaitingInfo).toEqual([{ taxYear: EARLIER, stage: "home" }]);
    expect(JSON.stringify(listB)).not.toContain("Ravi");
  });

  it("starts a year once, refuses a year already open or not offered, and records the opening", async () => {
    const other = openableYears().find((y) => y !== SEASON && y !== EARLIER)!;
    const started = await startYear(a.cookie, other);
    expect(started.status).toBe(302);
    expect(started.location).toBe(`/dashboard?year=${other}`);
    expect((await myFilings(a.cookie)).body.awaitingInfo.map((c) => c.taxYear)).toEqual([
      SEASON,
      EARLIER,
      other,
    ]);

    const again = await startYear(a.cookie, other);
    expect(again).toMatchObject({
      status: 409,
      body: { ok: false, message: `You already have a filing for ${other}.` },
    });
    expect((await startYear(a.cookie, SEASON)).body.message).toBe(`You already have a filing for ${SEASON}.`);
    for (const year of [TOO_OLD, SEASON + 1, "1999", "abcd", "", `${SEASON}\u0000`]) {
      const refused = await startYear(a.cookie, year);
      expect(refused.status, `year ${JSON.stringify(year)}`).toBe(400);
      expect(refused.body).toEqual({ ok: false, message: "Choose one of the years listed." });
    }
    const cases = await getDb().select().from(clientCases).where(eq(clientCases.userId, a.id));
    expect(cases.map((c) => c.taxYear).sort()).toEqual([SEASON, EARLIER, other].sort());
    // The client keeps their number in every year.
    expect(new Set(cases.map((c) => c.number)).size).toBe(1);
    const opened = await getDb().select().from(auditLog).where(eq(auditLog.action, "case-opened")).orderBy(asc(auditLog.id));
    expect(
      opened
        .filter((e) => e.clientId === a.id)
        .map((e) => e.taxYear)
        .sort(),
    ).toEqual([EARLIER, other].sort());
    // B's years are B's own.
    expect((await myFilings(b.cookie)).body.awaitingInfo.map((c) => c.taxYear)).toEqual([SEASON, EARLIER]);
  });

  it("offers no year to start once every open year has a filing", async () => {
    for (const year of openableYears()) await startYear(a.cookie, year);
    expect((await myFilings(a.cookie)).body.startYears).toEqual([]);
  });
});

describe("the taxpayer form per tax year", () => {
  it("defaults to the newest year, saves each year on its own, and answers 404 for a year without a case", async () => {
    const first = await loadForm(a.cookie);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      loadFailed: false,
      taxYear: SEASON,
      hasRecord: false,
      prefilledFrom: null,
      otherYears: [EARLIER],
    });

    expect((await saveForm(a.cookie, EARLIER, { ...sampleTaxpayer, occupation: "Student" })).body).toEqual({
      ok: true,
    });
    expect((await saveForm(a.cookie, undefined, { ...sampleTaxpayer, occupation: "Engineer" })).body).toEqual(
      { ok: true },
    );
    const rows = await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, a.id));
    expect(rows.map((r) => [r.taxYear, r.occupation]).sort()).toEqual(
      [
        [EARLIER, "Student"],
        [SEASON, "Engineer"],
      ].sort(),
    );
    expect((await loadForm(a.cookie, EARLIER)).body).toMatchObject({
      taxYear: EARLIER,
      hasRecord: true,
      values: { occupation: "Student" },
    });
    expect((await loadForm(a.cookie, SEASON)).body).toMatchObject({
      taxYear: SEASON,
      hasRecord: true,
      values: { occupation: "Engineer" },
    });

    // No case for that year: the page does not exist, and a save says so and stores nothing.
    for (const year of [EARLIER - 1, TOO_OLD, "abcd", "20255"])
      expect((await loadForm(a.cookie, year)).status, `year ${year}`).toBe(404);
    const noCase = await saveForm(a.cookie, EARLIER - 1);
    expect(noCase.status).toBe(404);
    expect(noCase.body.formError).toBe(CASE_MESSAGES.noCase(EARLIER - 1));
    expect(await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, a.id))).toHaveLength(
      2,
    );
  });

  it("starts a new year from the latest earlier year's information, with a note, until that year is saved", async () => {
    await saveForm(a.cookie, EARLIER, { ...sampleTaxpayer, city: "Boston" });
    const prefilled = (await loadForm(a.cookie, SEASON)).body;
    expect(prefilled).toMatchObject({
      taxYear: SEASON,
      hasRecord: false,
      prefilledFrom: EARLIER,
      values: { city: "Boston", ssn_tin: "123-45-6789" },
    });
    expect(CASE_MESSAGES.prefilled(EARLIER)).toBe(
      `Started from your ${EARLIER} information — check each field before you save.`,
    );
    // Nothing is stored for the new year until the client saves it.
    expect(
      await getDb()
        .select()
        .from(taxpayerRecords)
        .where(and(eq(taxpayerRecords.userId, a.id), eq(taxpayerRecords.taxYear, SEASON))),
    ).toEqual([]);
    await saveForm(a.cookie, SEASON, { ...sampleTaxpayer, city: "Austin" });
    expect((await loadForm(a.cookie, SEASON)).body).toMatchObject({
      hasRecord: true,
      prefilledFrom: null,
      values: { city: "Austin" },
    });
    // Another client's earlier year never fills in B's form.
    expect((await loadForm(b.cookie, SEASON)).body).toMatchObject({
      hasRecord: false,
      prefilledFrom: null,
      values: { city: "" },
    });
  });

  it("records each save without its values and tells the staff: first 'submitted', then 'changed'", async () => {
    await saveForm(a.cookie, EARLIER);
    await saveForm(a.cookie, EARLIER, { ...sampleTaxpayer, occupation: "Analyst" });
    const saved = await getDb().select().from(auditLog).where(eq(auditLog.action, "taxpayer-info-saved")).orderBy(asc(auditLog.id));
    expect(saved.map((e) => [e.clientId, e.taxYear, e.detail])).toEqual([
      [a.id, EARLIER, "submitted"],
      [a.id, EARLIER, "changed"],
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/6789|Ravi|Analyst/);

    // Nobody is assigned: the firm's address is told, at once of the first save and of the
    // second once the hour after that notice has passed (notices of a case are gathered).
    expect((await mails())).toHaveLength(1);
    await getDb()
      .update(staffNotices)
      .set({ lastSentAt: new Date(Date.now() - NOTICE_QUIET_MS - 1000) })
      .where(eq(staffNotices.clientId, a.id));
    expect(await sendGatheredStaffNotices()).toBe(1);
    const sent = (await mails());
    expect(sent.map((m) => m.to)).toEqual(["staff@taxbridge.test", "staff@taxbridge.test"]);
    expect(sent[0]!.subject).toMatch(new RegExp(`submitted their taxpayer information \\(${EARLIER}\\)$`));
    expect(sent[1]!.subject).toMatch(new RegExp(`changed their taxpayer information \\(${EARLIER}\\)$`));
    for (const m of sent) {
      expect(m.text).toContain(`/admin/clients/${a.id}/${EARLIER}`);
      expect(m.raw).not.toMatch(/123-45|6789|Jersey City|Analyst/);
    }

    // With an assignee, the assignee is told instead.
    await getDb()
      .update(clientCases)
      .set({ assigneeId: staff.id })
      .where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, SEASON)));
    rmSync(path.join(dataDir(), "outbox"), { recursive: true, force: true });
    await saveForm(a.cookie, SEASON);
    expect((await mails()).map((m) => [m.to, /submitted their taxpayer information/.test(m.subject)])).toEqual([
      ["staff@example.com", true],
    ]);

    // A refused form is neither recorded nor announced.
    rmSync(path.join(dataDir(), "outbox"), { recursive: true, force: true });
    expect((await saveForm(a.cookie, SEASON, { ...sampleTaxpayer, ssn_tin: "12" })).status).toBe(400);
    expect((await saveForm(a.cookie, EARLIER - 1)).status).toBe(404);
    expect((await mails())).toEqual([]);
    expect(
      await getDb().select().from(auditLog).where(eq(auditLog.action, "taxpayer-info-saved")),
    ).toHaveLength(3);
  });
});

describe("a year's filing page", () => {
  it("sends each year's own stage, flags and documents", async () => {
    await getDb()
      .update(clientCases)
      .set({ home: true, taxinfo: true, currentStage: "documents" })
      .where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, EARLIER)));
    await saveForm(a.cookie, EARLIER);
    await upload(a.cookie, EARLIER, "w-2", [{ name: "w2.pdf", bytes: PDF }]);

    const earlier = await loadFiling(a.cookie, EARLIER);
    expect(earlier.status).toBe(200);
    expect(earlier.body).toMatchObject({
      taxYear: EARLIER,
      stage: "documents",
      flags: { home: true, taxinfo: true, documents: false },
      infoSent: true,
      documentsOpen: true,
      stageNotices: true,
    });
    expect(earlier.body.documents.map((d) => [d.name, d.category, d.mine])).toEqual([
      ["w2.pdf", "w-2", true],
    ]);

    const season = await loadFiling(a.cookie, SEASON);
    expect(season.body).toMatchObject({
      taxYear: SEASON,
      stage: "home",
      infoSent: false,
      documentsOpen: true,
      documents: [],
    });

    for (const year of [EARLIER - 1, TOO_OLD, "abcd", "0", `${SEASON}.data`])
      expect((await loadFiling(a.cookie, year)).status, `year ${year}`).toBe(404);
  });

  it("stores the stage e-mail setting, and a client cannot change a stage from it", async () => {
    expect((await postFiling(a.cookie, SEASON, [["intent", "stage-notices"]])).body).toEqual({
      intent: "stage-notices",
      ok: true,
      message: CASE_MESSAGES.noticesOff,
    });
    const [off] = await getDb().select().from(profiles).where(eq(profiles.id, a.id));
    expect(off!.stageNotices).toBe(false);
    expect((await loadFiling(a.cookie, EARLIER)).body.stageNotices).toBe(false);
    expect((await loadFiling(b.cookie, EARLIER)).body.stageNotices).toBe(true);
    await postFiling(a.cookie, EARLIER, [
      ["intent", "stage-notices"],
      ["stageNotices", "on"],
    ]);
    const [on] = await getDb().select().from(profiles).where(eq(profiles.id, a.id));
    expect(on!.stageNotices).toBe(true);
    const changes = await getDb().select().from(auditLog).where(eq(auditLog.action, "stage-notices-changed")).orderBy(asc(auditLog.id));
    expect(changes.map((c) => [c.clientId, c.detail])).toEqual([
      [a.id, "stage e-mails off"],
      [a.id, "stage e-mails on"],
    ]);

    // Staff's forms posted to the client's page change nothing.
    const before = await getDb().select().from(clientCases).where(eq(clientCases.userId, a.id));
    for (const fields of [
      [
        ["intent", "save-workflow"],
        ["clientId", a.id],
        ["taxYear", String(SEASON)],
        ["completed", "home"],
        ["completed", "taxinfo"],
        ["completed", "documents"],
      ],
      [
        ["intent", "view-case"],
        ["clientId", a.id],
      ],
      [["completed", "finalcopies"]],
    ] as Array<Array<[string, string]>>) {
      const refused = await postFiling(a.cookie, SEASON, fields);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ intent: "form", ok: false, message: CASE_MESSAGES.badForm });
    }
    expect(await getDb().select().from(clientCases).where(eq(clientCases.userId, a.id))).toEqual(before);
  });
});

describe("the client's documents", () => {
  it("uploads several files to the year's case as the client's own, records each and tells the staff once", async () => {
    const res = await upload(a.cookie, EARLIER, "1042-s", [
      { name: "1042-S 2024.pdf", bytes: PDF },
      { name: "IMG_0001.png", bytes: PNG },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.refused).toEqual([]);
    expect(res.body.uploaded.map((u) => u.name)).toEqual(["1042-S 2024.pdf", "IMG_0001.png"]);

    const rows = await getDb().select().from(documents);
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatchObject({
        clientId: a.id,
        taxYear: EARLIER,
        category: "1042-s",
        fromClient: true,
        uploadedBy: a.id,
        sharedAt: null,
      });
    expect(storedFiles()).toEqual(rows.map((r) => r.storageKey).sort());

    const audit = await getDb().select().from(auditLog).where(eq(auditLog.action, "document-uploaded")).orderBy(asc(auditLog.id));
    expect(audit.map((e) => [e.actorId, e.clientId, e.taxYear])).toEqual([
      [a.id, a.id, EARLIER],
      [a.id, a.id, EARLIER],
    ]);

    const sent = (await mails());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe("staff@taxbridge.test");
    expect(sent[0]!.subject).toMatch(new RegExp(`uploaded 2 documents \\(${EARLIER}\\)$`));
    expect(sent[0]!.raw).not.toContain("1042-S 2024.pdf");

    // The other year holds none of them; the client downloads their own.
    expect((await loadFiling(a.cookie, SEASON)).body.documents).toEqual([]);
    const got = await download(a.cookie, rows[0]!.id);
    expect(got.status).toBe(200);
  });

  it("refuses a HEIC photo with the advice, and a fake file, by name and content, storing nothing and telling no one", async () => {
    const heic = await upload(a.cookie, SEASON, "passport-visa", [{ name: "IMG_4032.HEIC", bytes: HEIC }]);
    expect(heic.status).toBe(400);
    expect(heic.body.refused).toEqual([{ name: "IMG_4032.HEIC", reason: REFUSED_HEIC }]);
    const fake = await upload(a.cookie, SEASON, "passport-visa", [{ name: "passport.jpg", bytes: PDF }]);
    expect(fake.body.refused).toEqual([
      { name: "passport.jpg", reason: "the file's content is not a real JPG image" },
    ]);
    expect((await upload(a.cookie, SEASON, "tax-secrets", [{ name: "a.pdf", bytes: PDF }])).status).toBe(400);
    expect((await upload(a.cookie, SEASON, "w-2", [])).status).toBe(400);
    expect(await getDb().select().from(documents)).toEqual([]);
    expect(storedFiles()).toEqual([]);
    expect((await mails())).toEqual([]);
  });

  it("removes the client's own uploads until DOCUMENTS is complete, then refuses uploads and removals", async () => {
    const up = await upload(a.cookie, SEASON, "w-2", [
      { name: "one.pdf", bytes: PDF },
      { name: "two.pdf", bytes: PDF },
    ]);
    const [one, two] = up.body.uploaded.map((u) => u.id);
    const removed = await removeDocs(a.cookie, SEASON, [one!]);
    expect(removed).toMatchObject({
      status: 200,
      body: { intent: "remove", ok: true, message: "The document was removed." },
    });
    expect((await loadFiling(a.cookie, SEASON)).body.documents.map((d) => d.name)).toEqual(["two.pdf"]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "document-removed"))).toHaveLength(
      1,
    );

    await completeDocuments(a.id, SEASON);
    expect((await loadFiling(a.cookie, SEASON)).body).toMatchObject({
      documentsOpen: false,
      stage: "preparation",
    });
    const late = await removeDocs(a.cookie, SEASON, [two!]);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(CASE_MESSAGES.documentsClosed(SEASON));
    const lateUpload = await upload(a.cookie, SEASON, "w-2", [{ name: "three.pdf", bytes: PDF }]);
    expect(lateUpload.status).toBe(409);
    expect(lateUpload.body.error).toBe(CASE_MESSAGES.documentsClosed(SEASON));
    expect((await getDb().select().from(documents)).map((d) => d.originalName)).toEqual(["two.pdf"]);
    expect(storedFiles()).toHaveLength(1);
    // The other year's documents are still open.
    expect((await upload(a.cookie, EARLIER, "w-2", [{ name: "three.pdf", bytes: PDF }])).status).toBe(200);
  });

  it("never removes a staff document, shows staff documents only once shared, and downloads only those", async () => {
    const hidden = await staffDocument(a.id, SEASON, "internal-worksheet.pdf");
    const shared = await staffDocument(a.id, SEASON, "draft-return.pdf");
    await setDocumentsShared(
      staffUser,
      { clientId: a.id, taxYear: SEASON, documentIds: [shared], shared: true },
      "203.0.113.1",
    );

    const page = (await loadFiling(a.cookie, SEASON)).body;
    expect(page.documents.map((d) => [d.id, d.name, d.mine])).toEqual([[shared, "draft-return.pdf", false]]);
    expect(JSON.stringify(page)).not.toContain("internal-worksheet");
    expect(JSON.stringify(page)).not.toContain(hidden);

    expect((await download(a.cookie, hidden)).status).toBe(404);
    const got = await download(a.cookie, shared);
    expect(got.status).toBe(200);
    expect(got.body).toContain("%PDF-1.4");

    for (const id of [hidden, shared]) {
      const refused = await removeDocs(a.cookie, SEASON, [id]);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ intent: "remove", ok: false, message: CASE_MESSAGES.nothingRemoved });
    }
    expect((await getDb().select().from(documents)).map((d) => d.id).sort()).toEqual([hidden, shared].sort());

    // Taken back: gone from the client's page and from their downloads again.
    await setDocumentsShared(
      staffUser,
      { clientId: a.id, taxYear: SEASON, documentIds: [shared], shared: false },
      "203.0.113.1",
    );
    expect((await loadFiling(a.cookie, SEASON)).body.documents).toEqual([]);
    expect((await download(a.cookie, shared)).status).toBe(404);
  });
});

describe("who reaches what", () => {
  it("another client gets 404 for every route, year and document of the first, and changes nothing", async () => {
    // A's second client-only year: B has no case for it.
    const aOnly = openableYears().find((y) => y !== SEASON && y !== EARLIER)!;
    await startYear(a.cookie, aOnly);
    await saveForm(a.cookie, aOnly);
    const aDoc = (await upload(a.cookie, aOnly, "w-2", [{ name: "a-w2.pdf", bytes: PDF }])).body.uploaded[0]!
      .id;
    const aShared = await staffDocument(a.id, aOnly, "a-final.pdf");
    await setDocumentsShared(
      staffUser,
      { clientId: a.id, taxYear: aOnly, documentIds: [aShared], shared: true },
      "203.0.113.1",
    );
    const before = {
      docs: await getDb().select().from(documents),
      records: await getDb().select().from(taxpayerRecords),
    };

    expect((await loadFiling(b.cookie, aOnly)).status).toBe(404);
    expect((await loadForm(b.cookie, aOnly)).status).toBe(404);
    expect(
      (
        await postFiling(b.cookie, aOnly, [
          ["intent", "remove"],
          ["documentIds", aDoc],
        ])
      ).status,
    ).toBe(404);
    expect((await postFiling(b.cookie, aOnly, [["intent", "stage-notices"]])).status).toBe(404);
    const upl = await upload(b.cookie, aOnly, "w-2", [{ name: "b.pdf", bytes: PDF }]);
    expect(upl.status).toBe(404);
    expect(upl.body.error).toBe(CASE_MESSAGES.noCase(aOnly));
    expect((await saveForm(b.cookie, aOnly)).status).toBe(404);
    for (const id of [aDoc, aShared]) expect((await download(b.cookie, id)).status).toBe(404);
    // A's ids sent through B's own year remove nothing of A's.
    expect((await removeDocs(b.cookie, SEASON, [aDoc, aShared])).status).toBe(403);
    // The same answers as for a year nobody has.
    expect((await loadFiling(b.cookie, TOO_OLD)).status).toBe(404);

    expect(await getDb().select().from(documents)).toEqual(before.docs);
    expect(await getDb().select().from(taxpayerRecords)).toEqual(before.records);
    expect(JSON.stringify((await myFilings(b.cookie)).body)).not.toContain("Ravi");
    // B's profile setting is B's: A's stays on.
    expect((await loadFiling(a.cookie, aOnly)).body.stageNotices).toBe(true);
  });

  it("sends a visitor to sign in from every route", async () => {
    const calls: Array<[string, () => Promise<Outcome<unknown>>]> = [
      ["/my-tax-filing", () => myFilings("")],
      ["/my-tax-filing", () => startYear("", EARLIER)],
      [`/dashboard?year=${SEASON}`, () => loadForm("", SEASON)],
      [`/dashboard?year=${SEASON}`, () => saveForm("", SEASON)],
      [`/my-tax-filing/${SEASON}`, () => loadFiling("", SEASON)],
      [`/my-tax-filing/${SEASON}`, () => postFiling("", SEASON, [["intent", "stage-notices"]])],
      [
        `/my-tax-filing/${SEASON}/documents`,
        () => upload("", SEASON, "w-2", [{ name: "a.pdf", bytes: PDF }]),
      ],
    ];
    for (const [target, call] of calls) {
      const res = await call();
      expect(res.status, target).toBe(302);
      expect(res.location).toBe(`/login?redirectTo=${encodeURIComponent(target)}`);
    }
    expect(await getDb().select().from(documents)).toEqual([]);
    expect(storedFiles()).toEqual([]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "case-opened"))).toHaveLength(2);
  });

  it("gives staff no filing of their own in the portal: nothing to list, start, open or upload to", async () => {
    // The client's own pages send staff to the panel.
    for (const answer of [await myFilings(staff.cookie), await startYear(staff.cookie, SEASON), await loadForm(staff.cookie), await saveForm(staff.cookie, undefined)])
      expect([answer.status, answer.location]).toEqual([302, "/admin/dashboard"]);
    expect((await loadFiling(staff.cookie, SEASON)).status).toBe(404);
    expect((await upload(staff.cookie, SEASON, "w-2", [{ name: "a.pdf", bytes: PDF }])).status).toBe(404);
    expect(await getDb().select().from(clientCases).where(eq(clientCases.userId, staff.id))).toEqual([]);
    expect(await getDb().select().from(documents)).toEqual([]);
  });

  it("the server lets a client's upload be as large as the staff's (100 MB), and keeps the page's forms at 64 KB", () => {
    // The cap is applied before the route runs (server/app.ts); a phone photo is several MB.
    expect(bodyLimitFor(`/my-tax-filing/${SEASON}/documents`).maxBytes).toBe(MAX_UPLOAD_REQUEST_BYTES);
    expect(bodyLimitFor(`/my-tax-filing/${SEASON}`).maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/my-tax-filing").maxBytes).toBe(FORM_BODY_MAX_BYTES);
  });

  it("the upload answers 405 to anything but a POST", async () => {
    const res = await outcome(() =>
      uploadRoute.loader(
        args(withCookie(`/my-tax-filing/${SEASON}/documents`, a.cookie), { year: String(SEASON) }),
      ),
    );
    expect(res.status).toBe(405);
  });
});
