// The hardening suite against the built server: every route of app/routes.ts, as a visitor, a
// client and staff, answers with the security headers, signed-in pages are never cached, and no
// answer (errors included) shows a stack trace or a server path; every action refuses a
// cross-origin POST and changes nothing; hostile text sent through the real forms comes back as
// text, never as markup.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, ADMIN, createVerifiedUser, e2eDataDir, freshStaffCode, PASSWORD, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { APIRequestContext, APIResponse, BrowserContext, Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { currentFilingYear } from "~/domain/tax-year";
import routeConfig from "~/routes";
import { readOutbox } from "../helpers/outbox";

type Who = "visitor" | "client" | "staff";
type Ids = { clientId: string; documentId: string };

// ---------------------------------------------------------------------------------------------
// The route table

/** Every path of the route config (as written there, e.g. "/documents/:documentId") with its module. */
function configuredRoutes(
  entries: readonly RouteConfigEntry[] = routeConfig,
  parent = "",
): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const own =
      entry.path === undefined
        ? parent
        : entry.path === "*" && parent === ""
          ? "*"
          : `${parent}/${entry.path}`;
    const here =
      entry.index || entry.path !== undefined ? [{ path: own === "" ? "/" : own, file: entry.file }] : [];
    return [...here, ...configuredRoutes(entry.children ?? [], own)];
  });
}

/** The filing season's tax year: every client has that case from the start. */
const YEAR = currentFilingYear();

/**
 * How to reach each route: the URL to ask for, and whether it is a signed-in page (portal, staff,
 * documents, CSV, staff security) whose every answer must carry Cache-Control: no-store.
 */
