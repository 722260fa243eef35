import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// The route table mirrors the product specification's (section 2).
export default [
  index("routes/marketing/home.tsx"),
  route("about", "routes/marketing/about.tsx"),
  route("services", "routes/marketing/services.tsx"),
  route("pricing", "routes/marketing/pricing.tsx"),
  route("contact", "routes/marketing/contact.tsx"),
  route("privacy", "routes/marketing/privacy.tsx"),
  route("terms", "routes/marketing/terms.tsx"),
  route("services/itin-processing", "routes/marketing/service-itin-processing.tsx"),
  route("services/fbar-filing", "routes/marketing/service-fbar-filing.tsx"),
  route("services/1040-returns", "routes/marketing/service-1040-returns.tsx"),
  route("services/w4-assistance", "routes/marketing/service-w4-assistance.tsx"),
  route("services/form-4868-extension", "routes/marketing/service-form-4868-extension.tsx"),
  route("services/professional-tax-planning", "routes/marketing/service-professional-tax-planning.tsx"),
  route("tools/residency-calculator", "routes/tools/residency-calculator.tsx"),

  route("login", "routes/auth/login.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("auth/callback", "routes/auth/auth-callback.tsx"),
  route("logout", "routes/auth/logout.tsx"),

  layout("routes/portal/layout.tsx", [
    route("dashboard", "routes/portal/dashboard.tsx"),
    route("my-tax-filing", "routes/portal/my-tax-filing.tsx"),
  ]),
  route("my-tax-filings", "routes/portal/my-tax-filings-redirect.tsx"),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/index-redirect.tsx"),
    route("dashboard", "routes/admin/dashboard.tsx"),
    route("messages", "routes/admin/messages.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("clients/:clientId/documents", "routes/admin/client-documents.tsx"),
  ]),
  route("admin/security/setup", "routes/admin-security/setup.tsx"),
  route("admin/security/verify", "routes/admin-security/verify.tsx"),
  route("admin/clients/:clientId/documents/upload", "routes/admin/document-upload.ts"),
  route("documents/:documentId", "routes/api/document-download.ts"),
  route("admin/clients.csv", "routes/admin/clients-csv.ts"),

  route("api/auth/*", "routes/api/auth.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
