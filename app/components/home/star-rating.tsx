import { Star } from "lucide-react";

/** Rounds to the nearest half step between 0 and 5. */
function toHalfStep(rating: number): number {
  return Math.min(5, Math.max(0, Math.round(rating * 2) / 2));
}

/** Five stars with half stars, read out as "Rated 4.5 out of 5". */
export function StarRating({ rating }: { rating: number }) {
  const value = toHalfStep(rating);
  const label = `Rated ${value} out of 5`;
  return (
    <div className="flex items-center gap-2">
      <span role="img" aria-label={label} className="flex gap-0.5">
        {[0, 1, 2, 3, 4].map((star) => {
          const fill = Math.min(1, Math.max(0, value - star));
          return (
            <span key={star} className="relative inline-block size-5">
              <Star
                className="absolute inset-0 size-5 text-accent-700"
                strokeWidth={1.5}
                aria-hidden="true"
              />
              {fill > 0 ? (
                <span
                  className="absolute inset-y-0 left-0 overflow-hidden"
                  style={{ width: `${fill * 100}%` }}
                >
                  <Star
                    className="size-5 fill-accent-500 text-accent-700"
                    strokeWidth={1.5}
                    aria-hidden="true"
                  />
                </span>
              ) : null}
            </span>
          );
        })}
      </span>
      <span className="text-sm font-semibold text-ink-soft" aria-hidden="true">
        {value.toFixed(1)}
      </span>
    </div>
  );
}