const ROUTES: Record<string, { url: (ids: Ids) => string; signedIn: boolean }> = {
  "/": { url: () => "/", signedIn: false },
  "/about": { url: () => "/about", signedIn: false },
  "/services": { url: () => "/services", signedIn: false },
  "/pricing": { url: () => "/pricing", signedIn: false },
  "/contact": { url: () => "/contact", signedIn: false },
  "/privacy": { url: () => "/privacy", signedIn: false },
  "/terms": { url: () => "/terms", signedIn: false },
  "/services/itin-processing": { url: () => "/services/itin-processing", signedIn: false },
  "/services/fbar-filing": { url: () => "/services/fbar-filing", signedIn: false },
  "/services/1040-returns": { url: () => "/services/1040-returns", signedIn: false },
  "/services/w4-assistance": { url: () => "/services/w4-assistance", signedIn: false },
  "/services/form-4868-extension": { url: () => "/services/form-4868-extension", signedIn: false },
  "/services/professional-tax-planning": {
    url: () => "/services/professional-tax-planning",
    signedIn: false,
  },
  "/tools/residency-calculator": { url: () => "/tools/residency-calculator", signedIn: false },
  "/login": { url: () => "/login", signedIn: false },
  "/signup": { url: () => "/signup", signedIn: false },
  // The token in its address is a secret: never cached either.
  "/reset-password": { url: () => "/reset-password?token=made-up-token", signedIn: true },
  "/auth/callback": { url: () => "/auth/callback", signedIn: false },
  "/logout": { url: () => "/logout", signedIn: false },
  "/dashboard": { url: () => "/dashboard", signedIn: true },
  "/my-tax-filing": { url: () => "/my-tax-filing", signedIn: true },
  "/my-residency": { url: () => "/my-residency", signedIn: true },
  "/my-consents": { url: () => "/my-consents", signedIn: true },
  "/my-consents/:kind": { url: () => "/my-consents/use", signedIn: true },
  "/my-tax-filing/:year": { url: () => `/my-tax-filing/${YEAR}`, signedIn: true },
  "/my-tax-filing/:year/documents": { url: () => `/my-tax-filing/${YEAR}/documents`, signedIn: true },
  "/my-tax-filing/:year/messages": { url: () => `/my-tax-filing/${YEAR}/messages`, signedIn: true },
  "/my-tax-filing/:year/requests": { url: () => `/my-tax-filing/${YEAR}/requests`, signedIn: true },
  // No draft and no signature request exist: the 404 of a file that is not theirs.
  "/my-tax-filing/:year/return/:versionId": { url: () => `/my-tax-filing/${YEAR}/return/${randomUUID()}`, signedIn: true },
  "/my-tax-filing/:year/signing-form": { url: () => `/my-tax-filing/${YEAR}/signing-form`, signedIn: true },
  "/my-tax-filing/:year/signed-form": { url: () => `/my-tax-filing/${YEAR}/signed-form`, signedIn: true },
  // The fee's forms answer a GET by sending back to the filing page; no invoice: the 404 of a file.
  "/my-tax-filing/:year/fee": { url: () => `/my-tax-filing/${YEAR}/fee`, signedIn: true },
  "/my-tax-filing/:year/engagement": { url: () => `/my-tax-filing/${YEAR}/engagement`, signedIn: true },
  // No letter exists: the 404 of a file that is not theirs.
  "/my-tax-filing/:year/engagement/:letterId/pdf": { url: () => `/my-tax-filing/${YEAR}/engagement/${randomUUID()}/pdf`, signedIn: true },
  "/my-tax-filing/:year/invoices/:invoiceId/:file": {
    url: () => `/my-tax-filing/${YEAR}/invoices/${randomUUID()}/invoice.pdf`,
    signedIn: true,
  },
  // The spouse's signing link: its token is the key, so its pages are never cached.
  "/sign/:token": { url: () => "/sign/made-up-token", signedIn: true },
  "/sign/:token/form": { url: () => "/sign/made-up-token/form", signedIn: true },
  "/sign/:token/signed-form": { url: () => "/sign/made-up-token/signed-form", signedIn: true },
  "/my-tax-filings": { url: () => "/my-tax-filings", signedIn: false },
  // The payment offer's button: where it leads depends on who asks, so never cached.
  "/pay": { url: () => "/pay", signedIn: true },
  "/admin": { url: () => "/admin", signedIn: true },
  "/admin/dashboard": { url: () => "/admin/dashboard", signedIn: true },
  "/admin/messages": { url: () => "/admin/messages", signedIn: true },
  "/admin/audit": { url: () => "/admin/audit", signedIn: true },
  "/admin/team": { url: () => "/admin/team", signedIn: true },
  "/admin/notices": { url: () => "/admin/notices", signedIn: true },
  "/admin/payments": { url: () => "/admin/payments", signedIn: true },
  "/admin/engagement": { url: () => "/admin/engagement", signedIn: true },
  "/admin/season": { url: () => "/admin/season", signedIn: true },
  "/admin/clients/:clientId/:year/engagement": { url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/engagement`, signedIn: true },
  // No letter exists: staff get the 404 of an unknown letter.
  "/admin/clients/:clientId/engagement-letters/:letterId": {
    url: (ids) => `/admin/clients/${ids.clientId}/engagement-letters/${randomUUID()}`,
    signedIn: true,
  },
  "/admin/payments.csv": { url: () => "/admin/payments.csv", signedIn: true },
  "/admin/clients/:clientId/documents": {
    url: (ids) => `/admin/clients/${ids.clientId}/documents`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year": { url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}`, signedIn: true },
  "/admin/clients/:clientId/:year/taxpayer": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/taxpayer`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/residency": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/residency`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/residency/history": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/residency/history`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/documents": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/documents`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/workflow": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/workflow`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/notes": { url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/notes`, signedIn: true },
  "/admin/clients/:clientId/:year/return": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/return`,
    signedIn: true,
  },
  // No invoice exists: staff get the 404 of an unknown invoice.
  "/admin/clients/:clientId/invoices/:invoiceId/:file": {
    url: (ids) => `/admin/clients/${ids.clientId}/invoices/${randomUUID()}/invoice.pdf`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/fee": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/fee`,
    signedIn: true,
  },
  // No version exists: staff get the 404 of an unknown version.
  "/admin/clients/:clientId/return-versions/:versionId": {
    url: (ids) => `/admin/clients/${ids.clientId}/return-versions/${randomUUID()}`,
    signedIn: true,
  },
  "/admin/clients/:clientId/:year/messages": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/messages`,
    signedIn: true,
  },
  "/admin/inbox": { url: () => "/admin/inbox?filter=waiting", signedIn: true },
  "/admin/clients/:clientId/:year/requests": {
    url: (ids) => `/admin/clients/${ids.clientId}/${YEAR}/requests`,
    signedIn: true,
  },
  "/admin/security/setup": { url: () => "/admin/security/setup", signedIn: true },
  "/admin/security/verify": { url: () => "/admin/security/verify", signedIn: true },
  "/admin/clients/:clientId/documents/upload": {
    url: (ids) => `/admin/clients/${ids.clientId}/documents/upload`,
    signedIn: true,
  },
  "/documents/:documentId": { url: (ids) => `/documents/${ids.documentId}`, signedIn: true },
  "/admin/clients.csv": { url: () => "/admin/clients.csv", signedIn: true },
  "/api/auth/*": { url: () => "/api/auth/verify-email?token=made-up-token", signedIn: true },
  // Stripe's webhook takes POSTs only: a GET is answered 405.
  "/api/stripe/webhook": { url: () => "/api/stripe/webhook", signedIn: false },
  "/sitemap.xml": { url: () => "/sitemap.xml", signedIn: false },
  "/robots.txt": { url: () => "/robots.txt", signedIn: false },
  "*": { url: () => `/no-such-page-${randomUUID()}`, signedIn: false },
};

// ---------------------------------------------------------------------------------------------
// What every answer must (not) carry

const LEAKS: Array<{ what: string; pattern: RegExp }> = [
  { what: "a stack frame", pattern: /^\s*at \S[^\n]*:\d+(?::\d+)?\)?\s*$/m },
  {
    what: "an error naming a source file",
    pattern: /\b[A-Z]\w*Error: [^\n<]*[/\\][\w.-]+\.(?:[cm]?js|tsx?)\b/,
  },
  { what: "/work/", pattern: /\/work\// },
  { what: "/tmp/", pattern: /\/tmp\// },
  { what: "node_modules", pattern: /node_modules/ },
  { what: "file://", pattern: /file:\/\// },
  { what: "the server's folder", pattern: new RegExp(process.cwd().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) },
];

const isText = (contentType: string) =>
  contentType === "" || /^(text\/|application\/(json|xml|javascript))/.test(contentType);

/** Who asked, whether the route is a signed-in one, and whether the answer is the end of a redirect chain. */
type Seen = { who: Who; signedIn: boolean; afterRedirects?: boolean };

/** What is wrong with one answer: a missing header, a missing no-store, a leak in its body. */
async function problemsOf(label: string, response: APIResponse, seen: Seen): Promise<string[]> {
  const h = response.headers();
  const problems: string[] = [];
  const csp = h["content-security-policy"] ?? "";
  const type = (h["content-type"] ?? "").toLowerCase();
  if (!csp) problems.push(`${label}: no Content-Security-Policy`);
  if (h["x-content-type-options"] !== "nosniff")
    problems.push(`${label}: X-Content-Type-Options is ${h["x-content-type-options"]}`);
  if (h["x-frame-options"]?.toUpperCase() !== "DENY" && !csp.includes("frame-ancestors 'none'"))
    problems.push(`${label}: may be framed`);
  if (
    !/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/.test(
      h["referrer-policy"] ?? "",
    )
  )
    problems.push(`${label}: Referrer-Policy is ${h["referrer-policy"]}`);
  // A signed-in person's pages, public ones included, show who they are in the header menu.
  const personal =
    seen.signedIn || (seen.who !== "visitor" && type.startsWith("text/html") && !seen.afterRedirects);
  if (personal && response.status() < 400 && !(h["cache-control"] ?? "").includes("no-store"))
    problems.push(`${label}: ${response.status()} without Cache-Control: no-store (${h["cache-control"]})`);
  if (!isText(type)) return problems;
  const body = await response.text();
  for (const leak of LEAKS)
    if (leak.pattern.test(body))
      problems.push(`${label}: body shows ${leak.what}: ${body.match(leak.pattern)?.[0].slice(0, 120)}`);
  if (type.startsWith("text/html")) {
    // Inline scripts run only with this answer's nonce; a script without one must come from this
    // site (the public pages' enhancement module, which the policy's 'self' allows).
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    if (!nonce) problems.push(`${label}: HTML without a script nonce in its policy`);
    else if (!csp.includes(`script-src 'self' 'nonce-${nonce}';`))
      problems.push(`${label}: script-src allows more than this site and the nonce: ${csp}`);
    for (const tag of body.match(/<script\b[^>]*>/g) ?? []) {
      const ownNonce = tag.includes(`nonce="${nonce}"`);
      const sameOrigin = /\ssrc="\/(?!\/)[^"]*"/.test(tag) && !/\snonce=/.test(tag);
      if (!ownNonce && !sameOrigin)
        problems.push(`${label}: a script neither from this site nor with this answer's nonce: ${tag.slice(0, 80)}`);
    }
  }
  return problems;
}

