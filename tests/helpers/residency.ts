import { blankPerson } from "~/domain/residency/forms";

// Histories as the residency page posts them (app/domain/residency/forms.ts), for the tests and the
// browser tests' seed.

/** One person: by default the client, from India, with no periods and no stays. */
export function personInput(over: Record<string, unknown> = {}) {
  return {
    ...blankPerson("client", "client", "Alice Aardvark", { citizenship: "India", taxResidence: "India", ficaWithheld: false, school: "State University" }),
    ...over,
  };
}

/** A person on `status` since August 10 of `since`, in the US ever since. */
export function sinceInput(status: string, since: number, over: Record<string, unknown> = {}) {
  return personInput({
    periods: [{ status, category: null, from: `${since}-08-10`, to: null }],
    stays: [{ arrival: `${since}-08-10`, departure: null, transit: false, source: "typed" }],
    ...over,
  });
}

/** The client alone: an F-1 student since August 10 of `since`, in the US ever since. */
export function studentInput(since: number, over: Record<string, unknown> = {}) {
  return sinceInput("F-1", since, over);
}

/**
 * The client alone, a resident for all of `y` by 183.33 days: an F-1 student from September 1
 * two years before to June 30 of the year before, then an H-1B worker; in the US from September 1
 * to December 31 two years before, from March 1 to December 31 the year before, from March 1 to
 * June 30 of `y`, and a day in transit in September. 122 + 184/3 + 0/6 = 183.33, met on June 30.
 */
export function residentHistory(y: number, name = "Alice Aardvark") {
  return {
    people: [
      personInput({
        name,
        periods: [
          { status: "F-1", category: null, from: `${y - 2}-09-01`, to: `${y - 1}-06-30` },
          { status: "H-1B", category: null, from: `${y - 1}-07-01`, to: null },
        ],
        stays: [
          { arrival: `${y - 2}-09-01`, departure: `${y - 2}-12-31`, transit: false, source: "typed" },
          { arrival: `${y - 1}-03-01`, departure: `${y - 1}-12-31`, transit: false, source: "i94" },
          { arrival: `${y}-03-01`, departure: `${y}-06-30`, transit: false, source: "typed" },
          { arrival: `${y}-09-10`, departure: `${y}-09-10`, transit: true, source: "typed" },
        ],
      }),
    ],
  };
}
