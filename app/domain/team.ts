/**
 * The team page (admins only): inviting staff, deactivating and reactivating them, and resetting
 * someone's second factor. The forms' schemas and what the page shows of each staff member.
 */
import { formsByIntent } from "./admin";
import { AUTH_MESSAGES, formField } from "./auth";
import { STAFF_ROLES } from "./policy";
import type { StaffRole } from "./policy";
import { EMAIL_SHAPE, hasControlCharacters } from "./validation";
import { z } from "./zod";

/** What the page says of each role. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  admin: "Admin",
  preparer: "Preparer",
};

/** A staff member as the team page lists them (times are ISO strings). */
export type TeamMember = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** The newest sign-in, or null when they have never signed in. */
  lastSignInAt: string | null;
  secondFactor: "enrolled" | "not-enrolled";
  /** Set while the account is deactivated. */
  deactivatedAt: string | null;
  /** No password chosen yet (nor any other way to sign in): the invitation is still open. */
  invitationPending: boolean;
  /** Marked by an admin as working outside the United States (docs/product/engagement.md#staff-outside-the-united-states). */
  worksOutsideUs: boolean;
};

const accountId = formField.pipe(
  z
    .string()
    .min(1, "Choose a staff member.")
    .max(200, "Choose a staff member.")
    .refine((id) => !id.includes("\u0000"), "Choose a staff member."),
);

export const InviteStaffForm = z.object({
  intent: z.literal("invite"),
  fullName: formField
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, AUTH_MESSAGES.fullNameRequired)
        .max(100, AUTH_MESSAGES.nameTooLong)
        .refine((v) => !hasControlCharacters(v), AUTH_MESSAGES.nameInvalid),
    ),
  email: formField
    .transform((v) => v.trim().toLowerCase())
    .pipe(
      z
        .string()
        .min(1, AUTH_MESSAGES.emailRequired)
        .max(254, AUTH_MESSAGES.emailInvalid)
        .refine((v) => EMAIL_SHAPE.test(v), AUTH_MESSAGES.emailInvalid),
    ),
  role: formField.pipe(z.enum(STAFF_ROLES, { error: "Choose a role: admin or preparer." })),
});
export type InviteStaffInput = z.output<typeof InviteStaffForm>;

export const DeactivateStaffForm = z.object({ intent: z.literal("deactivate"), userId: accountId });
export const ReactivateStaffForm = z.object({ intent: z.literal("reactivate"), userId: accountId });
export const ResetSecondFactorForm = z.object({
  intent: z.literal("reset-second-factor"),
  userId: accountId,
});

/** Marks a staff member as working outside the United States ("yes") or in it ("no"). */
export const OutsideUsForm = z.object({
  intent: z.literal("outside-us"),
  userId: accountId,
  outside: formField.pipe(z.enum(["yes", "no"], { error: "Choose where they work." })),
});

/** Every form of the team page, told apart by its intent. */
export const TeamForm = formsByIntent([
  InviteStaffForm,
  DeactivateStaffForm,
  ReactivateStaffForm,
  ResetSecondFactorForm,
  OutsideUsForm,
]);
export type TeamFormValues = z.output<typeof TeamForm>;

/** What the page says after each outcome. */
export const TEAM_MESSAGES = {
  invited: "The invitation is being e-mailed. They choose a password from its link, then set up their second factor.",
  invitedAgain: "That invitation was still waiting: a new one is being e-mailed.",
  exists: "That e-mail address already belongs to an account.",
  deactivated: "Deactivated. Their sessions have ended and their cases are unassigned.",
  reactivated: "Reactivated. They can sign in again.",
  secondFactorReset: "Second factor reset. They set it up again at their next sign-in.",
  notYourself: "You cannot do that to your own account.",
  lastAdmin: "This is the last active admin: make someone else an admin first.",
  notFound: "That staff member was not found.",
  alreadyDeactivated: "That account is already deactivated.",
  notDeactivated: "That account is active.",
  notEnrolled: "They have no second factor to reset.",
  alreadyMarked: "That is already where they are marked as working.",
} as const;
