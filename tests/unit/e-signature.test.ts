import { describe, expect, it } from "vitest";
import {
  APPROVAL_TEXTS,
  APPROVAL_VERSION,
  approvalText,
  authorizationFormFor,
  CONSENT_TEXTS,
  CONSENT_VERSION,
  consentText,
  DECLARATION_TEXTS,
  DECLARATION_VERSION,
  declarationText,
  emancipationDayObserved,
  isReturnForm,
  namesMatch,
  RETURN_FORMS,
  returnDueDate,
  signatureRetainUntil,
} from "~/domain/e-signature";
import type { TextContext } from "~/domain/e-signature";

const context: TextContext = {
  firmName: "TaxBridge",
  firmEmail: "support@taxbridge.example",
  form: "8879",
  returnForm: "1040-NR",
  taxYear: 2025,
};

describe("the consent to sign electronically", () => {
  it("has a dated version, and its text is kept by version", () => {
    expect(CONSENT_VERSION).toMatch(/^esign-consent-\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(CONSENT_TEXTS)).toContain(CONSENT_VERSION);
    expect(Object.isFrozen(CONSENT_TEXTS)).toBe(true);
    expect(() => consentText("esign-consent-1999-01-01", context)).toThrow(RangeError);
  });

  it("says what the client agrees to, how to sign on paper, how to withdraw and what they need", () => {
    const text = consentText(CONSENT_VERSION, context);
    expect(text).toContain("You agree to sign Form 8879 for tax year 2025 electronically");
    expect(text).toContain("This consent covers only this form for this tax year.");
    expect(text).toContain("You do not have to sign electronically. To sign on paper, do not agree here.");
    expect(text).toContain("Send us a message in your portal, or write to support@taxbridge.example.");
    expect(text).toContain("You may withdraw your consent at any time before we send your return to the IRS");
    expect(text).toContain("a program that opens PDF files");
    expect(text).toContain("your 2025 tax return (Form 1040-NR)");
    expect(text).not.toMatch(/\{\w+\}/);
  });
});

describe("the signer's declaration", () => {
  it("follows Form 8879's Part II: examined, true, correct and complete, consent to send, PIN as signature", () => {
    const text = declarationText(DECLARATION_VERSION, context);
    expect(text).toContain("I have examined a copy of my 2025 income tax return (Form 1040-NR)");
    expect(text).toContain("true, correct and complete");
    expect(text).toContain("I consent to TaxBridge, as my electronic return originator (ERO), sending my return to the IRS");
    expect(text).toContain("I authorise TaxBridge to enter or generate my PIN");
    expect(text).not.toMatch(/\{\w+\}/);
  });

  it("has its own wording for Form 8878 (the extension)", () => {
    const text = declarationText(DECLARATION_VERSION, { ...context, form: "8878", returnForm: "4868" });
    expect(text).toContain("automatic extension of time to file (Form 4868) for tax year 2025");
    expect(text).toContain("sending my extension application to the IRS");
    expect(text).toContain("as my signature on my 2025 electronically filed extension application");
    expect(() => declarationText("nope", context)).toThrow(RangeError);
    expect(Object.isFrozen(DECLARATION_TEXTS[DECLARATION_VERSION])).toBe(true);
  });
});

describe("the approval of the draft return", () => {
  it("has its own version and says the client examined the draft and finds it true, correct and complete", () => {
    expect(APPROVAL_VERSION).not.toBe(CONSENT_VERSION);
    expect(Object.keys(APPROVAL_TEXTS)).toContain(APPROVAL_VERSION);
    const text = approvalText(APPROVAL_VERSION, context);
    expect(text).toContain("I have examined this draft of my 2025 tax return (Form 1040-NR)");
    expect(text).toContain("To the best of my knowledge and belief, it is true, correct and complete");
    expect(() => approvalText(CONSENT_VERSION, context)).toThrow(RangeError);
  });
});

describe("namesMatch", () => {
  it("ignores case, spaces, accents and punctuation", () => {
    expect(namesMatch("jose nunez", "José Núñez")).toBe(true);
    expect(namesMatch("  JOSÉ   NÚÑEZ ", "José Núñez")).toBe(true);
    expect(namesMatch("Mary-Jane OBrien", "Mary Jane O'Brien")).toBe(true);
    expect(namesMatch("Lukasz Strasse", "Łukasz Straße")).toBe(true);
    expect(namesMatch("Soren Aeroe", "Søren Ærøe")).toBe(true);
    expect(namesMatch("Rao, K. S.", "Rao K S")).toBe(true);
    expect(namesMatch("李小龍", "李 小龍")).toBe(true);
  });

  it("does not match another spelling, a missing name, another order or nothing", () => {
    expect(namesMatch("Jon Smith", "John Smith")).toBe(false);
    expect(namesMatch("John", "John Smith")).toBe(false);
    expect(namesMatch("Smith John", "John Smith")).toBe(false);
    expect(namesMatch("", "")).toBe(false);
    expect(namesMatch("...", "--")).toBe(false);
  });
});

