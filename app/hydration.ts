/**
 * A route opts out of hydration with `export const handle = { hydrate: false }`: its page is
 * server-rendered HTML that loads neither React nor React Router, only the small enhancement
 * module (app/enhance). Public marketing pages do this; see docs/decisions/0008-zero-js-public-pages.md.
 */
export type HydrationHandle = { hydrate?: boolean };

export function optsOutOfHydration(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as HydrationHandle).hydrate === false;
}
