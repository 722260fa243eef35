import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { publicPages } from "./content/public-routes";

// The product's routes: the public pages (docs/product/public-site.md#pages), the client portal,
// the staff panel and the few endpoints below.
export default [
  // The public pages (app/content/public-routes.ts, the one list of them).
  ...publicPages.map((page) =>
    page.path === "/" ? index(page.file) : route(page.path.slice(1), page.file, { id: page.id }),
  ),

  route("login", "routes/auth/login.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("auth/callback", "routes/auth/auth-callback.tsx"),
  route("logout", "routes/auth/logout.tsx"),

  // Signed-in routes are protected by where they are placed: the portal layout admits a signed-in
  // user (staff only after their second factor), /admin a staff member, and the admin panel's
  // layout only staff whose session has passed the second factor (docs/decisions/0014).
  layout("routes/portal/layout.tsx", [
    route("dashboard", "routes/portal/taxpayer-information.tsx"),
    route("my-tax-filing", "routes/portal/my-tax-filing.tsx"),
    // The client's visa and travel history, which decides their residency each year (docs/product/residency.md).
    route("my-residency", "routes/portal/residency.tsx"),
    // The client's consents under section 7216: the list (with Withdraw), and each consent's own page.
    route("my-consents", "routes/portal/my-consents.tsx"),
    route("my-consents/:kind", "routes/portal/my-consent.tsx"),
    // One tax year's filing: where it stands, its documents both ways, the client's uploads.
    route("my-tax-filing/:year", "routes/portal/filing.tsx"),
    route("my-tax-filing/:year/documents", "routes/portal/filing-documents.ts"),
    // The client's answers to the year's requested items ("doesn't apply", "can't get it").
    route("my-tax-filing/:year/requests", "routes/portal/filing-requests.tsx"),
    // The year's conversation with the firm: messages both ways, with files.
    route("my-tax-filing/:year/messages", "routes/portal/filing-messages.tsx"),
    // The client's current draft return (its PDF), and the e-file authorisation waiting for their signature.
    route("my-tax-filing/:year/return/:versionId", "routes/portal/filing-return-file.ts"),
    route("my-tax-filing/:year/signing-form", "routes/portal/filing-signing-form.ts"),
    // The client's hand-signed form (a file of up to 20 MB: an address of its own).
    route("my-tax-filing/:year/signed-form", "routes/portal/filing-signed-form.ts"),
    // The year's fee: pay by card (to Stripe's page), "I have sent the payment"; the invoice and receipt PDFs.
    route("my-tax-filing/:year/fee", "routes/portal/filing-fee.ts"),
    // The year's engagement letter: read it, accept it or decline it; the signed letter's PDF.
    route("my-tax-filing/:year/engagement", "routes/portal/filing-engagement.tsx"),
    route("my-tax-filing/:year/engagement/:letterId/pdf", "routes/portal/filing-engagement-pdf.ts"),
    route("my-tax-filing/:year/invoices/:invoiceId/:file", "routes/portal/filing-invoice-file.ts"),
    // A document's file, for the client it belongs to or for staff.
    route("documents/:documentId", "routes/portal/document-download.ts"),
  ]),
  route("my-tax-filings", "routes/portal/my-tax-filings-redirect.tsx"),
  // The payment offer's button: the signed-in client's open fee, or sign in first.
  route("pay", "routes/marketing/pay.ts"),
  // The spouse's signing page, reached with the link e-mailed to them: public, no account, the
  // link's token is the key (never logged: log.ts routeOf shows the path as /sign/:value).
  route("sign/:token", "routes/sign/sign.tsx"),
  route("sign/:token/form", "routes/sign/sign-form-file.ts"),
  route("sign/:token/signed-form", "routes/sign/sign-signed-form.ts"),
  route("admin", "routes/admin/staff.tsx", [
    route("security/setup", "routes/admin/security/setup.tsx"),
    route("security/verify", "routes/admin/security/verify.tsx"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/index-redirect.tsx"),
      route("dashboard", "routes/admin/dashboard.tsx"),
      route("messages", "routes/admin/messages.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      // Admins only (domain/policy.ts): invite, list and deactivate staff.
      route("team", "routes/admin/team.tsx"),
      // Admins only: the e-mails that could not be sent, and "Send again".
      route("notices", "routes/admin/notices.tsx"),
      // Admins only: outstanding invoices by age, the month's payments, the CSV for the books.
      route("payments", "routes/admin/payments.tsx"),
      route("payments.csv", "routes/admin/payments-csv.ts"),
      // Admins only: the engagement letter's template per service, and whether drafts wait for it.
      route("engagement", "routes/admin/engagement.tsx"),
      route("season", "routes/admin/season.tsx"),
      route("clients/:clientId/documents", "routes/admin/client-documents.tsx"),
      // A client's case of one tax year: a frame (the client, the years, the section navigation)
      // and a section per address, each loading only its own data. The sections' order and names
      // are in domain/case-sections.ts; each pattern is in domain/policy.ts STAFF_ROUTES.
      route("clients/:clientId/:year", "routes/admin/case.tsx", [
        // The next step, the key facts and the latest activity.
        index("routes/admin/case/overview.tsx"),
        route("taxpayer", "routes/admin/case/taxpayer.tsx"),
        // The household's residency for the year: the table, staff's findings and confirmation, the history.
        route("residency", "routes/admin/case/residency.tsx"),
        // Staff edit the client's visa and travel history, as the client does at /my-residency.
        route("residency/history", "routes/admin/case/residency-history.tsx"),
        route("documents", "routes/admin/case/documents.tsx"),
        // The requested items, and staff's changes to them (templates, items, received, returned, removed).
        route("requests", "routes/admin/case-requests.tsx"),
        // The case's conversation with its client.
        route("messages", "routes/admin/case-messages.tsx"),
        route("workflow", "routes/admin/case/workflow.tsx"),
        // The return: versions, identity checks, the signature, e-file and final copies.
        route("return", "routes/admin/case/return.tsx"),
        // The fee: invoices, payments, refunds, and whether the final copies wait for payment.
        route("fee", "routes/admin/case/fee.tsx"),
        // The engagement letter: the current one and where it stands, earlier ones, "Send the letter".
        route("engagement", "routes/admin/case/engagement.tsx"),
        // Internal notes and the case's activity.
        route("notes", "routes/admin/case/notes.tsx"),
      ]),
      route("inbox", "routes/admin/inbox.tsx"),
      route("clients/:clientId/documents/upload", "routes/admin/document-upload.ts"),
      // One version of a case's draft return (the Return section's downloads).
      route("clients/:clientId/return-versions/:versionId", "routes/admin/return-version-file.ts"),
      // An invoice's PDF, or its receipt (the Fee section's links).
      route("clients/:clientId/invoices/:invoiceId/:file", "routes/admin/invoice-file.ts"),
      // A case's signed engagement letter (the Engagement section's link).
      route("clients/:clientId/engagement-letters/:letterId", "routes/admin/engagement-letter-file.ts"),
      route("clients.csv", "routes/admin/clients-csv.ts"),
    ]),
  ]),

  route("api/auth/*", "routes/api/auth.ts"),
  // Stripe's signed events: card and bank payments, refunds (exempt from the origin check).
  route("api/stripe/webhook", "routes/api/stripe-webhook.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