/** GET as `who`: the first answer (redirects not followed) and, for a redirect, where it leads. */
async function visit(
  ctx: APIRequestContext,
  who: Who,
  url: string,
  signedIn: boolean,
): Promise<{ first: APIResponse; problems: string[] }> {
  const first = await ctx.get(url, { maxRedirects: 0 });
  const problems = await problemsOf(`${who} GET ${url}`, first, { who, signedIn });
  if (first.status() >= 300 && first.status() < 400) {
    const final = await ctx.get(url);
    problems.push(
      ...(await problemsOf(`${who} GET ${url} (after redirects, ${final.url()})`, final, {
        who,
        signedIn: false,
        afterRedirects: true,
      })),
    );
  }
  return { first, problems };
}

// ---------------------------------------------------------------------------------------------
// Shared state: one client, one staff member, a document

test.describe.configure({ mode: "serial" });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

let visitorContext: BrowserContext;
let clientContext: BrowserContext;
let staffContext: BrowserContext;
let clientPage: Page;
let staffPage: Page;
let clientEmail = "";
const ids: Ids = { clientId: "", documentId: "" };

const as = (who: Who): APIRequestContext =>
  who === "visitor"
    ? visitorContext.request
    : who === "client"
      ? clientContext.request
      : staffContext.request;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  visitorContext = await browser.newContext();
  clientContext = await browser.newContext();
  staffContext = await browser.newContext();
  clientPage = await clientContext.newPage();
  staffPage = await staffContext.newPage();

  await createVerifiedUser(visitorContext.request, ADMIN);
  await signInAsStaff(staffPage);

  clientEmail = uniqueEmail("hardening");
  await createVerifiedUser(visitorContext.request, clientEmail, PASSWORD, "Hardening Client");
  await signIn(clientPage, clientEmail);
  await expect(clientPage).toHaveURL(/\/dashboard$/);

  ids.clientId = await clientIdOf(staffPage.request, clientEmail);
  const upload = await staffPage.request.post(`/admin/clients/${ids.clientId}/documents/upload`, {
    multipart: {
      category: "form-16",
      files: { name: "hardening.pdf", mimeType: "application/pdf", buffer: PDF },
    },
  });
  expect(upload.status()).toBe(200);
  ids.documentId = ((await upload.json()) as { uploaded: Array<{ id: string }> }).uploaded[0]!.id;
  // Shared with the client, so that the client's download of it is a real page too.
  const shared = await staffPage.request.post(`/admin/clients/${ids.clientId}/${YEAR}`, {
    form: { intent: "share", documentIds: ids.documentId },
  });
  expect(shared.status()).toBe(200);
});

test.afterAll(async () => {
  await Promise.all([visitorContext?.close(), clientContext?.close(), staffContext?.close()]);
});

// ---------------------------------------------------------------------------------------------

test("the route table covers every route of app/routes.ts, and nothing else", () => {
  const configured = [...new Set(configuredRoutes().map((r) => r.path))].sort();
  expect(configured.length).toBeGreaterThan(30);
  expect(Object.keys(ROUTES).sort()).toEqual(configured);
});

test("every route, as a visitor, a client and staff: security headers, no-store when signed in, no stack trace or server path", async () => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  const statuses: string[] = [];
  for (const [pattern, route] of Object.entries(ROUTES)) {
    for (const who of ["visitor", "client", "staff"] as const) {
      const { first, problems: found } = await visit(as(who), who, route.url(ids), route.signedIn);
      problems.push(...found);
      statuses.push(`${who} ${pattern} ${first.status()}`);
    }
  }
  expect(problems).toEqual([]);
  // Each kind of account really reached its own pages (the checks above looked at real pages, not redirects).
  for (const line of [
    "client /dashboard 200",
    "client /my-tax-filing 200",
    "staff /admin/dashboard 200",
    "staff /admin/messages 200",
    "staff /admin/audit 200",
    "staff /admin/clients/:clientId/documents 200",
    "staff /documents/:documentId 200",
    "client /documents/:documentId 200",
    "staff /admin/clients.csv 200",
    "client /my-tax-filing/:year/messages 200",
    "staff /admin/clients/:clientId/:year/messages 200",
    "staff /admin/clients/:clientId/:year 200",
    "staff /admin/clients/:clientId/:year/taxpayer 200",
    "staff /admin/clients/:clientId/:year/documents 200",
    "staff /admin/clients/:clientId/:year/requests 200",
    "staff /admin/clients/:clientId/:year/workflow 200",
    "staff /admin/clients/:clientId/:year/notes 200",
    "staff /admin/clients/:clientId/:year/return 200",
    "client /admin/clients/:clientId/:year/workflow 302",
    "visitor /admin/clients/:clientId/:year/notes 302",
    "staff /admin/inbox 200",
    "visitor /dashboard 302",
    "client /admin/dashboard 302",
    "visitor * 404",
  ]) {
    expect(statuses).toContain(line);
  }
});

