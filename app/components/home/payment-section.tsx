import { Lock, Tag } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { Spinner } from "~/components/ui/spinner";
import { useEnhancement } from "~/components/use-enhancement";
import { attr, part, PAYMENT, widget } from "~/enhance/contract";
import { bindPayButton } from "~/enhance/payment";
import { paymentPricingGrid, paymentSection } from "~/content/home";
import { CardLogo } from "./card-logos";
import { When } from "~/components/ui/when";

/**
 * The payment button (docs/product/public-site.md#payment-offer): a form that goes to /pay, which
 * takes a signed-in client to their open fee and anyone else to sign in first. With JavaScript it
 * reads PROCESSING... on the way (app/enhance/payment.ts).
 */
function PayButton() {
  const ref = useEnhancement<HTMLFormElement>(bindPayButton);
  return (
    <form
      ref={ref}
      method="get"
      action={paymentSection.action}
      {...widget("pay-button")}
      {...attr(PAYMENT.busyLabel, paymentSection.busyLabel)}
      {...attr(PAYMENT.failureMessage, paymentSection.failureMessage)}
    >
      <Button
        type="submit"
        size="lg"
        className="w-full px-4 py-4 text-lg tracking-wide whitespace-normal aria-disabled:cursor-wait aria-disabled:opacity-80"
      >
        <When state="busy" shown={false}>
          <Spinner className="size-4" />
        </When>
        <When state="idle" shown>
          <Lock className="size-5 shrink-0" aria-hidden="true" />
        </When>
        <span {...part(PAYMENT.label)}>{paymentSection.buttonLabel}</span>
      </Button>
      <p role="status" className="sr-only" {...part(PAYMENT.status)} />
    </form>
  );
}

/**
 * The offer (₹299, struck from ₹499), accepted cards, the pay button and, on the home page, the
 * grid of filing fees below it (the pricing page has its own plans: `feeGrid` false).
 */
export function PaymentSection({ feeGrid = true }: { feeGrid?: boolean }) {
  return (
    <section aria-labelledby="payment-heading" className="py-16 sm:py-20">
      <Container>
        <div className="grid grid-cols-[minmax(0,1fr)] items-center gap-10 rounded-3xl border border-accent-100 bg-accent-50 px-4 py-8 sm:p-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
          <div>
            <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">
              {paymentSection.overline}
            </p>
            <h2 id="payment-heading" className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">
              {paymentSection.title}
            </h2>
            <p className="mt-4 max-w-[60ch] text-lg text-ink-soft">{paymentSection.lead}</p>
            <h3 className="mt-8 text-sm font-semibold text-ink">Cards we accept</h3>
            <ul className="mt-3 flex flex-wrap gap-3">
              {paymentSection.acceptedCards.map((card) => (
                <li key={card.brand} className="rounded-md bg-white shadow-sm">
                  <CardLogo brand={card.brand} name={card.name} />
                </li>
              ))}
            </ul>
          </div>

          <div className="rounded-card border border-line bg-white p-5 shadow-card sm:p-8">
            <div className="flex flex-wrap gap-2">
              <p className="inline-flex items-center gap-1.5 rounded-full bg-accent-500 px-3 py-1 text-xs font-bold tracking-wide text-ink">
                <Tag className="size-3.5" aria-hidden="true" />
                {paymentSection.offerLabel}
              </p>
              <p className="inline-flex items-center rounded-full bg-emerald-50 px-3 py-1 text-xs font-bold text-emerald-800 ring-1 ring-emerald-200">
                {paymentSection.saveLabel}
              </p>
            </div>
            <p className="mt-5 flex items-baseline gap-3">
              <span className="sr-only">Offer price: </span>
              <span className="text-5xl font-extrabold tracking-tight text-ink">{paymentSection.price}</span>
              <del className="text-2xl font-semibold text-ink-muted decoration-2">
                <span className="sr-only">Regular price: </span>
                {paymentSection.originalPrice}
              </del>
            </p>
            <p className="mt-1 text-sm text-ink-muted">One-time booking fee, in Indian rupees.</p>
            <div className="mt-6">
              <PayButton />
            </div>
          </div>
        </div>

        {feeGrid ? (
          <div className="mt-14">
            <h3 className="text-center text-2xl font-bold tracking-tight text-ink">Our filing fees</h3>
            <p className="mx-auto mt-2 max-w-2xl text-center text-ink-soft">
              Fees in US dollars. We confirm your fee before any work starts.
            </p>
            <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
              {paymentPricingGrid.map((entry) => (
                <li
                  key={entry.name}
                  className="flex flex-col rounded-card border border-line bg-white p-5 shadow-card"
                >
                  <h4 className="font-semibold text-ink lg:min-h-12">{entry.name}</h4>
                  <p className="mt-2 text-2xl font-bold tracking-tight text-primary-700">{entry.price}</p>
                  <p className="mt-2 text-sm text-ink-soft">{entry.note}</p>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Container>
    </section>
  );
}
