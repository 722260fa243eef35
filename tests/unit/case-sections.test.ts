import { describe, expect, it } from "vitest";
import { caseHref, staffReturn } from "~/domain/admin-links";
import { CASE_SECTIONS, caseSectionOfPath, caseSectionPath, staffNextStep } from "~/domain/case-sections";
import { clientNextStep } from "~/domain/portal";
import type { FilingPageData } from "~/domain/portal";
import { STAFF_ROUTES } from "~/domain/policy";

describe("the case's sections", () => {
  it("has one address per section under the case's own, each named in the staff policy", () => {
    expect(CASE_SECTIONS.map((s) => s.label)).toEqual([
      "Overview",
      "Taxpayer information",
      "Residency",
      "Documents",
      "Requests",
      "Messages",
      "Workflow",
      "Return",
      "Fee",
      "Engagement",
      "Notes & activity",
    ]);
    expect(caseSectionPath("a b", 2024)).toBe("/admin/clients/a%20b/2024");
    expect(caseSectionPath("c1", 2024, "notes")).toBe("/admin/clients/c1/2024/notes");
    for (const s of CASE_SECTIONS) {
      const pattern = `/admin/clients/:clientId/:year${s.path ? `/${s.path}` : ""}`;
      expect(STAFF_ROUTES[pattern], pattern).toBe("cases");
      expect(caseSectionOfPath(caseSectionPath("c1", 2024, s.key))).toBe(s.key);
    }
    expect(caseSectionOfPath("/admin/clients/c1/2024/WORKFLOW/")).toBe("workflow");
    expect(caseSectionOfPath("/admin/clients/c1/2024/fee")).toBe("fee");
    expect(caseSectionOfPath("/admin/clients/c1/2024/invoices")).toBeNull();
    expect(caseSectionOfPath("/admin/clients/c1/documents")).toBeNull();
  });

  it("keeps the list to return to on every section's link, and the documents modal returns to a section", () => {
    const back = "/admin/dashboard?q=alice";
    expect(caseHref("c1", 2024, back, "workflow")).toBe(`/admin/clients/c1/2024/workflow?back=${encodeURIComponent(back)}`);
    expect(caseHref("c1", 2024)).toBe("/admin/clients/c1/2024");
    expect(staffReturn("/admin/clients/c1/2024/documents?back=x")).toBe("/admin/clients/c1/2024/documents?back=x");
    expect(staffReturn("/admin/clients/c1/2024/nowhere")).toBe("/admin/dashboard");
    expect(staffReturn("/admin/clients/c1/2024/documents/../../audit")).toBe("/admin/dashboard");
  });
});

describe("the staff's next step", () => {
  const calm = { stage: "preparation", complete: false, clientWaiting: false, requestsToReview: 0, newDocuments: 0, taxpayerSent: true } as const;
  it("puts a waiting client first, then answers to review, new uploads, missing information, the stage's work", () => {
    expect(staffNextStep({ ...calm, clientWaiting: true, requestsToReview: 2 }).section).toBe("messages");
    expect(staffNextStep({ ...calm, requestsToReview: 2, newDocuments: 1 })).toEqual({
      text: "Review the client's answers to 2 requested items.",
      section: "requests",
    });
    expect(staffNextStep({ ...calm, newDocuments: 3, taxpayerSent: false }).section).toBe("documents");
    expect(staffNextStep({ ...calm, stage: "home", taxpayerSent: false }).section).toBe("taxpayer");
    expect(staffNextStep(calm)).toEqual({
      text: "Work on PREPARATION, then mark it completed in the workflow.",
      section: "workflow",
    });
    expect(staffNextStep({ ...calm, complete: true }).text).toBe("Nothing to do: every stage of this case is complete.");
  });
});

describe("the client's next step", () => {
  const paths = { taxpayerForm: "/dashboard?year=2024", messages: "/my-tax-filing/2024/messages" };
  const doc = (mine: boolean) => ({ id: "d", category: "w-2" as const, name: "w2.pdf", size: 1, uploadedAt: "", mine, accepted: false, waitsForFee: false });
  const filing: Pick<FilingPageData, "taxYear" | "stage" | "infoSent" | "documentsOpen" | "documents" | "requests"> = {
    taxYear: 2024,
    stage: "documents",
    infoSent: true,
    documentsOpen: true,
    documents: [doc(true)],
    requests: [],
  };
  const item = (state: FilingPageData["requests"][number]["state"]) =>
    ({ state }) as unknown as FilingPageData["requests"][number];

  it("asks for the taxpayer information first, then the items still needed, then unread messages", () => {
    expect(clientNextStep({ ...filing, infoSent: false, requests: [item("requested")] }, 2, paths)).toMatchObject({
      title: "Send us your taxpayer information",
      action: { label: "Open the 2024 taxpayer form", to: "/dashboard?year=2024" },
    });
    expect(clientNextStep({ ...filing, requests: [item("requested"), item("returned"), item("received")] }, 2, paths)).toMatchObject({
      title: "Send us the 2 items we still need",
      action: { to: "#requests" },
    });
    expect(clientNextStep(filing, 1, paths)).toMatchObject({ title: "Read our message", action: { to: paths.messages } });
  });

  it("then the firm's documents once closed, the client's own uploads while open, else nothing", () => {
    expect(clientNextStep({ ...filing, documentsOpen: false, documents: [doc(false)] }, 0, paths).title).toBe(
      "Download the documents we shared with you",
    );
    expect(clientNextStep({ ...filing, documents: [] }, 0, paths).title).toBe("Upload your documents");
    expect(clientNextStep(filing, 0, paths)).toEqual({
      title: "Nothing to do for now",
      text: "We are working on your filing, and we will e-mail you when we need something from you.",
      action: null,
    });
  });

  it("never asks for what belongs to a stage the filing has passed", () => {
    // Documents left open by staff, none uploaded, no information sent: at E-FILING none of it is asked for.
    const filed = { ...filing, stage: "efiling" as const, infoSent: false, documents: [] };
    expect(clientNextStep(filed, 0, paths)).toEqual({
      title: "Nothing to do for now",
      text: "We are working on your filing, and we will e-mail you when we need something from you.",
      action: null,
    });
    expect(clientNextStep({ ...filed, stage: "preparation" }, 0, paths).title).toBe("Send us your taxpayer information");
    expect(clientNextStep({ ...filed, stage: "draft", infoSent: true }, 0, paths).title).toBe("Nothing to do for now");
    expect(clientNextStep({ ...filed, stage: "preparation", infoSent: true }, 0, paths).title).toBe("Nothing to do for now");
    expect(clientNextStep({ ...filed, stage: "documents", infoSent: true }, 0, paths).title).toBe("Upload your documents");
    // What staff asked for, and their messages, stay next steps at any stage.
    expect(clientNextStep({ ...filed, requests: [item("requested")] }, 0, paths).title).toBe("Send us the item we still need");
    expect(clientNextStep(filed, 1, paths).title).toBe("Read our message");
  });
});
