import { Link } from "react-router";
import type { RichText as RichTextValue } from "~/content/service-details";

const linkClass = "font-medium text-primary-700 underline underline-offset-2 hover:text-primary-800";

/** Text with optional links: paths starting with "/" are in-app links, anything else a plain anchor. */
export function RichText({ value }: { value: RichTextValue }) {
  if (typeof value === "string") return <>{value}</>;
  return (
    <>
      {value.map((part, index) => {
        if (typeof part === "string") return <span key={index}>{part}</span>;
        if (part.href.startsWith("/")) {
          return (
            <Link key={index} to={part.href} className={linkClass}>
              {part.text}
            </Link>
          );
        }
        const external = part.href.startsWith("http");
        return (
          <a
            key={index}
            href={part.href}
            className={linkClass}
            {...(external ? { rel: "noopener noreferrer" } : {})}
          >
            {part.text}
          </a>
        );
      })}
    </>
  );
}
