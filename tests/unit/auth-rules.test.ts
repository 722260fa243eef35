import { describe, expect, it } from "vitest";
import { AddClientForm, checkNewPassword, checkSignup, effectiveRole, homeFor, localPart, safeRedirect, SignupSchema, VISA_STATUSES } from "~/domain/auth";
import type { SignupValues } from "~/domain/auth";
import { isAllowedOrigin } from "~/server/http/origin-check.server";

const valid: SignupValues = {
  fullName: "Kenji Watanabe",
  email: "kenji@example.com",
  phone: "",
  visaStatus: "J-1",
  password: "sakura2025!",
  confirmPassword: "sakura2025!",
  acceptTerms: true,
};

const failure = (v: Partial<SignupValues>) => {
  const result = checkSignup({ ...valid, ...v });
  return result.ok ? null : result.message;
};

describe("sign-up checks (docs/product/accounts.md#sign-up, in order, first failure only)", () => {
  it("accepts a complete sign-up, phone optional, e-mail lower-cased", () => {
    expect(checkSignup({ ...valid, email: " Kenji@Example.com " })).toEqual({
      ok: true,
      data: { fullName: "Kenji Watanabe", email: "kenji@example.com", phone: null, visaStatus: "J-1", password: "sakura2025!" },
    });
  });

  it("reports each check's message", () => {
    expect(failure({ fullName: "  " })).toBe("Full name is required");
    expect(failure({ email: "" })).toBe("Email is required");
    expect(failure({ email: "kenji.example.com" })).toBe("Please enter a valid email");
    expect(failure({ visaStatus: "" })).toBe("Please select your visa status");
    expect(failure({ visaStatus: "H-4" })).toBe("Please select your visa status");
    expect(failure({ password: "", confirmPassword: "" })).toBe("Password is required");
    expect(failure({ password: "1234567", confirmPassword: "1234567" })).toBe("Password must be at least 8 characters");
    expect(failure({ password: "x".repeat(129), confirmPassword: "x".repeat(129) })).toBe("Password must be at most 128 characters");
    expect(failure({ confirmPassword: "sakura2025?" })).toBe("Passwords do not match");
    expect(failure({ acceptTerms: false })).toBe("You must accept the terms and conditions");
  });

  it("stops at the first failure in the documented order", () => {
    const everythingWrong: SignupValues = { fullName: "", email: "", phone: "", visaStatus: "", password: "", confirmPassword: "x", acceptTerms: false };
    const order: Array<[Partial<SignupValues>, string]> = [
      [{}, "Full name is required"],
      [{ fullName: "A" }, "Email is required"],
      [{ fullName: "A", email: "a" }, "Please enter a valid email"],
      [{ fullName: "A", email: "a@b.co" }, "Please select your visa status"],
      [{ fullName: "A", email: "a@b.co", visaStatus: "F-1" }, "Password is required"],
      [{ fullName: "A", email: "a@b.co", visaStatus: "F-1", password: "short" }, "Password must be at least 8 characters"],
      [{ fullName: "A", email: "a@b.co", visaStatus: "F-1", password: "long enough" }, "Passwords do not match"],
      [{ fullName: "A", email: "a@b.co", visaStatus: "F-1", password: "long enough", confirmPassword: "long enough" }, "You must accept the terms and conditions"],
    ];
    for (const [fix, message] of order) {
      const result = checkSignup({ ...everythingWrong, ...fix });
      expect(result.ok ? null : result.message).toBe(message);
    }
  });

  it("offers the seven visa statuses", () => {
    expect(VISA_STATUSES).toEqual(["F-1", "H-1B", "J-1", "L-1", "Green Card", "Non-Resident", "Other"]);
  });

  it("applies the same password rules to a reset", () => {
    expect(checkNewPassword("", "")).toEqual({ field: "password", message: "Password is required" });
    expect(checkNewPassword("abc", "abc")?.message).toBe("Password must be at least 8 characters");
    expect(checkNewPassword("abcdefgh", "abcdefgi")?.message).toBe("Passwords do not match");
    expect(checkNewPassword("abcdefgh", "abcdefgh")).toBeUndefined();
  });
});

