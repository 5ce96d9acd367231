DROP TABLE "alert" CASCADE;
--> statement-breakpoint
DROP TABLE "case_priority" CASCADE;
--> statement-breakpoint
DROP TABLE "case_severity" CASCADE;
--> statement-breakpoint
DROP TABLE "case_type" CASCADE;
--> statement-breakpoint
DROP TABLE "definition" CASCADE;
--> statement-breakpoint
DROP TABLE "definition_term" CASCADE;
--> statement-breakpoint
DROP TABLE "document" CASCADE;
--> statement-breakpoint
DROP TABLE "document_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "entity" CASCADE;
--> statement-breakpoint
DROP TABLE "entity_type" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_cost_type" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_priority" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_severity" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_type" CASCADE;
--> statement-breakpoint
DROP TABLE "individual_contact" CASCADE;
--> statement-breakpoint
DROP TABLE "individual_contact_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "notification" CASCADE;
--> statement-breakpoint
DROP TABLE "notification_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "query" CASCADE;
--> statement-breakpoint
DROP TABLE "query_tag" CASCADE;
--> statement-breakpoint
DROP TABLE "search_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "service" CASCADE;
--> statement-breakpoint
DROP TABLE "service_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "source" CASCADE;
--> statement-breakpoint
DROP TABLE "source_data_format" CASCADE;
--> statement-breakpoint
DROP TABLE "source_environment" CASCADE;
--> statement-breakpoint
DROP TABLE "source_status" CASCADE;
--> statement-breakpoint
DROP TABLE "source_tag" CASCADE;
--> statement-breakpoint
DROP TABLE "source_transport" CASCADE;
--> statement-breakpoint
DROP TABLE "source_type" CASCADE;
--> statement-breakpoint
DROP TABLE "tag" CASCADE;
--> statement-breakpoint
DROP TABLE "tag_type" CASCADE;
--> statement-breakpoint
DROP TABLE "team_contact" CASCADE;
--> statement-breakpoint
DROP TABLE "team_contact_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "term" CASCADE;