test("errors (unknown ids, broken addresses, wrong methods, bodies that are not forms) answer 4xx without a stack trace or a path", async () => {
  test.setTimeout(120_000);
  const unknown = randomUUID();
  const hiddenSignup = `hidden-${unknown.slice(0, 8)}@example.com`;
  const longPath = `/${"a".repeat(8_000)}`;
  type Probe = {
    who: Who;
    method: string;
    url: string;
    headers?: Record<string, string>;
    data?: string | Buffer;
    expect: number[];
  };
  const probes: Probe[] = [
    { who: "client", method: "GET", url: `/documents/${unknown}`, expect: [404] },
    { who: "staff", method: "GET", url: `/documents/${unknown}`, expect: [404] },
    { who: "staff", method: "GET", url: "/documents/not-an-id", expect: [404] },
    { who: "staff", method: "GET", url: `/admin/clients/${unknown}/documents`, expect: [404] },
    { who: "staff", method: "GET", url: "/admin/clients/%00/documents", expect: [400] },
    { who: "staff", method: "GET", url: "/admin/dashboard?q=%00", expect: [400] },
    {
      who: "staff",
      method: "GET",
      url: "/admin/dashboard?page=-1&stage=%3Cscript%3E&section=..%2F..",
      expect: [200],
    },
    { who: "staff", method: "GET", url: `/admin/audit?client=${unknown}`, expect: [200] },
    {
      who: "staff",
      method: "POST",
      url: `/admin/clients/${unknown}/documents/upload`,
      headers: { "content-type": "multipart/form-data; boundary=x" },
      data: "--x--",
      expect: [404],
    },
    { who: "visitor", method: "GET", url: "/%E0%A4%A", expect: [400, 404] },
    { who: "visitor", method: "GET", url: "/%", expect: [400, 404] },
    { who: "visitor", method: "GET", url: "/..%2f..%2f..%2fetc%2fpasswd", expect: [400, 403, 404] },
    { who: "visitor", method: "GET", url: longPath, expect: [404, 414, 431] },
    { who: "visitor", method: "GET", url: `/contact?x=${"b".repeat(6_000)}`, expect: [200, 414, 431] },
    { who: "visitor", method: "GET", url: "/reset-password?token=%00", expect: [400] },
    { who: "visitor", method: "PUT", url: "/contact", expect: [405] },
    { who: "visitor", method: "DELETE", url: "/contact", expect: [405] },
    { who: "visitor", method: "PATCH", url: "/login", expect: [405] },
    { who: "visitor", method: "DELETE", url: "/", expect: [405] },
    { who: "visitor", method: "PUT", url: "/about", expect: [405] },
    { who: "client", method: "PUT", url: "/dashboard", expect: [405] },
    { who: "client", method: "DELETE", url: "/my-tax-filing", expect: [405] },
    { who: "staff", method: "PUT", url: "/admin/dashboard", expect: [405] },
    { who: "staff", method: "DELETE", url: `/documents/${ids.documentId}`, expect: [405] },
    { who: "staff", method: "PUT", url: `/admin/clients/${ids.clientId}/documents/upload`, expect: [405] },
    { who: "visitor", method: "PUT", url: "/api/stripe/webhook", expect: [405] },
    {
      who: "visitor",
      method: "POST",
      url: "/api/stripe/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=forged" },
      data: JSON.stringify({ id: "evt_forged", type: "checkout.session.completed" }),
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: "%%%&&=%E0%A4%A&name=%zz",
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/json" },
      data: JSON.stringify({ name: "x", email: "x@example.com" }),
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/contact",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      data: "this is not multipart",
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/contact",
      headers: { "content-type": "text/plain" },
      data: "name=x",
      expect: [400],
    },
    { who: "visitor", method: "POST", url: "/contact", data: "", expect: [400] },
    {
      who: "visitor",
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: `description=${"d".repeat(2_000_000)}`,
      expect: [400, 413],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/login",
      headers: { "content-type": "application/json" },
      data: JSON.stringify({ email: ADMIN, password: PASSWORD }),
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/signup.data",
      headers: { "content-type": "application/json" },
      data: "{}",
      expect: [400],
    },
    {
      who: "client",
      method: "POST",
      url: "/dashboard",
      headers: { "content-type": "application/json" },
      data: '{"name_as_per_ssn":1}',
      expect: [400],
    },
    {
      who: "staff",
      method: "POST",
      url: "/admin/dashboard",
      headers: { "content-type": "multipart/form-data; boundary=" },
      data: "--\r\n\r\n",
      expect: [400],
    },
    {
      who: "staff",
      method: "POST",
      url: "/admin/messages",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: `intent=mark-handled&messageId=${"-".repeat(36)}`,
      expect: [400],
    },
    {
      who: "staff",
      method: "POST",
      url: `/admin/clients/${ids.clientId}/documents/upload`,
      headers: { "content-type": "multipart/form-data; boundary=x" },
      data: "--x\r\ngarbage\r\n--x",
      expect: [400],
    },
    {
      who: "staff",
      method: "POST",
      url: `/admin/clients/${ids.clientId}/documents/upload`,
      headers: { "content-type": "application/json" },
      data: "{}",
      expect: [415],
    },
    {
      who: "staff",
      method: "POST",
      url: `/admin/clients/${ids.clientId}/documents/upload`,
      headers: { "content-type": "multipart/form-data; boundary=x" },
      data: Buffer.concat([
        Buffer.from(
          '--x\r\nContent-Disposition: form-data; name="category"\r\n\r\nform-16\r\n--x\r\nContent-Disposition: form-data; name="files"; filename="a\u0000b\\..\\evil.pdf.html"\r\nContent-Type: application/pdf\r\n\r\n',
        ),
        Buffer.from("<script>alert(1)</script>"),
        Buffer.from("\r\n--x--\r\n"),
      ]),
      expect: [400],
    },
    {
      who: "visitor",
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { "content-type": "application/json" },
      data: JSON.stringify({ email: hiddenSignup, password: PASSWORD, name: "x" }),
      expect: [404],
    },
    {
      who: "client",
      method: "POST",
      url: "/api/auth/update-user",
      headers: { "content-type": "application/json" },
      data: JSON.stringify({ role: "admin" }),
      expect: [404],
    },
    { who: "client", method: "GET", url: "/api/auth/list-sessions", expect: [404] },
    { who: "visitor", method: "GET", url: "/api/auth/verify-email?token=made-up", expect: [302, 400, 401] },
  ];
  const problems: string[] = [];
  for (const p of probes) {
    const response = await as(p.who).fetch(p.url, {
      method: p.method,
      headers: p.headers,
      data: p.data,
      maxRedirects: 0,
    });
    const label = `${p.who} ${p.method} ${p.url.slice(0, 60)}`;
    if (!p.expect.includes(response.status()))
      problems.push(`${label}: answered ${response.status()}, expected ${p.expect.join(" or ")}`);
    problems.push(...(await problemsOf(label, response, { who: p.who, signedIn: false })));
  }
  expect(problems).toEqual([]);
  // The client was not made staff by any of it, and the hidden endpoints did not sign anyone up.
  expect((await as("client").get("/admin/dashboard", { maxRedirects: 0 })).headers()["location"]).toBe(
    "/dashboard",
  );
  expect(readOutbox(e2eDataDir).some((m) => m.to.includes(hiddenSignup))).toBe(false);
});

