import { ArrowUp } from "lucide-react";
import { Link } from "react-router";
import { Container } from "~/components/ui/container";
import type { Policy, PolicyBlock } from "~/content/policies";
import { RichText } from "./service-rich-text";

function Block({ block }: { block: PolicyBlock }) {
  if (block.kind === "p") {
    return (
      <p>
        <RichText value={block.text} />
      </p>
    );
  }
  return (
    <ul className="list-disc space-y-2 pl-6 marker:text-primary-600">
      {block.items.map((item, index) => (
        <li key={index} className="pl-1">
          <RichText value={item} />
        </li>
      ))}
    </ul>
  );
}

/** A policy page: title, "Last updated" date, a table of contents and numbered sections. */
export function PolicyPage({
  policy,
  otherPolicy,
}: {
  policy: Policy;
  otherPolicy: Pick<Policy, "title" | "path">;
}) {
  return (
    <main id="main">
      <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
        <Container className="py-10 sm:py-14">
          <div className="max-w-[70ch]">
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Legal</p>
            <h1 id="top" className="mt-2 scroll-mt-24 text-3xl font-bold tracking-tight text-ink sm:text-4xl">
              {policy.title}
            </h1>
            <p className="mt-3 text-sm font-medium text-ink-muted">{`Last updated ${policy.lastUpdated}`}</p>
            <p className="mt-5 text-lg text-ink-soft">
              <RichText value={policy.intro} />
            </p>
          </div>
        </Container>
      </section>

      <Container className="py-10 sm:py-14">
        <div className="grid gap-10 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-16">
          <nav
            aria-labelledby="toc-heading"
            className="lg:sticky lg:top-24 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto"
          >
            <div className="rounded-card border border-line bg-surface p-5">
              <h2 id="toc-heading" className="text-sm font-semibold tracking-wide text-ink uppercase">
                On this page
              </h2>
              <ol className="mt-3 space-y-1.5 text-sm">
                {policy.sections.map((section, index) => (
                  <li key={section.id} className="flex gap-2">
                    <span className="w-5 shrink-0 text-right text-ink-muted tabular-nums">{index + 1}.</span>
                    <a
                      href={`#${section.id}`}
                      className="text-primary-700 hover:text-primary-800 hover:underline"
                    >
                      {section.title}
                    </a>
                  </li>
                ))}
              </ol>
            </div>
          </nav>

          <div className="max-w-[70ch] min-w-0 space-y-10 leading-relaxed text-ink-soft">
            {policy.sections.map((section, index) => (
              <section key={section.id} aria-labelledby={section.id}>
                <h2
                  id={section.id}
                  className="scroll-mt-24 text-xl font-bold tracking-tight text-ink sm:text-2xl"
                >
                  <span className="text-ink-muted">{index + 1}. </span>
                  {section.title}
                </h2>
                <div className="mt-4 space-y-4">
                  {section.blocks.map((block, blockIndex) => (
                    <Block key={blockIndex} block={block} />
                  ))}
                </div>
              </section>
            ))}

            <div className="flex flex-wrap items-center justify-between gap-4 border-t border-line pt-6 text-sm">
              <p>
                See also our{" "}
                <Link
                  to={otherPolicy.path}
                  className="font-medium text-primary-700 underline underline-offset-2 hover:text-primary-800"
                >
                  {otherPolicy.title}
                </Link>
                .
              </p>
              <a
                href="#top"
                className="inline-flex items-center gap-1 font-medium text-primary-700 hover:underline"
              >
                <ArrowUp className="size-4" aria-hidden="true" />
                Back to top
              </a>
            </div>
          </div>
        </div>
      </Container>
    </main>
  );
}
