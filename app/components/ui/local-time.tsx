import { useHydrated } from "~/components/hooks";

/** What the time shows: the day, or the day and the time of day. */
export type LocalTimeFormat = "date" | "datetime";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/**
 * The same moment in UTC, marked as UTC: what the server renders (it cannot know the reader's
 * time zone) and what hydration expects, e.g. "Nov 3, 2026, 2:05 PM UTC" or "Nov 3, 2026 (UTC)".
 */
export function utcText(date: Date, format: LocalTimeFormat): string {
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  if (format === "date") return `${day} (UTC)`;
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  return `${day}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"} UTC`;
}

// Built once per format, in the browser: a formatter is costly to build, and it takes the
// browser's own time zone.
const formatters = new Map<LocalTimeFormat, Intl.DateTimeFormat>();

function localFormatter(format: LocalTimeFormat): Intl.DateTimeFormat {
  let formatter = formatters.get(format);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(
      "en-US",
      format === "date"
        ? { year: "numeric", month: "short", day: "numeric" }
        : {
            year: "numeric",
            month: "short",
            day: "numeric",
            hour: "numeric",
            minute: "2-digit",
            timeZoneName: "short",
          },
    );
    formatters.set(format, formatter);
  }
  return formatter;
}

/** The moment in the reader's time zone, e.g. "Nov 3, 2026, 9:05 AM EST". */
export function localText(date: Date, format: LocalTimeFormat): string {
  return localFormatter(format).format(date);
}

/**
 * A moment (ISO timestamp) shown in the reader's time zone. The server's HTML and the first
 * render in the browser show it in UTC, marked as such, so hydration matches; once React runs in
 * the browser the text is replaced by the local time. The <time> element keeps the exact
 * moment for machines, and the title gives the UTC time on hover.
 */
export function LocalTime({
  iso,
  format = "datetime",
  className,
}: {
  iso: string;
  format?: LocalTimeFormat;
  className?: string;
}) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span className={className}>N/A</span>;
  const utc = utcText(date, format);
  return (
    <time dateTime={iso} title={utc} className={className}>
      {hydrated ? localText(date, format) : utc}
    </time>
  );
}
