import { DrizzleQueryError } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, expect, it, vi } from "vitest";
import { ErrorBoundary } from "~/root";

afterEach(() => {
  vi.restoreAllMocks();
});

it("the error page logs the error's codes and query, never its message or the address asked for", () => {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation(
    (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
  );
  const cause = Object.assign(new Error("terminating connection"), { code: "57P01" });
  const error = new DrizzleQueryError(
    `select "ssn_tin" from "taxpayer_records" where "user_id" = $1`,
    ["219-09-9999"],
    cause,
  );
  const router = createMemoryRouter(
    [{ id: "root", path: "/dashboard", element: createElement(ErrorBoundary, { error } as never) }],
    {
      initialEntries: ["/dashboard?email=ana%40example.com"],
    },
  );
  const html = renderToString(createElement(RouterProvider, { router }));
  expect(html).toContain("Something went wrong");
  expect(html).not.toContain("219-09-9999");
  expect(lines).toEqual([
    '[page] the error page was shown (code 57P01, query select from "taxpayer_records")',
  ]);
});
