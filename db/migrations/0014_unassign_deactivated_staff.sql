-- A deactivation now unassigns the member's cases (app/server/team.server.ts deactivateStaff).
-- Cases still assigned to an account deactivated before that are unassigned here, each with the
-- audit entry a deactivation writes (no actor: the change is the migration's).
INSERT INTO audit_log (actor_id, actor_email, action, client_id, tax_year, detail)
SELECT NULL, NULL, 'case-assigned', c.user_id, c.tax_year, 'assignee: none (' || s.email || ' deactivated)'
FROM client_cases c JOIN "user" s ON s.id = c.assignee_id
WHERE s.deactivated_at IS NOT NULL;--> statement-breakpoint
UPDATE client_cases SET assignee_id = NULL, updated_at = now()
WHERE assignee_id IN (SELECT id FROM "user" WHERE deactivated_at IS NOT NULL);
