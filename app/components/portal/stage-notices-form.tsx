import { Mail } from "lucide-react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import type { FilingPageResult } from "~/domain/portal";

/**
 * The stage e-mail setting: one check box and a Save button. A plain form post that works
 * without JavaScript; with it, the page stays where it is.
 */
export function StageNoticesForm({
  taxYear,
  on,
  postedResult,
}: {
  taxYear: number;
  on: boolean;
  /** The answer to a save posted without JavaScript (the page's action data). */
  postedResult?: FilingPageResult;
}) {
  const saver = useFetcher<FilingPageResult>();
  const saving = saver.state !== "idle";
  const answer = saver.state === "idle" ? (saver.data ?? postedResult) : undefined;
  return (
    <saver.Form method="post" action={`/my-tax-filing/${taxYear}`} className="space-y-3">
      <input type="hidden" name="intent" value="stage-notices" />
      <label className="flex min-h-11 cursor-pointer items-start gap-3">
        <input
          // A new answer from the server sets the box again to what is stored.
          key={String(on)}
          type="checkbox"
          name="stageNotices"
          defaultChecked={on}
          className="mt-1 size-5 shrink-0 accent-primary-600"
        />
        <span>
          <span className="block font-medium text-ink">E-mail me when this filing moves to a new stage</span>
          <span className="block text-sm text-ink-muted">
            One setting for all your filings. The e-mail holds a link to the filing, never your tax details.
          </span>
        </span>
      </label>
      <Button type="submit" variant="secondary" disabled={saving} busy={saving} className="min-h-11">
        {saving ? null : <Mail className="size-4" aria-hidden="true" />}
        {saving ? "Saving..." : "Save e-mail setting"}
      </Button>
      <div aria-live="polite" className="empty:hidden">
        {answer && answer.intent === "stage-notices" ? (
          <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert>
        ) : null}
      </div>
    </saver.Form>
  );
}
