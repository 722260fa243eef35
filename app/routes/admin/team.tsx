import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/team";
import { InviteForm } from "~/components/admin/team/invite-form";
import { TeamList } from "~/components/admin/team/team-list";
import { Alert } from "~/components/ui/field";
import { TEAM_MESSAGES, TeamForm } from "~/domain/team";
import type { TeamFormValues } from "~/domain/team";
import { seo } from "~/seo";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import {
  deactivateStaff,
  inviteStaff,
  listTeam,
  reactivateStaff,
  resetSecondFactor,
} from "~/server/team/team.server";
import type { TeamChangeOutcome } from "~/server/team/team.server";
import { OUTSIDE_US_MESSAGES, setWorksOutsideUs } from "~/server/consents/outside-us.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Team",
    description: "The staff of the panel: invitations, roles and access.",
    noindex: true,
  });

export function headers() {
  return NO_STORE;
}

export async function loader({ context }: Route.LoaderArgs) {
  const admin = context.get(staffContext);
  return data({ members: await listTeam(), meId: admin.id }, { headers: NO_STORE });
}

type Answer = {
  ok: boolean;
  message: string;
  errors?: Partial<Record<"fullName" | "email" | "role", string>>;
  values?: { fullName?: string; email?: string; role?: string };
};

const CHANGE_MESSAGES: Record<
  Exclude<TeamFormValues["intent"], "invite" | "outside-us">,
  Record<TeamChangeOutcome, string>
> = {
  deactivate: {
    done: TEAM_MESSAGES.deactivated,
    yourself: TEAM_MESSAGES.notYourself,
    "last-admin": TEAM_MESSAGES.lastAdmin,
    "not-found": TEAM_MESSAGES.notFound,
    already: TEAM_MESSAGES.alreadyDeactivated,
    "not-enrolled": TEAM_MESSAGES.notEnrolled,
  },
  reactivate: {
    done: TEAM_MESSAGES.reactivated,
    yourself: TEAM_MESSAGES.notYourself,
    "last-admin": TEAM_MESSAGES.lastAdmin,
    "not-found": TEAM_MESSAGES.notFound,
    already: TEAM_MESSAGES.notDeactivated,
    "not-enrolled": TEAM_MESSAGES.notEnrolled,
  },
  "reset-second-factor": {
    done: TEAM_MESSAGES.secondFactorReset,
    yourself: TEAM_MESSAGES.notYourself,
    "last-admin": TEAM_MESSAGES.lastAdmin,
    "not-found": TEAM_MESSAGES.notFound,
    already: TEAM_MESSAGES.notEnrolled,
    "not-enrolled": TEAM_MESSAGES.notEnrolled,
  },
};

async function change(
  admin: SessionUser,
  form: Exclude<TeamFormValues, { intent: "invite" | "outside-us" }>,
  ip: string,
): Promise<TeamChangeOutcome> {
  switch (form.intent) {
    case "deactivate":
      return deactivateStaff(admin, form.userId, ip);
    case "reactivate":
      return reactivateStaff(admin, form.userId, ip);
    case "reset-second-factor":
      return resetSecondFactor(admin, form.userId, ip);
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  const parsed = await parseForm(request, TeamForm);
  if (!parsed.ok) {
    const pick = (name: string) => [parsed.raw[name] ?? ""].flat()[0] ?? "";
    const invite = pick("intent") === "invite";
    return data<Answer>(
      {
        ok: false,
        message: invite ? "Please correct the highlighted fields." : "That request could not be read.",
        errors: invite ? parsed.errors : undefined,
        values: invite ? { fullName: pick("fullName"), email: pick("email"), role: pick("role") } : undefined,
      },
      { status: 400, headers: NO_STORE },
    );
  }
  const form = parsed.values;
  if (form.intent === "invite") {
    const outcome = await inviteStaff(admin, form, context.clientIp);
    if (outcome === "exists")
      return data<Answer>(
        { ok: false, message: TEAM_MESSAGES.exists, errors: { email: TEAM_MESSAGES.exists }, values: form },
        { status: 409, headers: NO_STORE },
      );
    return data<Answer>(
      { ok: true, message: outcome === "created" ? TEAM_MESSAGES.invited : TEAM_MESSAGES.invitedAgain },
      { headers: NO_STORE },
    );
  }
  if (form.intent === "outside-us") {
    // Where a staff member works (docs/product/engagement.md#staff-outside-the-united-states), audited.
    const marked = await setWorksOutsideUs(admin, form.userId, form.outside === "yes", context.clientIp);
    if (marked.outcome !== "done") {
      const refusals = { yourself: TEAM_MESSAGES.notYourself, "not-found": TEAM_MESSAGES.notFound, already: TEAM_MESSAGES.alreadyMarked } as const;
      return data<Answer>({ ok: false, message: refusals[marked.outcome] }, { status: marked.outcome === "not-found" ? 404 : 409, headers: NO_STORE });
    }
    const message = form.outside === "yes" ? OUTSIDE_US_MESSAGES.marked(marked.name) : OUTSIDE_US_MESSAGES.unmarked(marked.name);
    return data<Answer>({ ok: true, message }, { headers: NO_STORE });
  }
  const outcome = await change(admin, form, context.clientIp);
  const status = outcome === "done" ? 200 : outcome === "not-found" ? 404 : 409;
  return data<Answer>(
    { ok: outcome === "done", message: CHANGE_MESSAGES[form.intent][outcome] },
    { status, headers: NO_STORE },
  );
}

export default function AdminTeam() {
  const { members, meId } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Team</h1>
      <p className="mt-1 text-sm text-ink-muted">
        Everyone with access to the staff panel. Times are shown in your time zone.
      </p>
      {answer ? (
        <div className="mt-4">
          <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert>
        </div>
      ) : null}
      <div className="mt-6">
        <InviteForm
          // A new, empty form after each invitation sent (the list grows by one).
          key={answer?.ok ? `sent-${members.length}` : "editing"}
          errors={answer?.errors}
          values={answer?.ok ? undefined : answer?.values}
        />
      </div>
      <h2 className="mt-8 text-lg font-semibold text-ink">Staff</h2>
      <div className="mt-3">
        <TeamList members={members} meId={meId} />
      </div>
    </>
  );
}
