import { vi } from "vitest";

/**
 * Runs `act` as if it were the moment `iso`, then gives the clock back: only this process's
 * Date moves (timers run as they do, and the database keeps its own clock).
 */
export async function atMoment<T>(iso: string, act: () => T | Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(new Date(iso));
    return await act();
  } finally {
    vi.useRealTimers();
  }
}
