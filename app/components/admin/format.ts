import { formatUsDate } from "~/domain/taxpayer";

/**
 * "May 3, 2025, 2:05 PM UTC". Date and time are both read in UTC (as formatUsDate does), so the
 * server's and the browser's render match and the day never disagrees with the time.
 */
export function formatUsDateTime(value: string | null | undefined): string {
  if (!value) return "N/A";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "N/A";
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  return `${formatUsDate(value)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"} UTC`;
}

/** "1 client", "1,260 clients": a count with its noun. */
export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
