import type { Stat } from "~/content/home";

/** A row of figures: the value large, its label below. */
export function StatList({
  stats,
  tone = "light",
  className = "",
}: {
  stats: readonly Stat[];
  tone?: "light" | "dark";
  className?: string;
}) {
  const dark = tone === "dark";
  return (
    <dl className={`grid gap-4 ${className}`}>
      {stats.map((stat) => (
        <div
          key={stat.label}
          className={`flex flex-col-reverse items-center justify-center rounded-2xl px-4 py-6 text-center ${
            dark ? "bg-white/10" : "border border-line bg-white shadow-card"
          }`}
        >
          <dt className={`mt-1 text-sm font-medium ${dark ? "text-primary-100" : "text-ink-soft"}`}>
            {stat.label}
          </dt>
          <dd
            className={`text-3xl font-bold tracking-tight sm:text-4xl ${dark ? "text-white" : "text-primary-700"}`}
          >
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