// ---------------------------------------------------------------------------------------------
// Cross-origin POSTs

/** Every route module's path that exports an action, read from the source files of the route config. */
function routesWithActions(): string[] {
  return configuredRoutes()
    .filter((r) =>
      /export\s+(async\s+)?function\s+action\b|export\s+(const|let)\s+action\b|export\s*\{[^}]*\baction\b[^}]*\}/.test(
        readFileSync(path.join("app", r.file), "utf8"),
      ),
    )
    .map((r) => r.path)
    .sort();
}

type CrossSite = { who: Who; url: (ids: Ids) => string; form?: Record<string, string>; multipart?: boolean };

/** One POST per action route, as the page itself would send it. */
const ACTIONS: Record<string, CrossSite> = {
  "/contact": {
    who: "visitor",
    url: () => "/contact",
    form: {
      name: "Cross Site",
      email: "cross@example.com",
      phone: "",
      subject: "(subject)",
      description: "Sent from another site, it must not arrive.",
    },
  },
  "/tools/residency-calculator": {
    who: "visitor",
    url: () => "/tools/residency-calculator",
    form: { taxYear: "2024", category: "not-exempt", present0: "200" },
  },
  "/login": {
    who: "visitor",
    url: () => "/login",
    form: { intent: "signin", email: "(client)", password: PASSWORD },
  },
  "/signup": {
    who: "visitor",
    url: () => "/signup",
    form: {
      intent: "signup",
      fullName: "Cross Site",
      email: "(new)",
      phone: "",
      visaStatus: "F-1",
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptTerms: "on",
    },
  },
  "/reset-password": {
    who: "visitor",
    url: () => "/reset-password",
    form: { intent: "request", email: "(client)" },
  },
  "/logout": { who: "client", url: () => "/logout", form: {} },
  "/dashboard": { who: "client", url: () => "/dashboard", form: { name_as_per_ssn: "(subject)" } },
  "/my-tax-filing": { who: "client", url: () => "/my-tax-filing", form: { intent: "start-year", taxYear: String(YEAR - 1) } },
  "/my-residency": { who: "client", url: () => "/my-residency", form: { intent: "save-about", citizenship: "(subject)" } },
  "/my-consents": { who: "client", url: () => "/my-consents", form: { intent: "withdraw", kind: "use" } },
  "/my-consents/:kind": { who: "client", url: () => "/my-consents/use", form: { decision: "refused", typedName: "", months: "12", sha256: "(subject)" } },
  // Unticked: stage e-mails off.
  "/my-tax-filing/:year": { who: "client", url: () => `/my-tax-filing/${YEAR}`, form: { intent: "stage-notices" } },
  "/my-tax-filing/:year/documents": { who: "client", url: () => `/my-tax-filing/${YEAR}/documents`, multipart: true },
  "/my-tax-filing/:year/messages": {
    who: "client",
    url: () => `/my-tax-filing/${YEAR}/messages`,
    form: { intent: "send", body: "(subject)" },
  },
  "/admin/clients/:clientId/:year/messages": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/messages`,
    form: { intent: "send", body: "(subject)" },
  },
  "/my-tax-filing/:year/signed-form": {
    who: "client",
    url: () => `/my-tax-filing/${YEAR}/signed-form`,
    form: { note: "(subject)" },
  },
  "/my-tax-filing/:year/fee": {
    who: "client",
    url: () => `/my-tax-filing/${YEAR}/fee`,
    form: { intent: "announce-payment", invoiceId: "(clientId)" },
  },
  "/my-tax-filing/:year/engagement": {
    who: "client",
    url: () => `/my-tax-filing/${YEAR}/engagement`,
    form: { intent: "decline", letterId: "(clientId)", reason: "(subject)" },
  },
  "/sign/:token": { who: "visitor", url: () => "/sign/made-up-token", form: { intent: "send-code" } },
  "/sign/:token/signed-form": { who: "visitor", url: () => "/sign/made-up-token/signed-form", form: { note: "(subject)" } },
  "/my-tax-filing/:year/requests": {
    who: "client",
    url: () => `/my-tax-filing/${YEAR}/requests`,
    form: { intent: "answer", requestId: "00000000-0000-4000-8000-000000000000", answer: "unavailable", note: "(subject)" },
  },
  "/admin/clients/:clientId/:year/requests": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/requests`,
    form: { intent: "add-item", title: "(subject)", detail: "", category: "other-documents" },
  },
  "/admin/clients/:clientId/:year": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}`,
    form: { intent: "add-note", body: "(subject)" },
  },
  "/admin/clients/:clientId/:year/notes": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/notes`,
    form: { intent: "add-note", body: "(subject)" },
  },
  "/admin/clients/:clientId/:year/taxpayer": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/taxpayer`,
    form: { intent: "reveal-ssn" },
  },
  "/admin/clients/:clientId/:year/residency": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/residency`,
    form: { intent: "save-facts", foreignAccounts: "20,000.00", filesJointly: "on" },
  },
  "/admin/clients/:clientId/:year/residency/history": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/residency/history`,
    form: { intent: "save-about", citizenship: "(subject)" },
  },
  "/admin/clients/:clientId/:year/return": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/return`,
    form: { intent: "id-check", signer: "taxpayer", documentType: "passport", issuingCountry: "IN", expiresOn: `${YEAR + 5}-01-31`, numberLast4: "4821", how: "in-person" },
  },
  "/admin/clients/:clientId/:year/documents": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/documents`,
    form: { intent: "unshare", documentIds: "(documentId)" },
  },
  "/admin/clients/:clientId/:year/workflow": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/workflow`,
    form: { intent: "save-workflow", clientId: "(clientId)", taxYear: String(YEAR), completed: "home", assigneeId: "" },
  },
  "/admin/dashboard": {
    who: "staff",
    url: () => "/admin/dashboard",
    form: { intent: "save-workflow", clientId: "(clientId)", completed: "home", assigneeId: "" },
  },
  "/admin/messages": {
    who: "staff",
    url: () => "/admin/messages",
    form: { intent: "mark-handled", messageId: "(messageId)" },
  },
  "/admin/team": {
    who: "staff",
    url: () => "/admin/team",
    form: { intent: "invite", fullName: "Cross Site", email: "(new)", role: "preparer" },
  },
  "/admin/notices": {
    who: "staff",
    url: () => "/admin/notices",
    form: { intent: "resend", id: "00000000-0000-4000-8000-000000000000" },
  },
  "/admin/payments": {
    who: "staff",
    url: () => "/admin/payments",
    form: { intent: "final-copies-gate", waitForPayment: "off" },
  },
  "/admin/engagement": { who: "staff", url: () => "/admin/engagement", form: { intent: "save-template", service: "1040-nr", body: "Dear {{client_name}}, {{fee}} (subject)" } },
  "/admin/season": { who: "staff", url: () => "/admin/season", form: { intent: "start", year: String(YEAR), filter: "paid", confirmed: "0" } },
  "/admin/clients/:clientId/:year/engagement": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/engagement`,
    form: { intent: "send-letter", service: "itin" },
  },
  "/admin/clients/:clientId/:year/fee": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/${YEAR}/fee`,
    form: { intent: "final-copies-override", release: "on", reason: "(subject)" },
  },
  "/admin/clients/:clientId/documents": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/documents`,
    form: { intent: "remove", documentIds: "(documentId)" },
  },
  "/admin/clients/:clientId/documents/upload": {
    who: "staff",
    url: (i) => `/admin/clients/${i.clientId}/documents/upload`,
    multipart: true,
  },
  "/admin/security/setup": { who: "staff", url: () => "/admin/security/setup", form: { code: "123456" } },
  "/admin/security/verify": { who: "staff", url: () => "/admin/security/verify", form: { code: "123456" } },
  "/api/auth/*": { who: "visitor", url: () => "/api/auth/callback/google", form: { code: "x", state: "y" } },
  // A made-up event with no signature (the form below is what a forger could send).
  "/api/stripe/webhook": { who: "visitor", url: () => "/api/stripe/webhook", form: { type: "checkout.session.completed", id: "evt_cross_site" } },
};

/**
 * The one address another site may POST to (app/server/http/origin-check.server.ts): Stripe's
 * webhook, where the signature is what admits an event, so a cross-site POST is refused there
 * with 400 instead of 403 (its `.data` address is origin-checked like any other).
 */
const SIGNED_INSTEAD_OF_ORIGIN: Record<string, number> = { "/api/stripe/webhook": 400 };

const CROSS_SITE_HEADERS: Array<{ label: string; headers: Record<string, string> }> = [
  { label: "Origin of another site", headers: { Origin: "https://evil.example" } },
  { label: "opaque Origin", headers: { Origin: "null" } },
  { label: "no Origin, Sec-Fetch-Site: cross-site", headers: { "Sec-Fetch-Site": "cross-site" } },
];

test("the cross-origin table covers every route module that exports an action", () => {
  const found = routesWithActions();
  expect(found).toContain("/contact");
  expect(found).toContain("/admin/clients/:clientId/documents/upload");
  expect(Object.keys(ACTIONS).sort()).toEqual(found);
});

test("a cross-origin POST to any action is refused (403; the unsigned Stripe webhook: 400) and changes nothing", async () => {
  test.setTimeout(180_000);
  const marker = `Cross-site ${randomUUID().slice(0, 8)}`;
  const newEmail = uniqueEmail("crosssite");
  // A message for the mark-handled attempt.
  await as("visitor").post("/contact", {
    form: {
      name: "Visitor",
      email: "visitor@example.com",
      phone: "",
      subject: marker,
      description: "A real question that staff will read.",
    },
  });
  const messages = await (await as("staff").get("/admin/messages")).text();
  const messageId =
    new RegExp(`id="message-([0-9a-f-]{36})-subject"[^>]*>${marker}<`).exec(messages)?.[1] ?? "";
  expect(messageId).not.toBe("");
  const outboxBefore = readOutbox(e2eDataDir).filter(
    (m) => m.to.includes(clientEmail) || m.to.includes(newEmail),
  ).length;

  const fill = (v: string) =>
    v
      .replace("(subject)", `${marker} sent cross-site`)
      .replace("(client)", clientEmail)
      .replace("(new)", newEmail)
      .replace("(clientId)", ids.clientId)
      .replace("(messageId)", messageId)
      .replace("(documentId)", ids.documentId);

  const refused: string[] = [];
  for (const [pattern, action] of Object.entries(ACTIONS)) {
    for (const variant of CROSS_SITE_HEADERS) {
      for (const suffix of ["", ".data"]) {
        const url = `${action.url(ids)}${suffix}`;
        const response = action.multipart
          ? await as(action.who).post(url, {
              headers: variant.headers,
              multipart: {
                category: "form-16",
                files: { name: "cross.pdf", mimeType: "application/pdf", buffer: PDF },
              },
              maxRedirects: 0,
            })
          : await as(action.who).post(url, {
              headers: variant.headers,
              form: Object.fromEntries(Object.entries(action.form ?? {}).map(([k, v]) => [k, fill(v)])),
              maxRedirects: 0,
            });
        const expected = (suffix === "" ? SIGNED_INSTEAD_OF_ORIGIN[pattern] : undefined) ?? 403;
        if (response.status() !== expected)
          refused.push(`${pattern}${suffix} with ${variant.label}: ${response.status()}`);
        expect(response.headers()["set-cookie"] ?? "").not.toContain("session_token=");
      }
    }
  }
  expect(refused).toEqual([]);

  // Nothing changed. The client is still signed in, was not signed in anew elsewhere, and got no e-mail.
  expect((await as("client").get("/dashboard", { maxRedirects: 0 })).status()).toBe(200);
  expect((await as("visitor").get("/dashboard", { maxRedirects: 0 })).status()).toBe(302);
  expect(
    readOutbox(e2eDataDir).filter((m) => m.to.includes(clientEmail) || m.to.includes(newEmail)).length,
  ).toBe(outboxBefore);
  // No contact message, no taxpayer record, no new account.
  const staffMessages = await (await as("staff").get("/admin/messages")).text();
  expect(staffMessages).not.toContain(`${marker} sent cross-site`);
  expect(await (await as("client").get("/my-tax-filing")).text()).not.toContain(marker);
  // No history saved, by the client or by staff.
  expect(await (await as("client").get("/my-residency")).text()).not.toContain(marker);
  // No message either way.
  expect(await (await as("client").get(`/my-tax-filing/${YEAR}/messages`)).text()).not.toContain(marker);
  expect(await (await as("staff").get(`/admin/clients/${ids.clientId}/${YEAR}/messages`)).text()).not.toContain(marker);
  // No note, no second tax year, no client upload, stage e-mails still on.
  expect(await (await as("staff").get(`/admin/clients/${ids.clientId}/${YEAR}`)).text()).not.toContain(marker);
  expect(await (await as("staff").get(`/admin/clients/${ids.clientId}/${YEAR}/return`)).text()).toContain("No identity check recorded.");
  expect((await as("client").get(`/my-tax-filing/${YEAR - 1}`, { maxRedirects: 0 })).status()).toBe(404);
  const filingPage = await (await as("client").get(`/my-tax-filing/${YEAR}`)).text();
  expect(filingPage).not.toContain("cross.pdf");
  expect(filingPage).toMatch(/<input[^>]*name="stageNotices"[^>]*checked/);
  expect(
    await (await as("staff").get(`/admin/clients.csv?q=${encodeURIComponent(newEmail)}`)).text(),
  ).not.toContain(newEmail);
  // The message is still new, the workflow untouched, the document still there and the only one.
  expect(new RegExp(`${marker}</h2>\\s*<span[^>]*>(?:(?!</span>).)*New`, "s").test(staffMessages)).toBe(true);
  const csv = await (await as("staff").get(`/admin/clients.csv?q=${encodeURIComponent(clientEmail)}`)).text();
  const row = csv.split("\r\n").find((line) => line.includes(clientEmail)) ?? "";
  expect(row).not.toContain("Completed");
  expect(row).toMatch(/,"1",/);
  expect((await as("staff").get(`/documents/${ids.documentId}`)).status()).toBe(200);

  // The same requests from this site do change things: the checks above can see a change.
  const sameSite = await as("staff").post("/admin/messages", { form: { intent: "mark-handled", messageId } });
  expect(sameSite.status()).toBe(200);
  expect(await (await as("staff").get("/admin/messages")).text()).toMatch(
    new RegExp(`${marker}</h2>\\s*<span[^>]*>(?:(?!</span>).)*Handled`, "s"),
  );
  const saved = await as("staff").post("/admin/dashboard", {
    form: { intent: "save-workflow", clientId: ids.clientId, completed: "home", assigneeId: "" },
  });
  expect(saved.status()).toBe(200);
  expect(
    await (await as("staff").get(`/admin/clients.csv?q=${encodeURIComponent(clientEmail)}`)).text(),
  ).toContain("Completed");
});

test("a cross-origin code on the staff code page is refused and the session still needs its code", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/admin\/security\/verify/);
  const response = await context.request.post("/admin/security/verify", {
    headers: { Origin: "https://evil.example" },
    form: { code: await freshStaffCode(), redirectTo: "/admin/dashboard" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  const dashboard = await context.request.get("/admin/dashboard", { maxRedirects: 0 });
  expect(dashboard.headers()["location"]).toMatch(/^\/admin\/security\/verify/);
  await context.close();
});

test("a staff session that has not given its code gets no client data from any route: pages, .data requests and actions", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/admin\/security\/verify/);
  const waiting = context.request;
  // What the client's pages and files hold; none of it may reach this session.
  const markers = [clientEmail, "Hardening Client", "hardening.pdf", "%PDF-1.4"];
  const leaks: string[] = [];
  const notSentToCode: string[] = [];
  const check = async (label: string, response: APIResponse, staffOnly: boolean) => {
    const body = await response.text();
    for (const marker of markers) if (body.includes(marker)) leaks.push(`${label}: ${marker}`);
    const location = response.headers()["location"] ?? response.headers()["x-remix-redirect"] ?? "";
    const sentToCode = /^\/admin\/security\/verify\?redirectTo=/.test(location) || /\/admin\/security\/verify/.test(body);
    if (staffOnly && !sentToCode) notSentToCode.push(`${label}: ${response.status()} ${location}`);
  };
  for (const [pattern, route] of Object.entries(ROUTES)) {
    const url = route.url(ids);
    const staffOnly =
      route.signedIn &&
      !pattern.startsWith("/admin/security/") &&
      !["/reset-password", "/api/auth/*", "/admin"].includes(pattern) &&
      // PAY SECURELY NOW's address holds nothing: it sends staff on to their home (/admin/dashboard,
      // which asks for the code), a client to their fee, a visitor to sign in (routes/marketing/pay.ts).
      pattern !== "/pay" &&
      // The spouse's signing pages are open to whoever holds the e-mailed link, with no account.
      !pattern.startsWith("/sign/");
    // The upload address has no page: a GET (or its .data request) is answered 405 with nothing in it.
    const pageStaffOnly = staffOnly && !pattern.endsWith("/upload");
    await check(`GET ${url}`, await waiting.get(url, { maxRedirects: 0 }), pageStaffOnly);
    const [pathname, search = ""] = url.split("?");
    const dataUrl = `${pathname === "/" ? "/_root" : pathname}.data${search ? `?${search}` : ""}`;
    await check(`GET ${dataUrl}`, await waiting.get(dataUrl, { maxRedirects: 0 }), pageStaffOnly);
    const action = ACTIONS[pattern];
    // Signing in, up or out and resetting a password are open to anyone, and would swap the session under test.
    if (!action || ["/login", "/signup", "/logout", "/reset-password"].includes(pattern)) continue;
    for (const suffix of ["", ".data"]) {
      const target = `${action.url(ids)}${suffix}`;
      const response = action.multipart
        ? await waiting.post(target, {
            multipart: { category: "form-16", files: { name: "planted.pdf", mimeType: "application/pdf", buffer: PDF } },
            maxRedirects: 0,
          })
        : await waiting.post(target, {
            form: Object.fromEntries(
              Object.entries(action.form ?? {}).map(([k, v]) => [
                k,
                v.replace("(clientId)", ids.clientId).replace("(documentId)", ids.documentId),
              ]),
            ),
            maxRedirects: 0,
          });
      await check(`POST ${target}`, response, staffOnly);
    }
  }
  expect(leaks).toEqual([]);
  expect(notSentToCode).toEqual([]);
  // Nothing changed: the client's document is still there, its workflow untouched.
  expect((await as("staff").get(`/documents/${ids.documentId}`)).status()).toBe(200);
  const listing = await (await as("staff").get(`/admin/clients/${ids.clientId}/documents`)).text();
  expect(listing).toContain("hardening.pdf");
  expect(listing).not.toContain("planted.pdf");
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// Hostile text shown back

const SCRIPT = "<script>window.__pwned=1</script>";
const IMG = `"><img src=x onerror=window.__pwned=1>`;

