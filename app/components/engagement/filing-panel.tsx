import { FileSignature } from "lucide-react";
import { Link } from "react-router";
import { FilingPanel } from "~/components/portal/filing-panel";
import { LocalTime } from "~/components/ui/local-time";

/** Where the year's engagement letter stands, as the filing page shows it (null: none sent yet). */
export type FilingLetter = { state: "sent" | "accepted" | "declined"; at: string } | null;

/** The filing page's engagement letter: waiting to be read and accepted, accepted, or declined; a link to it. */
export function EngagementPanel({ taxYear, letter }: { taxYear: number; letter: FilingLetter }) {
  if (!letter) return null;
  const href = `/my-tax-filing/${taxYear}/engagement`;
  return (
    <FilingPanel id="engagement-title" anchor="engagement" title={`Your ${taxYear} engagement letter`} icon={<FileSignature className="size-5" aria-hidden="true" />}>
      <div className="space-y-3 text-ink">
        {letter.state === "sent" ? (
          <p>We have sent you our engagement letter: what we will do, for what fee, and what we need from you. Please read it and accept it, or tell us why you decline it.</p>
        ) : letter.state === "accepted" ? (
          <p>
            {"You accepted the engagement letter on "}
            <LocalTime iso={letter.at} format="date" />.
          </p>
        ) : (
          <p>You declined the engagement letter. Your preparer will be in touch about it.</p>
        )}
        <Link to={href} className="inline-block font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
          {letter.state === "sent" ? "Read and answer the letter" : "See the letter"}
        </Link>
      </div>
    </FilingPanel>
  );
}