describe("role rule", () => {
  const admin = "boss@taxbridge.example";
  it("takes the stored role as the truth", () => {
    expect(effectiveRole({ role: "admin", email: "a@x.com", emailVerified: false }, admin)).toBe("admin");
    expect(effectiveRole({ role: "user", email: "a@x.com", emailVerified: true }, admin)).toBe("user");
    expect(effectiveRole({ role: null, email: "a@x.com", emailVerified: true }, admin)).toBe("user");
    expect(effectiveRole({ role: "superuser", email: "a@x.com", emailVerified: true }, admin)).toBe("user");
  });
  it("makes ADMIN_EMAIL an admin only once verified, whatever its case", () => {
    expect(effectiveRole({ role: "user", email: "Boss@TaxBridge.example", emailVerified: true }, admin)).toBe("admin");
    expect(effectiveRole({ role: "user", email: admin, emailVerified: false }, admin)).toBe("user");
    expect(effectiveRole({ role: "user", email: admin, emailVerified: true }, undefined)).toBe("user");
  });
  it("sends admins to the panel and clients to the dashboard", () => {
    expect(homeFor("admin")).toBe("/admin/dashboard");
    expect(homeFor("user")).toBe("/dashboard");
  });
  it("shows the local part of the e-mail", () => {
    expect(localPart("priya.raman@example.com")).toBe("priya.raman");
  });
});

describe("return address after sign-in", () => {
  it("keeps same-origin paths and refuses everything else", () => {
    expect(safeRedirect("/my-tax-filing?x=1", "/dashboard")).toBe("/my-tax-filing?x=1");
    for (const bad of ["//evil.example", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "", null, "/a\nb"]) {
      expect(safeRedirect(bad, "/dashboard")).toBe("/dashboard");
    }
  });
});

describe("origin check on state-changing requests", () => {
  const base = { appUrl: "https://tax.example", host: "tax.example", secFetchSite: undefined };
  it("lets reads through and same-origin writes", () => {
    expect(isAllowedOrigin({ ...base, method: "GET", origin: "https://evil.example" })).toBe(true);
    expect(isAllowedOrigin({ ...base, method: "POST", origin: "https://tax.example" })).toBe(true);
    expect(isAllowedOrigin({ ...base, method: "POST", origin: "http://localhost:3000", host: "localhost:3000" })).toBe(true);
  });
  it("refuses cross-origin and opaque-origin writes", () => {
    expect(isAllowedOrigin({ ...base, method: "POST", origin: "https://evil.example" })).toBe(false);
    expect(isAllowedOrigin({ ...base, method: "DELETE", origin: "null" })).toBe(false);
    expect(isAllowedOrigin({ ...base, method: "POST", origin: undefined, secFetchSite: "cross-site" })).toBe(false);
    expect(isAllowedOrigin({ ...base, method: "POST", origin: "not a url" })).toBe(false);
  });
});

describe("the sign-up and Add New Client schemas", () => {
  const signup = { fullName: "Ravi Kumar", email: "ravi@example.com", phone: "12", visaStatus: "H-1B", password: "short", confirmPassword: "short", acceptTerms: "on" };

  it("answer as the rules do: sign-up checks its password before the phone", () => {
    const parsed = SignupSchema.safeParse(signup);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path[0], i.message])).toEqual([["password", "Password must be at least 8 characters"]]);
  });

  it("Add New Client takes the client details without passwords, its full name sent as name", () => {
    const added = AddClientForm.safeParse({ intent: "add-client", name: " Ravi Kumar ", email: "Ravi@Example.com", phone: "", visaStatus: "H-1B" });
    expect(added.data).toEqual({ intent: "add-client", fullName: "Ravi Kumar", email: "ravi@example.com", phone: null, visaStatus: "H-1B" });
    const unnamed = AddClientForm.safeParse({ intent: "add-client", name: "", email: "ravi@example.com", phone: "", visaStatus: "H-1B" });
    expect(unnamed.error?.issues.map((i) => [i.path[0], i.message])).toEqual([["name", "Full name is required"]]);
  });
});
