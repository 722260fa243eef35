import { History } from "lucide-react";
import { LocalTime } from "~/components/ui/local-time";
import type { ActivityEntry } from "~/domain/cases";
import { CaseSection } from "./case-section";

/** What happened on the case, newest first: who did what, in words, at the reader's local time. */
export function ActivitySection({ activity }: { activity: readonly ActivityEntry[] }) {
  return (
    <CaseSection
      id="activity"
      title="Activity"
      icon={<History className="size-5" aria-hidden="true" />}
      lead="Newest first, in your time zone. The full record is in the audit trail."
    >
      <ActivityList activity={activity} label="Activity, newest first" />
    </CaseSection>
  );
}

/** The entries of the case's activity, newest first (all of them, or the overview's latest few). */
export function ActivityList({ activity, label }: { activity: readonly ActivityEntry[]; label: string }) {
  if (activity.length === 0) return <p className="text-ink-soft">Nothing has happened on this case yet.</p>;
  return (
    <ol className="divide-y divide-line" aria-label={label}>
      {activity.map((entry) => (
        <li key={entry.id} className="grid gap-1 py-2.5 sm:grid-cols-[13.5rem_1fr] sm:gap-4">
          <LocalTime iso={entry.at} className="whitespace-nowrap text-sm text-ink-muted tabular-nums" />
          <p className="min-w-0 break-words text-ink">
            <span className="font-semibold">{entry.actor}</span>
            <span className="text-ink-muted"> · </span>
            {entry.text}
          </p>
        </li>
      ))}
    </ol>
  );
}