/** The page shows `text` as text: no element was made from it and nothing ran. */
async function expectShownAsText(page: Page, text: string) {
  await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
}

test("markup sent through the contact form shows as text in the staff messages", async () => {
  const page = await visitorContext.newPage();
  const subject = `${IMG} ${randomUUID().slice(0, 6)}`;
  await page.goto("/contact");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.locator('form [name="name"]').fill(SCRIPT);
  await page.locator('form [name="email"]').fill("hostile@example.com");
  await page.locator('form [name="subject"]').fill(subject);
  await page.locator('form [name="description"]').fill(`${SCRIPT} and ${IMG} in the message body.`);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message Sent!")).toBeVisible();
  await page.close();

  await staffPage.goto("/admin/messages");
  await expect(staffPage.getByRole("heading", { name: subject })).toBeVisible();
  await expectShownAsText(staffPage, subject);
  await expectShownAsText(staffPage, `${SCRIPT} and ${IMG} in the message body.`);
  await expect(staffPage.getByText(SCRIPT, { exact: true }).first()).toBeVisible();
});

test("markup in names shows as text: on a refused taxpayer form, on My Tax Filings and in the staff panel", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // Without JavaScript the refused form comes back from the server, values and all.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await clientContext.storageState(),
  });
  const bare = await noScript.newPage();
  await bare.goto("/dashboard");
  const box = (p: Page, name: string) => p.locator(`form [name="${name}"]`);
  await box(bare, "name_as_per_ssn").fill(SCRIPT);
  await box(bare, "last_name").fill(IMG);
  await box(bare, "ssn_tin").fill("12345");
  await bare.getByRole("button", { name: "Submit" }).click();
  await expect(bare.getByText("Enter the SSN or ITIN as NNN-NN-NNNN (9 digits)")).toBeVisible();
  await expect(box(bare, "name_as_per_ssn")).toHaveValue(SCRIPT);
  await expect(box(bare, "last_name")).toHaveValue(IMG);
  expect(await bare.locator('img[src="x"]').count()).toBe(0);
  await noScript.close();

  // The saved record, through the form as a client fills it.
  const page = clientPage;
  await page.goto("/dashboard");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await box(page, "name_as_per_ssn").fill(SCRIPT);
  await box(page, "last_name").fill(IMG);
  await box(page, "ssn_tin").pressSequentially("123456789");
  await box(page, "date_of_birth").fill("1990-04-12");
  await box(page, "occupation").fill(`Engineer ${SCRIPT}`);
  await box(page, "filing_status").selectOption("Single");
  await box(page, "first_entry_date_usa").fill("2016-08-20");
  await box(page, "visa_type").selectOption("H1-B");
  await box(page, "primary_contact").fill("212 555 0147");
  await box(page, "city").fill(`${IMG} City`);
  await box(page, "state").fill("NJ");
  await box(page, "zipcode").fill("07302");
  await box(page, "current_mailing_address").fill(`${SCRIPT} Street`);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("dialog", { name: "Success!" })).toBeVisible();
  await page.goto("/my-tax-filing");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expectShownAsText(page, `${SCRIPT} ${IMG}`);
  await page.reload();
  await expect(box(page, "name_as_per_ssn")).toHaveCount(0);
  await page.goto("/dashboard");
  await expect(box(page, "name_as_per_ssn")).toHaveValue(SCRIPT);
  await expect(box(page, "city")).toHaveValue(`${IMG} City`);

  // A client whose account name is markup, as staff see it.
  const email = uniqueEmail("markup");
  const name = `${IMG} ${SCRIPT}`.slice(0, 100);
  await createVerifiedUser(visitorContext.request, email, PASSWORD, name);
  await staffPage.goto(`/admin/dashboard?q=${encodeURIComponent(email)}`);
  await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
  // The name's cell also carries the case's badges (the engagement letter not sent yet): the name is its link.
  await expect(staffPage.getByRole("cell").getByRole("link", { name, exact: true })).toBeVisible();
  await expectShownAsText(staffPage, name);
  await staffPage.getByRole("link", { name: /^Manage \(0\)/ }).click();
  await expect(staffPage.getByRole("heading", { name: /Document Management/ }).first()).toBeVisible();
  await expectShownAsText(staffPage, name);
});