describe("authorizationFormFor", () => {
  it("is Form 8879 for returns and Form 8878 for the extension", () => {
    for (const form of ["1040", "1040-SR", "1040-NR", "1040-X"] as const) expect(authorizationFormFor(form)).toBe("8879");
    expect(authorizationFormFor("4868")).toBe("8878");
  });

  it("covers every return the firm prepares, and no other", () => {
    expect(RETURN_FORMS.map((form) => [form, authorizationFormFor(form)])).toEqual([
      ["1040", "8879"],
      ["1040-NR", "8879"],
      ["1040-SR", "8879"],
      ["1040-X", "8879"],
      ["4868", "8878"],
    ]);
    expect(isReturnForm("1040-SS")).toBe(false);
  });
});

describe("returnDueDate", () => {
  it("is April 15 of the next year, moved over weekends and Emancipation Day", () => {
    // 2022: April 16 was a Saturday, so Emancipation Day was kept on Friday April 15.
    expect(returnDueDate(2021, "1040")).toBe("2022-04-18");
    // 2023: April 15 a Saturday; April 16 a Sunday, so Emancipation Day was kept on Monday April 17.
    expect(returnDueDate(2022, "1040")).toBe("2023-04-18");
    expect(returnDueDate(2023, "1040-NR")).toBe("2024-04-15");
    expect(returnDueDate(2024, "1040")).toBe("2025-04-15");
    expect(returnDueDate(2025, "1040")).toBe("2026-04-15");
    // 2027: April 15 is a Thursday and Emancipation Day a Friday: the 15th stands.
    expect(returnDueDate(2026, "1040")).toBe("2027-04-15");
    // 2028: April 15 a Saturday, and Emancipation Day (a Sunday) kept on Monday the 17th.
    expect(returnDueDate(2027, "1040")).toBe("2028-04-18");
    // 2018: April 15 a Sunday and Emancipation Day on Monday the 16th.
    expect(returnDueDate(2017, "1040")).toBe("2018-04-17");
    // 2020 (before the pandemic postponement): Wednesday April 15.
    expect(returnDueDate(2019, "1040")).toBe("2020-04-15");
  });

  it("is the same day for the extension and an amended return", () => {
    expect(returnDueDate(2021, "4868")).toBe("2022-04-18");
    expect(returnDueDate(2021, "1040-X")).toBe("2022-04-18");
  });

  it("is June 15 for a nonresident without wages, moved over weekends", () => {
    expect(returnDueDate(2024, "1040-NR", { nonresidentWithoutWages: true })).toBe("2025-06-16");
    expect(returnDueDate(2025, "1040-NR", { nonresidentWithoutWages: true })).toBe("2026-06-15");
    expect(returnDueDate(2025, "4868", { nonresidentWithoutWages: true })).toBe("2026-06-15");
    expect(returnDueDate(2025, "1040", { nonresidentWithoutWages: true })).toBe("2026-04-15");
  });

  it("refuses what is not a tax year", () => {
    expect(() => returnDueDate(2025.5, "1040")).toThrow(RangeError);
    expect(() => returnDueDate(Number.NaN, "1040")).toThrow(RangeError);
  });

  it("knows when Emancipation Day is kept", () => {
    expect(emancipationDayObserved(2022)).toBe("2022-04-15");
    expect(emancipationDayObserved(2023)).toBe("2023-04-17");
    expect(emancipationDayObserved(2026)).toBe("2026-04-16");
  });
});

describe("signatureRetainUntil", () => {
  it("keeps the signature 3 years after the due date, or after the filing when that is later", () => {
    expect(signatureRetainUntil("2026-04-15", "2026-03-01")).toBe("2029-04-15");
    expect(signatureRetainUntil("2026-04-15", "2026-10-02")).toBe("2029-10-02");
    // Filed at 23:30 in New York on October 2, which is already October 3 in UTC.
    expect(signatureRetainUntil("2026-04-15", new Date("2026-10-03T03:30:00Z"))).toBe("2029-10-02");
    expect(signatureRetainUntil("2026-04-15", new Date("2026-01-20T12:00:00Z"))).toBe("2029-04-15");
    // From February 29, three years later is March 1.
    expect(signatureRetainUntil("2027-04-15", "2028-02-29")).toBe("2031-03-01");
  });

  it("refuses what is not a calendar day", () => {
    expect(() => signatureRetainUntil("2026-02-30", "2026-03-01")).toThrow(RangeError);
    expect(() => signatureRetainUntil("2026-04-15", "15/04/2026")).toThrow(RangeError);
  });
});
