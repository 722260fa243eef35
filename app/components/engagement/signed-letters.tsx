import { FileSignature } from "lucide-react";
import { LocalTime } from "~/components/ui/local-time";
import type { SignedLetter } from "~/domain/engagement";

/**
 * The case's signed engagement letters among its documents (client's and staff's): a document of
 * the case made from the kept records (docs/product/engagement.md), one link each to its PDF.
 */
export function SignedLetters({ letters, hrefOf }: { letters: readonly SignedLetter[]; hrefOf: (id: string) => string }) {
  if (letters.length === 0) return null;
  return (
    <ul aria-label="Signed engagement letters" className="mb-4 space-y-2">
      {letters.map((letter) => (
        <li key={letter.id} className="flex items-start gap-2 rounded-lg border border-line bg-surface px-4 py-3 text-sm">
          <FileSignature className="mt-0.5 size-4 shrink-0 text-primary-700" aria-hidden="true" />
          <span>
            <a href={hrefOf(letter.id)} className="font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
              Signed engagement letter (PDF)
            </a>
            <span className="text-ink-soft">
              {", accepted "}
              <LocalTime iso={letter.at} format="date" />
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
