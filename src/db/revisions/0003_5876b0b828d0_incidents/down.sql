DROP TABLE "event" CASCADE;
--> statement-breakpoint
DROP TABLE "feedback" CASCADE;
--> statement-breakpoint
DROP TABLE "incident" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_cost" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_duplicate" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_role_policy" CASCADE;
--> statement-breakpoint
DROP TABLE "role_policy_incident_priority" CASCADE;
--> statement-breakpoint
DROP TABLE "role_policy_tag" CASCADE;
--> statement-breakpoint
DROP TABLE "role_policy_incident_type" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_tag" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_term" CASCADE;
--> statement-breakpoint
DROP TABLE "participant" CASCADE;
--> statement-breakpoint
DROP TABLE "participant_role" CASCADE;
--> statement-breakpoint
DROP TABLE "report" CASCADE;
--> statement-breakpoint
DROP TABLE "task" CASCADE;
--> statement-breakpoint
DROP TABLE "task_assignee" CASCADE;
