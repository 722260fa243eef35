import { LocalTime } from "~/components/ui/local-time";

/** What the pages read of a letter and its answer (the server's LetterView). */
export type LetterShown = {
  id: string;
  sha256: string;
  answer: { decision: "accepted" | "declined"; typedName: string | null; reason: string | null; at: string; ip: string | null; userAgent: string | null } | null;
};

/** A letter's text as written: its paragraphs, each line kept. */
export function LetterText({ text }: { text: string }) {
  return (
    <div className="mt-3 space-y-3 text-ink">
      {text.split(/\n{2,}/).map((paragraph, i) => (
        <p key={i} className="whitespace-pre-line break-words">
          {paragraph}
        </p>
      ))}
    </div>
  );
}

/** Where a letter stands: waiting, accepted (by whom, when, from where) or declined (why); `pdfHref` links the signed letter's PDF. */
export function EngagementRecord({ letter, replaced = false, pdfHref }: { letter: LetterShown; replaced?: boolean; pdfHref?: string }) {
  const answer = letter.answer;
  if (!answer)
    return (
      <p className="rounded-xl bg-surface p-3 text-sm text-ink">
        {replaced ? "Replaced by a newer letter before it was answered." : "Waiting for the client to accept or decline it."}
      </p>
    );
  if (answer.decision === "declined")
    return (
      <div className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-ink">
        <p className="font-semibold">
          {"Declined on "}
          <LocalTime iso={answer.at} />
        </p>
        <p className="mt-1 whitespace-pre-line break-words">{`Reason: ${answer.reason ?? ""}`}</p>
      </div>
    );
  return (
    <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-ink">
      <p className="font-semibold">
        {`Accepted by ${answer.typedName ?? ""} on `}
        <LocalTime iso={answer.at} />
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="text-ink-muted">IP address</dt>
        <dd className="break-all">{answer.ip ?? "Not recorded"}</dd>
        <dt className="text-ink-muted">Browser</dt>
        <dd className="break-all">{answer.userAgent ?? "Not recorded"}</dd>
        <dt className="text-ink-muted">Letter SHA-256</dt>
        <dd className="break-all font-mono text-xs">{letter.sha256}</dd>
      </dl>
      {pdfHref ? (
        <p className="mt-2">
          <a href={pdfHref} className="font-semibold text-primary-700 underline-offset-4 hover:underline" download>
            Download the signed letter (PDF)
          </a>
        </p>
      ) : null}
    </div>
  );
}
