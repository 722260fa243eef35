import type { ComponentProps } from "react";

export function Container({ className = "", ...props }: ComponentProps<"div">) {
  return <div className={`mx-auto w-full max-w-[1200px] px-4 sm:px-6 lg:px-8 ${className}`} {...props} />;
}

/** A page section title block: small overline, heading and lead text. */
export function SectionHeading({
  overline,
  title,
  lead,
  level = 2,
  align = "center",
  id,
}: {
  overline?: string;
  title: string;
  lead?: string;
  level?: 1 | 2;
  align?: "center" | "left";
  id?: string;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <div className={align === "center" ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      {overline ? (
        <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">{overline}</p>
      ) : null}
      <Heading id={id} className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">
        {title}
      </Heading>
      {lead ? <p className="mt-4 text-lg text-ink-soft">{lead}</p> : null}
    </div>
  );
}
